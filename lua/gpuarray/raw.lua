--- Raw CUDA kernels, as CuPy's `cupy.RawKernel` and `cupy.RawModule`, and
-- typed scalars for their arguments.  The C module does the work
-- (src/binding/lga_raw.c, src/cuda/ga_cuda_raw.c); this file documents it.
-- @module gpuarray.raw

local core = require "gpuarray.core"

local M = {}

--- A kernel written in CUDA C++ (CuPy's `RawKernel`).
--
-- `code` is CUDA C++ source declaring `extern "C" __global__` functions;
-- `name` is the one to call.  The code is compiled as given with NVRTC (C++17,
-- plus the flags in `options.options`) the first time the kernel is called,
-- for the current device's architecture; the image is cached on disk (in a
-- directory private to the user: see GPUARRAY_CACHE_DIR), and the
-- loaded module is shared per device by every kernel with the same code and
-- options.  A compile error is a Lua error with NVRTC's log and the numbered
-- source; an unknown `name` is an error at the first call.
--
-- `k(grid, block, args [, {shared_mem =, stream =}])` launches it on the
-- current device: `grid` and `block` are an integer or a table of 1 to 3
-- integers; `args` is a table with one entry per kernel parameter: an array
-- (on the current device; passed as a pointer to its first element, whatever
-- its layout), a typed scalar `ga.scalar(v, dtype)`, a Lua integer (an
-- `int64` parameter), a Lua float (`double`) or a boolean (`bool`), as CuPy
-- maps Python's int and float.  `shared_mem` is the dynamic shared memory in
-- bytes (above 48 KiB the kernel is opted in); `stream` a `ga.cuda.Stream`
-- (default: the current stream).  A read-only array (`x.flags.writeable`
-- false: a read-only DLPack import, a C host's read-only buffer, a
-- read-only memory map) is taken only for a parameter the source declares a
-- pointer to const (`const float *x`, `float const *__restrict__ x`); for
-- any other parameter, or when the declaration cannot be read (made by a
-- macro, or a CUBIN/PTX image), the call is an error naming the kernel,
-- `args[i]` and the parameter (CuPy does not check; here read-only memory is
-- never written).  The launch is queued in order with the
-- built-in operations and never synchronises; the block size is checked
-- against the device and the kernel's own limit first.
--
-- `k:compile([{arch = 90}])` compiles without a GPU (arch: a compute
-- capability from 30 to 1000; default the current device's, else 90) and
-- returns the image's size and whether it is PTX; `k.name`, `k.code`,
-- `k.options` and `k.module` are attributes.
-- @function ga.RawKernel
-- @tparam string code CUDA C++ source with `extern "C" __global__` functions
-- @tparam string name the function to call
-- @tparam[opt] table options `options` (a table of extra NVRTC flags such as
--   `"-DN=4"`), `backend` (only `"nvrtc"`); CuPy's `translate_cucomplex`,
--   `jitify` and `enable_cooperative_groups` are accepted only as false
-- @return a callable kernel object
-- @usage
-- local saxpy = ga.RawKernel([[
-- extern "C" __global__ void saxpy(float a, const float *x, float *y, long long n) {
--   long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
--   if (i < n) y[i] = a * x[i] + y[i];
-- }]], "saxpy")
-- print(saxpy.name, saxpy:compile() > 0)                 --> saxpy  true
-- if ga.cuda.is_available() then
--   local x, y = ga.arange(4, "float32"), ga.ones(4, "float32")
--   saxpy(1, 4, {ga.scalar(2, "float32"), x, y, 4})
--   print(y)                                             --> array([1., 3., 5., 7.], dtype=float32)
-- end
M.RawKernel = core.RawKernel

--- A module of CUDA C++ kernels (CuPy's `RawModule`).
--
-- `ga.RawModule{code = src, options = {...}}` compiles `src` as `ga.RawKernel`
-- does (lazily, shared, cached); `ga.RawModule{path = file}` reads a `.cu`
-- source, or loads a `.cubin` or `.ptx` image as it is.  `mod:get_function(name)`
-- returns a kernel (called as a `ga.RawKernel`) that shares the module;
-- `mod:compile([{arch =}])` compiles without a GPU (image size, is_ptx).
-- CuPy's `name_expressions` (C++ template instances) are not supported: wrap
-- each instance in an `extern "C" __global__` function.
-- @function ga.RawModule
-- @tparam table spec `code` or `path`, and `options` (extra NVRTC flags)
-- @return a module object
-- @usage
-- local mod = ga.RawModule{code = [[
-- extern "C" __global__ void fill(float *y, float v) { y[threadIdx.x] = v; }
-- extern "C" __global__ void scale(float *y, float a) { y[threadIdx.x] *= SCALE * a; }
-- ]], options = {"-DSCALE=2"}}
-- print(mod:compile() > 0)                    --> true
-- local fill, scale = mod:get_function("fill"), mod:get_function("scale")
-- if ga.cuda.is_available() then
--   local y = ga.empty(3, "float32")
--   fill(1, 3, {y, 1.5})          -- a Lua float is a double: wrong here, so:
--   fill(1, 3, {y, ga.scalar(1.5, "float32")})
--   scale(1, 3, {y, ga.scalar(2, "float32")})
--   print(y)                                  --> array([6., 6., 6.], dtype=float32)
-- end
M.RawModule = core.RawModule

--- A typed scalar, for a kernel parameter of a given C type.
--
-- `value` is a number or a boolean (a table `{re, im}` for a complex dtype);
-- integers must fit the dtype and floats given for an integer dtype must be
-- integral.  `s.value` and `s.dtype` read it back.
-- @function ga.scalar
-- @param value a number, boolean or `{re, im}`
-- @string dtype its dtype, e.g. `"int32"` or `ga.float32`
-- @return a typed scalar
-- @usage
-- local n = ga.scalar(5, "int32")
-- print(n.value, n.dtype)            --> 5  int32
-- print(ga.scalar(0.5, ga.float16))  --> scalar(0.5, float16)
M.scalar = core.scalar

return { ga = M, host = {} }
