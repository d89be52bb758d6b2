/* On-disk cache of compiled kernels.  File layout: magic "GAK1", flags,
 * payload size, payload hash, payload.  Written to a temp file and renamed so
 * concurrent processes never see half a file; anything that fails to verify
 * is treated as absent. */
#include "base/ga_diskcache.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t ga_hash64(const void *data, size_t n, uint64_t h) {
  /* FNV-1a with a final avalanche (splitmix64) */
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ULL; }
  h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27; h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

static char dir[4096];
static int have_dir;
static pthread_once_t dir_once = PTHREAD_ONCE_INIT;

static void mkdirs(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    mkdir(path, 0755);
    *p = '/';
  }
  mkdir(path, 0755);
}

static void find_dir(void) {
  const char *off = getenv("GPUARRAY_CACHE");
  if (off && strcmp(off, "0") == 0) return;
  const char *d = getenv("GPUARRAY_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  if (d && *d) snprintf(dir, sizeof dir, "%s", d);
  else if (x && *x) snprintf(dir, sizeof dir, "%s/gpuarray/kernels", x);
  else if (h && *h) snprintf(dir, sizeof dir, "%s/.cache/gpuarray/kernels", h);
  else return;
  mkdirs(dir);
  have_dir = 1;
}

const char *ga_diskcache_dir(void) {
  pthread_once(&dir_once, find_dir);
  return have_dir ? dir : NULL;
}

typedef struct { char magic[4]; uint32_t flags; uint64_t size; uint64_t hash; } header;

void *ga_diskcache_load(const char *key, size_t *size, uint32_t *flags) {
  const char *d = ga_diskcache_dir();
  if (!d) return NULL;
  char path[4200];
  snprintf(path, sizeof path, "%s/%s.bin", d, key);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  header h;
  void *buf = NULL;
  if (fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, "GAK1", 4) == 0 && h.size < (1u << 30)) {
    buf = malloc(h.size ? h.size : 1);
    if (buf && (fread(buf, 1, h.size, f) != h.size || fgetc(f) != EOF ||
                ga_hash64(buf, h.size, GA_HASH_SEED) != h.hash)) {
      free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  if (buf) { *size = h.size; *flags = h.flags; }
  return buf;
}

void ga_diskcache_store(const char *key, const void *data, size_t size, uint32_t flags) {
  const char *d = ga_diskcache_dir();
  if (!d) return;
  char path[4200], tmp[4300];
  snprintf(path, sizeof path, "%s/%s.bin", d, key);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%lx", path, (long)getpid(), (unsigned long)(uintptr_t)&tmp);
  FILE *f = fopen(tmp, "wb");
  if (!f) return;
  header h = {{'G', 'A', 'K', '1'}, flags, size, ga_hash64(data, size, GA_HASH_SEED)};
  int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(data, 1, size, f) == size;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) unlink(tmp);
}
