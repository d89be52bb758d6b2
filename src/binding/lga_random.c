/* core._random_fill: the one entry lua/gpuarray/random.lua draws through.
 * The Lua side owns the API (arguments, state, errors); this fills a fresh
 * C-contiguous array from stream words off, off+1, ... of key k0:k1,
 * substream s (kernels/ga_philox.cuh) and returns the words it used. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "base/ga_checked.h"

/* words per value, as the kernel lays them out (kernels/ga_philox.cuh) */
static int words_per_value(int dist, int dtype, uint64_t irange) {
  if (dist >= 5) return 1;                                                 /* GA_RNG_GAMMA, _POISSON */
  if (dist == 2) return irange == 0 || irange > 0x100000000ull ? 2 : 1;   /* GA_RNG_INT */
  if (dist == 3) return 1;                                                 /* GA_RNG_BITS */
  return dtype == GA_FLOAT64 ? 2 : 1;
}

static uint32_t u32_arg(lua_State *L, int idx) { return (uint32_t)luaL_checkinteger(L, idx); }

static int l_random_fill(lua_State *L) {
  const char *fname = "random";
  lga_state *S = LGA_STATE(L);
  ga_array *out = lga_check(L, 1, fname);
  int dist = (int)luaL_checkinteger(L, 2);
  if (dist < 0 || dist > 6) return lga_errorf(L, fname, "unknown distribution %d", dist);
  int float_dist = dist != 2 && dist != 3 && dist != 6;
  if (float_dist ? out->dtype != GA_FLOAT32 && out->dtype != GA_FLOAT64
                 : !GA_IS_INT(out->dtype) || (dist == 3 && out->dtype != GA_UINT32) || (dist == 6 && out->dtype != GA_INT64))
    return lga_errorf(L, fname, "no draw of distribution %d into %s", dist, ga_dtypes[out->dtype].name);
  if (!ga_is_c_contiguous(out))
    return lga_errorf(L, fname, "the output must be a fresh C-contiguous array");
  ga_rand_call c = {0};
  c.out = GA_DATA(out);
  c.dtype = out->dtype;
  c.n = out->size;
  c.dist = dist;
  c.k0 = u32_arg(L, 3);
  c.k1 = u32_arg(L, 4);
  c.s = u32_arg(L, 5);
  c.off = (uint64_t)luaL_checkinteger(L, 6);
  c.p0 = luaL_optnumber(L, 7, 0);
  c.p1 = luaL_optnumber(L, 8, 1);
  c.ilow = (uint64_t)luaL_optinteger(L, 9, 0);
  c.irange = (uint64_t)luaL_optinteger(L, 10, 0);
  c.device = GA_DEVICE(out);
  c.stream = lga_stream(S, c.device);
  /* words used: a normal pair shares its words (float32: 2, float64: 4) */
  int wpv = words_per_value(dist, out->dtype, c.irange);
  int64_t n = dist == 1 ? c.n + (c.n & 1) : c.n, words;
  if (!ga_mul_i64(n, wpv, &words)) return lga_errorf(L, fname, "too many values");
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
