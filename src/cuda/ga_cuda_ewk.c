/* ElementwiseKernel on CUDA: the source generated around the user's
 * operation, its structural cache key, and the launch (through the batching
 * queue).  The kernel is the built-in ops' skeleton (kernels/ga_ew.cuh,
 * through ga_cuda_ewgen.h; launch planning: ga_cuda_ewplan.h):
 *  - dense: the user's names are references into the vector registers (an
 *    output the operation may read is loaded first);
 *  - strided: names are references into global memory (CuPy's semantics).
 * raw parameters are ga_raw_c (contiguous) or ga_raw_s (any layout) values
 * whose operator[] takes a flat C-order index. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_ewgen.h"
#include "cuda/ga_cuda_ewplan.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_diskcache.h"
#include "base/ga_strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_ewk[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];

#define BLOCK GA_EW_BLOCK

typedef struct ewk_shape {
  const ga_ewk_call *c;
  int idx64;
  int vec;
} ewk_shape;

/* The index width and the dense kernel's vector width
 * (ga_cuda_ewplan.h): no vector accesses when an output is a broadcast
 * element (it is written in place). */
static ewk_shape plan(const ga_ewk_call *c) {
  ga_ewp_arg pa[GA_EWK_MAXARGS];
  bool bcast_out = false;
  for (int k = 0; k < c->nargs; k++) {
    const ga_ewk_arg *a = &c->arg[k];
    pa[k] = (ga_ewp_arg){ga_ewk_is_array(a->kind) ? a->strides : NULL, a->data, GA_ITEMSIZE(a->dtype),
                         a->kind == GA_EWK_K_CONTIG};
    bcast_out = bcast_out || (a->kind == GA_EWK_K_BCAST && k >= c->k->nin);
  }
  ewk_shape s = {c, ga_ewp_idx64(c->size, c->ndim, c->shape, c->nargs, pa), 1};
  if (c->dense && !bcast_out) s.vec = ga_ewp_vec(c->nargs, pa, 1);
  return s;
}

/* The C type name a parameter is declared with in the source. */
static const char *tname(const ga_ewk_call *c, int a) { return ga_ewk_param_type(c->k, a); }

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

typedef struct ewk_gen { const ewk_shape *s; ga_ewg g; } ewk_gen;

/* Scalars are the user's names; raw parameters are ga_raw_c (contiguous)
 * or ga_raw_s (any layout) values. */
static void ewk_param(ga_strbuf *b, int a, const void *ud) {
  const ga_ewk_call *c = ((const ewk_gen *)ud)->s->c;
  const ga_ewk_arg *g = &c->arg[a];
  const char *cst = a < c->k->nin ? "const " : "", *T = tname(c, a), *nm = c->k->p[a].name;
  if (g->kind == GA_EWK_K_SCALAR) ga_sb_printf(b, ", const %s %s", T, nm);
  else if (g->kind == GA_EWK_K_RAWC) ga_sb_printf(b, ", %sga_raw_c<%s> %s", cst, T, nm);
  else ga_sb_printf(b, ", %sga_raw_s<%s, %d> %s", cst, T, g->rndim > 0 ? g->rndim : 1, nm);
}

/* One element: the user's names as references (ga_ewg_ref's form), then
 * the operation. */
static void gen_element(ga_strbuf *b, const ewk_gen *e, char form, const char *ind) {
  const ga_ewk_call *c = e->s->c;
  for (int a = 0; a < c->nargs; a++) {
    if (!ga_ewk_is_array(c->arg[a].kind)) continue;
    char ref[96];
    ga_ewg_ref(ref, sizeof ref, &e->g, a, form);
    ga_sb_printf(b, "%s%s%s &%s = %s;\n", ind, a < c->k->nin ? "const " : "", tname(c, a), c->k->p[a].name, ref);
  }
  ga_sb_puts(b, c->k->operation);
  ga_sb_puts(b, "\n;\n");
}

static void ewk_fill(ga_strbuf *b, const char *hole, const void *ud) {
  const ewk_gen *e = ud;
  const ga_ewk *k = e->s->c->k;
  if (!strcmp(hole, "prologue")) {
    ga_sb_printf(b, "  [[maybe_unused]] const ga_ind<%s> _ind = {_ga_n};\n", e->s->idx64 ? "long long" : "int");
    if (k->loop_prep[0]) ga_sb_printf(b, "%s\n;\n", k->loop_prep);
  } else if (!strcmp(hole, "epilogue")) {
    if (k->after_loop[0]) ga_sb_printf(b, "%s\n;\n", k->after_loop);
  } else if (!strcmp(hole, "vbody")) {
    gen_element(b, e, 'v', "      ");
  } else {
    gen_element(b, e, hole[0], "    ");
  }
}

static char *gen_source(const void *ud) {
  const ewk_shape *s = ud;
  const ga_ewk_call *c = s->c;
  const ga_ewk *k = c->k;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, ga_kernel_ga_types);
  if (k->math) ga_sb_puts(&b, ga_kernel_ga_math);
  if (k->math > 1) ga_sb_puts(&b, ga_kernel_ga_cmath);
  ga_sb_puts(&b, ga_kernel_ga_ewk);
  ga_sb_printf(&b, "// ElementwiseKernel %s\n", k->name);
  for (int t = 0; t < k->ntv; t++) ga_sb_printf(&b, "typedef %s %s;\n", ga_cu_type(c->tv_dtype[t]), k->tnames[t]);
  if (k->preamble[0]) { ga_sb_puts(&b, k->preamble); ga_sb_puts(&b, "\n"); }
  ewk_gen e = {s, {.name = k->name, .idx64 = s->idx64, .dense = c->dense, .vec = s->vec, .ndim = c->ndim,
                   .n = c->nargs, .param = ewk_param, .fill = ewk_fill}};
  e.g.ud = &e;
  for (int a = 0; a < c->nargs; a++) {
    /* the index struct has a row per strided array */
    int kind = c->arg[a].kind;
    ga_ewg_arg *g = &e.g.a[a];
    *g = (ga_ewg_arg){kind == GA_EWK_K_SCALAR ? GA_EWG_SCALAR : kind == GA_EWK_K_CONTIG ? GA_EWG_CONTIG
                      : kind == GA_EWK_K_BCAST ? GA_EWG_BCAST : kind == GA_EWK_K_STRIDED ? GA_EWG_STRIDED
                      : GA_EWG_OTHER, tname(c, a), a < k->nin, a >= k->nin && !k->p[a].write_first, 0};
    if (kind == GA_EWK_K_STRIDED) g->row = e.g.nrows++;
  }
  ga_ewg_emit(&b, &e.g);
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
