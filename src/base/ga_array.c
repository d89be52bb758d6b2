/* Shapes, strides, views and broadcasting.  Buffers are refcounted so that
 * views keep their base's memory alive independently of Lua's GC order. */
#include "base/ga_array.h"
#include "base/ga_checked.h"
#include <stdio.h>
#include <string.h>

void ga_buffer_incref(ga_buffer *b) { __atomic_add_fetch(&b->refcount, 1, __ATOMIC_RELAXED); }


int ga_shape_size(int ndim, const int64_t *shape, int itemsize, int64_t *size) {
  if (ndim < 0 || ndim > GA_MAXDIM)
    return ga_err(GA_EINVAL, "maximum supported dimension for an ndarray is %d, found %d", GA_MAXDIM, ndim);
  int64_t n = 1, bytes;
  bool zero = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) return ga_err(GA_EINVAL, "negative dimensions are not allowed");
    if (shape[i] == 0) zero = true;
  }
  /* the byte size must fit in int64 (checked even when a dimension is 0, as
   * NumPy does, so a later reshape cannot overflow) */
  for (int i = 0; i < ndim; i++)
    if (shape[i] && !ga_mul_i64(n, shape[i], &n)) return ga_err(GA_EINVAL, "%s", GA_TOO_BIG);
  if (!ga_bytes_i64(n, itemsize ? itemsize : 1, &bytes)) return ga_err(GA_EINVAL, "%s", GA_TOO_BIG);
  *size = zero ? 0 : n;
  return GA_OK;
}

void ga_strides_c(int ndim, const int64_t *shape, int itemsize, int64_t *strides) {
  int64_t s = itemsize;
  for (int i = ndim - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i] ? shape[i] : 1;
  }
}

void ga_array_view(ga_array *v, const ga_array *a) {
  *v = *a;
  ga_buffer_incref(v->buf);
}

void ga_array_set_geometry(ga_array *v, int ndim, const int64_t *shape, const int64_t *strides) {
  int64_t size = 1;
  for (int i = 0; i < ndim; i++) size *= shape[i];
  memmove(v->shape, shape, sizeof(int64_t) * ndim);     /* memmove: may be v's own */
  memmove(v->strides, strides, sizeof(int64_t) * ndim);
  v->ndim = ndim;
  v->size = size;
}

const char *ga_device_name(int device, char *buf) {
  if (device == GA_CPU) return "cpu";
  snprintf(buf, 32, "cuda:%d", device);
  return buf;
}

bool ga_is_c_contiguous(const ga_array *a) {
  if (a->size == 0) return true;
  int64_t s = GA_ITEMSIZE(a->dtype);
  for (int i = a->ndim - 1; i >= 0; i--) {
    if (a->shape[i] != 1 && a->strides[i] != s) return false;
    s *= a->shape[i];
  }
  return true;
}

bool ga_is_f_contiguous(const ga_array *a) {
  if (a->size == 0) return true;
  int64_t s = GA_ITEMSIZE(a->dtype);
  for (int i = 0; i < a->ndim; i++) {
    if (a->shape[i] != 1 && a->strides[i] != s) return false;
    s *= a->shape[i];
  }
  return true;
}

const char *ga_shape_str(int ndim, const int64_t *shape, char *buf, size_t n) {
  size_t k = 0;
  k += snprintf(buf + k, n - k, "(");
  for (int i = 0; i < ndim && k < n; i++)
    k += snprintf(buf + k, n - k, i ? ",%lld" : "%lld", (long long)shape[i]);
  if (ndim == 1 && k < n) k += snprintf(buf + k, n - k, ",");
  if (k < n) snprintf(buf + k, n - k, ")");
  return buf;
}

int ga_broadcast_shapes(int n, const ga_array *const *arrs, int *ndim, int64_t *shape) {
  int nd = 0;
  for (int k = 0; k < n; k++)
    if (arrs[k] && arrs[k]->ndim > nd) nd = arrs[k]->ndim;
  for (int i = 0; i < nd; i++) shape[i] = 1;
  for (int k = 0; k < n; k++) {
    const ga_array *a = arrs[k];
    if (!a) continue;
    for (int i = 0; i < a->ndim; i++) {
      int64_t d = a->shape[i], *s = &shape[nd - a->ndim + i];
      if (d == *s || d == 1) continue;
      if (*s == 1) { *s = d; continue; }
      char msg[2048];
      size_t m = 0;
      for (int j = 0; j < n && m < sizeof msg; j++) {
        if (!arrs[j]) continue;
        char sb[512];
        m += snprintf(msg + m, sizeof msg - m, "%s%s", m ? " " : "",
                      ga_shape_str(arrs[j]->ndim, arrs[j]->shape, sb, sizeof sb));
      }
      return ga_err(GA_EINVAL, "operands could not be broadcast together with shapes %s", msg);
    }
  }
  *ndim = nd;
  return GA_OK;
}

void ga_broadcast_strides(const ga_array *a, int ndim, const int64_t *shape, int64_t *strides) {
  int lead = ndim - a->ndim;
  for (int i = 0; i < ndim; i++) {
    if (i < lead) { strides[i] = 0; continue; }
    int j = i - lead;
    strides[i] = (a->shape[j] == 1 && shape[i] != 1) ? 0 : a->strides[j];
  }
}
