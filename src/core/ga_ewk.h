/* CuPy's user-defined ElementwiseKernel: the parameter language, type
 * resolution (placeholders), broadcasting, output checks and dimension
 * collapsing.  No Lua, no CUDA: the binding (lga_ewk.c) owns the kernel
 * objects and the texts they point to; the CUDA backend (ga_cuda_ewk.c)
 * generates the source and launches. */
#ifndef GA_EWK_H
#define GA_EWK_H
#include "base/ga_array.h"

#define GA_EWK_MAXARGS 16       /* inputs + outputs */
#define GA_EWK_NAMELEN 64       /* identifiers, including the NUL */

typedef struct ga_ewk_param {
  char name[GA_EWK_NAMELEN];
  int dtype;            /* the declared dtype, or -1 for a placeholder */
  int tvar;             /* placeholder: index into ga_ewk.tnames; else -1 */
  bool raw, out;
  bool write_first;     /* output the operation assigns before it reads it:
                           the vector path need not load it */
} ga_ewk_param;

typedef struct ga_ewk {
  int nin, nout;
  ga_ewk_param p[GA_EWK_MAXARGS];   /* inputs then outputs */
  int ntv;                          /* type placeholders, in order of appearance */
  char tnames[GA_EWK_MAXARGS][GA_EWK_NAMELEN];
  const char *what;                 /* "ElementwiseKernel" (or the kernel family reusing this), for messages */
  /* not owned; they must outlive the object (the binding keeps them) */
  const char *name, *operation, *preamble, *loop_prep, *after_loop;
  bool reduce_dims;
  uint64_t hash[2];                 /* of everything that reaches the source */
} ga_ewk;

/* Parse the parameter lists ("[raw] [const] TYPE NAME, ...") and check the
 * names; the texts are stored (not copied).  Messages name the problem; the
 * binding prefixes "ElementwiseKernel: ". */
int ga_ewk_init(ga_ewk *k, const char *in_params, const char *out_params, const char *operation,
                const char *name, const char *preamble, const char *loop_prep, const char *after_loop,
                bool reduce_dims);
/* Does `op` assign `name` unconditionally (a top-level statement `name =
 * expr;` whose expr does not mention it) before any other use? */
bool ga_ewk_write_first(const char *op, const char *name);

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

/* ---- what the backend receives ---- */
enum {
  GA_EWK_K_CONTIG,      /* dense, itemsize stride (collapsed to 1-d) */
  GA_EWK_K_BCAST,       /* every stride 0: one element */
  GA_EWK_K_SCALAR,      /* `value`, a kernel parameter */
  GA_EWK_K_STRIDED,     /* byte strides over the collapsed loop shape */
  GA_EWK_K_RAWC,        /* raw, C-contiguous: pointer + size */
  GA_EWK_K_RAWS         /* raw, any layout: its own (collapsed) shape and strides */
};

typedef struct ga_ewk_arg {
  int kind;
  int dtype;
  char *data;
  ga_scalar value;
  int64_t rsize;                    /* raw: number of elements */
  int rndim;                        /* RAWS */
  int64_t rshape[GA_MAXDIM];        /* RAWS */
  int64_t strides[GA_MAXDIM];       /* STRIDED (loop shape) and RAWS (own) */
} ga_ewk_arg;

typedef struct ga_ewk_call {
  const ga_ewk *k;
  int nargs;                        /* nin + nout */
  int tv_dtype[GA_EWK_MAXARGS];
  int ndim;                         /* collapsed, >= 1 */
  int64_t size;                     /* > 0 */
  int64_t shape[GA_MAXDIM];
  bool dense;                       /* ndim 1, non-raw arrays CONTIG or BCAST */
  ga_ewk_arg arg[GA_EWK_MAXARGS];
  int device;
  void *stream;
} ga_ewk_call;

/* Build the call (scalars converted, strides, collapsing) from a plan and
 * every output; c->size == 0 means there is nothing to run. */
int ga_ewk_build(const ga_ewk *k, const ga_ewk_plan *plan, const ga_ewk_operand *ops,
                 ga_array *const *outs, void *stream, ga_ewk_call *c);

/* CUDA backend (ga_cuda_ewk.c) */
int ga_cuda_ewk(const ga_ewk_call *c);
char *ga_cuda_ewk_source(const ga_ewk_call *c);   /* malloc'ed; NULL + message on failure */

#endif
