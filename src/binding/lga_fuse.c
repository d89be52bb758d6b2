/* The C half of ga.fuse (lua/gpuarray/fuse.lua traces and generates; this
 * file answers its questions with the one elementwise pipeline's own
 * rules, so a fused op resolves exactly as the eager call would):
 *   core._fuse_resolve(opname, a1, ...)  the loop of op row `opname` for
 *     operands that are dtype names (arrays) or Lua numbers/booleans (weak
 *     scalars, NEP 50): the loop's input and output dtypes, the row's
 *     expression and arity -- ga_ew_prepare on 0-d virtual arrays;
 *   core._fuse_ctype(dtype)  the CUDA storage and compute type names and the
 *     dtype's canonical name.
 * The trace hooks are in lga_ops.c (lga_ew) and lga_reduce.c: an operand
 * whose metatable has __ga_fuse (a symbolic array of a trace) hands the
 * call to that function. */
#include "binding/lga_core.h"
#include "binding/lga_kernobj.h"
#include "core/ga_elementwise.h"
#include <string.h>

static int fuse_resolve(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  const ga_op *op = ga_op_find(name);
  if (!op) return lga_errorf(L, "fuse", "no op row '%s'", name);
  int n = lua_gettop(L) - 1;
  if (n != op->nin) return lga_errorf(L, op->name, "takes %d operands, got %d", op->nin, n);
  ga_array *va = lua_newuserdatauv(L, sizeof(ga_array) * GA_MAXARGS, 0);   /* GC'd scratch */
  ga_operand ins[GA_MAXARGS];
  static const int64_t none[1] = {1};
  for (int k = 0; k < n; k++) {
    int idx = 2 + k;
    ga_operand *o = &ins[k];
    o->arr = NULL;
    if (lua_type(L, idx) == LUA_TSTRING) {
      int dt = lga_opt_dtype(L, idx, op->name, -1);
      lga_virtual_array(L, op->name, &va[k], dt, 0, none, false);
      o->kind = GA_ARG_ARRAY;
      o->arr = &va[k];
    } else if (lua_type(L, idx) == LUA_TBOOLEAN) {
      o->kind = GA_ARG_BOOL;
      o->i = lua_toboolean(L, idx);
    } else if (lua_isinteger(L, idx)) {
      o->kind = GA_ARG_INT;
      o->i = lua_tointeger(L, idx);
    } else if (lua_type(L, idx) == LUA_TNUMBER) {
      o->kind = GA_ARG_FLOAT;
      o->f = lua_tonumber(L, idx);
    } else {
      return lga_errorf(L, op->name, "bad operand #%d (array, number or boolean expected, got %s)", k + 1,
                        luaL_typename(L, idx));
    }
  }
  ga_ew_plan plan;
  if (ga_ew_prepare(op, ins, -1, GA_CAST_SAME_KIND, &plan)) return lga_fail(L, op->name);
  lua_createtable(L, op->nin, 0);
  for (int k = 0; k < op->nin; k++) {
    lua_pushstring(L, ga_dtypes[plan.in_dtype[k]].name);
    lua_rawseti(L, -2, k + 1);
  }
  lua_createtable(L, op->nout, 0);
  for (int k = 0; k < op->nout; k++) {
    lua_pushstring(L, ga_dtypes[plan.out_dtype[k]].name);
    lua_rawseti(L, -2, k + 1);
  }
  lua_pushstring(L, op->expr);
  return 3;
}

static int fuse_ctype(lua_State *L) {
  int dt = lga_opt_dtype(L, 1, "fuse", -1);
  if (dt < 0) return lga_errorf(L, "fuse", "a dtype is needed");
  lua_pushstring(L, ga_dtypes[dt].cuda);
  lua_pushstring(L, dt == GA_FLOAT16 ? "float" : ga_dtypes[dt].cuda);
  lua_pushstring(L, ga_dtypes[dt].name);
  return 3;
}

void lga_open_fuse(lua_State *L) {
  static const luaL_Reg fns[] = {{"_fuse_resolve", fuse_resolve}, {"_fuse_ctype", fuse_ctype}, {NULL, NULL}};
  lga_setfuncs(L, fns, lua_gettop(L));
}
