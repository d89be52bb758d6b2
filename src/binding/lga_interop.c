/* Interchange and allocators for Lua: DLPack capsules (x:__dlpack,
 * ga.from_dlpack), foreign memory (ga.cuda.UnownedMemory / MemoryPointer,
 * ga.ndarray(shape, dtype, memptr, strides)), and the replaceable
 * allocator (ga.cuda.set_allocator, MemoryPool, set_pinned_memory_allocator).
 * The public functions and their checks are Lua (gpuarray/interop.lua);
 * these are the core._* pieces under them. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_dlpack.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define CAPSULE_MT "gpuarray.DLPackCapsule"
#define MEM_MT "gpuarray.Memory"
#define MEMPOOL_MT "gpuarray.MemoryPool"
#define CALLOC_MT "gpuarray.CAllocator"

/* ---- Lua-owned memory: the buffer holds a registry reference to the
 * object that owns the bytes; the anchor says whether the state is still
 * open when the last owner lets go (a DLPack consumer may hold it longer).
 * Releases run on the thread that runs the state (documented). ---- */
typedef struct lga_anchor { lua_State *L; int alive; int refs; } lga_anchor;
static const char anchor_key = 0;

static void anchor_decref(lga_anchor *a) {
  if (__atomic_sub_fetch(&a->refs, 1, __ATOMIC_ACQ_REL) == 0) free(a);
}

static int anchor_gc(lua_State *L) {
  lga_anchor **p = lua_touserdata(L, 1);
  if (p && *p) {
    __atomic_store_n(&(*p)->alive, 0, __ATOMIC_RELEASE);
    anchor_decref(*p);
    *p = NULL;
  }
  return 0;
}

static lga_anchor *anchor_of(lua_State *L, lga_state *S) {
  if (S->anchor) return S->anchor;
  lga_anchor **p = lua_newuserdatauv(L, sizeof *p, 0);
  *p = NULL;
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, anchor_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lga_anchor *a = malloc(sizeof *a);
  if (!a) luaL_error(L, "out of host memory");
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  a->L = lua_tothread(L, -1);
  lua_pop(L, 1);
  a->alive = 1;
  a->refs = 1;
  *p = a;
  lua_rawsetp(L, LUA_REGISTRYINDEX, &anchor_key);
  S->anchor = a;
  return a;
}

typedef struct owner_ctx { lga_anchor *a; int ref; } owner_ctx;

static void owner_release(void *ctx, ga_buffer *b) {
  (void)b;
  owner_ctx *o = ctx;
  if (__atomic_load_n(&o->a->alive, __ATOMIC_ACQUIRE)) luaL_unref(o->a->L, LUA_REGISTRYINDEX, o->ref);
  anchor_decref(o->a);
  free(o);
}

/* A buffer over ptr whose bytes the value at the top of the stack owns
 * (popped): it stays referenced until the buffer's last owner is gone. */
static ga_buffer *wrap_owned(lua_State *L, lga_state *S, const char *fname, int device, void *ptr, size_t n,
                             void *stream) {
  lga_anchor *a = anchor_of(L, S);
  owner_ctx *o = malloc(sizeof *o);
  if (!o) { lua_pop(L, 1); lga_errorf(L, fname, "out of host memory"); }
  ga_buffer *b;
  if (ga_buffer_wrap(device, ptr, n, stream, owner_release, o, &b)) {
    free(o);
    lua_pop(L, 1);
    lga_fail(L, fname);
  }
  o->a = a;
  o->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  __atomic_add_fetch(&a->refs, 1, __ATOMIC_RELAXED);
  return b;
}

static ga_array *push_array(lua_State *L) {
  ga_array *a = lua_newuserdatauv(L, sizeof(ga_array), 1);
  memset(a, 0, sizeof *a);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lga_mt_key);
  lua_setmetatable(L, -2);
  return a;
}

static void *stream_arg(lua_State *L, int idx) {
  lua_Integer s = luaL_checkinteger(L, idx);
  return s == 1 ? NULL : (void *)(intptr_t)s;   /* 1: the legacy default stream (DLPack's number for it) */
}

/* ---- capsules ---- */
typedef struct lga_capsule { void *managed; int versioned; int consumed; } lga_capsule;

static lga_capsule *new_capsule(lua_State *L) {
  lga_capsule *c = lua_newuserdatauv(L, sizeof *c, 0);
  c->managed = NULL;
  c->versioned = 1;
  c->consumed = 0;
  luaL_setmetatable(L, CAPSULE_MT);
  return c;
}

/* the producer's deleter runs here when no consumer took the tensor */
static int capsule_gc(lua_State *L) {
  lga_capsule *c = luaL_checkudata(L, 1, CAPSULE_MT);
  if (c->managed && !c->consumed) ga_dlpack_delete(c->managed, c->versioned);
  c->managed = NULL;
  return 0;
}

static const char *capsule_name(const lga_capsule *c) {
  if (c->consumed) return c->versioned ? "used_dltensor_versioned" : "used_dltensor";
  return c->versioned ? "dltensor_versioned" : "dltensor";
}

static int capsule_index(lua_State *L) {
  lga_capsule *c = luaL_checkudata(L, 1, CAPSULE_MT);
  const char *k = luaL_checkstring(L, 2);
  if (!strcmp(k, "name")) lua_pushstring(L, capsule_name(c));
  else if (!strcmp(k, "versioned")) lua_pushboolean(L, c->versioned);
  else if (!strcmp(k, "consumed")) lua_pushboolean(L, c->consumed || !c->managed);
  else if (!strcmp(k, "pointer")) lua_pushinteger(L, (lua_Integer)(intptr_t)c->managed);
  else if (!strcmp(k, "flags") && c->versioned && c->managed)
    lua_pushinteger(L, (lua_Integer)((DLManagedTensorVersioned *)c->managed)->flags);
  else if (!strcmp(k, "version") && c->versioned && c->managed) {
    DLManagedTensorVersioned *m = c->managed;
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, m->version.major); lua_rawseti(L, -2, 1);
    lua_pushinteger(L, m->version.minor); lua_rawseti(L, -2, 2);
  } else lua_pushnil(L);
  return 1;
}

static int capsule_tostring(lua_State *L) {
  lga_capsule *c = luaL_checkudata(L, 1, CAPSULE_MT);
  lua_pushfstring(L, "<DLPack capsule \"%s\" %p>", capsule_name(c), c->managed);
  return 1;
}

/* core._dlpack_export(x, versioned, flags, stream): stream nil = the
 * consumer uses the legacy default stream, -1 = no handover, else the
 * consumer's stream (1: legacy default, 2: per-thread default) */
static int l_dlpack_export(lua_State *L) {
  const char *fname = "__dlpack";
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, fname);
  int versioned = lua_toboolean(L, 2);
  uint64_t flags = (uint64_t)luaL_optinteger(L, 3, 0);
  int dev = GA_DEVICE(a);
  if (dev != GA_CPU) {
    /* the producer's stream is the current one (CuPy's rule); the stream
     * the memory was allocated on, when another, is waited on too */
    void *producer = lga_stream(S, dev), *alloc_stream = a->buf->stream;
    int rc;
    if (!lua_isnoneornil(L, 4) && luaL_checkinteger(L, 4) == -1) {
      rc = ga_flush(dev);
    } else {
      void *consumer = lua_isnoneornil(L, 4) ? NULL : stream_arg(L, 4);
      rc = ga_dlpack_handover(dev, consumer, producer);
      if (!rc && alloc_stream != producer) rc = ga_dlpack_handover(dev, consumer, alloc_stream);
    }
    if (rc) return lga_fail(L, fname);
  }
  lga_capsule *c = new_capsule(L);
  c->versioned = versioned;
  if (ga_dlpack_export(a, versioned, flags, &c->managed)) return lga_fail(L, fname);
  return 1;
}

/* core._from_capsule(capsule): the array over its tensor (the capsule is
 * used up; the array's buffer calls the deleter once at its end) */
static int l_from_capsule(lua_State *L) {
  const char *fname = "from_dlpack";
  lga_state *S = LGA_STATE(L);
  lga_capsule *c = luaL_testudata(L, 1, CAPSULE_MT);
  if (!c) return lga_errorf(L, fname, "expected a DLPack capsule, got %s", luaL_typename(L, 1));
  if (c->consumed || !c->managed) return lga_errorf(L, fname, "the DLPack capsule was already consumed");
  ga_array *a = push_array(L);
  DLDevice dd = c->versioned ? ((DLManagedTensorVersioned *)c->managed)->dl_tensor.device
                             : ((DLManagedTensor *)c->managed)->dl_tensor.device;
  int dev;
  if (ga_device_from_dlpack(dd, &dev)) return lga_fail(L, fname);
  if (dev != GA_CPU && ga_check_device(dev)) return lga_fail(L, fname);
  if (ga_dlpack_import(c->managed, c->versioned, lga_stream(S, dev), a)) return lga_fail(L, fname);
  c->consumed = 1;
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);   /* base: the capsule */
  return 1;
}

/* core._capsule_from_pointer(address, versioned): a capsule owning a
 * managed tensor made by C code (its deleter runs once: by the array that
 * consumes it, or by the capsule's __gc) */
static int l_capsule_from_pointer(lua_State *L) {
  void *p = lua_islightuserdata(L, 1) ? lua_touserdata(L, 1) : (void *)(intptr_t)luaL_checkinteger(L, 1);
  if (!p) return lga_errorf(L, "from_dlpack", "NULL DLPack tensor pointer");
  lga_capsule *c = new_capsule(L);
  c->versioned = lua_toboolean(L, 2);
  c->managed = p;
  return 1;
}

static int l_dlpack_device(lua_State *L) {
  ga_array *a = lga_check(L, 1, "__dlpack_device");
  DLDevice d = ga_dlpack_device(GA_DEVICE(a));
  lua_pushinteger(L, d.device_type);
  lua_pushinteger(L, d.device_id);
  return 2;
}

static int l_dlpack_deleter_calls(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)ga_dlpack_deleter_calls());
  return 1;
}

/* ---- foreign memory: UnownedMemory(ptr, size, owner, device) and
 * MemoryPointer(mem, offset); uservalue 1: the owner, or the memory ---- */
typedef struct lga_mem { uintptr_t ptr; int64_t size; int device; int is_pointer; int64_t offset; } lga_mem;

static int l_unowned_memory(lua_State *L) {
  const char *fname = "cuda.UnownedMemory";
  lua_Integer ptr = luaL_checkinteger(L, 1), size = luaL_checkinteger(L, 2);
  int dev = (int)luaL_checkinteger(L, 4);
  if (size < 0) return lga_errorf(L, fname, "size must be non-negative, got %d", (int)size);
  if (ptr == 0 && size > 0) return lga_errorf(L, fname, "NULL pointer with %lld bytes", (long long)size);
  if (dev != GA_CPU && ga_check_device(dev)) return lga_fail(L, fname);
  lga_mem *m = lua_newuserdatauv(L, sizeof *m, 1);
  m->ptr = (uintptr_t)ptr;
  m->size = size;
  m->device = dev;
  m->is_pointer = 0;
  m->offset = 0;
  luaL_setmetatable(L, MEM_MT);
  lua_pushvalue(L, 3);
  lua_setiuservalue(L, -2, 1);
  return 1;
}

static int l_memory_pointer(lua_State *L) {
  const char *fname = "cuda.MemoryPointer";
  lga_mem *mem = luaL_testudata(L, 1, MEM_MT);
  if (!mem) return lga_errorf(L, fname, "expected a memory (cuda.UnownedMemory), got %s", luaL_typename(L, 1));
  lua_Integer off = luaL_optinteger(L, 2, 0);
  if (off < 0 || off > mem->size)
    return lga_errorf(L, fname, "offset %lld is outside the memory's %lld bytes", (long long)off, (long long)mem->size);
  lga_mem *m = lua_newuserdatauv(L, sizeof *m, 1);
  *m = *mem;
  m->ptr = mem->ptr + (uintptr_t)off;
  m->size = mem->size - off;
  m->is_pointer = 1;
  m->offset = mem->is_pointer ? mem->offset + off : off;
  luaL_setmetatable(L, MEM_MT);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);
  return 1;
}

static int mem_index(lua_State *L) {
  lga_mem *m = luaL_checkudata(L, 1, MEM_MT);
  const char *k = luaL_checkstring(L, 2);
  if (!strcmp(k, "ptr")) lua_pushinteger(L, (lua_Integer)m->ptr);
  else if (!strcmp(k, "size")) lua_pushinteger(L, m->size);
  else if (!strcmp(k, "device_id")) lua_pushinteger(L, m->device);
  else if (!strcmp(k, "offset")) lua_pushinteger(L, m->is_pointer ? m->offset : 0);
  else if (!strcmp(k, "mem")) {
    if (m->is_pointer) lua_getiuservalue(L, 1, 1);
    else lua_pushvalue(L, 1);
  } else if (!strcmp(k, "owner")) {
    lua_getiuservalue(L, 1, 1);
    if (m->is_pointer) {   /* the memory's owner */
      lua_getiuservalue(L, -1, 1);
      lua_remove(L, -2);
    }
  } else if (!strcmp(k, "is_pointer")) lua_pushboolean(L, m->is_pointer);
  else return lga_errorf(L, m->is_pointer ? "cuda.MemoryPointer" : "cuda.UnownedMemory", "no field '%s'", k);
  return 1;
}

static int mem_tostring(lua_State *L) {
  lga_mem *m = luaL_checkudata(L, 1, MEM_MT);
  lua_pushfstring(L, "<%s %p, %I bytes, device %d>", m->is_pointer ? "MemoryPointer" : "UnownedMemory",
                  (void *)m->ptr, (lua_Integer)m->size, m->device);
  return 1;
}

/* core._wrap_memory(memptr, dtype, shape, strides|nil): an array over the
 * memory (no copy), bounds-checked; the memory object is its base and
 * stays referenced while any array or export uses the bytes */
static int l_wrap_memory(lua_State *L) {
  const char *fname = "ndarray";
  lga_state *S = LGA_STATE(L);
  lga_mem *m = luaL_testudata(L, 1, MEM_MT);
  if (!m) return lga_errorf(L, fname, "memptr must be a cuda.MemoryPointer or cuda.UnownedMemory, got %s",
                            luaL_typename(L, 1));
  int dtype = lga_opt_dtype(L, 2, fname, GA_FLOAT64);
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM], size;
  int ndim = lga_get_shape(L, 3, fname, shape);
  int isz = GA_ITEMSIZE(dtype);
  if (ga_shape_size(ndim, shape, isz, &size)) return lga_fail(L, fname);
  if (lua_isnoneornil(L, 4)) {
    ga_strides_c(ndim, shape, isz, strides);
  } else {
    luaL_checktype(L, 4, LUA_TTABLE);
    if ((int)lua_rawlen(L, 4) != ndim)
      return lga_errorf(L, fname, "strides must have %d entries (one per dimension), got %d", ndim,
                        (int)lua_rawlen(L, 4));
    for (int i = 0; i < ndim; i++) {
      lua_rawgeti(L, 4, i + 1);
      int ok;
      lua_Integer s = lua_tointegerx(L, -1, &ok);
      if (!ok) return lga_errorf(L, fname, "strides[%d] must be an integer number of bytes", i + 1);
      strides[i] = s;
      lua_pop(L, 1);
    }
  }
  /* the bytes the array spans must lie inside the memory */
  int64_t lo = 0, hi = size ? isz : 0;
  for (int i = 0; size && i < ndim; i++) {
    int64_t ext;
    if (__builtin_mul_overflow(shape[i] - 1, strides[i], &ext) || __builtin_add_overflow(ext < 0 ? lo : hi, ext,
                                                                                          ext < 0 ? &lo : &hi))
      return lga_errorf(L, fname, "array is too big");
  }
  if (lo < 0 || hi > m->size)
    return lga_errorf(L, fname, "the array spans bytes [%lld, %lld) of a memory of %lld bytes", (long long)lo,
                      (long long)hi, (long long)m->size);
  ga_array *a = push_array(L);
  lua_pushvalue(L, 1);
  a->buf = wrap_owned(L, S, fname, m->device, (void *)m->ptr, (size_t)m->size, lga_stream(S, m->device));
  a->offset = 0;
  a->dtype = dtype;
  ga_array_set_geometry(a, ndim, shape, strides);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);   /* base: the memory */
  return 1;
}

/* ---- allocators ---- */
enum { AL_DEFAULT, AL_POOL, AL_FUNCTION, AL_C };

typedef struct lga_mempool_ud { ga_mempool *m; } lga_mempool_ud;

static int l_mempool_new(lua_State *L) {
  lga_mempool_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->m = NULL;
  luaL_setmetatable(L, MEMPOOL_MT);
  if (!(u->m = ga_mempool_new(1))) return lga_fail(L, "cuda.MemoryPool");
  return 1;
}

static int mempool_gc(lua_State *L) {
  lga_mempool_ud *u = luaL_checkudata(L, 1, MEMPOOL_MT);
  if (u->m) ga_mempool_decref(u->m);   /* its pools live on while arrays hold blocks */
  u->m = NULL;
  return 0;
}

static ga_mempool *check_mempool(lua_State *L, int idx) {
  lga_mempool_ud *u = luaL_checkudata(L, idx, MEMPOOL_MT);
  if (!u->m) luaL_error(L, "MemoryPool: the pool was released");
  return u->m;
}

ga_mempool *lga_to_mempool(lua_State *L, int idx) {
  lga_mempool_ud *u = luaL_testudata(L, idx, MEMPOOL_MT);
  return u ? u->m : NULL;
}

/* core._is(kind, v): kind "capsule", "memory" or "mempool" */
static int l_is(lua_State *L) {
  static const char *const kinds[] = {"capsule", "memory", "mempool", NULL};
  static const char *const mts[] = {CAPSULE_MT, MEM_MT, MEMPOOL_MT};
  int i = luaL_checkoption(L, 1, NULL, kinds);
  lua_pushboolean(L, luaL_testudata(L, 2, mts[i]) != NULL);
  return 1;
}

/* core._array_ready(x): x's queued kernels reach its stream (before a
 * foreign consumer reads it through a raw pointer) */
static int l_array_ready(lua_State *L) {
  ga_array *a = lga_check(L, 1, "__cuda_array_interface");
  if (GA_DEVICE(a) != GA_CPU && ga_flush(GA_DEVICE(a))) return lga_fail(L, "__cuda_array_interface");
  return 0;
}

/* C allocators (include/gpuarray.h gpuarray_alloc_fn / gpuarray_free_fn):
 * refcounted, so that memory goes back through the free callback it came
 * from after the allocator changed */
typedef int (*lga_calloc_fn)(void *ctx, size_t nbytes, int device, void *stream, void **ptr);
typedef void (*lga_cfree_fn)(void *ctx, void *ptr, size_t nbytes, int device, void *stream);
typedef struct lga_calloc { int refs; lga_calloc_fn alloc; lga_cfree_fn free; void *ctx; } lga_calloc;
typedef struct lga_calloc_ud { lga_calloc *c; } lga_calloc_ud;

static void calloc_decref(lga_calloc *c) {
  if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0) free(c);
}

static int calloc_gc(lua_State *L) {
  lga_calloc_ud *u = luaL_checkudata(L, 1, CALLOC_MT);
  if (u->c) calloc_decref(u->c);
  u->c = NULL;
  return 0;
}

static void calloc_release(void *ctx, ga_buffer *b) {
  lga_calloc *c = ctx;
  if (c->free) c->free(c->ctx, b->ptr, b->nbytes, b->device, b->stream);
  calloc_decref(c);
}

/* push an allocator object for C callbacks (lga_capi.c) */
void lga_push_callocator(lua_State *L, lga_calloc_fn alloc, lga_cfree_fn free_, void *ctx) {
  lga_calloc_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->c = NULL;
  luaL_setmetatable(L, CALLOC_MT);
  lga_calloc *c = malloc(sizeof *c);
  if (!c) luaL_error(L, "out of host memory");
  c->refs = 1;
  c->alloc = alloc;
  c->free = free_;
  c->ctx = ctx;
  u->c = c;
}

/* ---- temporaries inside a call through the allocator in use: the core
 * asks temp_hook (core/ga_mem.h ga_mem_set_alloc_hook) for every buffer
 * and backend scratch it makes; the hook serves it from the allocator of
 * the state whose call runs on this thread (lga_running: set where the
 * binding takes arrays, lga_toarray and lga_new_array, while any state
 * has an allocator) as lga_alloc_buffer does for the call's arrays, under
 * lua_pcall so that no Lua error crosses the core.  Installed only while
 * some state has a non-default allocator (lga_active_allocators). ---- */
__thread lua_State *lga_running;
int lga_active_allocators;
static pthread_mutex_t active_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct temp_req { lga_state *S; int device; size_t nbytes; void *stream; ga_buffer *buf; int served; } temp_req;

static int temp_alloc_p(lua_State *L) {
  temp_req *r = lua_touserdata(L, 1);
  r->served = lga_alloc_buffer(L, r->S, "allocator", r->device, r->nbytes, r->stream, &r->buf);
  return 0;
}

static int temp_hook(int device, size_t nbytes, void *stream, ga_buffer **out) {
  lua_State *L = lga_running;
  if (!L || lua_status(L) != LUA_OK || !lua_checkstack(L, 4)) return GA_MEM_DECLINED;
  lga_state *S = lga_state_of(L);
  if (!S) return GA_MEM_DECLINED;
  int which = device != GA_CPU || S->device == GA_CPU ? 0 : 1;
  if (S->alloc[which].kind == AL_DEFAULT) return GA_MEM_DECLINED;
  temp_req r = {S, device, nbytes, stream, NULL, 0};
  int top = lua_gettop(L);
  lua_pushcfunction(L, temp_alloc_p);
  lua_pushlightuserdata(L, &r);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    const char *m = lua_tostring(L, -1);
    ga_err(GA_ENOMEM, "the allocator failed for a temporary of %zu bytes: %s", nbytes, m ? m : "(no message)");
    lua_settop(L, top);
    return GA_ENOMEM;
  }
  lua_settop(L, top);
  if (!r.served) return GA_MEM_DECLINED;
  *out = r.buf;
  return GA_OK;
}

static void active_change(int delta) {
  pthread_mutex_lock(&active_lock);
  int n = (lga_active_allocators += delta);
  if (n == 1 && delta > 0) ga_mem_set_alloc_hook(temp_hook);
  if (n == 0) ga_mem_set_alloc_hook(NULL);
  pthread_mutex_unlock(&active_lock);
}

/* the state is closing: its allocators stop counting */
void lga_close_allocators(lga_state *S) {
  for (int w = 0; w < 2; w++)
    if (S->alloc[w].kind != AL_DEFAULT) {
      S->alloc[w].kind = AL_DEFAULT;
      active_change(-1);
    }
  lga_running = NULL;
}

/* core._set_allocator(which, obj): which 0 = arrays of the current device,
 * 1 = pinned host arrays; obj false = the default pool, "plain" = no
 * caching, a MemoryPool, a function (nbytes) -> MemoryPointer, or a C
 * allocator object */
void lga_set_allocator(lua_State *L, lga_state *S, int which, int idx) {
  idx = lua_absindex(L, idx);
  struct lga_allocator nw = {AL_DEFAULT, NULL, LUA_NOREF};
  if (lua_isnoneornil(L, idx) || (lua_isboolean(L, idx) && !lua_toboolean(L, idx))) {
    /* the default pool */
  } else if (lua_type(L, idx) == LUA_TSTRING && !strcmp(lua_tostring(L, idx), "plain")) {
    nw.kind = AL_POOL;
    if (!(nw.ptr = ga_mempool_plain())) lga_fail(L, "cuda.set_allocator");
  } else if (lua_isfunction(L, idx)) {
    nw.kind = AL_FUNCTION;
  } else if (luaL_testudata(L, idx, MEMPOOL_MT)) {
    nw.kind = AL_POOL;
    nw.ptr = check_mempool(L, idx);
  } else if (luaL_testudata(L, idx, CALLOC_MT)) {
    nw.kind = AL_C;
    nw.ptr = ((lga_calloc_ud *)lua_touserdata(L, idx))->c;
  } else {
    lga_errorf(L, "cuda.set_allocator", "allocator must be nil, a MemoryPool or a function, got %s",
               luaL_typename(L, idx));
  }
  if (nw.kind != AL_DEFAULT) {
    lua_pushvalue(L, idx);   /* keeps the object (and what it owns) alive while in use */
    nw.ref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  struct lga_allocator old = S->alloc[which];
  S->alloc[which] = nw;
  if (old.kind != AL_DEFAULT) luaL_unref(L, LUA_REGISTRYINDEX, old.ref);
  if ((old.kind != AL_DEFAULT) != (nw.kind != AL_DEFAULT)) active_change(nw.kind != AL_DEFAULT ? 1 : -1);
  lga_running = L;
}

static int l_set_allocator(lua_State *L) {
  int which = (int)luaL_checkinteger(L, 1);
  luaL_argcheck(L, which == 0 || which == 1, 1, "0 or 1");
  lga_set_allocator(L, LGA_STATE(L), which, 2);
  return 0;
}

static int l_get_allocator(lua_State *L) {
  int which = (int)luaL_checkinteger(L, 1);
  luaL_argcheck(L, which == 0 || which == 1, 1, "0 or 1");
  struct lga_allocator *al = &LGA_STATE(L)->alloc[which];
  if (al->kind == AL_DEFAULT) lua_pushboolean(L, 0);
  else lua_rawgeti(L, LUA_REGISTRYINDEX, al->ref);
  return 1;
}

int lga_alloc_buffer(lua_State *L, lga_state *S, const char *fname, int device, size_t nbytes, void *stream,
                     ga_buffer **buf) {
  int which = device != GA_CPU || S->device == GA_CPU ? 0 : 1;
  struct lga_allocator *al = &S->alloc[which];
  switch (al->kind) {
  case AL_POOL: {
    ga_mempool *m = al->ptr;
    int rc = ga_buffer_new_in(m, device, nbytes, stream, buf);
    if (rc == GA_ENOMEM) {   /* as the default pool: free cached blocks, collect, retry */
      ga_mempool_free_all(m);
      lua_gc(L, LUA_GCCOLLECT);
      S->gc_debt = 0;
      rc = ga_buffer_new_in(m, device, nbytes, stream, buf);
    }
    if (rc) lga_fail(L, fname);
    return 1;
  }
  case AL_FUNCTION: {
    /* the function's own arrays come from the default pool (no recursion);
     * the allocator is back in place before any error goes on */
    lua_rawgeti(L, LUA_REGISTRYINDEX, al->ref);
    lua_pushinteger(L, (lua_Integer)nbytes);
    struct lga_allocator saved = *al;
    al->kind = AL_DEFAULT;
    int st = lua_pcall(L, 1, 1, 0);
    if (S->alloc[which].kind == AL_DEFAULT && S->alloc[which].ref == saved.ref) {
      S->alloc[which] = saved;
    } else {   /* the function replaced the allocator */
      luaL_unref(L, LUA_REGISTRYINDEX, saved.ref);
      active_change(-1);
    }
    if (st != LUA_OK) lua_error(L);
    lga_mem *m = luaL_testudata(L, -1, MEM_MT);
    if (!m)
      lga_errorf(L, fname, "the allocator function must return a cuda.MemoryPointer, got %s",
                 luaL_typename(L, -1));
    if (m->device != device)
      lga_errorf(L, fname, "the allocator returned memory of device %d for an array of device %d", m->device,
                 device);
    if ((uint64_t)m->size < nbytes)
      lga_errorf(L, fname, "the allocator returned %lld bytes for a request of %lld", (long long)m->size,
                 (long long)nbytes);
    if (!m->ptr && nbytes) lga_errorf(L, fname, "the allocator returned a NULL pointer");
    *buf = wrap_owned(L, S, fname, device, (void *)m->ptr, nbytes, stream);   /* pops the memory */
    return 1;
  }
  case AL_C: {
    lga_calloc *c = al->ptr;
    void *p = NULL;
    if (c->alloc(c->ctx, nbytes, device, stream, &p) || (!p && nbytes))
      lga_errorf(L, fname, "out of memory allocating %lld bytes (the host's allocator failed)", (long long)nbytes);
    if (ga_buffer_wrap(device, p, nbytes, stream, calloc_release, c, buf)) {
      if (c->free) c->free(c->ctx, p, nbytes, device, stream);
      lga_fail(L, fname);
    }
    __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
    return 1;
  }
  default:
    return 0;
  }
}

static void new_meta(lua_State *L, const char *name, const luaL_Reg *mm) {
  luaL_newmetatable(L, name);
  luaL_setfuncs(L, mm, 0);
  lua_pop(L, 1);
}

void lga_open_interop(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"_dlpack_export", l_dlpack_export}, {"_from_capsule", l_from_capsule},
    {"_capsule_from_pointer", l_capsule_from_pointer}, {"_dlpack_device", l_dlpack_device},
    {"_dlpack_deleter_calls", l_dlpack_deleter_calls}, {"_unowned_memory", l_unowned_memory},
    {"_memory_pointer", l_memory_pointer}, {"_wrap_memory", l_wrap_memory}, {"_mempool_new", l_mempool_new},
    {"_is", l_is}, {"_array_ready", l_array_ready}, {"_set_allocator", l_set_allocator},
    {"_get_allocator", l_get_allocator}, {NULL, NULL}};
  lga_setfuncs(L, fns, -1);
  static const luaL_Reg cap_mm[] = {
    {"__gc", capsule_gc}, {"__close", capsule_gc}, {"__index", capsule_index}, {"__tostring", capsule_tostring},
    {NULL, NULL}};
  static const luaL_Reg mem_mm[] = {{"__index", mem_index}, {"__tostring", mem_tostring}, {NULL, NULL}};
  static const luaL_Reg pool_mm[] = {{"__gc", mempool_gc}, {NULL, NULL}};
  static const luaL_Reg calloc_mm[] = {{"__gc", calloc_gc}, {NULL, NULL}};
  new_meta(L, CAPSULE_MT, cap_mm);
  new_meta(L, MEM_MT, mem_mm);
  new_meta(L, MEMPOOL_MT, pool_mm);
  new_meta(L, CALLOC_MT, calloc_mm);
}
