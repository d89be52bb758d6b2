/* Host memory for the host backend: 64-byte alignment so that any dtype and
 * any vector load lines up, and so host buffers behave like device ones. */
#include "host/ga_host.h"
#include <pthread.h>
#include <stdlib.h>

int ga_host_raw_alloc(void *ctx, size_t nbytes, void **p) {
  (void)ctx;
  /* posix_memalign(0) may give NULL, which a caller would take for failure. */
  return posix_memalign(p, 64, nbytes ? nbytes : 1);
}

void ga_host_raw_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

static ga_pool *plain_pool;
static pthread_once_t plain_once = PTHREAD_ONCE_INIT;

static void make_plain_pool(void) {
  plain_pool = ga_pool_new(ga_host_raw_alloc, ga_host_raw_free, NULL);
  const char *dbg = getenv("GPUARRAY_MEM_DEBUG");
  if (dbg && dbg[0] == '1') ga_pool_set_debug(plain_pool, 1);
}

/* a new pool of host memory (ga.cuda.MemoryPool on the host backend);
 * caching 0: every allocation is a posix_memalign and every free a free */
ga_pool *ga_host_pool_new(int dev, int caching) {
  (void)dev;
  ga_pool *p = ga_pool_new(ga_host_raw_alloc, ga_host_raw_free, NULL);
  if (p && !caching) ga_pool_set_debug(p, 1);
  return p;
}

ga_pool *ga_host_plain_pool(void) {
  pthread_once(&plain_once, make_plain_pool);
  return plain_pool;
}
