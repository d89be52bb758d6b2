/* CuPy's user-defined ReductionKernel: the parameters (ElementwiseKernel's
 * language and type resolution, ga_ewk.h), the reduction's axes, shapes and
 * dimension collapsing.  No Lua, no CUDA: the binding (lga_redk.c) owns the
 * kernel objects and their texts; ga_cuda_redk.c generates and launches. */
#ifndef GA_REDK_H
#define GA_REDK_H
#include "core/ga_ewk.h"
#include "base/ga_calls.h"

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

/* Build the call from a plan and every output (given or allocated with
 * plan->out_shape and the outputs' dtypes). */
int ga_redk_build(const ga_redk *k, const ga_redk_plan *plan, const ga_ewk_operand *ops, ga_array *const *outs,
                  void *stream, ga_redk_call *c);

#endif
