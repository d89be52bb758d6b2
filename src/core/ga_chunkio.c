/* Streaming arrays through pinned chunks (core/ga_chunkio.h).
 *
 * A device array moves through two chunks of the host pool (pinned when a
 * GPU is present).  Saving: the copy of chunk i+1 into one chunk is queued
 * on the stream before chunk i is handed to the sink, so the bus and the
 * disk work at once.  Loading: chunk i+1 is read from the source while
 * chunk i's copy to the device runs.  Waiting for a queued copy is done
 * with a one-byte synchronous copy of that chunk's last byte queued on the
 * same stream (it writes the byte the queued copy wrote, and the stream
 * orders it after), so no event slot is needed in the backend table. */
#include "core/ga_chunkio.h"
#include "core/ga_backend.h"
#include "core/ga_mem.h"
#include "base/ga_npy.h"
#include <string.h>

static size_t nbytes_of(const ga_array *a) { return (size_t)a->size * (size_t)GA_ITEMSIZE(a->dtype); }

/* the size of the piece at off of nb bytes cut in pieces of at most max */
static size_t piece(size_t nb, size_t off, size_t max) { return nb - off < max ? nb - off : max; }

/* the two host chunks of a device transfer of nb bytes (the second only
 * when one chunk does not hold it all); *chunk = their size */
static int chunks_new(size_t nb, void *stream, ga_buffer *b[2], size_t *chunk) {
  *chunk = piece(nb, 0, GA_CHUNK_BYTES);
  b[0] = b[1] = NULL;
  int rc = ga_buffer_new(GA_CPU, *chunk, stream, &b[0]);
  if (!rc && nb > *chunk) rc = ga_buffer_new(GA_CPU, *chunk, stream, &b[1]);
  return rc;
}

static void chunks_free(ga_buffer *b[2]) {
  if (b[0]) ga_buffer_decref(b[0]);
  if (b[1]) ga_buffer_decref(b[1]);
}

/* wait for the copy of n bytes src -> dst queued on stream: a synchronous
 * copy of its last byte, ordered after it */
static int wait_copy(int ddev, char *dst, int sdev, const char *src, size_t n, void *stream) {
  return ga_memcpy(ddev, dst + n - 1, sdev, src + n - 1, 1, stream, 1);
}

int ga_chunk_write(const ga_array *a, ga_write_fn w, void *ctx, void *stream) {
  size_t nb = nbytes_of(a);
  if (nb == 0) return GA_OK;
  const char *src = GA_DATA(a);
  int dev = GA_DEVICE(a);
  if (dev == GA_CPU) {
    for (size_t off = 0; off < nb;) {   /* bounded pieces: a sink may copy what it gets */
      size_t n = piece(nb, off, 8 * GA_CHUNK_BYTES);
      int rc = w(ctx, src + off, n);
      if (rc) return rc;
      off += n;
    }
    return GA_OK;
  }
  size_t chunk;
  ga_buffer *b[2];
  int rc = chunks_new(nb, stream, b, &chunk);
  if (rc) goto done;
  int cur = 0;
  size_t n = chunk;
  rc = ga_memcpy(GA_CPU, b[0]->ptr, dev, src, n, stream, 0);
  for (size_t off = 0; !rc && off < nb;) {
    /* chunk `off` is queued into b[cur]: wait for it */
    rc = wait_copy(GA_CPU, b[cur]->ptr, dev, src + off, n, stream);
    if (rc) break;
    size_t next = off + n, nn = piece(nb, next, chunk);
    if (nn && (rc = ga_memcpy(GA_CPU, b[!cur]->ptr, dev, src + next, nn, stream, 0))) break;
    int wrc = w(ctx, b[cur]->ptr, n);
    if (wrc) {
      /* the queued copy must land before its chunk goes back to the pool */
      if (nn) wait_copy(GA_CPU, b[!cur]->ptr, dev, src + next, nn, stream);
      rc = wrc;
      break;
    }
    off = next, n = nn, cur = !cur;
  }
done:
  chunks_free(b);
  return rc;
}

int ga_chunk_read(ga_array *a, ga_read_fn r, void *ctx, int swap, void *stream) {
  size_t nb = nbytes_of(a);
  if (nb == 0) return GA_OK;
  if (ga_check_writable(a)) return ga_errcode();
  char *dst = GA_DATA(a);
  int dev = GA_DEVICE(a), isz = GA_ITEMSIZE(a->dtype);
  if (dev == GA_CPU) {
    for (size_t off = 0; off < nb;) {
      size_t n = piece(nb, off, 8 * GA_CHUNK_BYTES);
      int rc = r(ctx, dst + off, n);
      if (rc) return rc;
      if (swap) ga_npy_swap(dst + off, (int64_t)(n / (size_t)isz), a->dtype);
      off += n;
    }
    return GA_OK;
  }
  size_t chunk;
  ga_buffer *b[2];
  int rc = chunks_new(nb, stream, b, &chunk);
  if (rc) goto done;
  int cur = 0;
  size_t prev_off = 0, prev_n = 0;   /* the copy in flight, from b[!cur] */
  for (size_t off = 0; off < nb;) {
    size_t n = piece(nb, off, chunk);
    rc = r(ctx, b[cur]->ptr, n);          /* overlaps the copy in flight */
    if (rc) break;
    if (swap) ga_npy_swap(b[cur]->ptr, (int64_t)(n / (size_t)isz), a->dtype);
    if (prev_n && (rc = wait_copy(dev, dst + prev_off, GA_CPU, b[!cur]->ptr, prev_n, stream))) break;
    prev_n = 0;
    if ((rc = ga_memcpy(dev, dst + off, GA_CPU, b[cur]->ptr, n, stream, 0))) break;
    prev_off = off, prev_n = n;
    off += n, cur = !cur;
  }
  if (prev_n) {   /* the last copy lands before the chunks go back (also after an error) */
    int wrc = wait_copy(dev, dst + prev_off, GA_CPU, b[!cur]->ptr, prev_n, stream);
    if (!rc) rc = wrc;
  }
done:
  chunks_free(b);
  return rc;
}
