/* Zip archives for .npz (base: no Lua, no arrays).  The reader
 * (ga_zip_read.c) treats the file as hostile: the end records and the
 * central directory are bounded by the file, every offset and size is
 * checked against it before use, only stored and deflate members are read,
 * and a member's data is produced only as far as the caller asks (the
 * caller checks the sizes the member's own header implies first), with its
 * CRC checked at the end.  The writer (ga_zip_write.c) writes stored or
 * deflate members in one pass over a seekable FILE, patching each local
 * header afterwards, with ZIP64 records when sizes or offsets need them. */
#ifndef GA_ZIP_H
#define GA_ZIP_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- reading ---- */

/* Read exactly n bytes at offset off (an error otherwise, with a message). */
typedef int (*ga_pread_fn)(void *ctx, void *p, size_t n, uint64_t off);

typedef struct ga_zip_entry {
  char *name;              /* NUL-terminated (names with a NUL are refused) */
  uint16_t method, flags;
  uint32_t crc;
  uint64_t csize, usize, local_offset;
} ga_zip_entry;

typedef struct ga_zip {
  ga_zip_entry *e;
  size_t n;
  uint64_t file_size;
  ga_pread_fn pread;
  void *ctx;
} ga_zip;

/* Read the central directory of a file of file_size bytes.  On error
 * nothing is left to free. */
int ga_zip_open(ga_zip *z, ga_pread_fn pread, void *ctx, uint64_t file_size);
void ga_zip_close(ga_zip *z);   /* frees the entries; idempotent */
/* The entry named name, or -1. */
long ga_zip_find(const ga_zip *z, const char *name);

/* Deflate's largest expansion: no member's data may claim more than this
 * many bytes out per byte in (a bound a zip bomb cannot pass). */
#define GA_ZIP_MAX_RATIO 1032

/* A member being read; ga_zip_member_read has the shape of ga_read_fn
 * (core/ga_chunkio.h): exactly n bytes or an error. */
typedef struct ga_zip_member {
  const ga_zip *z;
  const ga_zip_entry *e;
  uint64_t data_offset;    /* in the file */
  uint64_t in_used;        /* compressed bytes consumed */
  uint64_t out_done;       /* bytes produced */
  uint32_t crc;
  int inflating, ended;
  void *zs;                /* z_stream * (deflate) */
  unsigned char *inbuf;
} ga_zip_member;

/* Open member i: its local header is checked against the file and the
 * central directory (stored: sizes equal; deflate: usize within
 * GA_ZIP_MAX_RATIO of csize; encrypted or other methods refused). */
int ga_zip_member_open(const ga_zip *z, size_t i, ga_zip_member *m);
int ga_zip_member_read(void *m, void *p, size_t n);
/* All usize bytes were read: the data ends there and the CRC matches. */
int ga_zip_member_finish(ga_zip_member *m);
void ga_zip_member_free(ga_zip_member *m);   /* idempotent */

/* ---- writing ---- */

typedef struct ga_zipw_entry {
  char *name;
  uint16_t method;
  uint32_t crc;
  uint64_t csize, usize, offset;
} ga_zipw_entry;

typedef struct ga_zipw {
  FILE *f;
  const char *what;        /* the path, for messages */
  ga_zipw_entry *e;
  size_t n, cap;
  int force_zip64;          /* tests: ZIP64 fields and records even when small */
  /* the member being written */
  int open, zip64_local;
  void *zs;
  unsigned char *obuf;
} ga_zipw;

void ga_zipw_init(ga_zipw *w, FILE *f, const char *what);
/* Start member `name` of exactly usize bytes (deflate: compressed). */
int ga_zipw_begin(ga_zipw *w, const char *name, int deflate, uint64_t usize);
int ga_zipw_write(void *w, const void *p, size_t n);   /* ga_write_fn's shape */
int ga_zipw_end(ga_zipw *w);        /* finish the member, patch its local header */
int ga_zipw_finish(ga_zipw *w);     /* central directory and end records */
void ga_zipw_free(ga_zipw *w);      /* idempotent; does not close f */

#endif
