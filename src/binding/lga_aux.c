/* The binding's base helpers, which every lga_*.c file calls and which call
 * nothing of the binding above them: errors with the function's name,
 * NVRTC errors with the numbered source, ndarray checks, new arrays and
 * views (with GC pacing by device bytes). */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Force a full collection once this many bytes were allocated since the
 * last one (or half the live device bytes, whichever is larger): Lua cannot
 * see device memory, so without this, temporaries pile up on the card. */
#define LGA_GC_STEP_BYTES (256ll << 20)

int lga_errorf(lua_State *L, const char *fname, const char *fmt, ...) {
  char msg[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return luaL_error(L, "%s: %s", fname, msg);
}

int lga_fail(lua_State *L, const char *fname) {
  luaL_where(L, 1);   /* the caller's position, as luaL_error gives */
  lua_pushfstring(L, "%s: %s", fname, ga_errmsg());
  lua_concat(L, 2);
  return lua_error(L);
}

int lga_fail_compile(lua_State *L, const char *fname, const char *source) {
  const char *msg = ga_errmsg(), *cut;
  if (!source || ga_errcode() != GA_ENVRTC || !(cut = strstr(msg, "\nsource:\n"))) return lga_fail(L, fname);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_where(L, 1);
  luaL_addvalue(&b);
  luaL_addstring(&b, fname);
  luaL_addstring(&b, ": ");
  luaL_addlstring(&b, msg, (size_t)(cut - msg) + 9);   /* the message up to "source:\n" */
  int line = 1;
  for (const char *p = source; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char num[32];
    snprintf(num, sizeof num, "%4d | ", line++);
    luaL_addstring(&b, num);
    luaL_addlstring(&b, p, len);
    luaL_addchar(&b, '\n');
    p += len + (nl != NULL);
  }
  luaL_pushresult(&b);
  return lua_error(L);
}

/* The metatable is also stored under this address key (lga_open_array
 * sets it): a rawgetp is cheaper than luaL_testudata's lookup by name, on
 * every operand. */
const char lga_mt_key = 0;

ga_array *lga_toarray(lua_State *L, int idx) {
  lga_note_running(L);   /* temporaries of this call: its allocator (lga_interop.c) */
  void *p = lua_touserdata(L, idx);
  if (!p || !lua_getmetatable(L, idx)) return NULL;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lga_mt_key);
  int same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? p : NULL;
}

ga_array *lga_check(lua_State *L, int idx, const char *fname) {
  ga_array *a = lga_toarray(L, idx);
  if (!a) lga_errorf(L, fname, "bad argument #%d (ndarray expected, got %s)", idx, luaL_typename(L, idx));
  if (!a->buf) lga_errorf(L, fname, "array has been freed");
  return a;
}

void lga_check_current(lua_State *L, lga_state *S, const ga_array *a, const char *fname) {
  int d = GA_DEVICE(a);
  if (d != GA_CPU && d != S->device && S->device != GA_CPU)
    lga_errorf(L, fname, "array device must be same as the current device: array device = %d while current = %d "
               "(move the array with x:to(%d), or make its device current: ga.cuda.Device(%d):with(fn))",
               d, S->device, S->device, d);
}

static ga_array *push_blank(lua_State *L) {
  ga_array *a = lua_newuserdatauv(L, sizeof(ga_array), 1);
  a->buf = NULL;
  a->ndim = 0;
  a->size = 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lga_mt_key);
  lua_setmetatable(L, -2);
  return a;
}

void lga_gc_ahead(lua_State *L, lga_state *S) {
  if (S->gc_debt > LGA_GC_STEP_BYTES / 2 && S->gc_debt > ga_live_device_bytes() / 4) {
    S->gc_debt = 0;
    lua_gc(L, LUA_GCCOLLECT);
  }
}

ga_array *lga_new_array(lua_State *L, lga_state *S, const char *fname, int device, int dtype,
                        int ndim, const int64_t *shape) {
  /* pace the GC by bytes before allocating, so that garbage arrays return
   * their blocks to the pool in time for this allocation to reuse them.
   * The debt is what earlier allocations may have left as garbage (:free
   * and __close pay theirs off): this one's bytes count from the next
   * allocation on, so a loop that frees each large result never collects */
  int64_t size;
  if (ga_shape_size(ndim, shape, GA_ITEMSIZE(dtype), &size)) lga_fail(L, fname);
  if (S->gc_debt > LGA_GC_STEP_BYTES && S->gc_debt > ga_live_device_bytes() / 2) {
    S->gc_debt = 0;
    /* launch the queued kernels first: the GPU works while Lua collects
     * (held back, they would wait out the collection: ~0.1 ms a call that
     * allocates a large array, 20% of a 1 GiB random draw) */
    if (device != GA_CPU && ga_flush(device)) lga_fail(L, fname);
    lua_gc(L, LUA_GCCOLLECT);
  }
  S->gc_debt += size * GA_ITEMSIZE(dtype);
  ga_array *a = push_blank(L);
  void *stream = lga_stream(S, device);
  lga_note_running(L);
  ga_buffer *own;   /* ga.cuda.set_allocator's (lga_interop.c) */
  if ((S->alloc[0].kind || S->alloc[1].kind) &&
      lga_alloc_buffer(L, S, fname, device, (size_t)size * GA_ITEMSIZE(dtype), stream, &own)) {
    int64_t strides[GA_MAXDIM];
    ga_strides_c(ndim, shape, GA_ITEMSIZE(dtype), strides);
    a->offset = 0;
    a->dtype = dtype;
    ga_array_set_geometry(a, ndim, shape, strides);
    a->buf = own;
    return a;
  }
  int rc = ga_array_init(a, device, dtype, ndim, shape, stream);
  if (rc == GA_ENOMEM) {
    /* free cached blocks, let Lua drop what it no longer references, retry */
    ga_pool_free_all_blocks(ga_mem_pool(device));
    lua_gc(L, LUA_GCCOLLECT);
    S->gc_debt = size * GA_ITEMSIZE(dtype);   /* this allocation's, as above */
    rc = ga_array_init(a, device, dtype, ndim, shape, stream);
  }
  if (rc) lga_fail(L, fname);
  return a;
}

ga_array *lga_new_view(lua_State *L, int base_idx) {
  base_idx = lua_absindex(L, base_idx);
  ga_array *src = lga_toarray(L, base_idx);
  ga_array *v = push_blank(L);
  ga_array_view(v, src);
  /* base is the array that owns the memory, as in NumPy */
  if (lua_getiuservalue(L, base_idx, 1) == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushvalue(L, base_idx);
  }
  lua_setiuservalue(L, -2, 1);
  return v;
}
