/* Unit test of core/ga_chunkio.c's device path without a GPU: the backend
 * calls it makes (ga_memcpy, ga_buffer_new/decref) are stubs here that
 * model a stream honestly -- a copy queued without sync happens only when
 * a later synchronous call on the stream drains the queue -- so a chunk
 * reused before its copy landed, or read before it arrived, gives wrong
 * bytes and fails the check.  Device memory is plain host memory tagged
 * device 0. */
#include "core/ga_chunkio.h"
#include "core/ga_backend.h"
#include "core/ga_mem.h"
#include "base/ga_npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct copy { void *dst; const void *src; size_t n; } copy;
static copy queue[8];
static int queued, max_queued, n_buffers, n_sync;

static void drain(void) {
  for (int i = 0; i < queued; i++) memcpy(queue[i].dst, queue[i].src, queue[i].n);
  queued = 0;
}

int ga_memcpy(int dst_dev, void *dst, int src_dev, const void *src, size_t n, void *stream, int sync) {
  (void)stream;
  if (dst_dev == GA_CPU && src_dev == GA_CPU) return ga_err(GA_EINTERNAL, "host-host copy in the device path");
  if (n == 0) return GA_OK;
  if (queued == 8) return ga_err(GA_EINTERNAL, "queue overflow");
  queue[queued++] = (copy){dst, src, n};
  if (queued > max_queued) max_queued = queued;
  if (sync) drain(), n_sync++;
  return GA_OK;
}

int ga_buffer_new(int device, size_t nbytes, void *stream, ga_buffer **out) {
  (void)stream;
  ga_buffer *b = calloc(1, sizeof *b);
  b->ptr = malloc(nbytes ? nbytes : 1);
  memset(b->ptr, 0xAB, nbytes);   /* garbage, as a reused pool block */
  b->nbytes = nbytes;
  b->device = device;
  b->refcount = 1;
  *out = b;
  n_buffers++;
  return GA_OK;
}

void ga_buffer_decref(ga_buffer *b) {
  CHECK(queued == 0, "a chunk went back with %d copies still queued", queued);
  free(b->ptr);
  free(b);
  n_buffers--;
}

typedef struct sink { unsigned char *p; size_t n, cap; int fail_after; } sink;

static int sink_write(void *ctx, const void *p, size_t n) {
  sink *s = ctx;
  if (s->fail_after >= 0 && s->fail_after-- == 0) return ga_err(GA_EINVAL, "disk full");
  if (n > s->cap - s->n) return ga_err(GA_EINTERNAL, "sink overflow");
  memcpy(s->p + s->n, p, n);
  s->n += n;
  return GA_OK;
}

static int source_read(void *ctx, void *p, size_t n) {
  sink *s = ctx;
  if (s->fail_after >= 0 && s->fail_after-- == 0) return ga_err(GA_EINVAL, "truncated");
  if (n > s->cap - s->n) return ga_err(GA_EINVAL, "source short");
  memcpy(p, s->p + s->n, n);
  s->n += n;
  return GA_OK;
}

static void device_array(ga_array *a, ga_buffer *b, int dtype, int64_t n) {
  memset(a, 0, sizeof *a);
  a->buf = b;
  a->dtype = dtype;
  a->ndim = 1;
  a->size = n;
  a->shape[0] = n;
  a->strides[0] = GA_ITEMSIZE(dtype);
}

static void run(int dtype, int64_t n, int fail_after) {
  size_t nb = (size_t)n * (size_t)GA_ITEMSIZE(dtype);
  ga_buffer dev = {.refcount = 1, .device = 0, .ptr = malloc(nb + 1), .nbytes = nb};
  unsigned char *ref = malloc(nb + 1);
  for (size_t i = 0; i < nb; i++) ref[i] = (unsigned char)(i * 31 + (i >> 13));
  memcpy(dev.ptr, ref, nb);
  ga_array a;
  device_array(&a, &dev, dtype, n);
  /* save: the sink sees the device bytes in order */
  sink s = {malloc(nb + 1), 0, nb, fail_after};
  int rc = ga_chunk_write(&a, sink_write, &s, NULL);
  if (fail_after < 0) {
    CHECK(rc == GA_OK && s.n == nb && !memcmp(s.p, ref, nb), "write %lld items of dtype %d", (long long)n, dtype);
  } else {
    CHECK(rc != GA_OK, "write error passed through");
  }
  CHECK(queued == 0 && n_buffers == 0, "write left %d queued, %d buffers", queued, n_buffers);
  /* load: the device gets the source's bytes; swapped ones arrive swapped */
  memset(dev.ptr, 0, nb);
  sink src = {ref, 0, nb, fail_after};
  rc = ga_chunk_read(&a, source_read, &src, 0, NULL);
  if (fail_after < 0) CHECK(rc == GA_OK && !memcmp(dev.ptr, ref, nb), "read %lld items", (long long)n);
  else CHECK(rc != GA_OK, "read error passed through");
  CHECK(queued == 0 && n_buffers == 0, "read left %d queued, %d buffers", queued, n_buffers);
  if (fail_after < 0) {
    src.n = 0;
    CHECK(ga_chunk_read(&a, source_read, &src, 1, NULL) == GA_OK, "swapped read");
    unsigned char *sw = malloc(nb + 1);
    memcpy(sw, ref, nb);
    ga_npy_swap(sw, n, dtype);
    CHECK(!memcmp(dev.ptr, sw, nb), "swapped read of dtype %d", dtype);
    free(sw);
  }
  free(s.p);
  free(ref);
  free(dev.ptr);
}

int main(void) {
  size_t C = GA_CHUNK_BYTES;
  run(GA_FLOAT32, 1, -1);
  run(GA_FLOAT64, (int64_t)(C / 8), -1);               /* exactly one chunk */
  run(GA_FLOAT64, (int64_t)(C / 8) + 1, -1);           /* one chunk and 8 bytes */
  run(GA_COMPLEX128, (int64_t)(3 * C / 16) - 5, -1);   /* three chunks, the last short */
  run(GA_INT16, (int64_t)(5 * C / 2) + 3, -1);
  run(GA_UINT8, (int64_t)(2 * C), -1);
  for (int f = 0; f < 4; f++) run(GA_FLOAT32, (int64_t)(3 * C / 4) + 7, f);   /* errors at each chunk */
  CHECK(max_queued <= 2, "at most the chunk in flight and its wait are queued (%d)", max_queued);
  CHECK(n_sync > 0, "synchronised");
  printf("test_chunkio: %d passed, %d failed\n", n_pass, n_fail);
  return n_fail != 0;
}
