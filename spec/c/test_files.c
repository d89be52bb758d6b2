/* Unit test of the file formats' C pieces (issue 15) under ASan/UBSan:
 * the .npy header (base/ga_npy.c: every dtype and order formats to a
 * header that parses back, hostile headers fail cleanly, the GA_NPY_MORE
 * protocol) and the zip writer and reader (base/ga_zip_*.c: stored and
 * deflate members, with and without forced ZIP64 records, read back by our
 * reader and, where python3 is installed, by Python's zipfile). */
#include "base/ga_npy.h"
#include "base/ga_zip.h"
#include "base/ga_error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_npy(void) {
  for (int dt = 0; dt < GA_NDTYPES; dt++) {
    for (int fortran = 0; fortran < 2; fortran++) {
      int64_t shape[3] = {2, 0, 7};
      for (int nd = 0; nd <= 3; nd++) {
        char out[GA_NPY_HEADER_CAP];
        size_t len;
        CHECK(ga_npy_format(dt, fortran, nd, shape, out, sizeof out, &len) == GA_OK, "format");
        CHECK(len % 64 == 0 && out[len - 1] == '\n', "padded to 64 (%zu)", len);
        ga_npy_header h;
        size_t need = 0;
        /* every prefix asks for more or fails on the magic, never reads past */
        for (size_t k = 0; k < len; k++) {
          unsigned char *cut = malloc(k ? k : 1);
          memcpy(cut, out, k);
          int rc = ga_npy_parse(cut, k, GA_NPY_MAX_HEADER, &h, &need);
          CHECK(rc == GA_NPY_MORE && need > k && need <= len, "prefix %zu: rc %d need %zu", k, rc, need);
          free(cut);
        }
        CHECK(ga_npy_parse((unsigned char *)out, len, GA_NPY_MAX_HEADER, &h, &need) == GA_OK, "parse: %s",
              ga_errmsg());
        CHECK(h.dtype == dt && h.fortran == fortran && h.ndim == nd && h.data_offset == len && !h.swap,
              "fields of dtype %d nd %d", dt, nd);
      }
    }
  }
  static const char *const bad[] = {
    "{'descr': '>f8', 'fortran_order': False, 'shape': (3,), 'extra': 0}",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (3,)",
    "{'descr': '<f8', 'fortran_order': None, 'shape': (3,)}",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (3,,)}",
    "{'descr': \"<f8', 'fortran_order': False, 'shape': ()}",
    "{'descr': '|O', 'fortran_order': False, 'shape': ()}",
    "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': ()}",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (9223372036854775807, 2)}",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (9223372036854775808,)}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    unsigned char buf[256];
    size_t n = strlen(bad[i]);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)n;
    buf[9] = 0;
    memcpy(buf + 10, bad[i], n);
    ga_npy_header h;
    size_t need;
    CHECK(ga_npy_parse(buf, 10 + n, GA_NPY_MAX_HEADER, &h, &need) == GA_EINVAL, "bad header %zu accepted", i);
  }
  /* big-endian descr: swap set, swapping twice is the identity */
  const char *be = "{'descr': '>c16', 'fortran_order': False, 'shape': (1,), }";
  unsigned char buf[128];
  size_t n = strlen(be);
  memcpy(buf, "\x93NUMPY\x03\x00", 8);
  buf[8] = (unsigned char)n, buf[9] = buf[10] = buf[11] = 0;
  memcpy(buf + 12, be, n);
  ga_npy_header h;
  size_t need;
  CHECK(ga_npy_parse(buf, 12 + n, GA_NPY_MAX_HEADER, &h, &need) == GA_OK && h.swap && h.dtype == GA_COMPLEX128,
        "version 3.0 big-endian complex128: %s", ga_errmsg());
  double z[2] = {1.5, -2.25}, z0[2];
  memcpy(z0, z, sizeof z);
  ga_npy_swap(z, 1, GA_COMPLEX128);
  CHECK(memcmp(z, z0, sizeof z) != 0, "swapped");
  ga_npy_swap(z, 1, GA_COMPLEX128);
  CHECK(memcmp(z, z0, sizeof z) == 0, "swapped back");
}

static int file_pread(void *ctx, void *p, size_t n, uint64_t off) {
  FILE *f = ctx;
  if (fseek(f, (long)off, SEEK_SET) || fread(p, 1, n, f) != n) return ga_err(GA_EINVAL, "short read");
  return GA_OK;
}

static void test_zip(const char *dir, int deflate, int force64) {
  char path[512];
  snprintf(path, sizeof path, "%s/test_files_%d%d.zip", dir, deflate, force64);
  FILE *f = fopen(path, "w+b");
  CHECK(f != NULL, "open %s", path);
  if (!f) return;
  ga_zipw w;
  ga_zipw_init(&w, f, path);
  w.force_zip64 = force64;
  enum { N = 3, SZ = 300000 };
  unsigned char *data = malloc(SZ);
  for (int i = 0; i < SZ; i++) data[i] = (unsigned char)((i * 7) ^ (i >> 9));
  for (int m = 0; m < N; m++) {
    char name[32];
    snprintf(name, sizeof name, "member%d.bin", m);
    size_t sz = (size_t)SZ >> m;
    CHECK(ga_zipw_begin(&w, name, deflate, sz) == GA_OK, "begin %s", ga_errmsg());
    for (size_t off = 0; off < sz; off += 4099) {   /* uneven pieces */
      size_t k = sz - off < 4099 ? sz - off : 4099;
      CHECK(ga_zipw_write(&w, data + off, k) == GA_OK, "write");
    }
    CHECK(ga_zipw_end(&w) == GA_OK, "end %s", ga_errmsg());
  }
  CHECK(ga_zipw_finish(&w) == GA_OK, "finish %s", ga_errmsg());
  ga_zipw_free(&w);
  ga_zipw_free(&w);
  fflush(f);
  long size = ftell(f);
  ga_zip z;
  CHECK(ga_zip_open(&z, file_pread, f, (uint64_t)size) == GA_OK, "open zip: %s", ga_errmsg());
  CHECK(z.n == N, "%zu members", z.n);
  unsigned char *back = malloc(SZ);
  for (size_t m = 0; m < z.n; m++) {
    size_t sz = (size_t)SZ >> m;
    ga_zip_member mb;
    CHECK(z.e[m].usize == sz && z.e[m].method == (deflate ? 8 : 0), "entry %zu", m);
    CHECK(ga_zip_member_open(&z, m, &mb) == GA_OK, "member open: %s", ga_errmsg());
    CHECK(ga_zip_member_read(&mb, back, sz) == GA_OK, "member read: %s", ga_errmsg());
    CHECK(memcmp(back, data, sz) == 0, "member %zu data", m);
    CHECK(ga_zip_member_finish(&mb) == GA_OK, "finish: %s", ga_errmsg());
    CHECK(ga_zip_member_read(&mb, back, 1) != GA_OK, "reading past the end fails");
    ga_zip_member_free(&mb);
    ga_zip_member_free(&mb);
  }
  CHECK(ga_zip_find(&z, "member1.bin") == 1 && ga_zip_find(&z, "nope") == -1, "find");
  ga_zip_close(&z);
  ga_zip_close(&z);
  fclose(f);
  free(back);
  free(data);
  if (system("python3 -c 'import zipfile' >/dev/null 2>&1") == 0) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "python3 -c \"import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; "
             "assert [i.file_size for i in z.infolist()] == [300000, 150000, 75000]\" %s",
             path);
    CHECK(system(cmd) == 0, "python's zipfile reads %s", path);
  }
  remove(path);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  test_npy();
  for (int d = 0; d < 2; d++)
    for (int z = 0; z < 2; z++) test_zip(dir, d, z);
  printf("test_files: %d passed, %d failed\n", n_pass, n_fail);
  return n_fail != 0;
}
