/* Creation functions.  Each is registered twice: in the module (arrays on
 * the current device) and in module.host (host arrays); upvalue 2 says
 * which. */
#include "binding/lga_core.h"
#include "base/ga_checked.h"
#include <math.h>
#include <string.h>

static const char *const dtype_only[] = {"dtype", NULL};

static int target_device(lua_State *L) {
  return LGA_HOST(L) ? GA_CPU : LGA_STATE(L)->device;
}

/* Where a result made from array `a` goes: a's device (ga.host.*: the host). */
static int like_device(lua_State *L, const ga_array *a) {
  return LGA_HOST(L) ? GA_CPU : GA_DEVICE(a);
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

static int l_empty(lua_State *L) { make(L, LGA_FNAME(L), GA_FLOAT64); return 1; }
static int l_zeros(lua_State *L) { fill_int(L, make(L, LGA_FNAME(L), GA_FLOAT64), 0, LGA_FNAME(L)); return 1; }
static int l_ones(lua_State *L) { fill_int(L, make(L, LGA_FNAME(L), GA_FLOAT64), 1, LGA_FNAME(L)); return 1; }

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
  const char *fname = LGA_FNAME(L);
  int64_t shape[GA_MAXDIM];
  if (lua_isnoneornil(L, 1)) lga_errorf(L, fname, "missing shape");
  int nd = lga_get_shape(L, 1, fname, shape), vdt;
  ga_operand v = value_arg(L, 2, fname, &vdt);
  int dt = dtype_arg(L, 3, fname, vdt);
  lga_check_fits(L, &v, dt, fname);
  ga_array *a = lga_new_array(L, LGA_STATE(L), fname, target_device(L), dt, nd, shape);
  lga_run_fill(L, LGA_STATE(L), a, &v, fname);
  return 1;
}

/* *_like(a, [fill,] dtype): same shape, a's device (ga.host.*_like: host) */
static ga_array *make_like(lua_State *L, const char *fname, int dtype_idx) {
  ga_array *a = lga_check(L, 1, fname);
  int dt = dtype_arg(L, dtype_idx, fname, a->dtype);
  int dev = like_device(L, a);
  return lga_new_array(L, LGA_STATE(L), fname, dev, dt, a->ndim, a->shape);
}
static int l_empty_like(lua_State *L) { make_like(L, LGA_FNAME(L), 2); return 1; }
static int l_zeros_like(lua_State *L) { fill_int(L, make_like(L, LGA_FNAME(L), 2), 0, LGA_FNAME(L)); return 1; }
static int l_ones_like(lua_State *L) { fill_int(L, make_like(L, LGA_FNAME(L), 2), 1, LGA_FNAME(L)); return 1; }
static int l_full_like(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int vdt;
  ga_operand v = value_arg(L, 2, fname, &vdt);
  ga_array *a = make_like(L, fname, 3);
  lga_check_fits(L, &v, a->dtype, fname);
  lga_run_fill(L, LGA_STATE(L), a, &v, fname);
  return 1;
}

/* The length of arange(a, b, s) over integers, ceil((b - a) / s) without
 * overflow: |b - a| and |s| fit in uint64.  False past int64 (NumPy's
 * "Maximum allowed size exceeded"). */
static bool arange_len_int(int64_t a, int64_t b, int64_t s, int64_t *n) {
  uint64_t d, m;
  *n = 0;
  if (s > 0 ? b <= a : a <= b) return true;
  if (s > 0) d = (uint64_t)b - (uint64_t)a, m = (uint64_t)s;
  else d = (uint64_t)a - (uint64_t)b, m = -(uint64_t)s;
  uint64_t c = (d - 1) / m + 1;
  if (c > (uint64_t)INT64_MAX) return false;
  *n = (int64_t)c;
  return true;
}

/* arange(stop) / arange(start, stop[, step][, dtype]) */
static int l_arange(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int top = lua_gettop(L), dt = -1;
  if (top >= 1 && (lua_type(L, top) == LUA_TSTRING || (lua_type(L, top) == LUA_TTABLE && !lga_toarray(L, top)))) {
    dt = dtype_arg(L, top, fname, -1);
    top--;
  }
  if (top < 1 || top > 3) return lga_errorf(L, fname, "expects (stop) or (start, stop[, step])");
  int all_int = 1;
  for (int i = 1; i <= top; i++) {
    if (lua_type(L, i) != LUA_TNUMBER) return lga_errorf(L, fname, "bad argument #%d (number expected, got %s)", i, luaL_typename(L, i));
    all_int = all_int && lua_isinteger(L, i);
  }
  double start = top >= 2 ? lua_tonumber(L, 1) : 0, stop = lua_tonumber(L, top >= 2 ? 2 : 1);
  double step = top == 3 ? lua_tonumber(L, 3) : 1;
  if (step == 0) return lga_errorf(L, fname, "step must not be zero");
  if (isnan(start) || isnan(stop) || isnan(step) || isinf(start) || isinf(stop))
    return lga_errorf(L, fname, "arguments must be finite");
  int64_t n;
  ga_operand o_start, o_step, o_next;   /* o_next: the second value, start + step */
  if (all_int) {
    lua_Integer a = top >= 2 ? lua_tointeger(L, 1) : 0, b = lua_tointeger(L, top >= 2 ? 2 : 1);
    lua_Integer s = top == 3 ? lua_tointeger(L, 3) : 1;
    if (!arange_len_int(a, b, s, &n)) return lga_errorf(L, fname, "Maximum allowed size exceeded");
    o_start = (ga_operand){GA_ARG_INT, NULL, a, 0};
    o_step = (ga_operand){GA_ARG_INT, NULL, s, 0};
    /* with two values or more, start + step lies in [start, stop) */
    o_next = (ga_operand){GA_ARG_INT, NULL, n > 1 ? a + s : a, 0};
    if (dt < 0) dt = GA_INT64;
  } else {
    double len = ceil((stop - start) / step);
    if (isnan(len)) return lga_errorf(L, fname, "cannot compute length");
    if (len <= 0) n = 0;
    else if (!ga_double_to_i64(len, &n)) return lga_errorf(L, fname, "Maximum allowed size exceeded");
    o_start = (ga_operand){GA_ARG_FLOAT, NULL, 0, start};
    o_step = (ga_operand){GA_ARG_FLOAT, NULL, 0, step};
    o_next = (ga_operand){GA_ARG_FLOAT, NULL, 0, n > 1 ? start + step : start};
    if (dt < 0) dt = GA_FLOAT64;
  }
  int loop = dt == GA_BOOL ? GA_INT64 : dt;
  /* NumPy computes in the dtype from its first two values, which must fit */
  if (n > 0) lga_check_fits(L, &o_start, loop, fname);
  if (n > 1) lga_check_fits(L, &o_next, loop, fname);
  ga_array *a = lga_new_array(L, LGA_STATE(L), fname, target_device(L), dt, 1, &n);
  if (ga_arange_fill(a, &o_start, &o_step, loop, lga_stream(LGA_STATE(L), GA_DEVICE(a)))) return lga_fail(L, fname);
  return 1;
}

static const char *const linspace_opts[] = {"dtype", "endpoint", "num", NULL};

/* An integer argument at idx (a whole float is accepted, as elsewhere);
 * `what` names it in the error. */
static lua_Integer int_arg(lua_State *L, int idx, const char *fname, const char *what) {
  lua_Integer v;
  if (lua_isinteger(L, idx)) return lua_tointeger(L, idx);
  if (lua_type(L, idx) == LUA_TNUMBER && lua_numbertointeger(lua_tonumber(L, idx), &v) &&
      (lua_Number)v == lua_tonumber(L, idx))
    return v;
  return lga_errorf(L, fname, "%s must be an integer, got %s", what,
                    lua_type(L, idx) == LUA_TNUMBER ? lua_tostring(L, idx) : luaL_typename(L, idx));
}

static double number_arg(lua_State *L, int idx, const char *fname, const char *what) {
  if (lua_type(L, idx) != LUA_TNUMBER)
    lga_errorf(L, fname, "%s must be a number, got %s", what, luaL_typename(L, idx));
  return lua_tonumber(L, idx);
}

/* linspace(start, stop[, num][, {endpoint=, dtype=}]) */
static int l_linspace(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  double start = number_arg(L, 1, fname, "start"), stop = number_arg(L, 2, fname, "stop");
  lua_Integer num = 50;
  int opts = 0, endpoint = 1, dt = GA_FLOAT64;
  if (lua_type(L, 3) == LUA_TNUMBER) {
    num = int_arg(L, 3, fname, "num");
    if (lua_type(L, 4) == LUA_TTABLE) opts = 4;
    else if (lua_type(L, 4) == LUA_TSTRING) dt = lga_opt_dtype(L, 4, fname, dt);
  } else if (lua_type(L, 3) == LUA_TTABLE) opts = 3;
  if (opts) {
    lga_check_options(L, opts, fname, linspace_opts);
    if (lua_getfield(L, opts, "endpoint") != LUA_TNIL) endpoint = lua_toboolean(L, -1);
    if (lua_getfield(L, opts, "num") != LUA_TNIL) num = int_arg(L, -1, fname, "num");
    lua_getfield(L, opts, "dtype");
    dt = lga_opt_dtype(L, -1, fname, dt);
    lua_pop(L, 3);
  }
  if (num < 0) return lga_errorf(L, fname, "Number of samples, %lld, must be non-negative", (long long)num);
  int64_t n = num, div = endpoint ? num - 1 : num;
  double step = div > 0 ? (stop - start) / (double)div : 0;
  ga_operand o_start = {GA_ARG_FLOAT, NULL, 0, start}, o_step = {GA_ARG_FLOAT, NULL, 0, step};
  /* the samples run from the first to the last: both must fit an integer dtype */
  ga_operand o_last = {GA_ARG_FLOAT, NULL, 0, endpoint ? stop : start + (double)(n - 1) * step};
  if (n > 0) lga_check_fits(L, &o_start, dt, fname);
  if (n > 1) lga_check_fits(L, &o_last, dt, fname);
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_new_array(L, S, fname, target_device(L), dt, 1, &n);
  int loop = GA_IS_COMPLEX(dt) ? dt : (GA_IS_FLOAT(dt) ? dt : GA_FLOAT64);
  if (dt == GA_FLOAT16 || dt == GA_FLOAT32) loop = GA_FLOAT64;   /* NumPy computes in float64 */
  if (ga_arange_fill(a, &o_start, &o_step, loop, lga_stream(S, GA_DEVICE(a)))) return lga_fail(L, fname);
  if (endpoint && num > 1) {   /* the last sample is exactly stop */
    ga_array *last = lga_new_view(L, -1);
    last->offset += (num - 1) * GA_ITEMSIZE(dt);
    last->ndim = 0;
    last->size = 1;
    ga_operand o = {GA_ARG_FLOAT, NULL, 0, stop};
    lga_run_fill(L, S, last, &o, fname);
    lua_pop(L, 1);
  }
  return 1;
}

/* The N x M matrix with ones on diagonal k (pushed); errors name fname. */
static int push_eye(lua_State *L, const char *fname, int64_t N, int64_t M, int64_t k, int dt) {
  if (N < 0 || M < 0) return lga_errorf(L, fname, "negative dimensions are not allowed");
  int64_t shape[2] = {N, M}, item = GA_ITEMSIZE(dt);
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_new_array(L, S, fname, target_device(L), dt, 2, shape);
  fill_int(L, a, 0, fname);
  /* M - k (k >= 0) and N + k (k < 0) cannot overflow */
  int64_t len = k >= 0 ? (M - k < N ? M - k : N) : (N + k < M ? N + k : M);
  if (len > 0) {
    /* the diagonal lies inside the N*M*item bytes that fit int64 */
    ga_array *d = lga_new_view(L, -1);
    d->offset = (k >= 0 ? k : -k * M) * item;
    d->ndim = 1;
    d->shape[0] = len;
    d->strides[0] = len > 1 ? (M + 1) * item : item;
    d->size = len;
    fill_int(L, d, 1, fname);
    lua_pop(L, 1);
  }
  return 1;
}

/* eye(N[, M[, k]][, dtype]) */
static int l_eye(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int top = lua_gettop(L), dt = GA_FLOAT64;
  if (top >= 2 && (lua_type(L, top) == LUA_TSTRING || (lua_type(L, top) == LUA_TTABLE && !lga_toarray(L, top))))
    dt = dtype_arg(L, top--, fname, dt);
  if (top > 3) return lga_errorf(L, fname, "expects (N[, M[, k]][, dtype])");
  int64_t N = int_arg(L, 1, fname, "N");
  int64_t M = top >= 2 && !lua_isnil(L, 2) ? int_arg(L, 2, fname, "M") : N;
  int64_t k = top >= 3 && !lua_isnil(L, 3) ? int_arg(L, 3, fname, "k") : 0;
  return push_eye(L, fname, N, M, k, dt);
}

/* identity(n[, dtype]) */
static int l_identity(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  if (lua_gettop(L) > 2) return lga_errorf(L, fname, "expects (n[, dtype])");
  int64_t n = int_arg(L, 1, fname, "n");
  return push_eye(L, fname, n, n, 0, dtype_arg(L, 2, fname, GA_FLOAT64));
}

/* array(obj[, dtype]) and asarray(obj[, dtype]), the dtype also as
 * {dtype=, copy=} with NumPy 2's copy: true always copies (array's
 * default), nil copies only if needed (asarray's), false never copies and
 * is an error when a copy is needed. */
static const char *const array_opts[] = {"dtype", "copy", NULL};

static int array_or_asarray(lua_State *L, int copy) {
  const char *fname = LGA_FNAME(L);
  int dt = -1;
  if (lua_type(L, 2) == LUA_TTABLE && !lga_toarray(L, 2)) {
    lga_check_options(L, 2, fname, array_opts);
    lua_getfield(L, 2, "dtype");
    dt = lga_opt_dtype(L, -1, fname, -1);
    if (lua_getfield(L, 2, "copy") != LUA_TNIL) {
      if (!lua_isboolean(L, -1)) return lga_errorf(L, fname, "copy must be true, false or nil");
      copy = lua_toboolean(L, -1);
    }
    lua_pop(L, 2);
  } else {
    dt = lga_opt_dtype(L, 2, fname, -1);
  }
  int dev = target_device(L);
  if (copy == 0) {   /* copy=false: only the same array will do */
    ga_array *a = lga_toarray(L, 1);
    if (!a) return lga_errorf(L, fname, "copy=false, but making an array of a %s copies", luaL_typename(L, 1));
    if (!a->buf) return lga_errorf(L, fname, "array has been freed");
    if (GA_DEVICE(a) != dev || (dt >= 0 && dt != a->dtype))
      return lga_errorf(L, fname, "copy=false, but a copy is needed (%s)",
                        GA_DEVICE(a) != dev ? "another device" : "another dtype");
    lua_settop(L, 1);
    return 1;
  }
  lga_from_value(L, LGA_STATE(L), 1, dev, dt, copy == 1, fname);
  return 1;
}
static int l_array(lua_State *L) { return array_or_asarray(L, 1); }
static int l_asarray(lua_State *L) { return array_or_asarray(L, -1); }
static int l_ascontiguousarray(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int dt = dtype_arg(L, 2, fname, -1);
  if (!lga_toarray(L, 1)) {
    lga_from_value(L, LGA_STATE(L), 1, target_device(L), dt, 1, fname);
    return 1;
  }
  ga_array *a = lga_check(L, 1, fname);
  int dev = like_device(L, a);
  if (dev == GA_DEVICE(a) && ga_is_c_contiguous(a) && (dt < 0 || dt == a->dtype)) {
    lua_settop(L, 1);
    return 1;
  }
  lga_to_device(L, LGA_STATE(L), 1, dev, dt, 1, fname);
  return 1;
}
static int l_copy(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = lga_check(L, 1, fname);
  int dev = like_device(L, a);
  lga_to_device(L, LGA_STATE(L), 1, dev, -1, 1, fname);
  return 1;
}
/* asnumpy(x): a host copy (CuPy's name) */
static int l_asnumpy(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  if (!lga_toarray(L, 1)) {
    lga_from_value(L, LGA_STATE(L), 1, GA_CPU, -1, 1, fname);
    return 1;
  }
  lga_check(L, 1, fname);
  lga_to_device(L, LGA_STATE(L), 1, GA_CPU, -1, 1, fname);
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
  lga_setfuncs_host(L, create_fns, mod, mod, 0);
  lga_setfuncs_host(L, create_fns, mod, -1, 1);
  lua_setfield(L, mod, "host");
}
