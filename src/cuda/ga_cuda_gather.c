/* Gather, scatter and scatter-add kernels on CUDA (ga_gather.h), generated
 * from source like the elementwise ones and cached by a structural key
 * (mode, x's dtype, each index array's dtype, the selection's ndim, index
 * width).  One grid-stride loop over the selection: the flat index is
 * decomposed over the selection shape into byte offsets of x, of the value
 * (or output) and of each index array; then each index is loaded, made
 * 0-based and checked.  An out-of-range index is never followed: GET writes
 * 0, SET/ADD skip the element, and the first bad index (array number and
 * value) goes into a 16-byte device flag that this call reads back after the
 * kernel, synchronising its stream: the error is raised by the indexing
 * call itself, and in-range elements of a SET/ADD may already be written.
 * Scatter-add uses atomics: atomicAdd for 32/64-bit ints and floats, two of
 * them for complex, atomicOr for bool, and a CAS loop on the containing
 * 32-bit word for float16 and 8/16-bit integers. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_strbuf.h"
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_gather[];

#define BLOCK 256
#define PARAM_MAX 4000                                  /* bytes of the index struct (CUDA: 4 KiB) */

typedef struct g_shape {
  const ga_gather_call *c;
  int idx64;
} g_shape;

static int64_t iabs64(int64_t v) { return v < 0 ? -v : v; }

/* 64-bit indexing when the selection's size or a byte span of x (over the
 * selection and the indexed dimensions), of the values or of an index
 * array reaches GA_IDX32_LIMIT. */
static int needs_idx64(const ga_gather_call *c) {
  const ga_adv *a = c->adv;
  if (a->size >= GA_IDX32_LIMIT) return 1;
  int64_t sx = ga_span_bytes(GA_ITEMSIZE(c->dtype), a->ndim, a->shape, a->xstrides);
  for (int j = 0; j < a->nidx; j++) {
    sx += (a->idx[j].n - 1) * iabs64(a->idx[j].stride);
    if (ga_span_bytes(GA_ITEMSIZE(a->idx[j].dtype), a->ndim, a->shape, a->idx[j].strides) >= GA_IDX32_LIMIT)
      return 1;
  }
  return sx >= GA_IDX32_LIMIT ||
         ga_span_bytes(GA_ITEMSIZE(c->dtype), a->ndim, a->shape, c->vstrides) >= GA_IDX32_LIMIT;
}

static void make_key(const g_shape *s, ga_kkey *key) {
  const ga_gather_call *c = s->c;
  const ga_adv *a = c->adv;
  ga_kpack p;
  ga_kpack_init(&p, key, GA_KFAM_GATHER);
  ga_kpack_put(&p, (uint64_t)c->mode, 2);
  ga_kpack_put(&p, (uint64_t)c->dtype, 5);
  ga_kpack_put(&p, (uint64_t)a->ndim, 6);
  ga_kpack_put(&p, (uint64_t)a->nidx, 6);
  ga_kpack_put(&p, (uint64_t)s->idx64, 1);
  for (int j = 0; j < a->nidx; j++) ga_kpack_put(&p, (uint64_t)a->idx[j].dtype, 4);
}

/* Scatter-add's atomic for x's dtype (GA_ATOMIC of kernels/ga_gather.cuh). */
static int atomic_kind(int dt) {
  switch (dt) {
  case GA_FLOAT32: case GA_FLOAT64: case GA_INT32: case GA_UINT32: case GA_UINT64: return 0;
  case GA_INT64: return 1;
  case GA_COMPLEX64: case GA_COMPLEX128: return 2;
  case GA_BOOL: return 3;
  default: return dt == GA_FLOAT16 ? 4 : 5;   /* 8/16-bit: a CAS loop */
  }
}

/* The per-call part (sizes, types, mode, the lists over the dims and the
 * index arrays), then the algorithm of kernels/ga_gather.cuh. */
static char *gen_source(const void *ud) {
  const g_shape *s = ud;
  const ga_gather_call *c = s->c;
  const ga_adv *a = c->adv;
  int nd = a->ndim, ni = a->nidx, ndx = nd > 0 ? nd : 1, nix = ni > 0 ? ni : 1, narrow = GA_ITEMSIZE(c->dtype) == 1;
  static const char *const mode_name[] = {"gather", "scatter", "scatter-add"};
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, ga_kernel_ga_types);
  ga_sb_printf(&b, "\n// %s, %s, %d-d selection, %d index arrays\n", mode_name[c->mode], ga_dtypes[c->dtype].name, nd, ni);
  ga_sb_printf(&b, "#define BLOCK %d\n#define GA_MODE %d\n#define GA_ATOMIC %d\n#define GA_CAS_MASK %s\n#define GA_CAS_NARROW %s\n",
               BLOCK, c->mode, atomic_kind(c->dtype), narrow ? "0xffu" : "0xffffu", narrow ? "char" : "short");
  ga_sb_printf(&b, "#define NDX %d\n#define NIX %d\ntypedef %s ga_idx; typedef %s elem_t;\n", ndx, nix,
               s->idx64 ? "long long" : "int", ga_cu_type(c->dtype));
  ga_sb_puts(&b, "#define GA_OI_DECLS");
  for (int j = 0; j < ni; j++) ga_sb_printf(&b, " GA_OI_DECL(%d)", j);
  ga_sb_puts(&b, "\n#define GA_OI_STEPS(d)");
  for (int j = 0; j < ni; j++) ga_sb_printf(&b, " GA_OI_STEP(%d, d)", j);
  ga_sb_puts(&b, "\n#define GA_DSTEPS");
  for (int d = nd - 1; d >= 0; d--) ga_sb_printf(&b, d ? " GA_DSTEP(%d)" : " GA_DSTEP0", d);
  ga_sb_puts(&b, "\n#define GA_LOADS");
  for (int j = 0; j < ni; j++) {
    int dt = a->idx[j].dtype;
    if (dt == GA_UINT64) ga_sb_printf(&b, " GA_LOAD_U64(%d)", j);
    else ga_sb_printf(&b, " GA_LOAD(%d, %s)", j, ga_cu_type(dt));
  }
  ga_sb_puts(&b, "\n");
  ga_sb_puts(&b, ga_kernel_ga_gather);
  return ga_sb_take(&b);
}

char *ga_cuda_gather_source(const ga_gather_call *c) {
  g_shape s = {c, needs_idx64(c)};
  return gen_source(&s);
}

int ga_cuda_gather(const ga_gather_call *c) {
  const ga_adv *a = c->adv;
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  g_shape s = {c, needs_idx64(c)};
  int nd = a->ndim, ni = a->nidx, ndx = nd > 0 ? nd : 1, nix = ni > 0 ? ni : 1;
  size_t isz = s.idx64 ? 8 : 4;
  /* the struct as the kernel lays it out: every member 4- or 8-byte */
  size_t off_n = (3 * (size_t)ndx + (size_t)nix * ndx) * isz;
  off_n = (off_n + 7) & ~(size_t)7;
  size_t off_st = off_n + 8 * (size_t)nix;
  size_t off_ip = (off_st + isz * nix + 7) & ~(size_t)7;
  size_t total = off_ip + 8 * (size_t)nix;
  if (total > PARAM_MAX)
    return ga_err(GA_EINVAL, "too many index arrays or dimensions for one indexing kernel (%d arrays over %d dimensions)",
                  ni, nd);
  _Alignas(16) unsigned char gx[PARAM_MAX];
  memset(gx, 0, total);
#define PUT(off, v) do { if (s.idx64) *(long long *)(gx + (off)) = (long long)(v); else *(int *)(gx + (off)) = (int)(v); } while (0)
  for (int d = 0; d < nd; d++) {
    PUT(d * isz, a->shape[d]);
    PUT((ndx + d) * isz, a->xstrides[d]);
    PUT((2 * ndx + d) * isz, c->vstrides[d]);
    for (int j = 0; j < ni; j++) PUT((3 * ndx + j * ndx + d) * isz, a->idx[j].strides[d]);
  }
  for (int j = 0; j < ni; j++) {
    *(long long *)(gx + off_n + 8 * j) = a->idx[j].n;
    PUT(off_st + j * isz, a->idx[j].stride);
    *(const char **)(gx + off_ip + 8 * j) = a->idx[j].data;
  }
#undef PUT
  ga_kkey key;
  make_key(&s, &key);
  void *kernel;
  if ((rc = ga_cuda_kernel_get(c->device, &key, "ga_gather", gen_source, &s, &kernel))) return rc;

  ga_scratch flag = {0};
  if ((rc = ga_scratch_get(ga_cuda_pool(c->device), 16, c->stream, &flag))) return rc;
  if ((rc = ga_cuda_flush(c->device))) goto done;
  cudaError_t e = cudaMemsetAsync(flag.ptr, 0, 16, (cudaStream_t)c->stream);
  if (e != cudaSuccess) { rc = ga_cuda_error(e, "cudaMemsetAsync"); goto done; }
  {
    int n32 = (int)a->size;
    long long n64 = a->size;
    void *ptrs[3] = {c->x, c->v, flag.ptr};
    void *args[5] = {s.idx64 ? (void *)&n64 : (void *)&n32, &ptrs[0], &ptrs[1], &ptrs[2], gx};
    size_t sizes[5] = {s.idx64 ? sizeof n64 : sizeof n32, sizeof(void *), sizeof(void *), sizeof(void *), total};
    int64_t want = (a->size + BLOCK - 1) / BLOCK, cap = (int64_t)ga_cuda_sm_count(c->device) * 16;
    unsigned blocks = (unsigned)(want < cap ? want : cap);
    if ((rc = ga_cuda_enqueue(c->device, c->stream, kernel, blocks, BLOCK, 0, 5, args, sizes))) goto done;
  }
  /* the one synchronisation of an indexing call: read the flag back */
  long long err[2];
  if ((rc = ga_cuda_memcpy(GA_CPU, err, c->device, flag.ptr, sizeof err, c->stream, 1))) goto done;
  int bad = (int)(err[0] & 0xffffffff);
  if (bad > 0 && bad <= ni) {
    const ga_gather_idx *g = &a->idx[bad - 1];
    if (err[1] == (long long)INT64_MIN)
      rc = ga_err(GA_EINVAL, "index out of bounds for axis %d with size %lld (indices are 1-based; negative ones count "
                  "from the end)", g->axis + 1, (long long)g->n);
    else
      rc = ga_err(GA_EINVAL, "index %lld is out of bounds for axis %d with size %lld (indices are 1-based; negative "
                  "ones count from the end)", err[1], g->axis + 1, (long long)g->n);
  }
done:
  ga_scratch_put(&flag);
  return rc;
}
