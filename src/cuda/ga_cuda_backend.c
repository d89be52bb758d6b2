/* ga_cuda_backend: the CUDA slots of the backend table (base/ga_backend.h). */
#include "base/ga_backend.h"
#include "cuda/ga_cuda.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_raw.h"
#include "cuda/ga_cuda_solver.h"

/* an empty selection launches nothing (the host still checks the indices) */
static int gather(const ga_gather_call *c) { return c->adv->size == 0 ? GA_OK : ga_cuda_gather(c); }

const ga_backend ga_cuda_backend = {
  .name = "cuda",
  .ew = ga_cuda_ew,
  .reduce = ga_cuda_reduce,
  .scan = ga_cuda_scan,
  .nonzero_count = ga_cuda_nonzero_count,
  .nonzero_fill = ga_cuda_nonzero_fill,
  .sort = ga_cuda_sort,
  .searchsorted = ga_cuda_searchsorted,
  .gather = gather,
  .ewk = ga_cuda_ewk,
  .redk = ga_cuda_redk,
  .matmul = ga_cuda_matmul,
  .rand = ga_cuda_rand,
  .curand_open = ga_cuda_curand_open,
  .curand_draw = ga_cuda_curand_draw,
  .curand_close = ga_cuda_curand_close,
  .range_push = ga_cuda_range_push,
  .range_pop = ga_cuda_range_pop,
  .fft = ga_cuda_fft,
  .fft_cache = ga_cuda_fft_cache,
  .fft_multi = 1,
  .raw_load = ga_cuda_raw_load,
  .raw_release = ga_cuda_raw_release,
  .raw_function = ga_cuda_raw_function,
  .raw_launch = ga_cuda_raw_launch,
  .device_count = ga_cuda_device_count,
  .check_device = ga_cuda_check_device,
  .set_device = ga_cuda_set_device,
  .pool = ga_cuda_pool,
  .arch = ga_cuda_arch,
  .transfer_pool = ga_cuda_pinned_pool,
  .memcpy = ga_cuda_memcpy,
  .flush = ga_cuda_flush,
  .ew_source = ga_cuda_ew_source,
  .reduce_source = ga_cuda_reduce_source,
  .scan_source = ga_cuda_scan_source,
  .nonzero_source = ga_cuda_nonzero_source,
  .sort_source = ga_cuda_sort_source,
  .gather_source = ga_cuda_gather_source,
  .ewk_source = ga_cuda_ewk_source,
  .redk_source = ga_cuda_redk_source,
  .rand_source = ga_cuda_rand_source,
  .fft_source = ga_cuda_fft_small_source,
  .redk_blame = ga_cuda_redk_blame,
  .compile = ga_cuda_compile_opts,
  .lapack = ga_cuda_lapack,                 /* cuda/ga_cuda_solver.c */
  .linalg_source = ga_cuda_linalg_source,
  /* several GPUs: peer copies (ga_cuda_peer.c), NCCL (ga_cuda_nccl.c) */
  .peer_copy = ga_cuda_peer_copy,
  .dist_version = ga_cuda_dist_version,
  .dist_unique_id = ga_cuda_dist_unique_id,
  .dist_init = ga_cuda_dist_init,
  .dist_run = ga_cuda_dist_run,
  .dist_group = ga_cuda_dist_group,
  .dist_destroy = ga_cuda_dist_destroy,
  .matmul_source = ga_cuda_matmul_source,
  .pool_new = ga_cuda_pool_new,
  .stream_wait = ga_cuda_stream_wait,
  /* ga.cudnn: cuDNN 9 opened with dlopen on first use (cuda/ga_cuda_dnn.c) */
  .dnn = ga_cuda_dnn,
  .dnn_load = ga_cuda_dnn_load,
  .intmm_source = ga_cuda_intmm_source,
};
