/* ga.matmul(a, b [, {out=, dtype=}]) with NumPy's rules (core/ga_matmul.c):
 * 1-D operands, stacks of matrices with broadcast batch dimensions, every
 * numeric dtype, promotion, out=.  An operand is copied only when its dtype
 * differs from the product's or the backend cannot read its layout (a
 * broadcast one never is: the copy is of the operand as given); an out= of
 * another dtype or layout, or one overlapping an operand, receives the
 * product through a temporary.  The common call (two arrays, no options)
 * does no Lua-side work beyond reading its two arguments. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_matmul.h"
#include <stdio.h>
#include <string.h>

static const char *const mm_options[] = {"out", "dtype", NULL};

/* both devices and the fix: x:to(<the first operand's device>) */
static void same_device(lua_State *L, const char *fname, const ga_array *a, const ga_array *b) {
  if (GA_DEVICE(a) != GA_DEVICE(b)) {
    char d1[32], d2[32];
    const char *n1 = ga_device_name(GA_DEVICE(a), d1);
    lga_errorf(L, fname, "operands are on different devices (%s and %s); move one with x:to(\"%s\") "
               "(or ga.asarray(x) to the GPU, x:get() to the host)", n1, ga_device_name(GA_DEVICE(b), d2), n1);
  }
}

static int l_matmul(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, fname), *b = lga_check(L, 2, fname);
  lga_check_current(L, S, a, fname);
  lga_check_current(L, S, b, fname);
  same_device(L, fname, a, b);
  int dev = GA_DEVICE(a), out_idx = 0, dt;
  ga_array *out = NULL;
  if (lua_isnoneornil(L, 3)) {
    dt = a->dtype == b->dtype ? a->dtype : ga_promote(a->dtype, b->dtype);
  } else {
    if (lua_type(L, 3) != LUA_TTABLE || lga_toarray(L, 3))
      return lga_errorf(L, fname, "argument 3 must be an options table {out=, dtype=}, got %s", luaL_typename(L, 3));
    lga_check_options(L, 3, fname, mm_options);
    lua_getfield(L, 3, "dtype");
    dt = lga_opt_dtype(L, -1, fname, -1);
    lua_pop(L, 1);
    if (dt < 0) dt = ga_promote(a->dtype, b->dtype);
    else
      for (int i = 0; i < 2; i++) {
        int from = (i ? b : a)->dtype;
        if (!ga_can_cast(from, dt, GA_CAST_SAME_KIND))
          return lga_errorf(L, fname, "Cannot cast ufunc 'matmul' input %d from dtype('%s') to dtype('%s') with "
                            "casting rule 'same_kind'", i, ga_dtypes[from].name, ga_dtypes[dt].name);
      }
    if (lua_getfield(L, 3, "out") != LUA_TNIL) {
      out_idx = lua_gettop(L);
      out = lga_check(L, out_idx, fname);
      lga_check_current(L, S, out, fname);
      same_device(L, fname, a, out);
    } else {
      lua_pop(L, 1);
    }
  }
  int nd;
  int64_t shape[GA_MAXDIM];
  if (ga_matmul_shape(a, b, &nd, shape)) return lga_fail(L, fname);
  if (out) {
    if (out->ndim != nd)
      return lga_errorf(L, fname, "Output operand 0 does not have the product's %d dimensions (has %d)", nd,
                        out->ndim);
    for (int d = 0; d < nd; d++)
      if (out->shape[d] != shape[d]) {
        char s1[256], s2[256];
        return lga_errorf(L, fname, "Output operand 0 has shape %s, the product's is %s",
                          ga_shape_str(out->ndim, out->shape, s1, sizeof s1), ga_shape_str(nd, shape, s2, sizeof s2));
      }
    if (!ga_can_cast(dt, out->dtype, GA_CAST_SAME_KIND))
      return lga_errorf(L, fname, "Cannot cast ufunc 'matmul' output from dtype('%s') to dtype('%s') with casting "
                        "rule 'same_kind'", ga_dtypes[dt].name, ga_dtypes[out->dtype].name);
  }
  /* operands the backend can take: a at A_idx, b at B_idx */
  int A_idx = 1, B_idx = 2;
  ga_array *A = a, *B = b;
  if (!ga_matmul_operand_ok(a, dt)) {
    A = lga_to_device(L, S, 1, dev, dt, 1, fname);
    A_idx = lua_gettop(L);
  }
  if (!ga_matmul_operand_ok(b, dt)) {
    B = lga_to_device(L, S, 2, dev, dt, 1, fname);
    B_idx = lua_gettop(L);
  }
  (void)A_idx, (void)B_idx;   /* they stay on the stack (alive) until we return */
  ga_array *target;
  if (out && out->dtype == dt && ga_matmul_out_ok(out, A, B)) {
    target = out;
    lua_pushvalue(L, out_idx);
  } else {
    target = lga_new_array(L, S, fname, dev, dt, nd, shape);
  }
  int target_idx = lua_gettop(L);
  if (target->size > 0) {
    if (a->shape[a->ndim - 1] == 0) {   /* an empty sum */
      ga_operand z = {GA_ARG_INT, NULL, 0, 0};
      lga_run_fill(L, S, target, &z, fname);
    } else if (ga_matmul_run(A, B, target, lga_stream(S, dev))) {
      return lga_fail(L, fname);
    }
  }
  if (out && target != out) {
    lga_run_copy(L, S, out, target, fname);
    lua_pushvalue(L, out_idx);
    return 1;
  }
  lua_pushvalue(L, target_idx);
  return 1;
}

void lga_open_blas(lua_State *L) {
  static const luaL_Reg fns[] = {{"matmul", l_matmul}, {NULL, NULL}};
  lga_setfuncs(L, fns, -1);
}
