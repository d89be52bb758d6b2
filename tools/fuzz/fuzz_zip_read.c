/* libFuzzer harness: the zip reader (base/ga_zip_read.c) on arbitrary
 * bytes taken as a whole file: open the directory, read every member (at
 * most 16, at most 1 MiB each) in uneven pieces and check its end.  Every
 * read must stay inside the input (ASan) and no size the input claims may
 * drive an allocation.  `make fuzz-files` runs it. */
#include "base/ga_zip.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct mem { const unsigned char *p; size_t n; } mem;

static int mem_pread(void *ctx, void *p, size_t n, uint64_t off) {
  mem *m = ctx;
  if (off > m->n || n > m->n - off) return 1;
  memcpy(p, m->p + off, n);
  return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  mem m = {data, size};
  ga_zip z;
  if (ga_zip_open(&z, mem_pread, &m, size)) return 0;
  static unsigned char buf[1 << 20];
  for (size_t i = 0; i < z.n && i < 16; i++) {
    ga_zip_member mb;
    if (ga_zip_member_open(&z, i, &mb) == 0 && z.e[i].usize <= sizeof buf) {
      size_t left = (size_t)z.e[i].usize, off = 0, step = 1;
      int rc = 0;
      while (left && !rc) {
        size_t k = step < left ? step : left;
        rc = ga_zip_member_read(&mb, buf + off, k);
        off += k, left -= k, step = step * 3 + 1;
      }
      if (!rc) ga_zip_member_finish(&mb);
    }
    ga_zip_member_free(&mb);
  }
  ga_zip_close(&z);
  ga_zip_close(&z);
  return 0;
}
