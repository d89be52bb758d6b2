/* The elementwise call pipeline (DESIGN.md): resolve the loop, broadcast,
 * check outputs, collapse dimensions, hand a ga_ew_call to the backend of the
 * operands' device.  No Lua: the binding allocates the outputs between
 * ga_ew_prepare and ga_ew_run. */
#ifndef GA_ELEMENTWISE_H
#define GA_ELEMENTWISE_H
#include "base/ga_array.h"
#include "base/ga_calls.h"
#include "base/ga_ops.h"

/* operand kinds; a BOOL (Lua boolean, value in .i) is weak like NumPy's
 * Python bool: it takes the other operands' dtype */
enum { GA_ARG_ARRAY, GA_ARG_INT, GA_ARG_FLOAT, GA_ARG_BOOL };

/* An input: an array, or a Lua number (a weak scalar, NEP 50). */
typedef struct ga_operand {
  int kind;
  const ga_array *arr;
  int64_t i;
  double f;
} ga_operand;

typedef struct ga_ew_plan {
  const ga_op *op;
  int loop_dtype;                 /* T: the loop's dtype (ga_ops.def) */
  int in_dtype[GA_MAXARGS];       /* loop input dtypes */
  int out_dtype[GA_MAXARGS];      /* loop output dtypes */
  int ndim;                       /* broadcast shape of the inputs */
  int64_t shape[GA_MAXDIM];
  int device;                     /* device of the array inputs */
} ga_ew_plan;

/* Resolve op on inputs (nin of them): loop dtype (NumPy's linear search over
 * the op's loops with safe casting, weak scalars per NEP 50; with dtype_req
 * >= 0 the loop whose output is dtype_req, inputs cast by `casting`),
 * broadcast shape, device.  At least one input must be an array. */
int ga_ew_prepare(const ga_op *op, const ga_operand *ins, int dtype_req, int casting,
                  ga_ew_plan *plan);
/* Check a caller-supplied output k: same device, loop output castable to it
 * under `casting`, shape equal to the broadcast shape -- or, for the first
 * output, a shape the inputs broadcast up to (NumPy), which then becomes
 * the plan's shape. */
int ga_ew_check_out(ga_ew_plan *plan, int k, const ga_array *out, int casting);
/* Run: outs[] are allocated (plan->out_dtype, plan->shape) or checked. */
int ga_ew_run(const ga_ew_plan *plan, const ga_operand *ins, ga_array *const *outs, void *stream);

/* Conveniences over the COPY row: dst = src (broadcast, cast to dst's
 * dtype), and dst = a scalar.  Same device. */
int ga_copy(ga_array *dst, const ga_array *src, void *stream);
int ga_fill(ga_array *dst, const ga_operand *value, void *stream);
/* dst = start + i * step over dst's flat index, computed in loop dtype
 * `loop` (dst's dtype, or float64 for linspace into integers). */
int ga_arange_fill(ga_array *dst, const ga_operand *start, const ga_operand *step, int loop, void *stream);

#endif
