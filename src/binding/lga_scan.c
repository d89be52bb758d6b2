/* Scans (cumsum cumprod nancumsum nancumprod) and nonzero selection
 * (nonzero argwhere flatnonzero): argument checks, 1-based axes, the
 * result's allocation; the work is ga_scan.c's.  Functions go to
 * core._scan and core._scan_host (upvalue 2: true for ga.host.X, whose
 * Lua-value arguments become host arrays).  Spec hooks for the NVRTC
 * compile rows: core.scan_source, core.compile_scan, core.nonzero_source,
 * core.compile_nonzero. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_scan.h"
#include "base/ga_shape.h"
#include <stdlib.h>
#include <string.h>

/* The array argument at idx, or a new array from a Lua value (on the host
 * for ga.host.X, else on the current device); replaces idx on the stack. */
static ga_array *array_arg(lua_State *L, int idx, const char *fname) {
  ga_array *a = lga_toarray(L, idx);
  if (a) return lga_check(L, idx, fname);
  if (lua_isnoneornil(L, idx)) lga_errorf(L, fname, "bad argument #%d (an array expected, got no value)", idx);
  if (!lua_istable(L, idx) && !lua_isnumber(L, idx) && !lua_isboolean(L, idx))
    lga_errorf(L, fname, "bad argument #%d (an array expected, got %s)", idx, luaL_typename(L, idx));
  lga_state *S = LGA_STATE(L);
  a = lga_from_value(L, S, idx, LGA_HOST(L) ? GA_CPU : S->device, -1, 0, fname);
  lua_replace(L, idx);
  return a;
}

static int64_t read_axis(lua_State *L, int idx, const char *fname) {
  int ok;
  lua_Integer a = lua_tointegerx(L, idx, &ok);
  if (!ok) lga_errorf(L, fname, "axis must be an integer or nil, got %s", luaL_typename(L, idx));
  return a;
}

/* f(x, axis, opts) / f(x, opts): opts {axis=, dtype=, out=}.  The scan of
 * x along axis (1-based; nil: x flattened). */
static int do_scan(lua_State *L, const char *fname, int red_id) {
  static const char *const allowed[] = {"axis", "dtype", "out", NULL};
  const ga_red_op *op = &ga_red_ops[red_id];
  lga_state *S = LGA_STATE(L);
  int top = lua_gettop(L);
  if (top > 3) lga_errorf(L, fname, "too many arguments (%d)", top);
  lua_settop(L, 3);
  ga_array *x = array_arg(L, 1, fname);
  bool has_axis = false;
  int64_t axis1 = 0;
  int opts = 0;
  if (lua_istable(L, 2) && !lga_toarray(L, 2)) {
    if (!lua_isnil(L, 3)) lga_errorf(L, fname, "too many arguments (an options table, then %s)", luaL_typename(L, 3));
    opts = 2;
  } else {
    if (!lua_isnil(L, 2)) has_axis = true, axis1 = read_axis(L, 2, fname);
    if (!lua_isnil(L, 3)) {
      if (!lua_istable(L, 3) || lga_toarray(L, 3))
        lga_errorf(L, fname, "bad argument #3 (an options table expected, got %s)", luaL_typename(L, 3));
      opts = 3;
    }
  }
  int dtype_req = -1, out_idx = 0;
  if (opts) {
    lga_check_options(L, opts, fname, allowed);
    if (lua_getfield(L, opts, "axis") != LUA_TNIL) {
      if (has_axis) lga_errorf(L, fname, "axis given twice (as an argument and in the options)");
      has_axis = true, axis1 = read_axis(L, -1, fname);
    }
    if (lua_getfield(L, opts, "dtype") != LUA_TNIL) dtype_req = lga_opt_dtype(L, -1, fname, -1);
    lua_pop(L, 2);
    if (lua_getfield(L, opts, "out") != LUA_TNIL) {
      if (!lga_toarray(L, -1)) lga_errorf(L, fname, "out must be an array, got %s", luaL_typename(L, -1));
      lga_check(L, -1, fname);
      out_idx = lua_gettop(L);
    } else {
      lua_pop(L, 1);
    }
  }
  lga_check_current(L, S, x, fname);
  int axis = -1;
  if (has_axis && ga_axis(axis1, x->ndim, &axis)) lga_fail(L, fname);
  int T, acc, odt;
  if (ga_scan_dtypes(op, x->dtype, dtype_req, &T, &acc, &odt)) lga_fail(L, fname);
  int rnd = axis < 0 ? 1 : x->ndim;
  int64_t rshape[GA_MAXDIM];
  if (axis < 0) rshape[0] = x->size;
  else memcpy(rshape, x->shape, sizeof(int64_t) * x->ndim);
  ga_array *out;
  char b1[GA_MAXDIM * 24], b2[GA_MAXDIM * 24];
  if (out_idx) {
    out = lga_toarray(L, out_idx);
    if (GA_DEVICE(out) != GA_DEVICE(x))
      lga_errorf(L, fname, "out is on %s but the input is on %s (move one with ga.asarray or x:get())",
                 ga_device_name(GA_DEVICE(out), b1), ga_device_name(GA_DEVICE(x), b2));
    if (out->ndim != rnd || memcmp(out->shape, rshape, sizeof(int64_t) * rnd))
      lga_errorf(L, fname, "out has shape %s but the result has shape %s", ga_shape_str(out->ndim, out->shape, b1, sizeof b1),
                 ga_shape_str(rnd, rshape, b2, sizeof b2));
    lua_pushvalue(L, out_idx);
  } else {
    out = lga_new_array(L, S, fname, GA_DEVICE(x), odt, rnd, rshape);
  }
  if (ga_scan_run(op, x, axis, dtype_req, out, lga_stream(S, GA_DEVICE(x)))) lga_fail(L, fname);
  return 1;
}

static int l_cumsum(lua_State *L) { return do_scan(L, "cumsum", GA_RED_SUM); }
static int l_cumprod(lua_State *L) { return do_scan(L, "cumprod", GA_RED_PROD); }
static int l_nancumsum(lua_State *L) { return do_scan(L, "nancumsum", GA_RED_NANSUM); }
static int l_nancumprod(lua_State *L) { return do_scan(L, "nancumprod", GA_RED_NANPROD); }

/* Pushes the int64 positions of x's true elements (see ga_nonzero_run). */
static ga_array *positions(lua_State *L, const char *fname, bool flat, bool transposed, ga_array **xp) {
  lga_state *S = LGA_STATE(L);
  if (lua_gettop(L) > 1) lga_errorf(L, fname, "takes one array (got %d arguments)", lua_gettop(L));
  ga_array *x = array_arg(L, 1, fname);
  lga_check_current(L, S, x, fname);
  *xp = x;
  /* a small array to hold the result: the Lua error paths then leak nothing */
  int64_t zero = 0;
  ga_array *r = lga_new_array(L, S, fname, GA_DEVICE(x), GA_INT64, 1, &zero);
  ga_array res;
  if (ga_nonzero_run(x, flat, transposed, lga_stream(S, GA_DEVICE(x)), &res)) lga_fail(L, fname);
  ga_array_release(r);
  *r = res;
  return r;
}

/* Row k (0-based) of the (rows, count) array at idx, as a 1-D view. */
static void push_row(lua_State *L, int idx, const ga_array *r, int k) {
  ga_array *v = lga_new_view(L, idx);
  int64_t shape[1] = {r->shape[1]}, strides[1] = {8};
  v->offset = r->offset + (int64_t)k * r->strides[0];
  ga_array_set_geometry(v, 1, shape, strides);
}

static int l_nonzero(lua_State *L) {
  ga_array *x;
  if (lga_toarray(L, 1) && lga_toarray(L, 1)->ndim == 0)
    lga_errorf(L, "nonzero", "calling nonzero on 0-d arrays is not allowed; use x:reshape(1):nonzero() instead");
  ga_array *r = positions(L, "nonzero", false, true, &x);
  int ri = lua_gettop(L);
  lua_createtable(L, x->ndim, 0);
  for (int k = 0; k < x->ndim; k++) {
    push_row(L, ri, r, k);
    lua_rawseti(L, -2, k + 1);
  }
  return 1;
}

static int l_argwhere(lua_State *L) {
  ga_array *x;
  positions(L, "argwhere", false, false, &x);
  return 1;
}

static int l_flatnonzero(lua_State *L) {
  ga_array *x;
  ga_array *r = positions(L, "flatnonzero", true, true, &x);
  push_row(L, lua_gettop(L), r, 0);
  return 1;
}

static const luaL_Reg scan_fns[] = {
  {"cumsum", l_cumsum}, {"cumprod", l_cumprod}, {"nancumsum", l_nancumsum}, {"nancumprod", l_nancumprod},
  {"nonzero", l_nonzero}, {"argwhere", l_argwhere}, {"flatnonzero", l_flatnonzero}, {NULL, NULL}};


/* core.scan_ops() -> the names of the rows flagged GA_REDF_SCAN */
static int l_scan_ops(lua_State *L) {
  lua_newtable(L);
  int n = 0;
  for (int i = 0; i < GA_NREDS; i++)
    if (ga_red_ops[i].flags & GA_REDF_SCAN) {
      lua_pushstring(L, ga_red_ops[i].name);
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}

void lga_open_scan(lua_State *L) {
  int mod = lua_gettop(L);
  for (int host = 0; host <= 1; host++) {
    lua_newtable(L);
    lga_setfuncs_host(L, scan_fns, mod, -1, host);
    lua_setfield(L, mod, host ? "_scan_host" : "_scan");
  }
  static const luaL_Reg hooks[] = {
    {"scan_ops", l_scan_ops},  {NULL, NULL}};
  lga_setfuncs(L, hooks, mod);
  lua_settop(L, mod);
}
