/* NumPy's .npy format (numpy/lib/format.py): the header of versions 1.0,
 * 2.0 and 3.0 parsed as hostile input, the header we write, and the byte
 * swap of big-endian data.  Every size read from a header goes through
 * base/ga_checked.h.  No Lua, no I/O: the caller hands in bytes. */
#ifndef GA_NPY_H
#define GA_NPY_H
#include "base/ga_array.h"
#include <stddef.h>
#include <stdint.h>

#define GA_NPY_MAGIC "\x93NUMPY"
#define GA_NPY_MAGIC_LEN 6
/* NumPy's max_header_size: a longer header dict is refused unless the
 * caller allows more. */
#define GA_NPY_MAX_HEADER 10000
/* The fixed part before the header dict of version 1.0 (10) and 2.0/3.0 (12). */
#define GA_NPY_PREFIX_MAX 12
/* Returned by ga_npy_parse when more bytes are needed (*need says how many
 * in all); not an error code of ga_error.h. */
#define GA_NPY_MORE (-1)

typedef struct ga_npy_header {
  int major, minor;          /* format version */
  int dtype;                 /* ours */
  int swap;                  /* data is big-endian: swap on load */
  int fortran;               /* fortran_order: True */
  int ndim;
  int64_t shape[GA_MAXDIM];
  int64_t size;              /* elements */
  int64_t nbytes;            /* size * itemsize, checked */
  size_t data_offset;        /* bytes before the data: magic, version, length, dict */
} ga_npy_header;

/* Parse the header at the start of buf[0..n).  max_header bounds the dict's
 * length (GA_NPY_MAX_HEADER unless the user allows more).  Returns GA_OK,
 * GA_NPY_MORE with *need the bytes needed before it can go on, or an error
 * (GA_EINVAL with the message: bad magic, unsupported version or descr,
 * object arrays, bad shape, size overflow...). */
int ga_npy_parse(const unsigned char *buf, size_t n, size_t max_header, ga_npy_header *h, size_t *need);

/* The header for an array of dtype/ndim/shape (fortran: fortran_order
 * True), version 1.0 unless its length needs 2.0, padded to a multiple of
 * 64 bytes and ending in '\n'.  Writes at most cap bytes into out and sets
 * *len; GA_EINVAL when cap is too small (256 + 24 * ndim always suffices). */
int ga_npy_format(int dtype, int fortran, int ndim, const int64_t *shape, char *out, size_t cap, size_t *len);
#define GA_NPY_HEADER_CAP (256 + 24 * GA_MAXDIM)

/* Reverse the bytes of n elements of dtype in place (complex: each half). */
void ga_npy_swap(void *data, int64_t n, int dtype);

/* The .npy descr of a dtype, little-endian ("<f4", "|b1"). */
const char *ga_npy_descr(int dtype);

#endif
