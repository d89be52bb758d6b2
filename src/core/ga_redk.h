/* CuPy's user-defined ReductionKernel: the parameters (ElementwiseKernel's
 * language and type resolution, ga_ewk.h), the reduction's axes, shapes and
 * dimension collapsing.  No Lua, no CUDA: the binding (lga_redk.c) owns the
 * kernel objects and their texts; ga_cuda_redk.c generates and launches. */
#ifndef GA_REDK_H
#define GA_REDK_H
#include "core/ga_ewk.h"
#include "base/ga_strbuf.h"

typedef struct ga_redk {
  ga_ewk e;             /* parameters, name, preamble; e.operation is map_expr */
  /* not owned (the binding keeps them); identity NULL: none */
  const char *map_expr, *reduce_expr, *post_map_expr, *identity;
  int red_dtype;        /* reduce_type: a dtype, or -1 ... */
  int red_tvar;         /* ... a placeholder of the parameters */
  uint64_t hash[2];     /* of everything that reaches the source */
} ga_redk;

/* Parse and check (messages name the problem; the binding prefixes
 * "ReductionKernel: ").  reduce_type NULL: the first output's type (CuPy).
 * The identity is checked for what can be told without types: not empty,
 * brackets balanced, one expression (no ';' or braces); NVRTC judges the
 * rest at the first compile. */
int ga_redk_init(ga_redk *k, const char *in_params, const char *out_params, const char *map_expr,
                 const char *reduce_expr, const char *post_map_expr, const char *identity, const char *name,
                 const char *reduce_type, const char *preamble, bool reduce_dims);

/* ---- a call ---- */
typedef struct ga_redk_plan {
  ga_ewk_plan p;                  /* dtypes, placeholders, device */
  int red_dtype;                  /* resolved reduce_type */
  int ndim;                       /* the inputs' broadcast shape */
  int64_t shape[GA_MAXDIM];
  bool reduced[GA_MAXDIM];
  int out_ndim;                   /* with keepdims */
  int64_t out_shape[GA_MAXDIM];
  int64_t nred, nout;
} ga_redk_plan;

/* Resolve a call: nargs operands (inputs, or inputs and outputs); axes1:
 * naxes 1-based axes of the broadcast inputs (naxes < 0: all).  Checks as
 * ElementwiseKernel (devices, exact dtypes, placeholders), broadcasting of
 * the inputs, the axes, the outputs' shapes; an empty reduction without
 * identity is CuPy's error. */
int ga_redk_prepare(const ga_redk *k, const ga_ewk_operand *ops, int nargs, int naxes, const int64_t *axes1,
                    bool keepdims, int default_device, ga_redk_plan *plan);

enum { GA_REDK_ARRAY = 16, GA_REDK_SCALAR };   /* argument kinds of a call */

typedef struct ga_redk_arg {
  int kind, dtype;
  char *data;
  ga_scalar value;                  /* SCALAR */
  int64_t so[GA_MAXDIM];            /* byte strides over the kept dims (inputs and outputs) */
  int64_t sr[GA_MAXDIM];            /* inputs: over the reduced dims */
} ga_redk_arg;

typedef struct ga_redk_call {
  const ga_redk *k;
  int nargs;                        /* nin + nout */
  int tv_dtype[GA_EWK_MAXARGS];
  int red_dtype;
  ga_redk_arg arg[GA_EWK_MAXARGS];
  int ondim;                        /* kept dims (collapsed, C order, >= 1) */
  int64_t oshape[GA_MAXDIM];
  int rndim;                        /* reduced dims (collapsed, C order, >= 1) */
  int64_t rshape[GA_MAXDIM];
  int64_t nout, nred;               /* nout > 0 when there is something to run */
  int64_t in_size;                  /* elements of the broadcast inputs (_in_ind.size()) */
  int device;
  void *stream;
} ga_redk_call;

/* Build the call from a plan and every output (given or allocated with
 * plan->out_shape and the outputs' dtypes). */
int ga_redk_build(const ga_redk *k, const ga_redk_plan *plan, const ga_ewk_operand *ops, ga_array *const *outs,
                  void *stream, ga_redk_call *c);

/* CUDA backend (ga_cuda_redk.c) */
int ga_cuda_redk(const ga_redk_call *c);
/* source of the call's first kernel (second: the combining kernel of a
 * split reduction, or NULL + message when the call has none); sms: the
 * device's multiprocessors (the plan depends on them) */
char *ga_cuda_redk_source(const ga_redk_call *c, int second, int sms);
/* Which user text an NVRTC error points at: "identity" when the log's
 * first error lies in the identity's line, else NULL. */
const char *ga_cuda_redk_blame(const char *source, const char *log);
/* shared with ga_cuda_reduce.c: the combining tree of a group of g threads */
void ga_cuda_red_group_combine(ga_strbuf *b, int g);
void ga_cuda_red_col_combine(ga_strbuf *b, int v, const char *acc, const char *has);
/* How a reduction of n elements per output, read by `threads` threads in
 * groups of g with v-element loads, splits into segments on nsm
 * multiprocessors: *seg and *nseg are left alone when it does not split. */
void ga_cuda_red_split(int64_t n, int64_t threads, int g, int v, int nsm, int64_t *seg, int64_t *nseg);
/* The same for COL kernels: nout outputs in blocks of 32 x v, nred rows. */
void ga_cuda_red_col_split(int64_t nout, int64_t nred, int v, int nsm, int64_t *seg, int64_t *nseg);

#endif
