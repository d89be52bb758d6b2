/* Unit test of the kernel disk cache (src/ga_diskcache.c) in a private temp
 * directory: round trip and modes, every single-byte flip and every
 * truncation is a miss, a FIFO or symlink at a key path is a miss (an alarm
 * fails a hang), a symlink planted at the temp name is not followed (the
 * "random" bytes are made predictable here by defining getrandom), bad keys
 * touch nothing, stale temp files are removed. */
#define _GNU_SOURCE
#include "base/ga_diskcache.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* The cache's source of temp names: predictable while fixed_random is set. */
static int fixed_random;
ssize_t getrandom(void *buf, size_t n, unsigned int flags) {
  if (fixed_random) { memset(buf, 0, n); return (ssize_t)n; }
  return syscall(SYS_getrandom, buf, n, flags);
}

static char dir[256];
static const char *KEY = "0123456789abcdef0123456789abcdef";

static void path_of(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

static size_t file_bytes(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(buf, 1, cap, f);
  fclose(f);
  return n;
}

static void put_bytes(const char *path, const unsigned char *buf, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) { perror(path); exit(2); }
  fwrite(buf, 1, n, f);
  fclose(f);
}

/* True when key loads as exactly payload/flags. */
static int loads(const char *key, const void *payload, size_t n, uint32_t flags) {
  size_t size = 0;
  uint32_t fl = 0;
  void *p = ga_diskcache_load(key, &size, &fl);
  int ok = p && size == n && fl == flags && memcmp(p, payload, n) == 0;
  free(p);
  return ok;
}

static int misses(const char *key) {
  size_t size;
  uint32_t fl;
  void *p = ga_diskcache_load(key, &size, &fl);
  free(p);
  return p == NULL;
}

static void test_stale(void) {
  /* first: the cleanup runs at the process's first store */
  char old[512], fresh[512], other[512];
  path_of(old, sizeof old, "ffffffffffffffffffffffffffffffff.bin.tmp.0011");
  path_of(fresh, sizeof fresh, "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee.bin.tmp.0022");
  path_of(other, sizeof other, "notes.txt");
  put_bytes(old, (const unsigned char *)"x", 1);
  put_bytes(fresh, (const unsigned char *)"x", 1);
  put_bytes(other, (const unsigned char *)"x", 1);
  struct timespec t[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
  utimensat(AT_FDCWD, old, t, 0);
  utimensat(AT_FDCWD, other, t, 0);
  ga_diskcache_store("dddddddddddddddddddddddddddddddd", "abc", 3, 0);
  CHECK(access(old, F_OK) != 0, "a temp file two hours old is removed");
  CHECK(access(fresh, F_OK) == 0, "a fresh temp file is kept (a writer at work)");
  CHECK(access(other, F_OK) == 0, "other files are kept");
  unlink(fresh);
  unlink(other);
}

static void test_roundtrip(void) {
  const char payload[] = "a CUBIN, or so";
  ga_diskcache_store(KEY, payload, sizeof payload, 1);
  CHECK(loads(KEY, payload, sizeof payload, 1), "round trip");
  char path[512];
  path_of(path, sizeof path, "0123456789abcdef0123456789abcdef.bin");
  struct stat st;
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "file mode %o", (unsigned)(st.st_mode & 0777));
  CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700, "dir mode %o", (unsigned)(st.st_mode & 0777));
  ga_diskcache_store(KEY, "", 0, 0);
  CHECK(loads(KEY, "", 0, 0), "an empty payload");
}

static void test_flips(void) {
  unsigned char payload[40], rec[256], bad[256];
  for (size_t i = 0; i < sizeof payload; i++) payload[i] = (unsigned char)(i * 7);
  ga_diskcache_store(KEY, payload, sizeof payload, 1);
  char path[512];
  path_of(path, sizeof path, "0123456789abcdef0123456789abcdef.bin");
  size_t n = file_bytes(path, rec, sizeof rec);
  CHECK(n == 24 + sizeof payload, "record of %zu bytes", n);
  int loaded = 0;
  for (size_t i = 0; i < n; i++)
    for (int bit = 0; bit < 8; bit++) {
      memcpy(bad, rec, n);
      bad[i] ^= (unsigned char)(1 << bit);
      put_bytes(path, bad, n);
      loaded += !misses(KEY);
    }
  CHECK(loaded == 0, "%d single-bit flips of %zu loaded", loaded, n * 8);
  loaded = 0;
  for (size_t cut = 0; cut < n; cut++) {
    put_bytes(path, rec, cut);
    loaded += !misses(KEY);
  }
  CHECK(loaded == 0, "%d truncations loaded", loaded);
  memcpy(bad, rec, n);
  bad[n] = 0;
  put_bytes(path, bad, n + 1);
  CHECK(misses(KEY), "a trailing byte is a miss");
  /* the same bytes under another key: the key is in the hash */
  char other[512];
  path_of(other, sizeof other, "ffffffffffffffffffffffffffffffff.bin");
  put_bytes(other, rec, n);
  CHECK(misses("ffffffffffffffffffffffffffffffff"), "a record renamed to another key is a miss");
  put_bytes(path, rec, n);
  CHECK(loads(KEY, payload, sizeof payload, 1), "the intact record loads");
}

static void test_special_files(void) {
  char path[512], victim[512];
  path_of(path, sizeof path, "0123456789abcdef0123456789abcdef.bin");
  unsigned char rec[256];
  size_t n = file_bytes(path, rec, sizeof rec);
  snprintf(victim, sizeof victim, "%s.victim", dir);
  put_bytes(victim, rec, n);   /* a valid record outside the directory */
  unlink(path);
  CHECK(symlink(victim, path) == 0, "symlink");
  CHECK(misses(KEY), "a symlink at a key path is not followed");
  unlink(path);
  CHECK(mkfifo(path, 0600) == 0, "mkfifo");
  alarm(10);   /* a hang in open fails the test */
  CHECK(misses(KEY), "a FIFO at a key path is a miss");
  alarm(0);
  ga_diskcache_store(KEY, "new", 3, 0);
  CHECK(loads(KEY, "new", 3, 0), "a store replaces the FIFO");
  unlink(path);
  CHECK(mkdir(path, 0700) == 0, "mkdir");
  CHECK(misses(KEY), "a directory at a key path is a miss");
  rmdir(path);

  /* a symlink planted at the (here predictable) temp name */
  fixed_random = 1;
  char tmp[512];
  path_of(tmp, sizeof tmp, "0123456789abcdef0123456789abcdef.bin.tmp.000000000000000000000000");
  CHECK(symlink(victim, tmp) == 0, "symlink at the temp name");
  ga_diskcache_store(KEY, "evil", 4, 0);
  unsigned char after[256];
  CHECK(file_bytes(victim, after, sizeof after) == n && memcmp(after, rec, n) == 0, "the link's target untouched");
  struct stat st;
  CHECK(lstat(tmp, &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
  CHECK(access(path, F_OK) != 0, "nothing stored");
  unlink(tmp);
  ga_diskcache_store(KEY, "good", 4, 0);
  CHECK(loads(KEY, "good", 4, 0), "stored once the name is free");
  fixed_random = 0;
  unlink(victim);
}

static void test_bad_keys(void) {
  const char *keys[] = {"", "../../../../tmp/x", "0123456789ABCDEF0123456789ABCDEF",
                        "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0", NULL};
  for (int i = 0; keys[i]; i++) {
    ga_diskcache_store(keys[i], "x", 1, 0);
    CHECK(misses(keys[i]), "key '%s'", keys[i]);
  }
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);   /* an alarm must not lose the report */
  char tmpl[] = "/tmp/ga_diskcache_XXXXXX";
  if (!mkdtemp(tmpl)) { perror("mkdtemp"); return 2; }
  snprintf(dir, sizeof dir, "%s/kernels", tmpl);   /* created by the cache, 0700 */
  setenv("GPUARRAY_CACHE_DIR", dir, 1);
  unsetenv("GPUARRAY_CACHE");
  CHECK(ga_diskcache_dir() && strcmp(ga_diskcache_dir(), dir) == 0, "cache dir %s", dir);
  test_stale();
  test_roundtrip();
  test_flips();
  test_special_files();
  test_bad_keys();
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
  if (system(cmd) != 0) printf("could not remove %s\n", tmpl);
  printf("test_diskcache: %d passed, %d failed\n", n_pass, n_fail);
  return n_fail != 0;
}
