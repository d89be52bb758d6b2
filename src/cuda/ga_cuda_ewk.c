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
#include "cuda/ga_cuda_ewplan.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_diskcache.h"
#include "base/ga_strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_ewk[];

#define BLOCK GA_EW_BLOCK

typedef struct ewk_shape {
  const ga_ewk_call *c;
  int idx64;
  int vec;
} ewk_shape;

static bool is_array_kind(int kind) {
  return kind == GA_EWK_K_CONTIG || kind == GA_EWK_K_BCAST || kind == GA_EWK_K_STRIDED;
}

/* The index width and the dense kernel's vector width
 * (ga_cuda_ewplan.h): no vector accesses when an output is a broadcast
 * element (it is written in place). */
static ewk_shape plan(const ga_ewk_call *c) {
  ga_ewp_arg pa[GA_EWK_MAXARGS];
  bool bcast_out = false;
  for (int k = 0; k < c->nargs; k++) {
    const ga_ewk_arg *a = &c->arg[k];
    pa[k] = (ga_ewp_arg){is_array_kind(a->kind) ? a->strides : NULL, a->data, GA_ITEMSIZE(a->dtype),
                         a->kind == GA_EWK_K_CONTIG};
    bcast_out = bcast_out || (a->kind == GA_EWK_K_BCAST && k >= c->k->nin);
  }
  ewk_shape s = {c, ga_ewp_idx64(c->size, c->ndim, c->shape, c->nargs, pa), 1};
  if (c->dense && !bcast_out) s.vec = ga_ewp_vec(c->nargs, pa, 1);
  return s;
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
  ga_kpack p;
  ga_kpack_init(&p, key, GA_KFAM_EWK);
  ga_kpack_put(&p, (uint64_t)c->ndim, 6);
  ga_kpack_put(&p, (uint64_t)s->idx64, 1);
  ga_kpack_put(&p, (uint64_t)s->vec, 5);
  ga_kpack_put(&p, (uint64_t)c->dense, 1);
  ga_kpack_put(&p, (uint64_t)c->nargs, 5);
  ga_kpack_put(&p, k->hash[0], 64);
  ga_kpack_put(&p, ga_hash64(d, n, k->hash[1]), 64);
  ga_kpack_put(&p, ga_hash64(d, n, k->hash[0] ^ 0x5bd1e9955bd1e995ULL), 64);
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
  ewk_shape s = plan(c);
  char *src = gen_source(&s);
  if (!src) ga_err(GA_ENOMEM, "out of memory generating kernel source");
  return src;
}

int ga_cuda_ewk(const ga_ewk_call *c) {
  if (c->size == 0) return GA_OK;
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  ewk_shape s = plan(c);
  unsigned blocks;
  if ((rc = ga_ewp_blocks(c->device, c->dense, c->size, s.vec, &blocks))) return rc;
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
  /* the strided kernel's index struct: sh[ndim], then st[strided args][ndim]
   * (at least one row) */
  ga_ew_ix ix;
  if (!c->dense) {
    const int64_t *rows[GA_EWK_MAXARGS];
    int nrows = 0;
    for (int a = 0; a < c->nargs; a++)
      if (c->arg[a].kind == GA_EWK_K_STRIDED) rows[nrows++] = c->arg[a].strides;
    if (nrows == 0) rows[nrows++] = NULL;
    params[np] = &ix;
    sizes[np++] = ga_ewp_index(&ix, s.idx64, c->ndim, c->shape, nrows, rows);
  }
  return ga_cuda_enqueue(c->device, c->stream, kernel, blocks, BLOCK, 0, np, params, sizes);
}
