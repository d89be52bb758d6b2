/* Pool memory with the library's error message, and scratch: bytes a
 * backend call needs for a while (partial accumulators, sort temporaries,
 * nonzero's tile offsets), taken from a pool directly, so that backends
 * never call up into the core's buffers. */
#ifndef GA_SCRATCH_H
#define GA_SCRATCH_H
#include "base/ga_pool.h"
#include <stddef.h>

/* ga_pool_malloc that sets the thread's error (GA_ENOMEM, naming the
 * pool's use and limit) when it fails; ga_pool_oom is that error alone
 * (pool NULL: it could not be created), for callers that inline the
 * allocation. */
int ga_pool_take(ga_pool *pool, size_t nbytes, void *stream, ga_block **block, void **ptr);
int ga_pool_oom(ga_pool *pool, size_t nbytes, int limit_hit);

/* Zero-initialise (`ga_scratch s = {0}`), get, use s.ptr, put.  The pool is
 * stream-ordered: a block put back while kernels of `stream` still read it
 * is reused only by later work of that stream. */
typedef struct ga_scratch {
  ga_pool *pool; ga_block *block; void *ptr;
  void *owner; void (*release)(void *owner);   /* set when the hook below served it */
} ga_scratch;
int ga_scratch_get(ga_pool *pool, size_t nbytes, void *stream, ga_scratch *s);
void ga_scratch_put(ga_scratch *s);   /* idempotent */

/* The user's allocator (ga.cuda.set_allocator) serves scratch too: the
 * core installs a hook (core/ga_mem.c) that gets the first say on every
 * ga_scratch_get.  It returns GA_OK having set s->ptr, s->owner and
 * s->release (ga_scratch_put calls release(owner)), an error, or
 * GA_SCRATCH_DECLINED: `pool` serves it as before. */
#define GA_SCRATCH_DECLINED (-1)
typedef int (*ga_scratch_hook_fn)(ga_pool *pool, size_t nbytes, void *stream, ga_scratch *s);
void ga_scratch_set_hook(ga_scratch_hook_fn fn);

#endif
