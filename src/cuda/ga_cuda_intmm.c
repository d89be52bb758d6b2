/* Integer matrix products on the int8 tensor cores (the matmul slot's
 * integer path above a size, ga_cuda_blas.c decides).  NumPy's integer
 * matmul wraps modulo 2^w (w the dtype's bits), so the product can be
 * built from w/8 = ND signed 8-bit digits per element, exactly:
 *   a = sum_j d_j 256^j, b = sum_l e_l 256^l  (mod 2^w), d, e in [-128, 127]
 *   A B = sum_s 2^(8s) C_s,  C_s = sum_{j+l=s} D_j E_l   (mod 2^w, s < ND).
 * One split kernel per operand writes its digit matrices side by side along
 * k (A: [D_0|D_1|..], B: reversed [E_ND-1|..|E_0], k padded to 16 with
 * zeros), so that each C_s is ONE int8 GEMM of depth (s+1) kp over
 * sub-matrices of the two digit buffers (cublasGemmEx / StridedBatchedEx,
 * CUDA_R_8I in, CUDA_R_32I out, CUBLAS_COMPUTE_32I, both operands k-major:
 * the "TN" layout IMMA wants); a combine kernel adds the C_s << 8s into the
 * output (any strides) in the output's width.  A digit product is at most
 * 2^14 in magnitude, so an int32 sum of fewer than 2^17 of them is exact:
 * k is cut into slices of at most 131071 / ND (rounded down to 16), the
 * combine adding each slice's part to the output.  Batches: strided
 * batched GEMMs (a broadcast operand, batch stride 0, is split once),
 * in groups whose scratch stays below SCRATCH_CAP.  Workspace from the
 * device's pool, everything on the call's stream (queued kernels are
 * flushed first).  GPUARRAY_INTMM=0 turns the path off, =1 takes it for
 * every integer product (tests); GPUARRAY_INTMM_KSLICE=n cuts k into slices
 * of n (rounded up to 16) and GPUARRAY_INTMM_GROUP=n batches into groups of
 * at most n (tests of the slicing and grouping). */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "base/ga_strbuf.h"
#include "base/ga_scratch.h"
#include <cublas_v2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_intmm[];

#define KFAM_INTMM 0xB7
#define MAX_TERMS 131071                      /* 2^17 - 1 digit products per int32 sum */
#define SCRATCH_CAP ((int64_t)1 << 30)        /* bytes of one batch group's scratch */
#define MAX_GRID_YZ 65535
#define ALIGN 256

static cublasHandle_t handles[GA_MAX_DEVICES];
static pthread_mutex_t locks[GA_MAX_DEVICES];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int env_mode = -1;    /* GPUARRAY_INTMM: -1 by size, 0 never, 1 always */
static int64_t env_kslice;   /* GPUARRAY_INTMM_KSLICE, 0: none */
static int64_t env_group;    /* GPUARRAY_INTMM_GROUP, 0: none */

static void init(void) {
  for (int i = 0; i < GA_MAX_DEVICES; i++) pthread_mutex_init(&locks[i], NULL);
  const char *e = getenv("GPUARRAY_INTMM");
  if (e && !strcmp(e, "0")) env_mode = 0;
  else if (e && !strcmp(e, "1")) env_mode = 1;
  e = getenv("GPUARRAY_INTMM_KSLICE");
  if (e) {
    long long v = atoll(e);
    if (v > 0) env_kslice = (v + 15) / 16 * 16;
  }
  e = getenv("GPUARRAY_INTMM_GROUP");
  if (e && atoll(e) > 0) env_group = atoll(e);
}

/* digits per element: the integer dtypes; 0 for the rest */
static int ndigits(int dt) {
  switch (dt) {
  case GA_INT8: case GA_UINT8: return 1;
  case GA_INT16: case GA_UINT16: return 2;
  case GA_INT32: case GA_UINT32: return 4;
  case GA_INT64: case GA_UINT64: return 8;
  default: return 0;
  }
}

static const char *utype(int nd) {
  return nd == 1 ? "unsigned char" : nd == 2 ? "unsigned short" : nd == 4 ? "unsigned int" : "unsigned long long";
}

static int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

static char *gen_source(const void *ud) {
  int dt = *(const int *)ud, nd = ndigits(dt);
  if (!nd) return NULL;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_printf(&b, "\n// integer matmul on int8 tensor cores: %s, %d digits\n", ga_dtypes[dt].name, nd);
  ga_sb_printf(&b, "typedef %s TIN;\ntypedef %s TU;\ntypedef %s TACC;\n#define ND %d\n", ga_cu_type(dt), utype(nd),
               nd == 8 ? "unsigned long long" : "unsigned int", nd);
  ga_sb_puts(&b, ga_kernel_ga_intmm);
  return ga_sb_take(&b);
}

char *ga_cuda_intmm_source(int dtype) {
  if (dtype < 0 || dtype >= GA_NDTYPES || !ndigits(dtype)) {
    ga_err(GA_ETYPE, "the tensor-core integer product takes integer dtypes");
    return NULL;
  }
  return gen_source(&dtype);
}

static int kernel(int dev, int dt, int which, void **k) {
  ga_kkey key;
  ga_kpack p;
  ga_kpack_init(&p, &key, KFAM_INTMM);
  ga_kpack_put(&p, (uint64_t)dt, 5);
  ga_kpack_put(&p, (uint64_t)which, 1);
  return ga_cuda_kernel_get(dev, &key, which ? "ga_intmm_combine" : "ga_intmm_split", gen_source, &dt, k);
}

int ga_cuda_intmm_applies(const ga_matmul_call *c) {
  int nd = ndigits(c->dtype);
  if (!nd) return 0;
  pthread_once(&once, init);
  if (env_mode == 0) return 0;
  /* the split's grid (rows in its y) and the combine's (m n / 256 in x) */
  if (c->m > (int64_t)MAX_GRID_YZ * 32 || c->n > (int64_t)MAX_GRID_YZ * 32) return 0;
  if ((double)c->m * (double)c->n >= (double)INT32_MAX * 128) return 0;
  if (ga_cuda_arch(c->device) < 75) return 0;   /* int8 tensor cores: Turing and later */
  if (env_mode == 1) return 1;
  double work = (double)c->batch * (double)c->m * (double)c->n * (double)c->k;
  /* below this the tiled kernel (one queued launch) is as fast; int64 is
   * slow on the CUDA cores, so it crosses over earlier */
  double min_work = nd == 8 ? (double)((int64_t)1 << 27) : (double)((int64_t)1 << 28);
  return c->m >= 64 && c->n >= 64 && c->k >= 64 && work >= min_work;
}

static int blas_error(cublasStatus_t s, const char *what) {
  return ga_err(GA_EBLAS, "cuBLAS error in %s: %s", what, cublasGetStatusString(s));
}

/* The plan: the slice of k, the digit buffers' row length, the batch group. */
typedef struct intmm_plan {
  int nd;
  int64_t ks, kp, ldd, ldc;       /* k slice, padded slice, digit row length nd*kp, C_s row stride */
  int64_t mp, np;                 /* m, n padded to 16 (zero digit rows): every GEMM size a multiple of 16 */
  int a_bc, b_bc;                 /* operand broadcast over the batch (split once per group) */
  int64_t group;                  /* batch elements per group */
  int64_t da, db, dc;             /* bytes: A's and B's digits, the C_s (per group) */
} intmm_plan;

static void make_plan(const ga_matmul_call *c, intmm_plan *p) {
  int nd = p->nd = ndigits(c->dtype);
  int64_t ks = (MAX_TERMS / nd) / 16 * 16;
  if (env_kslice > 0 && env_kslice < ks) ks = env_kslice;
  p->ks = c->k < ks ? c->k : ks;
  p->kp = round_up(p->ks, 16);
  p->ldd = nd * p->kp;
  p->mp = round_up(c->m, 16);
  p->np = p->ldc = round_up(c->n, 16);
  p->a_bc = c->batch == 1 || c->as[0] == 0;
  p->b_bc = c->batch == 1 || c->bs[0] == 0;
  int64_t ma = round_up(p->mp * p->ldd, ALIGN), mb = round_up(p->np * p->ldd, ALIGN);
  int64_t mc = p->mp * p->ldc * 4 * nd;   /* one batch element's C_s */
  int64_t fixed = (p->a_bc ? ma : 0) + (p->b_bc ? mb : 0);
  int64_t per = (p->a_bc ? 0 : ma) + (p->b_bc ? 0 : mb) + mc;
  int64_t g = SCRATCH_CAP > fixed ? (SCRATCH_CAP - fixed) / per : 1;
  if (g < 1) g = 1;
  if (g > c->batch) g = c->batch;
  if (g > MAX_GRID_YZ) g = MAX_GRID_YZ;
  if (env_group > 0 && g > env_group) g = env_group;
  p->group = g;
  p->da = ma * (p->a_bc ? 1 : g);
  p->db = mb * (p->b_bc ? 1 : g);
  p->dc = round_up(mc * g, ALIGN);
}

/* digits of one operand's slice: X (rows, kc) at element strides (sxr, sxk),
 * nz batch elements sxb apart -> D (prows, ldd) per batch element, rows
 * past `rows` zero */
static int split(void *kern, void *stream, const char *X, long long sxb, long long sxr, long long sxk, void *D,
                 const intmm_plan *p, int rows, int prows, int kc, int64_t nz, int rev) {
  long long sdb = (long long)prows * p->ldd, ldd = p->ldd, kp = p->kp;
  int kfast = (sxk < 0 ? -sxk : sxk) <= (sxr < 0 ? -sxr : sxr);
  void *args[13] = {&X, &sxb, &sxr, &sxk, &D, &sdb, &ldd, &kp, &rows, &prows, &kc, &kfast, &rev};
  unsigned grid[3] = {(unsigned)((p->kp + 31) / 32), (unsigned)((prows + 31) / 32), (unsigned)nz};
  unsigned block[3] = {256, 1, 1};
  return ga_cuda_launch_now3(kern, grid, block, 0, stream, args);
}

static int handle(int dev, void *stream, cublasHandle_t *h) {
  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
  if (!handles[dev]) s = cublasCreate(&handles[dev]);
  if (s != CUBLAS_STATUS_SUCCESS) {
    handles[dev] = NULL;
    return blas_error(s, "cublasCreate");
  }
  *h = handles[dev];
  s = cublasSetStream(*h, (cudaStream_t)stream);
  return s == CUBLAS_STATUS_SUCCESS ? GA_OK : blas_error(s, "cublasSetStream");
}

/* C_s = sum_{j<=s} D_j E_(s-j) for s < nd, nz batch elements: row-major
 * C (m, n) = column-major C^T (n, m) = op(B digits) op(A digits) with both
 * digit buffers k-major (transa T, transb N) */
static int gemms(cublasHandle_t h, const intmm_plan *p, const signed char *DA, const signed char *DB, int *C,
                 int64_t nz, int *unsupported) {
  const int32_t one = 1, zero = 0;
  int m = (int)p->mp, n = (int)p->np, ldd = (int)p->ldd, ldc = (int)p->ldc;
  long long sa = p->a_bc ? 0 : (long long)p->mp * p->ldd, sb = p->b_bc ? 0 : (long long)p->np * p->ldd;
  long long sc = (long long)p->mp * p->ldc;
  for (int s = 0; s < p->nd; s++) {
    int kk = (int)((s + 1) * p->kp);
    const signed char *X = DB + (p->nd - 1 - s) * p->kp;
    int *Cs = C + (int64_t)s * p->group * sc;
    cublasStatus_t st;
    if (nz == 1)
      st = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, kk, &one, X, CUDA_R_8I, ldd, DA, CUDA_R_8I, ldd, &zero,
                        Cs, CUDA_R_32I, ldc, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
    else
      st = cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, kk, &one, X, CUDA_R_8I, ldd, sb, DA,
                                      CUDA_R_8I, ldd, sa, &zero, Cs, CUDA_R_32I, ldc, sc, (int)nz,
                                      CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
    if (st == CUBLAS_STATUS_NOT_SUPPORTED) {   /* no int8 GEMM here: the caller takes the tiled kernel */
      *unsupported = 1;
      return GA_OK;
    }
    if (st != CUBLAS_STATUS_SUCCESS)
      return blas_error(st, nz == 1 ? "cublasGemmEx (int8)" : "cublasGemmStridedBatchedEx (int8)");
  }
  return GA_OK;
}

int ga_cuda_intmm(const ga_matmul_call *c, int *done) {
  int dev = c->device, dt = c->dtype, rc;
  *done = 1;
  if (dev < 0 || dev >= GA_MAX_DEVICES) return ga_err(GA_EDEVICE, "no CUDA device %d", dev);
  pthread_once(&once, init);
  void *ksplit, *kcomb;
  if ((rc = kernel(dev, dt, 0, &ksplit)) || (rc = kernel(dev, dt, 1, &kcomb))) return rc;
  intmm_plan p;
  make_plan(c, &p);
  ga_scratch w = {0};
  if (ga_scratch_get(ga_cuda_pool(dev), (size_t)(p.da + p.db + p.dc), c->stream, &w)) {
    *done = 0;   /* no room for the digits: the tiled kernel needs none */
    return GA_OK;
  }
  signed char *DA = w.ptr, *DB = DA + p.da;
  int *C = (int *)(DB + p.db);
  int64_t isz = GA_ITEMSIZE(dt);
  long long as[3], bs[3], os[3];
  for (int i = 0; i < 3; i++) as[i] = c->as[i] / isz, bs[i] = c->bs[i] / isz, os[i] = c->os[i] / isz;
  void *stream = c->stream;
  ga_scratch ws = {0};   /* cuBLAS's workspace, from the allocator in use (before the lock) */
  void *wp;
  size_t wn;
  if ((rc = ga_cuda_blas_workspace_get(dev, stream, 0, &ws, &wp, &wn))) {
    if (rc == GA_ENOMEM) *done = 0, rc = GA_OK;   /* no room: the tiled kernel needs none */
    goto out;
  }
  if ((rc = ga_cuda_flush(dev))) goto out;   /* after the kernels queued so far (which may write a, b) */
  pthread_mutex_lock(&locks[dev]);
  cublasHandle_t h = NULL;
  int unsupported = 0;
  if ((rc = handle(dev, stream, &h)) || (rc = ga_cuda_blas_workspace_set(h, wp, wn))) goto unlock;
  for (int64_t z0 = 0; z0 < c->batch; z0 += p.group) {
    int64_t nz = c->batch - z0 < p.group ? c->batch - z0 : p.group;
    for (int64_t k0 = 0; k0 < c->k; k0 += p.ks) {
      int kc = (int)(c->k - k0 < p.ks ? c->k - k0 : p.ks);
      const char *A = c->a + z0 * c->as[0] + k0 * c->as[2], *B = c->b + z0 * c->bs[0] + k0 * c->bs[1];
      if ((rc = split(ksplit, stream, A, as[0], as[1], as[2], DA, &p, (int)c->m, (int)p.mp, kc, p.a_bc ? 1 : nz,
                      0)) ||
          (rc = split(ksplit, stream, B, bs[0], bs[2], bs[1], DB, &p, (int)c->n, (int)p.np, kc, p.b_bc ? 1 : nz,
                      1)) ||
          (rc = gemms(h, &p, DA, DB, C, nz, &unsupported)))
        goto unlock;
      if (unsupported) {
        *done = 0;
        goto unlock;
      }
      /* out (+)= sum_s C_s << 8s */
      char *O = c->out + z0 * c->os[0];
      long long scs = (long long)p.group * p.mp * p.ldc, scb = (long long)p.mp * p.ldc, ldc = p.ldc;
      int m = (int)c->m, n = (int)c->n, acc = k0 > 0;
      void *args[11] = {&C, &scs, &scb, &ldc, &O, &os[0], &os[1], &os[2], &m, &n, &acc};
      unsigned grid[3] = {(unsigned)((c->m * c->n + 255) / 256), (unsigned)nz, 1}, block[3] = {256, 1, 1};
      if ((rc = ga_cuda_launch_now3(kcomb, grid, block, 0, stream, args))) goto unlock;
    }
  }
unlock:
  pthread_mutex_unlock(&locks[dev]);
out:
  ga_scratch_put(&ws);
  ga_scratch_put(&w);   /* stream-ordered: reused only by later work of this stream */
  return rc;
}
