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
typedef struct ga_scratch { ga_pool *pool; ga_block *block; void *ptr; } ga_scratch;
int ga_scratch_get(ga_pool *pool, size_t nbytes, void *stream, ga_scratch *s);
void ga_scratch_put(ga_scratch *s);   /* idempotent */

#endif
