/* libFuzzer harness: the .npy header parser (base/ga_npy.c) on arbitrary
 * bytes.  Whatever it accepts must format back to a header it parses to
 * the same dtype, order and shape.  `make fuzz-files` runs it. */
#include "base/ga_npy.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  ga_npy_header h, h2;
  size_t need = 0;
  int rc = ga_npy_parse(data, size, GA_NPY_MAX_HEADER, &h, &need);
  if (rc == GA_NPY_MORE && (need <= size || need > 12 + GA_NPY_MAX_HEADER)) abort();
  if (rc != 0) return 0;
  if (h.data_offset > size || h.ndim < 0 || h.ndim > GA_MAXDIM || h.dtype < 0 || h.dtype >= GA_NDTYPES) abort();
  char out[GA_NPY_HEADER_CAP];
  size_t len;
  if (ga_npy_format(h.dtype, h.fortran, h.ndim, h.shape, out, sizeof out, &len)) abort();
  if (len % 64 || ga_npy_parse((const unsigned char *)out, len, GA_NPY_MAX_HEADER, &h2, &need)) abort();
  if (h2.dtype != h.dtype || h2.fortran != h.fortran || h2.ndim != h.ndim || h2.nbytes != h.nbytes ||
      memcmp(h2.shape, h.shape, sizeof(int64_t) * (size_t)h.ndim))
    abort();
  if (h.size > 0 && h.size <= 64) {   /* the swap stays inside the data it is given */
    unsigned char *buf = malloc((size_t)h.nbytes);
    memset(buf, 0, (size_t)h.nbytes);
    ga_npy_swap(buf, h.size, h.dtype);
    free(buf);
  }
  return 0;
}
