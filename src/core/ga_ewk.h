/* CuPy's user-defined ElementwiseKernel: the parameter language, type
 * resolution (placeholders), broadcasting, output checks and dimension
 * collapsing.  No Lua, no CUDA: the binding (lga_ewk.c) owns the kernel
 * objects and the texts they point to; the CUDA backend (ga_cuda_ewk.c)
 * generates the source and launches. */
#ifndef GA_EWK_H
#define GA_EWK_H
#include "base/ga_array.h"
#include "base/ga_calls.h"

/* Parse the parameter lists ("[raw] [const] TYPE NAME, ...") and check the
 * names; the texts are stored (not copied).  Messages name the problem; the
 * binding prefixes "ElementwiseKernel: ". */
int ga_ewk_init(ga_ewk *k, const char *in_params, const char *out_params, const char *operation,
                const char *name, const char *preamble, const char *loop_prep, const char *after_loop,
                bool reduce_dims);
/* The `math` option (0, 1 or 2: ga_ewk.math), folded into the hashes;
 * call after ga_ewk_init (ReductionKernel: after ga_redk_init, with its
 * own hashes in extra, else NULL). */
void ga_ewk_set_math(ga_ewk *k, int math, uint64_t *extra);
/* Does `op` assign `name` unconditionally (a top-level statement `name =
 * expr;` whose expr does not mention it) before any other use? */
bool ga_ewk_write_first(const char *op, const char *name);
/* May `text` write through raw parameter `name`?  False only when every
 * use is a read `name[...]` (or `name.size()`): not assigned, incremented,
 * its address taken, passed alone as a function argument (a reference
 * parameter could write it), nor used otherwise; preprocessor lines that
 * mention it count as writes. */
bool ga_ewk_may_write(const char *text, const char *name);
/* RawKernel's read-only check: the parameters of the __global__ function
 * `name` in src (count, -1 when no declaration is found), whether each of
 * the first max is a pointer to const, and the byte range of each one's
 * text in src (starts/ends may be NULL). */
int ga_ewk_param_consts(const char *src, const char *name, unsigned char *isconst, int max, size_t *starts,
                        size_t *ends);

/* ---- a call ---- */
enum { GA_EWK_ARRAY, GA_EWK_INT, GA_EWK_FLOAT, GA_EWK_BOOL };   /* operand kinds */

typedef struct ga_ewk_operand {
  int kind;
  const ga_array *arr;
  int64_t i;            /* INT, BOOL */
  double f;             /* FLOAT */
} ga_ewk_operand;

typedef struct ga_ewk_plan {
  int nargs;                        /* given: nin or nin + nout */
  int dtype[GA_EWK_MAXARGS];        /* resolved dtype of every parameter */
  int tv_dtype[GA_EWK_MAXARGS];     /* resolved dtype of every placeholder */
  int ndim;                         /* loop shape (broadcast, or (size,)) */
  int64_t shape[GA_MAXDIM];
  int device;
} ga_ewk_plan;

/* Resolve a call: nargs operands (outputs optional, all or none); size >= 0
 * is CuPy's size= (all arrays raw).  default_device is used when no operand
 * is an array.  Checks devices (CUDA only), dtypes (exact, as CuPy: typed
 * parameters never cast arrays), placeholders, the loop shape and the
 * outputs given. */
int ga_ewk_prepare(const ga_ewk *k, const ga_ewk_operand *ops, int nargs, int64_t size,
                   int default_device, ga_ewk_plan *plan);
/* The first half of ga_ewk_prepare (also ReductionKernel's): the argument
 * count, devices, dtypes and placeholders, Lua values; sets plan->nargs,
 * device, dtype and tv_dtype. */
int ga_ewk_resolve(const ga_ewk *k, const ga_ewk_operand *ops, int nargs, int default_device,
                   ga_ewk_plan *plan);
/* The shape an output that was not given gets. */
void ga_ewk_out_shape(const ga_ewk_plan *plan, int *ndim, int64_t *shape);

/* Build the call (scalars converted, strides, collapsing) from a plan and
 * every output; c->size == 0 means there is nothing to run. */
int ga_ewk_build(const ga_ewk *k, const ga_ewk_plan *plan, const ga_ewk_operand *ops,
                 ga_array *const *outs, void *stream, ga_ewk_call *c);

#endif
