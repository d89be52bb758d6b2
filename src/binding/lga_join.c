/* Joining and splitting: concatenate stack hstack vstack dstack
 * column_stack make one output and ga_copy each input into a slice of it
 * (no kernels of their own); split array_split hsplit vsplit dsplit return
 * views.  Axes are 1-based; split points are 1-based positions.
 *
 * Registered in core._join (ga.X) and core._join_host (ga.host.X), upvalue
 * 2 true for the host: it only says where a Lua table or number in the list
 * becomes an array when no array is there to say. */
#include "binding/lga_core.h"
#include "core/ga_join.h"
#include "base/ga_checked.h"
#include <limits.h>
#include <string.h>

void lga_open_select(lua_State *L);   /* lga_select.c, registered from here */

/* ---- gathering the inputs ---- */

enum { AT_NONE = 0, AT_1D = 1, AT_2D = 2, AT_3D = 3, AT_COL = -1 };

/* NumPy's atleast_{1,2,3}d (and column_stack's 1-D -> column) on a
 * temporary view: the new axes have size 1 and stride 0. */
static void atleast(ga_array *a, int mode) {
  int nd = a->ndim;
  int64_t n0 = nd > 0 ? a->shape[0] : 1, s0 = nd > 0 ? a->strides[0] : 0;
  if (mode == AT_NONE || nd >= (mode == AT_COL ? 2 : mode)) return;
  if (mode == AT_1D) {                     /* () -> (1,) */
    a->ndim = 1, a->shape[0] = 1, a->strides[0] = 0;
  } else if (mode == AT_2D || mode == AT_COL) {
    a->ndim = 2;
    if (nd == 0) a->shape[0] = a->shape[1] = 1, a->strides[0] = a->strides[1] = 0;
    else if (mode == AT_COL) a->shape[1] = 1, a->strides[1] = 0;               /* (n,) -> (n,1) */
    else a->shape[1] = n0, a->strides[1] = s0, a->shape[0] = 1, a->strides[0] = 0; /* (1,n) */
  } else {                                 /* AT_3D */
    if (nd == 2) {                         /* (m,n) -> (m,n,1) */
      a->shape[2] = 1, a->strides[2] = 0;
    } else {                               /* () -> (1,1,1), (n,) -> (1,n,1) */
      a->shape[1] = n0, a->strides[1] = s0;
      a->shape[0] = a->shape[2] = 1, a->strides[0] = a->strides[2] = 0;
    }
    a->ndim = 3;
  }
}

typedef struct joinin {
  int n;
  ga_array *a;      /* n temporary views of the inputs */
  int device;
} joinin;

/* The list at `list` -> temporary views (kept alive by the list and by a
 * table of converted values this pushes, with the views' block). */
static joinin gather(lua_State *L, int list, const char *fname, int mode) {
  lga_state *S = LGA_STATE(L);
  if (!lua_istable(L, list) || lga_toarray(L, list))
    lga_errorf(L, fname, "bad argument #1 (a table of arrays expected, got %s)",
               lga_toarray(L, list) ? "an ndarray" : luaL_typename(L, list));
  lua_Integer n = luaL_len(L, list);
  if (n <= 0) lga_errorf(L, fname, "need at least one array to join");
  if (n > INT_MAX / (int)sizeof(ga_array)) lga_errorf(L, fname, "too many arrays (%lld)", (long long)n);
  joinin in = {(int)n, NULL, LGA_HOST(L) ? GA_CPU : S->device};
  /* the device of the first array decides where Lua values go */
  int first = 0;
  for (int i = 1; i <= n && !first; i++) {
    lua_rawgeti(L, list, i);
    ga_array *x = lga_toarray(L, -1);
    if (x && x->buf) in.device = GA_DEVICE(x), first = i;
    lua_pop(L, 1);
  }
  lua_createtable(L, (int)n, 0);
  int keep = lua_gettop(L);
  in.a = lua_newuserdatauv(L, (size_t)n * sizeof(ga_array), 0);
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);
    int t = lua_type(L, -1);
    ga_array *x = lga_toarray(L, -1);
    if (!x && t != LUA_TTABLE && t != LUA_TNUMBER && t != LUA_TBOOLEAN)
      lga_errorf(L, fname, "bad element #%d of the list (an array expected, got %s)", i, luaL_typename(L, -1));
    if (!x) {
      x = lga_from_value(L, S, -1, in.device, -1, 0, fname);
      lua_rawseti(L, keep, i);
    } else if (!x->buf) {
      lga_errorf(L, fname, "array #%d has been freed", i);
    } else {   /* in.a copies x: keep x alive (the list may be weak) */
      lua_pushvalue(L, -1);
      lua_rawseti(L, keep, i);
    }
    lua_pop(L, 1);
    if (GA_DEVICE(x) != in.device) {
      char b1[32], b2[32];
      lga_errorf(L, fname,
                 "all the input arrays must be on the same device, but array #%d is on %s and array #%d is on %s "
                 "(move one with ga.asarray(x) or x:get())",
                 first, ga_device_name(in.device, b1), i, ga_device_name(GA_DEVICE(x), b2));
    }
    in.a[i - 1] = *x;
    atleast(&in.a[i - 1], mode);
  }
  lga_check_current(L, S, &in.a[0], fname);
  return in;
}

/* ---- options ---- */

typedef struct joinopt {
  int dtype;          /* -1: promoted from the inputs */
  int casting;
  int out;            /* stack index of out=, 0 for none */
  int64_t axis;       /* 1-based */
  int flatten;        /* axis=false: NumPy's axis=None */
} joinopt;

static const char *const opts_concat[] = {"axis", "dtype", "out", "casting", NULL};
static const char *const opts_stack[] = {"axis", "dtype", "out", "casting", NULL};
static const char *const opts_xstack[] = {"dtype", "casting", NULL};

static void read_axis(lua_State *L, int idx, const char *fname, joinopt *o, int allow_false) {
  if (lua_isnil(L, idx)) return;
  if (allow_false && lua_isboolean(L, idx) && !lua_toboolean(L, idx)) { o->flatten = 1; return; }
  int ok;
  lua_Integer ax = lua_tointegerx(L, idx, &ok);
  if (!ok)
    lga_errorf(L, fname, "axis must be an integer%s, got %s", allow_false ? " or false" : "",
               luaL_typename(L, idx));
  o->axis = ax;
}

/* fn(list[, axis][, opts]): the positional axis only when `axis_pos`. */
static joinopt join_args(lua_State *L, const char *fname, const char *const *allowed, int axis_pos,
                         int allow_false) {
  joinopt o = {-1, GA_CAST_SAME_KIND, 0, 1, 0};
  int top = lua_gettop(L), opts = 0;
  if (axis_pos && top >= 2 && !(lua_istable(L, 2) && !lga_toarray(L, 2))) {
    read_axis(L, 2, fname, &o, allow_false);
    if (top >= 3 && !lua_isnil(L, 3)) opts = 3;
    if (top > 3) lga_errorf(L, fname, "too many arguments (%d)", top);
  } else if (top >= 2 && !lua_isnil(L, 2)) {
    opts = 2;
    if (top > 2) lga_errorf(L, fname, "too many arguments (%d)", top);
  }
  if (!opts) return o;
  if (!lua_istable(L, opts) || lga_toarray(L, opts))
    lga_errorf(L, fname, "bad argument #%d (an options table expected, got %s)", opts, luaL_typename(L, opts));
  lga_check_options(L, opts, fname, allowed);
  if (lua_getfield(L, opts, "axis") != LUA_TNIL) read_axis(L, -1, fname, &o, allow_false);
  if (lua_getfield(L, opts, "dtype") != LUA_TNIL) o.dtype = lga_opt_dtype(L, -1, fname, -1);
  if (lua_getfield(L, opts, "casting") != LUA_TNIL) {
    const char *c = lua_tostring(L, -1);
    if (!c || (o.casting = ga_casting_from_name(c)) < 0)
      lga_errorf(L, fname, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'");
  }
  lua_pop(L, 3);
  lua_getfield(L, opts, "out");
  if (!lua_isnil(L, -1)) {
    lga_check(L, -1, fname);
    o.out = lua_gettop(L);   /* stays on the stack */
    if (o.dtype >= 0)
      lga_errorf(L, fname, "only takes `out` or `dtype` as an argument, but both were provided");
  } else {
    lua_pop(L, 1);
  }
  return o;
}

/* ---- the join ---- */

/* Concatenate (stack = 0) or stack (stack = 1) the inputs along o->axis,
 * or flatten each and concatenate (o->flatten); pushes the result. */
static int do_join(lua_State *L, const char *fname, joinin *in, const joinopt *o, int stack) {
  lga_state *S = LGA_STATE(L);
  ga_array *a = in->a;
  int n = in->n, nd = 0, ax = 0;
  int64_t shape[GA_MAXDIM];
  char b1[GA_MAXDIM * 24], b2[GA_MAXDIM * 24];
  if (o->flatten) {
    int64_t total = 0;
    for (int i = 0; i < n; i++)
      if (!ga_add_i64(total, a[i].size, &total)) lga_errorf(L, fname, "%s", GA_TOO_BIG);
    nd = 1, shape[0] = total;
  } else if (stack) {
    for (int i = 1; i < n; i++)
      if (a[i].ndim != a[0].ndim || memcmp(a[i].shape, a[0].shape, a[0].ndim * sizeof(int64_t)))
        lga_errorf(L, fname, "all input arrays must have the same shape, but array #1 has shape %s and array #%d has shape %s",
                   ga_shape_str(a[0].ndim, a[0].shape, b1, sizeof b1), i + 1,
                   ga_shape_str(a[i].ndim, a[i].shape, b2, sizeof b2));
    if (a[0].ndim + 1 > GA_MAXDIM) lga_errorf(L, fname, "too many dimensions");
    nd = a[0].ndim + 1;
    if (ga_axis(o->axis, nd, &ax)) lga_fail(L, fname);
    for (int k = 0, j = 0; k < nd; k++) shape[k] = k == ax ? n : a[0].shape[j++];
  } else {
    nd = a[0].ndim;
    if (nd == 0) lga_errorf(L, fname, "zero-dimensional arrays cannot be concatenated");
    if (ga_axis(o->axis, nd, &ax)) lga_fail(L, fname);
    memcpy(shape, a[0].shape, nd * sizeof(int64_t));
    for (int i = 1; i < n; i++) {
      if (a[i].ndim != nd)
        lga_errorf(L, fname, "all the input arrays must have the same number of dimensions, but array #1 has %d "
                   "dimension(s) and array #%d has %d dimension(s)", nd, i + 1, a[i].ndim);
      for (int k = 0; k < nd; k++)
        if (k != ax && a[i].shape[k] != shape[k])
          lga_errorf(L, fname, "all the input array dimensions except for the concatenation axis must match exactly, "
                     "but along dimension %d, array #1 has size %lld and array #%d has size %lld",
                     k + 1, (long long)shape[k], i + 1, (long long)a[i].shape[k]);
      if (!ga_add_i64(shape[ax], a[i].shape[ax], &shape[ax])) lga_errorf(L, fname, "%s", GA_TOO_BIG);
    }
  }
  ga_array *out = o->out ? lga_toarray(L, o->out) : NULL;
  int dt = ga_result_type(n, &a[0].dtype, sizeof a[0]);
  if (o->dtype >= 0) dt = o->dtype;
  if (out) dt = out->dtype;
  for (int i = 0; i < n; i++)
    if (!ga_can_cast(a[i].dtype, dt, o->casting))
      lga_errorf(L, fname, "Cannot cast array data from dtype('%s') to dtype('%s') according to the rule '%s'",
                 ga_dtypes[a[i].dtype].name, ga_dtypes[dt].name, ga_casting_names[o->casting]);
  if (out) {
    if (GA_DEVICE(out) != in->device)
      lga_errorf(L, fname, "out is on %s but the inputs are on %s", ga_device_name(GA_DEVICE(out), b1),
                 ga_device_name(in->device, b2));
    if (out->ndim != nd) lga_errorf(L, fname, "Output array has wrong dimensionality");
    if (memcmp(out->shape, shape, nd * sizeof(int64_t)))
      lga_errorf(L, fname, "Output array is the wrong shape: %s, expected %s", ga_shape_str(nd, out->shape, b1, sizeof b1),
                 ga_shape_str(nd, shape, b2, sizeof b2));
    /* an input that shares out's memory is read before out is written */
    for (int i = 0; i < n; i++)
      if (a[i].buf == out->buf && a[i].size) {
        ga_array *t = lga_new_array(L, S, fname, in->device, a[i].dtype, a[i].ndim, a[i].shape);
        if (ga_copy(t, &a[i], lga_stream(S, in->device))) lga_fail(L, fname);
        a[i] = *t;
      }
    lua_pushvalue(L, o->out);
  } else {
    out = lga_new_array(L, S, fname, in->device, dt, nd, shape);
  }
  void *stream = lga_stream(S, in->device);
  int64_t pos = 0;
  for (int i = 0; i < n; i++) {
    ga_array v;
    if (o->flatten) {
      v = ga_tmp_slice(out, 0, pos, a[i].size);
      v = ga_tmp_unflatten(&v, a[i].ndim, a[i].shape);
      pos += a[i].size;
    } else if (stack) {
      v = ga_tmp_index(out, ax, i);
    } else {
      v = ga_tmp_slice(out, ax, pos, a[i].shape[ax]);
      pos += a[i].shape[ax];
    }
    if (v.size && ga_copy(&v, &a[i], stream)) lga_fail(L, fname);
  }
  return 1;
}

static int l_concatenate(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  joinopt o = join_args(L, fname, opts_concat, 1, 1);
  joinin in = gather(L, 1, fname, AT_NONE);
  return do_join(L, fname, &in, &o, 0);
}

static int l_stack(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  joinopt o = join_args(L, fname, opts_stack, 1, 0);
  joinin in = gather(L, 1, fname, AT_NONE);
  return do_join(L, fname, &in, &o, 1);
}

static int l_hstack(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  joinopt o = join_args(L, fname, opts_xstack, 0, 0);
  joinin in = gather(L, 1, fname, AT_1D);
  o.axis = in.a[0].ndim == 1 ? 1 : 2;   /* NumPy: 1-D inputs join along their only axis */
  return do_join(L, fname, &in, &o, 0);
}

static int l_vstack(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  joinopt o = join_args(L, fname, opts_xstack, 0, 0);
  joinin in = gather(L, 1, fname, AT_2D);
  return do_join(L, fname, &in, &o, 0);
}

static int l_dstack(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  joinopt o = join_args(L, fname, opts_xstack, 0, 0);
  joinin in = gather(L, 1, fname, AT_3D);
  o.axis = 3;
  return do_join(L, fname, &in, &o, 0);
}

static int l_column_stack(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  joinopt o = join_args(L, fname, opts_xstack, 0, 0);
  joinin in = gather(L, 1, fname, AT_COL);
  o.axis = 2;
  return do_join(L, fname, &in, &o, 0);
}

/* ---- splitting ---- */

/* A 1-based split point -> 0-based position, clipped to [0, n] as a
 * Python slice bound (negative points count from the end). */
static int64_t split_point(lua_State *L, int tbl, int j, int64_t n, const char *fname) {
  lua_rawgeti(L, tbl, j);
  int ok;
  lua_Integer p = lua_tointegerx(L, -1, &ok);
  lua_pop(L, 1);
  if (!ok) lga_errorf(L, fname, "split point #%d must be an integer", j);
  if (p == 0) lga_errorf(L, fname, "split points are 1-based positions (1 is the first element), got 0");
  int64_t q = p > 0 ? p - 1 : n + p;
  return q < 0 ? 0 : q > n ? n : q;
}

/* Every section is a view (about 600 bytes): past this many the result
 * would only exhaust memory (array_split makes empty sections on demand). */
#define MAX_SECTIONS (1 << 24)

/* Push the table of views of x (at xi) split along 1-based axis. */
static int do_split(lua_State *L, const char *fname, int xi, int spec, int64_t axis, int strict) {
  ga_array *x = lga_check(L, xi, fname);
  int ax = 0;
  if (ga_axis(axis, x->ndim, &ax)) lga_fail(L, fname);
  int64_t n = x->shape[ax], pieces, each = 0, extra = 0;
  int npoints = 0;
  if (lua_type(L, spec) == LUA_TNUMBER) {
    int ok;
    pieces = lua_tointegerx(L, spec, &ok);
    if (!ok) lga_errorf(L, fname, "the number of sections must be an integer");
    if (pieces <= 0) lga_errorf(L, fname, "number sections must be larger than 0");
    if (strict && n % pieces)
      lga_errorf(L, fname, "array split does not result in an equal division: %lld elements along axis %d into "
                 "%lld sections (use array_split for unequal pieces)", (long long)n, ax + 1, (long long)pieces);
    each = n / pieces, extra = n % pieces;
  } else if (lua_istable(L, spec) && !lga_toarray(L, spec)) {
    lua_Unsigned len = lua_rawlen(L, spec);   /* split_point reads raw too */
    if (len >= MAX_SECTIONS)
      lga_errorf(L, fname, "too many split points (%llu; at most %d)", (unsigned long long)len, MAX_SECTIONS - 1);
    npoints = (int)len;
    pieces = (int64_t)npoints + 1;
  } else {
    return lga_errorf(L, fname, "bad argument #2 (a number of sections or a table of 1-based split points expected, "
                      "got %s)", luaL_typename(L, spec));
  }
  if (pieces > MAX_SECTIONS)
    lga_errorf(L, fname, "too many sections (%lld; at most %d, one view each)", (long long)pieces, MAX_SECTIONS);
  lua_createtable(L, (int)pieces, 0);
  for (int64_t i = 0; i < pieces; i++) {
    int64_t start, len;
    if (!npoints && lua_type(L, spec) == LUA_TNUMBER) {
      start = i * each + (i < extra ? i : extra);
      len = each + (i < extra);
    } else {
      start = i == 0 ? 0 : split_point(L, spec, (int)i, n, fname);
      int64_t end = i == pieces - 1 ? n : split_point(L, spec, (int)i + 1, n, fname);
      len = end > start ? end - start : 0;
    }
    ga_array *v = lga_new_view(L, xi);
    *v = ga_tmp_slice(v, ax, start, len);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int64_t opt_axis(lua_State *L, int idx, const char *fname) {
  if (lua_isnoneornil(L, idx)) return 1;
  int ok;
  lua_Integer a = lua_tointegerx(L, idx, &ok);
  if (!ok) lga_errorf(L, fname, "axis must be an integer, got %s", luaL_typename(L, idx));
  return a;
}

static int l_split(lua_State *L) { return do_split(L, LGA_FNAME(L), 1, 2, opt_axis(L, 3, LGA_FNAME(L)), 1); }
static int l_array_split(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  return do_split(L, fname, 1, 2, opt_axis(L, 3, fname), 0);
}

static int xsplit(lua_State *L, const char *fname, int min_nd, int64_t axis) {
  ga_array *x = lga_check(L, 1, fname);
  if (x->ndim < min_nd)
    lga_errorf(L, fname, "%s only works on arrays of %d or more dimensions", fname, min_nd);
  if (lua_gettop(L) > 2) lga_errorf(L, fname, "takes an array and a number of sections or split points");
  return do_split(L, fname, 1, 2, axis, 1);
}
static int l_hsplit(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  ga_array *x = lga_check(L, 1, fname);
  return xsplit(L, fname, 1, x->ndim > 1 ? 2 : 1);
}
static int l_vsplit(lua_State *L) { return xsplit(L, LGA_FNAME(L), 2, 1); }
static int l_dsplit(lua_State *L) { return xsplit(L, LGA_FNAME(L), 3, 3); }

static const luaL_Reg join_fns[] = {
  {"concatenate", l_concatenate}, {"stack", l_stack}, {"hstack", l_hstack}, {"vstack", l_vstack},
  {"dstack", l_dstack}, {"column_stack", l_column_stack}, {"split", l_split}, {"array_split", l_array_split},
  {"hsplit", l_hsplit}, {"vsplit", l_vsplit}, {"dsplit", l_dsplit}, {NULL, NULL}};

void lga_open_join(lua_State *L) {
  int mod = lua_gettop(L);
  for (int host = 0; host <= 1; host++) {
    lua_newtable(L);
    lga_setfuncs_host(L, join_fns, mod, -1, host);
    lua_setfield(L, mod, host ? "_join_host" : "_join");
  }
  lga_open_select(L);
  lua_settop(L, mod);
}
