/* Shape manipulation: reshape ravel flatten transpose swapaxes rollaxis
 * moveaxis squeeze expand_dims broadcast_to broadcast_arrays atleast_Nd
 * flip fliplr flipud (views: lga_new_view + ga_shape.c geometry) and roll
 * repeat tile (copies through ga_copy from strided/broadcast views of the
 * input into views of a new array).  Every function is registered twice,
 * as core.X and core.host.X (upvalue 2: host), which matters only for
 * inputs that are not arrays yet (nested tables, numbers). */
#include "binding/lga_core.h"
#include "base/ga_shape.h"
#include "base/ga_checked.h"
#include <math.h>
#include <string.h>

/* An array argument: an ndarray, or anything ga.asarray takes (made on the
 * host for ga.host.X, else on the current device) put in its place. */
static ga_array *arg_array(lua_State *L, int idx, const char *fname) {
  if (lga_toarray(L, idx)) return lga_check(L, idx, fname);
  if (lua_isnoneornil(L, idx))
    return (ga_array *)(intptr_t)lga_errorf(L, fname, "bad argument #%d (array expected, got %s)", idx,
                                            luaL_typename(L, idx));
  lga_state *S = LGA_STATE(L);
  lga_from_value(L, S, idx, LGA_HOST(L) ? GA_CPU : S->device, -1, 0, fname);
  lua_replace(L, idx);
  return lga_toarray(L, idx);
}

/* Integers that count copies: repeat's repeats, tile's reps. */
static bool counts_what(const char *what) { return !strcmp(what, "repeats") || !strcmp(what, "reps"); }

static int64_t get_int(lua_State *L, int idx, const char *fname, const char *what) {
  lua_Integer v;
  if (lua_isinteger(L, idx)) return lua_tointeger(L, idx);
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number f = lua_tonumber(L, idx);
    if (lua_numbertointeger(f, &v) && (lua_Number)v == f) return v;
    /* a whole count past int64 (2^63, 1e300): the result is too big */
    if (counts_what(what) && f >= 0x1p63 && f < HUGE_VAL) return lga_errorf(L, fname, "%s", GA_TOO_BIG);
  }
  return lga_errorf(L, fname, "%s must be an integer, got %s", what,
                    lua_type(L, idx) == LUA_TNUMBER ? lua_tostring(L, idx) : luaL_typename(L, idx));
}

static bool is_plain_table(lua_State *L, int idx) {
  return lua_type(L, idx) == LUA_TTABLE && !lga_toarray(L, idx);
}

/* Integers from an integer or a table of integers at idx; returns the count. */
static int get_ints(lua_State *L, int idx, const char *fname, const char *what, int64_t *out) {
  if (!is_plain_table(L, idx)) {
    if (lua_type(L, idx) != LUA_TNUMBER)
      return lga_errorf(L, fname, "%s must be an integer or a table of integers, got %s", what,
                        luaL_typename(L, idx));
    out[0] = get_int(L, idx, fname, what);
    return 1;
  }
  lua_Unsigned len = lua_rawlen(L, idx);
  if (len > GA_MAXDIM)
    return lga_errorf(L, fname, "too many entries in %s (%llu, at most %d)", what, (unsigned long long)len, GA_MAXDIM);
  int n = (int)len;
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, idx, i + 1);
    out[i] = get_int(L, -1, fname, what);
    lua_pop(L, 1);
  }
  return n;
}

/* 0-based axes from an integer or table at idx, for an ndim-array;
 * `repeated` names the function in the repeated-axis error (NULL: allowed). */
static int get_axes(lua_State *L, int idx, int ndim, const char *fname, int *axes, bool unique) {
  int64_t v[GA_MAXDIM];
  int n = get_ints(L, idx, fname, "axis", v);
  bool seen[GA_MAXDIM] = {false};
  for (int i = 0; i < n; i++) {
    if (ga_axis(v[i], ndim, &axes[i])) lga_fail(L, fname);
    if (unique && seen[axes[i]]) return lga_errorf(L, fname, "repeated axis");
    seen[axes[i]] = true;
  }
  return n;
}

/* order: "C" or "F" (or "A": F when a is F- but not C-contiguous), as a
 * string or {order=}; nil is C.  Returns fortran. */
static bool get_order(lua_State *L, int idx, const ga_array *a, const char *fname) {
  if (lua_isnoneornil(L, idx)) return false;
  int t = idx;
  if (is_plain_table(L, idx)) {
    static const char *const allowed[] = {"order", NULL};
    lga_check_options(L, idx, fname, allowed);
    lua_getfield(L, idx, "order");
    t = -1;
  }
  const char *o = lua_type(L, t) == LUA_TSTRING ? lua_tostring(L, t) : NULL;
  bool f;
  if (o && (!strcmp(o, "C") || !strcmp(o, "c"))) f = false;
  else if (o && (!strcmp(o, "F") || !strcmp(o, "f"))) f = true;
  else if (o && (!strcmp(o, "A") || !strcmp(o, "a"))) f = ga_is_f_contiguous(a) && !ga_is_c_contiguous(a);
  else if (t == -1 && lua_isnil(L, -1)) f = false;
  else return lga_errorf(L, fname, "order must be \"C\", \"F\" or \"A\", got %s", luaL_tolstring(L, t, NULL));
  if (t == -1) lua_pop(L, 1);
  return f;
}

/* Push x (at idx) with (ndim, shape) (one -1 allowed) read in C or F
 * order: a view when the strides allow it and !copy, else a new array
 * (C- or F-contiguous as the order) that owns its data. */
static void push_reshaped(lua_State *L, int idx, int ndim, int64_t *shape, bool fortran, bool copy,
                          const char *fname) {
  ga_array *a = lga_toarray(L, idx);
  if (ga_reshape_resolve(a->size, GA_ITEMSIZE(a->dtype), ndim, shape)) lga_fail(L, fname);
  int64_t st[GA_MAXDIM];
  if (!copy && ga_reshape_nocopy(a, ndim, shape, fortran, st)) {
    ga_array_set_geometry(lga_new_view(L, idx), ndim, shape, st);
    return;
  }
  ga_array *out = lga_new_array(L, LGA_STATE(L), fname, GA_DEVICE(a), a->dtype, ndim, shape);
  int item = GA_ITEMSIZE(a->dtype);
  if (fortran) ga_strides_f(ndim, shape, item, out->strides);
  /* the same memory seen with x's shape, filled in the same order */
  ga_array in = *out;
  in.ndim = a->ndim;
  memcpy(in.shape, a->shape, sizeof(int64_t) * a->ndim);
  if (fortran) ga_strides_f(a->ndim, a->shape, item, in.strides);
  else ga_strides_c(a->ndim, a->shape, item, in.strides);
  lga_run_copy(L, LGA_STATE(L), &in, a, fname);
}

/* reshape(x, shape[, order]) or reshape(x, d1, d2, ...[, order]) */
static int l_reshape(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int64_t shape[GA_MAXDIM];
  int ndim = 0, top = lua_gettop(L), next;
  if (is_plain_table(L, 2)) {
    ndim = get_ints(L, 2, fname, "shape", shape);
    next = 3;
  } else {
    for (next = 2; next <= top && lua_type(L, next) == LUA_TNUMBER; next++) {
      if (ndim == GA_MAXDIM)
        return lga_errorf(L, fname, "maximum supported dimension for an ndarray is %d", GA_MAXDIM);
      shape[ndim++] = get_int(L, next, fname, "shape");
    }
    if (next == 2) return lga_errorf(L, fname, "a shape is required (an integer or a table of integers)");
  }
  if (next < top) return lga_errorf(L, fname, "too many arguments (a shape, then an order)");
  bool f = get_order(L, next, a, fname);
  push_reshaped(L, 1, ndim, shape, f, false, fname);
  return 1;
}

static int l_ravel(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int64_t shape[1] = {-1};
  push_reshaped(L, 1, 1, shape, get_order(L, 2, a, fname), false, fname);
  return 1;
}

static int l_flatten(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int64_t shape[1] = {-1};
  push_reshaped(L, 1, 1, shape, get_order(L, 2, a, fname), true, fname);
  return 1;
}

/* transpose(x[, axes]) or x:transpose(a1, a2, ...) */
static int l_transpose(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int perm[GA_MAXDIM], n, top = lua_gettop(L);
  if (top < 2 || lua_isnil(L, 2)) {
    n = a->ndim;
    for (int i = 0; i < n; i++) perm[i] = n - 1 - i;
  } else if (top == 2) {
    int64_t v[GA_MAXDIM];
    n = get_ints(L, 2, fname, "axes", v);
    if (n != a->ndim) return lga_errorf(L, fname, "axes don't match array");
    for (int i = 0; i < n; i++)
      if (ga_axis(v[i], a->ndim, &perm[i])) lga_fail(L, fname);
  } else {
    n = top - 1;
    if (n != a->ndim) return lga_errorf(L, fname, "axes don't match array");
    for (int i = 0; i < n; i++)
      if (ga_axis(get_int(L, i + 2, fname, "axes"), a->ndim, &perm[i])) lga_fail(L, fname);
  }
  ga_array *v = lga_new_view(L, 1);
  if (ga_permute(v, perm)) lga_fail(L, fname);
  return 1;
}

static int l_swapaxes(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int i, j;
  if (ga_axis(get_int(L, 2, fname, "axis1"), a->ndim, &i) || ga_axis(get_int(L, 3, fname, "axis2"), a->ndim, &j))
    lga_fail(L, fname);
  ga_array *v = lga_new_view(L, 1);
  int64_t t = v->shape[i];
  v->shape[i] = v->shape[j], v->shape[j] = t;
  t = v->strides[i];
  v->strides[i] = v->strides[j], v->strides[j] = t;
  return 1;
}

/* rollaxis(x, axis[, start=1]): axis moves to just before position start
 * (1..ndim+1; negatives from the end, as NumPy's 0-based start + 1). */
static int l_rollaxis(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int n = a->ndim, ax;
  if (ga_axis(get_int(L, 2, fname, "axis"), n, &ax)) lga_fail(L, fname);
  int64_t s = lua_isnoneornil(L, 3) ? 1 : get_int(L, 3, fname, "start");
  int64_t s0 = s < 0 ? s + n : s - 1;
  if (s == 0 || s0 < 0 || s0 > n)
    return lga_errorf(L, fname, "start must be in 1..%d or -%d..-1, got %lld", n + 1, n, (long long)s);
  if (ax < s0) s0--;
  int perm[GA_MAXDIM], k = 0;
  for (int i = 0; i < n; i++) {
    if (k == s0) perm[k++] = ax;
    if (i != ax) perm[k++] = i;
  }
  if (k == s0) perm[k++] = ax;
  ga_array *v = lga_new_view(L, 1);
  if (ga_permute(v, perm)) lga_fail(L, fname);
  return 1;
}

/* moveaxis(x, source, destination): integers or tables of equal length */
static int l_moveaxis(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int n = a->ndim, src[GA_MAXDIM], dst[GA_MAXDIM];
  if (lua_isnoneornil(L, 2) || lua_isnoneornil(L, 3))
    return lga_errorf(L, fname, "source and destination axes are required");
  int ns = get_axes(L, 2, n, fname, src, true);
  int nd = get_axes(L, 3, n, fname, dst, true);
  if (ns != nd)
    return lga_errorf(L, fname, "`source` and `destination` arguments must have the same number of elements");
  /* the other axes keep their order and fill the free positions */
  int perm[GA_MAXDIM];
  bool placed[GA_MAXDIM] = {false}, moved[GA_MAXDIM] = {false};
  for (int k = 0; k < ns; k++) perm[dst[k]] = src[k], placed[dst[k]] = true, moved[src[k]] = true;
  int p = 0;
  for (int i = 0; i < n; i++) {
    if (moved[i]) continue;
    while (placed[p]) p++;
    perm[p++] = i;
  }
  ga_array *v = lga_new_view(L, 1);
  if (ga_permute(v, perm)) lga_fail(L, fname);
  return 1;
}

static int l_squeeze(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  bool drop[GA_MAXDIM] = {false};
  if (lua_isnoneornil(L, 2)) {
    for (int i = 0; i < a->ndim; i++) drop[i] = a->shape[i] == 1;
  } else {
    int ax[GA_MAXDIM], n = get_axes(L, 2, a->ndim, fname, ax, true);
    for (int i = 0; i < n; i++) drop[ax[i]] = true;
  }
  ga_array *v = lga_new_view(L, 1);
  if (ga_squeeze(v, drop)) lga_fail(L, fname);
  return 1;
}

static int l_expand_dims(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  if (lua_isnoneornil(L, 2)) return lga_errorf(L, fname, "an axis is required");
  int64_t v[GA_MAXDIM];
  int n = get_ints(L, 2, fname, "axis", v), out_nd = a->ndim + n, ax;
  if (out_nd > GA_MAXDIM)
    return lga_errorf(L, fname, "maximum supported dimension for an ndarray is %d, found %d", GA_MAXDIM, out_nd);
  bool isnew[GA_MAXDIM] = {false};
  for (int i = 0; i < n; i++) {
    if (ga_axis(v[i], out_nd, &ax)) lga_fail(L, fname);
    if (isnew[ax]) return lga_errorf(L, fname, "repeated axis");
    isnew[ax] = true;
  }
  ga_array *w = lga_new_view(L, 1);
  if (ga_expand(w, out_nd, isnew)) lga_fail(L, fname);
  return 1;
}

static int l_broadcast_to(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  arg_array(L, 1, fname);
  if (lua_isnoneornil(L, 2)) return lga_errorf(L, fname, "a shape is required");
  int64_t shape[GA_MAXDIM];
  int nd = lga_get_shape(L, 2, fname, shape);
  ga_array *v = lga_new_view(L, 1);
  if (ga_broadcast_to(v, nd, shape)) lga_fail(L, fname);
  return 1;
}

/* broadcast_arrays(a, b, ...): one view each, all of the common shape */
static int l_broadcast_arrays(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int n = lua_gettop(L);
  if (n > GA_MAXDIM * 8) return lga_errorf(L, fname, "too many arrays (%d)", n);
  const ga_array *arrs[GA_MAXDIM * 8];
  for (int i = 1; i <= n; i++) arrs[i - 1] = arg_array(L, i, fname);
  int nd = 0;
  int64_t shape[GA_MAXDIM];
  if (ga_broadcast_shapes(n, arrs, &nd, shape)) lga_fail(L, fname);
  luaL_checkstack(L, n, fname);
  for (int i = 1; i <= n; i++)
    if (ga_broadcast_to(lga_new_view(L, i), nd, shape)) lga_fail(L, fname);
  return n;
}

/* atleast_Nd: upvalue 3 is N; one view per argument */
static int l_atleast(lua_State *L) {
  int want = (int)lua_tointeger(L, lua_upvalueindex(3));
  const char *fname = want == 1 ? "atleast_1d" : want == 2 ? "atleast_2d" : "atleast_3d";
  int n = lua_gettop(L);
  if (n == 0) return lga_errorf(L, fname, "at least one array is required");
  luaL_checkstack(L, n, fname);
  for (int i = 1; i <= n; i++) {
    ga_array *a = arg_array(L, i, fname);
    int nd = a->ndim;
    ga_array *v = lga_new_view(L, i);
    if (nd >= want) continue;
    bool isnew[3] = {false, false, false};
    /* NumPy: 0-d -> (1,1,1); (N) -> (1,N) / (1,N,1); (M,N) -> (M,N,1) */
    if (nd == 0) isnew[0] = isnew[1] = isnew[2] = true;
    else if (nd == 1) isnew[0] = true, isnew[2] = want == 3;
    else isnew[2] = true;
    if (ga_expand(v, want, isnew)) lga_fail(L, fname);
  }
  return n;
}

static int l_flip(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int ax[GA_MAXDIM], n;
  if (lua_isnoneornil(L, 2)) {
    n = a->ndim;
    for (int i = 0; i < n; i++) ax[i] = i;
  } else {
    n = get_axes(L, 2, a->ndim, fname, ax, true);
  }
  ga_array *v = lga_new_view(L, 1);
  for (int i = 0; i < n; i++) ga_flip(v, ax[i]);
  return 1;
}

static int flip_one(lua_State *L, const char *fname, int axis) {
  ga_array *a = arg_array(L, 1, fname);
  if (a->ndim <= axis) return lga_errorf(L, fname, "Input must be >= %d-d.", axis + 1);
  ga_flip(lga_new_view(L, 1), axis);
  return 1;
}
static int l_fliplr(lua_State *L) { return flip_one(L, LGA_FNAME(L), 1); }
static int l_flipud(lua_State *L) { return flip_one(L, LGA_FNAME(L), 0); }

/* A new C-contiguous array like a (pushed). */
static ga_array *new_like(lua_State *L, const ga_array *a, int ndim, const int64_t *shape, const char *fname) {
  return lga_new_array(L, LGA_STATE(L), fname, GA_DEVICE(a), a->dtype, ndim, shape);
}

/* *acc = (*acc + shift) mod len, in [0, len), without overflow: the sum of
 * two values below len < 2^63 fits in uint64. */
static void add_shift(int64_t *acc, int64_t shift, int64_t len) {
  if (len == 0) return;
  uint64_t t = (uint64_t)*acc + (uint64_t)ga_floor_mod_i64(shift, len);
  *acc = (int64_t)(t % (uint64_t)len);
}

/* roll(x, shift[, axis]): out[(i + shift) mod n] = x[i] along each axis;
 * without axis, over the flattened array.  Per rolled axis the output is
 * two slices, so 2^m copies of views for m rolled axes. */
static int l_roll(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  int64_t sh[GA_MAXDIM], shift[GA_MAXDIM] = {0};
  if (lua_isnoneornil(L, 2)) return lga_errorf(L, fname, "a shift is required");
  int nsh = get_ints(L, 2, fname, "shift", sh);
  const ga_array *src = a;
  ga_array flat;
  if (lua_isnoneornil(L, 3)) {
    /* over the flat array: roll its C-order ravel, keep x's shape; NumPy
     * sums the shifts */
    int64_t m1[1] = {-1};
    push_reshaped(L, 1, 1, m1, false, false, fname);
    flat = *lga_toarray(L, -1);
    src = &flat;
    for (int k = 0; k < nsh; k++) add_shift(&shift[0], sh[k], src->shape[0]);
  } else {
    int ax[GA_MAXDIM], nax = get_axes(L, 3, a->ndim, fname, ax, false);
    if (nsh != nax && nsh != 1 && nax != 1)
      return lga_errorf(L, fname, "shift and axis must have the same number of entries (%d and %d)", nsh, nax);
    /* NumPy broadcasts shift against axis: an empty one means no shifts */
    int n = nsh == 0 || nax == 0 ? 0 : nsh > nax ? nsh : nax;
    for (int k = 0; k < n; k++) {
      int i = ax[nax == 1 ? 0 : k];
      add_shift(&shift[i], sh[nsh == 1 ? 0 : k], a->shape[i]);
    }
  }
  ga_array *out = new_like(L, src, src->ndim, src->shape, fname);
  int rolled[GA_MAXDIM], m = 0;
  for (int i = 0; i < src->ndim; i++)
    if (shift[i]) rolled[m++] = i;
  for (int64_t combo = 0; combo < ((int64_t)1 << m); combo++) {
    ga_array s = *src, d = *out;
    for (int k = 0; k < m; k++) {
      int i = rolled[k];
      int64_t len = src->shape[i], sft = shift[i];
      /* part 0: x[0, len-sft) -> out[sft, len); part 1: x[len-sft, len) -> out[0, sft) */
      int64_t s0 = (combo >> k & 1) ? len - sft : 0, d0 = (combo >> k & 1) ? 0 : sft;
      int64_t cnt = (combo >> k & 1) ? sft : len - sft;
      s.offset += s0 * s.strides[i], d.offset += d0 * d.strides[i];
      s.shape[i] = d.shape[i] = cnt;
    }
    lga_run_copy(L, LGA_STATE(L), &d, &s, fname);
  }
  if (src == &flat) {
    /* out is a fresh contiguous array: give it x's shape in place */
    ga_array_set_geometry(out, a->ndim, a->shape, out->strides);
    ga_strides_c(a->ndim, a->shape, GA_ITEMSIZE(a->dtype), out->strides);
  }
  return 1;
}

/* repeat(x, repeats[, axis]): each element along axis repeated; repeats an
 * integer, a table or a 1-d integer array of one count per element (or a
 * single count).  Without axis, over the flattened array.  Runs of equal
 * counts are copied at once from a broadcast view (a zero-stride axis). */
static int l_repeat(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  lga_state *S = LGA_STATE(L);
  if (lua_isnoneornil(L, 2)) return lga_errorf(L, fname, "repeats are required");
  int src_idx = 1, axis = 0;
  if (lua_isnoneornil(L, 3)) {
    int64_t m1[1] = {-1};
    push_reshaped(L, 1, 1, m1, false, false, fname);
    src_idx = lua_gettop(L);
  } else {
    int64_t v = get_int(L, 3, fname, "axis");
    if (ga_axis(v, a->ndim, &axis)) lga_fail(L, fname);
  }
  ga_array *src = lga_toarray(L, src_idx);
  int64_t n = src->shape[axis], nrep;
  /* the counts: one integer, or n of them in a host int64 array */
  const int64_t *rep;
  int64_t one;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    one = get_int(L, 2, fname, "repeats");
    rep = &one, nrep = 1;
  } else {
    ga_array *h;
    if (lga_toarray(L, 2)) {
      ga_array *r = lga_check(L, 2, fname);
      if (GA_KIND(r->dtype) != 'i' && GA_KIND(r->dtype) != 'u')
        return lga_errorf(L, fname, "repeats must be integers, got an array of %s", ga_dtypes[r->dtype].name);
      if (r->ndim > 1) return lga_errorf(L, fname, "repeats must be 0-d or 1-d, got %d-d", r->ndim);
      h = lga_to_device(L, S, 2, GA_CPU, GA_INT64, 1, fname);
    } else if (is_plain_table(L, 2)) {
      int64_t k = (int64_t)lua_rawlen(L, 2);
      h = lga_new_array(L, S, fname, GA_CPU, GA_INT64, 1, &k);
      for (int64_t i = 0; i < k; i++) {
        lua_rawgeti(L, 2, i + 1);
        ((int64_t *)GA_DATA(h))[i] = get_int(L, -1, fname, "repeats");
        lua_pop(L, 1);
      }
    } else {
      return lga_errorf(L, fname, "repeats must be an integer, a table or an array of integers, got %s",
                        luaL_typename(L, 2));
    }
    rep = (const int64_t *)GA_DATA(h);
    nrep = h->size;
    src = lga_toarray(L, src_idx);
  }
  if (nrep != 1 && nrep != n)
    return lga_errorf(L, fname, "operands could not be broadcast together with shape (%lld,) (%lld,)",
                      (long long)n, (long long)nrep);
  int64_t total = 0;
  for (int64_t i = 0; i < nrep; i++) {
    if (rep[i] < 0) return lga_errorf(L, fname, "repeats may not contain negative values");
    int64_t add = rep[i];
    if ((nrep == 1 && !ga_mul_i64(rep[i], n, &add)) || !ga_add_i64(total, add, &total))
      return lga_errorf(L, fname, "%s", GA_TOO_BIG);
  }
  if (src->ndim >= GA_MAXDIM) return lga_errorf(L, fname, "too many dimensions (%d)", src->ndim);
  int64_t oshape[GA_MAXDIM];
  memcpy(oshape, src->shape, sizeof(int64_t) * src->ndim);
  oshape[axis] = total;
  ga_array *out = new_like(L, src, src->ndim, oshape, fname);
  int64_t pos = 0;
  for (int64_t i = 0; i < n;) {
    int64_t r = rep[nrep == 1 ? 0 : i], j = i + 1;
    while (j < n && nrep != 1 && rep[j] == r) j++;
    if (nrep == 1) j = n;
    if (r > 0) {
      /* src[i:j] with a length-r zero-stride axis after `axis`, into
       * out[pos : pos + (j-i)*r] split as (j-i, r) */
      ga_array s = *src, d = *out;
      bool isnew[GA_MAXDIM] = {false};
      isnew[axis + 1] = true;
      s.offset += i * s.strides[axis];
      s.shape[axis] = j - i;
      ga_expand(&s, src->ndim + 1, isnew);
      s.shape[axis + 1] = r;
      d.offset += pos * d.strides[axis];
      ga_expand(&d, src->ndim + 1, isnew);
      d.shape[axis] = j - i, d.shape[axis + 1] = r;
      d.strides[axis + 1] = d.strides[axis];
      d.strides[axis] *= r;
      lga_run_copy(L, LGA_STATE(L), &d, &s, fname);
    }
    pos += (j - i) * r;
    i = j;
  }
  return 1;
}

/* tile(x, reps): x seen with a zero-stride axis of length reps[i] before
 * each axis i (where reps[i] != 1), copied into the result seen with the
 * same interleaved shape. */
static int l_tile(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *a = arg_array(L, 1, fname);
  if (lua_isnoneornil(L, 2)) return lga_errorf(L, fname, "reps are required");
  int64_t reps[GA_MAXDIM];
  int d = get_ints(L, 2, fname, "reps", reps);
  for (int i = 0; i < d; i++)
    if (reps[i] < 0) return lga_errorf(L, fname, "negative dimensions are not allowed");
  int nd = d > a->ndim ? d : a->ndim;
  int64_t r[GA_MAXDIM], xs[GA_MAXDIM], xst[GA_MAXDIM], oshape[GA_MAXDIM];
  for (int i = 0; i < nd; i++) {
    int ia = i - (nd - a->ndim), ir = i - (nd - d);
    r[i] = ir >= 0 ? reps[ir] : 1;
    xs[i] = ia >= 0 ? a->shape[ia] : 1;
    xst[i] = ia >= 0 ? a->strides[ia] : 0;
    if (!ga_mul_i64(xs[i], r[i], &oshape[i])) return lga_errorf(L, fname, "%s", GA_TOO_BIG);
  }
  ga_array *out = new_like(L, a, nd, oshape, fname);
  ga_array s = *a, o = *out;
  int k = 0;
  for (int i = 0; i < nd; i++) {
    if (r[i] != 1) {
      if (k == GA_MAXDIM) return lga_errorf(L, fname, "too many dimensions to tile at once");
      s.shape[k] = r[i], s.strides[k++] = 0;
    }
    if (k == GA_MAXDIM) return lga_errorf(L, fname, "too many dimensions to tile at once");
    s.shape[k] = xs[i], s.strides[k++] = xst[i];
  }
  s.ndim = o.ndim = k;
  memcpy(o.shape, s.shape, sizeof(int64_t) * k);
  ga_strides_c(k, o.shape, GA_ITEMSIZE(a->dtype), o.strides);
  lga_run_copy(L, LGA_STATE(L), &o, &s, fname);
  return 1;
}

static const luaL_Reg shape_fns[] = {
  {"reshape", l_reshape}, {"ravel", l_ravel}, {"flatten", l_flatten}, {"transpose", l_transpose},
  {"swapaxes", l_swapaxes}, {"rollaxis", l_rollaxis}, {"moveaxis", l_moveaxis}, {"squeeze", l_squeeze},
  {"expand_dims", l_expand_dims}, {"broadcast_to", l_broadcast_to}, {"broadcast_arrays", l_broadcast_arrays},
  {"flip", l_flip}, {"fliplr", l_fliplr}, {"flipud", l_flipud}, {"roll", l_roll}, {"repeat", l_repeat},
  {"tile", l_tile}, {NULL, NULL}};

void lga_open_shape(lua_State *L) {
  int mod = lua_gettop(L);
  lua_getfield(L, mod, "host");   /* made by lga_open_create */
  int host = lua_gettop(L);
  for (int h = 0; h <= 1; h++) {
    int t = h ? host : mod;
    lga_setfuncs_host(L, shape_fns, mod, t, h);
    for (int n = 1; n <= 3; n++) {
      lua_getfield(L, mod, "_state");
      lua_pushboolean(L, h);
      lua_pushinteger(L, n);
      lua_pushcclosure(L, l_atleast, 3);
      lua_setfield(L, t, n == 1 ? "atleast_1d" : n == 2 ? "atleast_2d" : "atleast_3d");
    }
  }
  lua_settop(L, mod);
}
