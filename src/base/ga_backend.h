/* The backend table (DESIGN.md, Architecture): one const instance per
 * device kind, ga_host_backend (host/ga_host_backend.c) and ga_cuda_backend
 * (cuda/ga_cuda_backend.c).  The core finds it with ga_backend_of(device)
 * (core/ga_backend.h) and calls through it; it never names a backend's
 * functions.  A new library adds a slot here, a host and a CUDA function,
 * and a line in each table.  A slot a backend does not have is NULL (the
 * core says so in its message). */
#ifndef GA_BACKEND_H
#define GA_BACKEND_H
#include "base/ga_calls.h"
#include "base/ga_pool.h"
#include "base/ga_scratch.h"
#include "base/ga_raw.h"
#include "base/ga_linalg_call.h"
#include "base/ga_dist.h"
#include "base/ga_dnn_call.h"
#include <stddef.h>

typedef struct ga_backend {
  const char *name;                                   /* "host", "cuda" */

  /* ---- compute (the call descriptors of base/ga_calls.h) ---- */
  int (*ew)(const ga_ew_call *c);
  int (*reduce)(const ga_red_call *c);
  int (*scan)(const ga_scan_call *c);
  /* nonzero in two steps: count, then fill; scratch (zeroed by the
   * caller, who puts it back after) carries what the backend keeps
   * between them */
  int (*nonzero_count)(const ga_nz_call *c, int64_t *count, ga_scratch *scratch);
  int (*nonzero_fill)(const ga_nz_call *c, const ga_scratch *scratch);
  int (*sort)(const ga_sort_call *c);
  int (*searchsorted)(const ga_search_call *c);
  int (*gather)(const ga_gather_call *c);             /* gather, scatter, scatter-add */
  int (*ewk)(const ga_ewk_call *c);                   /* ElementwiseKernel (NULL: host) */
  int (*redk)(const ga_redk_call *c);                 /* ReductionKernel (NULL: host) */
  /* batched matrix products (ga_matmul_call), every numeric dtype */
  int (*matmul)(const ga_matmul_call *c);
  int (*rand)(const ga_rand_call *c);                 /* random draws */
  /* cuRAND's generators (ga_curand_call): open one of kind on dev at
   * (seed, offset), draw from it, close it; NULL on the host */
  int (*curand_open)(int dev, int kind, uint64_t seed, uint64_t offset, void **gen);
  int (*curand_draw)(const ga_curand_call *c);
  void (*curand_close)(void *gen);
  /* profiler ranges for Nsight (NVTX, loaded with dlopen when present):
   * push returns 1 when a range was pushed; NULL on the host */
  int (*range_push)(const char *name);
  void (*range_pop)(void);
  /* batched 1-D FFTs along one axis; *scaled = 1 when the backend applied
   * c->scale, 0 when the core is to multiply the output by it */
  int (*fft)(const ga_fft_call *c, int *scaled);
  /* the device's FFT plan cache: op GA_FFTC_* with value (a size or a
   * byte count), then *info as it stands */
  int (*fft_cache)(int dev, int op, int64_t value, ga_fft_cache_info *info);
  /* 1: fft takes multi-axis C2C calls (c->rank 2..3, one plan: cuFFT's
   * rank-2/3 transforms); 0: the caller goes one axis at a time */
  int fft_multi;

  /* ---- RawKernel / RawModule (base/ga_raw.h): user CUDA C++ loaded and
   * launched as given; NULL on the host ---- */
  int (*raw_load)(int dev, const char *code, size_t len, int is_image, const char *const *opts, int nopts,
                  const char *what, ga_raw_lib **lib);
  void (*raw_release)(ga_raw_lib *lib);
  int (*raw_function)(ga_raw_lib *lib, const char *name, ga_raw_fn *fn);
  int (*raw_launch)(ga_raw_fn *fn, void *stream, const unsigned grid[3], const unsigned block[3], unsigned smem,
                    int nparams, void *const *params, const size_t *sizes);

  /* ---- devices and memory ---- */
  int (*device_count)(void);                          /* devices of this kind */
  int (*check_device)(int dev);                       /* message when out of range */
  int (*set_device)(int dev);                         /* cheap when already current */
  ga_pool *(*pool)(int dev);                          /* where arrays of dev come from */
  /* the compute capability kernels are compiled for (90 for sm_90); NULL
   * on the host */
  int (*arch)(int dev);
  /* host memory this backend moves fastest (pinned); NULL: none */
  ga_pool *(*transfer_pool)(void);
  /* n bytes between buffers of any two devices of this kind or the host,
   * on stream; with sync, wait for it */
  int (*memcpy)(int dst_dev, void *dst, int src_dev, const void *src, size_t n, void *stream, int sync);
  /* queued work reaches the device (dev < 0: every device) */
  int (*flush)(int dev);

  /* ---- kernel sources and compilation, for the specs (tools that compile
   * every kernel with NVRTC, no GPU needed); NULL on the host ---- */
  char *(*ew_source)(const ga_ew_call *c);
  char *(*reduce_source)(const ga_red_call *c, int second);
  char *(*scan_source)(const ga_scan_call *c, int pass, const char **name);
  char *(*nonzero_source)(int pass, const char **name);
  char *(*sort_source)(int which, int dtype, int big, int pay_in, int pay_out);
  char *(*gather_source)(const ga_gather_call *c);
  char *(*ewk_source)(const ga_ewk_call *c);
  char *(*redk_source)(const ga_redk_call *c, int second, int sms);
  char *(*rand_source)(const ga_rand_call *c);
  char *(*fft_source)(int dbl, int logn);   /* the small-FFT kernel, n = 2^logn */
  /* which user text a compiler log points at ("identity") or NULL */
  const char *(*redk_blame)(const char *source, const char *log);
  int (*compile)(const char *source, const char *name, int arch, const char *const *extra, int nextra,
                 char **image, size_t *size, int *is_ptx);

  /* ---- dense solvers (issue 14): one LAPACK-style routine over a batch
   * of column-major matrices (base/ga_linalg_call.h); host: OpenBLAS's
   * LAPACK, CUDA: cuSOLVER (dlopen) and cuBLAS's batched LU ---- */
  int (*lapack)(const ga_la_call *c);
  /* the solvers' kernel text (which: 0 pointer arrays, 1 batched Jacobi),
   * for the specs' NVRTC check; NULL on the host */
  char *(*linalg_source)(int which, int dtype, int n);
  /* ---- several devices: peer copies and collectives (base/ga_dist.h) ---- */
  /* n bytes from src on src_dev to dst on dst_dev (two devices of this
   * kind), after the work queued on src_stream and before later work on
   * dst_stream, without synchronising the host; NULL on the host */
  int (*peer_copy)(int dst_dev, void *dst, void *dst_stream, int src_dev, const void *src, void *src_stream,
                   size_t n);
  /* the collectives' library: its version (NCCL: 22805) or an error naming
   * it and how to point at it */
  int (*dist_version)(int *version);
  int (*dist_unique_id)(unsigned char id[GA_DIST_ID_BYTES]);
  /* open c (kind, nlocal, world, dev[], rank[] filled in): id NULL = one
   * process over every rank (nlocal == world), else one rank of a world
   * that shares id; on failure nothing stays open */
  int (*dist_init)(ga_comm *c, const unsigned char *id);
  /* one collective on every local rank, as one group */
  int (*dist_run)(ga_comm *c, const ga_dist_call *call);
  /* start (1) or end (0) a group of calls issued together */
  int (*dist_group)(ga_comm *c, int start);
  /* release c (abort: without waiting for pending work); idempotent */
  void (*dist_destroy)(ga_comm *c, int abort);
  /* ---- matrix products (issue 14): the integer/bool (and small float)
   * GEMM kernel's text for a call, for the specs; NULL on the host ---- */
  char *(*matmul_source)(const ga_matmul_call *c);
  /* ---- interchange and allocators (DLPack, ga.cuda.MemoryPool) ---- */
  /* a new pool of dev's memory, owned by the caller (ga_pool_delete);
   * caching 0: no caching (every malloc/free is the device's own) */
  ga_pool *(*pool_new)(int dev, int caching);
  /* work queued on `consumer` after this call waits for the work queued
   * so far on `producer` (an event, no host synchronisation); NULL on
   * the host, where streams are no-ops */
  int (*stream_wait)(int dev, void *consumer, void *producer);
  /* ---- ga.cudnn (base/ga_dnn_call.h): one operation per call; dnn_load
   * opens the library (cuDNN with dlopen on the GPU; nothing on the host)
   * and gives its version, or the message saying how to point at it ---- */
  int (*dnn)(const struct ga_dnn_call *c);
  int (*dnn_load)(int *version);
  /* ---- integer matmul on the int8 tensor cores (issue 14): the digit
   * split/combine kernels' text for a dtype, for the specs; NULL on the
   * host ---- */
  char *(*intmm_source)(int dtype);
} ga_backend;

extern const ga_backend ga_host_backend;
extern const ga_backend ga_cuda_backend;

#endif
