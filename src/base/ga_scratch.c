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

static ga_scratch_hook_fn scratch_hook;

void ga_scratch_set_hook(ga_scratch_hook_fn fn) { __atomic_store_n(&scratch_hook, fn, __ATOMIC_RELEASE); }

int ga_scratch_get(ga_pool *pool, size_t nbytes, void *stream, ga_scratch *s) {
  s->pool = pool;
  s->block = NULL;
  s->ptr = NULL;
  s->owner = NULL;
  s->release = NULL;
  ga_scratch_hook_fn h = __atomic_load_n(&scratch_hook, __ATOMIC_ACQUIRE);
  int rc = h ? h(pool, nbytes, stream, s) : GA_SCRATCH_DECLINED;
  if (rc != GA_SCRATCH_DECLINED) return rc;
  rc = ga_pool_take(pool, nbytes, stream, &s->block, &s->ptr);
  if (rc) s->block = NULL, s->ptr = NULL;
  return rc;
}

void ga_scratch_put(ga_scratch *s) {
  if (s->owner) {
    void *o = s->owner;
    s->owner = NULL;
    s->ptr = NULL;
    s->release(o);
    return;
  }
  if (!s->block) return;
  ga_pool_free(s->pool, s->block);
  s->block = NULL;
  s->ptr = NULL;
}
