rockspec_format = "3.0"
package = "gpuarray"
version = "scm-1"

source = {
  url = "git+https://example.invalid/gpuarray.git",
}

description = {
  summary = "NumPy-style n-dimensional arrays on NVIDIA GPUs for Lua 5.4 (CuPy for Lua)",
  detailed = [[
gpuarray gives Lua 5.4 what CuPy gives Python: an n-dimensional array type
whose data lives on an NVIDIA GPU (or on the host), with NumPy semantics
(broadcasting, dtypes and NumPy 2 promotion), element-wise kernels compiled
at run time with NVRTC and cached on disk, matrix products with cuBLAS, a
caching device memory pool, devices and streams.  Written in C against the
CUDA runtime; it loads and runs (on the host backend) on machines with the
CUDA toolkit but no GPU.
]],
  license = "MIT",
  labels = { "gpu", "cuda", "array", "numpy", "cupy" },
}

dependencies = {
  "lua >= 5.4, < 5.5",
}

-- The CUDA toolkit (nvcc is not needed): pass CUDA_DIR=/usr/local/cuda.
-- OpenBLAS (Debian: libopenblas-dev) must be where the linker finds it.
-- zlib (Debian: zlib1g-dev) deflates and inflates .npz members.
external_dependencies = {
  CUDA = {
    header = "cuda_runtime_api.h",
    library = "cudart",
  },
  ZLIB = {
    header = "zlib.h",
    library = "z",
  },
}

build = {
  type = "make",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LIBFLAG = "$(LIBFLAG)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    CUDA_DIR = "$(CUDA_DIR)",
    INST_LIBDIR = "$(LIBDIR)",
    INST_LUADIR = "$(LUADIR)",
    LUA = "$(LUA)",
  },
  install_variables = {
    INST_INCDIR = "$(PREFIX)/include",   -- include/gpuarray.h, the C API
    CFLAGS = "$(CFLAGS)",
    LIBFLAG = "$(LIBFLAG)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    CUDA_DIR = "$(CUDA_DIR)",
    INST_LIBDIR = "$(LIBDIR)",
    INST_LUADIR = "$(LUADIR)",
    LUA = "$(LUA)",
  },
}
