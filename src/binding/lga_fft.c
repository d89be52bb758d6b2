/* The FFT's C entries (lua/gpuarray/fft.lua builds the public functions on
 * them):
 *   core._fft(x, axis, kind, inverse, n, scale, fname) -> a new array: the
 *     batched 1-D transform of x along axis (1-based, negative from the
 *     end); kind 0 c2c, 1 r2c, 2 c2r; x already has the dtype and the
 *     length along the axis that the kind reads (core/ga_fft.c checks);
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
  int64_t n = luaL_checkinteger(L, 5);
  double scale = luaL_optnumber(L, 6, 1.0);
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
  static const luaL_Reg fns[] = {{"_fft", l_fft}, {"_fft_cache", l_fft_cache}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  lua_settop(L, mod);
}
