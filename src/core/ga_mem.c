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

/* The one place a buffer header is filled (pool-less, writable, one
 * owner) and its device bytes counted. */
static void buffer_fill(ga_buffer *b, int device, void *ptr, size_t nbytes, void *stream,
                        void (*release)(void *, ga_buffer *), void *ctx) {
  b->refcount = 1;
  b->device = device;
  b->ptr = ptr;
  b->nbytes = nbytes;
  b->pool = NULL;
  b->block = NULL;
  b->stream = stream;
  b->release = release;
  b->release_ctx = ctx;
  b->readonly = 0;
  if (device != GA_CPU) __atomic_add_fetch(&live_device_bytes, (int64_t)nbytes, __ATOMIC_RELAXED);
}

static ga_alloc_hook_fn alloc_hook;

/* backend scratch through the hook: the pool names the device (the
 * default pool of one); the buffer is dropped by ga_scratch_put */
static void scratch_release(void *owner) { ga_buffer_decref(owner); }

static int scratch_hook(ga_pool *pool, size_t nbytes, void *stream, ga_scratch *s) {
  ga_alloc_hook_fn h = __atomic_load_n(&alloc_hook, __ATOMIC_ACQUIRE);
  if (!h || !pool) return GA_SCRATCH_DECLINED;
  int device = GA_CPU, found = 0, n = ga_backend_of(GA_GPU_KIND)->device_count();
  for (int d = 0; d < n && !found; d++)
    if (ga_backend_of(d)->pool(d) == pool) device = d, found = 1;
  if (!found && __atomic_load_n(&host_pool, __ATOMIC_ACQUIRE) == pool) device = GA_CPU, found = 1;
  if (!found) return GA_SCRATCH_DECLINED;   /* another pool (a user pool's own, a transfer pool) */
  ga_buffer *b;
  int rc = h(device, nbytes, stream, &b);
  if (rc == GA_MEM_DECLINED) return GA_SCRATCH_DECLINED;
  if (rc) return rc;
  s->ptr = b->ptr;
  s->owner = b;
  s->release = scratch_release;
  return GA_OK;
}

void ga_mem_set_alloc_hook(ga_alloc_hook_fn fn) {
  __atomic_store_n(&alloc_hook, fn, __ATOMIC_RELEASE);
  ga_scratch_set_hook(fn ? scratch_hook : NULL);
}

int ga_buffer_new(int device, size_t nbytes, void *stream, ga_buffer **out) {
  const ga_backend *be = ga_backend_of(device);
  int rc = be->set_device(device);
  if (rc) return rc;
  ga_alloc_hook_fn h = __atomic_load_n(&alloc_hook, __ATOMIC_ACQUIRE);
  if (h && (rc = h(device, nbytes, stream, out)) != GA_MEM_DECLINED) return rc;
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
  buffer_fill(b, device, ptr, nbytes, stream, NULL, NULL);
  b->pool = pool;
  b->block = blk;
  *out = b;
  return GA_OK;
}

static void mempool_release(void *ctx, ga_buffer *b);

void ga_buffer_decref(ga_buffer *b) {
  if (__atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
  if (b->device != GA_CPU) {
    __atomic_sub_fetch(&live_device_bytes, (int64_t)b->nbytes, __ATOMIC_RELAXED);
    ga_backend_of(b->device)->set_device(b->device);  /* pool frees are per device */
  }
  if (b->release) {
    /* memory given back to someone else (a host's free, a DLPack deleter)
     * may be freed at once: our queued kernels that name it launch first
     * (a pool of ours orders its frees by stream itself) */
    if (b->device != GA_CPU && b->release != mempool_release) ga_backend_of(b->device)->flush(b->device);
    b->release(b->release_ctx, b);
  } else {
    ga_pool_free(b->pool, b->block);
  }
  buffer_header_free(b);
}

int ga_buffer_wrap(int device, void *ptr, size_t nbytes, void *stream, void (*release)(void *, ga_buffer *),
                   void *ctx, ga_buffer **out) {
  ga_buffer *b = buffer_header();
  if (!b) return ga_err(GA_ENOMEM, "out of host memory");
  buffer_fill(b, device, ptr, nbytes, stream, release, ctx);
  *out = b;
  return GA_OK;
}

/* ---- pools of the user's (ga.cuda.MemoryPool, the plain allocator) ---- */
#define MP_SLOTS (GA_MEMPOOL_MAX_DEVICES + 1)   /* slot 0: the host, d + 1: CUDA device d */
struct ga_mempool {
  int refcount;
  int caching;
  size_t limit;
  pthread_mutex_t lock;
  ga_pool *pools[MP_SLOTS];
};

ga_mempool *ga_mempool_new(int caching) {
  ga_mempool *m = calloc(1, sizeof *m);
  if (!m) { ga_err(GA_ENOMEM, "out of host memory"); return NULL; }
  m->refcount = 1;
  m->caching = caching;
  pthread_mutex_init(&m->lock, NULL);
  return m;
}

static ga_mempool *plain;
static pthread_once_t plain_once = PTHREAD_ONCE_INIT;
static void make_plain(void) { plain = ga_mempool_new(0); }

ga_mempool *ga_mempool_plain(void) {
  pthread_once(&plain_once, make_plain);
  return plain;
}

void ga_mempool_incref(ga_mempool *m) { __atomic_add_fetch(&m->refcount, 1, __ATOMIC_RELAXED); }

void ga_mempool_decref(ga_mempool *m) {
  if (!m || __atomic_sub_fetch(&m->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
  for (int i = 0; i < MP_SLOTS; i++)
    if (m->pools[i]) {
      if (i > 0) ga_backend_of(i - 1)->set_device(i - 1);
      ga_pool_delete(m->pools[i]);
    }
  pthread_mutex_destroy(&m->lock);
  free(m);
}

ga_pool *ga_mempool_pool(ga_mempool *m, int device, int create) {
  int slot = device == GA_CPU ? 0 : device + 1;
  if (slot < 0 || slot >= MP_SLOTS) { ga_err(GA_EINVAL, "device %d out of range", device); return NULL; }
  ga_pool *p = __atomic_load_n(&m->pools[slot], __ATOMIC_ACQUIRE);
  if (p || !create) return p;
  pthread_mutex_lock(&m->lock);
  if (!m->pools[slot]) {
    const ga_backend *be = ga_backend_of(device);
    /* host memory: pinned when a GPU lends it, as the default host pool */
    if (device == GA_CPU && ga_backend_of(GA_GPU_KIND)->device_count() > 0) be = ga_backend_of(GA_GPU_KIND);
    p = be->pool_new ? be->pool_new(device, m->caching) : NULL;
    if (p && m->limit) ga_pool_set_limit(p, m->limit);
    __atomic_store_n(&m->pools[slot], p, __ATOMIC_RELEASE);
  }
  p = m->pools[slot];
  pthread_mutex_unlock(&m->lock);
  if (!p) ga_err(GA_ENOMEM, "cannot create a memory pool for this device");
  return p;
}

void ga_mempool_stats(ga_mempool *m, size_t *used, size_t *total, size_t *nfree) {
  *used = *total = *nfree = 0;
  for (int i = 0; i < MP_SLOTS; i++) {
    ga_pool *p = __atomic_load_n(&m->pools[i], __ATOMIC_ACQUIRE);
    if (!p) continue;
    *used += ga_pool_used_bytes(p);
    *total += ga_pool_total_bytes(p);
    *nfree += ga_pool_n_free_blocks(p);
  }
}

void ga_mempool_free_all(ga_mempool *m) {
  for (int i = 0; i < MP_SLOTS; i++) {
    ga_pool *p = __atomic_load_n(&m->pools[i], __ATOMIC_ACQUIRE);
    if (!p) continue;
    if (i > 0) ga_backend_of(i - 1)->set_device(i - 1);
    ga_pool_free_all_blocks(p);
  }
}

void ga_mempool_set_limit(ga_mempool *m, size_t limit) {
  pthread_mutex_lock(&m->lock);
  m->limit = limit;
  for (int i = 0; i < MP_SLOTS; i++)
    if (m->pools[i]) ga_pool_set_limit(m->pools[i], limit);
  pthread_mutex_unlock(&m->lock);
}

size_t ga_mempool_get_limit(ga_mempool *m) { return m->limit; }

/* a block of a user pool goes back to that pool (whatever the allocator
 * is now), then the buffer's reference on the pool set is dropped */
static void mempool_release(void *ctx, ga_buffer *b) {
  ga_pool_free(b->pool, b->block);
  ga_mempool_decref(ctx);
}

int ga_buffer_new_in(ga_mempool *m, int device, size_t nbytes, void *stream, ga_buffer **out) {
  const ga_backend *be = ga_backend_of(device);
  int rc = be->set_device(device);
  if (rc) return rc;
  ga_pool *pool = ga_mempool_pool(m, device, 1);
  if (!pool) return ga_errcode();
  ga_block *blk;
  void *ptr;
  if ((rc = ga_pool_take(pool, nbytes, stream, &blk, &ptr))) return rc;
  ga_buffer *b;
  if ((rc = ga_buffer_wrap(device, ptr, nbytes, stream, mempool_release, m, &b))) {
    ga_pool_free(pool, blk);
    return rc;
  }
  b->pool = pool;
  b->block = blk;
  ga_mempool_incref(m);
  *out = b;
  return GA_OK;
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
