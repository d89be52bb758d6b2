/* ElementwiseKernel on CUDA: the source generated around the user's
 * operation, its structural cache key, and the launch (through the batching
 * queue).  Kernel shapes, as for the built-in ops (ga_cuda_ew.c):
 *  - dense (loop collapsed to 1-d, every non-raw array contiguous or one
 *    broadcast element): each thread handles VEC consecutive elements with
 *    16-byte vector loads and stores; the user's names are references into
 *    those registers (an output the operation may read is loaded first);
 *  - strided: grid-stride loop, index decomposed over the collapsed shape,
 *    names are references into global memory (CuPy's semantics).
 * raw parameters are ga_raw_c (contiguous) or ga_raw_s (any layout) values
 * whose operator[] takes a flat C-order index. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_diskcache.h"
#include "base/ga_strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_ewk[];

#define BLOCK 256
/* 32-bit index margin, as ga_cuda_ew.c: `base + VEC` and the grid stride
 * must not overflow */
#define IDX32_LIMIT ((int64_t)INT32_MAX - (1 << 22))


typedef struct ewk_shape {
  const ga_ewk_call *c;
  int idx64;
  int vec;
} ewk_shape;

static bool is_array_kind(int kind) {
  return kind == GA_EWK_K_CONTIG || kind == GA_EWK_K_BCAST || kind == GA_EWK_K_STRIDED;
}

static int needs_idx64(const ga_ewk_call *c) {
  if (c->size >= IDX32_LIMIT) return 1;
  for (int k = 0; k < c->nargs; k++) {
    if (!is_array_kind(c->arg[k].kind)) continue;
    int64_t span = GA_ITEMSIZE(c->arg[k].dtype);
    if (c->arg[k].kind == GA_EWK_K_STRIDED)
      for (int d = 0; d < c->ndim; d++) {
        int64_t s = c->arg[k].strides[d];
        span += (c->shape[d] - 1) * (s < 0 ? -s : s);
      }
    else if (c->arg[k].kind == GA_EWK_K_CONTIG)
      span *= c->size;
    if (span >= IDX32_LIMIT) return 1;
  }
  return 0;
}

/* Elements per thread in the dense kernel: 16 bytes of the widest
 * contiguous array, when every contiguous pointer is aligned for it and no
 * output is a broadcast element (those are written in place). */
static int pick_vec(const ga_ewk_call *c) {
  int maxsz = 0;
  for (int k = 0; k < c->nargs; k++) {
    const ga_ewk_arg *a = &c->arg[k];
    if (a->kind == GA_EWK_K_BCAST && k >= c->k->nin) return 1;
    if (a->kind == GA_EWK_K_CONTIG && GA_ITEMSIZE(a->dtype) > maxsz) maxsz = GA_ITEMSIZE(a->dtype);
  }
  if (!maxsz) return 1;   /* nothing to vectorise (raw arrays, scalars, broadcast elements) */
  int vec = 16 / maxsz;
  if (vec < 1) vec = 1;
  for (int k = 0; k < c->nargs && vec > 1; k++)
    if (c->arg[k].kind == GA_EWK_K_CONTIG &&
        ((uintptr_t)c->arg[k].data % ((uintptr_t)vec * GA_ITEMSIZE(c->arg[k].dtype))) != 0)
      vec = 1;
  return vec;
}

/* The C type name a parameter is declared with in the source. */
static const char *tname(const ga_ewk_call *c, int a) {
  const ga_ewk_param *p = &c->k->p[a];
  if (p->dtype >= 0) return p->dtype == GA_BOOL ? "bool" : ga_dtypes[p->dtype].name;
  return c->k->tnames[p->tvar];
}

/* Key: the kernel's text hash plus everything about the call that changes
 * the source (kinds, dtypes, raw ndims, placeholders, shape of the loop). */
static void make_key(const ewk_shape *s, ga_kkey *key) {
  const ga_ewk_call *c = s->c;
  const ga_ewk *k = c->k;
  unsigned char d[GA_EWK_MAXARGS * 3 + GA_EWK_MAXARGS];
  size_t n = 0;
  for (int a = 0; a < c->nargs; a++) {
    d[n++] = (unsigned char)c->arg[a].kind;
    d[n++] = (unsigned char)c->arg[a].dtype;
    d[n++] = (unsigned char)(c->arg[a].kind == GA_EWK_K_RAWS ? c->arg[a].rndim : 0);
  }
  for (int t = 0; t < k->ntv; t++) d[n++] = (unsigned char)c->tv_dtype[t];
  key->w[0] = 0x45574Bull << 40 /* "EWK": apart from the op rows' keys */ | (uint64_t)c->ndim |
              (uint64_t)s->idx64 << 6 | (uint64_t)s->vec << 7 | (uint64_t)c->dense << 12 |
              (uint64_t)c->nargs << 13;
  key->w[1] = k->hash[0];
  key->w[2] = ga_hash64(d, n, k->hash[1]);
  key->w[3] = ga_hash64(d, n, k->hash[0] ^ 0x5bd1e9955bd1e995ULL);
}

/* Declarations of the user's names for one element.  form: 'v' vector
 * registers (index _ga_j), 'd' dense pointers (index i), 's' strided
 * byte offsets. */
static void gen_refs(ga_strbuf *b, const ga_ewk_call *c, char form, const char *ind) {
  const ga_ewk *k = c->k;
  for (int a = 0; a < c->nargs; a++) {
    const ga_ewk_arg *g = &c->arg[a];
    if (!is_array_kind(g->kind)) continue;
    const char *cst = a < k->nin ? "const " : "", *T = tname(c, a), *nm = k->p[a].name;
    if (g->kind == GA_EWK_K_BCAST && a < k->nin && form != 's')   /* loaded once, before the loop */
      ga_sb_printf(b, "%sconst %s &%s = _ga_b%d;\n", ind, T, nm, a);
    else if (g->kind == GA_EWK_K_BCAST)
      ga_sb_printf(b, "%s%s%s &%s = _ga_p%d[0];\n", ind, cst, T, nm, a);
    else if (form == 'v')
      ga_sb_printf(b, "%s%s%s &%s = _ga_v%d.v[_ga_j];\n", ind, cst, T, nm, a);
    else if (form == 'd')
      ga_sb_printf(b, "%s%s%s &%s = _ga_p%d[i];\n", ind, cst, T, nm, a);
    else
      ga_sb_printf(b, "%s%s%s &%s = *(%s%s *)(_ga_p%d + _ga_o%d);\n", ind, cst, T, nm, cst, T, a, a);
  }
}

static void gen_op(ga_strbuf *b, const ga_ewk_call *c) {
  ga_sb_puts(b, c->k->operation);
  ga_sb_puts(b, "\n;\n");
}

static char *gen_source(const void *ud) {
  const ewk_shape *s = ud;
  const ga_ewk_call *c = s->c;
  const ga_ewk *k = c->k;
  const char *IT = s->idx64 ? "long long" : "int";
  int V = s->vec, nstr = 0;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, ga_kernel_ga_types);
  ga_sb_puts(&b, ga_kernel_ga_ewk);
  ga_sb_printf(&b, "// ElementwiseKernel %s\n", k->name);
  for (int t = 0; t < k->ntv; t++) ga_sb_printf(&b, "typedef %s %s;\n", ga_dtypes[c->tv_dtype[t]].cuda, k->tnames[t]);
  if (k->preamble[0]) { ga_sb_puts(&b, k->preamble); ga_sb_puts(&b, "\n"); }
  for (int a = 0; a < c->nargs; a++) nstr += c->arg[a].kind == GA_EWK_K_STRIDED;
  if (!c->dense)
    ga_sb_printf(&b, "struct _ga_ix_t { %s sh[%d]; %s st[%d][%d]; };\n", IT, c->ndim, IT, nstr > 0 ? nstr : 1, c->ndim);
  ga_sb_printf(&b, "extern \"C\" __global__ void __launch_bounds__(%d) %s(%s _ga_n", BLOCK, k->name, IT);
  for (int a = 0; a < c->nargs; a++) {
    const ga_ewk_arg *g = &c->arg[a];
    const char *cst = a < k->nin ? "const " : "", *T = tname(c, a), *nm = k->p[a].name;
    switch (g->kind) {
    case GA_EWK_K_SCALAR: ga_sb_printf(&b, ", const %s %s", T, nm); break;
    case GA_EWK_K_CONTIG: case GA_EWK_K_BCAST: ga_sb_printf(&b, ", %s%s *_ga_p%d", cst, T, a); break;
    case GA_EWK_K_STRIDED: ga_sb_printf(&b, ", %schar *_ga_p%d", cst, a); break;
    case GA_EWK_K_RAWC: ga_sb_printf(&b, ", %sga_raw_c<%s> %s", cst, T, nm); break;
    case GA_EWK_K_RAWS: ga_sb_printf(&b, ", %sga_raw_s<%s, %d> %s", cst, T, g->rndim > 0 ? g->rndim : 1, nm); break;
    }
  }
  if (!c->dense) ga_sb_puts(&b, ", const _ga_ix_t _ga_ix");
  ga_sb_puts(&b, ") {\n");
  ga_sb_printf(&b, "  [[maybe_unused]] const ga_ind<%s> _ind = {_ga_n};\n", IT);
  if (k->loop_prep[0]) ga_sb_printf(&b, "%s\n;\n", k->loop_prep);
  if (c->dense) {
    for (int a = 0; a < k->nin; a++)
      if (c->arg[a].kind == GA_EWK_K_BCAST)
        ga_sb_printf(&b, "  const %s _ga_b%d = _ga_p%d[0];\n", tname(c, a), a, a);
    ga_sb_printf(&b, "  const %s _ga_base = ((%s)blockIdx.x * %d + threadIdx.x) * %d;\n", IT, IT, BLOCK, V);
    if (V > 1) {
      ga_sb_printf(&b, "  if (_ga_base + %d <= _ga_n) {\n", V);
      for (int a = 0; a < c->nargs; a++) {
        if (c->arg[a].kind != GA_EWK_K_CONTIG) continue;
        const char *T = tname(c, a);
        if (a < k->nin)
          ga_sb_printf(&b, "    const ga_vec<%s, %d> _ga_v%d = *(const ga_vec<%s, %d> *)(_ga_p%d + _ga_base);\n",
                       T, V, a, T, V, a);
        else if (k->p[a].write_first)
          ga_sb_printf(&b, "    ga_vec<%s, %d> _ga_v%d;\n", T, V, a);
        else
          ga_sb_printf(&b, "    ga_vec<%s, %d> _ga_v%d = *(ga_vec<%s, %d> *)(_ga_p%d + _ga_base);\n",
                       T, V, a, T, V, a);
      }
      ga_sb_printf(&b, "#pragma unroll\n    for (int _ga_j = 0; _ga_j < %d; _ga_j++) {\n", V);
      ga_sb_printf(&b, "      [[maybe_unused]] %s i = _ga_base + _ga_j;\n", IT);
      gen_refs(&b, c, 'v', "      ");
      gen_op(&b, c);
      ga_sb_puts(&b, "    }\n");
      for (int a = k->nin; a < c->nargs; a++)
        if (c->arg[a].kind == GA_EWK_K_CONTIG)
          ga_sb_printf(&b, "    *(ga_vec<%s, %d> *)(_ga_p%d + _ga_base) = _ga_v%d;\n", tname(c, a), V, a, a);
      ga_sb_printf(&b, "  } else {\n    for (%s i = _ga_base; i < _ga_n; i++) {\n", IT);
      gen_refs(&b, c, 'd', "      ");
      gen_op(&b, c);
      ga_sb_puts(&b, "    }\n  }\n");
    } else {
      ga_sb_printf(&b, "  if (_ga_base < _ga_n) {\n    [[maybe_unused]] %s i = _ga_base;\n", IT);
      gen_refs(&b, c, 'd', "    ");
      gen_op(&b, c);
      ga_sb_puts(&b, "  }\n");
    }
  } else {
    ga_sb_printf(&b, "  for (%s i = (%s)blockIdx.x * blockDim.x + threadIdx.x; i < _ga_n; i += (%s)gridDim.x * "
                 "blockDim.x) {\n", IT, IT, IT);
    ga_sb_printf(&b, "    %s _ga_r = i", IT);
    for (int a = 0; a < c->nargs; a++)
      if (c->arg[a].kind == GA_EWK_K_STRIDED) ga_sb_printf(&b, ", _ga_o%d = 0", a);
    ga_sb_printf(&b, ";\n#pragma unroll\n    for (int _ga_d = %d; _ga_d >= 0; _ga_d--) {\n", c->ndim - 1);
    ga_sb_printf(&b, "      %s _ga_q = _ga_r / _ga_ix.sh[_ga_d], _ga_x = _ga_r - _ga_q * _ga_ix.sh[_ga_d];\n"
                 "      _ga_r = _ga_q;\n", IT);
    for (int a = 0, si = 0; a < c->nargs; a++)
      if (c->arg[a].kind == GA_EWK_K_STRIDED)
        ga_sb_printf(&b, "      _ga_o%d += _ga_x * _ga_ix.st[%d][_ga_d];\n", a, si++);
    ga_sb_puts(&b, "    }\n");
    gen_refs(&b, c, 's', "    ");
    gen_op(&b, c);
    ga_sb_puts(&b, "  }\n");
  }
  if (k->after_loop[0]) ga_sb_printf(&b, "%s\n;\n", k->after_loop);
  ga_sb_puts(&b, "}\n");
  return ga_sb_take(&b);
}

char *ga_cuda_ewk_source(const ga_ewk_call *c) {
  ewk_shape s = {c, needs_idx64(c), c->dense ? pick_vec(c) : 1};
  char *src = gen_source(&s);
  if (!src) ga_err(GA_ENOMEM, "out of memory generating kernel source");
  return src;
}

int ga_cuda_ewk(const ga_ewk_call *c) {
  if (c->size == 0) return GA_OK;
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  ewk_shape s = {c, needs_idx64(c), c->dense ? pick_vec(c) : 1};
  unsigned blocks;
  if (c->dense) {
    int64_t per = (int64_t)BLOCK * s.vec, want = (c->size + per - 1) / per;
    if (want > INT32_MAX)
      return ga_err(GA_EINVAL, "loop of %lld elements is too large for one launch", (long long)c->size);
    blocks = (unsigned)want;
  } else {
    const ga_device_props *p = ga_cuda_props(c->device);
    int64_t want = (c->size + BLOCK - 1) / BLOCK, cap = (int64_t)(p ? p->multiprocessors : 132) * 16;
    blocks = (unsigned)(want < cap ? want : cap);
  }
  ga_kkey key;
  make_key(&s, &key);
  void *kernel;
  if ((rc = ga_cuda_kernel_get(c->device, &key, c->k->name, gen_source, &s, &kernel))) return rc;

  /* parameter values, laid out as the kernel declares them */
  void *params[GA_EWK_MAXARGS + 2];
  size_t sizes[GA_EWK_MAXARGS + 2];
  int n32 = (int)c->size, np = 0;
  long long n64 = c->size;
  params[np] = s.idx64 ? (void *)&n64 : (void *)&n32;
  sizes[np++] = s.idx64 ? sizeof n64 : sizeof n32;
  void *ptrs[GA_EWK_MAXARGS];
  long long raw[GA_EWK_MAXARGS][2 + 2 * GA_MAXDIM];   /* ga_raw_c / ga_raw_s */
  for (int a = 0; a < c->nargs; a++) {
    const ga_ewk_arg *g = &c->arg[a];
    switch (g->kind) {
    case GA_EWK_K_SCALAR:
      params[np] = (void *)g->value.bytes;
      sizes[np++] = (size_t)GA_ITEMSIZE(g->dtype);
      break;
    case GA_EWK_K_RAWC: case GA_EWK_K_RAWS: {
      int nd = g->kind == GA_EWK_K_RAWS ? (g->rndim > 0 ? g->rndim : 1) : 0;
      raw[a][0] = (long long)(uintptr_t)g->data;
      raw[a][1] = g->rsize;
      for (int d = 0; d < nd; d++) {
        raw[a][2 + d] = g->rndim > 0 ? g->rshape[d] : 1;
        raw[a][2 + nd + d] = g->rndim > 0 ? g->strides[d] : 0;
      }
      params[np] = raw[a];
      sizes[np++] = (size_t)(2 + 2 * nd) * sizeof(long long);
      break;
    }
    default:
      ptrs[a] = g->data;
      params[np] = &ptrs[a];
      sizes[np++] = sizeof(void *);
    }
  }
  /* the strided kernel's index struct: sh[ndim], then st[strided args][ndim] */
  union { int i[(GA_EWK_MAXARGS + 1) * GA_MAXDIM]; long long l[(GA_EWK_MAXARGS + 1) * GA_MAXDIM]; } ix;
  if (!c->dense) {
    int nd = c->ndim, si = 0;
    for (int d = 0; d < nd; d++) {
      if (s.idx64) ix.l[d] = c->shape[d]; else ix.i[d] = (int)c->shape[d];
    }
    for (int a = 0; a < c->nargs; a++) {
      if (c->arg[a].kind != GA_EWK_K_STRIDED) continue;
      si++;
      for (int d = 0; d < nd; d++) {
        int64_t st = c->arg[a].strides[d];
        if (s.idx64) ix.l[si * nd + d] = st; else ix.i[si * nd + d] = (int)st;
      }
    }
    if (si == 0) si = 1;   /* the struct always has one row */
    params[np] = &ix;
    sizes[np++] = (size_t)(1 + si) * nd * (s.idx64 ? sizeof(long long) : sizeof(int));
  }
  return ga_cuda_enqueue(c->device, c->stream, kernel, blocks, BLOCK, 0, np, params, sizes);
}
