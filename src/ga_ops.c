/* The op table as data, built from ga_ops.def. */
#include "ga_ops.h"
#include <string.h>

#define GA_X_BIT(ID, ct, ...) | (1u << GA_##ID)
const ga_op ga_ops[GA_NOPS] = {
#define GA_OP(ID, name, nin, nout, tset, outrule, flags, ...) \
  {GA_OP_##ID, name, nin, nout, 0u tset(GA_X_BIT, ~), outrule, flags, #__VA_ARGS__},
#include "ga_ops.def"
#undef GA_OP
};

const ga_op *ga_op_find(const char *name) {
  for (int i = 0; i < GA_NOPS; i++)
    if (strcmp(ga_ops[i].name, name) == 0) return &ga_ops[i];
  return NULL;
}

int ga_op_out_dtype(const ga_op *op, int t) {
  switch (op->outrule) {
  case GA_OUT_BOOL: return GA_BOOL;
  case GA_OUT_FLOATY: return (GA_IS_FLOAT(t) || GA_IS_COMPLEX(t)) ? t : GA_FLOAT64;
  default: return t;
  }
}
