/* Host memory for the host backend: 64-byte alignment so that any dtype and
 * any vector load lines up, and so host buffers behave like device ones. */
#include "host/ga_host.h"
#include <stdlib.h>

int ga_host_raw_alloc(void *ctx, size_t nbytes, void **p) {
  (void)ctx;
  /* posix_memalign(0) may give NULL, which a caller would take for failure. */
  return posix_memalign(p, 64, nbytes ? nbytes : 1);
}

void ga_host_raw_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}
