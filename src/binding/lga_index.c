/* x[key] and x[key] = value: basic indexing (integers, inclusive ranges
 * {start, stop, step}, ga.newaxis, ga.ellipsis) makes views in C here; a key
 * with an index array or mask goes to the advanced indexer, registered in
 * the methods table as __advget / __advset. */
#include "binding/lga_core.h"
#include "base/ga_index.h"
#include <math.h>
#include <string.h>

/* ga.newaxis and ga.ellipsis: light userdata with these addresses */
static const char newaxis_tag, ellipsis_tag;

static bool is_tag(lua_State *L, int idx, const char *tag) {
  return lua_type(L, idx) == LUA_TLIGHTUSERDATA && lua_touserdata(L, idx) == (void *)tag;
}

/* A number with an integral value; a string never is an index, even a
 * numeric one (lua_tointegerx would convert "2"; NumPy refuses '2'). */
static int64_t to_index(lua_State *L, int idx, int type, const char *fname, const char *what) {
  int ok = 0;   /* type: the caller already has it (a string that looks like a number is no index) */
  lua_Integer v = type == LUA_TNUMBER ? lua_tointegerx(L, idx, &ok) : 0;
  if (!ok)
    return lga_errorf(L, fname, "%s must be an integer, got %s", what,
                      type == LUA_TNUMBER ? "a non-integral number" : luaL_typename(L, idx));
  return v;
}

/* One element of a key. */
static void parse_item(lua_State *L, int idx, ga_index_item *it, const char *fname) {
  idx = lua_absindex(L, idx);
  memset(it, 0, sizeof *it);
  int t;
  switch (lua_type(L, idx)) {
  case LUA_TNUMBER:
    it->kind = GA_IDX_INT;
    it->i = to_index(L, idx, LUA_TNUMBER, fname, "an index");
    return;
  case LUA_TTABLE:
    /* {}, {start}, {start, stop}, {start, stop, step}; nil = axis end */
    it->kind = GA_IDX_RANGE;
    it->step = 1;
    if ((t = lua_rawgeti(L, idx, 3)) != LUA_TNIL) it->step = to_index(L, -1, t, fname, "a range's step");
    if ((t = lua_rawgeti(L, idx, 1)) != LUA_TNIL) it->has_start = true, it->start = to_index(L, -1, t, fname, "a range's start");
    if ((t = lua_rawgeti(L, idx, 2)) != LUA_TNIL) it->has_stop = true, it->stop = to_index(L, -1, t, fname, "a range's stop");
    lua_pop(L, 3);
    if (it->step == 0) lga_errorf(L, fname, "a range's step cannot be zero");
    /* 0 is no position: {0, 2} would silently be empty where NumPy's [0:2] is not */
    if ((it->has_start && it->start == 0) || (it->has_stop && it->stop == 0))
      lga_errorf(L, fname, "a range bound is 0, but indices are 1-based: {1, n} is the first n, {-n, -1} the last n "
                 "(a nil bound is the end of the axis)");
    return;
  case LUA_TLIGHTUSERDATA:
    if (is_tag(L, idx, &newaxis_tag)) { it->kind = GA_IDX_NEWAXIS; return; }
    if (is_tag(L, idx, &ellipsis_tag)) { it->kind = GA_IDX_ELLIPSIS; return; }
    break;
  case LUA_TUSERDATA: {
    ga_array *a = lga_toarray(L, idx);
    if (a) {
      if (!a->buf) lga_errorf(L, fname, "index array has been freed");
      it->kind = GA_IDX_ARRAY;
      it->arr = a;
      return;
    }
    break;
  }
  default:
    break;
  }
  lga_errorf(L, fname, "bad index (an integer, a range table {start, stop, step}, ga.newaxis, ga.ellipsis "
             "or an index array expected, got %s)", luaL_typename(L, idx));
}

/* Every index array of the key is pushed, in key order: items[k].arr must
 * not outlive it on the stack.  The key table alone does not keep it alive
 * (a weak table, or a finalizer that edits the key, lets a GC step inside
 * the caller's next allocation free it). */
int lga_parse_key(lua_State *L, int key, ga_index_item *items, int max, const char *fname) {
  key = lua_absindex(L, key);
  /* a table whose first element is a number/nil with length <= 3 would be
   * ambiguous as a range: a key's top-level table is always the tuple */
  if (lua_type(L, key) != LUA_TTABLE) {
    parse_item(L, key, &items[0], fname);
    if (items[0].kind == GA_IDX_ARRAY) lua_pushvalue(L, key);
    return 1;
  }
  lua_Unsigned n = lua_rawlen(L, key);
  if (n > (lua_Unsigned)max) return lga_errorf(L, fname, "too many indices (%d at most)", max);
  /* each item pushes at most 4 values and pops them again, except an index
   * array, which stays as its anchor: only then does the stack grow, so the
   * reservation is made there (a basic slice pays for none); the first 4
   * slots are among the LUA_MINSTACK that Lua gives every C function, whose
   * callers (getitem, setitem, the advanced planner) have pushed at most 4 */
  for (lua_Unsigned k = 1; k <= n; k++) {
    if (lua_rawgeti(L, key, (lua_Integer)k) == LUA_TNIL)
      return lga_errorf(L, fname, "index %d of the key is nil", (int)k);
    parse_item(L, -1, &items[k - 1], fname);
    if (items[k - 1].kind != GA_IDX_ARRAY) lua_pop(L, 1);
    else luaL_checkstack(L, 4, fname);   /* an array stays: the anchor */
  }
  return (int)n;
}

static bool has_array(const ga_index_item *items, int n) {
  for (int k = 0; k < n; k++)
    if (items[k].kind == GA_IDX_ARRAY) return true;
  return false;
}

/* Hand the key to the advanced indexer (methods.__advget / __advset). */
static int advanced(lua_State *L, const char *hook, int nargs) {
  lua_getfield(L, LUA_REGISTRYINDEX, "gpuarray.ndarray_methods");
  if (lua_getfield(L, -1, hook) != LUA_TFUNCTION)
    return lga_errorf(L, nargs == 2 ? "getitem" : "setitem", "indexing with index arrays is not available");
  lua_insert(L, 1);
  lua_pop(L, 1);
  lua_call(L, nargs, nargs == 2 ? 1 : 0);
  return nargs == 2 ? 1 : 0;
}

/* x[key] (stack: x, key) */
int lga_getitem(lua_State *L) {
  ga_array *a = lga_check(L, 1, "getitem");
  ga_index_item items[2 * GA_MAXDIM];
  int n = lga_parse_key(L, 2, items, 2 * GA_MAXDIM, "getitem");
  if (has_array(items, n)) {
    lua_settop(L, 2);   /* the hook parses (and anchors) the key itself */
    return advanced(L, "__advget", 2);
  }
  ga_array *v = lga_new_view(L, 1);
  if (ga_index_basic(a, items, n, v)) return lga_fail(L, "getitem");
  return 1;
}

/* x[key] = value (stack: x, key, value) */
int lga_setitem(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, "setitem");
  ga_index_item items[2 * GA_MAXDIM];
  int n = lga_parse_key(L, 2, items, 2 * GA_MAXDIM, "setitem");
  if (has_array(items, n)) {
    lua_settop(L, 3);
    return advanced(L, "__advset", 3);
  }
  ga_array *v = lga_new_view(L, 1);
  if (ga_index_basic(a, items, n, v)) return lga_fail(L, "setitem");
  lga_assign(L, S, v, 3, "setitem");
  return 0;
}

void lga_assign(lua_State *L, lga_state *S, ga_array *dst, int value, const char *fname) {
  value = lua_absindex(L, value);
  int t = lua_type(L, value);
  if (t == LUA_TNUMBER || t == LUA_TBOOLEAN) {
    /* a Lua value is cast to dst's dtype, as NumPy's x[...] = v */
    ga_operand o = {GA_ARG_INT, NULL, 0, 0};
    if (t == LUA_TBOOLEAN) o.i = lua_toboolean(L, value);
    else if (lua_isinteger(L, value)) o.i = lua_tointeger(L, value);
    else o.kind = GA_ARG_FLOAT, o.f = lua_tonumber(L, value);
    if (t == LUA_TNUMBER) lga_check_number(L, value, dst->dtype, fname);
    lga_run_fill(L, S, dst, &o, fname);
    return;
  }
  ga_array *src = lga_toarray(L, value);
  if (src && !src->buf) lga_errorf(L, fname, "value array has been freed");
  if (!src || GA_DEVICE(src) != GA_DEVICE(dst)) {
    /* a table, or an array on another device: onto dst's device first */
    src = lga_from_value(L, S, value, GA_DEVICE(dst), dst->dtype, 0, fname);
  }
  /* NumPy drops the value's leading length-1 axes that dst lacks
   * (x[1] = ga.array({5}), a[1] = ones({1, 3})) */
  ga_array trimmed;
  if (src->ndim > dst->ndim) {
    int extra = src->ndim - dst->ndim, d = 0;
    while (d < extra && src->shape[d] == 1) d++;
    if (d == extra) {
      trimmed = *src;
      trimmed.ndim = dst->ndim;
      memmove(trimmed.shape, src->shape + extra, sizeof(int64_t) * dst->ndim);
      memmove(trimmed.strides, src->strides + extra, sizeof(int64_t) * dst->ndim);
      src = &trimmed;
    }
  }
  lga_run_copy(L, S, dst, src, fname);
}

void lga_open_index(lua_State *L) {
  int mod = lua_gettop(L);
  lua_pushlightuserdata(L, (void *)&newaxis_tag);
  lua_setfield(L, mod, "newaxis");
  lua_pushlightuserdata(L, (void *)&ellipsis_tag);
  lua_setfield(L, mod, "ellipsis");
}
