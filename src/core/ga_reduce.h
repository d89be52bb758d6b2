/* Reductions (rows in ga_reduce.def) and their call pipeline: normalise the
 * axes, resolve the dtypes, collapse dimensions, hand a ga_red_call to the
 * backend of the input's device.  No Lua. */
#ifndef GA_REDUCE_H
#define GA_REDUCE_H
#include "base/ga_array.h"
#include "base/ga_ops.h"
#include <stdbool.h>

/* Accumulator/output rules (ga_reduce.def).  The same rules as dtype ID
 * tokens for the host loop generators: GA_RACC_<RULE>(T) and
 * GA_ROUT_<RULE>(T) name a column of GA_REDRULE_TOKENS (SUMACC ...), whose
 * rows the generators turn into per-T typedefs. */
enum { GA_RULE_SUM, GA_RULE_SAME, GA_RULE_BOOL, GA_RULE_COUNT, GA_RULE_ARG, GA_RULE_MEAN };

#define GA_RACC_SUM(T) GA_SUMACC_##T
#define GA_ROUT_SUM(T) GA_SUMOUT_##T
#define GA_RACC_SAME(T) GA_HALFUP_##T
#define GA_ROUT_SAME(T) T
#define GA_RACC_BOOL(T) BOOL
#define GA_ROUT_BOOL(T) BOOL
#define GA_RACC_COUNT(T) INT64
#define GA_ROUT_COUNT(T) INT64
#define GA_RACC_ARG(T) GA_HALFUP_##T
#define GA_ROUT_ARG(T) INT64
#define GA_RACC_MEAN(T) GA_MEANACC_##T
#define GA_ROUT_MEAN(T) GA_MEANOUT_##T

#define GA_REDRULE_TOKENS(X)                                                  \
  /* T           SUMACC      SUMOUT      HALFUP      MEANACC     MEANOUT */   \
  X(BOOL,        INT64,      INT64,      BOOL,       FLOAT64,    FLOAT64)     \
  X(INT8,        INT64,      INT64,      INT8,       FLOAT64,    FLOAT64)     \
  X(UINT8,       UINT64,     UINT64,     UINT8,      FLOAT64,    FLOAT64)     \
  X(INT16,       INT64,      INT64,      INT16,      FLOAT64,    FLOAT64)     \
  X(UINT16,      UINT64,     UINT64,     UINT16,     FLOAT64,    FLOAT64)     \
  X(INT32,       INT64,      INT64,      INT32,      FLOAT64,    FLOAT64)     \
  X(UINT32,      UINT64,     UINT64,     UINT32,     FLOAT64,    FLOAT64)     \
  X(INT64,       INT64,      INT64,      INT64,      FLOAT64,    FLOAT64)     \
  X(UINT64,      UINT64,     UINT64,     UINT64,     FLOAT64,    FLOAT64)     \
  X(FLOAT16,     FLOAT32,    FLOAT16,    FLOAT32,    FLOAT32,    FLOAT16)     \
  X(FLOAT32,     FLOAT32,    FLOAT32,    FLOAT32,    FLOAT32,    FLOAT32)     \
  X(FLOAT64,     FLOAT64,    FLOAT64,    FLOAT64,    FLOAT64,    FLOAT64)     \
  X(COMPLEX64,   COMPLEX64,  COMPLEX64,  COMPLEX64,  COMPLEX64,  COMPLEX64)   \
  X(COMPLEX128,  COMPLEX128, COMPLEX128, COMPLEX128, COMPLEX128, COMPLEX128)

#define GA_REDF_NOIDENT 1u
#define GA_REDF_IDX 2u
#define GA_REDF_ARG 4u
#define GA_REDF_SCAN 8u

typedef enum ga_red_id {
#define GA_RED(ID, name, tset, rule, flags, ...) GA_RED_##ID,
#include "base/ga_reduce.def"
#undef GA_RED
  GA_NREDS
} ga_red_id;

typedef struct ga_red_op {
  int id;
  const char *name;
  uint32_t types;       /* bitmask of input loop dtypes */
  int rule;             /* GA_RULE_* */
  unsigned flags;       /* GA_REDF_* */
  const char *identity, *map, *reduce, *post;   /* statements, for NVRTC */
} ga_red_op;

extern const ga_red_op ga_red_ops[GA_NREDS];
const ga_red_op *ga_red_find(const char *name);
/* The accumulator's dtype (float16 accumulates in float32) and the output's
 * dtype of row r for input loop dtype T. */
int ga_red_acc_dtype(const ga_red_op *r, int T);
int ga_red_out_dtype(const ga_red_op *r, int T);

/* ---- the pipeline ---- */
typedef struct ga_red_plan {
  const ga_red_op *op;
  int T;                          /* input loop dtype (the input is cast to it) */
  int acc, out_dtype;             /* accumulator dtype; the row's output dtype */
  int ndim;                       /* of the input */
  int64_t shape[GA_MAXDIM];
  bool reduced[GA_MAXDIM];        /* per input axis */
  int out_ndim;                   /* with keepdims applied */
  int64_t out_shape[GA_MAXDIM];
  int64_t nred;                   /* elements per output (1 for a 0-d reduction) */
  int device;
} ga_red_plan;

/* Resolve a reduction of x over the given 0-based axes (naxes < 0: every
 * axis; axes already normalised, checked for repeats by ga_red_axes).
 * dtype_req >= 0 (sum, prod, mean ...): the loop dtype (NumPy's dtype=).
 * Errors: the row has no loop for x's dtype; an empty reduction of a row
 * without identity (named as NumPy: "zero-size array to reduction operation
 * maximum which has no identity"). */
int ga_red_prepare(const ga_red_op *op, const ga_array *x, int naxes, const int *axes, bool keepdims,
                   int dtype_req, ga_red_plan *plan);
/* Normalise 1-based axes (negative from the end) into 0-based ones (the
 * errors of ga_axis, and "repeated axis 2"). */
int ga_red_axes(int ndim, int naxes, const int64_t *axes1, int *axes0);
/* Run: `out` has plan->out_dtype and plan->out_shape (any strides, same
 * device). */
int ga_red_run(const ga_red_plan *plan, const ga_array *x, ga_array *out, void *stream);

/* ---- what a backend receives ---- */
typedef struct ga_red_call {
  const ga_red_op *op;
  int T, acc, out_dtype;          /* input (already of dtype T), accumulator, output */
  const char *in;                 /* first element of the input */
  char *out;                      /* first element of the output */
  int ondim;                      /* kept dims (collapsed, C order, >= 1) */
  int64_t oshape[GA_MAXDIM];
  int64_t istr_o[GA_MAXDIM];      /* input byte strides over the kept dims */
  int64_t ostr[GA_MAXDIM];        /* output byte strides */
  int rndim;                      /* reduced dims (collapsed, C order, >= 1) */
  int64_t rshape[GA_MAXDIM];
  int64_t istr_r[GA_MAXDIM];      /* input byte strides over the reduced dims */
  int64_t nout, nred;             /* products of oshape and rshape; nout > 0 */
  int device;
  void *stream;
} ga_red_call;

int ga_host_reduce(const ga_red_call *c);
int ga_cuda_reduce(const ga_red_call *c);

#endif
