/* DLPack export and import (core/ga_dlpack.h). */
#include "core/ga_dlpack.h"
#include "core/ga_mem.h"
#include "core/ga_backend.h"
#include "base/ga_checked.h"
#include <stdlib.h>
#include <string.h>

static int64_t deleter_calls;

int64_t ga_dlpack_deleter_calls(void) { return __atomic_load_n(&deleter_calls, __ATOMIC_RELAXED); }

void ga_dlpack_dtype(int dtype, DLDataType *t) {
  static const uint8_t code[] = {['b'] = kDLBool, ['i'] = kDLInt, ['u'] = kDLUInt, ['f'] = kDLFloat,
                                 ['c'] = kDLComplex};
  t->code = code[(unsigned char)GA_KIND(dtype)];
  t->bits = (uint8_t)(8 * GA_ITEMSIZE(dtype));
  t->lanes = 1;
}

int ga_dtype_from_dlpack(DLDataType t, int *dtype) {
  if (t.lanes == 1)
    for (int d = 0; d < GA_NDTYPES; d++) {
      DLDataType u;
      ga_dlpack_dtype(d, &u);
      if (u.code == t.code && u.bits == t.bits) { *dtype = d; return GA_OK; }
    }
  static const char *const names[] = {"int", "uint", "float", "opaque handle", "bfloat", "complex", "bool"};
  return ga_err(GA_ETYPE, "unsupported DLPack dtype (code %s, %d bits, %d lanes)",
                t.code < sizeof names / sizeof names[0] ? names[t.code] : "unknown", t.bits, t.lanes);
}

DLDevice ga_dlpack_device(int device) {
  DLDevice d;
  if (device == GA_CPU) d.device_type = kDLCPU, d.device_id = 0;
  else d.device_type = kDLCUDA, d.device_id = device;
  return d;
}

int ga_device_from_dlpack(DLDevice d, int *device) {
  switch ((int)d.device_type) {
  case kDLCPU:
  case kDLCUDAHost: *device = GA_CPU; return GA_OK;
  case kDLCUDA:
  case kDLCUDAManaged:
    if (d.device_id < 0) return ga_err(GA_EDEVICE, "DLPack device id %d is negative", (int)d.device_id);
    *device = d.device_id;
    return GA_OK;
  default:
    return ga_err(GA_EDEVICE, "DLPack device type %d is not supported (only CPU, CUDA, CUDA host and managed)",
                  (int)d.device_type);
  }
}

int ga_dlpack_handover(int device, void *consumer, void *producer) {
  if (device == GA_CPU) return GA_OK;
  const ga_backend *be = ga_backend_of(device);
  if (be->stream_wait) return be->stream_wait(device, consumer, producer);
  return be->flush(device);
}

/* ---- export ---- */
typedef struct export_v {
  DLManagedTensorVersioned m;
  ga_buffer *buf;
  int64_t dims[2 * GA_MAXDIM];   /* shape, then strides in elements */
} export_v;
typedef struct export_0 {
  DLManagedTensor m;
  ga_buffer *buf;
  int64_t dims[2 * GA_MAXDIM];
} export_0;

static void deleter_v(DLManagedTensorVersioned *self) {
  if (!self) return;
  export_v *e = (export_v *)self;
  ga_buffer_decref(e->buf);
  free(e);
  __atomic_add_fetch(&deleter_calls, 1, __ATOMIC_RELAXED);
}

static void deleter_0(DLManagedTensor *self) {
  if (!self) return;
  export_0 *e = (export_0 *)self;
  ga_buffer_decref(e->buf);
  free(e);
  __atomic_add_fetch(&deleter_calls, 1, __ATOMIC_RELAXED);
}

static int fill_tensor(const ga_array *a, DLTensor *t, int64_t *dims) {
  int isz = GA_ITEMSIZE(a->dtype);
  for (int i = 0; i < a->ndim; i++) {
    if (a->strides[i] % isz)
      return ga_err(GA_EINVAL, "a stride of %lld bytes is not a whole number of %d-byte elements",
                    (long long)a->strides[i], isz);
    dims[i] = a->shape[i];
    dims[GA_MAXDIM + i] = a->strides[i] / isz;
  }
  t->data = GA_DATA(a);
  t->device = ga_dlpack_device(GA_DEVICE(a));
  t->ndim = a->ndim;
  ga_dlpack_dtype(a->dtype, &t->dtype);
  t->shape = a->ndim ? dims : NULL;
  t->strides = a->ndim ? dims + GA_MAXDIM : NULL;
  t->byte_offset = 0;
  return GA_OK;
}

int ga_dlpack_export(const ga_array *a, int versioned, uint64_t flags, void **managed) {
  if (!a->buf) return ga_err(GA_EFREED, "array has been freed");
  if (versioned) {
    export_v *e = calloc(1, sizeof *e);
    if (!e) return ga_err(GA_ENOMEM, "out of host memory");
    int rc = fill_tensor(a, &e->m.dl_tensor, e->dims);
    if (rc) { free(e); return rc; }
    e->m.version.major = DLPACK_MAJOR_VERSION;
    e->m.version.minor = DLPACK_MINOR_VERSION;
    e->m.manager_ctx = e;
    e->m.deleter = deleter_v;
    e->m.flags = flags | (a->buf->readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0);
    e->buf = a->buf;
    ga_buffer_incref(a->buf);
    *managed = &e->m;
  } else {
    export_0 *e = calloc(1, sizeof *e);
    if (!e) return ga_err(GA_ENOMEM, "out of host memory");
    int rc = fill_tensor(a, &e->m.dl_tensor, e->dims);
    if (rc) { free(e); return rc; }
    e->m.manager_ctx = e;
    e->m.deleter = deleter_0;
    e->buf = a->buf;
    ga_buffer_incref(a->buf);
    *managed = &e->m;
  }
  return GA_OK;
}

void ga_dlpack_delete(void *managed, int versioned) {
  if (!managed) return;
  if (versioned) {
    DLManagedTensorVersioned *m = managed;
    if (m->deleter) m->deleter(m);
  } else {
    DLManagedTensor *m = managed;
    if (m->deleter) m->deleter(m);
  }
}

/* ---- import ---- */
static void release_v(void *ctx, ga_buffer *b) {
  (void)b;
  ga_dlpack_delete(ctx, 1);
}

static void release_0(void *ctx, ga_buffer *b) {
  (void)b;
  ga_dlpack_delete(ctx, 0);
}

int ga_dlpack_import(void *managed, int versioned, void *stream, ga_array *out) {
  if (!managed) return ga_err(GA_EINVAL, "NULL DLPack tensor");
  DLTensor *t;
  if (versioned) {
    DLManagedTensorVersioned *m = managed;
    if (m->version.major != DLPACK_MAJOR_VERSION)
      return ga_err(GA_EINVAL, "DLPack major version %u is not supported (this library reads %d.x)",
                    (unsigned)m->version.major, DLPACK_MAJOR_VERSION);
    t = &m->dl_tensor;
  } else {
    t = &((DLManagedTensor *)managed)->dl_tensor;
  }
  int dtype, device, rc;
  if ((rc = ga_dtype_from_dlpack(t->dtype, &dtype))) return rc;
  if ((rc = ga_device_from_dlpack(t->device, &device))) return rc;
  if (t->ndim < 0 || t->ndim > GA_MAXDIM)
    return ga_err(GA_EINVAL, "DLPack tensor has %d dimensions (at most %d)", (int)t->ndim, GA_MAXDIM);
  if (t->ndim > 0 && !t->shape) return ga_err(GA_EINVAL, "DLPack tensor has no shape");
  int isz = GA_ITEMSIZE(dtype);
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM], size;
  for (int i = 0; i < t->ndim; i++) shape[i] = t->shape[i];
  if ((rc = ga_shape_size(t->ndim, shape, isz, &size))) return rc;
  if (t->strides) {
    for (int i = 0; i < t->ndim; i++)
      if (!ga_mul_i64(t->strides[i], isz, &strides[i]))
        return ga_err(GA_EINVAL, "DLPack stride %lld is too large", (long long)t->strides[i]);
  } else {
    ga_strides_c(t->ndim, shape, isz, strides);
  }
  /* the bytes the view spans: [lo, hi) around data + byte_offset */
  int64_t lo = 0, hi = size ? isz : 0;
  for (int i = 0; size && i < t->ndim; i++) {
    int64_t ext;
    if (!ga_mul_i64(shape[i] - 1, strides[i], &ext)) return ga_err(GA_EINVAL, "DLPack tensor is too big");
    if (ext < 0) lo += ext;
    else hi += ext;
    if (lo < -(INT64_MAX / 4) || hi > INT64_MAX / 4) return ga_err(GA_EINVAL, "DLPack tensor is too big");
  }
  if (t->byte_offset > (uint64_t)(INT64_MAX / 4)) return ga_err(GA_EINVAL, "DLPack byte_offset is too big");
  char *start = (char *)t->data + t->byte_offset;
  if (!t->data && size) return ga_err(GA_EINVAL, "DLPack tensor has a NULL data pointer");
  ga_buffer *b;
  if ((rc = ga_buffer_wrap(device, size ? start + lo : start, (size_t)(hi - lo), stream,
                           versioned ? release_v : release_0, managed, &b)))
    return rc;
  /* a tensor flagged READ_ONLY gives a read-only array (and views) */
  b->readonly = versioned && (((DLManagedTensorVersioned *)managed)->flags & DLPACK_FLAG_BITMASK_READ_ONLY);
  out->buf = b;
  out->offset = size ? -lo : 0;
  out->dtype = dtype;
  ga_array_set_geometry(out, t->ndim, shape, strides);
  return GA_OK;
}
