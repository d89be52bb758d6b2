/* Pool memory with the library's error message, and backend scratch. */
#include "base/ga_scratch.h"
#include "base/ga_error.h"

int ga_pool_oom(ga_pool *pool, size_t nbytes, int limit_hit) {
  if (!pool) return ga_err(GA_ENOMEM, "cannot create memory pool");
  return ga_err(GA_ENOMEM, "out of memory allocating %zu bytes (pool used %zu, total %zu%s)", nbytes,
                ga_pool_used_bytes(pool), ga_pool_total_bytes(pool), limit_hit ? ", limit reached" : "");
}

int ga_pool_take(ga_pool *pool, size_t nbytes, void *stream, ga_block **block, void **ptr) {
  int limit_hit = 0;
  *block = pool ? ga_pool_malloc(pool, nbytes, stream, ptr, &limit_hit) : NULL;
  return *block ? GA_OK : ga_pool_oom(pool, nbytes, limit_hit);
}

int ga_scratch_get(ga_pool *pool, size_t nbytes, void *stream, ga_scratch *s) {
  s->pool = pool;
  int rc = ga_pool_take(pool, nbytes, stream, &s->block, &s->ptr);
  if (rc) s->block = NULL, s->ptr = NULL;
  return rc;
}

void ga_scratch_put(ga_scratch *s) {
  if (!s->block) return;
  ga_pool_free(s->pool, s->block);
  s->block = NULL;
  s->ptr = NULL;
}
