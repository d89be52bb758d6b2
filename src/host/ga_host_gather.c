/* Gather, scatter and scatter-add on the host (ga_gather.h).  Every index
 * is checked before x is read or written, so a bad index changes nothing;
 * repeated positions are written in C order of the selection (the last
 * write wins, as NumPy).  Uses only ga_err and the dtype table, so it also
 * links into the C unit tests of the host backend. */
#include "host/ga_host.h"
#include <string.h>

/* An index value as int64; uint64 values above INT64_MAX become INT64_MIN,
 * which no axis accepts. */
static int64_t load_index(const char *p, int dt) {
  switch (dt) {
  case GA_INT8: return *(const int8_t *)p;
  case GA_UINT8: return *(const uint8_t *)p;
  case GA_INT16: return *(const int16_t *)p;
  case GA_UINT16: return *(const uint16_t *)p;
  case GA_INT32: return *(const int32_t *)p;
  case GA_UINT32: return *(const uint32_t *)p;
  case GA_INT64: return *(const int64_t *)p;
  case GA_UINT64: { uint64_t u = *(const uint64_t *)p; return u > (uint64_t)INT64_MAX ? INT64_MIN : (int64_t)u; }
  default: return INT64_MIN;
  }
}

/* 1-based (negatives from the end) to 0-based; -1 when out of range
 * (0 is out of range: positions start at 1). */
static int64_t norm(int64_t t, int64_t n) {
  int64_t z = t > 0 ? t - 1 : (t == INT64_MIN ? -1 : t + n);
  return z >= 0 && z < n ? z : -1;
}

static int range_error(int64_t t, const ga_gather_idx *g) {
  if (t == INT64_MIN)
    return ga_err(GA_EINVAL, "index out of bounds for axis %d with size %lld (indices are 1-based; negative ones "
                  "count from the end)", g->axis + 1, (long long)g->n);
  return ga_err(GA_EINVAL, "index %lld is out of bounds for axis %d with size %lld (indices are 1-based; negative "
                "ones count from the end)", (long long)t, g->axis + 1, (long long)g->n);
}

/* Check every element of index array j over the selection's dims where it
 * moves (its broadcast copies repeat the same values). */
static int check_index(const ga_adv *a, int j) {
  const ga_gather_idx *g = &a->idx[j];
  int nd = 0;
  int64_t shape[GA_MAXDIM], st[GA_MAXDIM], coord[GA_MAXDIM] = {0}, total = 1;
  for (int d = 0; d < a->ndim; d++)
    if (g->strides[d] != 0 && a->shape[d] != 1) shape[nd] = a->shape[d], st[nd++] = g->strides[d], total *= a->shape[d];
  const char *p = g->data;
  for (int64_t i = 0; i < total; i++) {
    int64_t t = load_index(p, g->dtype);
    if (norm(t, g->n) < 0) return range_error(t, g);
    for (int d = nd - 1; d >= 0; d--) {
      p += st[d];
      if (++coord[d] < shape[d]) break;
      p -= st[d] * shape[d];
      coord[d] = 0;
    }
  }
  return GA_OK;
}

#define ADD_CASE(ID, T) \
  case GA_##ID: *(T *)dst = (T)(*(T *)dst + *(const T *)src); break;

/* *dst += *src in dtype dt: integers wrap (built with -fwrapv), float16
 * rounds once from float, bool is a logical or. */
static void add_elem(char *dst, const char *src, int dt) {
  switch (dt) {
  case GA_BOOL: *(bool *)dst = *(bool *)dst || *(const bool *)src; break;
  ADD_CASE(INT8, int8_t) ADD_CASE(UINT8, uint8_t) ADD_CASE(INT16, int16_t) ADD_CASE(UINT16, uint16_t)
  ADD_CASE(INT32, int32_t) ADD_CASE(UINT32, uint32_t) ADD_CASE(UINT64, uint64_t)
  case GA_INT64: *(uint64_t *)dst = *(uint64_t *)dst + (uint64_t)*(const int64_t *)src; break;
  case GA_FLOAT16: *(ga_f16 *)dst = (ga_f16)((float)*(ga_f16 *)dst + (float)*(const ga_f16 *)src); break;
  ADD_CASE(FLOAT32, float) ADD_CASE(FLOAT64, double) ADD_CASE(COMPLEX64, ga_c64) ADD_CASE(COMPLEX128, ga_c128)
  default: break;
  }
}

int ga_host_gather(const ga_gather_call *c) {
  const ga_adv *a = c->adv;
  for (int j = 0; j < a->nidx; j++) {
    int rc = check_index(a, j);
    if (rc) return rc;
  }
  int nd = a->ndim, ni = a->nidx, isz = GA_ITEMSIZE(c->dtype);
  int64_t coord[GA_MAXDIM] = {0};
  const char *ip[GA_GATHER_MAXIDX];
  for (int j = 0; j < ni; j++) ip[j] = a->idx[j].data;
  char *xp = c->x, *vp = c->v;   /* at the selection element `coord`, before the index arrays */
  for (int64_t i = 0; i < a->size; i++) {
    char *p = xp;
    for (int j = 0; j < ni; j++) p += norm(load_index(ip[j], a->idx[j].dtype), a->idx[j].n) * a->idx[j].stride;
    if (c->mode == GA_GATHER_GET) memcpy(vp, p, (size_t)isz);
    else if (c->mode == GA_GATHER_SET) memcpy(p, vp, (size_t)isz);
    else add_elem(p, vp, c->dtype);
    for (int d = nd - 1; d >= 0; d--) {   /* odometer over the selection */
      xp += a->xstrides[d], vp += c->vstrides[d];
      for (int j = 0; j < ni; j++) ip[j] += a->idx[j].strides[d];
      if (++coord[d] < a->shape[d]) break;
      xp -= a->xstrides[d] * a->shape[d], vp -= c->vstrides[d] * a->shape[d];
      for (int j = 0; j < ni; j++) ip[j] -= a->idx[j].strides[d] * a->shape[d];
      coord[d] = 0;
    }
  }
  return GA_OK;
}
