/* Shape geometry of views: see ga_shape.h. */
#include "base/ga_shape.h"
#include "base/ga_checked.h"
#include <string.h>

int ga_axis(int64_t axis, int ndim, int *out) {
  int64_t a = axis < 0 ? axis + ndim : axis - 1;
  if (axis == 0 || a < 0 || a >= ndim)
    return ga_err(GA_EINVAL, "axis %lld is out of bounds for array of dimension %d (axes are 1-based)",
                  (long long)axis, ndim);
  *out = (int)a;
  return GA_OK;
}

static int cannot_reshape(int64_t size, int ndim, const int64_t *shape) {
  char s[1024];
  return ga_err(GA_EINVAL, "cannot reshape array of size %lld into shape %s", (long long)size,
                ga_shape_str(ndim, shape, s, sizeof s));
}

int ga_reshape_resolve(int64_t size, int itemsize, int ndim, int64_t *shape) {
  int unknown = -1;
  int64_t known = 1;   /* product of the given nonzero lengths */
  bool zero = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] == -1) {
      if (unknown >= 0) return ga_err(GA_EINVAL, "can only specify one unknown dimension");
      unknown = i;
    } else if (shape[i] < 0) {
      return ga_err(GA_EINVAL, "negative dimensions not allowed");
    } else if (shape[i] == 0) {
      zero = true;
    } else if (!ga_mul_i64(known, shape[i], &known)) {
      /* NumPy's message: the shape cannot hold `size` elements */
      return cannot_reshape(size, ndim, shape);
    }
  }
  if (unknown >= 0 && !zero && size % known == 0) shape[unknown] = size / known;
  else if (unknown >= 0 || (zero ? size != 0 : known != size)) return cannot_reshape(size, ndim, shape);
  /* as for a new array, the bytes of the nonzero lengths must fit (so
   * zeros(0):reshape(...) refuses what zeros(...) refuses) */
  int64_t n;
  return ga_shape_size(ndim, shape, itemsize, &n);
}

void ga_strides_f(int ndim, const int64_t *shape, int itemsize, int64_t *strides) {
  int64_t s = itemsize;
  for (int i = 0; i < ndim; i++) {
    strides[i] = s;
    s *= shape[i] ? shape[i] : 1;
  }
}

bool ga_reshape_nocopy(const ga_array *a, int ndim, const int64_t *shape, bool fortran,
                       int64_t *strides) {
  int item = GA_ITEMSIZE(a->dtype);
  /* contiguous in the requested order, or empty: the layout is free */
  if (a->size == 0 || (fortran ? ga_is_f_contiguous(a) : ga_is_c_contiguous(a))) {
    if (fortran) ga_strides_f(ndim, shape, item, strides);
    else ga_strides_c(ndim, shape, item, strides);
    return true;
  }
  /* length-1 axes have no effect, and their strides do not matter */
  int64_t od[GA_MAXDIM], os[GA_MAXDIM];
  int on = 0;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != 1) od[on] = a->shape[i], os[on++] = a->strides[i];
  /* match groups of old axes [oi, oj) to groups of new axes [ni, nj) with
   * equal products; each old group must be one stride sequence */
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < ndim && oi < on) {
    int64_t np = shape[ni], op = od[oi];
    while (np != op) {
      if (np < op) np *= shape[nj++];
      else op *= od[oj++];
    }
    for (int k = oi; k < oj - 1; k++) {
      if (fortran ? os[k + 1] != od[k] * os[k] : os[k] != od[k + 1] * os[k + 1]) return false;
    }
    if (fortran) {
      strides[ni] = os[oi];
      for (int k = ni + 1; k < nj; k++) strides[k] = strides[k - 1] * shape[k - 1];
    } else {
      strides[nj - 1] = os[oj - 1];
      for (int k = nj - 1; k > ni; k--) strides[k - 1] = strides[k] * shape[k];
    }
    ni = nj++;
    oi = oj++;
  }
  /* trailing length-1 axes of the new shape */
  int64_t last = ni >= 1 ? strides[ni - 1] : item;
  if (fortran && ni >= 1) last *= shape[ni - 1];
  for (int k = ni; k < ndim; k++) strides[k] = last;
  return true;
}

int ga_permute(ga_array *v, const int *perm) {
  int64_t sh[GA_MAXDIM], st[GA_MAXDIM];
  bool seen[GA_MAXDIM] = {false};
  for (int i = 0; i < v->ndim; i++) {
    int p = perm[i];
    if (p < 0 || p >= v->ndim) return ga_err(GA_EINVAL, "axes don't match array");
    if (seen[p]) return ga_err(GA_EINVAL, "repeated axis in transpose");
    seen[p] = true;
    sh[i] = v->shape[p];
    st[i] = v->strides[p];
  }
  memcpy(v->shape, sh, sizeof(int64_t) * v->ndim);
  memcpy(v->strides, st, sizeof(int64_t) * v->ndim);
  return GA_OK;
}

void ga_flip(ga_array *v, int axis) {
  /* an empty axis has no last element to start from */
  if (v->shape[axis] > 0) v->offset += (v->shape[axis] - 1) * v->strides[axis];
  v->strides[axis] = -v->strides[axis];
}

int ga_squeeze(ga_array *v, const bool *drop) {
  int n = 0;
  for (int i = 0; i < v->ndim; i++) {
    if (drop[i]) {
      if (v->shape[i] != 1)
        return ga_err(GA_EINVAL, "cannot select an axis to squeeze out which has size not equal to one");
      continue;
    }
    v->shape[n] = v->shape[i];
    v->strides[n++] = v->strides[i];
  }
  v->ndim = n;
  return GA_OK;
}

int ga_expand(ga_array *v, int ndim_out, const bool *isnew) {
  if (ndim_out > GA_MAXDIM)
    return ga_err(GA_EINVAL, "maximum supported dimension for an ndarray is %d, found %d", GA_MAXDIM, ndim_out);
  int64_t sh[GA_MAXDIM], st[GA_MAXDIM];
  int j = 0;
  for (int i = 0; i < ndim_out; i++) {
    if (isnew[i]) {
      sh[i] = 1;
      /* the stride of a length-1 axis is never used; NumPy's choice */
      st[i] = 0;
    } else {
      if (j >= v->ndim) return ga_err(GA_EINVAL, "internal: bad expand mask");
      sh[i] = v->shape[j];
      st[i] = v->strides[j++];
    }
  }
  if (j != v->ndim) return ga_err(GA_EINVAL, "internal: bad expand mask");
  v->ndim = ndim_out;
  memcpy(v->shape, sh, sizeof(int64_t) * ndim_out);
  memcpy(v->strides, st, sizeof(int64_t) * ndim_out);
  return GA_OK;
}

int ga_broadcast_to(ga_array *v, int ndim, const int64_t *shape) {
  bool ok = ndim >= v->ndim;
  int lead = ndim - v->ndim;
  for (int i = 0; ok && i < v->ndim; i++)
    ok = v->shape[i] == shape[lead + i] || v->shape[i] == 1;
  for (int i = 0; ok && i < ndim; i++) ok = shape[i] >= 0;
  if (!ok) {
    char s1[512], s2[512];
    return ga_err(GA_EINVAL, "cannot broadcast an array of shape %s to shape %s",
                  ga_shape_str(v->ndim, v->shape, s1, sizeof s1), ga_shape_str(ndim, shape, s2, sizeof s2));
  }
  int64_t st[GA_MAXDIM];
  ga_broadcast_strides(v, ndim, shape, st);
  ga_array_set_geometry(v, ndim, shape, st);
  return GA_OK;
}

int ga_collapse(int ndim, int64_t *shape, int nops, int64_t *const *st, bool drop1) {
  int nd = 0;
  for (int i = 0; i < ndim; i++) {
    if (drop1 && shape[i] == 1) continue;
    bool merge = nd > 0;
    for (int k = 0; k < nops && merge; k++)
      if (st[k]) merge = st[k][nd - 1] == st[k][i] * shape[i];
    if (merge) {
      shape[nd - 1] *= shape[i];
      for (int k = 0; k < nops; k++) if (st[k]) st[k][nd - 1] = st[k][i];
      continue;
    }
    shape[nd] = shape[i];
    for (int k = 0; k < nops; k++) if (st[k]) st[k][nd] = st[k][i];
    nd++;
  }
  if (nd == 0) {
    shape[0] = 1;
    for (int k = 0; k < nops; k++) if (st[k]) st[k][0] = 0;
    nd = 1;
  }
  return nd;
}
