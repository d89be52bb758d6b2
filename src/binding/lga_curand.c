/* cuRAND's generators as a Lua object (lua/gpuarray/random.lua wraps it in
 * ga.random.XORWOW / MRG32k3a): created closed, then opened on the current
 * device; __gc, __close and :close share one idempotent release.
 *   core._curand_new(kind, seed, offset) -> generator (kind 0 XORWOW, 1 MRG32k3a)
 *   gen:_draw(what, out, mean, stddev)   fills the C-contiguous array out
 *   gen:close() */
#include "binding/lga_core.h"
#include "core/ga_backend.h"

#define CURAND_MT "gpuarray.CurandGenerator"

typedef struct lga_curand { void *gen; int device; } lga_curand;

static lga_curand *check_gen(lua_State *L, const char *fname) {
  lga_curand *g = luaL_checkudata(L, 1, CURAND_MT);
  if (!g->gen) lga_errorf(L, fname, "the generator is closed");
  return g;
}

static int l_close(lua_State *L) {
  lga_curand *g = luaL_checkudata(L, 1, CURAND_MT);
  void *gen = g->gen;
  g->gen = NULL;
  ga_curand_close(g->device, gen);
  return 0;
}

static int l_new(lua_State *L) {
  const char *fname = "random";
  lga_state *S = LGA_STATE(L);
  lua_Integer kind = luaL_checkinteger(L, 1);
  if (kind != GA_CURAND_XORWOW && kind != GA_CURAND_MRG32K3A) return lga_errorf(L, fname, "unknown cuRAND generator");
  uint64_t seed = (uint64_t)luaL_checkinteger(L, 2), offset = (uint64_t)luaL_optinteger(L, 3, 0);
  lga_curand *g = lua_newuserdatauv(L, sizeof *g, 0);   /* closed until opened */
  g->gen = NULL;
  g->device = S->device;
  luaL_setmetatable(L, CURAND_MT);
  if (ga_curand_open(S->device, (int)kind, seed, offset, &g->gen)) return lga_fail(L, fname);
  return 1;
}

static int l_draw(lua_State *L) {
  const char *fname = "random";
  lga_state *S = LGA_STATE(L);
  lga_curand *g = check_gen(L, fname);
  int what = (int)luaL_checkinteger(L, 2);
  ga_array *out = lga_check(L, 3, fname);
  if (GA_DEVICE(out) != g->device)
    return lga_errorf(L, fname, "the output is on another device than the generator (%d)", g->device);
  if (!ga_is_c_contiguous(out)) return lga_errorf(L, fname, "the output must be C-contiguous");
  if (ga_check_writable(out)) return lga_fail(L, fname);
  int ok = what == GA_CURAND_BITS ? out->dtype == GA_UINT32
           : what >= GA_CURAND_UNIFORM && what <= GA_CURAND_LOGNORMAL ? out->dtype == GA_FLOAT32 || out->dtype == GA_FLOAT64
           : 0;
  if (!ok) return lga_errorf(L, fname, "no cuRAND draw %d into %s", what, ga_dtypes[out->dtype].name);
  ga_curand_call c = {0};
  c.gen = g->gen;
  c.out = GA_DATA(out);
  c.dtype = out->dtype;
  c.n = out->size;
  c.what = what;
  c.mean = luaL_optnumber(L, 4, 0);
  c.stddev = luaL_optnumber(L, 5, 1);
  c.stream = lga_stream(S, g->device);
  if (ga_curand_draw(g->device, &c)) return lga_fail(L, fname);
  return 0;
}

void lga_open_curand(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg fns[] = {{"_curand_new", l_new}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  static const luaL_Reg meta[] = {{"__gc", l_close}, {"__close", l_close}, {NULL, NULL}};
  static const luaL_Reg methods[] = {{"close", l_close}, {"_draw", l_draw}, {NULL, NULL}};
  luaL_newmetatable(L, CURAND_MT);
  int mt = lua_gettop(L);
  lga_setfuncs_host(L, meta, mod, mt, 0);   /* every function sees the module's state */
  lua_newtable(L);
  lga_setfuncs_host(L, methods, mod, -1, 0);
  lua_setfield(L, mt, "__index");
  lua_settop(L, mod);
}
