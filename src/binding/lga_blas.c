/* ga.matmul / a:dot(b) for 2-D float16/32/64: cuBLAS on a GPU, OpenBLAS on
 * the host.  Operands are promoted to a common dtype and made contiguous
 * (C or F order) first when needed. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include <stdio.h>
#include <string.h>

/* Push an operand usable by BLAS: dtype dt, C- or F-contiguous. */
static ga_array *blas_operand(lua_State *L, lga_state *S, int idx, int dt) {
  ga_array *a = lga_toarray(L, idx);
  if (a->dtype == dt && (ga_is_c_contiguous(a) || ga_is_f_contiguous(a))) {
    lua_pushvalue(L, idx);
    return a;
  }
  return lga_to_device(L, S, idx, GA_DEVICE(a), dt, 1, "matmul");
}

static int l_matmul(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, fname), *b = lga_check(L, 2, fname);
  lga_check_current(L, S, a, fname);
  lga_check_current(L, S, b, fname);
  if (GA_DEVICE(a) != GA_DEVICE(b)) {
    char d1[32], d2[32];
    return lga_errorf(L, fname, "operands are on different devices (%s and %s); move one with x:to(\"%s\") or x:get()",
                      ga_device_name(GA_DEVICE(a), d1), ga_device_name(GA_DEVICE(b), d2),
                      ga_device_name(GA_DEVICE(a), d1));
  }
  if (a->ndim != 2 || b->ndim != 2)
    return lga_errorf(L, fname, "only 2-D operands are supported for now (got %d-D and %d-D)", a->ndim, b->ndim);
  if (a->shape[1] != b->shape[0]) {
    char s1[128], s2[128];
    return lga_errorf(L, fname, "shapes %s and %s not aligned: %lld (dim 2) != %lld (dim 1)",
                      ga_shape_str(2, a->shape, s1, sizeof s1), ga_shape_str(2, b->shape, s2, sizeof s2),
                      (long long)a->shape[1], (long long)b->shape[0]);
  }
  int dt = ga_promote(a->dtype, b->dtype);
  if (dt != GA_FLOAT16 && dt != GA_FLOAT32 && dt != GA_FLOAT64)
    return lga_errorf(L, fname, "dtype %s is not supported (float16, float32 and float64 are)", ga_dtypes[dt].name);
  ga_array *A = blas_operand(L, S, 1, dt), *B = blas_operand(L, S, 2, dt);
  int64_t shape[2] = {a->shape[0], b->shape[1]};
  ga_array *out = lga_new_array(L, S, fname, GA_DEVICE(a), dt, 2, shape);
  if (a->shape[1] == 0) {
    ga_operand z = {GA_ARG_INT, NULL, 0, 0};
    lga_run_fill(L, S, out, &z, fname);
    return 1;
  }
  int rc = ga_matmul(A, B, out, lga_stream(S, GA_DEVICE(a)));
  if (rc) return lga_fail(L, fname);
  return 1;
}

void lga_open_blas(lua_State *L) {
  static const luaL_Reg fns[] = {{"matmul", l_matmul}, {NULL, NULL}};
  lga_setfuncs(L, fns, -1);
}
