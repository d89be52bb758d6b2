/* Where an array's bytes come from: the device's caching pool, or for host
 * arrays the pinned pool when a GPU is present (transfers at bus rate) and
 * an ordinary aligned-malloc pool otherwise. */
#include "base/ga_array.h"
#include "core/ga_mem.h"
#include "core/ga_backend.h"
#include "base/ga_scratch.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t live_device_bytes;
static ga_pool *host_pool;   /* chosen once (whether a GPU lends pinned memory does not change) */

ga_pool *ga_mem_pool(int device) {
  if (device != GA_CPU) return ga_backend_of(device)->pool(device);
  ga_pool *p = __atomic_load_n(&host_pool, __ATOMIC_ACQUIRE);
  if (p) return p;
  p = ga_backend_of(GA_GPU_KIND)->transfer_pool();   /* host arrays: pinned when a GPU lends it */
  if (!p) p = ga_backend_of(GA_CPU)->pool(GA_CPU);
  if (p) __atomic_store_n(&host_pool, p, __ATOMIC_RELEASE);
  return p;
}

int64_t ga_live_device_bytes(void) { return __atomic_load_n(&live_device_bytes, __ATOMIC_RELAXED); }

/* ga_buffer headers are made and dropped with every temporary array: keep a
 * small per-thread free list instead of a malloc/free pair each time.  The
 * list is handed back to malloc when its thread exits. */
#define BUF_CACHE_MAX 256
typedef struct buf_cache { ga_buffer *head; int n; } buf_cache;
static __thread buf_cache tcache;
static pthread_key_t tcache_key;
static pthread_once_t tcache_once = PTHREAD_ONCE_INIT;

static void tcache_drain(void *unused) {
  (void)unused;
  while (tcache.head) {
    ga_buffer *b = tcache.head;
    tcache.head = *(ga_buffer **)b;
    free(b);
  }
  tcache.n = 0;
}

static void tcache_init(void) { pthread_key_create(&tcache_key, tcache_drain); }

static ga_buffer *buffer_header(void) {
  ga_buffer *b = tcache.head;
  if (b) {
    tcache.head = *(ga_buffer **)b;
    tcache.n--;
    return b;
  }
  pthread_once(&tcache_once, tcache_init);
  pthread_setspecific(tcache_key, &tcache);   /* so the destructor runs at thread exit */
  return malloc(sizeof(ga_buffer));
}

static void buffer_header_free(ga_buffer *b) {
  if (tcache.n >= BUF_CACHE_MAX) { free(b); return; }
  *(ga_buffer **)b = tcache.head;
  tcache.head = b;
  tcache.n++;
}

int ga_buffer_new(int device, size_t nbytes, void *stream, ga_buffer **out) {
  const ga_backend *be = ga_backend_of(device);
  int rc = be->set_device(device);
  if (rc) return rc;
  ga_pool *pool = ga_mem_pool(device);
  ga_buffer *b = buffer_header();
  if (!b) return ga_err(GA_ENOMEM, "out of host memory");
  void *ptr;
  int limit_hit = 0;
  ga_block *blk = pool ? ga_pool_malloc(pool, nbytes, stream, &ptr, &limit_hit) : NULL;
  if (!blk) {
    buffer_header_free(b);
    return ga_pool_oom(pool, nbytes, limit_hit);
  }
  b->refcount = 1;
  b->device = device;
  b->ptr = ptr;
  b->nbytes = nbytes;
  b->pool = pool;
  b->block = blk;
  b->stream = stream;
  if (device != GA_CPU) __atomic_add_fetch(&live_device_bytes, (int64_t)nbytes, __ATOMIC_RELAXED);
  *out = b;
  return GA_OK;
}

void ga_buffer_decref(ga_buffer *b) {
  if (__atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
  if (b->device != GA_CPU) {
    __atomic_sub_fetch(&live_device_bytes, (int64_t)b->nbytes, __ATOMIC_RELAXED);
    ga_backend_of(b->device)->set_device(b->device);  /* pool frees are per device */
  }
  ga_pool_free(b->pool, b->block);
  buffer_header_free(b);
}

/* Arrays with a buffer of their own (declared in base/ga_array.h): the
 * allocation goes through the backend of the device. */
int ga_array_init(ga_array *a, int device, int dtype, int ndim, const int64_t *shape, void *stream) {
  int64_t size;
  int rc = ga_shape_size(ndim, shape, GA_ITEMSIZE(dtype), &size);
  if (rc) return rc;
  a->buf = NULL;
  a->offset = 0;
  a->dtype = dtype;
  a->ndim = ndim;
  a->size = size;
  memcpy(a->shape, shape, sizeof(int64_t) * ndim);
  ga_strides_c(ndim, shape, GA_ITEMSIZE(dtype), a->strides);
  return ga_buffer_new(device, (size_t)size * GA_ITEMSIZE(dtype), stream, &a->buf);
}

void ga_array_release(ga_array *a) {
  if (a->buf) {
    ga_buffer *b = a->buf;
    a->buf = NULL;
    ga_buffer_decref(b);
  }
}
