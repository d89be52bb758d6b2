/* Host matrix products (the matmul slot, ga_matmul_call).  Floats and
 * complex go through OpenBLAS: the CBLAS prototypes are declared here
 * (standard CBLAS ABI, 32-bit int as in Debian's libopenblas) so the build
 * needs the library only, not a cblas.h.  float16 has no BLAS: it is
 * widened to float32, multiplied with sgemm (float32 accumulation, as
 * cuBLAS does for CuPy) and rounded back to nearest.  Integers and bool
 * are our own loop: the sum accumulates in the unsigned type of the
 * result's width (32 or 64 bits), so it wraps exactly as NumPy's does in
 * the result dtype; bool is OR of ANDs. */
#include "host/ga_host.h"
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112 };
extern void cblas_sgemm(int order, int transa, int transb, int m, int n, int k, float alpha,
                        const float *a, int lda, const float *b, int ldb, float beta, float *c,
                        int ldc);
extern void cblas_dgemm(int order, int transa, int transb, int m, int n, int k, double alpha,
                        const double *a, int lda, const double *b, int ldb, double beta,
                        double *c, int ldc);
extern void cblas_cgemm(int order, int transa, int transb, int m, int n, int k, const void *alpha,
                        const void *a, int lda, const void *b, int ldb, const void *beta, void *c, int ldc);
extern void cblas_zgemm(int order, int transa, int transb, int m, int n, int k, const void *alpha,
                        const void *a, int lda, const void *b, int ldb, const void *beta, void *c, int ldc);

/* A (rows, cols) operand as BLAS sees it. */
typedef struct hb_mat {
  const char *p;
  int trans;           /* CblasNoTrans or CblasTrans */
  int ld;              /* leading dimension, elements */
  void *tmp;           /* owned copy, or NULL */
} hb_mat;

static int oom(int64_t bytes) {
  return ga_err(GA_ENOMEM, "matmul: out of memory allocating %lld bytes", (long long)bytes);
}

/* x (rows, cols) of dtype dt at strides (rs, cs) for a gemm of dtype gt:
 * direct when it is already of that dtype and laid out for BLAS, else a
 * dense row-major copy. */
static int hb_prepare(const char *x, int dt, int64_t rows, int64_t cols, int64_t rs, int64_t cs, int gt, hb_mat *m) {
  int64_t isz = GA_ITEMSIZE(gt), ld;
  int tr;
  m->tmp = NULL;
  if (dt == gt && (uintptr_t)x % (uintptr_t)isz == 0 && ga_matmul_layout(rows, cols, rs, cs, isz, &tr, &ld)) {
    m->p = x, m->trans = tr ? CblasTrans : CblasNoTrans, m->ld = (int)ld;
    return GA_OK;
  }
  if (ga_host_raw_alloc(NULL, (size_t)(rows * cols * isz), &m->tmp)) return oom(rows * cols * isz);
  ga_cast_fn cast = ga_host_cast_fn(dt, gt);
  for (int64_t i = 0; i < rows; i++) cast(x + i * rs, cs, (char *)m->tmp + i * cols * isz, isz, cols);
  m->p = m->tmp, m->trans = CblasNoTrans, m->ld = cols > 1 ? (int)cols : 1;
  return GA_OK;
}

static int gemm_one(const ga_matmul_call *c, const char *A, const char *B, char *O) {
  int dt = c->dtype, gt = dt == GA_FLOAT16 ? GA_FLOAT32 : dt;
  int64_t m = c->m, n = c->n, k = c->k, isz = GA_ITEMSIZE(dt), gsz = GA_ITEMSIZE(gt);
  hb_mat ma, mb;
  int rc = hb_prepare(A, dt, m, k, c->as[1], c->as[2], gt, &ma);
  if (rc) return rc;
  if ((rc = hb_prepare(B, dt, k, n, c->bs[1], c->bs[2], gt, &mb))) {
    ga_host_raw_free(NULL, ma.tmp);
    return rc;
  }
  /* C row-major with ldc; a float16 out or another layout gets a temporary */
  void *ctmp = NULL;
  char *C = O;
  int64_t ldc = m <= 1 ? n : c->os[1] / isz;
  if (dt != gt || (n > 1 && c->os[2] != isz) || (m > 1 && (c->os[1] % isz || c->os[1] < n * isz))) {
    if (ga_host_raw_alloc(NULL, (size_t)(m * n * gsz), &ctmp)) {
      ga_host_raw_free(NULL, ma.tmp);
      ga_host_raw_free(NULL, mb.tmp);
      return oom(m * n * gsz);
    }
    C = ctmp, ldc = n;
  }
  if (ldc < 1) ldc = 1;
  if (gt == GA_FLOAT32)
    cblas_sgemm(CblasRowMajor, ma.trans, mb.trans, (int)m, (int)n, (int)k, 1.0f, (const float *)ma.p, ma.ld,
                (const float *)mb.p, mb.ld, 0.0f, (float *)C, (int)ldc);
  else if (gt == GA_FLOAT64)
    cblas_dgemm(CblasRowMajor, ma.trans, mb.trans, (int)m, (int)n, (int)k, 1.0, (const double *)ma.p, ma.ld,
                (const double *)mb.p, mb.ld, 0.0, (double *)C, (int)ldc);
  else if (gt == GA_COMPLEX64) {
    const float one[2] = {1, 0}, zero[2] = {0, 0};
    cblas_cgemm(CblasRowMajor, ma.trans, mb.trans, (int)m, (int)n, (int)k, one, ma.p, ma.ld, mb.p, mb.ld, zero, C,
                (int)ldc);
  } else {
    const double one[2] = {1, 0}, zero[2] = {0, 0};
    cblas_zgemm(CblasRowMajor, ma.trans, mb.trans, (int)m, (int)n, (int)k, one, ma.p, ma.ld, mb.p, mb.ld, zero, C,
                (int)ldc);
  }
  if (ctmp) {
    ga_cast_fn cast = ga_host_cast_fn(gt, dt);
    for (int64_t i = 0; i < m; i++) cast((char *)ctmp + i * n * gsz, gsz, O + i * c->os[1], c->os[2], n);
  }
  ga_host_raw_free(NULL, ctmp);
  ga_host_raw_free(NULL, ma.tmp);
  ga_host_raw_free(NULL, mb.tmp);
  return GA_OK;
}

/* Integer and bool products: any strides.  i-l-j order over a row of
 * accumulators, so b is read along its rows. */
#define INT_MM(T, U)                                                                          \
  do {                                                                                        \
    U *acc = calloc((size_t)n, sizeof(U));                                                    \
    if (!acc) return oom(n * (int64_t)sizeof(U));                                             \
    for (int64_t i = 0; i < m; i++) {                                                         \
      memset(acc, 0, (size_t)n * sizeof(U));                                                  \
      for (int64_t l = 0; l < k; l++) {                                                       \
        U x = (U) * (const T *)(A + i * c->as[1] + l * c->as[2]);                             \
        if (!x) continue;                                                                     \
        const char *br = B + l * c->bs[1];                                                    \
        for (int64_t j = 0; j < n; j++) acc[j] += x * (U) * (const T *)(br + j * c->bs[2]);   \
      }                                                                                       \
      for (int64_t j = 0; j < n; j++) *(T *)(O + i * c->os[1] + j * c->os[2]) = (T)acc[j];    \
    }                                                                                         \
    free(acc);                                                                                \
  } while (0)

static int int_one(const ga_matmul_call *c, const char *A, const char *B, char *O) {
  int64_t m = c->m, n = c->n, k = c->k;
  switch (c->dtype) {
  case GA_BOOL: {
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        bool s = false;
        for (int64_t l = 0; l < k && !s; l++)
          s = *(const bool *)(A + i * c->as[1] + l * c->as[2]) && *(const bool *)(B + l * c->bs[1] + j * c->bs[2]);
        *(bool *)(O + i * c->os[1] + j * c->os[2]) = s;
      }
    return GA_OK;
  }
  case GA_INT8: INT_MM(int8_t, uint32_t); break;
  case GA_UINT8: INT_MM(uint8_t, uint32_t); break;
  case GA_INT16: INT_MM(int16_t, uint32_t); break;
  case GA_UINT16: INT_MM(uint16_t, uint32_t); break;
  case GA_INT32: INT_MM(int32_t, uint32_t); break;
  case GA_UINT32: INT_MM(uint32_t, uint32_t); break;
  case GA_INT64: INT_MM(int64_t, uint64_t); break;
  case GA_UINT64: INT_MM(uint64_t, uint64_t); break;
  default: return ga_err(GA_EINVAL, "matmul: no host product for dtype %s", ga_dtypes[c->dtype].name);
  }
  return GA_OK;
}

int ga_host_matmul_call(const ga_matmul_call *c) {
  int dt = c->dtype;
  bool blas = GA_IS_FLOAT(dt) || GA_IS_COMPLEX(dt);
  if (c->m <= 0 || c->n <= 0 || c->k <= 0 || c->batch <= 0) return GA_OK;
  if (c->m > INT_MAX || c->n > INT_MAX || c->k > INT_MAX)
    return ga_err(GA_EINVAL, "matmul: dimension over %d is too large for BLAS", INT_MAX);
  for (int64_t bi = 0; bi < c->batch; bi++) {
    const char *A = c->a + bi * c->as[0], *B = c->b + bi * c->bs[0];
    char *O = c->out + bi * c->os[0];
    int rc = blas ? gemm_one(c, A, B, O) : int_one(c, A, B, O);
    if (rc) return rc;
  }
  return GA_OK;
}

/* Byte range [lo, hi) that x's elements touch. */
static void hb_extent(const ga_array *x, const char **lo, const char **hi) {
  int64_t a = 0, b = 0;
  for (int d = 0; d < x->ndim; d++) {
    int64_t e = (x->shape[d] - 1) * x->strides[d];
    if (e < 0) a += e; else b += e;
  }
  *lo = GA_DATA(x) + a;
  *hi = GA_DATA(x) + b + GA_ITEMSIZE(x->dtype);
}

static bool hb_overlap(const ga_array *x, const ga_array *y) {
  const char *xl, *xh, *yl, *yh;
  hb_extent(x, &xl, &xh);
  hb_extent(y, &yl, &yh);
  return xl < yh && yl < xh;
}

/* 2-D convenience (the C tests): out = a @ b, one dtype, out C-contiguous
 * (m, n); a and b may have any strides and may overlap out. */
int ga_host_matmul(const ga_array *a, const ga_array *b, ga_array *out) {
  if (a->ndim != 2 || b->ndim != 2 || out->ndim != 2)
    return ga_err(GA_EINVAL, "matmul: host matmul takes 2-D arrays, got %d-D and %d-D into %d-D",
                  a->ndim, b->ndim, out->ndim);
  int dt = a->dtype;
  if (b->dtype != dt || out->dtype != dt)
    return ga_err(GA_EINVAL, "matmul: host matmul takes arrays of one dtype, got %s, %s -> %s",
                  ga_dtypes[a->dtype].name, ga_dtypes[b->dtype].name, ga_dtypes[out->dtype].name);
  int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1], isz = GA_ITEMSIZE(dt);
  if (b->shape[0] != k || out->shape[0] != m || out->shape[1] != n)
    return ga_err(GA_EINVAL, "matmul: shapes (%lld,%lld) @ (%lld,%lld) -> (%lld,%lld) do not match",
                  (long long)m, (long long)k, (long long)b->shape[0], (long long)n,
                  (long long)out->shape[0], (long long)out->shape[1]);
  if (m == 0 || n == 0) return GA_OK;
  if ((m > 1 && out->strides[0] != n * isz) || (n > 1 && out->strides[1] != isz))
    return ga_err(GA_EINVAL, "matmul: host output must be C-contiguous");
  if (k == 0) {                                   /* empty sum */
    memset(GA_DATA(out), 0, (size_t)(m * n * isz));
    return GA_OK;
  }
  void *tmp = NULL;
  char *o = GA_DATA(out);
  if (hb_overlap(a, out) || hb_overlap(b, out)) {
    if (ga_host_raw_alloc(NULL, (size_t)(m * n * isz), &tmp)) return oom(m * n * isz);
    o = tmp;
  }
  ga_matmul_call c = {.dtype = dt, .m = m, .n = n, .k = k, .batch = 1, .a = GA_DATA(a), .b = GA_DATA(b), .out = o,
                      .as = {0, a->strides[0], a->strides[1]}, .bs = {0, b->strides[0], b->strides[1]},
                      .os = {0, n * isz, isz}, .device = GA_CPU};
  int rc = ga_host_matmul_call(&c);
  if (tmp) {
    if (!rc) memcpy(GA_DATA(out), tmp, (size_t)(m * n * isz));
    ga_host_raw_free(NULL, tmp);
  }
  return rc;
}
