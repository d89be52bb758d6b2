/* ga.ReductionKernel: the kernel object (a userdata holding the parsed
 * ga_redk; its texts are Lua strings in the userdata's user value), its
 * __call with {axis=, keepdims=, out=}, and the compile-only methods
 * :source and :compile (no GPU needed). */
#include "binding/lga_core.h"
#include "binding/lga_kernarg.h"
#include "binding/lga_kernobj.h"
#include "core/ga_backend.h"
#include "core/ga_redk.h"
#include "base/ga_shape.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LGA_REDK_MT "gpuarray.ReductionKernel"
#define CLASS "ReductionKernel"   /* bad self: the class names itself */

typedef struct lga_redk {
  ga_redk k;
  char fname[GA_EWK_NAMELEN + 32];   /* "ReductionKernel 'name'" */
} lga_redk;

static const char *const ctor_options[] = {"name", "reduce_type", "reduce_dims", "preamble", "math", NULL};

/* ga.ReductionKernel(in_params, out_params, map_expr, reduce_expr,
 *                    post_map_expr, identity [, name] [, options]) */
static int l_redk_new(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int opts = 0;
  if (lua_type(L, 7) == LUA_TTABLE) opts = 7;
  else if (lua_type(L, 8) == LUA_TTABLE) opts = 8;
  else if (!lua_isnoneornil(L, 8))
    return lga_errorf(L, fname, "options must be a table, got %s", luaL_typename(L, 8));
  lua_settop(L, 8);
  if (opts) lga_check_options(L, opts, fname, ctor_options);
  int name_idx = 7;
  if (opts == 7 || (opts && lua_isnil(L, 7))) {
    lua_getfield(L, opts, "name");
    name_idx = lua_gettop(L);
  }
  lga_redk *r = lua_newuserdatauv(L, sizeof *r, 1);
  int ud = lua_gettop(L);
  memset(r, 0, sizeof *r);
  lua_newtable(L);
  int texts = lua_gettop(L);
  const char *in = lga_kernel_text(L, fname, 1, texts, "in_params", NULL, false);
  const char *out = lga_kernel_text(L, fname, 2, texts, "out_params", NULL, false);
  const char *map = lga_kernel_text(L, fname, 3, texts, "map_expr", NULL, false);
  const char *red = lga_kernel_text(L, fname, 4, texts, "reduce_expr", NULL, false);
  const char *post = lga_kernel_text(L, fname, 5, texts, "post_map_expr", NULL, false);
  const char *ident = lua_isnoneornil(L, 6) ? NULL : lga_kernel_text(L, fname, 6, texts, "identity", NULL, true);
  const char *name = lga_kernel_text(L, fname, name_idx, texts, "name", "reduce_kernel", false);
  const char *rtype = NULL, *pre = "";
  bool reduce_dims = true;
  if (opts) {
    if (lua_getfield(L, opts, "reduce_type") != LUA_TNIL) rtype = lga_kernel_text(L, fname, -1, texts, "reduce_type", NULL, false);
    if (lua_getfield(L, opts, "preamble") != LUA_TNIL) pre = lga_kernel_text(L, fname, -1, texts, "preamble", NULL, false);
    int t = lua_getfield(L, opts, "reduce_dims");
    if (t == LUA_TBOOLEAN) reduce_dims = lua_toboolean(L, -1);
    else if (t != LUA_TNIL) return lga_errorf(L, fname, "option reduce_dims must be a boolean, got %s", luaL_typename(L, -1));
    lua_pop(L, 3);
  }
  int math = lga_kernel_math_option(L, fname, opts);
  if (ga_redk_init(&r->k, in, out, map, red, post, ident, name, rtype, pre, reduce_dims)) return lga_fail(L, fname);
  if (math) ga_ewk_set_math(&r->k.e, math, r->k.hash);
  snprintf(r->fname, sizeof r->fname, "ReductionKernel '%s'", name);
  lua_setiuservalue(L, ud, 1);
  luaL_setmetatable(L, LGA_REDK_MT);
  return 1;
}

static lga_redk *check_redk(lua_State *L, int idx) {
  lga_redk *r = luaL_testudata(L, idx, LGA_REDK_MT);
  if (!r) lga_errorf(L, CLASS, "bad self (ReductionKernel expected, got %s)", luaL_typename(L, idx));
  return r;
}

static void check_count(lua_State *L, lga_redk *r, int nargs) {
  int nin = r->k.e.nin, np = nin + r->k.e.nout;
  if (nargs == nin || nargs == np) return;
  lga_errorf(L, r->fname, "takes %d argument%s (the inputs) or %d (inputs and outputs), got %d", nin,
             nin == 1 ? "" : "s", np, nargs);
}

/* Raise an NVRTC error of the source on the stack top: the log and the
 * numbered source; one in the identity's line says so. */
static int fail_compile(lua_State *L, lga_redk *r) {
  int src = lua_gettop(L);
  const char *fname = r->fname;
  if (ga_redk_blame(lua_tostring(L, src), ga_errmsg()))
    fname = lua_pushfstring(L, "%s: identity '%s' does not parse as a value of the reduce type", r->fname,
                            r->k.identity);
  return lga_fail_compile(L, fname, lua_tostring(L, src));
}

/* Raise the current error of a call (for a compile error, with the source) */
static int fail_call(lua_State *L, lga_redk *r, const ga_redk_call *c) {
  if (ga_errcode() != GA_ENVRTC) return lga_fail(L, r->fname);
  char *src = ga_redk_source(c, 0, 132);
  if (!src) return lga_fail(L, r->fname);
  lua_pushstring(L, src);
  free(src);
  return fail_compile(L, r);
}

static const char *const call_options[] = {"axis", "keepdims", "out", NULL};

/* k(inputs... [, outputs...] [, {axis=, keepdims=, out=}]) */
static int l_redk_call(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  lga_redk *r = check_redk(L, 1);
  int top = lua_gettop(L), nargs = top - 1, opts = 0;
  if (nargs >= 1 && lua_type(L, top) == LUA_TTABLE) { opts = top; nargs--; }
  check_count(L, r, nargs);
  int nin = r->k.e.nin, nout = r->k.e.nout;
  int64_t axes[GA_MAXDIM];
  int naxes = -1;
  bool keepdims = false;
  ga_ewk_operand ops[GA_EWK_MAXARGS];
  for (int a = 0; a < nargs; a++) lga_kernel_operand(L, S, &r->k.e, r->fname, 2 + a, a, &ops[a]);
  if (opts) {
    lga_check_options(L, opts, r->fname, call_options);
    lua_getfield(L, opts, "axis");
    naxes = lga_read_axes(L, lua_gettop(L), r->fname, -1, axes);
    int t = lua_getfield(L, opts, "keepdims");
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
      lga_errorf(L, r->fname, "keepdims must be a boolean, got %s", luaL_typename(L, -1));
    keepdims = lua_toboolean(L, -1);
    if (lua_getfield(L, opts, "out") != LUA_TNIL) {
      if (nout != 1) lga_errorf(L, r->fname, "out= needs a kernel of one output (this one has %d)", nout);
      if (nargs != nin) lga_errorf(L, r->fname, "cannot give the output both as an argument and as out=");
      if (!lga_toarray(L, -1)) lga_errorf(L, r->fname, "out must be an ndarray, got %s", luaL_typename(L, -1));
      lua_replace(L, opts);   /* the output takes the options' place */
      lga_kernel_operand(L, S, &r->k.e, r->fname, opts, nin, &ops[nin]);
      nargs++;
    }
    lua_settop(L, opts);
  }
  for (int a = nin; a < nargs; a++)
    if (ops[a].kind != GA_EWK_ARRAY) lga_errorf(L, r->fname, "output #%d (%s) must be an ndarray", a + 1, r->k.e.p[a].name);
  ga_redk_plan plan;
  if (ga_redk_prepare(&r->k, ops, nargs, naxes, axes, keepdims, S->device, &plan)) return lga_fail(L, r->fname);
  ga_array *outs[GA_EWK_MAXARGS];
  for (int j = 0; j < nout; j++) {
    if (nargs > nin) { outs[j] = (ga_array *)ops[nin + j].arr; lua_pushvalue(L, 2 + nin + j); }
    else outs[j] = lga_new_array(L, S, r->fname, plan.p.device, plan.p.dtype[nin + j], plan.out_ndim, plan.out_shape);
  }
  ga_redk_call c;
  if (ga_redk_build(&r->k, &plan, ops, outs, lga_stream(S, plan.p.device), &c)) return lga_fail(L, r->fname);
  if (ga_redk_run(&c)) return fail_call(L, r, &c);
  return nout;
}

/* ---- compile-only: virtual arrays (lga_virtual_array) ---- */

static const char *const src_options[] = {"shape", "layout", "axis", "keepdims", "arch", "second", NULL};

/* types: one entry per argument (a dtype name for an array, a Lua value for
 * a scalar); opts: shape (default {64, 1024}), layout "contiguous" or
 * "transposed", axis, keepdims, arch, second (the combining kernel) */
static void virtual_call(lua_State *L, lga_redk *r, ga_redk_call *c, int *arch, int *second, const char *method) {
  const char *fname = r->fname;
  if (lua_type(L, 2) != LUA_TTABLE)
    lga_errorf(L, fname, "argument types must be a table such as {\"float32\"}, got %s", luaL_typename(L, 2));
  int64_t shape[GA_MAXDIM] = {64, 1024}, axes[GA_MAXDIM];
  int ndim = 2, naxes = -1;
  bool transposed = false, keepdims = false;
  *arch = 90;
  *second = 0;
  if (!lua_isnoneornil(L, 3)) {
    if (lua_type(L, 3) != LUA_TTABLE) lga_errorf(L, fname, "options must be a table, got %s", luaL_typename(L, 3));
    lga_check_options(L, 3, fname, src_options);
    if (lua_getfield(L, 3, "shape") != LUA_TNIL) ndim = lga_get_shape(L, lua_gettop(L), fname, shape);
    if (lua_getfield(L, 3, "layout") != LUA_TNIL) {
      const char *l = lua_tostring(L, -1);
      if (l && !strcmp(l, "transposed")) transposed = true;
      else if (!l || strcmp(l, "contiguous")) lga_errorf(L, fname, "layout must be \"contiguous\" or \"transposed\"");
    }
    lua_getfield(L, 3, "axis");
    naxes = lga_read_axes(L, lua_gettop(L), r->fname, -1, axes);
    keepdims = lua_getfield(L, 3, "keepdims") != LUA_TNIL && lua_toboolean(L, -1);
    if (lua_getfield(L, 3, "arch") != LUA_TNIL) *arch = lga_kernel_arch(L, -1, fname, method);
    *second = lua_getfield(L, 3, "second") != LUA_TNIL && lua_toboolean(L, -1);
    lua_pop(L, 6);
  }
  int nargs = (int)lua_rawlen(L, 2);
  check_count(L, r, nargs);
  ga_array *va = lua_newuserdatauv(L, sizeof(ga_array) * GA_EWK_MAXARGS, 0);   /* GC'd scratch */
  ga_ewk_operand ops[GA_EWK_MAXARGS];
  for (int a = 0; a < nargs; a++) {
    lua_rawgeti(L, 2, a + 1);
    if (lua_type(L, -1) == LUA_TSTRING && a < r->k.e.nin) {
      int dt = lga_opt_dtype(L, -1, fname, -1);
      /* transposed: F order, the same memory read transposed */
      lga_virtual_array(L, fname, &va[a], dt, ndim, shape, transposed);
      ops[a].kind = GA_EWK_ARRAY;
      ops[a].arr = &va[a];
    } else if (a >= r->k.e.nin) {
      lga_errorf(L, fname, "argument types: give the inputs only (outputs are allocated)");
    } else {
      lga_kernel_operand(L, NULL, &r->k.e, r->fname, lua_gettop(L), a, &ops[a]);
    }
    lua_pop(L, 1);
  }
  ga_redk_plan plan;
  if (ga_redk_prepare(&r->k, ops, nargs, naxes, axes, keepdims, 0, &plan)) lga_fail(L, fname);
  ga_array *outs[GA_EWK_MAXARGS];
  int nin = r->k.e.nin;
  for (int j = 0; j < r->k.e.nout; j++) {
    lga_virtual_array(L, fname, &va[nin + j], plan.p.dtype[nin + j], plan.out_ndim, plan.out_shape, false);
    outs[j] = &va[nin + j];
  }
  if (ga_redk_build(&r->k, &plan, ops, outs, NULL, c)) lga_fail(L, fname);
  if (c->nout == 0) lga_errorf(L, fname, "the output is empty: nothing to generate");
}

/* Push the source of k:source/k:compile's call (self at 1); *arch for NVRTC. */
static lga_redk *push_source(lua_State *L, int *arch, const char *method) {
  lga_redk *r = check_redk(L, 1);
  ga_redk_call c;
  int second;
  virtual_call(L, r, &c, arch, &second, method);
  char *src = ga_redk_source(&c, second, 132);
  if (!src) lga_fail(L, r->fname);
  lua_pushstring(L, src);
  free(src);
  return r;
}

/* k:source(types [, opts]) -> the generated CUDA source */
static int l_redk_source(lua_State *L) {
  int arch;
  push_source(L, &arch, "source");
  return 1;
}

/* k:compile(types [, opts]) -> bytes of the image, is_ptx */
static int l_redk_compile(lua_State *L) {
  int arch;
  lga_redk *r = push_source(L, &arch, "compile");
  int n = lga_kernel_compile(L, lua_tostring(L, -1), r->k.e.name, arch, NULL, 0);
  if (n >= 0) return n;
  return ga_errcode() == GA_ENVRTC ? fail_compile(L, r) : lga_fail_compile(L, r->fname, lua_tostring(L, -1));
}

static int l_redk_attrs(lua_State *L) {
  lga_redk *r = check_redk(L, 1);
  const char *key = lua_tostring(L, 2);
  if (!key) return 0;
  if (!strcmp(key, "nin")) { lua_pushinteger(L, r->k.e.nin); return 1; }
  if (!strcmp(key, "nout")) { lua_pushinteger(L, r->k.e.nout); return 1; }
  if (!strcmp(key, "nargs")) { lua_pushinteger(L, r->k.e.nin + r->k.e.nout); return 1; }
  if (!strcmp(key, "reduce_dims")) { lua_pushboolean(L, r->k.e.reduce_dims); return 1; }
  if (!strcmp(key, "reduce_type")) {
    lua_pushstring(L, r->k.red_dtype >= 0 ? ga_dtypes[r->k.red_dtype].name : r->k.e.tnames[r->k.red_tvar]);
    return 1;
  }
  static const char *const texts[] = {"name", "in_params", "out_params", "map_expr", "reduce_expr",
                                      "post_map_expr", "identity", "preamble", NULL};
  for (int i = 0; texts[i]; i++)
    if (!strcmp(key, texts[i])) {
      lua_getiuservalue(L, 1, 1);
      if (lua_getfield(L, -1, key) == LUA_TNIL && !strcmp(key, "preamble")) lua_pushliteral(L, "");
      return 1;
    }
  return 0;
}

static int l_redk_tostring(lua_State *L) {
  lga_redk *r = check_redk(L, 1);
  lua_pushfstring(L, "<ReductionKernel '%s'>", r->k.e.name);
  return 1;
}

void lga_open_redk(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg meta[] = {{"__call", l_redk_call}, {"__tostring", l_redk_tostring}, {NULL, NULL}};
  static const luaL_Reg methods[] = {{"source", l_redk_source}, {"compile", l_redk_compile}, {NULL, NULL}};
  lga_newclass(L, mod, LGA_REDK_MT, meta, methods, l_redk_attrs);
  lua_pop(L, 1);
  static const luaL_Reg fns[] = {{"ReductionKernel", l_redk_new}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
}
