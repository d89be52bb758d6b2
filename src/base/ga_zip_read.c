/* Reading zip archives as hostile input (base/ga_zip.h). */
#include "base/ga_zip.h"
#include "base/ga_error.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_EOCD 0x06054b50u
#define SIG_EOCD64 0x06064b50u
#define SIG_LOC64 0x07064b50u

static int bad(const char *what) { return ga_err(GA_EINVAL, "not a valid zip archive: %s", what); }

/* a + b <= limit, without overflow */
static int fits(uint64_t a, uint64_t b, uint64_t limit) { return a <= limit && b <= limit - a; }

void ga_zip_close(ga_zip *z) {
  if (!z->e) return;
  for (size_t i = 0; i < z->n; i++) free(z->e[i].name);
  free(z->e);
  z->e = NULL;
  z->n = 0;
}

static int parse_central(ga_zip *z, const unsigned char *cd, uint64_t cd_size, uint64_t count) {
  if (count > cd_size / 46) return bad("the directory holds fewer entries than it claims");
  z->e = calloc(count ? (size_t)count : 1, sizeof *z->e);
  if (!z->e) return ga_err(GA_ENOMEM, "out of memory reading a zip directory");
  uint64_t pos = 0;
  for (uint64_t i = 0; i < count; i++) {
    if (!fits(pos, 46, cd_size) || rd32(cd + pos) != SIG_CENTRAL) return bad("bad central directory entry");
    const unsigned char *h = cd + pos;
    uint16_t nl = rd16(h + 28), xl = rd16(h + 30), cl = rd16(h + 32);
    if (!fits(pos, 46 + (uint64_t)nl + xl + cl, cd_size)) return bad("central directory entry past its end");
    if (rd16(h + 34) != 0 && rd16(h + 34) != 0xffff) return bad("multi-disk archives are not supported");
    ga_zip_entry *e = &z->e[z->n];
    e->flags = rd16(h + 8);
    e->method = rd16(h + 10);
    e->crc = rd32(h + 16);
    e->csize = rd32(h + 20);
    e->usize = rd32(h + 24);
    e->local_offset = rd32(h + 42);
    const unsigned char *name = h + 46, *x = name + nl, *xend = x + xl;
    if (memchr(name, 0, nl)) return bad("a member name holds a NUL byte");
    e->name = malloc((size_t)nl + 1);
    if (!e->name) return ga_err(GA_ENOMEM, "out of memory reading a zip directory");
    memcpy(e->name, name, nl);
    e->name[nl] = 0;
    z->n++;
    while (xend - x >= 4) {   /* the ZIP64 extra field: the saturated sizes, in order */
      uint16_t id = rd16(x), sz = rd16(x + 2);
      const unsigned char *d = x + 4;
      if (sz > xend - d) return bad("extra field past its entry");
      if (id == 1) {
        const unsigned char *de = d + sz;
        uint64_t *f[3] = {&e->usize, &e->csize, &e->local_offset};
        for (int k = 0; k < 3; k++) {
          if (*f[k] != 0xffffffffu) continue;
          if (de - d < 8) return bad("short ZIP64 extra field");
          *f[k] = rd64(d);
          d += 8;
        }
      }
      x += 4 + sz;
    }
    pos += 46 + (uint64_t)nl + xl + cl;
  }
  return GA_OK;
}

int ga_zip_open(ga_zip *z, ga_pread_fn pread, void *ctx, uint64_t file_size) {
  memset(z, 0, sizeof *z);
  z->pread = pread;
  z->ctx = ctx;
  z->file_size = file_size;
  if (file_size < 22) return bad("too short for its end record");
  size_t tail = file_size < 22 + 65535 ? (size_t)file_size : 22 + 65535;
  unsigned char *t = malloc(tail);
  if (!t) return ga_err(GA_ENOMEM, "out of memory reading a zip archive");
  int rc = pread(ctx, t, tail, file_size - tail);
  if (rc) {
    free(t);
    return rc;
  }
  long at = -1;
  for (long i = (long)tail - 22; i >= 0; i--) {
    if (rd32(t + i) == SIG_EOCD && (size_t)i + 22 + rd16(t + i + 20) <= tail) {
      at = i;
      break;
    }
  }
  if (at < 0) {
    free(t);
    return bad("no end of central directory record");
  }
  const unsigned char *eo = t + at;
  uint64_t eocd_pos = file_size - tail + (uint64_t)at;
  uint64_t count = rd16(eo + 10), cd_size = rd32(eo + 12), cd_off = rd32(eo + 16);
  int multi = rd16(eo + 4) != 0 || rd16(eo + 6) != 0;
  uint64_t limit = eocd_pos;   /* the directory ends before the end records */
  if (eocd_pos >= 20) {
    unsigned char loc[20];
    if ((rc = pread(ctx, loc, 20, eocd_pos - 20))) {
      free(t);
      return rc;
    }
    if (rd32(loc) == SIG_LOC64) {
      uint64_t e64 = rd64(loc + 8);
      unsigned char r[56];
      if (!fits(e64, 56, eocd_pos - 20)) {
        free(t);
        return bad("ZIP64 end record outside the file");
      }
      if ((rc = pread(ctx, r, 56, e64))) {
        free(t);
        return rc;
      }
      if (rd32(r) != SIG_EOCD64) {
        free(t);
        return bad("bad ZIP64 end record");
      }
      multi = rd32(r + 16) != 0 || rd32(r + 20) != 0;
      count = rd64(r + 32);
      cd_size = rd64(r + 40);
      cd_off = rd64(r + 48);
      limit = e64;
    }
  }
  free(t);
  if (multi) return bad("multi-disk archives are not supported");
  if (!fits(cd_off, cd_size, limit)) return bad("the central directory lies outside the file");
  unsigned char *cd = malloc(cd_size ? (size_t)cd_size : 1);   /* bounded by the file's size */
  if (!cd) return ga_err(GA_ENOMEM, "out of memory reading a zip directory of %llu bytes",
                         (unsigned long long)cd_size);
  rc = cd_size ? pread(ctx, cd, (size_t)cd_size, cd_off) : GA_OK;
  if (!rc) rc = parse_central(z, cd, cd_size, count);
  free(cd);
  if (rc) ga_zip_close(z);
  return rc;
}

long ga_zip_find(const ga_zip *z, const char *name) {
  for (size_t i = 0; i < z->n; i++)
    if (!strcmp(z->e[i].name, name)) return (long)i;
  return -1;
}

#define INBUF 65536

int ga_zip_member_open(const ga_zip *z, size_t i, ga_zip_member *m) {
  memset(m, 0, sizeof *m);
  const ga_zip_entry *e = &z->e[i];
  m->z = z;
  m->e = e;
  if (e->flags & 1) return ga_err(GA_EINVAL, "zip member '%s' is encrypted (not supported)", e->name);
  if (e->method != 0 && e->method != 8)
    return ga_err(GA_EINVAL, "zip member '%s' uses compression method %u (only stored and deflate are read)", e->name,
                  e->method);
  unsigned char h[30];
  if (!fits(e->local_offset, 30, z->file_size)) return bad("a local header lies outside the file");
  int rc = z->pread(z->ctx, h, 30, e->local_offset);
  if (rc) return rc;
  if (rd32(h) != SIG_LOCAL) return bad("bad local header");
  m->data_offset = e->local_offset + 30 + rd16(h + 26) + rd16(h + 28);
  if (!fits(m->data_offset, e->csize, z->file_size))
    return ga_err(GA_EINVAL, "zip member '%s' claims %llu bytes of data past the end of the file", e->name,
                  (unsigned long long)e->csize);
  if (e->method == 0 && e->csize != e->usize)
    return ga_err(GA_EINVAL, "zip member '%s' is stored but its sizes differ (%llu, %llu)", e->name,
                  (unsigned long long)e->csize, (unsigned long long)e->usize);
  if (e->method == 8) {
    if (e->csize < UINT64_MAX / GA_ZIP_MAX_RATIO && e->usize > e->csize * GA_ZIP_MAX_RATIO)
      return ga_err(GA_EINVAL, "zip member '%s' claims %llu bytes from %llu compressed ones, more than deflate can "
                    "produce (a zip bomb or a lie)", e->name, (unsigned long long)e->usize,
                    (unsigned long long)e->csize);
    z_stream *zs = calloc(1, sizeof *zs);
    m->inbuf = malloc(INBUF);
    if (!zs || !m->inbuf) {
      free(zs);
      return ga_err(GA_ENOMEM, "out of memory inflating a zip member");
    }
    if (inflateInit2(zs, -15) != Z_OK) {
      free(zs);
      return ga_err(GA_ENOMEM, "zlib: inflateInit2 failed");
    }
    m->zs = zs;
    m->inflating = 1;
  }
  m->crc = (uint32_t)crc32(0, Z_NULL, 0);
  return GA_OK;
}

/* Inflate into p[0..n) (n may be 0 at the end: then it only checks the
 * stream ends); sets *got to the bytes produced. */
static int inflate_some(ga_zip_member *m, unsigned char *p, size_t n, size_t *got) {
  z_stream *zs = m->zs;
  size_t done = 0;
  while (done < n || (n == 0 && !m->ended)) {
    if (zs->avail_in == 0 && m->in_used < m->e->csize) {
      uint64_t left = m->e->csize - m->in_used;
      uInt k = left < INBUF ? (uInt)left : INBUF;
      int rc = m->z->pread(m->z->ctx, m->inbuf, k, m->data_offset + m->in_used);
      if (rc) return rc;
      m->in_used += k;
      zs->next_in = m->inbuf;
      zs->avail_in = k;
    }
    unsigned char one;
    size_t want = n ? n - done : 1;
    uInt chunk = want > (1u << 30) ? 1u << 30 : (uInt)want;
    zs->next_out = n ? p + done : &one;
    zs->avail_out = chunk;
    int zr = inflate(zs, Z_NO_FLUSH);
    size_t made = chunk - zs->avail_out;
    if (n == 0 && made) return ga_err(GA_EINVAL, "zip member '%s' holds more data than its entry says", m->e->name);
    done += made;
    if (zr == Z_STREAM_END) {
      m->ended = 1;
      break;
    }
    if (zr == Z_DATA_ERROR || zr == Z_NEED_DICT)
      return ga_err(GA_EINVAL, "zip member '%s': corrupt deflate data (%s)", m->e->name, zs->msg ? zs->msg : "?");
    if (zr == Z_MEM_ERROR) return ga_err(GA_ENOMEM, "zlib: out of memory");
    if (zr == Z_BUF_ERROR && zs->avail_in == 0 && m->in_used >= m->e->csize)
      return ga_err(GA_EINVAL, "zip member '%s': the compressed data ends early (truncated or lying sizes)",
                    m->e->name);
  }
  *got = done;
  return GA_OK;
}

int ga_zip_member_read(void *mv, void *p, size_t n) {
  ga_zip_member *m = mv;
  if (n > m->e->usize - m->out_done)
    return ga_err(GA_EINVAL, "zip member '%s' is shorter than its contents need", m->e->name);
  if (!m->inflating) {
    int rc = m->z->pread(m->z->ctx, p, n, m->data_offset + m->out_done);
    if (rc) return rc;
  } else {
    size_t got = 0;
    int rc = inflate_some(m, p, n, &got);
    if (rc) return rc;
    if (got < n)
      return ga_err(GA_EINVAL, "zip member '%s': the data ends before the %llu bytes its entry says", m->e->name,
                    (unsigned long long)m->e->usize);
  }
  for (size_t off = 0; off < n;) {
    uInt k = n - off > (1u << 30) ? 1u << 30 : (uInt)(n - off);
    m->crc = (uint32_t)crc32(m->crc, (const unsigned char *)p + off, k);
    off += k;
  }
  m->out_done += n;
  return GA_OK;
}

int ga_zip_member_finish(ga_zip_member *m) {
  if (m->out_done != m->e->usize) return ga_err(GA_EINVAL, "zip member '%s' was not read to its end", m->e->name);
  if (m->inflating && !m->ended) {
    size_t got;
    int rc = inflate_some(m, NULL, 0, &got);
    if (rc) return rc;
  }
  if (m->crc != m->e->crc) return ga_err(GA_EINVAL, "zip member '%s': CRC-32 mismatch (corrupt data)", m->e->name);
  return GA_OK;
}

void ga_zip_member_free(ga_zip_member *m) {
  if (m->zs) {
    inflateEnd(m->zs);
    free(m->zs);
    m->zs = NULL;
  }
  free(m->inbuf);
  m->inbuf = NULL;
}
