/* Argument helpers of the user-kernel bindings (lga_kernarg.h). */
#include "binding/lga_kernarg.h"
#include <stdio.h>
#include <string.h>

const char *lga_kernel_text(lua_State *L, const char *ctor, int idx, int texts, const char *key,
                            const char *dflt, bool numbers) {
  int t = lua_type(L, idx);
  if (t == LUA_TNONE || t == LUA_TNIL) {
    if (!dflt) { lga_errorf(L, ctor, "%s must be a string, got nil", key); return NULL; }
    lua_pushstring(L, dflt);
  } else if (t == LUA_TNUMBER && numbers) {
    char buf[64];
    if (lua_isinteger(L, idx)) snprintf(buf, sizeof buf, "%lld", (long long)lua_tointeger(L, idx));
    else snprintf(buf, sizeof buf, "%.17g", (double)lua_tonumber(L, idx));
    lua_pushstring(L, buf);
  } else if (t != LUA_TSTRING) {
    lga_errorf(L, ctor, "%s must be a string, got %s", key, luaL_typename(L, idx));
    return NULL;
  } else {
    lua_pushvalue(L, idx);
  }
  size_t n;
  const char *s = lua_tolstring(L, -1, &n);
  if (strlen(s) != n) { lga_errorf(L, ctor, "%s contains a NUL byte", key); return NULL; }
  lua_setfield(L, texts, key);
  lua_getfield(L, texts, key);   /* the stored string: valid while the kernel lives */
  s = lua_tostring(L, -1);
  lua_pop(L, 1);
  return s;
}

lua_Integer lga_kernel_int_option(lua_State *L, int idx, const char *kernel, const char *method, const char *key,
                                  lua_Integer lo, lua_Integer hi, const char *example) {
  char fname[320];
  snprintf(fname, sizeof fname, "%s:%s", kernel, method);   /* truncation only shortens a message */
  int isint = 0;
  lua_Integer v = lua_type(L, idx) == LUA_TNUMBER ? lua_tointegerx(L, idx, &isint) : 0;
  if (!isint) {
    if (lua_type(L, idx) != LUA_TNUMBER)
      lga_errorf(L, fname, "%s must be an integer (e.g. %s), got %s", key, example, luaL_typename(L, idx));
    lga_errorf(L, fname, "%s must be an integer (e.g. %s), got %s", key, example, lua_tostring(L, idx));
  }
  if (v < lo || v > hi)
    lga_errorf(L, fname, "%s must be from %lld to %lld (e.g. %s), got %lld", key, (long long)lo, (long long)hi,
               example, (long long)v);
  return v;
}

int lga_kernel_arch(lua_State *L, int idx, const char *kernel, const char *method) {
  return (int)lga_kernel_int_option(L, idx, kernel, method, "arch", 30, 1000, "90");
}

void lga_kernel_operand(lua_State *L, lga_state *S, const ga_ewk *k, const char *fname, int idx, int a,
                        ga_ewk_operand *o) {
  memset(o, 0, sizeof *o);
  const char *pname = a < k->nin + k->nout ? k->p[a].name : "?";
  switch (lua_type(L, idx)) {
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) { o->kind = GA_EWK_INT; o->i = lua_tointeger(L, idx); }
    else { o->kind = GA_EWK_FLOAT; o->f = lua_tonumber(L, idx); }
    return;
  case LUA_TBOOLEAN:
    o->kind = GA_EWK_BOOL;
    o->i = lua_toboolean(L, idx);
    return;
  case LUA_TUSERDATA: {
    ga_array *arr = lga_toarray(L, idx);
    if (arr) {
      if (!arr->buf) lga_errorf(L, fname, "argument #%d (%s): array has been freed", a + 1, pname);
      if (S) lga_check_current(L, S, arr, fname);
      o->kind = GA_EWK_ARRAY;
      o->arr = arr;
      return;
    }
  } /* fall through */
  default:
    lga_errorf(L, fname, "argument #%d (%s): ndarray, number or boolean expected, got %s", a + 1, pname,
               luaL_typename(L, idx));
  }
}

int lga_kernel_math_option(lua_State *L, const char *ctor, int opts) {
  if (!opts) return 0;
  int t = lua_getfield(L, opts, "math"), m = 0;
  if (t == LUA_TBOOLEAN) m = lua_toboolean(L, -1);
  else if (t == LUA_TSTRING && !strcmp(lua_tostring(L, -1), "complex")) m = 2;
  else if (t != LUA_TNIL) lga_errorf(L, ctor, "option math must be a boolean or \"complex\"");
  lua_pop(L, 1);
  return m;
}
