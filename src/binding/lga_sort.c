/* ga.sort, ga.argsort, x:sort (in place), x:argsort and ga.searchsorted
 * (ga_sort.h).  lexsort, partition, argpartition and unique are composed
 * in lua/gpuarray/sort.lua.
 *
 * A sort along an axis: the axis is moved last (a view); when that view is
 * not C-contiguous it is copied into a temporary; the backend sorts its
 * rows into another C-contiguous block, which becomes the result (axis
 * last) or is copied into the result's layout.  Temporaries are freed at
 * once, not left to the GC.
 *
 * Functions go to core._sort / core._sort_host (upvalue 2: true for
 * ga.host.X, whose Lua-table arguments become host arrays), methods to
 * core._sort_methods. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_join.h"
#include "core/ga_sort.h"
#include <stdlib.h>
#include <string.h>

enum { M_SORT, M_ARGSORT, M_INPLACE };

/* The array argument at idx, or a new array from a Lua value (on the host
 * for ga.host.X, else on the current device); replaces idx on the stack. */
static ga_array *array_arg(lua_State *L, int idx, const char *fname) {
  ga_array *a = lga_toarray(L, idx);
  if (a) return lga_check(L, idx, fname);
  int t = lua_type(L, idx);
  if (t != LUA_TTABLE && t != LUA_TNUMBER && t != LUA_TBOOLEAN)
    lga_errorf(L, fname, "bad argument #%d (an array expected, got %s)", idx, luaL_typename(L, idx));
  lga_state *S = LGA_STATE(L);
  a = lga_from_value(L, S, idx, LGA_HOST(L) ? GA_CPU : S->device, -1, 0, fname);
  lua_replace(L, idx);
  return a;
}

/* A temporary array (pushed, released by drop). */
static ga_array *tmp_array(lua_State *L, const char *fname, int dev, int dt, int nd, const int64_t *shape) {
  return lga_new_array(L, LGA_STATE(L), fname, dev, dt, nd, shape);
}
static void drop(ga_array *t) {
  if (t && t->buf) ga_array_release(t);
}

static void copy(lua_State *L, const char *fname, ga_array *dst, const ga_array *src) {
  if (dst->size) lga_run_copy(L, LGA_STATE(L), dst, src, fname);
}

/* The axis argument at idx: nil -> -1, false -> flatten (returns 0, *flat
 * set), an integer, or a table {axis=, kind=} (kind is accepted and
 * ignored: every sort here is stable). */
static int64_t axis_arg(lua_State *L, int idx, const char *fname, int *flat) {
  *flat = 0;
  if (lua_istable(L, idx) && !lga_toarray(L, idx)) {
    static const char *const allowed[] = {"axis", "kind", NULL};
    lga_check_options(L, idx, fname, allowed);
    lua_getfield(L, idx, "kind");
    if (!lua_isnil(L, -1)) {
      const char *k = lua_tostring(L, -1);
      if (lua_type(L, -1) != LUA_TSTRING || (strcmp(k, "quicksort") && strcmp(k, "mergesort") &&
                                              strcmp(k, "heapsort") && strcmp(k, "stable")))
        lga_errorf(L, fname, "kind must be 'quicksort', 'mergesort', 'heapsort' or 'stable', got %s",
                   lua_type(L, -1) == LUA_TSTRING ? k : luaL_typename(L, -1));
    }
    lua_getfield(L, idx, "axis");
    lua_replace(L, idx);
    lua_pop(L, 1);
  }
  if (lua_isnoneornil(L, idx)) return -1;
  if (lua_type(L, idx) == LUA_TBOOLEAN && !lua_toboolean(L, idx)) {
    *flat = 1;
    return 0;
  }
  int ok;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok || lua_type(L, idx) != LUA_TNUMBER)
    lga_errorf(L, fname, "axis must be an integer or false (flatten), got %s", luaL_typename(L, idx));
  return v;
}

/* x (stack 1) sorted along the axis at stack 2; pushes the result
 * (M_SORT: the values, M_ARGSORT: int64 1-based positions, M_INPLACE: x). */
static int do_sort(lua_State *L, const char *fname, int mode) {
  ga_array *x = mode == M_INPLACE ? lga_check(L, 1, fname) : array_arg(L, 1, fname);
  int flat;
  int64_t axis = axis_arg(L, 2, fname, &flat);
  lua_settop(L, 1);
  lga_state *S = LGA_STATE(L);
  int dev = GA_DEVICE(x), dt = x->dtype, isz = GA_ITEMSIZE(dt);
  if (mode == M_INPLACE) lga_check_current(L, S, x, fname);
  if (mode == M_INPLACE && ga_check_writable(x)) return lga_fail(L, fname);
  ga_array xv = *x, *t = NULL;   /* xv: x with the sorted axis last */
  int ax = 0, nd;
  if (flat) {
    if (mode == M_INPLACE)
      return lga_errorf(L, fname, "x:sort sorts along one axis; axis false (flatten) is for ga.sort");
    if (!ga_is_c_contiguous(x)) {
      t = tmp_array(L, fname, dev, dt, x->ndim, x->shape);
      copy(L, fname, t, x);
      xv = *t;
    }
    xv.ndim = 1;
    xv.shape[0] = x->size;
    xv.strides[0] = isz;
    nd = 1;
  } else {
    int rc = ga_axis(axis, x->ndim, &ax);
    if (rc) return lga_fail(L, fname);
    nd = x->ndim;
    for (int i = ax; i + 1 < nd; i++) xv.shape[i] = x->shape[i + 1], xv.strides[i] = x->strides[i + 1];
    xv.shape[nd - 1] = x->shape[ax];
    xv.strides[nd - 1] = x->strides[ax];
  }
  int last = flat || ax == nd - 1;
  int64_t n = xv.shape[nd - 1], size = xv.size;
  /* src: xv itself when C-contiguous (never for in place: src != dst) */
  ga_array *ts = NULL;
  const char *src = GA_DATA(&xv);
  if (size && (mode == M_INPLACE || !ga_is_c_contiguous(&xv))) {
    ts = tmp_array(L, fname, dev, dt, nd, xv.shape);
    copy(L, fname, ts, &xv);
    src = GA_DATA(ts);
  }
  ga_sort_call c = {dev, lga_stream(S, dev), dt, n ? size / n : 0, n, src, NULL, NULL};
  /* the result in x's shape; what the backend writes, in xv's shape */
  int rdt = mode == M_ARGSORT ? GA_INT64 : dt;
  ga_array *res = NULL, *tr = NULL;
  int res_idx = 1;   /* x itself for in place */
  if (mode != M_INPLACE) {
    res = flat ? lga_new_array(L, S, fname, dev, rdt, 1, xv.shape) : lga_new_array(L, S, fname, dev, rdt, nd, x->shape);
    res_idx = lua_gettop(L);
  }
  ga_array *out = NULL;   /* backend output of the result's kind */
  if (mode == M_INPLACE) out = ga_is_c_contiguous(&xv) ? &xv : (tr = tmp_array(L, fname, dev, dt, nd, xv.shape));
  else out = last ? res : (tr = tmp_array(L, fname, dev, rdt, nd, xv.shape));
  if (mode == M_ARGSORT) {   /* the positions only (ga_sort_call: dst NULL) */
    c.idx = (int64_t *)GA_DATA(out);
  } else {
    c.dst = GA_DATA(out);
  }
  if (size && ga_sort_rows(&c)) {
    drop(t), drop(ts), drop(tr);
    return lga_fail(L, fname);
  }
  drop(ts);
  if (tr) {   /* tr (axis last) back into the layout of x / the result */
    ga_array back = *tr, *dst = mode == M_INPLACE ? x : res;
    back.shape[ax] = tr->shape[nd - 1];
    back.strides[ax] = tr->strides[nd - 1];
    for (int i = ax + 1; i < nd; i++) back.shape[i] = tr->shape[i - 1], back.strides[i] = tr->strides[i - 1];
    copy(L, fname, dst, &back);
    drop(tr);
  }
  drop(t);
  lua_pushvalue(L, res_idx);
  return 1;
}

static int l_sort(lua_State *L) { return do_sort(L, LGA_FNAME(L), M_SORT); }
static int l_argsort(lua_State *L) { return do_sort(L, LGA_FNAME(L), M_ARGSORT); }
static int m_sort(lua_State *L) { return do_sort(L, LGA_FNAME(L), M_INPLACE); }

/* The dtype a and a Lua number or boolean v are compared in.  NumPy's
 * searchsorted converts v as np.asarray would (not as a weak scalar), then
 * promotes it with a's dtype: a Lua float is float64 (0.1 against a
 * float32 array compares in float64), an integer int64, a boolean bool.
 * An integer that fits an integer a keeps a's dtype: the same answer
 * without casting a. */
static int value_dtype(lua_State *L, int idx, int adt) {
  if (lua_type(L, idx) == LUA_TBOOLEAN) return ga_promote(adt, GA_BOOL);
  if (lua_isinteger(L, idx)) {
    if (GA_IS_INT(adt) && ga_int_fits(adt, lua_tointeger(L, idx))) return adt;
    return ga_promote(adt, GA_INT64);
  }
  return ga_promote(adt, GA_FLOAT64);
}

/* searchsorted(a, v, side): a 1-D and sorted; v an array, a number, a
 * boolean or a table; side "left" (default) or "right". */
static int l_searchsorted(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lua_settop(L, 3);
  ga_array *a = array_arg(L, 1, fname);
  if (a->ndim != 1) return lga_errorf(L, fname, "a must be 1-D, got an array of %d dimensions", a->ndim);
  int right = 0;
  if (!lua_isnil(L, 3)) {
    const char *s = lua_type(L, 3) == LUA_TSTRING ? lua_tostring(L, 3) : NULL;
    if (!s) return lga_errorf(L, fname, "side must be 'left' or 'right', got %s", luaL_typename(L, 3));
    if (!strcmp(s, "right")) right = 1;
    else if (strcmp(s, "left")) return lga_errorf(L, fname, "side must be 'left' or 'right', got '%s'", s);
  }
  lga_state *S = LGA_STATE(L);
  int dev = GA_DEVICE(a), dt;
  ga_array *v = lga_toarray(L, 2);
  if (v) {
    v = lga_check(L, 2, fname);
    if (GA_DEVICE(v) != dev) {
      char b1[32], b2[32];
      return lga_errorf(L, fname, "a and v are on different devices (%s and %s); move one with ga.asarray(x) or "
                        "x:get()", ga_device_name(dev, b1), ga_device_name(GA_DEVICE(v), b2));
    }
    dt = ga_promote(a->dtype, v->dtype);
  } else {
    int t = lua_type(L, 2);
    if (t != LUA_TNUMBER && t != LUA_TBOOLEAN && t != LUA_TTABLE)
      return lga_errorf(L, fname, "bad argument #2 (an array, a number or a table expected, got %s)",
                        luaL_typename(L, 2));
    dt = t == LUA_TTABLE ? -1 : value_dtype(L, 2, a->dtype);
    v = lga_from_value(L, S, 2, dev, dt, 0, fname);
    lua_replace(L, 2);
    if (dt < 0) dt = ga_promote(a->dtype, v->dtype);
  }
  ga_array *ta = NULL, *tv = NULL;
  if (a->dtype != dt || !ga_is_c_contiguous(a)) {
    ta = tmp_array(L, fname, dev, dt, 1, a->shape);
    copy(L, fname, ta, a);
    a = ta;
  }
  if (v->dtype != dt || !ga_is_c_contiguous(v)) {
    tv = tmp_array(L, fname, dev, dt, v->ndim, v->shape);
    copy(L, fname, tv, v);
    v = tv;
  }
  ga_array *out = lga_new_array(L, S, fname, dev, GA_INT64, v->ndim, v->shape);
  ga_search_call c = {dev, lga_stream(S, dev), dt, GA_DATA(a), a->shape[0], GA_DATA(v), v->size,
                      (int64_t *)GA_DATA(out), right};
  int rc = ga_searchsorted(&c);
  drop(ta), drop(tv);
  if (rc) return lga_fail(L, fname);
  return 1;
}


static const luaL_Reg sort_fns[] = {
  {"sort", l_sort}, {"argsort", l_argsort}, {"searchsorted", l_searchsorted}, {NULL, NULL}};
static const luaL_Reg sort_methods[] = {{"sort", m_sort}, {"argsort", l_argsort}, {NULL, NULL}};

void lga_open_sort(lua_State *L) {
  int mod = lua_gettop(L);
  for (int host = 0; host <= 1; host++) {
    lua_newtable(L);
    lga_setfuncs_host(L, sort_fns, mod, -1, host);
    lua_setfield(L, mod, host ? "_sort_host" : "_sort");
  }
  lua_newtable(L);
  lga_setfuncs_host(L, sort_methods, mod, -1, 0);
  lua_setfield(L, mod, "_sort_methods");
  lua_settop(L, mod);
}
