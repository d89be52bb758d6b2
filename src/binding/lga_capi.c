/* The C API of include/gpuarray.h: a table of function pointers that the
 * module puts in the registry (GPUARRAY_API_REGISTRY_KEY) of every state
 * that loads it, and exports as gpuarray_capi().  Nothing here raises a
 * Lua error: what can raise runs under lua_pcall, and failures come back
 * as a nonzero return with the message in the thread's error buffer. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_dlpack.h"
#include "gpuarray.h"
#include <stdlib.h>
#include <string.h>

static const char state_key = 0;

lga_state *lga_state_of(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key);
  lga_state *S = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return S;
}

/* lga_interop.c */
void lga_set_allocator(lua_State *L, lga_state *S, int which, int idx);
void lga_push_callocator(lua_State *L, gpuarray_alloc_fn alloc, gpuarray_free_fn free_, void *ctx);

static lga_state *state_or_fail(lua_State *L) {
  lga_state *S = lga_state_of(L);
  if (!S) ga_err(GA_EINVAL, "gpuarray is not loaded in this lua_State (require \"gpuarray\" first)");
  return S;
}

/* a Lua error (message at the top) becomes the thread's error */
static int from_lua_error(lua_State *L) {
  const char *m = lua_tostring(L, -1);
  ga_err(GA_EINVAL, "%s", m ? m : "error object is not a string");
  lua_pop(L, 1);
  return GA_EINVAL;
}

static const char *last_error(void) { return ga_errmsg(); }

static int dtype_from_name(const char *name) { return name ? ga_dtype_from_name(name) : -1; }

static const char *dtype_name(int dt) { return dt >= 0 && dt < GA_NDTYPES ? ga_dtypes[dt].name : NULL; }

static int get_view(lua_State *L, int idx, gpuarray_view *v) {
  memset(v, 0, sizeof *v);
  v->ref_ = LUA_NOREF;
  ga_array *a = lga_toarray(L, idx);
  if (!a) return ga_err(GA_EINVAL, "get_view: the value at index %d is a %s, not an ndarray", idx,
                        luaL_typename(L, idx));
  if (!a->buf) return ga_err(GA_EFREED, "get_view: array has been freed");
  v->data = GA_DATA(a);
  v->device = GA_DEVICE(a);
  v->dtype = a->dtype;
  v->dtype_name = ga_dtypes[a->dtype].name;
  v->itemsize = GA_ITEMSIZE(a->dtype);
  v->ndim = a->ndim;
  v->size = a->size;
  memcpy(v->shape, a->shape, sizeof(int64_t) * a->ndim);
  memcpy(v->strides, a->strides, sizeof(int64_t) * a->ndim);
  v->c_contiguous = ga_is_c_contiguous(a);
  /* the queued kernels that write it reach its stream (the host then
   * synchronises that stream, or orders its own after it) */
  if (v->device != GA_CPU && ga_flush(v->device)) return GA_ECUDA;
  lua_pushvalue(L, idx);
  v->ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  return GA_OK;
}

static void release_view(lua_State *L, gpuarray_view *v) {
  if (!v || v->ref_ == LUA_NOREF || v->ref_ == LUA_REFNIL) return;
  luaL_unref(L, LUA_REGISTRYINDEX, v->ref_);
  v->ref_ = LUA_NOREF;
  v->data = NULL;
}

static int check_geometry(const char *fname, int device, int dtype, int ndim, const int64_t *shape) {
  if (dtype < 0 || dtype >= GA_NDTYPES) return ga_err(GA_EINVAL, "%s: unknown dtype code %d", fname, dtype);
  if (ndim < 0 || ndim > GA_MAXDIM) return ga_err(GA_EINVAL, "%s: ndim %d is not in 0..%d", fname, ndim, GA_MAXDIM);
  if (ndim > 0 && !shape) return ga_err(GA_EINVAL, "%s: shape is NULL", fname);
  if (device != GA_CPU && ga_check_device(device)) return GA_EDEVICE;
  return GA_OK;
}

static ga_array *push_array(lua_State *L) {
  extern const char lga_mt_key;
  ga_array *a = lua_newuserdatauv(L, sizeof(ga_array), 1);
  memset(a, 0, sizeof *a);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lga_mt_key);
  lua_setmetatable(L, -2);
  return a;
}

typedef struct host_release { gpuarray_release_fn fn; void *ctx; void *data; } host_release;

static void call_host_release(void *ctx, ga_buffer *b) {
  host_release *h = ctx;
  (void)b;
  if (h->fn) h->fn(h->ctx, h->data);
  free(h);
}

/* an array over data (which the caller owns) at the top of the stack */
static int wrap(lua_State *L, lga_state *S, const char *fname, void *data, int device, int dtype, int ndim,
                const int64_t *shape, const int64_t *strides, gpuarray_release_fn release, void *ctx, int readonly) {
  int rc = check_geometry(fname, device, dtype, ndim, shape);
  if (rc) return rc;
  int isz = GA_ITEMSIZE(dtype);
  int64_t size, st[GA_MAXDIM];
  if ((rc = ga_shape_size(ndim, shape, isz, &size))) return rc;
  if (strides) memcpy(st, strides, sizeof(int64_t) * ndim);
  else ga_strides_c(ndim, shape, isz, st);
  int64_t lo = 0, hi = size ? isz : 0;
  for (int i = 0; size && i < ndim; i++) {
    int64_t ext;
    if (__builtin_mul_overflow(shape[i] - 1, st[i], &ext) ||
        __builtin_add_overflow(ext < 0 ? lo : hi, ext, ext < 0 ? &lo : &hi))
      return ga_err(GA_EINVAL, "%s: array is too big", fname);
  }
  if (!data && size) return ga_err(GA_EINVAL, "%s: data is NULL", fname);
  host_release *h = malloc(sizeof *h);
  if (!h) return ga_err(GA_ENOMEM, "out of host memory");
  h->fn = release;
  h->ctx = ctx;
  h->data = data;
  ga_array *a = push_array(L);
  ga_buffer *b;
  if ((rc = ga_buffer_wrap(device, size ? (char *)data + lo : data, (size_t)(hi - lo), lga_stream(S, device),
                           call_host_release, h, &b))) {
    free(h);
    lua_pop(L, 1);
    return rc;
  }
  b->readonly = readonly;
  a->buf = b;
  a->offset = size ? -lo : 0;
  a->dtype = dtype;
  ga_array_set_geometry(a, ndim, shape, st);
  return GA_OK;
}

static int push_wrap(lua_State *L, void *data, int device, int dtype, int ndim, const int64_t *shape,
                     const int64_t *strides, gpuarray_release_fn release, void *ctx) {
  lga_state *S = state_or_fail(L);
  if (!S) return GA_EINVAL;
  return wrap(L, S, "push_wrap", data, device, dtype, ndim, shape, strides, release, ctx, 0);
}

static int push_wrap_readonly(lua_State *L, void *data, int device, int dtype, int ndim, const int64_t *shape,
                              const int64_t *strides, gpuarray_release_fn release, void *ctx) {
  lga_state *S = state_or_fail(L);
  if (!S) return GA_EINVAL;
  return wrap(L, S, "push_wrap_readonly", data, device, dtype, ndim, shape, strides, release, ctx, 1);
}

static int writeable(lua_State *L, int idx) {
  ga_array *a = lga_toarray(L, idx);
  if (!a || !a->buf) {
    ga_err(a ? GA_EFREED : GA_EINVAL, "writeable: the value at index %d is %s", idx,
           a ? "a freed array" : "not an ndarray");
    return -1;
  }
  return !GA_READONLY(a);
}

/* under lua_pcall: (wrapped array, device) -> a C-contiguous copy on device */
static int copy_p(lua_State *L) {
  lga_state *S = lua_touserdata(L, 3);
  lga_to_device(L, S, 1, (int)lua_tointeger(L, 2), -1, 1, "push_copy");
  return 1;
}

static int push_copy(lua_State *L, const void *data, int data_device, int device, int dtype, int ndim,
                     const int64_t *shape, const int64_t *strides) {
  lga_state *S = state_or_fail(L);
  if (!S) return GA_EINVAL;
  int rc = check_geometry("push_copy", device, dtype, ndim, shape);
  if (rc) return rc;
  lua_pushcfunction(L, copy_p);
  if ((rc = wrap(L, S, "push_copy", (void *)data, data_device, dtype, ndim, shape, strides, NULL, NULL, 0))) {
    lua_pop(L, 1);
    return rc;
  }
  lua_pushinteger(L, device);
  lua_pushlightuserdata(L, S);
  if (lua_pcall(L, 3, 1, 0) != LUA_OK) return from_lua_error(L);
  return GA_OK;
}

static int to_dlpack(lua_State *L, int idx, DLManagedTensorVersioned **out) {
  *out = NULL;
  ga_array *a = lga_toarray(L, idx);
  if (!a) return ga_err(GA_EINVAL, "to_dlpack: the value at index %d is not an ndarray", idx);
  if (!a->buf) return ga_err(GA_EFREED, "to_dlpack: array has been freed");
  int rc = GA_DEVICE(a) != GA_CPU ? ga_flush(GA_DEVICE(a)) : GA_OK;   /* queued kernels reach the stream */
  if (rc) return rc;
  void *m;
  if ((rc = ga_dlpack_export(a, 1, 0, &m))) return rc;
  *out = m;
  return GA_OK;
}

static int push_dlpack(lua_State *L, DLManagedTensorVersioned *t) {
  lga_state *S = state_or_fail(L);
  if (!S) return GA_EINVAL;
  if (!t) return ga_err(GA_EINVAL, "push_dlpack: tensor is NULL");
  int dev, rc;
  if ((rc = ga_device_from_dlpack(t->dl_tensor.device, &dev))) return rc;
  if (dev != GA_CPU && (rc = ga_check_device(dev))) return rc;
  ga_array *a = push_array(L);
  if ((rc = ga_dlpack_import(t, 1, lga_stream(S, dev), a))) {
    lua_pop(L, 1);
    return rc;
  }
  return GA_OK;
}

static int get_device(lua_State *L) {
  lga_state *S = lga_state_of(L);
  return S ? S->device : GA_CPU;
}

static int set_device(lua_State *L, int device) {
  lga_state *S = state_or_fail(L);
  if (!S) return GA_EINVAL;
  if (device != GA_CPU && ga_check_device(device)) return GA_EDEVICE;
  S->device = device;
  return GA_OK;
}

static void *get_stream(lua_State *L) {
  lga_state *S = lga_state_of(L);
  return S ? lga_stream(S, S->device) : NULL;
}

static int set_stream(lua_State *L, void *stream) {
  lga_state *S = state_or_fail(L);
  if (!S) return GA_EINVAL;
  if (S->device == GA_CPU) {
    if (stream) return ga_err(GA_EDEVICE, "set_stream: the current device is the host, which has no streams");
    return GA_OK;
  }
  if (S->device >= LGA_MAX_DEVICES) return ga_err(GA_EDEVICE, "set_stream: device %d out of range", S->device);
  S->stream[S->device] = stream;
  return GA_OK;
}

typedef struct alloc_args { gpuarray_alloc_fn alloc; gpuarray_free_fn free_; void *ctx; lga_state *S; } alloc_args;

static int set_allocator_p(lua_State *L) {
  alloc_args *a = lua_touserdata(L, 1);
  if (a->alloc) lga_push_callocator(L, a->alloc, a->free_, a->ctx);
  else lua_pushboolean(L, 0);
  lga_set_allocator(L, a->S, 0, -1);
  return 0;
}

static int set_allocator(lua_State *L, gpuarray_alloc_fn alloc, gpuarray_free_fn free_, void *ctx) {
  lga_state *S = state_or_fail(L);
  if (!S) return GA_EINVAL;
  alloc_args a = {alloc, free_, ctx, S};
  lua_pushcfunction(L, set_allocator_p);
  lua_pushlightuserdata(L, &a);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) return from_lua_error(L);
  return GA_OK;
}

static int pool_stats(int device, gpuarray_pool_stats *s) {
  memset(s, 0, sizeof *s);
  if (device != GA_CPU && ga_check_device(device)) return GA_EDEVICE;
  ga_pool *p = ga_mem_pool(device);
  if (!p) return ga_err(GA_ENOMEM, "pool_stats: no pool for this device");
  s->used_bytes = ga_pool_used_bytes(p);
  s->total_bytes = ga_pool_total_bytes(p);
  s->n_free_blocks = ga_pool_n_free_blocks(p);
  s->limit = ga_pool_get_limit(p);
  return GA_OK;
}

static const gpuarray_api api = {
  .version = GPUARRAY_API_VERSION,
  .size = sizeof(gpuarray_api),
  .last_error = last_error,
  .dtype_from_name = dtype_from_name,
  .dtype_name = dtype_name,
  .get_view = get_view,
  .release_view = release_view,
  .push_wrap = push_wrap,
  .push_copy = push_copy,
  .to_dlpack = to_dlpack,
  .push_dlpack = push_dlpack,
  .get_device = get_device,
  .set_device = set_device,
  .get_stream = get_stream,
  .set_stream = set_stream,
  .set_allocator = set_allocator,
  .pool_stats = pool_stats,
  .push_wrap_readonly = push_wrap_readonly,
  .writeable = writeable,
};

__attribute__((visibility("default"))) const gpuarray_api *gpuarray_capi(void);
const gpuarray_api *gpuarray_capi(void) { return &api; }

void lga_open_capi(lua_State *L) {
  int mod = lua_gettop(L);
  lua_getfield(L, mod, "_state");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &state_key);
  lua_pushlightuserdata(L, (void *)&api);
  lua_setfield(L, LUA_REGISTRYINDEX, GPUARRAY_API_REGISTRY_KEY);
  lua_settop(L, mod);
}
