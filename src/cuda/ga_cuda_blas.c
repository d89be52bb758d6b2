/* Matrix products on a GPU (the matmul slot, ga_matmul_call).
 * - float16/32/64, complex64/128: cuBLAS, one cublasGemmEx or one
 *   cublasGemmStridedBatchedEx per call (batch strides may be 0: broadcast
 *   operands are not copied), transposed and padded operands through the
 *   transpose flags and leading dimensions (ga_matmul_layout); float16 in
 *   float32 compute as CuPy.  cuBLAS handles are per device, created on
 *   first use (never at require time) and driven under a lock (a handle
 *   must not be used by two threads at once).  Each call gives cuBLAS its
 *   workspace (cublasSetWorkspace, after cublasSetStream, which resets it)
 *   from the allocator in use (ga_cuda_blas_workspace): cuBLAS's own
 *   workspace pool is never used, so ga.cuda.set_allocator serves it.
 * - integers above a size (ga_cuda_intmm_applies): int8 tensor cores
 *   through digit splitting, exact modulo 2^w (cuda/ga_cuda_intmm.c).
 * - integers and bool: our own tiled kernel (kernels/ga_matmul.cuh),
 *   exact in the result dtype (unsigned accumulation wraps as NumPy), any
 *   strides; small float products (batch*m*n*k <= SMALL_WORK) take it too:
 *   it goes through the launch queue, which costs far less per call than
 *   a cuBLAS call after a queue flush. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_strbuf.h"
#include <cublas_v2.h>
#include <pthread.h>
#include <stdlib.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_matmul[];

#define SMALL_WORK ((int64_t)1 << 20)
#define MAX_GRID_Z 65535

static cublasHandle_t handles[GA_MAX_DEVICES];
static pthread_mutex_t locks[GA_MAX_DEVICES];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_locks(void) {
  for (int i = 0; i < GA_MAX_DEVICES; i++) pthread_mutex_init(&locks[i], NULL);
}

static int blas_error(cublasStatus_t s, const char *what) {
  return ga_err(GA_EBLAS, "cuBLAS error in %s: %s", what, cublasGetStatusString(s));
}

/* ---- cuBLAS workspaces ---- */

/* cuBLAS's recommended workspace: 32 MiB on Hopper and later, else 4 MiB
 * (cublasSetWorkspace's documentation); GPUARRAY_CUBLAS_WORKSPACE=bytes
 * overrides (0: none, which cuBLAS allows at some cost in speed).  The
 * variable is read once (every cuBLAS call asks). */
static size_t ws_env = (size_t)-1;   /* -1: not set */
static pthread_once_t ws_once = PTHREAD_ONCE_INIT;
static void ws_read(void) {
  const char *e = getenv("GPUARRAY_CUBLAS_WORKSPACE");
  if (e && *e) {
    char *end;
    unsigned long long v = strtoull(e, &end, 10);
    if (!*end && v <= ((size_t)1 << 30)) ws_env = (size_t)v;
  }
}
static size_t ws_size(int dev) {
  pthread_once(&ws_once, ws_read);
  if (ws_env != (size_t)-1) return ws_env;
  const ga_device_props *p = ga_cuda_props(dev);
  return p && p->major >= 9 ? (size_t)32 << 20 : (size_t)4 << 20;
}

int ga_cuda_blas_workspace_get(int dev, void *stream, size_t cap, ga_scratch *w, void **ptr, size_t *size) {
  size_t want = ws_size(dev);
  if (cap && want > cap) want = cap;
  *ptr = NULL;
  *size = 0;
  if (!want) return GA_OK;
  /* the pools' blocks are 512-aligned; an allocator function's memory
   * may not be: 256 more bytes to align it (cuBLAS needs 256) */
  int rc;
  while ((rc = ga_scratch_get(ga_cuda_pool(dev), want + 256, stream, w)) == GA_ENOMEM && want > ((size_t)64 << 10))
    want >>= 1;   /* a tight pool limit: a smaller workspace (at least 64 KiB; cuBLAS needs 16) */
  if (rc) return rc;
  *ptr = (void *)(((uintptr_t)w->ptr + 255) & ~(uintptr_t)255);
  *size = want;
  return GA_OK;
}

int ga_cuda_blas_workspace_set(void *handle, void *ptr, size_t size) {
  cublasStatus_t s = cublasSetWorkspace((cublasHandle_t)handle, ptr, size);
  return s == CUBLAS_STATUS_SUCCESS ? GA_OK : blas_error(s, "cublasSetWorkspace");
}

/* ---- our kernel ---- */

/* tile configurations: BM BN BK TM TN ((BM/TM)*(BN/TN) threads) */
static const int CONFIGS[4][5] = {
  {128, 128, 8, 8, 8},   /* large, 4-byte accumulators (256 threads) */
  {64, 64, 8, 4, 4},     /* medium, or 8-byte accumulators (256) */
  {32, 32, 16, 2, 2},    /* small (256) */
  {16, 16, 64, 2, 2},    /* tiny (m n <= 4096, k <= 1024): the shortest time to the result, one tile step for
                            k <= 64; 64 threads of 2x2 outputs (H200, 64x64 float64 back to back: 4.2 us a
                            product against 5.1 for 16x16 of 256 threads and 5.8 for 8x8 of 64) */
};
static int threads_of(const int *cf) { return (cf[0] / cf[3]) * (cf[1] / cf[4]); }

typedef struct mm_kind {
  const ga_matmul_call *c;
  int config, akfast, bkfast, idx64, minb;
} mm_kind;

/* Blocks per multiprocessor the large tile is compiled for: 2 caps it at
 * 128 registers (a few spills), 1 lets it keep everything in registers.
 * GPUARRAY_MATMUL_MINB=1|2 chooses (for tuning; default 2). */
static int large_minb(void) {
  static int v;
  if (!v) {
    const char *e = getenv("GPUARRAY_MATMUL_MINB");
    v = e && e[0] == '1' && !e[1] ? 1 : 2;
  }
  return v;
}

static int64_t iabs64(int64_t v) { return v < 0 ? -v : v; }

/* elements one matrix spans at element strides (rs, cs) */
static int64_t span(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  return (rows - 1) * iabs64(rs) + (cols - 1) * iabs64(cs) + 1;
}

static int acc_size(int dt) {
  return dt == GA_INT64 || dt == GA_UINT64 || dt == GA_FLOAT64 ? 8 : 4;
}

static mm_kind plan(const ga_matmul_call *c) {
  int64_t isz = GA_ITEMSIZE(c->dtype), mn = c->m * c->n;
  mm_kind k = {c, 2, c->k > 1 && c->as[2] == isz, c->k > 1 && c->bs[1] == isz, 0, 1};
  k.idx64 = span(c->m, c->k, c->as[1] / isz, c->as[2] / isz) >= GA_IDX32_LIMIT ||
            span(c->k, c->n, c->bs[1] / isz, c->bs[2] / isz) >= GA_IDX32_LIMIT ||
            span(c->m, c->n, c->os[1] / isz, c->os[2] / isz) >= GA_IDX32_LIMIT;
  if (mn >= ((int64_t)1 << 18) && acc_size(c->dtype) == 4) k.config = 0;
  else if (mn >= ((int64_t)1 << 14)) k.config = 1;
  else if (mn <= 4096 && c->k <= 1024) k.config = 3;
  if (k.config == 0) k.minb = large_minb();
  return k;
}

static void make_key(const mm_kind *s, ga_kkey *key) {
  ga_kpack p;
  ga_kpack_init(&p, key, GA_KFAM_MATMUL);
  ga_kpack_put(&p, (uint64_t)s->c->dtype, 5);
  ga_kpack_put(&p, (uint64_t)s->config, 2);
  ga_kpack_put(&p, (uint64_t)s->akfast, 1);
  ga_kpack_put(&p, (uint64_t)s->bkfast, 1);
  ga_kpack_put(&p, (uint64_t)s->idx64, 1);
  ga_kpack_put(&p, (uint64_t)s->minb, 2);
}

static char *gen_source(const void *ud) {
  const mm_kind *s = ud;
  int dt = s->c->dtype;
  const int *cf = CONFIGS[s->config];
  ga_strbuf b;
  ga_sb_init(&b);
  if (dt == GA_FLOAT16) ga_sb_puts(&b, ga_kernel_ga_types);
  ga_sb_printf(&b, "\n// matmul %s, tile %dx%dx%d, thread %dx%d, %d threads\n", ga_dtypes[dt].name, cf[0], cf[1],
               cf[2], cf[3], cf[4], threads_of(cf));
  ga_sb_printf(&b, "#define BM %d\n#define BN %d\n#define BK %d\n#define TM %d\n#define TN %d\n", cf[0], cf[1], cf[2],
               cf[3], cf[4]);
  ga_sb_printf(&b, "#define A_KFAST %d\n#define B_KFAST %d\n#define MINB %d\ntypedef %s ga_idx;\n", s->akfast,
               s->bkfast, s->minb, s->idx64 ? "long long" : "int");
  switch (GA_KIND(dt)) {
  case 'b':
    ga_sb_puts(&b, "typedef bool TIN; typedef unsigned TACC;\n#define LOAD(x) ((unsigned)((x) != 0))\n"
                   "#define MAC(a, x, y) ((a) |= (x) & (y))\n#define STORE(p, a) (*(p) = (a) != 0u)\n");
    break;
  case 'i': case 'u': {
    const char *acc = GA_ITEMSIZE(dt) == 8 ? "unsigned long long" : "unsigned";
    ga_sb_printf(&b, "typedef %s TIN; typedef %s TACC;\n#define LOAD(x) ((TACC)(x))\n"
                     "#define MAC(a, x, y) ((a) += (x) * (y))\n#define STORE(p, a) (*(p) = (TIN)(a))\n",
                 ga_cu_type(dt), acc);
    break;
  }
  default:
    ga_sb_printf(&b, "typedef %s TIN; typedef %s TACC;\n#define LOAD(x) ((TACC)(x))\n"
                     "#define MAC(a, x, y) ((a) += (x) * (y))\n#define STORE(p, a) (*(p) = TIN(a))\n",
                 ga_cu_type(dt), ga_cu_compute(dt));
    break;
  }
  ga_sb_puts(&b, ga_kernel_ga_matmul);
  return ga_sb_take(&b);
}

char *ga_cuda_matmul_source(const ga_matmul_call *c) {
  mm_kind s = plan(c);
  return gen_source(&s);
}

static int run_kernel(const ga_matmul_call *c) {
  mm_kind s = plan(c);
  const int *cf = CONFIGS[s.config];
  int64_t gy = (c->m + cf[0] - 1) / cf[0], gx = (c->n + cf[1] - 1) / cf[1];
  if (gy > 65535 || gx > INT32_MAX) return ga_err(GA_EINVAL, "matrices too large for one product kernel");
  ga_kkey key;
  make_key(&s, &key);
  void *kernel;
  int rc = ga_cuda_kernel_get(c->device, &key, "ga_matmul", gen_source, &s, &kernel);
  if (rc) return rc;
  int64_t isz = GA_ITEMSIZE(c->dtype);
  int m = (int)c->m, n = (int)c->n, k = (int)c->k;
  /* batch strides long long, the others ga_idx (int unless idx64) */
  long long st[9];
  int st32[9];
  for (int i = 0; i < 3; i++) st[i] = c->as[i] / isz, st[3 + i] = c->bs[i] / isz, st[6 + i] = c->os[i] / isz;
  for (int i = 0; i < 9; i++) st32[i] = (int)st[i];
  for (int64_t z0 = 0; z0 < c->batch; z0 += MAX_GRID_Z) {
    int64_t nz = c->batch - z0 < MAX_GRID_Z ? c->batch - z0 : MAX_GRID_Z;
    const char *A = c->a + z0 * c->as[0], *B = c->b + z0 * c->bs[0];
    char *C = c->out + z0 * c->os[0];
    void *args[15] = {&A, &B, &C, &m, &n, &k};
    size_t sizes[15] = {sizeof A, sizeof B, sizeof C, sizeof m, sizeof n, sizeof k};
    for (int i = 0; i < 9; i++) {
      int batch = i % 3 == 0;
      args[6 + i] = batch || s.idx64 ? (void *)&st[i] : (void *)&st32[i];
      sizes[6 + i] = batch || s.idx64 ? sizeof(long long) : sizeof(int);
    }
    unsigned grid[3] = {(unsigned)gx, (unsigned)gy, (unsigned)nz}, block[3] = {(unsigned)threads_of(cf), 1, 1};
    if ((rc = ga_cuda_enqueue3(c->device, c->stream, kernel, grid, block, 0, 15, args, sizes))) return rc;
  }
  return GA_OK;
}

/* ---- cuBLAS ---- */

static int cublas_types(int dt, cudaDataType_t *t, cublasComputeType_t *ct) {
  switch (dt) {
  case GA_FLOAT16: *t = CUDA_R_16F, *ct = CUBLAS_COMPUTE_32F; return 1;
  case GA_FLOAT32: *t = CUDA_R_32F, *ct = CUBLAS_COMPUTE_32F; return 1;
  case GA_FLOAT64: *t = CUDA_R_64F, *ct = CUBLAS_COMPUTE_64F; return 1;
  case GA_COMPLEX64: *t = CUDA_C_32F, *ct = CUBLAS_COMPUTE_32F; return 1;
  case GA_COMPLEX128: *t = CUDA_C_64F, *ct = CUBLAS_COMPUTE_64F; return 1;
  default: return 0;
  }
}

static int run_cublas(const ga_matmul_call *c) {
  int dev = c->device, dt = c->dtype, rc;
  cudaDataType_t t;
  cublasComputeType_t ct;
  if (!cublas_types(dt, &t, &ct)) return ga_err(GA_EINTERNAL, "matmul: no cuBLAS type for %s", ga_dtypes[dt].name);
  int64_t m = c->m, n = c->n, k = c->k, isz = GA_ITEMSIZE(dt), lda, ldb;
  int ta, tb;
  if (!ga_matmul_layout(m, k, c->as[1], c->as[2], isz, &ta, &lda) ||
      !ga_matmul_layout(k, n, c->bs[1], c->bs[2], isz, &tb, &ldb))
    return ga_err(GA_EINTERNAL, "matmul operand layout is not one cuBLAS takes");
  int64_t ldc = m <= 1 ? n : c->os[1] / isz;
  if ((n > 1 && c->os[2] != isz) || ldc < n || ldc > INT32_MAX)
    return ga_err(GA_EINTERNAL, "matmul output layout is not one cuBLAS takes");
  if ((rc = ga_cuda_flush(dev))) return rc;   /* cuBLAS work goes after queued kernels */
  /* alpha = 1, beta = 0 in the compute type (float for float16/float32/complex64) */
  const double one64[2] = {1, 0}, zero64[2] = {0, 0};
  const float one32[2] = {1, 0}, zero32[2] = {0, 0};
  const void *alpha = ct == CUBLAS_COMPUTE_64F ? (const void *)one64 : (const void *)one32;
  const void *beta = ct == CUBLAS_COMPUTE_64F ? (const void *)zero64 : (const void *)zero32;
  cublasOperation_t opa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opb = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  /* the workspace before the lock: an allocator function runs Lua */
  ga_scratch ws = {0};
  void *wp;
  size_t wn;
  if ((rc = ga_cuda_blas_workspace_get(dev, c->stream, 0, &ws, &wp, &wn))) return rc;
  pthread_once(&once, init_locks);
  pthread_mutex_lock(&locks[dev]);
  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
  if (!handles[dev]) s = cublasCreate(&handles[dev]);
  if (s != CUBLAS_STATUS_SUCCESS) {
    handles[dev] = NULL;
    pthread_mutex_unlock(&locks[dev]);
    ga_scratch_put(&ws);
    return blas_error(s, "cublasCreate");
  }
  cublasHandle_t h = handles[dev];
  const char *what = c->batch > 1 ? "cublasGemmStridedBatchedEx" : "cublasGemmEx";
  s = cublasSetStream(h, (cudaStream_t)c->stream);
  if (s != CUBLAS_STATUS_SUCCESS) what = "cublasSetStream";
  else if ((s = cublasSetWorkspace(h, wp, wn)) != CUBLAS_STATUS_SUCCESS) what = "cublasSetWorkspace";
  /* row-major C = A B is column-major C^T = B^T A^T */
  for (int64_t z0 = 0; s == CUBLAS_STATUS_SUCCESS && z0 < c->batch; z0 += INT32_MAX) {
    int64_t nz = c->batch - z0 < INT32_MAX ? c->batch - z0 : INT32_MAX;
    const char *A = c->a + z0 * c->as[0], *B = c->b + z0 * c->bs[0];
    char *C = c->out + z0 * c->os[0];
    if (nz == 1)
      s = cublasGemmEx(h, opb, opa, (int)n, (int)m, (int)k, alpha, B, t, (int)ldb, A, t, (int)lda, beta, C, t,
                       (int)ldc, ct, CUBLAS_GEMM_DEFAULT);
    else
      s = cublasGemmStridedBatchedEx(h, opb, opa, (int)n, (int)m, (int)k, alpha, B, t, (int)ldb,
                                     (long long)(c->bs[0] / isz), A, t, (int)lda, (long long)(c->as[0] / isz), beta,
                                     C, t, (int)ldc, (long long)(c->os[0] / isz), (int)nz, ct, CUBLAS_GEMM_DEFAULT);
  }
  pthread_mutex_unlock(&locks[dev]);
  ga_scratch_put(&ws);   /* the work is queued: the allocator orders the free by stream */
  return s == CUBLAS_STATUS_SUCCESS ? GA_OK : blas_error(s, what);
}

int ga_cuda_matmul(const ga_matmul_call *c) {
  if (c->m <= 0 || c->n <= 0 || c->k <= 0 || c->batch <= 0) return GA_OK;
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  int dt = c->dtype;
  if (GA_IS_COMPLEX(dt)) return run_cublas(c);
  if (GA_IS_FLOAT(dt) && (double)c->batch * (double)c->m * (double)c->n * (double)c->k > (double)SMALL_WORK)
    return run_cublas(c);
  if (ga_cuda_intmm_applies(c)) {
    int done;
    if ((rc = ga_cuda_intmm(c, &done)) || done) return rc;
  }
  return run_kernel(c);
}
