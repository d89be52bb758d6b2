/* Writing zip archives (base/ga_zip.h): one pass over a seekable FILE.
 * Each member's local header is written first with its sizes unknown and
 * patched once the member is done (no data descriptors).  A member whose
 * size could pass 4 GiB gets a ZIP64 extra field in its local header (as
 * Python's zipfile decides, from the size known in advance); the central
 * directory uses ZIP64 fields for whatever does not fit 32 bits, and the
 * archive ZIP64 end records when the directory needs them. */
#include "base/ga_zip.h"
#include "base/ga_error.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

#define OBUF 65536
#define LIM32 0xffffffffu

static void wr16(unsigned char *p, unsigned v) { p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8); }
static void wr32(unsigned char *p, uint32_t v) { wr16(p, v & 0xffff), wr16(p + 2, v >> 16); }
static void wr64(unsigned char *p, uint64_t v) { wr32(p, (uint32_t)v), wr32(p + 4, (uint32_t)(v >> 32)); }

static int put(ga_zipw *w, const void *p, size_t n) {
  if (n && fwrite(p, 1, n, w->f) != n) return ga_err(GA_EINVAL, "%s: write error: %s", w->what, strerror(errno));
  return GA_OK;
}

void ga_zipw_init(ga_zipw *w, FILE *f, const char *what) {
  memset(w, 0, sizeof *w);
  w->f = f;
  w->what = what;
}

/* 1980-01-01 00:00, so that the same arrays give the same bytes */
#define DOS_DATE 0x21
#define DOS_TIME 0

int ga_zipw_begin(ga_zipw *w, const char *name, int deflate, uint64_t usize) {
  if (w->open) return ga_err(GA_EINTERNAL, "zip: a member is still open");
  size_t nl = strlen(name);
  if (nl > 0xffff) return ga_err(GA_EINVAL, "zip member name too long");
  if (w->n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 8;
    ga_zipw_entry *e = realloc(w->e, cap * sizeof *e);
    if (!e) return ga_err(GA_ENOMEM, "out of memory writing a zip archive");
    w->e = e;
    w->cap = cap;
  }
  off_t here = ftello(w->f);
  if (here < 0) return ga_err(GA_EINVAL, "%s: cannot tell the position: %s", w->what, strerror(errno));
  ga_zipw_entry *e = &w->e[w->n];
  memset(e, 0, sizeof *e);
  e->name = malloc(nl + 1);
  if (!e->name) return ga_err(GA_ENOMEM, "out of memory writing a zip archive");
  memcpy(e->name, name, nl + 1);
  w->n++;
  e->method = deflate ? 8 : 0;
  e->offset = (uint64_t)here;
  e->usize = usize;
  e->crc = (uint32_t)crc32(0, Z_NULL, 0);
  /* deflate may grow incompressible data a little */
  w->zip64_local = w->force_zip64 || usize + usize / 16 + 1024 >= LIM32;
  unsigned char h[30 + 20];
  memset(h, 0, sizeof h);
  wr32(h, 0x04034b50u);
  wr16(h + 4, w->zip64_local ? 45 : 20);
  wr16(h + 6, 0x0800);   /* UTF-8 names */
  wr16(h + 8, e->method);
  wr16(h + 10, DOS_TIME);
  wr16(h + 12, DOS_DATE);
  wr16(h + 26, (unsigned)nl);
  wr16(h + 28, w->zip64_local ? 20 : 0);
  int rc = put(w, h, 30);
  if (!rc) rc = put(w, name, nl);
  if (!rc && w->zip64_local) {
    unsigned char x[20] = {0};
    wr16(x, 1);
    wr16(x + 2, 16);
    rc = put(w, x, 20);
  }
  if (rc) return rc;
  if (deflate) {
    z_stream *zs = calloc(1, sizeof *zs);
    w->obuf = malloc(OBUF);
    if (!zs || !w->obuf || deflateInit2(zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      free(zs);
      return ga_err(GA_ENOMEM, "zlib: deflateInit2 failed");
    }
    w->zs = zs;
  }
  w->open = 1;
  return GA_OK;
}

static int pump(ga_zipw *w, int flush) {
  z_stream *zs = w->zs;
  ga_zipw_entry *e = &w->e[w->n - 1];
  int zr;
  do {
    zs->next_out = w->obuf;
    zs->avail_out = OBUF;
    zr = deflate(zs, flush);
    if (zr == Z_STREAM_ERROR) return ga_err(GA_EINTERNAL, "zlib: deflate failed");
    size_t made = OBUF - zs->avail_out;
    int rc = put(w, w->obuf, made);
    if (rc) return rc;
    e->csize += made;
  } while (zs->avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
  return GA_OK;
}

int ga_zipw_write(void *wv, const void *p, size_t n) {
  ga_zipw *w = wv;
  ga_zipw_entry *e = &w->e[w->n - 1];
  for (size_t off = 0; off < n;) {
    uInt k = n - off > (1u << 30) ? 1u << 30 : (uInt)(n - off);
    const unsigned char *q = (const unsigned char *)p + off;
    e->crc = (uint32_t)crc32(e->crc, q, k);
    if (w->zs) {
      z_stream *zs = w->zs;
      zs->next_in = (unsigned char *)q;
      zs->avail_in = k;
      int rc = pump(w, Z_NO_FLUSH);
      if (rc) return rc;
    } else {
      int rc = put(w, q, k);
      if (rc) return rc;
      e->csize += k;
    }
    off += k;
  }
  return GA_OK;
}

int ga_zipw_end(ga_zipw *w) {
  if (!w->open) return ga_err(GA_EINTERNAL, "zip: no member is open");
  ga_zipw_entry *e = &w->e[w->n - 1];
  int rc = GA_OK;
  if (w->zs) {
    rc = pump(w, Z_FINISH);
    deflateEnd(w->zs);
    free(w->zs);
    w->zs = NULL;
    free(w->obuf);
    w->obuf = NULL;
  }
  w->open = 0;
  if (rc) return rc;
  if (!w->zip64_local && (e->csize >= LIM32 || e->usize >= LIM32))
    return ga_err(GA_EINTERNAL, "zip: member '%s' outgrew its local header", e->name);
  off_t end = ftello(w->f);
  unsigned char h[12];
  wr32(h, e->crc);
  wr32(h + 4, w->zip64_local ? LIM32 : (uint32_t)e->csize);
  wr32(h + 8, w->zip64_local ? LIM32 : (uint32_t)e->usize);
  if (end < 0 || fseeko(w->f, (off_t)(e->offset + 14), SEEK_SET))
    return ga_err(GA_EINVAL, "%s: cannot seek: %s", w->what, strerror(errno));
  rc = put(w, h, 12);
  if (!rc && w->zip64_local) {
    unsigned char x[16];
    wr64(x, e->usize);
    wr64(x + 8, e->csize);
    if (fseeko(w->f, (off_t)(e->offset + 30 + strlen(e->name) + 4), SEEK_SET))
      return ga_err(GA_EINVAL, "%s: cannot seek: %s", w->what, strerror(errno));
    rc = put(w, x, 16);
  }
  if (!rc && fseeko(w->f, end, SEEK_SET)) return ga_err(GA_EINVAL, "%s: cannot seek: %s", w->what, strerror(errno));
  return rc;
}

int ga_zipw_finish(ga_zipw *w) {
  if (w->open) return ga_err(GA_EINTERNAL, "zip: a member is still open");
  off_t start = ftello(w->f);
  if (start < 0) return ga_err(GA_EINVAL, "%s: cannot tell the position: %s", w->what, strerror(errno));
  uint64_t cd_off = (uint64_t)start, cd_size = 0;
  for (size_t i = 0; i < w->n; i++) {
    ga_zipw_entry *e = &w->e[i];
    unsigned char h[46], x[28];
    size_t nl = strlen(e->name), xl = 4;
    memset(h, 0, sizeof h);
    int f = w->force_zip64;
    int big_u = f || e->usize >= LIM32, big_c = f || e->csize >= LIM32, big_o = f || e->offset >= LIM32;
    if (big_u) wr64(x + xl, e->usize), xl += 8;
    if (big_c) wr64(x + xl, e->csize), xl += 8;
    if (big_o) wr64(x + xl, e->offset), xl += 8;
    if (xl == 4) xl = 0;
    else wr16(x, 1), wr16(x + 2, (unsigned)(xl - 4));
    wr32(h, 0x02014b50u);
    wr16(h + 4, 0x0300 | 45);   /* made by: Unix, 4.5 */
    wr16(h + 6, xl ? 45 : 20);
    wr16(h + 8, 0x0800);
    wr16(h + 10, e->method);
    wr16(h + 12, DOS_TIME);
    wr16(h + 14, DOS_DATE);
    wr32(h + 16, e->crc);
    wr32(h + 20, big_c ? LIM32 : (uint32_t)e->csize);
    wr32(h + 24, big_u ? LIM32 : (uint32_t)e->usize);
    wr16(h + 28, (unsigned)nl);
    wr16(h + 30, (unsigned)xl);
    wr32(h + 38, 0644u << 16);   /* external attributes: a regular file, rw-r--r-- */
    wr32(h + 42, big_o ? LIM32 : (uint32_t)e->offset);
    int rc = put(w, h, 46);
    if (!rc) rc = put(w, e->name, nl);
    if (!rc) rc = put(w, x, xl);
    if (rc) return rc;
    cd_size += 46 + nl + xl;
  }
  uint64_t here = cd_off + cd_size;
  int z64 = w->force_zip64 || w->n >= 0xffff || cd_off >= LIM32 || cd_size >= LIM32;
  if (z64) {
    unsigned char r[56 + 20];
    memset(r, 0, sizeof r);
    wr32(r, 0x06064b50u);
    wr64(r + 4, 44);
    wr16(r + 12, 0x0300 | 45);
    wr16(r + 14, 45);
    wr64(r + 24, w->n);
    wr64(r + 32, w->n);
    wr64(r + 40, cd_size);
    wr64(r + 48, cd_off);
    wr32(r + 56, 0x07064b50u);
    wr64(r + 64, here);
    wr32(r + 72, 1);
    int rc = put(w, r, sizeof r);
    if (rc) return rc;
  }
  unsigned char eo[22];
  memset(eo, 0, sizeof eo);
  wr32(eo, 0x06054b50u);
  wr16(eo + 8, z64 ? 0xffff : (unsigned)w->n);
  wr16(eo + 10, z64 ? 0xffff : (unsigned)w->n);
  wr32(eo + 12, z64 ? LIM32 : (uint32_t)cd_size);
  wr32(eo + 16, z64 ? LIM32 : (uint32_t)cd_off);
  return put(w, eo, 22);
}

void ga_zipw_free(ga_zipw *w) {
  if (w->zs) {
    deflateEnd(w->zs);
    free(w->zs);
    w->zs = NULL;
  }
  free(w->obuf);
  w->obuf = NULL;
  for (size_t i = 0; i < w->n; i++) free(w->e[i].name);
  free(w->e);
  w->e = NULL;
  w->n = w->cap = 0;
}
