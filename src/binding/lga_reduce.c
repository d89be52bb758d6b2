/* Binding of the reduction rows (ga_reduce.def): one C closure per row,
 * `f(x [, axis] [, opts])`, in core._reduce (ga.X and the ndarray methods)
 * and core._reduce_host (ga.host.X: a Lua table or number becomes a host
 * array).  axis: an integer, a list of integers, or nil/false for every
 * axis; opts: {axis=, keepdims=, dtype=, out=}.  Upvalues: 1 state, 2 host
 * flag, 3 row id. */
#include "binding/lga_core.h"
#include "core/ga_reduce.h"
#include "core/ga_backend.h"
#include <stdlib.h>
#include <string.h>

/* a table that is a non-empty list of integers is a list of axes; any other
 * table is the options table */
static bool is_axis_list(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
  if (n == 0) return false;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    bool ok = lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n;
    lua_pop(L, 1);
    if (!ok) { lua_pop(L, 1); return false; }
  }
  return true;
}

/* axis at idx (lga_read_axes), normalised to 0-based axes */
static int get_axes(lua_State *L, int idx, const char *fname, int ndim, int *axes) {
  int64_t a1[GA_MAXDIM];
  int n = lga_read_axes(L, idx, fname, ndim, a1);
  if (n >= 0 && ga_red_axes(ndim, n, a1, axes)) lga_fail(L, fname);
  return n;
}

static const char *const red_opts[] = {"axis", "keepdims", "dtype", "out", NULL};

static bool inexact(int dt) { return GA_IS_FLOAT(dt) || GA_IS_COMPLEX(dt); }

/* nanargmax/nanargmin give 0 for a slice of NaNs only: NumPy's error.  The
 * smallest position is read back (this synchronises); integer and bool
 * inputs hold no NaN and are not checked. */
static void check_all_nan(lua_State *L, lga_state *S, const char *fname, ga_array *res, void *stream) {
  ga_red_plan q;
  if (ga_red_prepare(&ga_red_ops[GA_RED_MIN], res, -1, NULL, false, -1, &q)) lga_fail(L, fname);
  int dev = GA_DEVICE(res);
  int64_t none[1] = {0};   /* a 0-d result: no dims */
  ga_array *m = lga_new_array(L, S, fname, dev, GA_INT64, 0, none);
  int64_t lo = 1;
  if (ga_red_run(&q, res, m, stream)) lga_fail(L, fname);
  if (ga_memcpy(GA_CPU, &lo, dev, GA_DATA(m), sizeof lo, stream, 1)) lga_fail(L, fname);
  lua_pop(L, 1);
  if (lo == 0) lga_errorf(L, fname, "All-NaN slice encountered");
}

static int reduce(lua_State *L, const ga_red_op *op, const char *fname);

/* a row under its own name (the hot path: no name lookup) */
static int l_reduce(lua_State *L) {
  const ga_red_op *op = &ga_red_ops[lua_tointeger(L, lua_upvalueindex(3))];
  return reduce(L, op, op->name);
}

/* an alias (amax) names itself: its name is the 4th upvalue */
static int l_reduce_alias(lua_State *L) {
  return reduce(L, &ga_red_ops[lua_tointeger(L, lua_upvalueindex(3))], lua_tostring(L, lua_upvalueindex(4)));
}

static int reduce(lua_State *L, const ga_red_op *op, const char *fname) {
  lga_state *S = LGA_STATE(L);
  int top = lua_gettop(L);
  if (top < 1) lga_errorf(L, fname, "expected an array");
  if (lua_type(L, 1) == LUA_TTABLE && luaL_getmetafield(L, 1, "__ga_fuse_reduce") != LUA_TNIL) {
    /* a symbolic array of a ga.fuse trace: the tracer records the reduction */
    lua_insert(L, 1);
    lua_pushstring(L, fname);
    lua_insert(L, 2);
    lua_call(L, top + 1, 1);
    return 1;
  }
  if (!lga_toarray(L, 1)) {   /* a Lua value: an array on the current device (or the host) */
    lga_from_value(L, S, 1, LGA_HOST(L) ? GA_CPU : S->device, -1, 0, fname);
    lua_replace(L, 1);
  }
  ga_array *x = lga_check(L, 1, fname);
  /* arguments: (x, axis, opts) or (x, opts) */
  int axis_idx = 2, opts = 0;
  if (top >= 2 && lua_type(L, 2) == LUA_TTABLE && !is_axis_list(L, 2)) {
    opts = 2;
    if (top >= 3 && !lua_isnil(L, 3)) lga_errorf(L, fname, "options must be the last argument");
  } else if (top >= 3 && !lua_isnil(L, 3)) {
    luaL_checktype(L, 3, LUA_TTABLE);
    opts = 3;
  }
  bool keepdims = false;
  int dtype_req = -1, out_idx = 0;
  if (opts) {
    lga_check_options(L, opts, fname, red_opts);
    lua_getfield(L, opts, "axis");
    if (opts == 2 || lua_isnil(L, 2)) axis_idx = lua_gettop(L);   /* else f(x, axis, opts) */
    else if (!lua_isnil(L, -1)) lga_errorf(L, fname, "axis given twice (argument 2 and axis=)");
    lua_getfield(L, opts, "keepdims");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
      lga_errorf(L, fname, "keepdims must be a boolean, got %s", luaL_typename(L, -1));
    keepdims = lua_toboolean(L, -1);
    lua_getfield(L, opts, "dtype");
    if (!lua_isnil(L, -1)) {
      if (op->rule != GA_RULE_SUM && op->rule != GA_RULE_MEAN)
        lga_errorf(L, fname, "takes no dtype= option");
      dtype_req = lga_opt_dtype(L, -1, fname, -1);
      if (op->id == GA_RED_NANMEAN && inexact(x->dtype) && !inexact(dtype_req))
        lga_errorf(L, fname, "If a is inexact, then dtype must be inexact");
    }
    lua_getfield(L, opts, "out");
    if (!lua_isnil(L, -1)) {
      out_idx = lua_gettop(L);
      if (!lga_toarray(L, out_idx)) lga_errorf(L, fname, "out must be an array");
    }
  } else if (top < 2) {
    lua_pushnil(L);
    axis_idx = lua_gettop(L);
  }
  int axes[GA_MAXDIM];
  int naxes = get_axes(L, axis_idx, fname, x->ndim, axes);
  ga_red_plan p;
  if (ga_red_prepare(op, x, naxes, axes, keepdims, dtype_req, &p)) lga_fail(L, fname);
  int device = GA_DEVICE(x);
  void *stream = lga_stream(S, device);
  int final = dtype_req >= 0 ? dtype_req : p.out_dtype;
  ga_array *out = NULL;
  if (out_idx) {
    out = lga_check(L, out_idx, fname);
    char b1[512], b2[512], d1[32], d2[32];
    if (GA_DEVICE(out) != device)
      lga_errorf(L, fname, "out is on %s but the input is on %s", ga_device_name(GA_DEVICE(out), d1),
                 ga_device_name(device, d2));
    if (out->ndim != p.out_ndim || memcmp(out->shape, p.out_shape, sizeof(int64_t) * p.out_ndim))
      lga_errorf(L, fname, "out has shape %s but the result has shape %s",
                 ga_shape_str(out->ndim, out->shape, b1, sizeof b1),
                 ga_shape_str(p.out_ndim, p.out_shape, b2, sizeof b2));
    final = out->dtype;
  }
  ga_array *res;
  if (out && out->dtype == p.out_dtype) {
    res = out;
  } else {
    res = lga_new_array(L, S, fname, device, p.out_dtype, p.out_ndim, p.out_shape);
  }
  if (ga_red_run(&p, x, res, stream)) lga_fail(L, fname);
  if ((op->id == GA_RED_NANARGMAX || op->id == GA_RED_NANARGMIN) && inexact(x->dtype) && res->size > 0)
    check_all_nan(L, S, fname, res, stream);
  if (out) {
    if (res != out) lga_run_copy(L, S, out, res, fname);   /* out= casts (NumPy: unsafe) */
    lua_pushvalue(L, out_idx);
  } else if (final != p.out_dtype) {   /* dtype= of an integer sum: wrap as NumPy */
    ga_array *cast = lga_new_array(L, S, fname, device, final, p.out_ndim, p.out_shape);
    lga_run_copy(L, S, cast, res, fname);
  }
  return 1;
}


void lga_open_reduce(lua_State *L) {
  int mod = lua_gettop(L);
  for (int host = 0; host <= 1; host++) {
    lua_createtable(L, 0, GA_NREDS);
    for (int r = 0; r < GA_NREDS; r++) {
      lua_getfield(L, mod, "_state");
      lua_pushboolean(L, host);
      lua_pushinteger(L, r);
      lua_pushcclosure(L, l_reduce, 3);
      lua_setfield(L, -2, ga_red_ops[r].name);
    }
    static const char *const alias[][2] = {{"amax", "max"}, {"amin", "min"}};
    for (int i = 0; i < 2; i++) {
      lua_getfield(L, mod, "_state");
      lua_pushboolean(L, host);
      lua_pushinteger(L, ga_red_find(alias[i][1])->id);
      lua_pushstring(L, alias[i][0]);
      lua_pushcclosure(L, l_reduce_alias, 4);
      lua_setfield(L, -2, alias[i][0]);
    }
    lua_setfield(L, mod, host ? "_reduce_host" : "_reduce");
  }
}

