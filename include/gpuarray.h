/* gpuarray.h -- the C API of gpuarray for programs that host Lua 5.4.
 *
 * A host program that runs Lua with gpuarray can, without touching Lua's
 * stack internals: read the array at a stack index as a plain C view;
 * push arrays over memory it owns (device or host, with a release
 * callback) or copies of it; convert arrays to and from DLPack
 * (DLManagedTensorVersioned); get and set a lua_State's current device
 * and CUDA stream; install its own allocator; read the pool statistics.
 *
 * Linking model.  gpuarray is a Lua C module (gpuarray/core.so) that the
 * host does not link against.  Once the state has loaded it
 * (`require "gpuarray"` or `require "gpuarray.core"`), the module has put
 * a table of function pointers in the state's registry; the inline
 * gpuarray_get_api(L) below fetches it and checks its version:
 *
 *     luaL_dostring(L, "ga = require 'gpuarray'");
 *     const gpuarray_api *api = gpuarray_get_api(L);
 *     if (!api) { ...gpuarray not loaded, or too old... }
 *     gpuarray_view v;
 *     lua_getglobal(L, "x");
 *     if (api->get_view(L, -1, &v) == 0) { ...v.data, v.shape...; api->release_view(L, &v); }
 *
 * Nothing else of gpuarray is needed: this header is self-contained C99
 * (it includes <lua.h>, <stdint.h>, <stddef.h>); the host links Lua, not
 * gpuarray.  core.so also exports `gpuarray_capi()` (see the end).
 *
 * Rules.
 *  - Every function returns 0 on success and nonzero on failure, and never
 *    raises a Lua error (out-of-memory inside Lua itself excepted, as for
 *    any Lua API call); api->last_error() gives the message (per thread).
 *  - A lua_State is used by one thread at a time (Lua's own rule); the
 *    functions taking L follow it.  Memory can be shared between states
 *    and threads (push_wrap the same pointer into several states).
 *  - Memory that a Lua object owns (ga.cuda.UnownedMemory, a Lua
 *    allocator function) is let go through that state's registry: the
 *    last reference to such an array (a view, a DLPack export) must be
 *    dropped on the thread that runs the state, before lua_close.  Arrays
 *    from pools, from push_wrap and from C allocators have no such rule.
 *  - Devices: -1 is the host (cpu), 0..N-1 CUDA ordinals.  Streams are
 *    cudaStream_t passed as void * (NULL: the legacy default stream).
 *  - Work on arrays is queued on the state's current stream of their
 *    device: before the host reads a view's device data from another
 *    stream, it synchronises that stream (cudaStreamSynchronize(
 *    api->get_stream(L))) or makes its stream wait on it.
 *  - dtype codes are api->dtype_from_name("float32") etc. (the same for
 *    every build of one API version; 0 = bool ... 13 = complex128 in
 *    GPUARRAY_API_VERSION 1: bool int8 uint8 int16 uint16 int32 uint32
 *    int64 uint64 float16 float32 float64 complex64 complex128).
 */
#ifndef GPUARRAY_H
#define GPUARRAY_H

#include <stddef.h>
#include <stdint.h>
#include <lua.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: api->version must equal it (a new
 * version may append members; gpuarray_get_api checks both). */
#define GPUARRAY_API_VERSION 1
#define GPUARRAY_MAXDIM 32
#define GPUARRAY_CPU (-1)
/* The registry field that holds the table (a light userdata). */
#define GPUARRAY_API_REGISTRY_KEY "gpuarray.capi"

/* ---- DLPack 1.x (https://dmlc.github.io/dlpack/latest/c_api.html): the
 * official definitions, guarded as dlpack.h guards them so that either
 * header may come first ---- */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1
typedef struct { uint32_t major; uint32_t minor; } DLPackVersion;
typedef enum {
  kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLOpenCL = 4, kDLVulkan = 7, kDLMetal = 8, kDLVPI = 9,
  kDLROCM = 10, kDLROCMHost = 11, kDLExtDev = 12, kDLCUDAManaged = 13, kDLOneAPI = 14, kDLWebGPU = 15,
  kDLHexagon = 16, kDLMAIA = 17
} DLDeviceType;
typedef struct { DLDeviceType device_type; int32_t device_id; } DLDevice;
typedef enum {
  kDLInt = 0U, kDLUInt = 1U, kDLFloat = 2U, kDLOpaqueHandle = 3U, kDLBfloat = 4U, kDLComplex = 5U, kDLBool = 6U
} DLDataTypeCode;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;     /* in elements; NULL: compact row-major */
  uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;
#endif /* DLPACK_DLPACK_H_ */

/* A plain C view of an array.  The array stays alive (and data valid)
 * until release_view(L, view) on the same state. */
typedef struct gpuarray_view {
  void *data;                         /* address of element 0 (device or host) */
  int device;                         /* GPUARRAY_CPU or a CUDA ordinal */
  int dtype;                          /* dtype code */
  const char *dtype_name;             /* "float32" (static storage) */
  int itemsize;                       /* bytes per element */
  int ndim;
  int64_t size;                       /* number of elements */
  int64_t shape[GPUARRAY_MAXDIM];
  int64_t strides[GPUARRAY_MAXDIM];   /* in bytes (may be 0 or negative) */
  int c_contiguous;
  int ref_;                           /* private: the reference that keeps the array alive */
} gpuarray_view;

/* Called once when the last array over host-owned memory is gone (from
 * the thread that drops it; NULL: nothing to do). */
typedef void (*gpuarray_release_fn)(void *ctx, void *data);
/* An allocator: allocate nbytes on device for stream (return 0 and set
 * *ptr), free it (with the same nbytes, device and stream).  Device
 * memory for CUDA devices; host memory for device -1 (arrays of the host
 * backend when the host is current). */
typedef int (*gpuarray_alloc_fn)(void *ctx, size_t nbytes, int device, void *stream, void **ptr);
typedef void (*gpuarray_free_fn)(void *ctx, void *ptr, size_t nbytes, int device, void *stream);

typedef struct gpuarray_pool_stats {
  size_t used_bytes;    /* in blocks held by arrays */
  size_t total_bytes;   /* held from the device (used + cached) */
  size_t n_free_blocks; /* cached blocks */
  size_t limit;         /* 0: none */
} gpuarray_pool_stats;

typedef struct gpuarray_api {
  int version;          /* GPUARRAY_API_VERSION */
  size_t size;          /* sizeof(gpuarray_api) of the module */

  /* The message of the last failure of this thread. */
  const char *(*last_error)(void);
  /* dtype code of a name ("float32", "f4", ...), -1 if unknown; its name. */
  int (*dtype_from_name)(const char *name);
  const char *(*dtype_name)(int dtype);

  /* The array at stack index idx as a view holding a reference (fails for
   * anything else, or a freed array).  Work queued on the array so far is
   * submitted to the state's current stream (synchronise it, or order the
   * host's stream after it, before reading device data). */
  int (*get_view)(lua_State *L, int idx, gpuarray_view *view);
  void (*release_view)(lua_State *L, gpuarray_view *view);   /* idempotent */

  /* Push an array over data that the host owns (no copy): strides in
   * bytes (NULL: C-contiguous); release(ctx, data) runs once when the
   * last array or view over it is gone. */
  int (*push_wrap)(lua_State *L, void *data, int device, int dtype, int ndim, const int64_t *shape,
                   const int64_t *strides, gpuarray_release_fn release, void *ctx);
  /* Push a new C-contiguous array on device with a copy of data (which
   * may live on any device; strides in bytes, NULL: C-contiguous). */
  int (*push_copy)(lua_State *L, const void *data, int data_device, int device, int dtype, int ndim,
                   const int64_t *shape, const int64_t *strides);

  /* The array at idx as a DLPack tensor (no copy; the caller calls
   * (*out)->deleter(*out) once when done).  Its data is ready on the
   * state's current stream. */
  int (*to_dlpack)(lua_State *L, int idx, DLManagedTensorVersioned **out);
  /* Push an array over a DLPack tensor (no copy).  On success the array
   * owns it (its deleter runs once when the array and its views are
   * gone); on failure the caller still does.  A tensor flagged
   * DLPACK_FLAG_BITMASK_READ_ONLY gives a read-only array. */
  int (*push_dlpack)(lua_State *L, DLManagedTensorVersioned *tensor);

  /* The state's current device (GPUARRAY_CPU or an ordinal), and its
   * current stream on that device (what new work is queued on; Lua's
   * ga.cuda.get_current_stream() keeps naming the Stream object the
   * script last made current). */
  int (*get_device)(lua_State *L);
  int (*set_device)(lua_State *L, int device);
  void *(*get_stream)(lua_State *L);
  int (*set_stream)(lua_State *L, void *stream);

  /* Serve the state's new arrays of the current device (as
   * ga.cuda.set_allocator) from alloc/free with ctx; alloc NULL: back to
   * the default pool.  Arrays allocated before keep their allocator.  The
   * temporaries of the state's calls come from it too, library workspaces
   * included (cuFFT work areas, cuBLAS/cuSOLVER/cuDNN workspaces, asked
   * per call and freed once the work is queued on `stream`: a stream-
   * ordered free, or a free that waits, is the allocator's to do). */
  int (*set_allocator)(lua_State *L, gpuarray_alloc_fn alloc, gpuarray_free_fn free_, void *ctx);
  /* Statistics of the default pool of a device (GPUARRAY_CPU: the host
   * pool). */
  int (*pool_stats)(int device, gpuarray_pool_stats *stats);

  /* Appended in GPUARRAY_API_VERSION 1 (gpuarray_get_api checks size). */
  /* As push_wrap, but the array and its views are read-only in Lua
   * (x.flags.writeable false: every write raises "... is read-only"; a
   * copy is writable); to_dlpack of it sets DLPACK_FLAG_BITMASK_READ_ONLY. */
  int (*push_wrap_readonly)(lua_State *L, void *data, int device, int dtype, int ndim, const int64_t *shape,
                            const int64_t *strides, gpuarray_release_fn release, void *ctx);
  /* 1 when the array at idx may be written, 0 when read-only (a
   * read-only wrap, a DLPack tensor flagged READ_ONLY, a file mapped with
   * mmap_mode "r"), -1 (with last_error) when idx holds no live array. */
  int (*writeable)(lua_State *L, int idx);
} gpuarray_api;

/* The API table of the gpuarray loaded in L, or NULL when none is (or its
 * version differs).  Reads the registry; the stack is left as it was. */
static inline const gpuarray_api *gpuarray_get_api(lua_State *L) {
  const gpuarray_api *api = NULL;
  if (lua_getfield(L, LUA_REGISTRYINDEX, GPUARRAY_API_REGISTRY_KEY) == LUA_TLIGHTUSERDATA)
    api = (const gpuarray_api *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (api && (api->version != GPUARRAY_API_VERSION || api->size < sizeof(gpuarray_api))) api = NULL;
  return api;
}

/* core.so also exports `const gpuarray_api *gpuarray_capi(void)` with
 * default visibility, for hosts that dlopen the module themselves:
 *   gpuarray_capi_fn f = (gpuarray_capi_fn)dlsym(handle, "gpuarray_capi"); */
typedef const gpuarray_api *(*gpuarray_capi_fn)(void);

#ifdef __cplusplus
}
#endif
#endif /* GPUARRAY_H */
