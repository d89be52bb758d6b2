/* core._random_fill: the one entry lua/gpuarray/random.lua draws through.
 * The Lua side owns the API (arguments, state, errors); this fills a fresh
 * C-contiguous array from stream words off, off+1, ... of key k0:k1,
 * substream s (kernels/ga_philox.cuh) and returns the words it used.
 * core._random_fill(out, dist, k0, k1, s, off, p0, p1, ilow, irange); p0, p1
 * (rejection draws) and ilow (hypergeometric's nsample) may be arrays. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_rand.h"

static uint32_t u32_arg(lua_State *L, int idx) { return (uint32_t)luaL_checkinteger(L, idx); }

/* a draw's parameter: a number, or (rejection draws) a C-contiguous float64
 * array of the output's size on its device: value i's own parameter */
static double param(lua_State *L, int idx, double dflt, const ga_array *out, const double **per, const char *fname) {
  *per = NULL;
  if (lua_type(L, idx) != LUA_TUSERDATA) return luaL_optnumber(L, idx, dflt);
  ga_array *p = lga_check(L, idx, fname);
  if (p->dtype != GA_FLOAT64 || p->size != out->size || !ga_is_c_contiguous(p) || GA_DEVICE(p) != GA_DEVICE(out))
    lga_errorf(L, fname, "a per-value parameter must be a C-contiguous float64 array of the output's size and device");
  *per = (const double *)GA_DATA(p);
  return dflt;
}

static int l_random_fill(lua_State *L) {
  const char *fname = "random";
  lga_state *S = LGA_STATE(L);
  ga_array *out = lga_check(L, 1, fname);
  if (!ga_is_c_contiguous(out))
    return lga_errorf(L, fname, "the output must be a fresh C-contiguous array");
  if (ga_check_writable(out)) return lga_fail(L, fname);
  ga_rand_call c = {0};
  c.out = GA_DATA(out);
  c.dtype = out->dtype;
  c.n = out->size;
  c.dist = (int)luaL_checkinteger(L, 2);
  c.k0 = u32_arg(L, 3);
  c.k1 = u32_arg(L, 4);
  c.s = u32_arg(L, 5);
  c.off = (uint64_t)luaL_checkinteger(L, 6);
  c.p0 = param(L, 7, 0, out, &c.pa, fname);
  c.p1 = param(L, 8, 1, out, &c.pb, fname);
  if (lua_type(L, 9) == LUA_TUSERDATA) {   /* hypergeometric: per-value sample counts */
    (void)param(L, 9, 0, out, &c.pc, fname);
  } else {
    c.ilow = (uint64_t)luaL_optinteger(L, 9, 0);
  }
  c.irange = (uint64_t)luaL_optinteger(L, 10, 0);
  c.device = GA_DEVICE(out);
  c.stream = lga_stream(S, c.device);
  int64_t words;
  if (ga_rand_plan(&c, &words)) return lga_fail(L, fname);
  if (ga_rand(&c)) return lga_fail(L, fname);
  lua_pushinteger(L, (lua_Integer)words);
  return 1;
}

void lga_open_random(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg fns[] = {{"_random_fill", l_random_fill}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  lua_settop(L, mod);
}
