/* ReductionKernel on CUDA: the reduction pipeline of the built-in
 * reductions (ga_cuda_red.h says the kernel shapes) with several inputs and
 * outputs and the user's map/reduce/post expressions.  This file describes
 * a call and emits its per-call parts: the user's functions and the macros
 * of kernels/ga_reduce.cuh (each array input loaded and folded, inputs
 * constant along a contiguous row read once per output, every output
 * post-mapped).  The accumulator is acc_s {_type_reduce v; long long i;},
 * moved between lanes word by word (kernels/ga_redk.cuh).  In the kernel,
 * array a is _ga_p<a> and scalar a is _ga_s<a>: the user's names live only
 * in the map and post functions, where no kernel variable hides them, and
 * the macros' parameters are _ga_ names, which no type placeholder has. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_red.h"
#include "base/ga_diskcache.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_ewk[];
extern const char ga_kernel_ga_redk[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];

static bool is_arr(const ga_redk_call *c, int a) { return c->arg[a].kind == GA_REDK_ARRAY; }

/* the C type name a parameter is declared with */
static const char *tname(const ga_redk_call *c, int a) { return ga_ewk_param_type(&c->k->e, a); }

/* row of argument a among the arrays (ix.so, ix.sr, arr[]) */
static int arr_row(const ga_redk_call *c, int a) {
  int j = 0;
  for (int x = 0; x < a; x++) j += is_arr(c, x);
  return j;
}

/* ---- source ---- */

static void gen_prelude(ga_strbuf *b, const ga_cred_shape *s) {
  const ga_redk_call *c = s->c->call;
  const ga_redk *k = c->k;
  int nin = k->e.nin;
  ga_sb_puts(b, ga_kernel_ga_types);
  if (k->e.math) ga_sb_puts(b, ga_kernel_ga_math);
  if (k->e.math > 1) ga_sb_puts(b, ga_kernel_ga_cmath);
  ga_sb_puts(b, ga_kernel_ga_ewk);
  ga_sb_printf(b, "// ReductionKernel %s\n", k->e.name);
  for (int t = 0; t < k->e.ntv; t++) ga_sb_printf(b, "typedef %s %s;\n", ga_cu_type(c->tv_dtype[t]), k->e.tnames[t]);
  ga_sb_printf(b, "typedef %s _type_reduce;\n", ga_cu_type(c->red_dtype));
  if (k->e.preamble[0]) { ga_sb_puts(b, k->e.preamble); ga_sb_puts(b, "\n"); }
  ga_sb_puts(b, "struct acc_s { _type_reduce v; long long i; };\n");
  if (k->identity)   /* on a line of its own: a compile error there is blamed on it */
    ga_sb_printf(b, "__device__ __forceinline__ _type_reduce _ga_ident() {\n  return (_type_reduce)(%s); // _ga_identity\n}\n",
                 k->identity);
  ga_sb_puts(b, "__device__ __forceinline__ _type_reduce _ga_map(");
  for (int a = 0; a < nin; a++) ga_sb_printf(b, "%sconst %s %s", a ? ", " : "", tname(c, a), k->e.p[a].name);
  ga_sb_printf(b, ") {\n  return (_type_reduce)(\n%s\n  );\n}\n", k->map_expr);
  ga_sb_printf(b, "__device__ __forceinline__ _type_reduce _ga_red(const _type_reduce &a, const _type_reduce &b) {\n"
               "  return (_type_reduce)(\n%s\n  );\n}\n", k->reduce_expr);
  ga_sb_puts(b, "__device__ __forceinline__ void _ga_post(const _type_reduce &a");
  for (int a = nin; a < c->nargs; a++) ga_sb_printf(b, ", %s &%s", tname(c, a), k->e.p[a].name);
  for (int a = 0; a < nin; a++)
    if (!is_arr(c, a)) ga_sb_printf(b, ", const %s %s", tname(c, a), k->e.p[a].name);
  ga_sb_printf(b, ", const ga_ind<long long> &_in_ind, const ga_ind<long long> &_out_ind) {\n"
               "  (void)_in_ind; (void)_out_ind;\n%s\n;\n}\n", k->post_map_expr);
}

/* How input a reaches _ga_map: a value read once (hoisted), element k of
 * its u-th vector, element t of its row, or at the reduced offsets */
typedef enum { V_VEC, V_ROW, V_STRIDED } vform;

static void gen_fold(ga_strbuf *b, const ga_cred_shape *s, vform f) {
  const ga_redk_call *c = s->c->call;
  ga_sb_puts(b, "r_fold(_ga_a, _ga_has, _ga_map(");
  for (int a = 0; a < c->k->e.nin; a++) {
    if (a) ga_sb_puts(b, ", ");
    if (!is_arr(c, a)) ga_sb_printf(b, "_ga_s%d", a);
    else if (ga_cred_hoisted(s, arr_row(c, a))) ga_sb_printf(b, "_ga_h%d", a);
    else if (f == V_VEC) ga_sb_printf(b, "_ga_w%d[_ga_u].v[_ga_k]", a);
    else if (f == V_ROW) ga_sb_printf(b, "_ga_row%d[_ga_t]", a);
    else ga_sb_printf(b, "*(const %s *)(_ga_p%d + _ga_o%d + _ga_r%d)", tname(c, a), a, a, a);
  }
  ga_sb_puts(b, "));\n");
}

/* _ga_post of the accumulator into every output (COL: the k-th of a thread's) */
static void gen_store(ga_strbuf *b, const ga_redk_call *c, bool col) {
  int nin = c->k->e.nin;
  ga_sb_puts(b, "{ _ga_post(_ga_a.v");
  for (int a = nin; a < c->nargs; a++) {
    if (col) ga_sb_printf(b, ", *(%s *)(_ga_p%d + _ga_o%d + (_ga_k) * ix.so[%d][%d])", tname(c, a), a, a, arr_row(c, a), c->ondim - 1);
    else ga_sb_printf(b, ", *(%s *)(_ga_p%d + _ga_o%d)", tname(c, a), a, a);
  }
  for (int a = 0; a < nin; a++)
    if (!is_arr(c, a)) ga_sb_printf(b, ", _ga_s%d", a);
  ga_sb_puts(b, ", _in_ind, _out_ind); }\n");
}

/* GA_<X>DECL and GA_<X>ADD: offsets `_ga_<x><a>` of the arrays (kept
 * dims: every array; reduced dims: the array inputs) */
static void gen_offsets(ga_strbuf *b, const ga_redk_call *c, char X, char x, int narg, const char *st) {
  ga_sb_printf(b, "#define GA_%cDECL", X);
  for (int a = 0; a < narg; a++)
    if (is_arr(c, a)) ga_sb_printf(b, " ga_idx _ga_%c%d = 0;", x, a);
  ga_sb_printf(b, "\n#define GA_%cADD(_ga_x, _ga_d)", X);
  for (int a = 0; a < narg; a++)
    if (is_arr(c, a)) ga_sb_printf(b, " _ga_%c%d += (_ga_x) * ix.%s[%d][_ga_d];", x, a, st, arr_row(c, a));
  ga_sb_puts(b, "\n");
}

/* GA_VDECL and a GA_VLOAD_<kind>: the vectors of the inputs that are loaded */
static void gen_vectors(ga_strbuf *b, const ga_cred_shape *s, bool row) {
  const ga_redk_call *c = s->c->call;
  int nin = c->k->e.nin;
  ga_sb_puts(b, "#define GA_VDECL(_ga_n)");
  for (int a = 0; a < nin; a++)
    if (is_arr(c, a) && !ga_cred_hoisted(s, arr_row(c, a))) ga_sb_printf(b, " ga_vec<%s, %d> _ga_w%d[_ga_n];", tname(c, a), s->v, a);
  ga_sb_puts(b, row ? "\n#define GA_VLOAD_ROW(_ga_u, _ga_pos) {" : "\n#define GA_VLOAD_COL(_ga_u) {");
  for (int a = 0; a < nin; a++) {
    if (!is_arr(c, a) || ga_cred_hoisted(s, arr_row(c, a))) continue;
    ga_sb_printf(b, " _ga_w%d[_ga_u] = *(const ga_vec<%s, %d> *)", a, tname(c, a), s->v);
    if (row) ga_sb_printf(b, "(_ga_row%d + (_ga_pos));", a);
    else ga_sb_printf(b, "(_ga_p%d + _ga_o%d + _ga_r%d);", a, a, a);
  }
  ga_sb_puts(b, " }\n#define GA_VFOLD(_ga_a, _ga_has, _ga_u, _ga_k, _ga_j) ");
  gen_fold(b, s, V_VEC);
}

/* The macros of kernels/ga_reduce.cuh that this call's kernel uses
 * (ga_reduce.cuh lists them) */
static void gen_hooks(ga_strbuf *b, const ga_cred_shape *s) {
  const ga_redk_call *c = s->c->call;
  const ga_redk *k = c->k;
  int nin = k->e.nin;
  ga_sb_puts(b, ga_kernel_ga_redk);
  ga_sb_printf(b, "#define GA_RED_KERNEL(...) extern \"C\" __global__ void __launch_bounds__(%d) %s(", GA_CRED_BLOCK,
               k->e.name);
  for (int a = 0; a < c->nargs; a++) {
    if (is_arr(c, a)) ga_sb_printf(b, "%s *_ga_p%d, ", a < nin ? "const char" : "char", a);
    else ga_sb_printf(b, "const %s _ga_s%d, ", tname(c, a), a);
  }
  ga_sb_puts(b, "long long _ga_insize, __VA_ARGS__)\n");
  ga_sb_puts(b, "#define GA_RED_BEGIN const ga_ind<long long> _in_ind = {_ga_insize}, _out_ind = {(long long)nout};\n");
  gen_offsets(b, c, 'O', 'o', c->nargs, "so");
  if (s->kind == GA_CRED_ROW && s->contig) {
    /* each row's start, or its one value */
    ga_sb_puts(b, "#define GA_ROW_SETUP");
    for (int a = 0; a < nin; a++) {
      if (!is_arr(c, a)) continue;
      const char *T = tname(c, a);
      if (ga_cred_hoisted(s, arr_row(c, a)))
        ga_sb_printf(b, " const %s _ga_h%d = *(const %s *)(_ga_p%d + _ga_o%d);", T, a, T, a, a);
      else ga_sb_printf(b, " const %s *_ga_row%d = (const %s *)(_ga_p%d + _ga_o%d);", T, a, T, a, a);
    }
    ga_sb_puts(b, "\n");
    if (s->v > 1) gen_vectors(b, s, true);
    ga_sb_puts(b, "#define GA_SFOLD(_ga_a, _ga_has, _ga_t) ");
    gen_fold(b, s, V_ROW);
  } else if (s->kind == GA_CRED_ROW) {
    gen_offsets(b, c, 'R', 'r', nin, "sr");
    ga_sb_puts(b, "#define GA_RFOLD(_ga_a, _ga_has, _ga_j) ");
    gen_fold(b, s, V_STRIDED);
  } else if (s->kind == GA_CRED_COL) {
    gen_offsets(b, c, 'R', 'r', nin, "sr");
    gen_vectors(b, s, false);
    ga_sb_puts(b, "#define GA_STORE_K(_ga_a, _ga_k) ");
    gen_store(b, c, true);
  }
  ga_sb_puts(b, "#define GA_STORE(_ga_a) ");
  gen_store(b, c, false);
}

/* Everything about the call that changes the source besides the shape:
 * the kernel's text hash, argument kinds and dtypes, which inputs are
 * hoisted. */
static void key_part(ga_kpack *p, const ga_cred_shape *s) {
  const ga_redk_call *c = s->c->call;
  const ga_redk *k = c->k;
  unsigned char d[GA_EWK_MAXARGS * 3 + GA_EWK_MAXARGS + 1];
  size_t n = 0;
  for (int a = 0; a < c->nargs; a++) {
    d[n++] = (unsigned char)c->arg[a].kind;
    d[n++] = (unsigned char)c->arg[a].dtype;
    d[n++] = (unsigned char)(a < k->e.nin && is_arr(c, a) && c->arg[a].sr[0] == 0);
  }
  for (int t = 0; t < k->e.ntv; t++) d[n++] = (unsigned char)c->tv_dtype[t];
  d[n++] = (unsigned char)c->red_dtype;
  ga_kpack_put(p, (uint64_t)c->nargs, 6);
  ga_kpack_put(p, k->hash[0], 64);
  ga_kpack_put(p, ga_hash64(d, n, k->hash[1]), 64);
  ga_kpack_put(p, ga_hash64(d, n, k->hash[0] ^ 0x5bd1e9955bd1e995ULL), 64);
}

/* The call as the pipeline sees it; *ptrs and *insize back the kernel's
 * parameters (they must outlive the run). */
static void describe(const ga_redk_call *c, ga_cred *d, void **ptrs, long long *insize) {
  GA_CRED_FROM(d, c);
  d->narr = d->nin = 0;
  int np = 0;
  for (int a = 0; a < c->nargs; a++) {
    const ga_redk_arg *x = &c->arg[a];
    if (x->kind == GA_REDK_ARRAY) {
      bool in = a < c->k->e.nin;
      d->arr[d->narr++] = (ga_cred_arr){(uintptr_t)x->data, GA_ITEMSIZE(x->dtype), x->so, in ? x->sr : NULL};
      d->nin += in;
      ptrs[a] = x->data;
      d->param[np] = &ptrs[a];
      d->psize[np++] = sizeof(void *);
    } else {
      d->param[np] = (void *)x->value.bytes;
      d->psize[np++] = (size_t)GA_ITEMSIZE(x->dtype);
    }
  }
  *insize = c->in_size;
  d->param[np] = insize;
  d->psize[np++] = sizeof *insize;
  d->nparam = np;
  d->acc_itemsize = GA_ITEMSIZE(c->red_dtype);
  d->noident = c->k->identity == NULL;
  d->kfam = GA_KFAM_REDK;
  d->name = c->k->e.name;
  d->prelude = gen_prelude;
  d->hooks = gen_hooks;
  d->key = key_part;
}

char *ga_cuda_redk_source(const ga_redk_call *c, int second, int nsm) {
  ga_cred d;
  void *ptrs[GA_EWK_MAXARGS];
  long long insize;
  describe(c, &d, ptrs, &insize);
  ga_cred_shape s, f;
  ga_cuda_red_plan(&d, &s, nsm);
  if (second) {
    if (s.nseg == 1) { ga_err(GA_EINVAL, "this call has no combining kernel (not split)"); return NULL; }
    ga_cuda_red_fin(&s, &f);
  }
  char *src = ga_cuda_red_source(second ? &f : &s);
  if (!src) ga_err(GA_ENOMEM, "out of memory generating kernel source");
  return src;
}

const char *ga_cuda_redk_blame(const char *source, const char *log) {
  const char *m = strstr(source, " // _ga_identity\n");
  if (!m || !log) return NULL;
  int line = 1;
  for (const char *p = source; p < m; p++) line += *p == '\n';
  char pat[32];
  snprintf(pat, sizeof pat, "(%d): error", line);
  const char *e = strstr(log, "): error");   /* the first error */
  const char *hit = strstr(log, pat);
  return hit && hit + strlen(pat) - strlen("): error") == e ? "identity" : NULL;
}

int ga_cuda_redk(const ga_redk_call *c) {
  if (c->nout == 0) return GA_OK;
  ga_cred d;
  void *ptrs[GA_EWK_MAXARGS];
  long long insize;
  describe(c, &d, ptrs, &insize);
  return ga_cuda_red_run(&d);
}
