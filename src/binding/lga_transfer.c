/* Moving data between Lua values, host arrays and device arrays:
 * asarray/array from nested tables, get/set, totable/item, and the
 * summarised table tostring() formats. */
#include "binding/lga_core.h"
#include "cuda/ga_cuda.h"
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
  /* synchronous whenever the host side is involved: host memory may be
   * read or changed by Lua as soon as we return */
  if (ga_cuda_memcpy(device, GA_DATA(dst), sdev, GA_DATA(c), (size_t)src->size * GA_ITEMSIZE(src->dtype),
                     lga_stream(S, sync_dev), device == GA_CPU || sdev == GA_CPU))
    lga_fail(L, fname);
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
  else if (lua_isinteger(L, idx)) {
    lua_Integer v = lua_tointeger(L, idx);
    if (GA_IS_INT(dtype) && !ga_int_fits(dtype, v))
      lga_errorf(L, fname, "Lua integer %lld out of bounds for %s", (long long)v, ga_dtypes[dtype].name);
    ga_scalar_from_int(&s, dtype, v);
  } else ga_scalar_from_double(&s, dtype, lua_tonumber(L, idx));
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
  nest n = {0, {0}, 0};
  scan_shape(L, idx, &n, fname);
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

/* Nested table of a C-contiguous host array; with edge > 0, axes longer
 * than 2*edge keep their first and last `edge` entries around "...". */
static void push_nested(lua_State *L, const ga_array *a, int depth, const char *p, int edge, bool raw) {
  if (depth == a->ndim) { push_elem(L, p, a->dtype, raw); return; }
  int64_t n = a->shape[depth], st = a->strides[depth];
  int summarise = edge > 0 && n > 2 * edge;
  lua_createtable(L, (int)(summarise ? 2 * edge + 1 : n), 0);
  int64_t out = 1;
  for (int64_t i = 0; i < n; i++) {
    if (summarise && i == edge) {
      lua_pushliteral(L, "...");
      lua_rawseti(L, -2, out++);
      i = n - edge;
    }
    push_nested(L, a, depth + 1, p + i * st, edge, raw);
    lua_rawseti(L, -2, out++);
  }
}

/* A host, C-contiguous version of the array at idx (pushed). */
static ga_array *host_contig(lua_State *L, lga_state *S, int idx, const char *fname) {
  ga_array *a = lga_check(L, idx, fname);
  if (GA_DEVICE(a) == GA_CPU && ga_is_c_contiguous(a)) {
    lua_pushvalue(L, idx);
    return a;
  }
  return lga_to_device(L, S, idx, GA_CPU, -1, 1, fname);
}

static int l_totable(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  ga_array *h = host_contig(L, S, 1, "totable");
  push_nested(L, h, 0, GA_DATA(h), 0, false);
  return 1;
}

/* core.repr_table(x, threshold, edge): what format.repr prints */
static int l_repr_table(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, "tostring");
  lua_Integer threshold = luaL_optinteger(L, 2, 1000), edge = luaL_optinteger(L, 3, 3);
  ga_array *h = host_contig(L, S, 1, "tostring");
  push_nested(L, h, 0, GA_DATA(h), a->size > threshold ? (int)edge : 0, true);
  return 1;
}

static int l_item(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, "item");
  if (a->size != 1) return lga_errorf(L, "item", "can only convert an array of size 1 to a Lua value (size is %lld)", (long long)a->size);
  char buf[16];
  if (GA_DEVICE(a) == GA_CPU) memcpy(buf, GA_DATA(a), GA_ITEMSIZE(a->dtype));
  else if (ga_cuda_memcpy(GA_CPU, buf, GA_DEVICE(a), GA_DATA(a), GA_ITEMSIZE(a->dtype), lga_stream(S, GA_DEVICE(a)), 1))
    return lga_fail(L, "item");
  if (GA_IS_COMPLEX(a->dtype)) {
    lua_pushnumber(L, ga_load_double(buf, a->dtype));
    lua_pushnumber(L, ga_load_imag(buf, a->dtype));
    return 2;
  }
  push_elem(L, buf, a->dtype, false);
  return 1;
}

static int l_get(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  lga_check(L, 1, "get");
  lga_to_device(L, S, 1, GA_CPU, -1, 1, "get");
  return 1;
}

static int l_set(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  ga_array *x = lga_check(L, 1, "set");
  ga_array *src = lga_from_value(L, S, 2, GA_DEVICE(x), lga_toarray(L, 2) ? -1 : x->dtype, 0, "set");
  if (src->ndim != x->ndim || memcmp(src->shape, x->shape, sizeof(int64_t) * x->ndim)) {
    char s1[512], s2[512];
    return lga_errorf(L, "set", "shape mismatch: source %s, destination %s",
                      ga_shape_str(src->ndim, src->shape, s1, sizeof s1), ga_shape_str(x->ndim, x->shape, s2, sizeof s2));
  }
  lga_run_copy(L, S, x, src, "set");
  lua_settop(L, 1);
  return 1;
}

void lga_open_transfer(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"totable", l_totable}, {"repr_table", l_repr_table}, {"item", l_item}, {"get", l_get}, {"set", l_set},
    {NULL, NULL}};
  lga_setfuncs(L, fns, -1);
}
