/* The ndarray userdata: creation, lifetime (__gc, __close and :free share
 * one idempotent release; the last two also pay off the GC pacing's
 * debt), attributes, metamethods.  Methods written in Lua live in the same
 * methods table (filled by gpuarray/init.lua). */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include <stdio.h>
#include <string.h>

/* __gc */
static int arr_free(lua_State *L) {
  ga_array *a = lga_toarray(L, 1);
  if (a) ga_array_release(a);
  return 0;
}

/* :free and __close.  Memory the script gives back itself is no garbage
 * for a collection to find, so it pays off the allocation debt that makes
 * lga_new_array collect: else a loop that frees each 1 GiB result would
 * run a full collection every call (0.2-0.3 ms of host time, longer than
 * the draw it waits to launch). */
static int arr_free_now(lua_State *L) {
  ga_array *a = lga_toarray(L, 1);
  if (a && a->buf) {
    lga_state *S = LGA_STATE(L);
    if (__atomic_load_n(&a->buf->refcount, __ATOMIC_ACQUIRE) == 1) {   /* this release frees it */
      int64_t n = (int64_t)a->buf->nbytes;
      S->gc_debt = S->gc_debt > n ? S->gc_debt - n : 0;
    }
    ga_array_release(a);
  }
  return 0;
}

static int arr_len(lua_State *L) {
  ga_array *a = lga_check(L, 1, "len");
  if (a->ndim == 0) return lga_errorf(L, "len", "len() of unsized object (0-d array)");
  lua_pushinteger(L, a->shape[0]);
  return 1;
}

static void push_int_table(lua_State *L, int n, const int64_t *v) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, v[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* tostring(x.shape) is NumPy's "(2, 3)"; the table stays a plain array of
 * integers (this metatable has __tostring only) */
static const char shape_mt_key = 0;

static int shape_tostring(lua_State *L) {
  luaL_Buffer b;
  lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '(');
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, i);
    if (i > 1) luaL_addstring(&b, ", ");
    luaL_addvalue(&b);   /* an integer: tostring'd by the buffer */
  }
  if (n == 1) luaL_addchar(&b, ',');
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  return 1;
}

static void push_shape(lua_State *L, int n, const int64_t *v) {
  push_int_table(L, n, v);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &shape_mt_key);
  lua_setmetatable(L, -2);
}

/* x.device: the device object of gpuarray.cuda (one per id, so == and
 * rawequal agree), from the table it registered; "cpu"/"cuda:N" before it
 * has (the core module alone) */
static const char device_objects_key = 0;

static void push_device(lua_State *L, int dev) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &device_objects_key) == LUA_TTABLE) {
    lua_geti(L, -1, dev);   /* its __index makes the object */
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 1);
  if (dev == GA_CPU) lua_pushliteral(L, "cpu");
  else lua_pushfstring(L, "cuda:%d", dev);
}

static int l_device_objects(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &device_objects_key);
  return 0;
}

static int transpose_view(lua_State *L) {
  ga_array *a = lga_toarray(L, 1);
  ga_array *v = lga_new_view(L, 1);
  for (int i = 0; i < a->ndim; i++) {
    v->shape[i] = a->shape[a->ndim - 1 - i];
    v->strides[i] = a->strides[a->ndim - 1 - i];
  }
  return 1;
}

/* x.real / x.imag.  Complex: a view of one half of every element (the real
 * dtype, the same strides, imag half an element in), so that writing
 * through it changes x, as in NumPy.  Real dtypes: real is x itself, imag a
 * new array of zeros (NumPy's is a read-only view of zeros). */
static int part_view(lua_State *L, ga_array *a, int imag) {
  if (GA_IS_COMPLEX(a->dtype)) {
    ga_array *v = lga_new_view(L, 1);
    v->dtype = a->dtype == GA_COMPLEX64 ? GA_FLOAT32 : GA_FLOAT64;
    if (imag) v->offset += GA_ITEMSIZE(v->dtype);
    return 1;
  }
  if (!imag) {
    lua_pushvalue(L, 1);
    return 1;
  }
  lga_state *S = LGA_STATE(L);
  ga_array *z = lga_new_array(L, S, "imag", GA_DEVICE(a), a->dtype, a->ndim, a->shape);
  ga_operand zero = {.kind = GA_ARG_INT, .i = 0};
  lga_run_fill(L, S, z, &zero, "imag");
  return 1;
}

/* Attributes; returns 0 when `k` is none. */
static int push_attr(lua_State *L, ga_array *a, const char *k) {
  switch (k[0]) {
  case 's':
    if (!strcmp(k, "shape")) { push_shape(L, a->ndim, a->shape); return 1; }
    if (!strcmp(k, "size")) { lua_pushinteger(L, a->size); return 1; }
    if (!strcmp(k, "strides")) { push_int_table(L, a->ndim, a->strides); return 1; }
    break;
  case 'n':
    if (!strcmp(k, "ndim")) { lua_pushinteger(L, a->ndim); return 1; }
    if (!strcmp(k, "nbytes")) { lua_pushinteger(L, a->size * GA_ITEMSIZE(a->dtype)); return 1; }
    break;
  case 'd':
    if (!strcmp(k, "dtype")) { lua_pushstring(L, ga_dtypes[a->dtype].name); return 1; }
    if (!strcmp(k, "device")) { push_device(L, GA_DEVICE(a)); return 1; }
    if (!strcmp(k, "data_ptr")) { lua_pushinteger(L, (lua_Integer)(intptr_t)GA_DATA(a)); return 1; }
    break;
  case 'i':
    if (!strcmp(k, "itemsize")) { lua_pushinteger(L, GA_ITEMSIZE(a->dtype)); return 1; }
    if (!strcmp(k, "imag")) return part_view(L, a, 1);
    break;
  case 'r':
    if (!strcmp(k, "real")) return part_view(L, a, 0);
    break;
  case 'b':
    if (!strcmp(k, "base")) { lua_getiuservalue(L, 1, 1); return 1; }
    break;
  case 'f':
    if (!strcmp(k, "flags")) {
      lua_createtable(L, 0, 4);
      lua_pushboolean(L, ga_is_c_contiguous(a)); lua_setfield(L, -2, "c_contiguous");
      lua_pushboolean(L, ga_is_f_contiguous(a)); lua_setfield(L, -2, "f_contiguous");
      lua_getiuservalue(L, 1, 1);
      lua_pushboolean(L, lua_isnil(L, -1)); lua_setfield(L, -3, "owndata");
      lua_pop(L, 1);
      lua_pushboolean(L, !GA_READONLY(a)); lua_setfield(L, -2, "writeable");
      return 1;
    }
    break;
  case 'T':
    if (!k[1]) return transpose_view(L);
    break;
  }
  return 0;
}

/* __index: methods first (upvalue 2), then attributes. */
static int arr_index(lua_State *L) {
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    ga_array *a = lga_check(L, 1, "ndarray");
    const char *k = lua_tostring(L, 2);
    if (push_attr(L, a, k)) return 1;
    return lga_errorf(L, "ndarray", "no attribute or method '%s'", k);
  }
  /* any other key: indexing (lga_index.c) */
  lua_settop(L, 2);
  return lga_getitem(L);
}

static int arr_newindex(lua_State *L) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return lga_errorf(L, "ndarray", "cannot set field '%s' (arrays have no writable fields)", lua_tostring(L, 2));
  lua_settop(L, 3);
  return lga_setitem(L);
}

/* < <= > >=: Lua keeps one boolean of __lt/__le, which cannot hold an
 * element-wise result; say where the comparisons are instead.  (The
 * arithmetic and bitwise metamethods are op rows: lga_ops.c.) */
static int order_error(lua_State *L, const char *mm) {
  return lga_errorf(L, mm, "arrays cannot be compared with < <= > >= (Lua makes one boolean of them); "
                           "compare element-wise with a:lt(b), a:le(b), a:gt(b), a:ge(b) or ga.less(a, b) etc.");
}
static int arr_lt(lua_State *L) { return order_error(L, "lt"); }
static int arr_le(lua_State *L) { return order_error(L, "le"); }

static int arr_eq(lua_State *L) {
  /* Lua calls this only for two different objects, and makes one boolean of
   * the result: an element-wise == cannot exist, and a silent identity test
   * (false) reads as "not equal" — so two arrays are an error */
  if (lua_rawequal(L, 1, 2) || !lga_toarray(L, 1) || !lga_toarray(L, 2)) {
    lua_pushboolean(L, lua_rawequal(L, 1, 2));
    return 1;
  }
  return lga_errorf(L, "==", "two different arrays: use ga.equal(a, b) or a:eq(b) for the element-wise "
                    "comparison, ga.array_equal(a, b) for one boolean, rawequal(a, b) for identity");
}

/* x:astype(dtype, opts) or x:astype{dtype=, casting=, copy=}: NumPy's
 * defaults casting="unsafe", copy=true; copy=false with the same dtype
 * gives x itself.  The result is C-contiguous, on x's device. */
static int arr_astype(lua_State *L) {
  static const char *const options[] = {"dtype", "casting", "copy", NULL};
  const char *fname = "astype";
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, fname);
  int top = lua_gettop(L), opts = 0, dt;
  if (top == 2 && lua_istable(L, 2) && !lga_toarray(L, 2)) {
    opts = 2;
    lga_check_options(L, opts, fname, options);
    lua_getfield(L, opts, "dtype");
    dt = lga_opt_dtype(L, -1, fname, -1);
    lua_pop(L, 1);
  } else {
    if (top > 3 || (top == 3 && !lua_istable(L, 3) && !lua_isnil(L, 3)))
      return lga_errorf(L, fname, "takes a dtype and an options table {casting=, copy=}, got %d arguments",
                        top - 1);
    dt = lga_opt_dtype(L, 2, fname, -1);
    if (top == 3 && lua_istable(L, 3)) {
      opts = 3;
      static const char *const rest[] = {"casting", "copy", NULL};
      lga_check_options(L, opts, fname, rest);
    }
  }
  if (dt < 0) return lga_errorf(L, fname, "a dtype is required, e.g. x:astype(\"float32\")");
  int casting = GA_CAST_UNSAFE, copy = 1;
  if (opts) {
    if (lua_getfield(L, opts, "casting") != LUA_TNIL) {
      const char *c = lua_tostring(L, -1);
      if (!c || (casting = ga_casting_from_name(c)) < 0)
        return lga_errorf(L, fname, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'");
    }
    if (lua_getfield(L, opts, "copy") != LUA_TNIL) {
      if (!lua_isboolean(L, -1))
        return lga_errorf(L, fname, "copy must be a boolean, got %s", luaL_typename(L, -1));
      copy = lua_toboolean(L, -1);
    }
    lua_pop(L, 2);
  }
  if (!ga_can_cast(a->dtype, dt, casting))
    return lga_errorf(L, fname, "Cannot cast array data from dtype('%s') to dtype('%s') according to the rule '%s'",
                      ga_dtypes[a->dtype].name, ga_dtypes[dt].name, ga_casting_names[casting]);
  lga_to_device(L, S, 1, GA_DEVICE(a), dt, copy, fname);
  return 1;
}

/* The metamethods (liolib's metameth); upvalues: the state, the methods
 * table (arr_index's upvalue 2). */
static const luaL_Reg metameth[] = {
  {"__index", arr_index}, {"__newindex", arr_newindex}, {"__gc", arr_free}, {"__close", arr_free_now},
  {"__len", arr_len},     {"__eq", arr_eq},             {"__lt", arr_lt},    {"__le", arr_le},
  {NULL, NULL},
};

/* The methods written in C here (liolib's meth); upvalue: the state.  The
 * other parts add theirs (lga_ops.c the rows' method aliases), and
 * gpuarray/ufuncs.lua etc. the methods written in Lua. */
static const luaL_Reg meth[] = {
  {"astype", arr_astype}, {"free", arr_free_now}, {NULL, NULL},
};

void lga_open_array(lua_State *L) {
  /* stack: module table at -1; the state userdata is module._state */
  int mod = lua_gettop(L);
  lua_getfield(L, mod, "_state");
  int st = lua_gettop(L);
  luaL_newmetatable(L, LGA_ARRAY_MT);   /* sets __name */
  int mt = lua_gettop(L);
  lua_pushvalue(L, mt);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lga_mt_key);
  lua_pushvalue(L, mt);
  lua_setfield(L, mod, "ndarray_mt");

  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, shape_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &shape_mt_key);

  luaL_newlibtable(L, meth);
  int methods = lua_gettop(L);
  lua_pushvalue(L, st);
  luaL_setfuncs(L, meth, 1);
  lua_pushvalue(L, methods);
  lua_setfield(L, mod, "ndarray_methods");
  lua_pushcfunction(L, l_device_objects);
  lua_setfield(L, mod, "_device_objects");
  lua_pushvalue(L, methods);   /* for the advanced indexer's hooks (lga_index.c) */
  lua_setfield(L, LUA_REGISTRYINDEX, "gpuarray.ndarray_methods");

  lua_pushvalue(L, mt);
  lua_pushvalue(L, st);
  lua_pushvalue(L, methods);
  luaL_setfuncs(L, metameth, 2);
  lua_settop(L, mod);
}
