/* ga.ElementwiseKernel: the kernel object (a userdata holding the parsed
 * ga_ewk; its texts are Lua strings kept alive in the userdata's user value,
 * so nothing is malloc'ed and nothing can leak), its __call, and the
 * compile-only methods :source and :compile, which need no GPU. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_ewk.h"
#include "binding/lga_kernarg.h"
#include "binding/lga_kernobj.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LGA_EWK_MT "gpuarray.ElementwiseKernel"

typedef struct lga_ewk {
  ga_ewk k;
  bool no_return, return_tuple;
  char fname[GA_EWK_NAMELEN + 32];   /* "ElementwiseKernel 'name'", for messages */
} lga_ewk;

static const char *const ctor_options[] = {"name", "preamble", "loop_prep", "after_loop", "reduce_dims",
                                           "no_return", "return_tuple", "math", NULL};

static bool opt_bool(lua_State *L, const char *fname, int opts, const char *key, bool dflt) {
  if (!opts) return dflt;
  int t = lua_getfield(L, opts, key);
  bool v = dflt;
  if (t == LUA_TBOOLEAN) v = lua_toboolean(L, -1);
  else if (t != LUA_TNIL) lga_errorf(L, fname, "option %s must be a boolean, got %s", key, luaL_typename(L, -1));
  lua_pop(L, 1);
  return v;
}

/* ga.ElementwiseKernel(in_params, out_params, operation [, name] [, options]) */
static int l_ewk_new(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int opts = 0;
  if (lua_type(L, 4) == LUA_TTABLE) opts = 4;
  else if (lua_type(L, 5) == LUA_TTABLE) opts = 5;
  else if (!lua_isnoneornil(L, 5))
    return lga_errorf(L, fname, "options must be a table, got %s", luaL_typename(L, 5));
  lua_settop(L, 5);
  if (opts) lga_check_options(L, opts, fname, ctor_options);
  int name_idx = 4;
  if (opts == 4 || (opts && lua_isnil(L, 4))) {   /* the name may come in the options */
    lua_getfield(L, opts, "name");
    name_idx = lua_gettop(L);
  }
  lga_ewk *e = lua_newuserdatauv(L, sizeof *e, 1);
  int ud = lua_gettop(L);
  memset(e, 0, sizeof *e);
  lua_newtable(L);
  int texts = lua_gettop(L);
  const char *in = lga_kernel_text(L, fname, 1, texts, "in_params", NULL, false);
  const char *out = lga_kernel_text(L, fname, 2, texts, "out_params", NULL, false);
  const char *op = lga_kernel_text(L, fname, 3, texts, "operation", NULL, false);
  const char *name = lga_kernel_text(L, fname, name_idx, texts, "name", "kernel", false);
  const char *code[3];
  static const char *const code_keys[3] = {"preamble", "loop_prep", "after_loop"};
  for (int j = 0; j < 3; j++) {
    if (opts) lua_getfield(L, opts, code_keys[j]);
    else lua_pushnil(L);
    code[j] = lga_kernel_text(L, fname, -1, texts, code_keys[j], "", false);
    lua_pop(L, 1);
  }
  const char *pre = code[0], *prep = code[1], *after = code[2];
  bool reduce = opt_bool(L, fname, opts, "reduce_dims", true);
  e->no_return = opt_bool(L, fname, opts, "no_return", false);
  e->return_tuple = opt_bool(L, fname, opts, "return_tuple", false);
  int math = lga_kernel_math_option(L, fname, opts);
  if (ga_ewk_init(&e->k, in, out, op, name, pre, prep, after, reduce)) return lga_fail(L, fname);
  if (math) ga_ewk_set_math(&e->k, math, NULL);
  snprintf(e->fname, sizeof e->fname, "ElementwiseKernel '%s'", name);
  lua_setiuservalue(L, ud, 1);   /* the texts table */
  luaL_setmetatable(L, LGA_EWK_MT);
  return 1;
}

static lga_ewk *check_ewk(lua_State *L, int idx) {
  lga_ewk *e = luaL_testudata(L, idx, LGA_EWK_MT);
  if (!e) lga_errorf(L, "ElementwiseKernel", "bad self (ElementwiseKernel expected, got %s)", luaL_typename(L, idx));
  return e;
}

/* Operands from the stack, [first, first + nargs); the trailing options
 * table {size=} of a call, if any, at opts. */
static int64_t get_size(lua_State *L, lga_ewk *e, int opts) {
  static const char *const call_options[] = {"size", NULL};
  if (!opts) return -1;
  lga_check_options(L, opts, e->fname, call_options);
  int64_t size = -1;
  if (lua_getfield(L, opts, "size") != LUA_TNIL) {
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0)
      lga_errorf(L, e->fname, "size must be a non-negative integer");
    size = lua_tointeger(L, -1);
  }
  lua_pop(L, 1);
  return size;
}

static void check_count(lua_State *L, lga_ewk *e, int nargs) {
  int nin = e->k.nin, np = nin + e->k.nout;
  if (nargs == nin || nargs == np) return;
  if (e->k.nout == 0) lga_errorf(L, e->fname, "takes %d argument%s, got %d", nin, nin == 1 ? "" : "s", nargs);
  lga_errorf(L, e->fname, "takes %d argument%s (the inputs) or %d (inputs and outputs), got %d", nin,
             nin == 1 ? "" : "s", np, nargs);
}

/* Raise the current error; an NVRTC compile error with the whole numbered
 * source (the user's code comes after ~140 lines of templates). */
static int fail_call(lua_State *L, lga_ewk *e, const ga_ewk_call *c) {
  if (ga_errcode() != GA_ENVRTC) return lga_fail(L, e->fname);
  char *src = ga_ewk_source(c);
  if (!src) return lga_fail(L, e->fname);
  lua_pushstring(L, src);   /* anchored: the raise below does not return */
  free(src);
  return lga_fail_compile(L, e->fname, lua_tostring(L, -1));
}

/* k(args... [, {size=N}]) */
static int l_ewk_call(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  lga_ewk *e = check_ewk(L, 1);
  int top = lua_gettop(L), nargs = top - 1, opts = 0;
  if (nargs >= 1 && lua_type(L, top) == LUA_TTABLE) { opts = top; nargs--; }
  check_count(L, e, nargs);
  int64_t size = get_size(L, e, opts);
  ga_ewk_operand ops[GA_EWK_MAXARGS];
  for (int a = 0; a < nargs; a++) lga_kernel_operand(L, S, &e->k, e->fname, 2 + a, a, &ops[a]);
  ga_ewk_plan plan;
  if (ga_ewk_prepare(&e->k, ops, nargs, size, S->device, &plan)) return lga_fail(L, e->fname);
  int nin = e->k.nin, nout = e->k.nout, base = lua_gettop(L);
  ga_array *outs[GA_EWK_MAXARGS];
  if (nargs == nin + nout) {
    for (int j = 0; j < nout; j++) {
      outs[j] = (ga_array *)ops[nin + j].arr;
      lua_pushvalue(L, 2 + nin + j);
    }
  } else {
    int nd;
    int64_t shape[GA_MAXDIM];
    ga_ewk_out_shape(&plan, &nd, shape);
    for (int j = 0; j < nout; j++)
      outs[j] = lga_new_array(L, S, e->fname, plan.device, plan.dtype[nin + j], nd, shape);
  }
  ga_ewk_call c;
  if (ga_ewk_build(&e->k, &plan, ops, outs, lga_stream(S, plan.device), &c)) return lga_fail(L, e->fname);
  if (ga_ewk_run(&c)) return fail_call(L, e, &c);
  if (e->no_return) return 0;
  if (e->return_tuple) {
    lua_createtable(L, nout, 0);
    for (int j = 0; j < nout; j++) {
      lua_pushvalue(L, base + 1 + j);
      lua_rawseti(L, -2, j + 1);
    }
    return 1;
  }
  return nout;
}

/* The compile-only path: a table of argument types (dtype names for
 * arrays, Lua values for scalars) stands for the arguments; arrays are
 * virtual (lga_virtual_array), 16 contiguous elements or a transposed
 * 4 x 4 block. */

static void virtual_call(lua_State *L, lga_ewk *e, ga_ewk_call *c, int *arch, const char *method) {
  const char *fname = e->fname;
  if (lua_type(L, 2) != LUA_TTABLE)
    lga_errorf(L, fname, "argument types must be a table such as {\"float32\", \"float32\"}, got %s",
               luaL_typename(L, 2));
  static const char *const src_options[] = {"layout", "arch", "size", NULL};
  int strided = 0;
  int64_t size = -1;
  *arch = 90;
  if (!lua_isnoneornil(L, 3)) {
    if (lua_type(L, 3) != LUA_TTABLE) lga_errorf(L, fname, "options must be a table, got %s", luaL_typename(L, 3));
    lga_check_options(L, 3, fname, src_options);
    if (lua_getfield(L, 3, "layout") != LUA_TNIL) {
      const char *l = lua_tostring(L, -1);
      if (l && !strcmp(l, "strided")) strided = 1;
      else if (!l || strcmp(l, "contiguous")) lga_errorf(L, fname, "layout must be \"contiguous\" or \"strided\"");
    }
    if (lua_getfield(L, 3, "arch") != LUA_TNIL) *arch = lga_kernel_arch(L, -1, fname, method);
    if (lua_getfield(L, 3, "size") != LUA_TNIL)
      size = lga_kernel_int_option(L, -1, fname, method, "size", 0, INT64_MAX, "1024");
    lua_pop(L, 3);
  }
  int nargs = (int)lua_rawlen(L, 2);
  check_count(L, e, nargs);
  ga_array *va = lua_newuserdatauv(L, sizeof(ga_array) * GA_EWK_MAXARGS, 0);   /* GC'd scratch */
  ga_ewk_operand ops[GA_EWK_MAXARGS];
  for (int a = 0; a < nargs; a++) {
    lua_rawgeti(L, 2, a + 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      static const int64_t flat[1] = {16}, block[2] = {4, 4};
      int dt = lga_opt_dtype(L, -1, fname, -1);
      lga_virtual_array(L, fname, &va[a], dt, strided ? 2 : 1, strided ? block : flat, strided);
      ops[a].kind = GA_EWK_ARRAY;
      ops[a].arr = &va[a];
    } else {
      lga_kernel_operand(L, LGA_STATE(L), &e->k, e->fname, lua_gettop(L), a, &ops[a]);
    }
    lua_pop(L, 1);
  }
  ga_ewk_plan plan;
  if (ga_ewk_prepare(&e->k, ops, nargs, size, 0, &plan)) lga_fail(L, fname);
  ga_array *outs[GA_EWK_MAXARGS];
  int nin = e->k.nin;
  for (int j = 0; j < e->k.nout; j++) {
    if (nargs > nin) { outs[j] = (ga_array *)ops[nin + j].arr; continue; }
    int nd;
    int64_t shape[GA_MAXDIM];
    ga_ewk_out_shape(&plan, &nd, shape);
    lga_virtual_array(L, fname, &va[nin + j], plan.dtype[nin + j], nd, shape, false);
    outs[j] = &va[nin + j];
  }
  if (ga_ewk_build(&e->k, &plan, ops, outs, NULL, c)) lga_fail(L, fname);
  if (c->size == 0) lga_errorf(L, fname, "the loop is empty: nothing to generate");
}

/* Push the source of k:source's / k:compile's call (self at 1); *arch for
 * NVRTC. */
static lga_ewk *push_source(lua_State *L, int *arch, const char *method) {
  lga_ewk *e = check_ewk(L, 1);
  ga_ewk_call c;
  virtual_call(L, e, &c, arch, method);
  char *src = ga_ewk_source(&c);
  if (!src) lga_fail(L, e->fname);
  lua_pushstring(L, src);
  free(src);
  return e;
}

/* k:source(types [, {layout=, size=}]) -> the generated CUDA source */
static int l_ewk_source(lua_State *L) {
  int arch;
  push_source(L, &arch, "source");
  return 1;
}

/* k:compile(types [, {layout=, size=, arch=}]) -> bytes of the image, is_ptx;
 * an NVRTC error raises with the numbered source */
static int l_ewk_compile(lua_State *L) {
  int arch;
  lga_ewk *e = push_source(L, &arch, "compile");
  int n = lga_kernel_compile(L, lua_tostring(L, -1), e->k.name, arch, NULL, 0);
  if (n >= 0) return n;
  return ga_errcode() == GA_ENVRTC ? lga_fail_compile(L, e->fname, lua_tostring(L, -1)) : lga_fail(L, e->fname);
}

/* Attributes (CuPy's names). */
static int l_ewk_attrs(lua_State *L) {
  lga_ewk *e = check_ewk(L, 1);
  const char *key = lua_tostring(L, 2);
  if (!key) return 0;
  if (!strcmp(key, "nin")) { lua_pushinteger(L, e->k.nin); return 1; }
  if (!strcmp(key, "nout")) { lua_pushinteger(L, e->k.nout); return 1; }
  if (!strcmp(key, "nargs")) { lua_pushinteger(L, e->k.nin + e->k.nout); return 1; }
  if (!strcmp(key, "reduce_dims")) { lua_pushboolean(L, e->k.reduce_dims); return 1; }
  if (!strcmp(key, "no_return")) { lua_pushboolean(L, e->no_return); return 1; }
  if (!strcmp(key, "return_tuple")) { lua_pushboolean(L, e->return_tuple); return 1; }
  static const char *const texts[] = {"name", "in_params", "out_params", "operation", "preamble",
                                      "loop_prep", "after_loop", NULL};
  for (int i = 0; texts[i]; i++)
    if (!strcmp(key, texts[i])) {
      lua_getiuservalue(L, 1, 1);
      lua_getfield(L, -1, key);
      return 1;
    }
  return 0;
}

static int l_ewk_tostring(lua_State *L) {
  lga_ewk *e = check_ewk(L, 1);
  lua_pushfstring(L, "<ElementwiseKernel '%s'>", e->k.name);
  return 1;
}

void lga_open_ewk(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg meta[] = {{"__call", l_ewk_call}, {"__tostring", l_ewk_tostring}, {NULL, NULL}};
  static const luaL_Reg methods[] = {{"source", l_ewk_source}, {"compile", l_ewk_compile}, {NULL, NULL}};
  lga_newclass(L, mod, LGA_EWK_MT, meta, methods, l_ewk_attrs);
  lua_setfield(L, mod, "ewk_mt");
  static const luaL_Reg fns[] = {{"ElementwiseKernel", l_ewk_new}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
}
