/* Creation functions.  Each is registered twice: in the module (arrays on
 * the current device) and in module.host (host arrays); upvalue 2 says
 * which. */
#include "binding/lga_core.h"
#include <math.h>
#include <string.h>

static const char *const dtype_only[] = {"dtype", NULL};

static int target_device(lua_State *L) {
  return lua_toboolean(L, lua_upvalueindex(2)) ? GA_CPU : LGA_STATE(L)->device;
}

/* Where a result made from array `a` goes: a's device (ga.host.*: the host). */
static int like_device(lua_State *L, const ga_array *a) {
  return lua_toboolean(L, lua_upvalueindex(2)) ? GA_CPU : GA_DEVICE(a);
}

/* dtype given as a string, nil, or an options table {dtype=} at idx */
static int dtype_arg(lua_State *L, int idx, const char *fname, int dflt) {
  if (lua_type(L, idx) == LUA_TTABLE && !lga_toarray(L, idx)) {
    lga_check_options(L, idx, fname, dtype_only);
    lua_getfield(L, idx, "dtype");
    int dt = lga_opt_dtype(L, -1, fname, dflt);
    lua_pop(L, 1);
    return dt;
  }
  return lga_opt_dtype(L, idx, fname, dflt);
}

static ga_array *make(lua_State *L, const char *fname, int dflt) {
  int64_t shape[GA_MAXDIM];
  if (lua_isnoneornil(L, 1)) lga_errorf(L, fname, "missing shape");
  int nd = lga_get_shape(L, 1, fname, shape);
  int dt = dtype_arg(L, 2, fname, dflt);
  return lga_new_array(L, LGA_STATE(L), fname, target_device(L), dt, nd, shape);
}

static void fill_int(lua_State *L, ga_array *a, int64_t v, const char *fname) {
  ga_operand o = {GA_ARG_INT, NULL, v, 0};
  lga_run_fill(L, LGA_STATE(L), a, &o, fname);
}

static int l_empty(lua_State *L) { make(L, "empty", GA_FLOAT64); return 1; }
static int l_zeros(lua_State *L) { fill_int(L, make(L, "zeros", GA_FLOAT64), 0, "zeros"); return 1; }
static int l_ones(lua_State *L) { fill_int(L, make(L, "ones", GA_FLOAT64), 1, "ones"); return 1; }

/* A fill value at idx as an operand; its natural dtype in *dt. */
static ga_operand value_arg(lua_State *L, int idx, const char *fname, int *dt) {
  ga_operand o = {GA_ARG_INT, NULL, 0, 0};
  switch (lua_type(L, idx)) {
  case LUA_TBOOLEAN: o.i = lua_toboolean(L, idx); *dt = GA_BOOL; break;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) { o.i = lua_tointeger(L, idx); *dt = GA_INT64; }
    else { o.kind = GA_ARG_FLOAT; o.f = lua_tonumber(L, idx); *dt = GA_FLOAT64; }
    break;
  default:
    lga_errorf(L, fname, "fill value must be a number or boolean, got %s", luaL_typename(L, idx));
  }
  return o;
}

static int l_full(lua_State *L) {
  int64_t shape[GA_MAXDIM];
  int nd = lga_get_shape(L, 1, "full", shape), vdt;
  ga_operand v = value_arg(L, 2, "full", &vdt);
  int dt = dtype_arg(L, 3, "full", vdt);
  ga_array *a = lga_new_array(L, LGA_STATE(L), "full", target_device(L), dt, nd, shape);
  lga_run_fill(L, LGA_STATE(L), a, &v, "full");
  return 1;
}

/* *_like(a, [fill,] dtype): same shape, a's device (ga.host.*_like: host) */
static ga_array *make_like(lua_State *L, const char *fname, int dtype_idx) {
  ga_array *a = lga_check(L, 1, fname);
  int dt = dtype_arg(L, dtype_idx, fname, a->dtype);
  int dev = like_device(L, a);
  return lga_new_array(L, LGA_STATE(L), fname, dev, dt, a->ndim, a->shape);
}
static int l_empty_like(lua_State *L) { make_like(L, "empty_like", 2); return 1; }
static int l_zeros_like(lua_State *L) { fill_int(L, make_like(L, "zeros_like", 2), 0, "zeros_like"); return 1; }
static int l_ones_like(lua_State *L) { fill_int(L, make_like(L, "ones_like", 2), 1, "ones_like"); return 1; }
static int l_full_like(lua_State *L) {
  int vdt;
  ga_operand v = value_arg(L, 2, "full_like", &vdt);
  ga_array *a = make_like(L, "full_like", 3);
  lga_run_fill(L, LGA_STATE(L), a, &v, "full_like");
  return 1;
}

/* arange(stop) / arange(start, stop[, step][, dtype]) */
static int l_arange(lua_State *L) {
  int top = lua_gettop(L), dt = -1;
  if (top >= 1 && (lua_type(L, top) == LUA_TSTRING || (lua_type(L, top) == LUA_TTABLE && !lga_toarray(L, top)))) {
    dt = dtype_arg(L, top, "arange", -1);
    top--;
  }
  if (top < 1 || top > 3) return lga_errorf(L, "arange", "expects (stop) or (start, stop[, step])");
  int all_int = 1;
  for (int i = 1; i <= top; i++) {
    if (lua_type(L, i) != LUA_TNUMBER) return lga_errorf(L, "arange", "bad argument #%d (number expected, got %s)", i, luaL_typename(L, i));
    all_int = all_int && lua_isinteger(L, i);
  }
  double start = top >= 2 ? lua_tonumber(L, 1) : 0, stop = lua_tonumber(L, top >= 2 ? 2 : 1);
  double step = top == 3 ? lua_tonumber(L, 3) : 1;
  if (step == 0) return lga_errorf(L, "arange", "step must not be zero");
  if (isnan(start) || isnan(stop) || isnan(step) || isinf(start) || isinf(stop))
    return lga_errorf(L, "arange", "arguments must be finite");
  int64_t n;
  ga_operand o_start, o_step;
  if (all_int) {
    lua_Integer a = top >= 2 ? lua_tointeger(L, 1) : 0, b = lua_tointeger(L, top >= 2 ? 2 : 1);
    lua_Integer s = top == 3 ? lua_tointeger(L, 3) : 1;
    n = s > 0 ? (b > a ? (b - a + s - 1) / s : 0) : (a > b ? (a - b - s - 1) / -s : 0);
    o_start = (ga_operand){GA_ARG_INT, NULL, a, 0};
    o_step = (ga_operand){GA_ARG_INT, NULL, s, 0};
    if (dt < 0) dt = GA_INT64;
  } else {
    double len = ceil((stop - start) / step);
    n = len > 0 ? (int64_t)len : 0;
    o_start = (ga_operand){GA_ARG_FLOAT, NULL, 0, start};
    o_step = (ga_operand){GA_ARG_FLOAT, NULL, 0, step};
    if (dt < 0) dt = GA_FLOAT64;
  }
  ga_array *a = lga_new_array(L, LGA_STATE(L), "arange", target_device(L), dt, 1, &n);
  int loop = dt == GA_BOOL ? GA_INT64 : dt;
  if (ga_arange_fill(a, &o_start, &o_step, loop, lga_stream(LGA_STATE(L), GA_DEVICE(a)))) return lga_fail(L, "arange");
  return 1;
}

static const char *const linspace_opts[] = {"dtype", "endpoint", "num", NULL};

/* linspace(start, stop[, num][, {endpoint=, dtype=}]) */
static int l_linspace(lua_State *L) {
  double start = luaL_checknumber(L, 1), stop = luaL_checknumber(L, 2);
  lua_Integer num = 50;
  int opts = 0, endpoint = 1, dt = GA_FLOAT64;
  if (lua_type(L, 3) == LUA_TNUMBER) {
    if (!lua_isinteger(L, 3)) return lga_errorf(L, "linspace", "num must be an integer");
    num = lua_tointeger(L, 3);
    if (lua_type(L, 4) == LUA_TTABLE) opts = 4;
    else if (lua_type(L, 4) == LUA_TSTRING) dt = lga_opt_dtype(L, 4, "linspace", dt);
  } else if (lua_type(L, 3) == LUA_TTABLE) opts = 3;
  if (opts) {
    lga_check_options(L, opts, "linspace", linspace_opts);
    if (lua_getfield(L, opts, "endpoint") != LUA_TNIL) endpoint = lua_toboolean(L, -1);
    if (lua_getfield(L, opts, "num") != LUA_TNIL) num = luaL_checkinteger(L, -1);
    lua_getfield(L, opts, "dtype");
    dt = lga_opt_dtype(L, -1, "linspace", dt);
    lua_pop(L, 3);
  }
  if (num < 0) return lga_errorf(L, "linspace", "number of samples, %d, must be non-negative", (int)num);
  int64_t n = num;
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_new_array(L, S, "linspace", target_device(L), dt, 1, &n);
  int64_t div = endpoint ? num - 1 : num;
  double step = div > 0 ? (stop - start) / (double)div : 0;
  ga_operand o_start = {GA_ARG_FLOAT, NULL, 0, start}, o_step = {GA_ARG_FLOAT, NULL, 0, step};
  int loop = GA_IS_COMPLEX(dt) ? dt : (GA_IS_FLOAT(dt) ? dt : GA_FLOAT64);
  if (dt == GA_FLOAT16 || dt == GA_FLOAT32) loop = GA_FLOAT64;   /* NumPy computes in float64 */
  if (ga_arange_fill(a, &o_start, &o_step, loop, lga_stream(S, GA_DEVICE(a)))) return lga_fail(L, "linspace");
  if (endpoint && num > 1) {   /* the last sample is exactly stop */
    ga_array *last = lga_new_view(L, -1);
    last->offset += (num - 1) * GA_ITEMSIZE(dt);
    last->ndim = 0;
    last->size = 1;
    ga_operand o = {GA_ARG_FLOAT, NULL, 0, stop};
    lga_run_fill(L, S, last, &o, "linspace");
    lua_pop(L, 1);
  }
  return 1;
}

/* eye(N[, M[, k]][, dtype]) */
static int l_eye(lua_State *L) {
  int top = lua_gettop(L), dt = GA_FLOAT64;
  if (top >= 2 && (lua_type(L, top) == LUA_TSTRING || lua_type(L, top) == LUA_TTABLE)) dt = dtype_arg(L, top--, "eye", dt);
  lua_Integer N = luaL_checkinteger(L, 1);
  lua_Integer M = top >= 2 && !lua_isnil(L, 2) ? luaL_checkinteger(L, 2) : N;
  lua_Integer k = top >= 3 ? luaL_checkinteger(L, 3) : 0;
  if (N < 0 || M < 0) return lga_errorf(L, "eye", "negative dimensions are not allowed");
  int64_t shape[2] = {N, M};
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_new_array(L, S, "eye", target_device(L), dt, 2, shape);
  fill_int(L, a, 0, "eye");
  int64_t len = k >= 0 ? (M - k < N ? M - k : N) : (N + k < M ? N + k : M);
  if (len > 0) {
    ga_array *d = lga_new_view(L, -1);
    d->offset = (k >= 0 ? k : -k * M) * GA_ITEMSIZE(dt);
    d->ndim = 1;
    d->shape[0] = len;
    d->strides[0] = (M + 1) * GA_ITEMSIZE(dt);
    d->size = len;
    fill_int(L, d, 1, "eye");
    lua_pop(L, 1);
  }
  return 1;
}

static int l_identity(lua_State *L) {
  lua_settop(L, 2);
  if (lua_isnil(L, 2)) lua_pushliteral(L, "float64"), lua_replace(L, 2);
  lua_pushnil(L);
  lua_insert(L, 2);   /* identity(n, dtype) -> eye(n, nil, dtype) */
  return l_eye(L);
}

/* array(obj[, dtype]) copies; asarray(obj[, dtype]) copies only if needed */
static int l_array(lua_State *L) {
  int dt = dtype_arg(L, 2, "array", -1);
  lga_from_value(L, LGA_STATE(L), 1, target_device(L), dt, 1, "array");
  return 1;
}
static int l_asarray(lua_State *L) {
  int dt = dtype_arg(L, 2, "asarray", -1);
  lga_from_value(L, LGA_STATE(L), 1, target_device(L), dt, 0, "asarray");
  return 1;
}
static int l_ascontiguousarray(lua_State *L) {
  int dt = dtype_arg(L, 2, "ascontiguousarray", -1);
  if (!lga_toarray(L, 1)) {
    lga_from_value(L, LGA_STATE(L), 1, target_device(L), dt, 1, "ascontiguousarray");
    return 1;
  }
  ga_array *a = lga_check(L, 1, "ascontiguousarray");
  int dev = like_device(L, a);
  if (dev == GA_DEVICE(a) && ga_is_c_contiguous(a) && (dt < 0 || dt == a->dtype)) {
    lua_settop(L, 1);
    return 1;
  }
  lga_to_device(L, LGA_STATE(L), 1, dev, dt, 1, "ascontiguousarray");
  return 1;
}
static int l_copy(lua_State *L) {
  ga_array *a = lga_check(L, 1, "copy");
  int dev = like_device(L, a);
  lga_to_device(L, LGA_STATE(L), 1, dev, -1, 1, "copy");
  return 1;
}
/* asnumpy(x): a host copy (CuPy's name) */
static int l_asnumpy(lua_State *L) {
  if (!lga_toarray(L, 1)) {
    lga_from_value(L, LGA_STATE(L), 1, GA_CPU, -1, 1, "asnumpy");
    return 1;
  }
  lga_check(L, 1, "asnumpy");
  lga_to_device(L, LGA_STATE(L), 1, GA_CPU, -1, 1, "asnumpy");
  return 1;
}

static const luaL_Reg create_fns[] = {
  {"empty", l_empty}, {"zeros", l_zeros}, {"ones", l_ones}, {"full", l_full},
  {"empty_like", l_empty_like}, {"zeros_like", l_zeros_like}, {"ones_like", l_ones_like},
  {"full_like", l_full_like}, {"arange", l_arange}, {"linspace", l_linspace}, {"eye", l_eye},
  {"identity", l_identity}, {"array", l_array}, {"asarray", l_asarray},
  {"ascontiguousarray", l_ascontiguousarray}, {"copy", l_copy}, {"asnumpy", l_asnumpy},
  {NULL, NULL}};

void lga_open_create(lua_State *L) {
  int mod = lua_gettop(L);
  lua_newtable(L);   /* module.host */
  for (int host = 0; host <= 1; host++) {
    for (const luaL_Reg *r = create_fns; r->name; r++) {
      lua_getfield(L, mod, "_state");
      lua_pushboolean(L, host);
      lua_pushcclosure(L, r->func, 2);
      lua_setfield(L, host ? -2 : mod, r->name);
    }
  }
  lua_setfield(L, mod, "host");
}
