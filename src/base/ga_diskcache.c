/* On-disk cache of compiled kernels.  File layout: magic "GAK2", flags,
 * payload size, hash, payload; the hash covers the key (the file's name),
 * the header fields and the payload, so one flipped byte anywhere is a miss.
 *
 * The directory is private: created 0700, and refused (the cache off for
 * the process, one warning) when it is not ours or others may write in it,
 * since a planted image would run as our kernel.  Every file operation is
 * relative to a descriptor of the checked directory, so renaming a path
 * component afterwards changes nothing.  Reads never follow a symlink nor
 * block on a FIFO (O_NOFOLLOW|O_NONBLOCK, then regular files only); writes
 * go to a new temp file (O_EXCL|O_NOFOLLOW, 0600, random name) renamed into
 * place, so concurrent processes never see half a file.  Anything that
 * fails to verify is treated as absent. */
#define _GNU_SOURCE
#include "base/ga_diskcache.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAGIC "GAK2"
#define MAX_PAYLOAD ((uint64_t)1 << 30)
#define STALE_TMP_SECONDS 3600   /* a writer killed between create and rename */

uint64_t ga_hash64(const void *data, size_t n, uint64_t h) {
  /* FNV-1a with a final avalanche (splitmix64); every step is a bijection
   * of the state, so a change of one byte always changes the result */
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ULL; }
  h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27; h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

static char dir[4096];
static int dir_fd = -1;
static pthread_once_t dir_once = PTHREAD_ONCE_INIT;

/* mkdir -p with mode 0700 for what is created (existing parents are left
 * as they are).  False when the path does not fit. */
static int mkdirs(const char *path) {
  char p[sizeof dir];
  if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) return 0;
  for (char *c = p + 1; *c; c++) {
    if (*c != '/') continue;
    *c = 0;
    mkdir(p, 0700);
    *c = '/';
  }
  mkdir(p, 0700);
  return 1;
}

/* The directory's descriptor, or -1 (with one warning) when it is not ours
 * or is writable by group or others. */
static int open_checked(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat st;
  if (fd < 0) return -1;   /* cannot be created (read-only home...): silently no cache */
  const char *why = NULL;
  if (fstat(fd, &st) != 0) why = "cannot be checked";
  else if (st.st_uid != geteuid()) why = "is not owned by this user";
  else if (st.st_mode & (S_IWGRP | S_IWOTH)) why = "is writable by group or others";
  if (!why) return fd;
  close(fd);
  fprintf(stderr, "gpuarray: kernel disk cache disabled: %s %s (use a private directory, mode 0700, "
          "or set GPUARRAY_CACHE_DIR; GPUARRAY_CACHE=0 turns the cache off)\n", path, why);
  return -1;
}

static void find_dir(void) {
  const char *off = getenv("GPUARRAY_CACHE");
  if (off && strcmp(off, "0") == 0) return;
  const char *d = getenv("GPUARRAY_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  int n;
  if (d && *d) n = snprintf(dir, sizeof dir, "%s", d);
  else if (x && *x) n = snprintf(dir, sizeof dir, "%s/gpuarray/kernels", x);
  else if (h && *h) n = snprintf(dir, sizeof dir, "%s/.cache/gpuarray/kernels", h);
  else return;
  if (n < 0 || n >= (int)sizeof dir) return;   /* truncated: another directory, so none */
  if (!mkdirs(dir)) return;
  dir_fd = open_checked(dir);
}

const char *ga_diskcache_dir(void) {
  pthread_once(&dir_once, find_dir);
  return dir_fd >= 0 ? dir : NULL;
}

typedef struct { char magic[4]; uint32_t flags; uint64_t size; uint64_t hash; } header;

/* The check value of a record stored under key. */
static uint64_t record_hash(const char *key, const header *h, const void *data) {
  uint64_t x = ga_hash64(key, strlen(key) + 1, GA_HASH_SEED);
  x = ga_hash64(h->magic, sizeof h->magic, x);
  x = ga_hash64(&h->flags, sizeof h->flags, x);
  x = ga_hash64(&h->size, sizeof h->size, x);
  return ga_hash64(data, (size_t)h->size, x);
}

/* A key is 32 hex digits: it names a file in the directory, nothing else. */
static int valid_key(const char *key) {
  size_t n = 0;
  for (; key[n]; n++)
    if (!((key[n] >= '0' && key[n] <= '9') || (key[n] >= 'a' && key[n] <= 'f'))) return 0;
  return n == 32;
}

static int read_all(int fd, void *buf, size_t n) {
  for (size_t k = 0; k < n;) {
    ssize_t r = read(fd, (char *)buf + k, n - k);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 0;
    k += (size_t)r;
  }
  return 1;
}

static int write_all(int fd, const void *buf, size_t n) {
  for (size_t k = 0; k < n;) {
    ssize_t r = write(fd, (const char *)buf + k, n - k);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 0;
    k += (size_t)r;
  }
  return 1;
}

void *ga_diskcache_load(const char *key, size_t *size, uint32_t *flags) {
  if (!ga_diskcache_dir() || !valid_key(key)) return NULL;
  char name[64];
  snprintf(name, sizeof name, "%s.bin", key);
  int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  header h;
  void *buf = NULL;
  /* a regular file of ours (never a FIFO or device: reading one could
   * block or never end), whose length is the header's */
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_size >= (off_t)sizeof h &&
      read_all(fd, &h, sizeof h) && memcmp(h.magic, MAGIC, 4) == 0 && h.size < MAX_PAYLOAD &&
      (uint64_t)st.st_size == sizeof h + h.size && (buf = malloc(h.size ? (size_t)h.size : 1)) &&
      (!read_all(fd, buf, (size_t)h.size) || record_hash(key, &h, buf) != h.hash)) {
    free(buf);
    buf = NULL;
  }
  close(fd);
  if (buf) { *size = (size_t)h.size; *flags = h.flags; }
  return buf;
}

/* n random bytes from the kernel (getrandom, else /dev/urandom): temp
 * names others cannot guess. */
static int random_bytes(unsigned char *p, size_t n) {
  if (getrandom(p, n, GRND_NONBLOCK) == (ssize_t)n) return 1;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  int ok = read_all(fd, p, n);
  close(fd);
  return ok;
}

/* Remove our temp files older than STALE_TMP_SECONDS (writers killed
 * before their rename); once per process, at its first store. */
static void clean_stale(void) {
  int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) { if (fd >= 0) close(fd); return; }
  time_t old = time(NULL) - STALE_TMP_SECONDS;
  for (struct dirent *e; (e = readdir(d));) {
    struct stat st;
    if (!strstr(e->d_name, ".tmp.") || fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) && st.st_uid == geteuid() && st.st_mtime < old)
      unlinkat(dir_fd, e->d_name, 0);
  }
  closedir(d);
}

static pthread_once_t clean_once = PTHREAD_ONCE_INIT;

void ga_diskcache_store(const char *key, const void *data, size_t size, uint32_t flags) {
  if (!ga_diskcache_dir() || !valid_key(key) || size >= MAX_PAYLOAD) return;
  pthread_once(&clean_once, clean_stale);
  unsigned char rnd[12];
  if (!random_bytes(rnd, sizeof rnd)) return;
  char name[64], tmp[128];
  snprintf(name, sizeof name, "%s.bin", key);
  int k = snprintf(tmp, sizeof tmp, "%s.tmp.", name);
  for (size_t i = 0; i < sizeof rnd; i++) k += snprintf(tmp + k, sizeof tmp - (size_t)k, "%02x", rnd[i]);
  int fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return;
  header h = {{0}, flags, size, 0};
  memcpy(h.magic, MAGIC, 4);
  h.hash = record_hash(key, &h, data);
  int ok = write_all(fd, &h, sizeof h) && write_all(fd, data, size);
  ok = (close(fd) == 0) && ok;
  if (!ok || renameat(dir_fd, tmp, dir_fd, name) != 0) unlinkat(dir_fd, tmp, 0);
}
