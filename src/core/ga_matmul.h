/* Matrix products (NumPy's matmul): shape rules, which operands the
 * backends can take as they are, and the batch walk that hands
 * ga_matmul_call descriptors to the backend's matmul slot. */
#ifndef GA_MATMUL_H
#define GA_MATMUL_H
#include "base/ga_calls.h"

/* NumPy's matmul rule for a (..., n?, k) @ b (..., k, m?): the output's
 * (ndim, shape); the message (NumPy's text) when the core dimensions do
 * not match or the batch dimensions do not broadcast. */
int ga_matmul_shape(const ga_array *a, const ga_array *b, int *ndim, int64_t *shape);
/* Can x be handed to the backend as it is, for a product in dtype dt? */
bool ga_matmul_operand_ok(const ga_array *x, int dt);
/* Can out (of the product's shape and dtype) be written directly while a
 * and b are read? */
bool ga_matmul_out_ok(const ga_array *out, const ga_array *a, const ga_array *b);
/* out = a @ b: a and b of out's dtype and ga_matmul_operand_ok, out
 * ga_matmul_out_ok and of ga_matmul_shape's shape, size > 0 and k > 0. */
int ga_matmul_run(const ga_array *a, const ga_array *b, ga_array *out, void *stream);
/* The GPU's kernel text for one call (the specs compile it); NULL with
 * the message when the backend has none. */
char *ga_matmul_source(const ga_matmul_call *c);
/* The GPU's integer tensor-core product kernels (digit split, combine)
 * for an integer dtype, for the specs; NULL with the message otherwise. */
char *ga_matmul_intmm_source(int dtype);

#endif
