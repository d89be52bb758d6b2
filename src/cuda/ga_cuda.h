/* The CUDA backend's interface to the core and the binding.  Everything here
 * fails soft when there is no driver or GPU: ga_cuda_device_count() is 0 and
 * the rest is never reached.  Only ga_cuda_*.c include CUDA headers. */
#ifndef GA_CUDA_H
#define GA_CUDA_H
#include "base/ga_array.h"
#include "base/ga_pool.h"
#include "base/ga_scratch.h"
#include "base/ga_calls.h"

/* Devices */
int ga_cuda_device_count(void);           /* 0 without driver/GPU; cached */
int ga_cuda_check_device(int dev);        /* error message when out of range */
int ga_cuda_set_device(int dev);          /* cheap when already current */
typedef struct ga_device_props {
  char name[256];
  int major, minor;
  int multiprocessors;
  size_t total_mem;
  int max_threads_per_block;
} ga_device_props;
int ga_cuda_device_props(int dev, ga_device_props *p);
int ga_cuda_mem_info(int dev, size_t *free_b, size_t *total_b);
int ga_cuda_device_synchronize(int dev);

/* Streams and events (opaque handles; NULL stream = the legacy default) */
int ga_cuda_stream_create(int dev, int non_blocking, void **s);
int ga_cuda_stream_destroy(int dev, void *s);
int ga_cuda_stream_synchronize(int dev, void *s);
int ga_cuda_stream_query(int dev, void *s, int *done);
int ga_cuda_event_create(int dev, void **e);
int ga_cuda_event_destroy(int dev, void *e);
int ga_cuda_event_record(int dev, void *e, void *s);
int ga_cuda_event_synchronize(int dev, void *e);
int ga_cuda_event_elapsed(void *e1, void *e2, float *ms);
/* consumer waits (on the device) for the work queued on producer so far */
int ga_cuda_stream_wait(int dev, void *consumer, void *producer);

/* Memory */
ga_pool *ga_cuda_pool(int dev);           /* device pool (created on first use) */
ga_pool *ga_cuda_pinned_pool(void);       /* NULL when no GPU */
ga_pool *ga_cuda_pool_new(int dev, int caching);   /* a new pool, the caller's */
/* Copy n bytes between any two buffers (host or device) on stream; with
 * sync, wait for it before returning. */
int ga_cuda_memcpy(int dst_dev, void *dst, int src_dev, const void *src, size_t n,
                   void *stream, int sync);

/* Kernels */
/* Compile CUDA C source to CUBIN (or PTX when NVRTC lacks the arch) for
 * compute capability `arch` (e.g. 90), through the disk cache.  *image is
 * malloc'ed.  Used by the kernel engine and by the CI's compile-only check. */
int ga_cuda_compile(const char *source, const char *name, int arch, char **image,
                    size_t *size, int *is_ptx);
/* The same with extra NVRTC options (part of the cache key). */
int ga_cuda_compile_opts(const char *source, const char *name, int arch, const char *const *extra,
                         int nextra, char **image, size_t *size, int *is_ptx);
/* The source of the kernel for an elementwise call (for tests, printing). */
char *ga_cuda_ew_source(const ga_ew_call *c);

/* Launch queue: kernels are batched (ga_cuda_queue.h); anything that must
 * see their effects in order calls this first (the backend's own copies,
 * cuBLAS, events and synchronisation already do). dev < 0: every device. */
int ga_cuda_flush(int dev);

/* BLAS */
int ga_cuda_matmul(const ga_matmul_call *c);
char *ga_cuda_matmul_source(const ga_matmul_call *c);
/* integer products on the int8 tensor cores (cuda/ga_cuda_intmm.c): does
 * the call take that path; run it (*done = 0: no scratch, nothing queued,
 * the caller runs the tiled kernel); the split/combine kernels' text */
int ga_cuda_intmm_applies(const ga_matmul_call *c);
int ga_cuda_intmm(const ga_matmul_call *c, int *done);
char *ga_cuda_intmm_source(int dtype);
int ga_cuda_rand(const ga_rand_call *c);
/* FFT on cuFFT (cuda/ga_cuda_fft.c): the fft slot and its plan cache's */
int ga_cuda_fft(const ga_fft_call *c, int *scaled);
int ga_cuda_fft_cache(int dev, int op, int64_t value, ga_fft_cache_info *info);
/* our own small C2C FFTs (cuda/ga_cuda_fft_small.c): *done = 1 when the
 * call (batch axis pd) was one for them and is queued, scale applied */
int ga_cuda_fft_small(const ga_fft_call *c, int pd, int *done);
char *ga_cuda_fft_small_source(int dbl, int logn);
char *ga_cuda_rand_source(const ga_rand_call *c);
int ga_cuda_curand_open(int dev, int kind, uint64_t seed, uint64_t offset, void **gen);
int ga_cuda_curand_draw(const ga_curand_call *c);
void ga_cuda_curand_close(void *gen);
/* NVTX ranges (ga_cuda_nvtx.c): libnvToolsExt or CUDA's libnvtx3interop
 * through dlopen; without either, push returns 0 and pop does nothing */
int ga_cuda_range_push(const char *name);
void ga_cuda_range_pop(void);

/* The compute slots of ga_cuda_backend (cuda/ga_cuda_backend.c) and the
 * sources of their kernels (the specs compile them with NVRTC). */
int ga_cuda_ew(const ga_ew_call *c);
int ga_cuda_reduce(const ga_red_call *c);
char *ga_cuda_reduce_source(const ga_red_call *c, int second);
int ga_cuda_scan(const ga_scan_call *c);
/* pass 1 (chunk totals), 2 (scan of the totals), 3 (the scan); *name gets
 * the kernel's name.  NULL when the call does not use that pass. */
char *ga_cuda_scan_source(const ga_scan_call *c, int pass, const char **name);
/* nonzero keeps a per-call scratch (tile offsets) between the two steps:
 * count fills it, fill reads it, the caller puts it back. */
int ga_cuda_nonzero_count(const ga_nz_call *c, int64_t *count, ga_scratch *scratch);
int ga_cuda_nonzero_fill(const ga_nz_call *c, const ga_scratch *scratch);
char *ga_cuda_nonzero_source(int pass, const char **name);
int ga_cuda_sort(const ga_sort_call *c);
int ga_cuda_searchsorted(const ga_search_call *c);
/* which: 0 histogram, 1 scatter, 2-4 the prefix sum's reduce / parts /
 * down-sweep, 5 searchsorted.  big: 64-bit positions, counts and payloads.
 * pay_in: 0 none, 1 the element's position, 2 read; pay_out: 0 none, 1
 * written, 2 final (1-based int64 position in its row). */
char *ga_cuda_sort_source(int which, int dtype, int big, int pay_in, int pay_out);
/* Bounds: the kernel skips (and, for GET, writes 0 for) an out-of-range
 * index, sets a device-side flag and the call synchronises its stream to
 * read it. */
int ga_cuda_gather(const ga_gather_call *c);
char *ga_cuda_gather_source(const ga_gather_call *c);

/* ElementwiseKernel, ReductionKernel */
int ga_cuda_ewk(const ga_ewk_call *c);
char *ga_cuda_ewk_source(const ga_ewk_call *c);   /* malloc'ed; NULL + message on failure */
/* What every user kernel source starts with after ga_types.cuh: CuPy's dtype
 * typedefs, ga_raw_c/ga_raw_s, ga_ind, half and complex operators. */
extern const char ga_cuda_ewk_prelude[];

int ga_cuda_redk(const ga_redk_call *c);
/* source of the call's first kernel (second: the combining kernel of a
 * split reduction, or NULL + message when the call has none); sms: the
 * device's multiprocessors (the plan depends on them) */
char *ga_cuda_redk_source(const ga_redk_call *c, int second, int sms);
/* Which user text an NVRTC error points at: "identity" when the log's
 * first error lies in the identity's line, else NULL. */
const char *ga_cuda_redk_blame(const char *source, const char *log);

/* Peer copies (ga_cuda_peer.c) and NCCL collectives (ga_cuda_nccl.c): the
 * peer_copy and dist_* slots of ga_cuda_backend. */
#include "base/ga_dist.h"
int ga_cuda_peer_copy(int dst_dev, void *dst, void *dst_stream, int src_dev, const void *src, void *src_stream,
                      size_t n);
int ga_cuda_dist_version(int *version);
int ga_cuda_dist_unique_id(unsigned char id[GA_DIST_ID_BYTES]);
int ga_cuda_dist_init(ga_comm *c, const unsigned char *id);
int ga_cuda_dist_run(ga_comm *c, const ga_dist_call *k);
int ga_cuda_dist_group(ga_comm *c, int start);
void ga_cuda_dist_destroy(ga_comm *c, int abort);

/* ga.cudnn's slots (cuda/ga_cuda_dnn.c): cuDNN through dlopen */
struct ga_dnn_call;
int ga_cuda_dnn(const struct ga_dnn_call *c);
int ga_cuda_dnn_load(int *version);

#endif
