/* Elementwise ops as Lua functions: one C closure per op row (the row is the
 * upvalue), operands converted per NEP 50, options {out=, dtype=, casting=}. */
#include "binding/lga_core.h"
#include <string.h>

static const char *const ew_options[] = {"out", "dtype", "casting", NULL};

int lga_ew(lua_State *L, lga_state *S, const ga_op *op, int first, int opts, const char *fname) {
  ga_operand ins[GA_MAXARGS];
  int any_array = 0, table_dev = -2;
  for (int k = 0; k < op->nin; k++) {
    int idx = first + k;
    ga_operand *o = &ins[k];
    o->arr = NULL;
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) { o->kind = GA_ARG_INT; o->i = lua_tointeger(L, idx); }
      else { o->kind = GA_ARG_FLOAT; o->f = lua_tonumber(L, idx); }
      break;
    case LUA_TBOOLEAN:
      o->kind = GA_ARG_BOOL;
      o->i = lua_toboolean(L, idx);
      break;
    case LUA_TUSERDATA: {
      ga_array *a = lga_toarray(L, idx);
      if (a) {
        if (!a->buf) return lga_errorf(L, fname, "array has been freed");
        lga_check_current(L, S, a, fname);
        o->kind = GA_ARG_ARRAY;
        o->arr = a;
        any_array = 1;
        break;
      }
    } /* fall through */
    default:
      if (lua_type(L, idx) == LUA_TTABLE && luaL_getmetafield(L, idx, "__ga_fuse") != LUA_TNIL) {
        /* a symbolic array of a ga.fuse trace: the tracer records the op */
        int top = lua_gettop(L);
        lua_pushstring(L, op->name);
        for (int j = 0; j < op->nin; j++) lua_pushvalue(L, first + j);
        if (opts) lua_pushvalue(L, opts); else lua_pushnil(L);
        lua_call(L, op->nin + 2, LUA_MULTRET);
        return lua_gettop(L) - top + 1;
      }
      if (lua_type(L, idx) == LUA_TTABLE) {
        /* a nested table of numbers: an array (as np.asarray) on the device
         * of the array operands, else the current one */
        if (table_dev == -2) {
          table_dev = S->device;
          for (int j = 0; j < op->nin; j++) {
            ga_array *b = lga_toarray(L, first + j);
            if (b && b->buf) { table_dev = GA_DEVICE(b); break; }
          }
        }
        o->kind = GA_ARG_ARRAY;
        o->arr = lga_from_value(L, S, idx, table_dev, -1, 0, fname);
        lua_replace(L, idx);   /* the new array is anchored where the table was */
        any_array = 1;
        break;
      }
      if (lua_isnoneornil(L, idx) && k >= 1)
        return lga_errorf(L, fname, "takes %d operands, got %d", op->nin, k);
      return lga_errorf(L, fname, "bad operand #%d (array, number or table expected, got %s)", k + 1,
                        luaL_typename(L, idx));
    }
  }
  /* all Lua numbers: the first becomes a 0-d array of its default dtype, on
   * out='s device when there is one (else the current device) */
  if (!any_array) {
    int dev = S->device, top = lua_gettop(L);
    if (opts && lua_getfield(L, opts, "out") != LUA_TNIL) {
      if (lua_type(L, -1) == LUA_TTABLE && !lga_toarray(L, -1)) lua_rawgeti(L, -1, 1);
      ga_array *o = lga_toarray(L, -1);
      if (o && o->buf) dev = GA_DEVICE(o);
    }
    lua_settop(L, top);
    lga_from_value(L, S, first, dev, -1, 1, fname);
    lua_replace(L, first);
    ins[0].kind = GA_ARG_ARRAY;
    ins[0].arr = lga_toarray(L, first);
  }

  int dtype_req = -1, casting = GA_CAST_SAME_KIND, out_idx = 0;
  if (opts) {
    lga_check_options(L, opts, fname, ew_options);
    lua_getfield(L, opts, "dtype");
    dtype_req = lga_opt_dtype(L, -1, fname, -1);
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "casting") != LUA_TNIL) {
      const char *c = lua_tostring(L, -1);
      if (!c || (casting = ga_casting_from_name(c)) < 0)
        return lga_errorf(L, fname, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'");
    }
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "out") != LUA_TNIL) out_idx = lua_gettop(L);
    else lua_pop(L, 1);
  }
  ga_ew_plan plan;
  if (ga_ew_prepare(op, ins, dtype_req, casting, &plan)) return lga_fail(L, fname);

  ga_array *outs[GA_MAXARGS];
  int base = lua_gettop(L);
  if (out_idx) {
    if (op->nout == 1 && lga_toarray(L, out_idx)) {
      lua_pushvalue(L, out_idx);
    } else if (op->nout > 1 && lua_istable(L, out_idx)) {
      for (int k = 0; k < op->nout; k++) lua_rawgeti(L, out_idx, k + 1);
    } else {
      return lga_errorf(L, fname, "out must be %s", op->nout == 1 ? "an ndarray" : "a table of ndarrays");
    }
    for (int k = 0; k < op->nout; k++) {
      outs[k] = lga_check(L, base + 1 + k, fname);
      if (ga_ew_check_out(&plan, k, outs[k], casting)) return lga_fail(L, fname);
    }
  } else {
    for (int k = 0; k < op->nout; k++)
      outs[k] = lga_new_array(L, S, fname, plan.device, plan.out_dtype[k], plan.ndim, plan.shape);
  }
  if (ga_ew_run(&plan, ins, outs, lga_stream(S, plan.device))) return lga_fail(L, fname);
  return op->nout;
}

/* The row's ndarray metamethod (x + y): upvalue 2 is the op's index.
 * Operands keep Lua's order (2 - x is subtract(2, x)); errors name the op. */
static int ufunc_mm(lua_State *L) {
  const ga_op *op = &ga_ops[lua_tointeger(L, lua_upvalueindex(2))];
  lua_settop(L, op->nin);   /* Lua passes a unary operand twice */
  return lga_ew(L, LGA_STATE(L), op, 1, 0, op->name);
}

/* ga.NAME(a, b, opts): upvalue 2 is the op's index in the table, upvalue 3
 * (if any) the public name errors give (ga.clip runs the minimum row). */
static int ufunc_call(lua_State *L) {
  const ga_op *op = &ga_ops[lua_tointeger(L, lua_upvalueindex(2))];
  const char *fname = lua_type(L, lua_upvalueindex(3)) == LUA_TSTRING ? lua_tostring(L, lua_upvalueindex(3))
                                                                       : op->name;
  int top = lua_gettop(L), opts = 0;
  if (top == op->nin + 1 && lua_type(L, top) == LUA_TTABLE && !lga_toarray(L, top)) opts = top;
  else if (top > op->nin && !(top == op->nin + 1 && lua_isnil(L, top)))
    return lga_errorf(L, fname, "takes %d operand%s and an options table, got %d arguments", op->nin,
                      op->nin == 1 ? "" : "s", top);
  return lga_ew(L, LGA_STATE(L), op, 1, opts, fname);
}

/* A ufunc_as function: runs the row (upvalue 1) and raises its errors at
 * the position of the Lua function's caller, the user's line: the row's
 * own errors carry no position, its caller being this C function. */
static int ufunc_named(lua_State *L) {
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  if (lua_pcall(L, n, LUA_MULTRET, 0) != LUA_OK) {
    if (lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 2);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return lua_gettop(L);
}

/* core.ufunc_as(opname, fname): the op row as a function for the Lua
 * functions built on a row (clip, where, round, angle): its errors name
 * fname (no rewriting) and point at their caller's caller. */
static int ufunc_as(lua_State *L) {
  const ga_op *op = ga_op_find(luaL_checkstring(L, 1));
  luaL_checkstring(L, 2);
  if (!op) return lga_errorf(L, "ufunc_as", "no op row '%s'", lua_tostring(L, 1));
  lua_pushvalue(L, lua_upvalueindex(1));   /* the module's _state */
  lua_pushinteger(L, op->id);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, ufunc_call, 3);
  lua_pushcclosure(L, ufunc_named, 1);
  return 1;
}

/* core.dtype_of(x): x's dtype name, or nil for anything but a live array:
 * the Lua functions built on a row look at their operands with it, and
 * leave the errors (freed, not an array) to the row. */
static int dtype_of(lua_State *L) {
  ga_array *a = lga_toarray(L, 1);
  if (!a || !a->buf) return 0;
  lua_pushstring(L, ga_dtypes[a->dtype].name);
  return 1;
}

/* Sets the function at the top of the stack (left there) under each
 * alias of the row: into ufuncs (index u), or the methods table (index m)
 * for a ":name". */
static void set_aliases(lua_State *L, const char *aliases, int u, int m) {
  for (const char *p = aliases; *p;) {
    size_t n = strcspn(p, " ");
    if (n) {
      int method = *p == ':';
      lua_pushlstring(L, p + method, n - method);
      lua_pushvalue(L, -2);
      lua_rawset(L, method ? m : u);
    }
    p += n + (p[n] == ' ');
  }
}

/* One loop over the op rows: each row's function under its name and
 * aliases in module.ufuncs (gpuarray/ufuncs.lua publishes them), its
 * method aliases, and the metamethod it backs. */
void lga_open_ops(lua_State *L) {
  int mod = lua_gettop(L);
  lua_getfield(L, mod, "_state");
  int st = lua_gettop(L);
  lua_getfield(L, mod, "ndarray_mt");
  int mt = lua_gettop(L);
  lua_getfield(L, mod, "ndarray_methods");
  int methods = lua_gettop(L);
  lua_createtable(L, 0, GA_NOPS);   /* module.ufuncs: name -> function */
  int u = lua_gettop(L);
  for (int i = 0; i < GA_NOPS; i++) {
    const ga_op *op = &ga_ops[i];
    lua_pushvalue(L, st);
    lua_pushinteger(L, i);
    lua_pushcclosure(L, ufunc_call, 2);
    set_aliases(L, op->aliases, u, methods);
    lua_setfield(L, u, op->name);
    if (op->mm) {
      lua_pushvalue(L, st);
      lua_pushinteger(L, i);
      lua_pushcclosure(L, ufunc_mm, 2);
      lua_setfield(L, mt, op->mm);
    }
  }
  lua_setfield(L, mod, "ufuncs");
  lua_pushvalue(L, st);
  lua_pushcclosure(L, ufunc_as, 1);
  lua_setfield(L, mod, "ufunc_as");
  lua_pushcfunction(L, dtype_of);
  lua_setfield(L, mod, "dtype_of");
  lua_settop(L, mod);
}
