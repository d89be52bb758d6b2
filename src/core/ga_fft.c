/* The FFT pipeline: checks, the output's geometry, the batch axes collapsed
 * (base/ga_shape.c), private input copies where the backend may not read
 * the caller's array as it is, and the call through the backend table. */
#include "core/ga_fft.h"
#include "core/ga_backend.h"
#include "core/ga_elementwise.h"
#include "core/ga_mem.h"
#include "base/ga_checked.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include "base/ga_shape.h"
#include <string.h>

static int real_of(int complex_dtype) { return complex_dtype == GA_COMPLEX64 ? GA_FLOAT32 : GA_FLOAT64; }
static int complex_of(int real_dtype) { return real_dtype == GA_FLOAT32 ? GA_COMPLEX64 : GA_COMPLEX128; }

int ga_fft_out_geometry(const ga_array *in, int axis, int kind, int64_t n, int *dtype, int64_t *shape) {
  if (axis < 0 || axis >= in->ndim) return ga_err(GA_EINVAL, "axis %d is out of range", axis + 1);
  if (n < 1) return ga_err(GA_EINVAL, "invalid number of data points (%lld) specified", (long long)n);
  int dt = in->dtype;
  if (kind == GA_FFT_R2C) {
    if (dt != GA_FLOAT32 && dt != GA_FLOAT64)
      return ga_err(GA_ETYPE, "a real-input transform needs float32 or float64, got %s", ga_dtypes[dt].name);
  } else if (dt != GA_COMPLEX64 && dt != GA_COMPLEX128) {
    return ga_err(GA_ETYPE, "a complex-input transform needs complex64 or complex128, got %s", ga_dtypes[dt].name);
  }
  if (kind != GA_FFT_C2C && kind != GA_FFT_R2C && kind != GA_FFT_C2R)
    return ga_err(GA_EINVAL, "unknown transform kind %d", kind);
  int64_t half = n / 2 + 1, need = kind == GA_FFT_C2R ? half : n;
  if (in->shape[axis] != need)
    return ga_err(GA_EINVAL, "the input has %lld values along axis %d where the transform reads %lld",
                  (long long)in->shape[axis], axis + 1, (long long)need);
  *dtype = kind == GA_FFT_C2C ? dt : kind == GA_FFT_R2C ? complex_of(dt) : real_of(dt);
  memcpy(shape, in->shape, sizeof(int64_t) * (size_t)in->ndim);
  shape[axis] = kind == GA_FFT_R2C ? half : n;
  int64_t size;
  return ga_shape_size(in->ndim, shape, GA_ITEMSIZE(*dtype), &size);
}

/* out *= scale through the elementwise pipeline (in place: out is the
 * identical view of the input) */
static int scale_out(ga_array *out, double scale, void *stream) {
  if (scale == 1.0) return GA_OK;
  ga_ew_plan p;
  ga_operand ins[2] = {{GA_ARG_ARRAY, out, 0, 0}, {GA_ARG_FLOAT, NULL, 0, scale}};
  int rc = ga_ew_prepare(&ga_ops[GA_OP_MULTIPLY], ins, out->dtype, GA_CAST_SAME_KIND, &p);
  return rc ? rc : ga_ew_run(&p, ins, &out, stream);
}

/* the call's batch axes: every axis of src but those in the bit mask
 * `transformed`, collapsed where src and out walk two of them as one (at
 * least one axis, of length 1 when there is none) */
static void batch_axes(ga_fft_call *c, const ga_array *src, const ga_array *out, unsigned transformed) {
  int nb = 0;
  for (int d = 0; d < src->ndim; d++) {
    if (transformed >> d & 1) continue;
    c->bshape[nb] = src->shape[d];
    c->bistr[nb] = src->strides[d];
    c->bostr[nb] = out->strides[d];
    nb++;
  }
  if (nb == 0) {
    c->bndim = 1;
    c->bshape[0] = 1;
  } else {
    int64_t *st[2] = {c->bistr, c->bostr};
    c->bndim = ga_collapse(nb, c->bshape, 2, st, true);
  }
  c->batch = 1;
  for (int d = 0; d < c->bndim; d++) c->batch *= c->bshape[d];   /* <= src->size: no overflow */
}

int ga_fft_axis(const ga_array *in, ga_array *out, int axis, int kind, int inverse, int64_t n, double scale,
                void *stream) {
  int dtype;
  int64_t shape[GA_MAXDIM];
  int rc = ga_fft_out_geometry(in, axis, kind, n, &dtype, shape);
  if (rc || (rc = ga_check_writable(out))) return rc;
  int dev = GA_DEVICE(in);
  if (GA_DEVICE(out) != dev) return ga_err(GA_EDEVICE, "the output is on another device than the input");
  if (out->dtype != dtype || out->ndim != in->ndim || memcmp(out->shape, shape, sizeof(int64_t) * (size_t)in->ndim))
    return ga_err(GA_EINTERNAL, "fft output of the wrong dtype or shape");
  for (int d = 0; d < out->ndim; d++)
    if (out->strides[d] <= 0 && out->shape[d] > 1) return ga_err(GA_EINTERNAL, "fft output with strides <= 0");
  if (in->size == 0 || out->size == 0) return GA_OK;
  const ga_backend *be = ga_backend_of(dev);
  if (!be->fft) return ga_err(GA_EDEVICE, "the %s backend has no FFT", be->name);

  /* a private copy: C2R (cuFFT overwrites its input), negative and zero
   * (broadcast) strides (cuFFT's layouts take neither) */
  int copy = kind == GA_FFT_C2R;
  for (int d = 0; d < in->ndim; d++)
    if (in->strides[d] <= 0 && in->shape[d] > 1) copy = 1;
  ga_array tmp = {0};
  const ga_array *src = in;
  if (copy) {
    if ((rc = ga_array_init(&tmp, dev, in->dtype, in->ndim, in->shape, stream))) return rc;
    if ((rc = ga_copy(&tmp, in, stream))) {
      ga_array_release(&tmp);
      return rc;
    }
    src = &tmp;
  }

  ga_fft_call c;
  memset(&c, 0, sizeof c);
  c.kind = kind;
  c.inverse = kind == GA_FFT_C2R ? 1 : kind == GA_FFT_R2C ? 0 : inverse != 0;
  c.dtype_in = src->dtype;
  c.dtype_out = dtype;
  c.n = n;
  c.in = GA_DATA(src);
  c.out = GA_DATA(out);
  c.in_len = src->shape[axis];
  c.out_len = out->shape[axis];
  c.istride = src->strides[axis];
  c.ostride = out->strides[axis];
  c.scale = scale;
  c.in_writable = copy;
  c.device = dev;
  c.stream = stream;
  batch_axes(&c, src, out, 1u << axis);
  int scaled = 0;
  rc = be->fft(&c, &scaled);
  if (copy) ga_array_release(&tmp);
  if (rc || scaled) return rc;
  return scale_out(out, scale, stream);
}

/* the outer axes of a multi-axis transform may go into one plan when, in
 * order of decreasing input stride, each stride is a positive multiple of
 * the next one, at least that axis's length times it, the output's strides
 * go the same way, and every stride is a whole number of elements */
static int nested(const int64_t *st, const int64_t *n, const int *ax, int rank, int64_t isz) {
  for (int i = 0; i < rank; i++) {
    int64_t s = st[ax[i]];
    if (s <= 0 || s % isz) return 0;
    if (i + 1 < rank) {
      int64_t inner = st[ax[i + 1]];
      if (inner <= 0 || s % inner || s / inner < n[ax[i + 1]]) return 0;
    }
  }
  return 1;
}

int ga_fft_axes(const ga_array *in, ga_array *out, int rank, const int *axes, int inverse, double scale,
                void *stream, int *done) {
  *done = 0;
  if (ga_check_writable(out)) return ga_errcode();
  int dev = GA_DEVICE(in);
  if (rank < 2 || rank > 3) return GA_OK;
  if (in->dtype != GA_COMPLEX64 && in->dtype != GA_COMPLEX128)
    return ga_err(GA_ETYPE, "a complex-input transform needs complex64 or complex128, got %s",
                  ga_dtypes[in->dtype].name);
  if (GA_DEVICE(out) != dev) return ga_err(GA_EDEVICE, "the output is on another device than the input");
  if (out->dtype != in->dtype || out->ndim != in->ndim ||
      memcmp(out->shape, in->shape, sizeof(int64_t) * (size_t)in->ndim))
    return ga_err(GA_EINTERNAL, "fft output of the wrong dtype or shape");
  const ga_backend *be = ga_backend_of(dev);
  if (!be->fft || !be->fft_multi) return GA_OK;   /* one axis at a time */
  int ax[3];
  unsigned seen = 0;   /* a bit per axis: GA_MAXDIM is 32 */
  for (int i = 0; i < rank; i++) {
    if (axes[i] < 0 || axes[i] >= in->ndim || (seen >> axes[i] & 1))
      return ga_err(GA_EINVAL, "bad or repeated axis %d", axes[i] + 1);
    seen |= 1u << axes[i];
    ax[i] = axes[i];
  }
  if (in->size == 0) {
    *done = 1;
    return GA_OK;
  }
  /* the transform over several axes is separable: their order does not
   * matter, so sort them by decreasing input stride (insertion sort) */
  for (int i = 1; i < rank; i++)
    for (int j = i; j > 0 && in->strides[ax[j - 1]] < in->strides[ax[j]]; j--) {
      int t = ax[j];
      ax[j] = ax[j - 1], ax[j - 1] = t;
    }
  int64_t isz = GA_ITEMSIZE(in->dtype);
  for (int i = 0; i < rank; i++)
    if (in->shape[ax[i]] < 2) return GA_OK;   /* a length-1 axis: the 1-D path copies it */
  if (!nested(in->strides, in->shape, ax, rank, isz) || !nested(out->strides, out->shape, ax, rank, isz))
    return GA_OK;
  for (int d = 0; d < in->ndim; d++)   /* broadcast batch axes: the 1-D path copies them */
    if ((in->strides[d] <= 0 || out->strides[d] <= 0) && in->shape[d] > 1) return GA_OK;

  ga_fft_call c;
  memset(&c, 0, sizeof c);
  c.kind = GA_FFT_C2C;
  c.inverse = inverse != 0;
  c.dtype_in = c.dtype_out = in->dtype;
  int last = ax[rank - 1];
  c.n = c.in_len = c.out_len = in->shape[last];
  c.in = GA_DATA(in);
  c.out = GA_DATA(out);
  c.istride = in->strides[last];
  c.ostride = out->strides[last];
  c.rank = rank;
  for (int i = 0; i + 1 < rank; i++) {
    c.outer_n[i] = in->shape[ax[i]];
    c.outer_istr[i] = in->strides[ax[i]];
    c.outer_ostr[i] = out->strides[ax[i]];
  }
  c.scale = scale;
  c.device = dev;
  c.stream = stream;
  batch_axes(&c, in, out, seen);
  int scaled = 0;
  int rc = be->fft(&c, &scaled);
  if (rc) return rc;
  *done = 1;
  return scaled ? GA_OK : scale_out(out, scale, stream);
}

int ga_fft_cache(int dev, int op, int64_t value, ga_fft_cache_info *info) {
  const ga_backend *be = ga_backend_of(dev);
  if (!be->fft_cache) return ga_err(GA_EDEVICE, "the %s backend has no FFT plan cache", be->name);
  if (dev != GA_CPU) {
    int rc = ga_check_device(dev);
    if (rc) return rc;
  }
  return be->fft_cache(dev, op, value, info);
}
