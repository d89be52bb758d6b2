/* ga.can_cast, ga.result_type and ga.promote_types: the casting and
 * promotion tables of ga_dtype.c as Lua functions, with Lua numbers as the
 * weak scalars of NEP 50 (the rule the ufuncs apply, ga_elementwise.c). */
#include "binding/lga_core.h"

/* A dtype name, or an array standing for its dtype when arrays_ok. */
static int dtype_arg(lua_State *L, int idx, const char *fname, int arrays_ok) {
  ga_array *a = arrays_ok ? lga_toarray(L, idx) : NULL;
  if (a) return a->dtype;
  if (lua_type(L, idx) != LUA_TSTRING)
    return lga_errorf(L, fname, "bad argument #%d (%s expected, got %s)", idx,
                      arrays_ok ? "dtype name or ndarray" : "dtype name", luaL_typename(L, idx));
  return lga_opt_dtype(L, idx, fname, -1);
}

/* ga.can_cast(from, to, casting="safe") */
static int l_can_cast(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int top = lua_gettop(L);
  if (top < 2 || top > 3)
    return lga_errorf(L, fname, "takes 2 or 3 arguments (from, to, casting), got %d", top);
  if (lua_type(L, 1) == LUA_TNUMBER || lua_type(L, 1) == LUA_TBOOLEAN)
    return lga_errorf(L, fname, "Lua numbers are not supported, the result would depend on the value "
                      "(as in NumPy 2); pass a dtype name or an array");
  int from = dtype_arg(L, 1, fname, 1), to = dtype_arg(L, 2, fname, 0), casting = GA_CAST_SAFE;
  if (!lua_isnoneornil(L, 3)) {
    const char *c = lua_type(L, 3) == LUA_TSTRING ? lua_tostring(L, 3) : NULL;
    if (!c || (casting = ga_casting_from_name(c)) < 0)
      return lga_errorf(L, fname, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'");
  }
  lua_pushboolean(L, ga_can_cast(from, to, casting));
  return 1;
}

/* ga.result_type(...): arrays and dtype names promote by NumPy's n-ary rule
 * (ga_result_type, not pairwise); Lua numbers and booleans are weak: they
 * take the others' dtype when its kind can hold them (an integer next to a
 * bool array gives int64, a float next to an integer array float64), and
 * their default dtypes when alone. */
static int l_result_type(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int n = lua_gettop(L), P = -1, has_int = 0, has_float = 0, nd = 0;
  if (n == 0) return lga_errorf(L, fname, "at least one array, dtype name or number is required");
  int *dts = lua_newuserdatauv(L, sizeof(int) * (size_t)n, 0);   /* collected with the call */
  for (int i = 1; i <= n; i++) {
    switch (lua_type(L, i)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, i)) has_int = 1;
      else has_float = 1;
      break;
    case LUA_TBOOLEAN:
      break;
    case LUA_TSTRING:
    case LUA_TUSERDATA: {
      if (lua_type(L, i) == LUA_TUSERDATA && !lga_toarray(L, i))
        return lga_errorf(L, fname, "bad argument #%d (array, dtype name or number expected, got %s)", i,
                          luaL_typename(L, i));
      dts[nd++] = dtype_arg(L, i, fname, 1);
      break;
    }
    default:
      return lga_errorf(L, fname, "bad argument #%d (array, dtype name or number expected, got %s)", i,
                        luaL_typename(L, i));
    }
  }
  if (nd) P = ga_result_type(nd, dts, sizeof dts[0]);
  if (P < 0) P = has_float ? GA_FLOAT64 : has_int ? GA_INT64 : GA_BOOL;
  if (has_int && GA_KIND(P) == 'b') P = GA_INT64;
  if (has_float && GA_KIND(P) != 'f' && GA_KIND(P) != 'c') P = GA_FLOAT64;
  lua_pushstring(L, ga_dtypes[P].name);
  return 1;
}

/* ga.promote_types(a, b) */
static int l_promote_types(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  if (lua_gettop(L) != 2) return lga_errorf(L, fname, "takes 2 dtype names, got %d arguments", lua_gettop(L));
  int a = dtype_arg(L, 1, fname, 0), b = dtype_arg(L, 2, fname, 0);
  lua_pushstring(L, ga_dtypes[ga_promote(a, b)].name);
  return 1;
}

void lga_open_dtype(lua_State *L) {
  static const luaL_Reg funcs[] = {
    {"can_cast", l_can_cast}, {"result_type", l_result_type}, {"promote_types", l_promote_types},
    {NULL, NULL}};
  lga_setfuncs(L, funcs, -1);
}
