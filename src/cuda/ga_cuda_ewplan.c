/* Launch planning of the elementwise kernels: see ga_cuda_ewplan.h. */
#include "cuda/ga_cuda_ewplan.h"
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"

int ga_ewp_idx64(int64_t size, int ndim, const int64_t *shape, int n, const ga_ewp_arg *a) {
  if (size >= GA_IDX32_LIMIT) return 1;
  for (int k = 0; k < n; k++)
    if (a[k].st && ga_span_bytes(a[k].itemsize, ndim, shape, a[k].st) >= GA_IDX32_LIMIT) return 1;
  return 0;
}

int ga_ewp_vec(int n, const ga_ewp_arg *a, int none) {
  int maxsz = 0;
  for (int k = 0; k < n; k++)
    if (a[k].contig && a[k].itemsize > maxsz) maxsz = a[k].itemsize;
  if (!maxsz) return none;
  int vec = 16 / maxsz;
  if (vec < 1) vec = 1;
  for (int k = 0; k < n && vec > 1; k++)
    if (a[k].contig && (uintptr_t)a[k].data % ((uintptr_t)vec * a[k].itemsize) != 0) vec = 1;
  return vec;
}

int ga_ewp_blocks(int device, bool dense, int64_t size, int vec, unsigned *blocks) {
  if (dense) {
    int64_t per = (int64_t)GA_EW_BLOCK * vec, want = (size + per - 1) / per;
    if (want > INT32_MAX)
      return ga_err(GA_EINVAL, "loop of %lld elements is too large for one launch", (long long)size);
    *blocks = (unsigned)want;
  } else {
    int64_t want = (size + GA_EW_BLOCK - 1) / GA_EW_BLOCK, cap = (int64_t)ga_cuda_sm_count(device) * 16;
    *blocks = (unsigned)(want < cap ? want : cap);
  }
  return GA_OK;
}

size_t ga_ewp_index(ga_ew_ix *ix, bool idx64, int ndim, const int64_t *shape, int nrows,
                    const int64_t *const *rows) {
  for (int d = 0; d < ndim; d++) {
    if (idx64) ix->l[d] = shape[d]; else ix->i[d] = (int)shape[d];
    for (int k = 0; k < nrows; k++) {
      int64_t st = rows[k] ? rows[k][d] : 0;
      if (idx64) ix->l[ndim + k * ndim + d] = st; else ix->i[ndim + k * ndim + d] = (int)st;
    }
  }
  return (size_t)(1 + nrows) * ndim * (idx64 ? sizeof(long long) : sizeof(int));
}
