/* The host backend: loops over ga_ew_call on the CPU (the reference every GPU
 * result is checked against), casts, and matmul through OpenBLAS.  No Lua,
 * no CUDA. */
#ifndef GA_HOST_H
#define GA_HOST_H
#include "base/ga_calls.h"
#include "base/ga_pool.h"

/* Cast n elements from dtype `from` at src (byte stride ss) to dtype `to` at
 * dst (byte stride ds), with NumPy's casting results. */
typedef void (*ga_cast_fn)(const char *src, int64_t ss, char *dst, int64_t ds, int64_t n);
ga_cast_fn ga_host_cast_fn(int from, int to);

/* Inner loop of an op row for loop dtype T: args[k] point at element 0 of
 * arg k (ins then outs, already of the loop types), strides in bytes (0 for
 * a broadcast/scalar arg), n elements, i0 = flat index of the first one. */
typedef void (*ga_host_loop_fn)(char **args, const int64_t *strides, int64_t n, int64_t i0);
ga_host_loop_fn ga_host_loop(const ga_op *op, int loop_dtype);
/* A comparison's exact loop for (int64, uint64) (first = GA_INT64) or
 * (uint64, int64) (first = GA_UINT64). */
ga_host_loop_fn ga_host_loop_mixed(const ga_op *op, int first);

/* The matmul slot (ga_matmul_call), every numeric dtype. */
int ga_host_matmul_call(const ga_matmul_call *c);
/* out = a @ b for 2-D host arrays of one dtype; out is C-contiguous (m, n);
 * a, b may have any strides and may overlap out. */
int ga_host_matmul(const ga_array *a, const ga_array *b, ga_array *out);
int ga_host_rand(const ga_rand_call *c);
/* ElementwiseKernel on host arrays (host/ga_host_ewk.c): the user's C++
 * compiled by the system compiler; ga_host_jit finds a call's object by
 * its structural key, generating, compiling (cached on disk by the
 * source's hash) and loading it on a miss, and gives its entry `sym` */
int ga_host_ewk(const ga_ewk_call *c);
char *ga_host_ewk_source(const ga_ewk_call *c);
int ga_host_jit(const uint64_t key[2], char *(*gen)(const void *ud), const void *ud, const char *sym,
                const char *what, const char *name, void **fn);
/* the structural key of a host kernel call: the kernel's text hashes plus
 * each argument's kind, dtype and raw rank, the placeholders' dtypes and
 * `extra` (the math option, a reduce dtype) */
void ga_host_jit_key(uint64_t key[2], const uint64_t khash[2], char family, int nargs, const int *kind, const int *dtype,
                     const int *rank, int ntv, const int *tv_dtype, int extra);
const char *ga_host_cxx_prelude(void);   /* CUDA keywords defined away, float16 by bits */
/* ReductionKernel on host arrays (host/ga_host_redk.c), the same way */
int ga_host_redk(const ga_redk_call *c);
char *ga_host_redk_source(const ga_redk_call *c);
/* FFT (host/ga_host_fft.c): the fft slot and its plan cache's */
int ga_host_fft(const ga_fft_call *c, int *scaled);
int ga_host_fft_cache(int dev, int op, int64_t value, ga_fft_cache_info *info);

/* Aligned host memory when no GPU is present (pinned memory comes from the
 * CUDA backend otherwise). */
int ga_host_raw_alloc(void *ctx, size_t nbytes, void **p);
void ga_host_raw_free(void *ctx, void *p);

/* The aligned-malloc pool host arrays come from when no GPU lends pinned
 * memory (the core chooses: core/ga_mem.c). */
ga_pool *ga_host_plain_pool(void);
ga_pool *ga_host_pool_new(int dev, int caching);   /* a new pool, the caller's */

/* The slots of ga_host_backend (host/ga_host_backend.c) */
int ga_host_ew(const ga_ew_call *c);
int ga_host_reduce(const ga_red_call *c);
int ga_host_scan(const ga_scan_call *c);
int ga_host_nonzero_count(const ga_nz_call *c, int64_t *count);
int ga_host_nonzero_fill(const ga_nz_call *c);
int ga_host_sort(const ga_sort_call *c);
int ga_host_searchsorted(const ga_search_call *c);
/* Bounds: the host checks every index before touching x. */
int ga_host_gather(const ga_gather_call *c);

/* The one-rank world of ga.distributed on the host (ga_host_dist.c) */
#include "base/ga_dist.h"
int ga_host_dist_version(int *version);
int ga_host_dist_unique_id(unsigned char id[GA_DIST_ID_BYTES]);
int ga_host_dist_init(ga_comm *c, const unsigned char *id);
int ga_host_dist_run(ga_comm *c, const ga_dist_call *k);
int ga_host_dist_group(ga_comm *c, int start);
void ga_host_dist_destroy(ga_comm *c, int abort);

/* ga.cudnn's slots (host/ga_host_dnn.c) */
struct ga_dnn_call;
int ga_host_dnn(const struct ga_dnn_call *c);
int ga_host_dnn_load(int *version);

#endif
