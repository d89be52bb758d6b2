/* The op table as data, built from ga_ops.def. */
#include "base/ga_ops.h"
#include <string.h>

#define GA_X_BIT(ID, ct, ...) | (1u << GA_##ID)
const ga_op ga_ops[GA_NOPS] = {
#define GA_OP(ID, name, nin, nout, tset, sig, flags, mm, aliases, ...) \
  {GA_OP_##ID, name, nin, nout, 0u tset(GA_X_BIT, ~), GA_SIG_##sig, flags, mm, aliases, #__VA_ARGS__},
#include "base/ga_ops.def"
#undef GA_OP
};

const ga_op *ga_op_find(const char *name) {
  for (int i = 0; i < GA_NOPS; i++)
    if (strcmp(ga_ops[i].name, name) == 0) return &ga_ops[i];
  return NULL;
}

static int real_of(int t) {
  return t == GA_COMPLEX64 ? GA_FLOAT32 : t == GA_COMPLEX128 ? GA_FLOAT64 : t;
}

int ga_op_arg_dtype(const ga_op *op, int T, int k) {
  if (k < op->nin) return !ga_op_in_fixed(op, k) ? T : op->sig == GA_SIG_WHERE ? GA_BOOL : GA_INT64;
  k -= op->nin;
  switch (op->sig) {
  case GA_SIG_BOOL: case GA_SIG_CMP: return GA_BOOL;
  case GA_SIG_FLOATY: return (GA_IS_FLOAT(T) || GA_IS_COMPLEX(T)) ? T : GA_FLOAT64;
  case GA_SIG_REAL: return real_of(T);
  case GA_SIG_FREXP: return k == 1 ? GA_INT32 : T;
  default: return T;
  }
}

bool ga_op_in_fixed(const ga_op *op, int k) {
  return (op->sig == GA_SIG_TI && k == 1) || (op->sig == GA_SIG_TII && k >= 1) ||
         (op->sig == GA_SIG_WHERE && k == 0);
}
