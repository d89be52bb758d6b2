/* Moving data between Lua values, host arrays and device arrays:
 * asarray/array from nested tables, get/set, totable/item, and the
 * summarised table tostring() formats. */
#include "binding/lga_core.h"
#include "base/ga_checked.h"
#include "core/ga_backend.h"
#include "core/ga_dist.h"
#include <math.h>
#include <string.h>

void lga_run_fill(lua_State *L, lga_state *S, ga_array *out, const ga_operand *v, const char *fname) {
  if (ga_fill(out, v, lga_stream(S, GA_DEVICE(out)))) lga_fail(L, fname);
}

void lga_run_copy(lua_State *L, lga_state *S, ga_array *dst, const ga_array *src, const char *fname) {
  if (ga_copy(dst, src, lga_stream(S, GA_DEVICE(dst)))) lga_fail(L, fname);
}

ga_array *lga_to_device(lua_State *L, lga_state *S, int src_idx, int device, int dtype, int force_copy,
                        const char *fname) {
  src_idx = lua_absindex(L, src_idx);
  ga_array *src = lga_check(L, src_idx, fname);
  if (dtype < 0) dtype = src->dtype;
  int sdev = GA_DEVICE(src);
  if (sdev == device) {
    if (!force_copy && dtype == src->dtype) {
      lua_pushvalue(L, src_idx);
      return src;
    }
    ga_array *out = lga_new_array(L, S, fname, device, dtype, src->ndim, src->shape);
    lga_run_copy(L, S, out, src, fname);
    return out;
  }
  int top = lua_gettop(L);
  const ga_array *c = src;
  if (!ga_is_c_contiguous(src)) {   /* contiguous on its own side first */
    ga_array *t = lga_new_array(L, S, fname, sdev, src->dtype, src->ndim, src->shape);
    lga_run_copy(L, S, t, src, fname);
    c = t;
  }
  ga_array *dst = lga_new_array(L, S, fname, device, src->dtype, src->ndim, src->shape);
  int sync_dev = device != GA_CPU ? device : sdev;
  size_t nbytes = (size_t)src->size * GA_ITEMSIZE(src->dtype);
  if (device != GA_CPU && sdev != GA_CPU) {
    /* GPU to GPU: peer to peer (or staged through pinned host memory),
     * ordered by events between the two devices' current streams */
    if (ga_peer_copy(device, GA_DATA(dst), lga_stream(S, device), sdev, GA_DATA(c), lga_stream(S, sdev), nbytes))
      lga_fail(L, fname);
  } else if (ga_memcpy(device, GA_DATA(dst), sdev, GA_DATA(c), nbytes, lga_stream(S, sync_dev),
                       device == GA_CPU || sdev == GA_CPU)) {
    /* synchronous whenever the host side is involved: host memory may be
     * read or changed by Lua as soon as we return */
    lga_fail(L, fname);
  }
  if (dtype != src->dtype) {
    ga_array *out = lga_new_array(L, S, fname, device, dtype, src->ndim, src->shape);
    lga_run_copy(L, S, out, dst, fname);
    dst = out;
  }
  if (lua_gettop(L) != top + 1) {
    lua_replace(L, top + 1);
    lua_settop(L, top + 1);
  }
  return dst;
}

/* ---- nested tables ---- */

typedef struct nest { int ndim; int64_t shape[GA_MAXDIM]; int kind; /* 0 bool 1 int 2 float */ } nest;

/* The recursions below hold one value per level on the Lua stack (plus a
 * leaf and its parts); a C function is only promised LUA_MINSTACK slots, and
 * a coroutine's stack starts small, so grow it first (up to 32 levels). */
static void reserve_levels(lua_State *L, int ndim, const char *fname) {
  if (!lua_checkstack(L, ndim + 8)) lga_errorf(L, fname, "stack overflow (%d nested levels)", ndim);
}

/* A table size hint: the real length, within reason (a hint of 2^31 would
 * make Lua allocate and clear 32 GB before the first store). */
static int size_hint(int64_t n) {
  return n < (1 << 16) ? (int)n : 1 << 16;
}

static void scan_shape(lua_State *L, int idx, nest *n, const char *fname) {
  n->ndim = 0;
  lua_pushvalue(L, idx);
  while (lua_type(L, -1) == LUA_TTABLE && !lga_toarray(L, -1)) {
    if (n->ndim == GA_MAXDIM) lga_errorf(L, fname, "nested table is deeper than %d levels", GA_MAXDIM);
    int64_t len = (int64_t)lua_rawlen(L, -1);
    n->shape[n->ndim++] = len;
    if (len == 0) break;
    lua_rawgeti(L, -1, 1);
    lua_remove(L, -2);
  }
  lua_pop(L, 1);
}

/* Check rectangularity and leaf types; find the natural dtype. */
static void check_nest(lua_State *L, int idx, nest *n, int depth, const char *fname) {
  if (depth == n->ndim) {
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: break;
    case LUA_TNUMBER: {
      int k = lua_isinteger(L, idx) ? 1 : 2;
      if (k > n->kind) n->kind = k;
      break;
    }
    case LUA_TTABLE:
      lga_errorf(L, fname, "ragged nested table (inhomogeneous shape after %d dimension%s)", depth,
                 depth == 1 ? "" : "s");
      break;
    default:
      lga_errorf(L, fname, "non-numeric value (%s) in nested table", luaL_typename(L, idx));
    }
    return;
  }
  if (lua_type(L, idx) != LUA_TTABLE || (int64_t)lua_rawlen(L, idx) != n->shape[depth])
    lga_errorf(L, fname, "ragged nested table (inhomogeneous shape after %d dimension%s)", depth,
               depth == 1 ? "" : "s");
  for (int64_t i = 1; i <= n->shape[depth]; i++) {
    lua_rawgeti(L, idx, i);
    check_nest(L, lua_gettop(L), n, depth + 1, fname);
    lua_pop(L, 1);
  }
}

static void store_value(lua_State *L, int idx, int dtype, char *p, const char *fname) {
  ga_scalar s;
  if (lua_type(L, idx) == LUA_TBOOLEAN) ga_scalar_from_int(&s, dtype, lua_toboolean(L, idx));
  else {
    lga_check_number(L, idx, dtype, fname);
    if (lua_isinteger(L, idx)) ga_scalar_from_int(&s, dtype, lua_tointeger(L, idx));
    else ga_scalar_from_double(&s, dtype, lua_tonumber(L, idx));
  }
  memcpy(p, s.bytes, GA_ITEMSIZE(dtype));
}

static char *fill_nest(lua_State *L, int idx, const nest *n, int depth, int dtype, char *p, const char *fname) {
  if (depth == n->ndim) {
    store_value(L, idx, dtype, p, fname);
    return p + GA_ITEMSIZE(dtype);
  }
  for (int64_t i = 1; i <= n->shape[depth]; i++) {
    lua_rawgeti(L, idx, i);
    p = fill_nest(L, lua_gettop(L), n, depth + 1, dtype, p, fname);
    lua_pop(L, 1);
  }
  return p;
}

static const int kind_dtype[] = {GA_BOOL, GA_INT64, GA_FLOAT64};

ga_array *lga_from_value(lua_State *L, lga_state *S, int idx, int device, int dtype, int force_copy,
                         const char *fname) {
  idx = lua_absindex(L, idx);
  if (lga_toarray(L, idx)) return lga_to_device(L, S, idx, device, dtype, force_copy, fname);
  int t = lua_type(L, idx);
  if (t != LUA_TTABLE && t != LUA_TNUMBER && t != LUA_TBOOLEAN)
    lga_errorf(L, fname, "cannot make an array from a %s", luaL_typename(L, idx));
  if (t == LUA_TTABLE && luaL_getmetafield(L, idx, "__ga_fuse") != LUA_TNIL)
    lga_errorf(L, fname, "a traced array of ga.fuse cannot be used here (%s cannot be fused)", fname);
  nest n = {0, {0}, 0};
  scan_shape(L, idx, &n, fname);
  reserve_levels(L, n.ndim, fname);
  check_nest(L, idx, &n, 0, fname);
  if (dtype < 0) {
    dtype = kind_dtype[n.kind];
    /* no leaves at all ({} or {{}, {}}): float64, as NumPy */
    for (int i = 0; i < n.ndim; i++)
      if (n.shape[i] == 0) dtype = GA_FLOAT64;
  }
  ga_array *h = lga_new_array(L, S, fname, GA_CPU, dtype, n.ndim, n.shape);
  fill_nest(L, idx, &n, 0, dtype, GA_DATA(h), fname);
  if (device == GA_CPU) return h;
  ga_array *d = lga_to_device(L, S, -1, device, dtype, 0, fname);
  lua_remove(L, -2);
  return d;
}

/* ---- reading back ---- */

/* raw: uint64 values above INT64_MAX as their (negative) bit pattern, for
 * the formatter, which prints them exactly; otherwise as floats */
static void push_elem(lua_State *L, const char *p, int dt, bool raw) {
  switch (GA_KIND(dt)) {
  case 'b': lua_pushboolean(L, *(const unsigned char *)p != 0); break;
  case 'i': lua_pushinteger(L, ga_load_int(p, dt)); break;
  case 'u':
    if (dt == GA_UINT64) {
      uint64_t v;
      memcpy(&v, p, 8);
      if (v > (uint64_t)INT64_MAX && !raw) lua_pushnumber(L, (lua_Number)v);
      else lua_pushinteger(L, (lua_Integer)v);
    } else lua_pushinteger(L, ga_load_int(p, dt));
    break;
  case 'f': lua_pushnumber(L, ga_load_double(p, dt)); break;
  default:
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, ga_load_double(p, dt));
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, ga_load_imag(p, dt));
    lua_rawseti(L, -2, 2);
  }
}

/* What push_nested walks: strided host memory; on a `cut` axis only the
 * first and last `edge` entries, around one "..." entry. */
typedef struct walk {
  int ndim, dtype;
  bool raw;
  int64_t edge;
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  bool cut[GA_MAXDIM];
} walk;

static void walk_init(walk *w, const ga_array *a, bool raw) {
  w->ndim = a->ndim;
  w->dtype = a->dtype;
  w->raw = raw;
  w->edge = 0;
  memcpy(w->shape, a->shape, sizeof(int64_t) * a->ndim);
  memcpy(w->strides, a->strides, sizeof(int64_t) * a->ndim);
  memset(w->cut, 0, sizeof w->cut);
}

/* Needs w->ndim + 3 stack slots (reserve_levels). */
static void push_nested(lua_State *L, const walk *w, int depth, const char *p) {
  if (depth == w->ndim) { push_elem(L, p, w->dtype, w->raw); return; }
  int64_t n = w->shape[depth], st = w->strides[depth];
  bool cut = w->cut[depth];
  lua_createtable(L, size_hint(cut ? 2 * w->edge + 1 : n), 0);
  lua_Integer out = 1;
  for (int64_t i = 0; i < n; i++) {
    if (cut && i == w->edge) {
      lua_pushliteral(L, "...");
      lua_rawseti(L, -2, out++);
      i = n - w->edge;
    }
    push_nested(L, w, depth + 1, p + i * st);
    lua_rawseti(L, -2, out++);
  }
}

/* Copy the shown part of sv into dv (whose cut axes are 2*e long).  Each cut
 * axis becomes two axes of a view, (2, e) with strides ((n-e)*s, s), so one
 * ga_copy does it; when that would pass GA_MAXDIM axes, the first `excess`
 * cut axes are walked in their two halves instead. */
static int copy_shown(const ga_array *dv, const ga_array *sv, bool *cut, int64_t e, int excess, void *stream) {
  if (excess > 0) {
    int i = 0;
    while (!cut[i]) i++;
    cut[i] = false;
    int rc = 0;
    for (int h = 0; h < 2 && !rc; h++) {
      ga_array d2 = *dv, s2 = *sv;
      d2.shape[i] = s2.shape[i] = e;
      d2.size = s2.size = dv->size / 2;
      d2.offset += h * e * dv->strides[i];
      s2.offset += h * (sv->shape[i] - e) * sv->strides[i];
      rc = copy_shown(&d2, &s2, cut, e, excess - 1, stream);
    }
    cut[i] = true;
    return rc;
  }
  ga_array d2 = *dv, s2 = *sv;
  int k = 0;
  for (int i = 0; i < dv->ndim; i++) {
    if (cut[i]) {
      d2.shape[k] = s2.shape[k] = 2;
      d2.strides[k] = e * dv->strides[i];
      s2.strides[k++] = (sv->shape[i] - e) * sv->strides[i];
      d2.shape[k] = s2.shape[k] = e;
    } else d2.shape[k] = s2.shape[k] = dv->shape[i];
    d2.strides[k] = dv->strides[i];
    s2.strides[k++] = sv->strides[i];
  }
  d2.ndim = s2.ndim = k;
  s2.size = d2.size = dv->size;
  return ga_copy(&d2, &s2, stream);
}

/* Device array a (stack index idx): push a host array with only its shown
 * elements (cut axes 2*edge long) and point w at it: O(shown) work. */
static const char *device_shown(lua_State *L, lga_state *S, int idx, walk *w, const char *fname) {
  ga_array *a = lga_toarray(L, idx);
  int dev = GA_DEVICE(a), ncut = 0;
  for (int i = 0; i < w->ndim; i++) {
    if (w->cut[i]) w->shape[i] = 2 * w->edge, ncut++;
  }
  ga_array *d = lga_new_array(L, S, fname, dev, a->dtype, a->ndim, w->shape);
  int excess = a->ndim + ncut - GA_MAXDIM;
  if (copy_shown(d, a, w->cut, w->edge, excess > 0 ? excess : 0, lga_stream(S, dev))) lga_fail(L, fname);
  ga_array *h = lga_to_device(L, S, -1, GA_CPU, -1, 0, fname);
  memcpy(w->strides, h->strides, sizeof(int64_t) * h->ndim);
  return GA_DATA(h);
}

/* Lua tables hold at most about 2^31 array entries (MAXASIZE).  An empty
 * array's tables hold no data, so their count is bounded by what is
 * reasonable (16M empty tables, about 1 GB) rather than by the array's own
 * memory, as a non-empty array's are. */
#define TOTABLE_MAX_TABLES ((int64_t)1 << 31)
#define TOTABLE_MAX_EMPTY ((int64_t)1 << 24)

static int l_totable(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, fname);
  reserve_levels(L, a->ndim, fname);
  /* the nested tables hold every leading index, even of an empty array:
   * refuse what no Lua table can hold (and what would exhaust memory one
   * empty table at a time) before making any */
  int64_t tables = 1, level = 1, most = a->size ? TOTABLE_MAX_TABLES : TOTABLE_MAX_EMPTY;
  for (int d = 0; d + 1 < a->ndim; d++) {
    if (!ga_mul_i64(level, a->shape[d], &level) || !ga_add_i64(tables, level, &tables) || tables > most)
      return lga_errorf(L, fname, "the nested tables would be too many for Lua (shape %s)",
                        ga_shape_str(a->ndim, a->shape, (char[512]){0}, 512));
  }
  if (a->ndim > 0 && level > 0 && a->shape[a->ndim - 1] > TOTABLE_MAX_TABLES)
    return lga_errorf(L, fname, "an axis of %lld is too long for a Lua table", (long long)a->shape[a->ndim - 1]);
  if (GA_DEVICE(a) != GA_CPU) a = lga_to_device(L, S, 1, GA_CPU, -1, 1, fname);
  walk w;
  walk_init(&w, a, false);
  push_nested(L, &w, 0, GA_DATA(a));
  return 1;
}

/* core.repr_table(x, threshold, edge): what format.repr prints, or nil for
 * a freed array.  Costs O(shown elements) whatever the size. */
static int l_repr_table(lua_State *L) {
  const char *fname = "tostring";
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_toarray(L, 1);
  if (!a) lga_check(L, 1, fname);
  if (!a->buf) { lua_pushnil(L); return 1; }
  lua_Integer threshold = luaL_optinteger(L, 2, 1000), edge = luaL_optinteger(L, 3, 3);
  if (a->size == 0) { lua_newtable(L); return 1; }   /* prints as [] */
  reserve_levels(L, a->ndim, fname);
  walk w;
  walk_init(&w, a, true);
  if (a->size > threshold && edge > 0 && edge < ((int64_t)1 << 40)) {
    w.edge = edge;
    for (int i = 0; i < a->ndim; i++) w.cut[i] = a->shape[i] > 2 * edge;
  }
  const char *p = GA_DEVICE(a) == GA_CPU ? GA_DATA(a) : device_shown(L, S, 1, &w, fname);
  push_nested(L, &w, 0, p);
  return 1;
}

static int l_item(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, fname);
  if (a->size != 1) return lga_errorf(L, fname, "can only convert an array of size 1 to a Lua value (size is %lld)", (long long)a->size);
  char buf[16];
  if (GA_DEVICE(a) == GA_CPU) memcpy(buf, GA_DATA(a), GA_ITEMSIZE(a->dtype));
  else if (ga_memcpy(GA_CPU, buf, GA_DEVICE(a), GA_DATA(a), GA_ITEMSIZE(a->dtype), lga_stream(S, GA_DEVICE(a)), 1))
    return lga_fail(L, fname);
  if (GA_IS_COMPLEX(a->dtype)) {
    lua_pushnumber(L, ga_load_double(buf, a->dtype));
    lua_pushnumber(L, ga_load_imag(buf, a->dtype));
    return 2;
  }
  push_elem(L, buf, a->dtype, false);
  return 1;
}

static int l_get(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  lga_check(L, 1, fname);
  lga_to_device(L, S, 1, GA_CPU, -1, 1, fname);
  return 1;
}

static int l_set(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  ga_array *x = lga_check(L, 1, fname);
  ga_array *src = lga_from_value(L, S, 2, GA_DEVICE(x), lga_toarray(L, 2) ? -1 : x->dtype, 0, fname);
  if (src->ndim != x->ndim || memcmp(src->shape, x->shape, sizeof(int64_t) * x->ndim)) {
    char s1[512], s2[512];
    return lga_errorf(L, fname, "shape mismatch: source %s, destination %s",
                      ga_shape_str(src->ndim, src->shape, s1, sizeof s1), ga_shape_str(x->ndim, x->shape, s2, sizeof s2));
  }
  lga_run_copy(L, S, x, src, fname);
  lua_settop(L, 1);
  return 1;
}

void lga_open_transfer(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"totable", l_totable}, {"repr_table", l_repr_table}, {"item", l_item}, {"get", l_get}, {"set", l_set},
    {NULL, NULL}};
  lga_setfuncs(L, fns, -1);
}
