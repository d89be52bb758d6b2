/* A caching allocator, independent of where the memory comes from.
 * The CUDA backend runs one per device over cudaMalloc, and one pinned host
 * pool over cudaHostAlloc; tests run it over malloc.  Design (after CuPy's
 * MemoryPool and THC's caching allocator):
 *  - requests are rounded up to 512 B; large requests (>= 1 MiB) to 2 MiB-ish
 *    granularity when a new segment is taken from the raw allocator;
 *  - free blocks are kept per stream in size-ordered bins; allocation is best
 *    fit among free blocks of the same stream; a block larger than needed is
 *    split, and on free a block merges with free neighbours of its segment;
 *  - a block freed on stream S is reused only by allocations on S (no event
 *    needed: work on one stream is ordered);
 *  - when the raw allocator fails, or the pool limit would be exceeded, the
 *    pool releases its wholly free segments and tries once more;
 *  - thread-safe (one mutex per pool).
 * No Lua, no CUDA in here. */
#ifndef GA_POOL_H
#define GA_POOL_H
#include <stddef.h>

typedef struct ga_pool ga_pool;
typedef struct ga_block ga_block;

/* Raw allocator: return 0 and set *p on success, nonzero on failure. */
typedef int (*ga_raw_alloc_fn)(void *ctx, size_t nbytes, void **p);
typedef void (*ga_raw_free_fn)(void *ctx, void *p);

ga_pool *ga_pool_new(ga_raw_alloc_fn alloc, ga_raw_free_fn free_, void *ctx);
void ga_pool_delete(ga_pool *pool);          /* frees every segment */

/* Allocate nbytes (0 allowed: returns a valid non-NULL block of 0 usable bytes
 * or a 512 B block) for use on `stream` (an opaque key; NULL is the default
 * stream).  On failure returns NULL (raw allocator failed even after freeing
 * cached segments, or the limit is reached); `*limit_hit` (if not NULL) tells
 * which.  `*ptr` receives the address. */
ga_block *ga_pool_malloc(ga_pool *pool, size_t nbytes, void *stream, void **ptr, int *limit_hit);
void ga_pool_free(ga_pool *pool, ga_block *block);

/* Release every wholly free segment back to the raw allocator. */
void ga_pool_free_all_blocks(ga_pool *pool);
size_t ga_pool_used_bytes(ga_pool *pool);   /* bytes in blocks handed out */
size_t ga_pool_total_bytes(ga_pool *pool);  /* bytes held from raw allocator */
size_t ga_pool_n_free_blocks(ga_pool *pool);
void ga_pool_set_limit(ga_pool *pool, size_t limit); /* 0 = no limit */
size_t ga_pool_get_limit(ga_pool *pool);
/* Bypass caching: every malloc is a raw allocation and every free a raw free
 * (GPUARRAY_MEM_DEBUG=1, so compute-sanitizer sees each buffer). */
void ga_pool_set_debug(ga_pool *pool, int on);

#endif
