/* The FFT's C entries (lua/gpuarray/fft.lua builds the public functions on
 * them):
 *   core._fft(x, axis, kind, inverse, n, scale, fname) -> a new array: the
 *     batched 1-D transform of x along axis (1-based, negative from the
 *     end); kind 0 c2c, 1 r2c, 2 c2r; x already has the dtype and the
 *     length along the axis that the kind reads (core/ga_fft.c checks);
 *     n nil: the length x has; scale nil: the default norm's;
 *   core._fftn(x, axes, inverse, scale, fname) -> a new C-contiguous array:
 *     the C2C transform of x (complex) over 2 or 3 axes (a table, 1-based)
 *     as one plan, or nil when the backend or x's layout cannot (the caller
 *     then goes one axis at a time);
 *   core._fft_cache(device, op, value, fname) -> the plan cache's numbers
 *     (a table) after op (0 get, 1 set_size, 2 set_memsize, 3 clear) of
 *     device (an ordinal, -1 the host). */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_fft.h"
#include "base/ga_shape.h"

static int l_fft(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fname = luaL_optstring(L, 7, "fft");
  ga_array *x = lga_check(L, 1, fname);
  lga_check_current(L, S, x, fname);
  int axis;
  if (ga_axis(luaL_checkinteger(L, 2), x->ndim, &axis)) return lga_fail(L, fname);
  int kind = (int)luaL_checkinteger(L, 3);
  int inverse = lua_toboolean(L, 4);
  /* n nil: the axis's length (C2R: 2 * (length - 1)); scale nil: the
   * "backward" norm's (1/n for an inverse, else 1) -- the fast path of a
   * call with no options */
  int64_t n;
  if (lua_isnoneornil(L, 5)) {
    int64_t len = x->shape[axis];
    n = kind == GA_FFT_C2R ? 2 * (len - 1) : len;
    if (n < 1) return lga_errorf(L, fname, "invalid number of data points (%lld) specified", (long long)n);
  } else {
    n = luaL_checkinteger(L, 5);
  }
  double scale = lua_isnoneornil(L, 6) ? (inverse || kind == GA_FFT_C2R ? 1.0 / (double)n : 1.0)
                                       : luaL_checknumber(L, 6);
  int dtype;
  int64_t shape[GA_MAXDIM];
  if (ga_fft_out_geometry(x, axis, kind, n, &dtype, shape)) return lga_fail(L, fname);
  int dev = GA_DEVICE(x);
  ga_array *out = lga_new_array(L, S, fname, dev, dtype, x->ndim, shape);
  void *stream = lga_stream(S, dev);
  int rc = ga_fft_axis(x, out, axis, kind, inverse, n, scale, stream);
  if (rc == GA_ENOMEM) {
    /* a plan's work area or a private copy: free cached blocks, let Lua
     * drop what it no longer references, retry once */
    ga_pool_free_all_blocks(ga_mem_pool(dev));
    lua_gc(L, LUA_GCCOLLECT);
    S->gc_debt = 0;
    rc = ga_fft_axis(x, out, axis, kind, inverse, n, scale, stream);
  }
  if (rc) return lga_fail(L, fname);
  return 1;
}

static int l_fftn(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fname = luaL_optstring(L, 5, "fftn");
  ga_array *x = lga_check(L, 1, fname);
  lga_check_current(L, S, x, fname);
  luaL_checktype(L, 2, LUA_TTABLE);
  int rank = (int)luaL_len(L, 2), axes[3];
  if (rank < 2 || rank > 3) return luaL_error(L, "%s: 2 or 3 axes expected, got %d", fname, rank);
  for (int i = 0; i < rank; i++) {
    lua_geti(L, 2, i + 1);
    int ok = ga_axis(luaL_checkinteger(L, -1), x->ndim, &axes[i]);
    lua_pop(L, 1);
    if (ok) return lga_fail(L, fname);
  }
  int inverse = lua_toboolean(L, 3);
  double scale = luaL_optnumber(L, 4, 1.0);
  int dev = GA_DEVICE(x);
  ga_array *out = lga_new_array(L, S, fname, dev, x->dtype, x->ndim, x->shape);
  void *stream = lga_stream(S, dev);
  int done = 0;
  int rc = ga_fft_axes(x, out, rank, axes, inverse, scale, stream, &done);
  if (rc == GA_ENOMEM) {   /* as in l_fft */
    ga_pool_free_all_blocks(ga_mem_pool(dev));
    lua_gc(L, LUA_GCCOLLECT);
    S->gc_debt = 0;
    rc = ga_fft_axes(x, out, rank, axes, inverse, scale, stream, &done);
  }
  if (rc) return lga_fail(L, fname);
  if (!done) {   /* out goes back to the pool now */
    ga_array_release(out);
    lua_pushnil(L);
  }
  return 1;
}

static int l_fft_cache(lua_State *L) {
  const char *fname = luaL_optstring(L, 4, "get_plan_cache");
  int dev = (int)luaL_checkinteger(L, 1);
  int op = (int)luaL_checkinteger(L, 2);
  int64_t value = luaL_optinteger(L, 3, 0);
  ga_fft_cache_info info;
  if (ga_fft_cache(dev, op, value, &info)) return lga_fail(L, fname);
  lua_createtable(L, 0, 7);
  lua_pushinteger(L, info.size), lua_setfield(L, -2, "size");
  lua_pushinteger(L, info.max_size), lua_setfield(L, -2, "max_size");
  lua_pushinteger(L, info.memsize), lua_setfield(L, -2, "memsize");
  lua_pushinteger(L, info.max_memsize), lua_setfield(L, -2, "max_memsize");
  lua_pushinteger(L, info.hits), lua_setfield(L, -2, "hits");
  lua_pushinteger(L, info.misses), lua_setfield(L, -2, "misses");
  lua_pushinteger(L, info.created), lua_setfield(L, -2, "created");
  return 1;
}

void lga_open_fft(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg fns[] = {{"_fft", l_fft}, {"_fftn", l_fftn}, {"_fft_cache", l_fft_cache}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  lua_settop(L, mod);
}
