/* Arrays to and from byte streams (files, zip members, strings) without a
 * whole host copy of a device array: its bytes pass through two pinned
 * host chunks, the transfer of one overlapping the file I/O of the other.
 * Host arrays are read and written in place.  No Lua. */
#ifndef GA_CHUNKIO_H
#define GA_CHUNKIO_H
#include "base/ga_array.h"
#include <stddef.h>

/* A sink takes all n bytes, a source gives exactly n; anything else is an
 * error they leave in base/ga_error.c's message and return. */
typedef int (*ga_write_fn)(void *ctx, const void *p, size_t n);
typedef int (*ga_read_fn)(void *ctx, void *p, size_t n);

/* The bytes of array a, which must be C- or Fortran-contiguous, in memory
 * order, to the sink. */
int ga_chunk_write(const ga_array *a, ga_write_fn w, void *ctx, void *stream);
/* a->size elements from the source into contiguous array a (memory
 * order); swap: the source holds them big-endian. */
int ga_chunk_read(ga_array *a, ga_read_fn r, void *ctx, int swap, void *stream);
/* The chunk size (bytes; a multiple of every itemsize). */
#define GA_CHUNK_BYTES ((size_t)8 << 20)

#endif
