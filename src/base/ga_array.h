/* The array core: buffers (refcounted, shared by views), arrays (dtype,
 * shape, byte strides, offset), shape arithmetic and broadcasting.  No Lua. */
#ifndef GA_ARRAY_H
#define GA_ARRAY_H

#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include <stdint.h>

#define GA_MAXDIM 32
#define GA_CPU (-1)           /* device id of the host backend */

typedef struct ga_block ga_block;

/* One allocation.  Views share it; it goes back to its pool when the last
 * array referring to it is freed. */
typedef struct ga_buffer {
  int refcount;
  int device;          /* GA_CPU or CUDA ordinal */
  void *ptr;
  size_t nbytes;
  struct ga_pool *pool;  /* owner pool */
  ga_block *block;     /* block of that pool */
  void *stream;        /* stream the buffer was allocated on */
  /* Memory that is not the default pool's (core/ga_mem.h ga_buffer_wrap:
   * DLPack imports, foreign pointers, other pools and allocators): when
   * set, the last owner calls release(release_ctx, buffer) instead of
   * giving the block back to `pool`. */
  void (*release)(void *ctx, struct ga_buffer *b);
  void *release_ctx;
  /* Nothing may write to it (a DLPack tensor flagged READ_ONLY, a host's
   * read-only push, a file mapped with mmap_mode "r"): every array over
   * this buffer (all views) is read-only; writes fail in the core
   * (ga_check_writable), copies are writable. */
  int readonly;
} ga_buffer;

typedef struct ga_array {
  ga_buffer *buf;      /* NULL once freed */
  int64_t offset;      /* byte offset of element 0 in buf */
  int dtype;
  int ndim;
  int64_t size;
  int64_t shape[GA_MAXDIM];
  int64_t strides[GA_MAXDIM];   /* bytes; may be 0 or negative */
} ga_array;

/* GA_OK when `a` may be written to; else GA_EINVAL "array is read-only
 * ..." (the choke point of every write: ufunc out=, copies and fills,
 * reductions, scans, sorts, kernels, random draws, scatter...). */
static inline int ga_check_writable(const ga_array *a) {
  if (a && a->buf && a->buf->readonly)
    return ga_err(GA_EINVAL, "array is read-only (x.flags.writeable is false: a read-only DLPack import, "
                  "a file mapped with mmap_mode 'r' or a host's read-only buffer); write into a copy (x:copy())");
  return GA_OK;
}

#define GA_DATA(a) ((char *)(a)->buf->ptr + (a)->offset)
#define GA_DEVICE(a) ((a)->buf->device)
#define GA_READONLY(a) ((a)->buf->readonly)

/* One more owner of b (its allocation and release are the core's:
 * core/ga_mem.h; backends take scratch from their pool, base/ga_scratch.h). */
void ga_buffer_incref(ga_buffer *b);

/* Validate a shape and compute its size; errors on negative dims or overflow
 * of the byte size.  `what` is for the message ("negative dimensions are not
 * allowed"). */
int ga_shape_size(int ndim, const int64_t *shape, int itemsize, int64_t *size);
/* Fill C-contiguous strides. */
void ga_strides_c(int ndim, const int64_t *shape, int itemsize, int64_t *strides);
/* `v` becomes a view of `a` (shares and increfs the buffer). */
void ga_array_view(ga_array *v, const ga_array *a);
/* "cpu" or "cuda:N", for messages (buf: at least 32 bytes). */
const char *ga_device_name(int device, char *buf);
/* Give a view its shape and byte strides (ndim of each) and the size. */
void ga_array_set_geometry(ga_array *v, int ndim, const int64_t *shape, const int64_t *strides);

bool ga_is_c_contiguous(const ga_array *a);
bool ga_is_f_contiguous(const ga_array *a);

/* Broadcast shapes: out gets the common shape; error message names shapes. */
int ga_broadcast_shapes(int n, const ga_array *const *arrs, int *ndim, int64_t *shape);
/* Strides of `a` as seen broadcast to (ndim, shape): 0 on new/size-1 axes. */
void ga_broadcast_strides(const ga_array *a, int ndim, const int64_t *shape, int64_t *strides);
/* Format "(2,3)" into buf. */
const char *ga_shape_str(int ndim, const int64_t *shape, char *buf, size_t n);

#endif
