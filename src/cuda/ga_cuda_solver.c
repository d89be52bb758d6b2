/* The CUDA backend's dense solvers (the `lapack` slot): cuSOLVER, opened
 * with dlopen on first use (libcusolver.so.12; the module does not link
 * it), and cuBLAS's batched LU for stacks of small systems.
 *
 * - One cuSOLVER handle and one cuBLAS handle per device, created on first
 *   use and kept; a call takes the device's lock, sets the handles' stream
 *   to the caller's, and queues its work there.  Nothing synchronises: the
 *   info flags stay on the device (the core reads them when asked).
 * - Workspaces come from the device's memory pool (base/ga_scratch.h) and
 *   go back when the call has queued its work (the pool is stream-ordered).
 *   The cuBLAS handle's too (64 KiB, set after cublasSetStream): so the
 *   allocator in use (ga.cuda.set_allocator) serves every workspace.
 * - Batches: cuBLAS getrfBatched/getrsBatched (n <= 64), cuSOLVER
 *   potrfBatched, syevjBatched (n <= 32), gesvdjBatched (m, n <= 32); any
 *   other batch is one launch sequence per matrix queued on the stream with
 *   one shared workspace (no host round trip between matrices).
 * - Our own batched Jacobi kernels take stacks of small square matrices:
 *   kernels/ga_jacobi_sym.cuh (two-sided, in registers) the real eigh up
 *   to 32 x 32 (float64: 16 x 16), kernels/ga_jacobi.cuh (one-sided, in
 *   shared memory) the SVD and the other eigh up to 64 x 64.
 * - The pointer arrays the batched routines take are filled on the device
 *   by a small kernel (kernels/ga_linalg.cuh): no host copy to wait on.
 * - eig/eigvals (GEEV): cusolverDnXgeev where the library has it (looked
 *   up apart: a cuSOLVER older than CUDA 12.6 Update 2 lacks it, and the
 *   slot then answers GA_LA_UNAVAILABLE so that LAPACK runs on a host
 *   copy); see geev_run below. */
#include "cuda/ga_cuda.h"
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_solver.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include "base/ga_scratch.h"
#include "base/ga_strbuf.h"
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_linalg[];
extern const char ga_kernel_ga_jacobi[];
extern const char ga_kernel_ga_jacobi_sym[];

/* our kernel family (ga_cuda_kernel.h numbers the others from 1 up) */
#define GA_KFAM_LINALG 0xA1

/* ---- cuSOLVER through dlopen ----
 * One pointer per routine, typed as its float (S) version: the D, C and Z
 * versions differ only in pointer types, so the same type calls all four
 * (index 0 S, 1 D, 2 C, 3 Z). */
#define T4(name) __typeof__(&cusolverDnS##name) name[4]
static struct {
  cusolverStatus_t (*create)(cusolverDnHandle_t *);
  cusolverStatus_t (*set_stream)(cusolverDnHandle_t, cudaStream_t);
  cusolverStatus_t (*create_syevj)(syevjInfo_t *);
  cusolverStatus_t (*create_gesvdj)(gesvdjInfo_t *);
  T4(getrf_bufferSize); T4(getrf); T4(getrs);
  T4(potrf_bufferSize); T4(potrf); T4(potrfBatched);
  T4(geqrf_bufferSize); T4(geqrf); T4(orgqr_bufferSize); T4(orgqr);
  T4(syevd_bufferSize); T4(syevd); T4(syevjBatched_bufferSize); T4(syevjBatched);
  T4(gesvd_bufferSize); T4(gesvd); T4(gesvdjBatched_bufferSize); T4(gesvdjBatched);
  /* optional (NULL when the library lacks them: eig and eigvals then run
   * on the host): the 64-bit general eigensolver of cuSOLVER 11.7.1
   * (CUDA 12.6 Update 2) and newer; typed here, not from the header, so
   * that the module builds against older headers too */
  cusolverStatus_t (*create_params)(cusolverDnParams_t *);
  cusolverStatus_t (*xgeev_bufferSize)(cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t,
                                       int64_t, cudaDataType, const void *, int64_t, cudaDataType, const void *,
                                       cudaDataType, const void *, int64_t, cudaDataType, const void *, int64_t,
                                       cudaDataType, size_t *, size_t *);
  cusolverStatus_t (*xgeev)(cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t,
                            cudaDataType, void *, int64_t, cudaDataType, void *, cudaDataType, void *, int64_t,
                            cudaDataType, void *, int64_t, cudaDataType, void *, size_t, void *, size_t, int *);
} F;
static int loaded;            /* 1 ok, -1 failed (message in load_msg) */
static char load_msg[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void *sym(void *h, const char *name, int *ok) {
  void *p = dlsym(h, name);
  if (!p && *ok) {
    *ok = 0;
    snprintf(load_msg, sizeof load_msg, "cuSOLVER: the library lacks %s (a cuSOLVER of CUDA 11 or newer is needed)", name);
  }
  return p;
}

static void load(void) {
  static const char *const names[] = {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so",
                                      "/usr/local/cuda/lib64/libcusolver.so.12"};
  void *h = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(load_msg, sizeof load_msg,
             "cuSOLVER could not be loaded (%s); install CUDA's cuSOLVER (libcusolver.so.12) or add its folder to "
             "LD_LIBRARY_PATH", e ? e : "libcusolver.so.12 not found");
    loaded = -1;
    return;
  }
  int ok = 1;
  char n[96];
  *(void **)&F.create = sym(h, "cusolverDnCreate", &ok);
  *(void **)&F.set_stream = sym(h, "cusolverDnSetStream", &ok);
  *(void **)&F.create_syevj = sym(h, "cusolverDnCreateSyevjInfo", &ok);
  *(void **)&F.create_gesvdj = sym(h, "cusolverDnCreateGesvdjInfo", &ok);
  static const char P[4] = {'S', 'D', 'C', 'Z'};
  for (int t = 0; t < 4; t++) {
    int cx = t >= 2;
#define L1(field, real, cplx) \
    (snprintf(n, sizeof n, "cusolverDn%c%s", P[t], cx ? (cplx) : (real)), *(void **)&F.field[t] = sym(h, n, &ok))
    L1(getrf_bufferSize, "getrf_bufferSize", "getrf_bufferSize");
    L1(getrf, "getrf", "getrf");
    L1(getrs, "getrs", "getrs");
    L1(potrf_bufferSize, "potrf_bufferSize", "potrf_bufferSize");
    L1(potrf, "potrf", "potrf");
    L1(potrfBatched, "potrfBatched", "potrfBatched");
    L1(geqrf_bufferSize, "geqrf_bufferSize", "geqrf_bufferSize");
    L1(geqrf, "geqrf", "geqrf");
    L1(orgqr_bufferSize, "orgqr_bufferSize", "ungqr_bufferSize");
    L1(orgqr, "orgqr", "ungqr");
    L1(syevd_bufferSize, "syevd_bufferSize", "heevd_bufferSize");
    L1(syevd, "syevd", "heevd");
    L1(syevjBatched_bufferSize, "syevjBatched_bufferSize", "heevjBatched_bufferSize");
    L1(syevjBatched, "syevjBatched", "heevjBatched");
    L1(gesvd_bufferSize, "gesvd_bufferSize", "gesvd_bufferSize");
    L1(gesvd, "gesvd", "gesvd");
    L1(gesvdjBatched_bufferSize, "gesvdjBatched_bufferSize", "gesvdjBatched_bufferSize");
    L1(gesvdjBatched, "gesvdjBatched", "gesvdjBatched");
#undef L1
  }
  *(void **)&F.create_params = dlsym(h, "cusolverDnCreateParams");
  *(void **)&F.xgeev_bufferSize = dlsym(h, "cusolverDnXgeev_bufferSize");
  *(void **)&F.xgeev = dlsym(h, "cusolverDnXgeev");
  if (!F.create_params || !F.xgeev_bufferSize || !F.xgeev) F.xgeev = NULL;
  loaded = ok ? 1 : -1;
}

static const char *solver_msg(cusolverStatus_t s) {
  switch (s) {
  case CUSOLVER_STATUS_SUCCESS: return "success";
  case CUSOLVER_STATUS_NOT_INITIALIZED: return "the library was not initialized (CUSOLVER_STATUS_NOT_INITIALIZED)";
  case CUSOLVER_STATUS_ALLOC_FAILED: return "resource allocation failed (CUSOLVER_STATUS_ALLOC_FAILED)";
  case CUSOLVER_STATUS_INVALID_VALUE: return "an invalid parameter was passed (CUSOLVER_STATUS_INVALID_VALUE)";
  case CUSOLVER_STATUS_ARCH_MISMATCH: return "the device lacks a required feature (CUSOLVER_STATUS_ARCH_MISMATCH)";
  case CUSOLVER_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute (CUSOLVER_STATUS_EXECUTION_FAILED)";
  case CUSOLVER_STATUS_INTERNAL_ERROR: return "an internal operation failed (CUSOLVER_STATUS_INTERNAL_ERROR)";
  case CUSOLVER_STATUS_NOT_SUPPORTED: return "the parameters are not supported (CUSOLVER_STATUS_NOT_SUPPORTED)";
  default: return "unknown cuSOLVER status";
  }
}
static int serr(cusolverStatus_t s, const char *what) {
  if (s == CUSOLVER_STATUS_ALLOC_FAILED) return ga_err(GA_ENOMEM, "cuSOLVER error in %s: %s", what, solver_msg(s));
  return ga_err(GA_EBLAS, "cuSOLVER error in %s: %s", what, solver_msg(s));
}
static int berr(cublasStatus_t s, const char *what) {
  return ga_err(GA_EBLAS, "cuBLAS error in %s: %s", what, cublasGetStatusString(s));
}
#define SOK(call, what) do { cusolverStatus_t s_ = (call); if (s_ != CUSOLVER_STATUS_SUCCESS) { rc = serr(s_, what); goto done; } } while (0)
#define BOK(call, what) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) { rc = berr(s_, what); goto done; } } while (0)

/* element offset of a batch buffer, as the void * the routines take */
#define AT(p, off) ((void *)((char *)(p) + (off)))

/* ---- per-device state ---- */
typedef struct dev_state {
  pthread_mutex_t lock;
  cusolverDnHandle_t sh;
  cublasHandle_t bh;
  syevjInfo_t syevj;
  gesvdjInfo_t gesvdj;
  cusolverDnParams_t params;   /* Xgeev's (created on its first call) */
} dev_state;
static dev_state devs[GA_MAX_DEVICES];
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static void init_locks(void) {
  for (int i = 0; i < GA_MAX_DEVICES; i++) pthread_mutex_init(&devs[i].lock, NULL);
}

/* under the lock, device current */
static int handles(int dev) {
  dev_state *d = &devs[dev];
  if (!d->sh) {
    cusolverStatus_t s = F.create(&d->sh);
    if (s != CUSOLVER_STATUS_SUCCESS) {
      d->sh = NULL;
      return serr(s, "cusolverDnCreate");
    }
  }
  if (!d->bh) {
    cublasStatus_t s = cublasCreate(&d->bh);
    if (s != CUBLAS_STATUS_SUCCESS) {
      d->bh = NULL;
      return berr(s, "cublasCreate");
    }
  }
  if (!d->syevj) {
    cusolverStatus_t s = F.create_syevj(&d->syevj);
    if (s != CUSOLVER_STATUS_SUCCESS) {
      d->syevj = NULL;
      return serr(s, "cusolverDnCreateSyevjInfo");
    }
  }
  if (!d->gesvdj) {
    cusolverStatus_t s = F.create_gesvdj(&d->gesvdj);
    if (s != CUSOLVER_STATUS_SUCCESS) {
      d->gesvdj = NULL;
      return serr(s, "cusolverDnCreateGesvdjInfo");
    }
  }
  return GA_OK;
}

static int type_index(int dt) {
  switch (dt) {
  case GA_FLOAT32: return 0;
  case GA_FLOAT64: return 1;
  case GA_COMPLEX64: return 2;
  case GA_COMPLEX128: return 3;
  default: return -1;
  }
}
static const size_t ISZ[4] = {4, 8, 8, 16};
static const size_t RSZ[4] = {4, 8, 4, 8};

/* ---- the pointer arrays ---- */
static char *ptrs_source(const void *ud) {
  (void)ud;
  size_t n = strlen(ga_kernel_ga_linalg) + 1;
  char *s = malloc(n);
  if (s) memcpy(s, ga_kernel_ga_linalg, n);
  return s;
}

/* ---- our batched one-sided Jacobi (kernels/ga_jacobi.cuh) ---- */
typedef struct jac_shape { int t, n, mode, upper; } jac_shape;

/* shared bytes of one warp's matrix (kernels/ga_jacobi.cuh's ga_jw): X,
 * and V too up to 32 x 32 (larger: V in global memory) */
static size_t jac_warp_bytes(int t, int n) {
  size_t rsz = RSZ[t], np = (size_t)(n + (n & 1)), arrays = (t >= 2 ? 2 : 1) * (n > 32 ? 1 : 2);
  return arrays * (size_t)n * (size_t)(n + 1) * rsz + np / 2 * (3 * rsz + 8) + (size_t)n * (rsz + 8) + 64;
}
/* our kernel's sizes: up to 64 x 64 where one warp's share fits 40000
 * bytes (complex128: up to 48 x 48); lua/gpuarray/linalg.lua knows the
 * same limits */
static int jac_fits(int t, int n) { return n >= 1 && n <= 64 && jac_warp_bytes(t, n) <= 40000; }
static int jac_wpb(int t, int n) {
  size_t w = 40000 / jac_warp_bytes(t, n);
  return w < 1 ? 1 : w > 8 ? 8 : (int)w;
}

static char *jac_source(const void *ud) {
  const jac_shape *j = ud;
  static const char *const real[4] = {"float", "double", "float", "double"};
  double eps = (j->t == 0 || j->t == 2) ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_printf(&b, "// batched one-sided Jacobi: %s n=%d %s\n", ga_dtypes[j->t == 0 ? GA_FLOAT32 : j->t == 1 ? GA_FLOAT64 :
               j->t == 2 ? GA_COMPLEX64 : GA_COMPLEX128].name, j->n, j->mode ? "eigh" : "svd");
  ga_sb_printf(&b, "#define GA_JN %d\n#define GA_JNP %d\n#define GA_JCPLX %d\n#define GA_JREAL_T %s\n"
               "#define GA_JEPS %.17g\n#define GA_JMODE %d\n#define GA_JUPPER %d\n#define GA_JWPB %d\n"
               "#define GA_JMAXSWEEP %d\n#define GA_JVGLOBAL %d\n",
               j->n, j->n + (j->n & 1), j->t >= 2, real[j->t], eps * j->n, j->mode, j->upper, jac_wpb(j->t, j->n),
               (j->t == 0 || j->t == 2) ? 20 : 30, j->n > 32);
  ga_sb_puts(&b, ga_kernel_ga_jacobi);
  return ga_sb_take(&b);
}

/* ---- our two-sided Jacobi for real symmetric stacks (kernels/ga_jacobi_sym.cuh) ----
 * The tuning knobs, all here: */
#define JSYM_WPB 4             /* warps per block (GPUARRAY_JSYM_WPB overrides, 1..16) */
#define JSYM_SWEEPS_F32 15     /* most sweeps, float32 (GPUARRAY_JSYM_SWEEPS overrides, 1..60) */
#define JSYM_SWEEPS_F64 20     /* most sweeps, float64 */
#define JSYM_MAXN_F32 32       /* largest n, float32 (registers: 2 P values a lane) */
#define JSYM_MAXN_F64 16       /* largest n, float64 */
#define JSYM_MINB 0            /* __launch_bounds__ blocks per SM, 0 none (GPUARRAY_JSYM_MINB, 0..32) */
#define JSYM_SHFLT_F32 0       /* 1: only sigma t crosses lanes (c recomputed: MUFU); 0: c too (SHFL) (GPUARRAY_JSYM_SHFLT) */
#define JSYM_SHFLT_F64 0
#define JSYM_FAST 1            /* float32: approximate rcp/sqrt/rsqrt in the rotations (GPUARRAY_JSYM_FAST, 0/1) */
#define JSYM_SHARED 48000      /* the static shared staging a block may take */
/* rotation thresholds, in units of the dtype's epsilon: a pair is skipped
 * when |a_pq| <= TOL eps sqrt(|a_pp a_qq|) or |a_pq| <= FLOOR eps ||A||_F */
#define JSYM_TOL 1.0
#define JSYM_FLOOR 1.0

typedef struct jsym_shape { int t, n, upper, wpb, sweeps, minb, shflt, fast; } jsym_shape;

static int jsym_lanes(int n) {   /* P: n rounded up to a power of two, at least 2 */
  int p = 2;
  while (p < n) p *= 2;
  return p;
}
static int env_int(const char *name, int lo, int hi, int dflt) {
  const char *e = getenv(name);
  if (!e || !*e) return dflt;
  char *end;
  long v = strtol(e, &end, 10);
  return *end || v < lo || v > hi ? dflt : (int)v;
}
/* warps per block, within the static shared staging limit */
static int jsym_wpb(int t, int n, int want) {
  int p = jsym_lanes(n);
  size_t per_warp = (size_t)(32 / p) * ((size_t)n * (size_t)n + 1) * RSZ[t], w = (size_t)want;
  while (w > 1 && w * per_warp > JSYM_SHARED) w--;
  return (int)w;
}
static void jsym_config(int t, int n, int upper, jsym_shape *j) {
  j->t = t, j->n = n, j->upper = upper;
  j->wpb = jsym_wpb(t, n, env_int("GPUARRAY_JSYM_WPB", 1, 16, JSYM_WPB));
  j->sweeps = env_int("GPUARRAY_JSYM_SWEEPS", 1, 60, t == 0 ? JSYM_SWEEPS_F32 : JSYM_SWEEPS_F64);
  j->minb = env_int("GPUARRAY_JSYM_MINB", 0, 32, JSYM_MINB);
  j->shflt = env_int("GPUARRAY_JSYM_SHFLT", 0, 1, t == 0 ? JSYM_SHFLT_F32 : JSYM_SHFLT_F64);
  j->fast = t == 0 ? env_int("GPUARRAY_JSYM_FAST", 0, 1, JSYM_FAST) : 0;
}
static int jsym_fits(int t, int n) {
  return (t == 0 && n >= 1 && n <= JSYM_MAXN_F32) || (t == 1 && n >= 1 && n <= JSYM_MAXN_F64);
}

static char *jsym_source(const void *ud) {
  const jsym_shape *j = ud;
  double eps = j->t == 0 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_printf(&b, "// batched two-sided Jacobi eigh: %s n=%d\n", j->t == 0 ? "float32" : "float64", j->n);
  ga_sb_printf(&b, "#define GA_JN %d\n#define GA_JP %d\n#define GA_JREAL_T %s\n#define GA_JUPPER %d\n"
               "#define GA_JWPB %d\n#define GA_JMAXSWEEP %d\n#define GA_JTOL %.17g\n#define GA_JFLOOR %.17g\n"
               "#define GA_JMINB %d\n#define GA_JSHFLT %d\n#define GA_JFAST %d\n",
               j->n, jsym_lanes(j->n), j->t == 0 ? "float" : "double", j->upper, j->wpb, j->sweeps,
               JSYM_TOL * eps, JSYM_FLOOR * eps, j->minb, j->shflt, j->fast);
  ga_sb_puts(&b, ga_kernel_ga_jacobi_sym);
  return ga_sb_take(&b);
}

/* the eigh of a real stack up to JSYM_MAXN_* (GPUARRAY_JACOBI=0: cuSOLVER;
 * GPUARRAY_JACOBI=1: the one-sided kernel, as before this one) */
static int jsym_applies(const ga_la_call *c) {
  const char *env = getenv("GPUARRAY_JACOBI");
  if (env && (!strcmp(env, "0") || !strcmp(env, "1"))) return 0;
  return c->batch > 1 && c->m == c->n && jsym_fits(type_index(c->dtype), (int)c->n);
}

static int jsym_run(const ga_la_call *c, int t) {
  jsym_shape j;
  jsym_config(t, (int)c->n, c->uplo ? 1 : 0, &j);
  ga_kkey key;
  ga_kpack p;
  ga_kpack_init(&p, &key, GA_KFAM_LINALG);
  ga_kpack_put(&p, 2, 4);
  ga_kpack_put(&p, (uint64_t)t, 2);
  ga_kpack_put(&p, (uint64_t)j.n, 7);
  ga_kpack_put(&p, (uint64_t)j.upper, 1);
  ga_kpack_put(&p, (uint64_t)j.wpb, 5);
  ga_kpack_put(&p, (uint64_t)j.sweeps, 7);
  ga_kpack_put(&p, (uint64_t)j.minb, 6);
  ga_kpack_put(&p, (uint64_t)j.shflt, 1);
  ga_kpack_put(&p, (uint64_t)j.fast, 1);
  void *kernel;
  int rc = ga_cuda_kernel_get(c->device, &key, "ga_jacobi", jsym_source, &j, &kernel);
  if (rc) return rc;
  long long per_block = (long long)j.wpb * (32 / jsym_lanes(j.n)), blocks = (c->batch + per_block - 1) / per_block;
  if (blocks > INT_MAX) return ga_err(GA_EINVAL, "eigh: the batch is too big for one launch");
  int nb = (int)c->batch;
  void *a = c->a, *w = c->b, *info = c->info;
  void *args[4] = {&a, &w, &info, &nb};
  return ga_cuda_launch_now(kernel, (unsigned)blocks, (unsigned)(32 * j.wpb), 0, c->stream, args);
}

/* our kernel takes the call: a batch of square matrices up to 64 x 64
 * (GPUARRAY_JACOBI=0 leaves them to cuSOLVER's batched Jacobi) */
static int jac_applies(const ga_la_call *c) {
  const char *env = getenv("GPUARRAY_JACOBI");
  if (env && !strcmp(env, "0")) return 0;
  return c->batch > 1 && c->m == c->n && jac_fits(type_index(c->dtype), (int)c->n);
}

static int jac_run(const ga_la_call *c, int t, int mode, void *s, void *u, void *v) {
  jac_shape j = {t, (int)c->n, mode, c->uplo ? 1 : 0};
  ga_kkey key;
  ga_kpack p;
  ga_kpack_init(&p, &key, GA_KFAM_LINALG);
  ga_kpack_put(&p, 1, 4);
  ga_kpack_put(&p, (uint64_t)t, 2);
  ga_kpack_put(&p, (uint64_t)j.n, 7);
  ga_kpack_put(&p, (uint64_t)mode, 1);
  ga_kpack_put(&p, (uint64_t)j.upper, 1);
  void *kernel;
  int rc = ga_cuda_kernel_get(c->device, &key, "ga_jacobi", jac_source, &j, &kernel);
  if (rc) return rc;
  int wpb = jac_wpb(t, j.n), nb = (int)c->batch;
  void *a = c->a, *info = c->info;
  void *args[6] = {&a, &s, &u, &v, &info, &nb};
  return ga_cuda_launch_now(kernel, (unsigned)((nb + wpb - 1) / wpb), (unsigned)(32 * wpb), 0, c->stream, args);
}

char *ga_cuda_linalg_source(int which, int dtype, int n) {
  if (which == 1) {
    int t = type_index(dtype);
    if (t < 0 || !jac_fits(t, n)) return NULL;
    jac_shape j = {t, n, 0, 0};
    return jac_source(&j);
  }
  if (which == 2) {   /* the eigh variant */
    int t = type_index(dtype);
    if (t < 0 || !jac_fits(t, n)) return NULL;
    jac_shape j = {t, n, 1, 1};
    return jac_source(&j);
  }
  if (which == 3) {   /* the two-sided real eigh (its entry is ga_jacobi too) */
    int t = type_index(dtype);
    if (t < 0 || !jsym_fits(t, n)) return NULL;
    jsym_shape j;
    jsym_config(t, n, 1, &j);
    return jsym_source(&j);
  }
  if (which != 0) return NULL;
  (void)dtype, (void)n;
  return ptrs_source(NULL);
}

/* out (scratch of 8 * n or 16 * n bytes) = {b0 + i * s0} then, when b1,
 * {b1 + i * s1} */
static int ptr_arrays(int dev, void *stream, int n, char *b0, size_t s0, char *b1, size_t s1, ga_scratch *out) {
  int rc = ga_scratch_get(ga_cuda_pool(dev), (size_t)n * sizeof(void *) * (b1 ? 2 : 1), stream, out);
  if (rc) return rc;
  ga_kkey key;
  ga_kpack p;
  ga_kpack_init(&p, &key, GA_KFAM_LINALG);
  ga_kpack_put(&p, 0, 4);
  void *kernel;
  if ((rc = ga_cuda_kernel_get(dev, &key, "ga_la_ptrs", ptrs_source, NULL, &kernel))) return rc;
  long long ls0 = (long long)s0, ls1 = (long long)s1;
  void *optr = out->ptr;
  void *args[6] = {&optr, &b0, &ls0, &b1, &ls1, &n};
  return ga_cuda_launch_now(kernel, (unsigned)((n + 255) / 256), 256, 0, stream, args);
}

/* this thread holds a device's lock: its workspaces come from the
 * allocator in use, which may run Lua that calls back in */
static __thread int holding;

/* a workspace of `elems` elements of `isz` bytes (at least one) */
static int work(int dev, void *stream, int64_t elems, size_t isz, ga_scratch *w) {
  if (elems < 1) elems = 1;
  if ((uint64_t)elems > SIZE_MAX / 2 / isz) return ga_err(GA_ENOMEM, "solver workspace too big");
  return ga_scratch_get(ga_cuda_pool(dev), (size_t)elems * isz, stream, w);
}

/* ---- eig, eigvals: cusolverDnXgeev ----
 * Right vectors only (NumPy's eig has no left ones): jobvl is always
 * NOVECTOR.  Complex input: w and vr are the caller's buffers.  Real input
 * runs in the all-real form every Xgeev takes (w: n real parts then n
 * imaginary parts; vr: LAPACK's packed real vectors, a conjugate pair as
 * its real and imaginary columns), into scratch, and one kernel
 * (kernels/ga_linalg.cuh, ga_la_geev_real_*) writes the complex w and vr
 * the slot returns (base/ga_linalg_call.h), as host/ga_host_lapack.c does
 * after LAPACK's sgeev/dgeev.  The batch is one Xgeev per matrix queued on
 * the stream with one device and one host workspace.  Xgeev's host
 * workspace comes from the pinned pool; when it is not empty the stream is
 * synchronised before it goes back (the library may use it while its
 * device work runs). */
/* Xgeev loaded, and not turned off (GPUARRAY_GEEV=0: eig runs on the host) */
static int geev_available(void) {
  const char *env = getenv("GPUARRAY_GEEV");
  return F.xgeev && !(env && !strcmp(env, "0"));
}

static int geev_convert(const ga_la_call *c, int t, void *wri, void *vr) {
  ga_kkey key;
  ga_kpack p;
  ga_kpack_init(&p, &key, GA_KFAM_LINALG);
  ga_kpack_put(&p, 3, 4);
  ga_kpack_put(&p, (uint64_t)t, 2);
  void *kernel;
  int rc = ga_cuda_kernel_get(c->device, &key, t == 0 ? "ga_la_geev_real_f" : "ga_la_geev_real_d", ptrs_source,
                              NULL, &kernel);
  if (rc) return rc;
  long long n = c->n, total = c->batch * n * (c->flag ? n : 1), blocks = (total + 255) / 256;
  if (blocks > INT_MAX) return ga_err(GA_EINVAL, "eig: the batch is too big for one launch");
  void *w = c->b, *v = c->flag ? c->u : NULL;
  if (!c->flag) vr = NULL;
  void *args[6] = {&wri, &vr, &w, &v, &n, &total};
  return ga_cuda_launch_now(kernel, (unsigned)blocks, 256, 0, c->stream, args);
}

static int geev_run(const ga_la_call *c, dev_state *d, int t) {
  static const cudaDataType DT[4] = {CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F};
  int dev = c->device, rc = GA_OK, cplx = t >= 2;
  int64_t n = c->n, nb = c->batch, lda = n > 1 ? n : 1;
  size_t isz = ISZ[t], rsz = RSZ[t], astep = (size_t)n * (size_t)n * isz;
  cusolverDnHandle_t h = d->sh;
  cudaStream_t st = (cudaStream_t)c->stream;
  cudaDataType ta = DT[t];
  cusolverEigMode_t jobvl = CUSOLVER_EIG_MODE_NOVECTOR;
  cusolverEigMode_t jobvr = c->flag ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  ga_scratch wri = {0}, vrs = {0}, dw = {0}, hw = {0};
  size_t dbytes = 0, hbytes = 0;
  int queued = 0;
  if (!d->params) {
    cusolverStatus_t ps = F.create_params(&d->params);
    if (ps != CUSOLVER_STATUS_SUCCESS) {
      d->params = NULL;
      rc = serr(ps, "cusolverDnCreateParams");
      goto done;
    }
  }
  /* where each matrix's w (wstep bytes apart) and vectors (vstep) go:
   * real input: scratch for the whole batch; complex: the outputs.  VL and
   * VR are always valid pointers (VL is never written: jobvl NOVECTOR), as
   * CuPy passes them. */
  size_t wstep = cplx ? (size_t)n * isz : 2 * (size_t)n * rsz, vstep = c->flag ? astep : 0;
  char *W, *V;
  if (cplx) {
    W = c->b;
  } else {
    if ((rc = work(dev, c->stream, 2 * n * nb, rsz, &wri))) goto done;
    W = wri.ptr;
  }
  if (c->flag && cplx) {
    V = c->u;
  } else {   /* real vectors for the batch, or one matrix nothing is written to */
    if ((rc = work(dev, c->stream, c->flag ? n * n * nb : n * n, isz, &vrs))) goto done;
    V = vrs.ptr;
  }
  cusolverStatus_t s = F.xgeev_bufferSize(h, d->params, jobvl, jobvr, n, ta, c->a, lda, ta, W, ta, V, lda, ta, V, lda,
                                          ta, &dbytes, &hbytes);
  /* a library that refuses this dtype or job (the documented ones take
   * all four dtypes in this form) leaves it to the host, before any work
   * is queued; the specs count such fallbacks (linalg.lua's
   * _geev_host_runs) */
  if (s == CUSOLVER_STATUS_NOT_SUPPORTED || s == CUSOLVER_STATUS_INVALID_VALUE) {
    rc = GA_LA_UNAVAILABLE;
    goto done;
  }
  SOK(s, "cusolverDnXgeev_bufferSize");
  if ((rc = work(dev, c->stream, (int64_t)(dbytes ? dbytes : 1), 1, &dw))) goto done;
  if (hbytes) {
    ga_pool *pin = ga_cuda_pinned_pool();
    if (!pin) { rc = ga_err(GA_ENOMEM, "eig: no pinned host pool for cuSOLVER's host workspace"); goto done; }
    if ((rc = ga_scratch_get(pin, hbytes, c->stream, &hw))) goto done;
  }
  for (int64_t i = 0; i < nb; i++) {
    queued = 1;
    SOK(F.xgeev(h, d->params, jobvl, jobvr, n, ta, AT(c->a, i * astep), lda, ta, AT(W, i * wstep), ta,
                AT(V, i * vstep), lda, ta, AT(V, i * vstep), lda, ta, dw.ptr, dbytes, hw.ptr, hbytes, c->info + i),
        "cusolverDnXgeev");
  }
  if (!cplx) rc = geev_convert(c, t, W, V);
done:
  if (hw.ptr && queued) {   /* the host workspace outlives the queued work */
    cudaError_t e = cudaStreamSynchronize(st);
    if (e != cudaSuccess && !rc) rc = ga_cuda_error(e, "cudaStreamSynchronize (eig)");
  }
  ga_scratch_put(&hw);
  ga_scratch_put(&dw);
  ga_scratch_put(&vrs);
  ga_scratch_put(&wri);
  return rc;
}

int ga_cuda_lapack(const ga_la_call *c) {
  int t = type_index(c->dtype);
  if (t < 0) return ga_err(GA_ETYPE, "cuSOLVER takes float32, float64, complex64 or complex128, got %s",
                           ga_dtypes[c->dtype].name);
  if (c->m > INT_MAX || c->n > INT_MAX || c->k > INT_MAX || c->batch > INT_MAX)
    return ga_err(GA_EINVAL, "matrix dimensions exceed cuSOLVER's 32-bit limit");
  int dev = c->device, rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  if (dev < 0 || dev >= GA_MAX_DEVICES) return ga_err(GA_EDEVICE, "no CUDA device %d", dev);
  if (c->op == GA_LA_SYEVD && jsym_applies(c)) {   /* our kernel alone: no cuSOLVER, no handles, no lock */
    if ((rc = ga_cuda_flush(dev))) return rc;      /* after the queued kernels */
    if ((rc = jsym_run(c, t))) return rc;
    if (c->flagless) *c->flagless = 1;             /* info is all 0: no check to wait for */
    return GA_OK;
  }
  pthread_once(&load_once, load);
  if (loaded < 0) return ga_err(GA_EDEVICE, "%s", load_msg);
  if (c->op == GA_LA_GEEV && !geev_available()) return GA_LA_UNAVAILABLE;   /* the caller runs it on the host */
  if ((rc = ga_cuda_flush(dev))) return rc;   /* solver work goes after queued kernels */
  pthread_once(&lock_once, init_locks);
  dev_state *d = &devs[dev];
  ga_scratch bw = {0};   /* the cuBLAS handle's workspace (before the lock: an allocator may run Lua) */
  void *bwp;
  size_t bwn;
  if ((rc = ga_cuda_blas_workspace_get(dev, c->stream, (size_t)64 << 10, &bw, &bwp, &bwn))) return rc;
  if (holding) {   /* an allocator function serving this call's workspace called cuSOLVER again */
    ga_scratch_put(&bw);
    return ga_err(GA_EINVAL, "called from inside an allocator function serving a cuSOLVER workspace "
                  "(an allocator must not run linear algebra: that would deadlock)");
  }
  pthread_mutex_lock(&d->lock);
  holding = 1;
  ga_scratch w = {0}, pa = {0};
  int m = (int)c->m, n = (int)c->n, k = (int)c->k, nb = (int)c->batch, lda = m > 1 ? m : 1, lw = 0;
  size_t isz = ISZ[t], rsz = RSZ[t], astep = (size_t)c->m * (size_t)c->n * isz;
  char *a = c->a;
  cudaStream_t st = (cudaStream_t)c->stream;
  if ((rc = handles(dev))) goto done;
  cusolverDnHandle_t h = d->sh;
  SOK(F.set_stream(h, st), "cusolverDnSetStream");
  BOK(cublasSetStream(d->bh, st), "cublasSetStream");
  if ((rc = ga_cuda_blas_workspace_set(d->bh, bwp, bwn))) goto done;
  switch (c->op) {
  case GA_LA_GETRF:
    if (nb > 1 && n <= 64) {
      if ((rc = ptr_arrays(dev, c->stream, nb, a, astep, NULL, 0, &pa))) goto done;
      void *A = pa.ptr;
      cublasStatus_t s;
      switch (t) {
      case 0: s = cublasSgetrfBatched(d->bh, n, A, lda, c->ipiv, c->info, nb); break;
      case 1: s = cublasDgetrfBatched(d->bh, n, A, lda, c->ipiv, c->info, nb); break;
      case 2: s = cublasCgetrfBatched(d->bh, n, A, lda, c->ipiv, c->info, nb); break;
      default: s = cublasZgetrfBatched(d->bh, n, A, lda, c->ipiv, c->info, nb); break;
      }
      BOK(s, "getrfBatched");
    } else {
      SOK(F.getrf_bufferSize[t](h, n, n, (void *)a, lda, &lw), "getrf_bufferSize");
      if ((rc = work(dev, c->stream, lw, isz, &w))) goto done;
      for (int i = 0; i < nb; i++)
        SOK(F.getrf[t](h, n, n, (void *)(a + i * astep), lda, w.ptr, c->ipiv + (size_t)i * n, c->info + i), "getrf");
    }
    break;
  case GA_LA_GETRS: {
    cublasOperation_t tr = c->flag == 0 ? CUBLAS_OP_N : c->flag == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
    size_t bstep = (size_t)n * (size_t)k * isz;
    int ldb = n > 1 ? n : 1;
    if (nb > 1 && n <= 64) {
      if ((rc = ptr_arrays(dev, c->stream, nb, a, astep, c->b, bstep, &pa))) goto done;
      void **A = pa.ptr, **B = (void **)pa.ptr + nb;
      int hinfo = 0;
      /* getrsBatched's info is a host int (argument checks only) */
      cudaError_t e = cudaMemsetAsync(c->info, 0, (size_t)nb * sizeof(int32_t), st);
      if (e != cudaSuccess) { rc = ga_cuda_error(e, "cudaMemsetAsync"); goto done; }
      cublasStatus_t s;
      switch (t) {
      case 0: s = cublasSgetrsBatched(d->bh, tr, n, k, (const float *const *)A, lda, c->ipiv, (float *const *)B, ldb, &hinfo, nb); break;
      case 1: s = cublasDgetrsBatched(d->bh, tr, n, k, (const double *const *)A, lda, c->ipiv, (double *const *)B, ldb, &hinfo, nb); break;
      case 2: s = cublasCgetrsBatched(d->bh, tr, n, k, (const cuComplex *const *)A, lda, c->ipiv, (cuComplex *const *)B, ldb, &hinfo, nb); break;
      default: s = cublasZgetrsBatched(d->bh, tr, n, k, (const cuDoubleComplex *const *)A, lda, c->ipiv, (cuDoubleComplex *const *)B, ldb, &hinfo, nb); break;
      }
      BOK(s, "getrsBatched");
      if (hinfo < 0) { rc = ga_err(GA_EINTERNAL, "getrsBatched rejected its argument %d", -hinfo); goto done; }
    } else {
      for (int i = 0; i < nb; i++)
        SOK(F.getrs[t](h, tr, n, k, (void *)(a + i * astep), lda, c->ipiv + (size_t)i * n, AT(c->b, i * bstep),
                       ldb, c->info + i), "getrs");
    }
    break;
  }
  case GA_LA_POTRF: {
    cublasFillMode_t ul = c->uplo ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    if (nb > 1) {
      if ((rc = ptr_arrays(dev, c->stream, nb, a, astep, NULL, 0, &pa))) goto done;
      SOK(F.potrfBatched[t](h, ul, n, pa.ptr, lda, c->info, nb), "potrfBatched");
    } else {
      SOK(F.potrf_bufferSize[t](h, ul, n, (void *)a, lda, &lw), "potrf_bufferSize");
      if ((rc = work(dev, c->stream, lw, isz, &w))) goto done;
      SOK(F.potrf[t](h, ul, n, (void *)a, lda, w.ptr, lw, c->info), "potrf");
    }
    break;
  }
  case GA_LA_GEQRF: {
    int kk = m < n ? m : n;
    SOK(F.geqrf_bufferSize[t](h, m, n, (void *)a, lda, &lw), "geqrf_bufferSize");
    if ((rc = work(dev, c->stream, lw, isz, &w))) goto done;
    for (int i = 0; i < nb; i++)
      SOK(F.geqrf[t](h, m, n, (void *)(a + i * astep), lda, AT(c->b, (size_t)i * kk * isz), w.ptr, lw, c->info + i),
          "geqrf");
    break;
  }
  case GA_LA_ORGQR:
    SOK(F.orgqr_bufferSize[t](h, m, n, k, (void *)a, lda, c->b, &lw), "orgqr_bufferSize");
    if ((rc = work(dev, c->stream, lw, isz, &w))) goto done;
    for (int i = 0; i < nb; i++)
      SOK(F.orgqr[t](h, m, n, k, (void *)(a + i * astep), lda, AT(c->b, (size_t)i * k * isz), w.ptr, lw,
                     c->info + i), "orgqr");
    break;
  case GA_LA_SYEVD: {
    cusolverEigMode_t jz = c->flag ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    cublasFillMode_t ul = c->uplo ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    if (jac_applies(c)) {
      rc = jac_run(c, t, 1, c->b, NULL, NULL);
    } else if (nb > 1 && n <= 32) {
      SOK(F.syevjBatched_bufferSize[t](h, jz, ul, n, (void *)a, lda, c->b, &lw, d->syevj, nb), "syevjBatched_bufferSize");
      if ((rc = work(dev, c->stream, lw, isz, &w))) goto done;
      SOK(F.syevjBatched[t](h, jz, ul, n, (void *)a, lda, c->b, w.ptr, lw, c->info, d->syevj, nb), "syevjBatched");
    } else {
      SOK(F.syevd_bufferSize[t](h, jz, ul, n, (void *)a, lda, c->b, &lw), "syevd_bufferSize");
      if ((rc = work(dev, c->stream, lw, isz, &w))) goto done;
      for (int i = 0; i < nb; i++)
        SOK(F.syevd[t](h, jz, ul, n, (void *)(a + i * astep), lda, AT(c->b, (size_t)i * n * rsz), w.ptr, lw,
                       c->info + i), "syevd");
    }
    break;
  }
  case GA_LA_GESVD: {
    signed char job = c->flag == 0 ? 'N' : c->flag == 1 ? 'S' : 'A';
    int ucols = c->flag == 2 ? m : n, ldu = lda, ldvt = n > 1 ? n : 1;
    size_t ustep = (size_t)m * ucols * isz, vstep = (size_t)n * n * isz;
    SOK(F.gesvd_bufferSize[t](h, m, n, &lw), "gesvd_bufferSize");
    if ((rc = work(dev, c->stream, lw, isz, &w))) goto done;
    for (int i = 0; i < nb; i++)
      SOK(F.gesvd[t](h, job, job, m, n, (void *)(a + i * astep), lda, AT(c->b, (size_t)i * n * rsz),
                     c->flag ? AT(c->u, i * ustep) : NULL, ldu, c->flag ? AT(c->vt, i * vstep) : NULL, ldvt,
                     w.ptr, lw, NULL, c->info + i), "gesvd");
    break;
  }
  case GA_LA_GESVDJ: {
    if (jac_applies(c)) {
      rc = jac_run(c, t, 0, c->b, c->u, c->vt);
      break;
    }
    if (m > 32) {   /* cuSOLVER's batched Jacobi stops at 32 */
      rc = ga_err(GA_EINTERNAL, "gesvdjBatched needs m <= 32 (our kernel takes square stacks up to 64)");
      break;
    }
    int ldv = n > 1 ? n : 1;
    SOK(F.gesvdjBatched_bufferSize[t](h, CUSOLVER_EIG_MODE_VECTOR, m, n, (void *)a, lda, c->b, c->u, lda, c->vt, ldv,
                                      &lw, d->gesvdj, nb), "gesvdjBatched_bufferSize");
    if ((rc = work(dev, c->stream, lw, isz, &w))) goto done;
    SOK(F.gesvdjBatched[t](h, CUSOLVER_EIG_MODE_VECTOR, m, n, (void *)a, lda, c->b, c->u, lda, c->vt, ldv, w.ptr, lw,
                           c->info, d->gesvdj, nb), "gesvdjBatched");
    break;
  }
  case GA_LA_GEEV:
    rc = geev_run(c, d, t);
    break;
  default:
    rc = ga_err(GA_EINVAL, "the GPU has no solver routine %d", c->op);
  }
done:
  ga_scratch_put(&w);
  ga_scratch_put(&pa);
  holding = 0;
  pthread_mutex_unlock(&d->lock);
  ga_scratch_put(&bw);
  return rc;
}
