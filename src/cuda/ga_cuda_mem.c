/* The caching pools over CUDA memory: one per device (cudaMalloc) and one
 * pinned host pool (cudaHostAlloc, portable across devices). */
#include "cuda/ga_cuda_internal.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

static ga_pool *pools[GA_MAX_DEVICES];
static ga_pool *pinned;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int mem_debug(void) {
  const char *d = getenv("GPUARRAY_MEM_DEBUG");
  return d && d[0] == '1';
}

static int dev_alloc(void *ctx, size_t n, void **p) {
  if (ga_cuda_set_device((int)(intptr_t)ctx)) return 1;
  if (cudaMalloc(p, n) != cudaSuccess) {
    cudaGetLastError();   /* clear the sticky-less OOM error */
    return 1;
  }
  return 0;
}

static void dev_free(void *ctx, void *p) {
  /* queued kernels may still name this memory: launch them first (cudaFree
   * then waits for them) */
  ga_cuda_flush((int)(intptr_t)ctx);
  ga_cuda_set_device((int)(intptr_t)ctx);
  cudaFree(p);
}

static int host_alloc(void *ctx, size_t n, void **p) {
  (void)ctx;
  if (cudaHostAlloc(p, n ? n : 1, cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError();
    return 1;
  }
  return 0;
}

static void host_free(void *ctx, void *p) {
  (void)ctx;
  cudaFreeHost(p);
}

ga_pool *ga_cuda_pool(int dev) {
  if (dev < 0 || dev >= GA_MAX_DEVICES) return NULL;
  ga_pool *p = __atomic_load_n(&pools[dev], __ATOMIC_ACQUIRE);
  if (p) return p;
  pthread_mutex_lock(&lock);
  if (!pools[dev]) {
    p = ga_pool_new(dev_alloc, dev_free, (void *)(intptr_t)dev);
    if (p && mem_debug()) ga_pool_set_debug(p, 1);
    __atomic_store_n(&pools[dev], p, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&lock);
  return pools[dev];
}

/* a new pool of dev's memory for ga.cuda.MemoryPool (caching) or the
 * plain allocator (caching 0: every allocation a cudaMalloc, every free a
 * cudaFree) */
ga_pool *ga_cuda_pool_new(int dev, int caching) {
  if (dev >= GA_MAX_DEVICES) return NULL;
  ga_pool *p = dev < 0 ? ga_pool_new(host_alloc, host_free, NULL)   /* pinned host memory */
                       : ga_pool_new(dev_alloc, dev_free, (void *)(intptr_t)dev);
  if (p && (!caching || mem_debug())) ga_pool_set_debug(p, 1);
  return p;
}

ga_pool *ga_cuda_pinned_pool(void) {
  if (ga_cuda_device_count() == 0) return NULL;
  ga_pool *p = __atomic_load_n(&pinned, __ATOMIC_ACQUIRE);
  if (p) return p;
  pthread_mutex_lock(&lock);
  if (!pinned) {
    p = ga_pool_new(host_alloc, host_free, NULL);
    if (p && mem_debug()) ga_pool_set_debug(p, 1);
    __atomic_store_n(&pinned, p, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&lock);
  return pinned;
}
