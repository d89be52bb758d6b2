/* The on-disk kernel cache: one file per compiled image, named by a 128-bit
 * hash of everything that determines it.  No CUDA, no Lua. */
#ifndef GA_DISKCACHE_H
#define GA_DISKCACHE_H
#include <stddef.h>
#include <stdint.h>

uint64_t ga_hash64(const void *data, size_t n, uint64_t h);
#define GA_HASH_SEED 0xcbf29ce484222325ULL

/* Directory in use ($GPUARRAY_CACHE_DIR, $XDG_CACHE_HOME/gpuarray/kernels,
 * ~/.cache/gpuarray/kernels; created 0700), or NULL when GPUARRAY_CACHE=0,
 * there is no home, or the directory was refused (not ours, or writable by
 * others: one warning on stderr). */
const char *ga_diskcache_dir(void);
/* Malloc'ed contents for `key` (32 lowercase hex digits), or NULL on a
 * miss.  A short, corrupt or foreign file, a symlink or anything but a
 * regular file is a miss. */
void *ga_diskcache_load(const char *key, size_t *size, uint32_t *flags);
/* Store atomically (private temp file + rename); failures are silent (a
 * cache).  The first store of a process removes stale temp files. */
void ga_diskcache_store(const char *key, const void *data, size_t size, uint32_t flags);

#endif
