/* Buffers and arrays with memory of their own: allocated from the pool of
 * their device through its backend (core/ga_mem.c).  The core's and the
 * binding's; a backend takes the scratch it needs from its own pool
 * (base/ga_scratch.h) and never allocates arrays. */
#ifndef GA_MEM_H
#define GA_MEM_H
#include "base/ga_array.h"
#include "base/ga_pool.h"

/* A buffer of nbytes on device, from its pool, ordered on stream (or from
 * the allocator hook below, when it takes the request). */
int ga_buffer_new(int device, size_t nbytes, void *stream, ga_buffer **out);

/* The allocator of the running call (the binding's: ga.cuda.set_allocator,
 * using_allocator, the C API's set_allocator), so that temporaries inside
 * a call (cast copies, overlap copies, backend scratch: sort buffers,
 * reduction partials...) come from it as the call's arrays do.  Asked
 * first by ga_buffer_new and by backend scratch (base/ga_scratch.h): it
 * returns GA_OK with *out, an error (the allocator failed), or
 * GA_MEM_DECLINED (the default pool serves it).  NULL: none. */
#define GA_MEM_DECLINED (-1)
typedef int (*ga_alloc_hook_fn)(int device, size_t nbytes, void *stream, ga_buffer **out);
void ga_mem_set_alloc_hook(ga_alloc_hook_fn fn);
void ga_buffer_decref(ga_buffer *b);   /* the last owner gives it back */
/* Live bytes held by arrays on CUDA devices (all devices), for GC pacing. */
int64_t ga_live_device_bytes(void);
/* Initialise `a` as a fresh C-contiguous array with a new buffer. */
int ga_array_init(ga_array *a, int device, int dtype, int ndim, const int64_t *shape, void *stream);
void ga_array_release(ga_array *a);   /* decref the buffer, mark freed */

/* A buffer over memory someone else owns (a DLPack import, a foreign
 * pointer, an allocator's): the last owner calls release(ctx, buffer)
 * (which may be NULL: nothing to do). */
int ga_buffer_wrap(int device, void *ptr, size_t nbytes, void *stream, void (*release)(void *, ga_buffer *),
                   void *ctx, ga_buffer **out);

/* Pool sets of the user's (ga.cuda.MemoryPool, and the plain allocator:
 * caching 0, every allocation and free goes to the device): one pool per
 * device, created on first use through the backend's pool_new slot;
 * refcounted: every buffer taken from one holds a reference, so its block
 * goes back to the pool it came from after the allocator has changed and
 * after the Lua object is gone. */
#define GA_MEMPOOL_MAX_DEVICES 64
typedef struct ga_mempool ga_mempool;
ga_mempool *ga_mempool_new(int caching);
/* The process's plain allocator (no caching), never deleted. */
ga_mempool *ga_mempool_plain(void);
void ga_mempool_incref(ga_mempool *m);
void ga_mempool_decref(ga_mempool *m);   /* the last reference deletes the pools */
ga_pool *ga_mempool_pool(ga_mempool *m, int device, int create);   /* NULL: none (yet) */
void ga_mempool_stats(ga_mempool *m, size_t *used, size_t *total, size_t *nfree);   /* all devices */
void ga_mempool_free_all(ga_mempool *m);
void ga_mempool_set_limit(ga_mempool *m, size_t limit);   /* per device pool; 0 = none */
size_t ga_mempool_get_limit(ga_mempool *m);
/* A buffer of nbytes from m's pool of device. */
int ga_buffer_new_in(ga_mempool *m, int device, size_t nbytes, void *stream, ga_buffer **out);

#endif
