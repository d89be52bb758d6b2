/* Item selection that needs no kernels of its own: diagonal (a view), diag
 * diagflat tril triu (copies built from views with ga_copy/ga_fill),
 * asfortranarray, and the methods x:fill(v) and x:view(dtype).
 *
 * Functions go to core._join / core._join_host (upvalue 2: true for
 * ga.host.X, which makes its results on the host), methods to
 * core._join_methods; lga_open_join calls lga_open_select. */
#include "binding/lga_core.h"
#include "core/ga_join.h"
#include <string.h>

void lga_open_select(lua_State *L);

/* The array argument at idx, or a new array from a Lua value (on the host
 * for ga.host.X, else on the current device); replaces idx on the stack. */
static ga_array *array_arg(lua_State *L, int idx, const char *fname) {
  ga_array *a = lga_toarray(L, idx);
  if (a) return lga_check(L, idx, fname);
  if (lua_isnoneornil(L, idx)) lga_errorf(L, fname, "bad argument #%d (an array expected, got no value)", idx);
  lga_state *S = LGA_STATE(L);
  a = lga_from_value(L, S, idx, LGA_HOST(L) ? GA_CPU : S->device, -1, 0, fname);
  lua_replace(L, idx);
  return a;
}

static int64_t opt_int(lua_State *L, int idx, const char *fname, const char *what, int64_t dflt) {
  if (lua_isnoneornil(L, idx)) return dflt;
  int ok;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok) lga_errorf(L, fname, "%s must be an integer, got %s", what, luaL_typename(L, idx));
  return v;
}

/* The diagonal (offset k) of axes ax1, ax2 (0-based, distinct) of a, as a
 * temporary view: the other axes in order, then the diagonal. */
static ga_array diag_of(const ga_array *a, int64_t k, int ax1, int ax2) {
  ga_array v = *a;
  int64_t n1 = a->shape[ax1], n2 = a->shape[ax2], len;
  if (k >= 0) len = n1 < n2 - k ? n1 : n2 - k;
  else len = n1 + k < n2 ? n1 + k : n2;
  if (len < 0) len = 0;
  if (len > 0) v.offset += k >= 0 ? k * a->strides[ax2] : -k * a->strides[ax1];
  int nd = 0;
  for (int i = 0; i < a->ndim; i++)
    if (i != ax1 && i != ax2) v.shape[nd] = a->shape[i], v.strides[nd++] = a->strides[i];
  v.shape[nd] = len;
  v.strides[nd++] = a->strides[ax1] + a->strides[ax2];
  v.ndim = nd;
  v.size = ga_shape_prod(nd, v.shape);
  return v;
}

/* diagonal(x, offset=0, axis1=1, axis2=2) */
static int l_diagonal(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = array_arg(L, 1, fname);
  int64_t k = opt_int(L, 2, fname, "offset", 0);
  int64_t a1 = opt_int(L, 3, fname, "axis1", 1), a2 = opt_int(L, 4, fname, "axis2", 2);
  if (a->ndim < 2) return lga_errorf(L, fname, "diag requires an array of at least two dimensions");
  int ax1 = 0, ax2 = 1;
  if (ga_axis(a1, a->ndim, &ax1) || ga_axis(a2, a->ndim, &ax2)) lga_fail(L, fname);
  if (ax1 == ax2) return lga_errorf(L, fname, "axis1 and axis2 cannot be the same");
  ga_array t = diag_of(a, k, ax1, ax2);
  ga_array *v = lga_new_view(L, 1);
  *v = t;   /* the view's buffer reference is the same buffer as t's */
  return 1;
}

static ga_array *zeros_nn(lua_State *L, const char *fname, const ga_array *like, int64_t n) {
  lga_state *S = LGA_STATE(L);
  int64_t shape[2] = {n, n};
  ga_array *z = lga_new_array(L, S, fname, GA_DEVICE(like), like->dtype, 2, shape);
  ga_operand zero = {GA_ARG_INT, NULL, 0, 0};
  lga_run_fill(L, S, z, &zero, fname);
  return z;
}

static void copy_into(lua_State *L, const char *fname, ga_array *dst, const ga_array *src) {
  if (dst->size) lga_run_copy(L, LGA_STATE(L), dst, src, fname);
}

/* diag(v, k=0): 1-D -> a 2-D array with v on diagonal k; 2-D -> a copy of
 * diagonal k. */
static int l_diag(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = array_arg(L, 1, fname);
  int64_t k = opt_int(L, 2, fname, "k", 0);
  if (a->ndim == 1) {
    int64_t n = a->shape[0] + (k < 0 ? -k : k);
    ga_array *z = zeros_nn(L, fname, a, n);
    ga_array d = diag_of(z, k, 0, 1);
    copy_into(L, fname, &d, a);
    return 1;
  }
  if (a->ndim != 2) return lga_errorf(L, fname, "Input must be 1- or 2-d, got %d dimensions", a->ndim);
  ga_array d = diag_of(a, k, 0, 1);
  ga_array *r = lga_new_array(L, LGA_STATE(L), fname, GA_DEVICE(a), a->dtype, 1, d.shape);
  copy_into(L, fname, r, &d);
  return 1;
}

/* diagflat(v, k=0): v flattened (C order) on diagonal k of a new 2-D array */
static int l_diagflat(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = array_arg(L, 1, fname);
  int64_t k = opt_int(L, 2, fname, "k", 0);
  int64_t n = a->size + (k < 0 ? -k : k);
  ga_array *z = zeros_nn(L, fname, a, n);
  ga_array d = diag_of(z, k, 0, 1);
  /* the strided diagonal seen with a's shape: no flattened temporary */
  ga_array v = ga_tmp_unflatten(&d, a->ndim, a->shape);
  copy_into(L, fname, &v, a);
  return 1;
}

/* tril (lower = 1) / triu: a copy of x with the elements above (below)
 * diagonal k zeroed, over the last two axes; 1-D x is broadcast to (n, n)
 * as NumPy does.  One pass of the _tril/_triu op row (x broadcast up to
 * out's shape); for axes of 2^31 or more, which the row's packed counts
 * cannot hold, a copy then one ga_fill per row or column. */
static int tri(lua_State *L, const char *fname, int lower) {
  ga_array *a = array_arg(L, 1, fname);
  int64_t k = opt_int(L, 2, fname, "k", 0);
  if (a->ndim == 0) return lga_errorf(L, fname, "the input must have at least 1 dimension");
  lga_state *S = LGA_STATE(L);
  int64_t shape[GA_MAXDIM];
  int nd = a->ndim == 1 ? 2 : a->ndim;
  if (a->ndim == 1) shape[0] = shape[1] = a->shape[0];
  else memcpy(shape, a->shape, nd * sizeof(int64_t));
  ga_array *out = lga_new_array(L, S, fname, GA_DEVICE(a), a->dtype, nd, shape);
  if (!out->size) return 1;
  int64_t R = shape[nd - 2], C = shape[nd - 1];
  if (k > R + C) k = R + C;      /* beyond the array either way: keeps i + k from overflowing */
  if (k < -(R + C)) k = -(R + C);
  if (R < ((int64_t)1 << 31) && C < ((int64_t)1 << 31)) {
    ga_operand ins[3] = {{GA_ARG_ARRAY, a, 0, 0}, {GA_ARG_INT, NULL, C | (R << 32), 0}, {GA_ARG_INT, NULL, k, 0}};
    ga_ew_plan plan;
    if (ga_ew_prepare(&ga_ops[lower ? GA_OP_TRIL : GA_OP_TRIU], ins, -1, GA_CAST_SAME_KIND, &plan) ||
        ga_ew_check_out(&plan, 0, out, GA_CAST_SAME_KIND) ||
        ga_ew_run(&plan, ins, &out, lga_stream(S, GA_DEVICE(out))))
      return lga_fail(L, fname);
    return 1;
  }
  copy_into(L, fname, out, a);
  ga_operand zero = {GA_ARG_INT, NULL, 0, 0};
  int by_rows = R <= C;
  for (int64_t i = 0, m = by_rows ? R : C; i < m; i++) {
    /* the zeroed part of row i (or column i) is [lo, hi) of the other axis */
    int64_t lo, hi;
    if (by_rows) {
      if (lower) lo = i + k + 1, hi = C;     /* j > i + k */
      else lo = 0, hi = i + k;               /* j < i + k */
    } else {
      if (lower) lo = 0, hi = i - k;         /* row r < j - k */
      else lo = i - k + 1, hi = R;           /* row r > j - k */
    }
    int64_t lim = by_rows ? C : R;
    if (lo < 0) lo = 0;
    if (hi > lim) hi = lim;
    if (lo >= hi) continue;
    ga_array v = ga_tmp_slice(out, by_rows ? nd - 2 : nd - 1, i, 1);
    v = ga_tmp_slice(&v, by_rows ? nd - 1 : nd - 2, lo, hi - lo);
    lga_run_fill(L, S, &v, &zero, fname);
  }
  return 1;
}
static int l_tril(lua_State *L) { return tri(L, LGA_FNAME(L), 1); }
static int l_triu(lua_State *L) { return tri(L, LGA_FNAME(L), 0); }

/* asfortranarray(a, dtype?): a itself when already F-contiguous with that
 * dtype (and on the target device), else an F-ordered copy. */
static int l_asfortranarray(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  static const char *const dtype_only[] = {"dtype", NULL};
  lga_state *S = LGA_STATE(L);
  int dt;
  if (lua_istable(L, 2) && !lga_toarray(L, 2)) {
    lga_check_options(L, 2, fname, dtype_only);
    lua_getfield(L, 2, "dtype");
    dt = lga_opt_dtype(L, -1, fname, -1);
    lua_pop(L, 1);
  } else {
    dt = lga_opt_dtype(L, 2, fname, -1);
  }
  ga_array *a = lga_toarray(L, 1);
  if (!a) {
    if (lua_isnoneornil(L, 1)) return lga_errorf(L, fname, "bad argument #1 (an array expected, got no value)");
    a = lga_from_value(L, S, 1, LGA_HOST(L) ? GA_CPU : S->device, dt, 0, fname);
    lua_replace(L, 1);
  }
  a = lga_check(L, 1, fname);
  int dev = LGA_HOST(L) ? GA_CPU : GA_DEVICE(a);
  if (dt < 0) dt = a->dtype;
  if (dev == GA_DEVICE(a) && dt == a->dtype && ga_is_f_contiguous(a)) {
    lua_settop(L, 1);
    return 1;
  }
  if (dev != GA_DEVICE(a)) {   /* move first, then reorder on the target */
    a = lga_to_device(L, S, 1, dev, -1, 0, fname);
    lua_replace(L, 1);
  }
  int64_t rev[GA_MAXDIM];
  for (int i = 0; i < a->ndim; i++) rev[i] = a->shape[a->ndim - 1 - i];
  /* a C-ordered block of the reversed shape, its axes reversed, is F-ordered */
  ga_array *f = lga_new_array(L, S, fname, dev, dt, a->ndim, rev);
  for (int i = 0, j = a->ndim - 1; i < j; i++, j--) {
    int64_t t = f->shape[i]; f->shape[i] = f->shape[j]; f->shape[j] = t;
    t = f->strides[i]; f->strides[i] = f->strides[j]; f->strides[j] = t;
  }
  copy_into(L, fname, f, a);
  return 1;
}

/* x:fill(v): every element = v (a number, a boolean or a size-1 array),
 * cast to x's dtype; returns x. */
static int m_fill(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  ga_array *x = lga_check(L, 1, fname);
  ga_operand v = {GA_ARG_INT, NULL, 0, 0};
  switch (lua_type(L, 2)) {
  case LUA_TBOOLEAN: v.kind = GA_ARG_BOOL; v.i = lua_toboolean(L, 2); break;
  case LUA_TNUMBER:
    if (lua_isinteger(L, 2)) {
      v.i = lua_tointeger(L, 2);
    } else {
      v.kind = GA_ARG_FLOAT, v.f = lua_tonumber(L, 2);
    }
    lga_check_fits(L, &v, x->dtype, fname);   /* NumPy 2 refuses: never a wrap or C's undefined cast */
    break;
  default: {
    ga_array *s = lga_toarray(L, 2);
    if (!s) return lga_errorf(L, fname, "the value must be a number, a boolean or a size-1 array, got %s",
                              luaL_typename(L, 2));
    s = lga_check(L, 2, fname);
    if (s->size != 1) return lga_errorf(L, fname, "the value must be a size-1 array, got %lld elements",
                                        (long long)s->size);
    if (GA_DEVICE(s) != GA_DEVICE(x)) s = lga_to_device(L, S, 2, GA_DEVICE(x), -1, 0, fname);
    ga_array one = *s;
    one.ndim = 0;   /* broadcasts to any shape */
    copy_into(L, fname, x, &one);
    lua_settop(L, 1);
    return 1;
  }
  }
  if (x->size) lga_run_fill(L, S, x, &v, fname);
  lua_settop(L, 1);
  return 1;
}

/* x:view(dtype?): the same bytes seen as dtype (NumPy's rules when the
 * itemsize differs: the last axis must be contiguous and is rescaled). */
static int m_view(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *x = lga_check(L, 1, fname);
  int dt = lga_opt_dtype(L, 2, fname, x->dtype);
  int64_t os = GA_ITEMSIZE(x->dtype), ns = GA_ITEMSIZE(dt);
  ga_array t = *x;
  t.dtype = dt;
  if (os != ns) {
    int last = x->ndim - 1;
    if (x->ndim == 0)
      return lga_errorf(L, fname, "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
    if (x->shape[last] != 1 && x->size != 0 && x->strides[last] != os)
      return lga_errorf(L, fname, "To change to a dtype of a different size, the last axis must be contiguous");
    int64_t bytes = x->shape[last] * os;
    if (bytes % ns)
      return lga_errorf(L, fname, "When changing to a larger dtype, its size must be a divisor of the total size in "
                        "bytes of the last axis of the array (%lld bytes, %s is %lld)",
                        (long long)bytes, ga_dtypes[dt].name, (long long)ns);
    t.shape[last] = bytes / ns;
    t.strides[last] = ns;
    t.size = ga_shape_prod(t.ndim, t.shape);
  }
  /* the kernels load whole elements: every element must be aligned */
  int misaligned = t.offset % ns != 0;
  for (int i = 0; i < t.ndim; i++)
    if (t.shape[i] > 1 && t.strides[i] % ns) misaligned = 1;
  if (misaligned && t.size)
    return lga_errorf(L, fname, "the view as %s would not be aligned to its itemsize %lld (offset or strides)",
                      ga_dtypes[dt].name, (long long)ns);
  ga_array *v = lga_new_view(L, 1);
  *v = t;
  return 1;
}

static const luaL_Reg select_fns[] = {
  {"diagonal", l_diagonal}, {"diag", l_diag}, {"diagflat", l_diagflat}, {"tril", l_tril}, {"triu", l_triu},
  {"asfortranarray", l_asfortranarray}, {NULL, NULL}};

static const luaL_Reg select_methods[] = {
  {"diagonal", l_diagonal}, {"fill", m_fill}, {"view", m_view}, {NULL, NULL}};

/* Called by lga_open_join with the module table on top, after core._join
 * and core._join_host exist. */
void lga_open_select(lua_State *L) {
  int mod = lua_gettop(L);
  for (int host = 0; host <= 1; host++) {
    lua_getfield(L, mod, host ? "_join_host" : "_join");
    lga_setfuncs_host(L, select_fns, mod, -1, host);
    lua_pop(L, 1);
  }
  lua_newtable(L);
  lga_setfuncs_host(L, select_methods, mod, -1, 0);
  lua_setfield(L, mod, "_join_methods");
  lua_settop(L, mod);
}
