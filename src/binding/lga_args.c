/* Argument helpers shared by the binding: dtypes, shapes, option tables. */
#include "binding/lga_core.h"
#include "base/ga_checked.h"
#include <math.h>
#include <string.h>

/* dtype names already seen -> dtype, in a registry table: Lua strings are
 * interned, so this is one hash lookup instead of a scan of the names. */
static const char dtype_cache_key = 0;

int lga_opt_dtype(lua_State *L, int idx, const char *fname, int dflt) {
  if (lua_isnoneornil(L, idx)) return dflt;
  if (lua_type(L, idx) == LUA_TNUMBER)   /* zeros(3, 4): the trap of a shape in two arguments */
    return lga_errorf(L, fname, "dtype must be a string such as \"float32\", got number "
                      "(a shape is one table: %s({3, 4}), not %s(3, 4))", fname, fname);
  if (lua_type(L, idx) != LUA_TSTRING)
    return lga_errorf(L, fname, "dtype must be a string such as \"float32\", got %s", luaL_typename(L, idx));
  idx = lua_absindex(L, idx);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &dtype_cache_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &dtype_cache_key);
  }
  lua_pushvalue(L, idx);
  if (lua_rawget(L, -2) == LUA_TNUMBER) {
    int dt = (int)lua_tointeger(L, -1);
    lua_pop(L, 2);
    return dt;
  }
  lua_pop(L, 1);
  const char *name = lua_tostring(L, idx);
  int dt = ga_dtype_from_name(name);
  if (dt < 0) {
    const char *near = ga_dtype_closest(name);
    if (near) return lga_errorf(L, fname, "unknown dtype '%s' (did you mean '%s'?)", name, near);
    return lga_errorf(L, fname, "unknown dtype '%s'", name);
  }
  lua_pushvalue(L, idx);
  lua_pushinteger(L, dt);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  return dt;
}

static int64_t dim_value(lua_State *L, int idx, const char *fname) {
  if (lua_type(L, idx) != LUA_TNUMBER)
    return lga_errorf(L, fname, "dimensions must be integers, got %s", luaL_typename(L, idx));
  lua_Integer v;
  if (!lua_isinteger(L, idx)) {
    lua_Number f = lua_tonumber(L, idx);
    /* a whole float past int64 (2^63, 1e300) is a length, just too big */
    if (f == floor(f) && f >= 0x1p63 && f < HUGE_VAL) return lga_errorf(L, fname, "%s", GA_TOO_BIG);
    if (f == floor(f) && f < -0x1p63 && f > -HUGE_VAL)
      return lga_errorf(L, fname, "negative dimensions are not allowed");
    if (!lua_numbertointeger(f, &v) || (lua_Number)v != f)
      return lga_errorf(L, fname, "dimensions must be integers, got %s", lua_tostring(L, idx));
  } else {
    v = lua_tointeger(L, idx);
  }
  if (v < 0) return lga_errorf(L, fname, "negative dimensions are not allowed");
  return v;
}

int lga_get_shape(lua_State *L, int idx, const char *fname, int64_t *shape) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) == LUA_TNUMBER) {
    shape[0] = dim_value(L, idx, fname);
    return 1;
  }
  if (lua_type(L, idx) != LUA_TTABLE || lga_toarray(L, idx))
    return lga_errorf(L, fname, "shape must be an integer or a table of integers, got %s", luaL_typename(L, idx));
  lua_Unsigned len = lua_rawlen(L, idx);
  if (len > GA_MAXDIM)
    return lga_errorf(L, fname, "maximum supported dimension for an ndarray is %d, found %llu", GA_MAXDIM,
                      (unsigned long long)len);
  int n = (int)len;
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, idx, i + 1);
    shape[i] = dim_value(L, -1, fname);
    lua_pop(L, 1);
  }
  int64_t size;
  if (ga_shape_size(n, shape, 1, &size)) lga_fail(L, fname);
  return n;
}

void lga_check_options(lua_State *L, int idx, const char *fname, const char *const *allowed) {
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    int ok = 0;
    if (lua_type(L, -1) == LUA_TSTRING)
      for (int i = 0; allowed[i] && !ok; i++) ok = strcmp(lua_tostring(L, -1), allowed[i]) == 0;
    if (!ok) {
      lua_pushvalue(L, -1);
      return (void)lga_errorf(L, fname, "unknown option '%s'", luaL_tolstring(L, -1, NULL));
    }
  }
}

int lga_read_axes(lua_State *L, int idx, const char *fname, int ndim, int64_t *axes) {
  if (lua_isnoneornil(L, idx) || (lua_isboolean(L, idx) && !lua_toboolean(L, idx))) return -1;
  if (lua_isinteger(L, idx)) { axes[0] = lua_tointeger(L, idx); return 1; }
  if (lua_type(L, idx) != LUA_TTABLE)
    return lga_errorf(L, fname, "axis must be an integer or a table of integers, got %s", luaL_typename(L, idx));
  lua_Unsigned len = lua_rawlen(L, idx);
  if (ndim >= 0 && len > (lua_Unsigned)ndim)
    return lga_errorf(L, fname, "%llu axes given for an array of %d dimensions", (unsigned long long)len, ndim);
  if (len > GA_MAXDIM) return lga_errorf(L, fname, "%llu axes given (at most %d)", (unsigned long long)len, GA_MAXDIM);
  int n = (int)len;
  for (int j = 0; j < n; j++) {
    lua_rawgeti(L, idx, j + 1);
    if (!lua_isinteger(L, -1)) lga_errorf(L, fname, "axis must be an integer or a table of integers");
    axes[j] = lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  return n;
}

void lga_setfuncs_host(lua_State *L, const luaL_Reg *l, int mod, int table_idx, int host) {
  mod = lua_absindex(L, mod);
  table_idx = lua_absindex(L, table_idx);
  for (; l->name; l++) {
    lua_getfield(L, mod, "_state");
    lua_pushboolean(L, host);
    lua_pushstring(L, l->name);
    lua_pushcclosure(L, l->func, 3);
    lua_setfield(L, table_idx, l->name);
  }
}

void lga_setfuncs(lua_State *L, const luaL_Reg *l, int table_idx) {
  lga_setfuncs_host(L, l, table_idx, table_idx, 0);
}

/* A Lua value stored into dtype dt must fit it, as NumPy's OverflowError for
 * Python numbers: never a wrap, never C's undefined float -> int cast.  In
 * range, a float truncates toward zero (NumPy).  The one check behind
 * array(), full(), fill(), arange/linspace and x[...] = v. */
void lga_check_fits(lua_State *L, const ga_operand *v, int dt, const char *fname) {
  if (!GA_IS_INT(dt)) return;
  if (v->kind == GA_ARG_INT && !ga_int_fits(dt, v->i))
    lga_errorf(L, fname, "Lua integer %lld out of bounds for %s", (long long)v->i, ga_dtypes[dt].name);
  if (v->kind != GA_ARG_FLOAT || ga_double_fits(dt, v->f)) return;
  if (v->f != v->f) lga_errorf(L, fname, "cannot convert float NaN to integer");
  if (v->f == HUGE_VAL || v->f == -HUGE_VAL) lga_errorf(L, fname, "cannot convert float infinity to integer");
  lua_pushnumber(L, v->f);   /* spelled as Lua prints it: 128.0, 1e+300 */
  lga_errorf(L, fname, "Lua number %s out of bounds for %s", lua_tostring(L, -1), ga_dtypes[dt].name);
}

void lga_check_number(lua_State *L, int idx, int dt, const char *fname) {
  if (lua_type(L, idx) != LUA_TNUMBER) return;
  ga_operand v = {GA_ARG_INT, NULL, 0, 0};
  if (lua_isinteger(L, idx)) v.i = lua_tointeger(L, idx);
  else v.kind = GA_ARG_FLOAT, v.f = lua_tonumber(L, idx);
  lga_check_fits(L, &v, dt, fname);
}
