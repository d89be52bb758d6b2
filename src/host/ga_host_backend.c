/* ga_host_backend: the host's slots of the backend table (base/ga_backend.h).
 * No kernel sources and no user kernels here: those slots are NULL. */
#include "base/ga_backend.h"
#include "host/ga_host.h"
#include "host/ga_host_lapack.h"
#include <string.h>

static int nz_count(const ga_nz_call *c, int64_t *count, ga_scratch *scratch) {
  (void)scratch;
  return ga_host_nonzero_count(c, count);
}

static int nz_fill(const ga_nz_call *c, const ga_scratch *scratch) {
  (void)scratch;
  return ga_host_nonzero_fill(c);
}

static int one_device(void) { return 1; }

static int check_device(int dev) {
  return dev == GA_CPU ? GA_OK : ga_err(GA_EINVAL, "not the host device: %d", dev);
}

static int set_device(int dev) {
  (void)dev;
  return GA_OK;
}

static ga_pool *pool(int dev) {
  (void)dev;
  return ga_host_plain_pool();
}

/* host to host: the bytes are ours, nothing is queued */
static int copy(int dst_dev, void *dst, int src_dev, const void *src, size_t n, void *stream, int sync) {
  (void)dst_dev, (void)src_dev, (void)stream, (void)sync;
  if (n) memmove(dst, src, n);
  return GA_OK;
}

static int flush(int dev) {
  (void)dev;
  return GA_OK;
}

const ga_backend ga_host_backend = {
  .name = "host",
  .ew = ga_host_ew,
  .reduce = ga_host_reduce,
  .scan = ga_host_scan,
  .nonzero_count = nz_count,
  .nonzero_fill = nz_fill,
  .sort = ga_host_sort,
  .searchsorted = ga_host_searchsorted,
  .gather = ga_host_gather,
  .matmul = ga_host_matmul_call,
  .rand = ga_host_rand,
  .ewk = ga_host_ewk,   /* host/ga_host_ewk.c: the system C++ compiler */
  .redk = ga_host_redk, /* host/ga_host_redk.c */
  .fft = ga_host_fft,
  .fft_cache = ga_host_fft_cache,
  .device_count = one_device,
  .check_device = check_device,
  .set_device = set_device,
  .pool = pool,
  .memcpy = copy,
  .flush = flush,
  .lapack = ga_host_lapack,   /* host/ga_host_lapack.c */
  /* ga.distributed: a one-rank world (ga_host_dist.c) */
  .dist_version = ga_host_dist_version,
  .dist_unique_id = ga_host_dist_unique_id,
  .dist_init = ga_host_dist_init,
  .dist_run = ga_host_dist_run,
  .dist_group = ga_host_dist_group,
  .dist_destroy = ga_host_dist_destroy,
  .pool_new = ga_host_pool_new,
  /* ga.cudnn: direct implementations (host/ga_host_dnn.c) */
  .dnn = ga_host_dnn,
  .dnn_load = ga_host_dnn_load,
};
