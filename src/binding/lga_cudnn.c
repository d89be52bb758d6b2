/* ga.cudnn's C entries (lua/gpuarray/cudnn.lua builds the public functions
 * on them and allocates the outputs):
 *   core._dnn(op, arrays, params, fname) runs operation op (GA_DNN_*, the
 *     order of base/ga_dnn_call.h) on the arrays of a table keyed by role
 *     (x, y, w, dx, dy, dw, b, gamma, beta, running_mean, running_var,
 *     save_mean, save_inv_var, dgamma, dbeta) with params (nhwc, pad,
 *     stride, dilation, window: lists of spatial values; groups, algo_find,
 *     tensor_cores, mode, mode2, coef, epsilon, factor, alpha, beta);
 *   core._dnn_available(device) -> true, version | false, message. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_dnn.h"
#include "base/ga_error.h"
#include <string.h>

static const char *const roles[GA_DT_N] = {"x", "y", "w", "dx", "dy", "dw", "b", "gamma", "beta",
                                           "running_mean", "running_var", "save_mean", "save_inv_var",
                                           "dgamma", "dbeta"};

static int64_t int_field(lua_State *L, int t, const char *k, int64_t dflt, const char *fname) {
  int64_t v = dflt;
  if (lua_getfield(L, t, k) != LUA_TNIL) {
    int ok;
    v = lua_tointegerx(L, -1, &ok);
    if (!ok) lga_errorf(L, fname, "%s must be an integer", k);
  }
  lua_pop(L, 1);
  return v;
}

static double num_field(lua_State *L, int t, const char *k, double dflt, const char *fname) {
  double v = dflt;
  if (lua_getfield(L, t, k) != LUA_TNIL) {
    int ok;
    v = lua_tonumberx(L, -1, &ok);
    if (!ok) lga_errorf(L, fname, "%s must be a number", k);
  }
  lua_pop(L, 1);
  return v;
}

/* a list of up to 3 spatial integers */
static void list_field(lua_State *L, int t, const char *k, int64_t dflt, int64_t *out, const char *fname) {
  for (int i = 0; i < 3; i++) out[i] = dflt;
  if (lua_getfield(L, t, k) == LUA_TTABLE) {
    lua_Integer n = luaL_len(L, -1);
    if (n > 3) lga_errorf(L, fname, "%s has %d entries (at most 3 spatial dims)", k, (int)n);
    for (lua_Integer i = 1; i <= n; i++) {
      lua_geti(L, -1, i);
      int ok;
      out[i - 1] = lua_tointegerx(L, -1, &ok);
      if (!ok) lga_errorf(L, fname, "%s[%d] must be an integer", k, (int)i);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

static int l_dnn(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fname = luaL_optstring(L, 4, "cudnn");
  ga_dnn_args a;
  memset(&a, 0, sizeof a);
  a.op = (int)luaL_checkinteger(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  int dev = GA_CPU, have = 0;
  for (int r = 0; r < GA_DT_N; r++) {
    if (lua_getfield(L, 2, roles[r]) != LUA_TNIL) {
      a.a[r] = lga_toarray(L, -1);
      if (!a.a[r]) lga_errorf(L, fname, "%s must be an ndarray", roles[r]);
      if (!a.a[r]->buf) lga_errorf(L, fname, "%s has been freed", roles[r]);
      if (!have) {
        lga_check_current(L, S, a.a[r], fname);
        dev = GA_DEVICE(a.a[r]), have = 1;
      }
    }
    lua_pop(L, 1);   /* the table keeps it alive */
  }
  if (!have) return lga_errorf(L, fname, "no arrays");
  a.nhwc = lua_getfield(L, 3, "nhwc") != LUA_TNIL && lua_toboolean(L, -1);
  lua_pop(L, 1);
  /* _channels_first: the specs' way into the core's fallback path */
  a.channels_first = lua_getfield(L, 3, "_channels_first") != LUA_TNIL && lua_toboolean(L, -1);
  lua_pop(L, 1);
  list_field(L, 3, "pad", 0, a.pad, fname);
  list_field(L, 3, "stride", 1, a.stride, fname);
  list_field(L, 3, "dilation", 1, a.dilation, fname);
  list_field(L, 3, "window", 1, a.window, fname);
  a.groups = int_field(L, 3, "groups", 1, fname);
  a.algo_find = (int)int_field(L, 3, "algo_find", 0, fname);
  a.tensor_cores = (int)int_field(L, 3, "tensor_cores", 1, fname);
  a.mode = (int)int_field(L, 3, "mode", 0, fname);
  a.mode2 = (int)int_field(L, 3, "mode2", 0, fname);
  a.coef = num_field(L, 3, "coef", 0, fname);
  a.epsilon = num_field(L, 3, "epsilon", 1e-5, fname);
  a.factor = num_field(L, 3, "factor", 0.1, fname);
  a.alpha = num_field(L, 3, "alpha", 1, fname);
  a.beta = num_field(L, 3, "beta", 0, fname);
  if (a.groups < 1 || a.groups > 1 << 30) return lga_errorf(L, fname, "groups must be >= 1, got %lld", (long long)a.groups);
  a.stream = lga_stream(S, dev);
  int rc = ga_dnn_run(&a);
  if (rc == GA_ENOMEM && dev != GA_CPU) {
    /* a workspace or a private copy: free cached blocks, let Lua drop what
     * it no longer references, retry once */
    ga_pool_free_all_blocks(ga_mem_pool(dev));
    lua_gc(L, LUA_GCCOLLECT);
    S->gc_debt = 0;
    rc = ga_dnn_run(&a);
  }
  if (rc) return lga_fail(L, fname);
  return 0;
}

static int l_dnn_available(lua_State *L) {
  int dev = (int)luaL_optinteger(L, 1, 0);
  int version = 0;
  if (ga_dnn_available(dev, &version)) {
    lua_pushboolean(L, 0);
    lua_pushstring(L, ga_errmsg());
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_pushinteger(L, version);
  return 2;
}

void lga_open_cudnn(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg fns[] = {{"_dnn", l_dnn}, {"_dnn_available", l_dnn_available}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  lua_settop(L, mod);
}
