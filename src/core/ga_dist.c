/* Copies between GPUs and the collectives' checks and dispatch
 * (core/ga_dist.h). */
#include "core/ga_dist.h"
#include "core/ga_backend.h"
#include "core/ga_mem.h"
#include "base/ga_checked.h"
#include <stdio.h>
#include <string.h>

static int no_slot(const ga_backend *be, const char *what) {
  return ga_err(GA_EDEVICE, "%s: not available on the %s backend", what, be->name);
}

int ga_peer_copy(int dst_dev, void *dst, void *dst_stream, int src_dev, const void *src, void *src_stream,
                 size_t n) {
  const ga_backend *be = ga_backend_of(dst_dev);
  if (dst_dev == GA_CPU || src_dev == GA_CPU || !be->peer_copy) return no_slot(be, "copy between devices");
  return be->peer_copy(dst_dev, dst, dst_stream, src_dev, src, src_stream, n);
}

int ga_dist_version(int kind, int *version) {
  const ga_backend *be = ga_backend_of(kind);
  return be->dist_version ? be->dist_version(version) : no_slot(be, "collectives");
}

int ga_dist_unique_id(int kind, unsigned char id[GA_DIST_ID_BYTES]) {
  const ga_backend *be = ga_backend_of(kind);
  return be->dist_unique_id ? be->dist_unique_id(id) : no_slot(be, "collectives");
}

int ga_dist_init(ga_comm *c, const unsigned char *id) {
  const ga_backend *be = ga_backend_of(c->kind);
  c->open = c->broken = 0;
  c->impl = NULL;
  memset(c->h, 0, sizeof c->h);
  if (!be->dist_init) return no_slot(be, "collectives");
  if (c->nlocal < 1 || c->nlocal > GA_DIST_MAX_LOCAL)
    return ga_err(GA_EINVAL, "a communicator has 1 to %d local devices (got %d)", GA_DIST_MAX_LOCAL, c->nlocal);
  if (c->world < c->nlocal) return ga_err(GA_EINVAL, "world_size %d is smaller than the local ranks", c->world);
  for (int i = 0; i < c->nlocal; i++) {
    if (c->rank[i] < 0 || c->rank[i] >= c->world)
      return ga_err(GA_EINVAL, "rank %d is not in [0, %d) (ranks are 0-based, as NCCL's)", c->rank[i], c->world);
    for (int j = 0; j < i; j++) {
      char b[32];
      if (c->dev[j] == c->dev[i])
        return ga_err(GA_EINVAL, "device %s is listed twice (one rank per device)", ga_device_name(c->dev[i], b));
    }
  }
  return be->dist_init(c, id);
}

void ga_dist_destroy(ga_comm *c, int abort) {
  if (c->open) ga_backend_of(c->kind)->dist_destroy(c, abort);
  c->open = 0;
}

static int check_open(const ga_comm *c) {
  if (c->open) return GA_OK;
  if (c->broken) return ga_err(GA_EINVAL, "the communicator was aborted after an error (make a new one)");
  return ga_err(GA_EINVAL, "the communicator is destroyed");
}

int ga_dist_group(ga_comm *c, int start) {
  /* a group once started is always ended, even when a call inside it
   * aborted the comm (the group is the thread's, not the comm's) */
  int rc = start ? check_open(c) : GA_OK;
  return rc ? rc : ga_backend_of(c->kind)->dist_group(c, start);
}

static bool nccl_dtype(int dt) {
  switch (dt) {
  case GA_INT8: case GA_UINT8: case GA_INT32: case GA_UINT32: case GA_INT64: case GA_UINT64:
  case GA_FLOAT16: case GA_FLOAT32: case GA_FLOAT64: return true;
  default: return false;
  }
}

static const char *kind_name(int kind) {
  static const char *const n[] = {"all_reduce", "broadcast", "reduce", "all_gather", "reduce_scatter",
                                  "all_to_all", "send", "recv"};
  return kind >= 0 && kind <= GA_DIST_RECV ? n[kind] : "collective";
}

int ga_dist_out_shape(const ga_comm *c, int kind, const ga_array *in, int *ndim, int64_t *shape) {
  char s[256];
  *ndim = in->ndim;
  memcpy(shape, in->shape, sizeof(int64_t) * in->ndim);
  if (kind == GA_DIST_ALL_GATHER) {
    if (in->ndim >= GA_MAXDIM) return ga_err(GA_EINVAL, "all_gather: the input has too many dimensions");
    memmove(shape + 1, shape, sizeof(int64_t) * in->ndim);
    shape[0] = c->world;
    *ndim = in->ndim + 1;
    int64_t size;
    return ga_shape_size(*ndim, shape, GA_ITEMSIZE(in->dtype), &size);
  }
  if (kind == GA_DIST_REDUCE_SCATTER || kind == GA_DIST_ALL_TO_ALL) {
    if (in->ndim == 0 || in->shape[0] % c->world)
      return ga_err(GA_EINVAL, "the first axis of the input (shape %s) must be a multiple of the world size %d",
                    ga_shape_str(in->ndim, in->shape, s, sizeof s), c->world);
    if (kind == GA_DIST_REDUCE_SCATTER) shape[0] /= c->world;
  }
  return GA_OK;
}

static bool overlap(const ga_array *a, const ga_array *b) {
  if (a->buf->device != b->buf->device || a->size == 0 || b->size == 0) return false;
  const char *pa = GA_DATA(a), *pb = GA_DATA(b);
  size_t na = (size_t)a->size * GA_ITEMSIZE(a->dtype), nb = (size_t)b->size * GA_ITEMSIZE(b->dtype);
  return pa < pb + nb && pb < pa + na;
}

/* the local rank of a device, or -1 */
static int local_of(const ga_comm *c, int dev) {
  for (int i = 0; i < c->nlocal; i++)
    if (c->dev[i] == dev) return i;
  return -1;
}

static int check_array(const ga_comm *c, const ga_array *a, int i, int want_dev, const char *role) {
  char b1[32], b2[32];
  if (!a->buf) return ga_err(GA_EFREED, "%s array #%d has been freed", role, i + 1);
  if (GA_DEVICE(a) != want_dev)
    return ga_err(GA_EDEVICE, "%s array #%d is on %s but rank %d's device is %s (move it with x:to(\"%s\"))",
                  role, i + 1, ga_device_name(GA_DEVICE(a), b1), c->rank[i], ga_device_name(want_dev, b2),
                  ga_device_name(want_dev, b2));
  if (!nccl_dtype(a->dtype))
    return ga_err(GA_ETYPE, "NCCL has no %s type (int8 uint8 int32 uint32 int64 uint64 float16 float32 float64)",
                  ga_dtypes[a->dtype].name);
  if (!ga_is_c_contiguous(a))
    return ga_err(GA_EINVAL, "%s array #%d is not C-contiguous (collectives need contiguous buffers: use x:copy())",
                  role, i + 1);
  return GA_OK;
}

static bool same_shape(const ga_array *a, int ndim, const int64_t *shape) {
  return a->ndim == ndim && !memcmp(a->shape, shape, sizeof(int64_t) * ndim);
}

int ga_dist_run(ga_comm *c, int kind, int op, int root, int peer, const ga_array *const *in,
                ga_array *const *out, int n, void *const *stream) {
  int rc = check_open(c);
  if (rc) return rc;
  const char *kn = kind_name(kind);
  char s1[256], s2[256];
  bool p2p = kind == GA_DIST_SEND || kind == GA_DIST_RECV;
  if (op < GA_DIST_SUM || op > GA_DIST_AVG) return ga_err(GA_EINVAL, "unknown reduction %d", op);
  if (root < 0 || root >= c->world)
    return ga_err(GA_EINVAL, "root %d is not a rank (0 to %d)", root, c->world - 1);
  if (peer < 0 || peer >= c->world)
    return ga_err(GA_EINVAL, "peer %d is not a rank (0 to %d)", peer, c->world - 1);
  ga_dist_call k;
  memset(&k, 0, sizeof k);
  k.kind = kind, k.op = op, k.root = root, k.peer = peer;
  if (p2p) {
    const ga_array *a = kind == GA_DIST_SEND ? in[0] : out[0];
    if (n != 1) return ga_err(GA_EINVAL, "one array at a time");
    if (!a->buf) return ga_err(GA_EFREED, "the array has been freed");
    int i = local_of(c, GA_DEVICE(a));
    if (i < 0) {
      char b[32];
      return ga_err(GA_EDEVICE, "the array is on %s, which is no device of this communicator",
                    ga_device_name(GA_DEVICE(a), b));
    }
    if ((rc = check_array(c, a, i, c->dev[i], kn)) || (kind == GA_DIST_RECV && (rc = ga_check_writable(a)))) return rc;
    k.local = i;
    k.dtype = a->dtype;
    k.count = (size_t)a->size;
    k.nparts = 1;
    if (kind == GA_DIST_SEND) k.send[0] = GA_DATA(a);
    else k.recv[0] = GA_DATA(a);
    k.stream[0] = stream[0];   /* the stream of the array's device */
    if (k.count == 0) return GA_OK;
    return ga_backend_of(c->kind)->dist_run(c, &k);
  }
  if (n != c->nlocal)
    return ga_err(GA_EINVAL, "%d array%s for %d local rank%s (one per device, in rank order)", n,
                  n == 1 ? "" : "s", c->nlocal, c->nlocal == 1 ? "" : "s");
  int oshape_nd;
  int64_t oshape[GA_MAXDIM];
  if ((rc = check_array(c, in[0], 0, c->dev[0], "input"))) return rc;
  if ((rc = ga_dist_out_shape(c, kind, in[0], &oshape_nd, oshape))) return rc;
  bool in_place_ok = kind == GA_DIST_ALL_REDUCE || kind == GA_DIST_BROADCAST || kind == GA_DIST_REDUCE;
  for (int i = 0; i < n; i++) {
    if ((rc = check_array(c, in[i], i, c->dev[i], "input"))) return rc;
    if (in[i]->dtype != in[0]->dtype)
      return ga_err(GA_ETYPE, "input array #%d is %s, #1 is %s (one dtype on every rank)", i + 1,
                    ga_dtypes[in[i]->dtype].name, ga_dtypes[in[0]->dtype].name);
    if (!same_shape(in[i], in[0]->ndim, in[0]->shape))
      return ga_err(GA_EINVAL, "input array #%d has shape %s, #1 has %s (one shape on every rank)", i + 1,
                    ga_shape_str(in[i]->ndim, in[i]->shape, s1, sizeof s1),
                    ga_shape_str(in[0]->ndim, in[0]->shape, s2, sizeof s2));
    if ((rc = check_array(c, out[i], i, c->dev[i], "output")) || (rc = ga_check_writable(out[i]))) return rc;
    if (out[i]->dtype != in[0]->dtype)
      return ga_err(GA_ETYPE, "output array #%d is %s, the inputs are %s", i + 1,
                    ga_dtypes[out[i]->dtype].name, ga_dtypes[in[0]->dtype].name);
    if (!same_shape(out[i], oshape_nd, oshape))
      return ga_err(GA_EINVAL, "output array #%d has shape %s, expected %s", i + 1,
                    ga_shape_str(out[i]->ndim, out[i]->shape, s1, sizeof s1), ga_shape_str(oshape_nd, oshape, s2, sizeof s2));
    bool same = GA_DATA(out[i]) == GA_DATA(in[i]) && out[i]->size == in[i]->size;
    if (overlap(out[i], in[i]) && !(same && in_place_ok))
      return ga_err(GA_EINVAL, "output array #%d overlaps its input%s", i + 1,
                    in_place_ok ? " (only exactly in place is allowed)" : "");
    for (int j = 0; j < i; j++)
      if (overlap(out[i], out[j])) return ga_err(GA_EINVAL, "output arrays #%d and #%d overlap", j + 1, i + 1);
    k.send[i] = GA_DATA(in[i]);
    k.recv[i] = GA_DATA(out[i]);
    k.stream[i] = stream[i];
  }
  k.dtype = in[0]->dtype;
  k.nparts = n;
  k.count = (size_t)in[0]->size;
  if (kind == GA_DIST_REDUCE_SCATTER || kind == GA_DIST_ALL_TO_ALL) k.count /= (size_t)c->world;
  if (in[0]->size == 0) return GA_OK;
  return ga_backend_of(c->kind)->dist_run(c, &k);
}

int ga_dist_barrier(ga_comm *c, void *const *stream) {
  int rc = check_open(c);
  if (rc) return rc;
  ga_buffer *b[GA_DIST_MAX_LOCAL] = {0};
  ga_dist_call k;
  memset(&k, 0, sizeof k);
  k.kind = GA_DIST_ALL_REDUCE, k.op = GA_DIST_SUM, k.dtype = GA_INT32, k.count = 1, k.nparts = c->nlocal;
  for (int i = 0; i < c->nlocal && !rc; i++) {
    rc = ga_buffer_new(c->dev[i], 4, stream[i], &b[i]);
    if (rc) break;
    k.send[i] = k.recv[i] = b[i]->ptr;
    k.stream[i] = stream[i];
  }
  /* the values are whatever the buffers held: only the wait matters */
  if (!rc) rc = ga_backend_of(c->kind)->dist_run(c, &k);
  for (int i = 0; i < c->nlocal && !rc; i++) {
    int32_t v;
    rc = ga_memcpy(GA_CPU, &v, c->dev[i], b[i]->ptr, 4, stream[i], 1);
  }
  for (int i = 0; i < c->nlocal; i++)
    if (b[i]) ga_buffer_decref(b[i]);
  return rc;
}
