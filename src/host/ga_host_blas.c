/* Host matmul through OpenBLAS.  The two CBLAS prototypes are declared here
 * (standard CBLAS ABI, 32-bit int as in Debian's libopenblas) so that the
 * build needs the library only, not a cblas.h.  float16 has no BLAS: it is
 * widened to float32, multiplied with sgemm (float32 accumulation, as
 * cuBLAS does for CuPy) and rounded back to nearest. */
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

/* A (rows, cols) operand as BLAS sees it. */
typedef struct hb_mat {
  const char *p;
  int trans;           /* CblasNoTrans or CblasTrans */
  int ld;              /* leading dimension, elements */
  void *tmp;           /* owned copy, or NULL */
} hb_mat;

/* Can BLAS read (rows, cols) at strides (rs, cs) bytes directly?  Either rows
 * are contiguous (row-major, ld = rs) or columns are (transposed, ld = cs);
 * a stride over an axis of length 1 does not matter. */
static bool hb_direct(int64_t rows, int64_t cols, int64_t rs, int64_t cs, int64_t isz,
                      int *trans, int *ld) {
  if ((cols <= 1 || cs == isz) && (rows <= 1 || (rs > 0 && rs % isz == 0 && rs / isz >= cols))) {
    int64_t l = rows <= 1 ? (cols > 1 ? cols : 1) : rs / isz;
    if (l <= INT_MAX) { *trans = CblasNoTrans, *ld = (int)l; return true; }
  }
  if ((rows <= 1 || rs == isz) && (cols <= 1 || (cs > 0 && cs % isz == 0 && cs / isz >= rows))) {
    int64_t l = cols <= 1 ? (rows > 1 ? rows : 1) : cs / isz;
    if (l <= INT_MAX) { *trans = CblasTrans, *ld = (int)l; return true; }
  }
  return false;
}

/* Prepare x (rows, cols) for a gemm of dtype `gt`: direct when it is already
 * of that dtype and laid out for BLAS, else a dense row-major copy. */
static int hb_prepare(const ga_array *x, int gt, hb_mat *m) {
  int64_t rows = x->shape[0], cols = x->shape[1], isz = GA_ITEMSIZE(gt);
  m->tmp = NULL;
  if (x->dtype == gt && (uintptr_t)GA_DATA(x) % isz == 0 &&
      hb_direct(rows, cols, x->strides[0], x->strides[1], isz, &m->trans, &m->ld)) {
    m->p = GA_DATA(x);
    return GA_OK;
  }
  if (ga_host_raw_alloc(NULL, (size_t)(rows * cols * isz), &m->tmp))
    return ga_err(GA_ENOMEM, "matmul: out of memory allocating %lld bytes",
                  (long long)(rows * cols * isz));
  ga_cast_fn cast = ga_host_cast_fn(x->dtype, gt);
  for (int64_t i = 0; i < rows; i++)
    cast(GA_DATA(x) + i * x->strides[0], x->strides[1], (char *)m->tmp + i * cols * isz, isz, cols);
  m->p = m->tmp;
  m->trans = CblasNoTrans;
  m->ld = cols > 1 ? (int)cols : 1;
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

int ga_host_matmul(const ga_array *a, const ga_array *b, ga_array *out) {
  if (a->ndim != 2 || b->ndim != 2 || out->ndim != 2)
    return ga_err(GA_EINVAL, "matmul: host matmul takes 2-D arrays, got %d-D and %d-D into %d-D",
                  a->ndim, b->ndim, out->ndim);
  int dt = a->dtype;
  if (b->dtype != dt || out->dtype != dt || (dt != GA_FLOAT16 && dt != GA_FLOAT32 && dt != GA_FLOAT64))
    return ga_err(GA_EINVAL, "matmul: host matmul takes float16/32/64 of one dtype, got %s, %s -> %s",
                  ga_dtypes[a->dtype].name, ga_dtypes[b->dtype].name, ga_dtypes[out->dtype].name);
  int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1], isz = GA_ITEMSIZE(dt);
  if (b->shape[0] != k || out->shape[0] != m || out->shape[1] != n)
    return ga_err(GA_EINVAL, "matmul: shapes (%lld,%lld) @ (%lld,%lld) -> (%lld,%lld) do not match",
                  (long long)m, (long long)k, (long long)b->shape[0], (long long)n,
                  (long long)out->shape[0], (long long)out->shape[1]);
  if (m == 0 || n == 0) return GA_OK;
  if ((m > 1 && out->strides[0] != n * isz) || (n > 1 && out->strides[1] != isz))
    return ga_err(GA_EINVAL, "matmul: host output must be C-contiguous");
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
    return ga_err(GA_EINVAL, "matmul: dimension over %d is too large for BLAS", INT_MAX);
  if (k == 0) {                                   /* empty sum */
    memset(GA_DATA(out), 0, (size_t)(m * n * isz));
    return GA_OK;
  }

  int gt = dt == GA_FLOAT16 ? GA_FLOAT32 : dt;    /* gemm dtype */
  int64_t gsz = GA_ITEMSIZE(gt);
  hb_mat ma, mb;
  int rc = hb_prepare(a, gt, &ma);
  if (rc) return rc;
  if ((rc = hb_prepare(b, gt, &mb))) {
    ga_host_raw_free(NULL, ma.tmp);
    return rc;
  }
  /* BLAS writes C while it reads A and B: an out that overlaps a direct
   * operand, or a float16 out, gets a temporary. */
  void *ctmp = NULL;
  char *c = GA_DATA(out);
  if (dt == GA_FLOAT16 || (!ma.tmp && hb_overlap(a, out)) || (!mb.tmp && hb_overlap(b, out))) {
    if (ga_host_raw_alloc(NULL, (size_t)(m * n * gsz), &ctmp)) {
      ga_host_raw_free(NULL, ma.tmp);
      ga_host_raw_free(NULL, mb.tmp);
      return ga_err(GA_ENOMEM, "matmul: out of memory allocating %lld bytes", (long long)(m * n * gsz));
    }
    c = ctmp;
  }
  if (gt == GA_FLOAT32)
    cblas_sgemm(CblasRowMajor, ma.trans, mb.trans, (int)m, (int)n, (int)k, 1.0f,
                (const float *)ma.p, ma.ld, (const float *)mb.p, mb.ld, 0.0f, (float *)c, (int)n);
  else
    cblas_dgemm(CblasRowMajor, ma.trans, mb.trans, (int)m, (int)n, (int)k, 1.0,
                (const double *)ma.p, ma.ld, (const double *)mb.p, mb.ld, 0.0, (double *)c, (int)n);
  if (ctmp) ga_host_cast_fn(gt, dt)(ctmp, gsz, GA_DATA(out), isz, m * n);
  ga_host_raw_free(NULL, ctmp);
  ga_host_raw_free(NULL, ma.tmp);
  ga_host_raw_free(NULL, mb.tmp);
  return GA_OK;
}
