/* The op table (rows in ga_ops.def) and the type sets and output rules the
 * rows use.  No Lua, no backend. */
#ifndef GA_OPS_H
#define GA_OPS_H
#include "ga_dtype.h"

/* Type sets: Y(DTYPE_ID, host C type, ...) for each loop dtype, NumPy order. */
#define GA_T_BOOL(Y, ...) Y(BOOL, bool, __VA_ARGS__)
#define GA_T_INT(Y, ...)                                                    \
  Y(INT8, int8_t, __VA_ARGS__) Y(UINT8, uint8_t, __VA_ARGS__)              \
  Y(INT16, int16_t, __VA_ARGS__) Y(UINT16, uint16_t, __VA_ARGS__)          \
  Y(INT32, int32_t, __VA_ARGS__) Y(UINT32, uint32_t, __VA_ARGS__)          \
  Y(INT64, int64_t, __VA_ARGS__) Y(UINT64, uint64_t, __VA_ARGS__)
#define GA_T_FLOAT(Y, ...)                                                  \
  Y(FLOAT16, ga_f16, __VA_ARGS__) Y(FLOAT32, float, __VA_ARGS__)           \
  Y(FLOAT64, double, __VA_ARGS__)
#define GA_T_COMPLEX(Y, ...) Y(COMPLEX64, ga_c64, __VA_ARGS__) Y(COMPLEX128, ga_c128, __VA_ARGS__)
#define GA_T_INEXACT(Y, ...) GA_T_FLOAT(Y, __VA_ARGS__) GA_T_COMPLEX(Y, __VA_ARGS__)
#define GA_T_REAL(Y, ...) GA_T_INT(Y, __VA_ARGS__) GA_T_FLOAT(Y, __VA_ARGS__)
#define GA_T_NUM(Y, ...) GA_T_INT(Y, __VA_ARGS__) GA_T_INEXACT(Y, __VA_ARGS__)
#define GA_T_ALL(Y, ...) GA_T_BOOL(Y, __VA_ARGS__) GA_T_NUM(Y, __VA_ARGS__)

/* Output rules: the output dtype of the loop whose inputs are T. */
enum { GA_OUT_SAME, GA_OUT_BOOL, GA_OUT_FLOATY };
/* Host C type of each rule's output, by dtype id (FLOATY: ints -> double). */
#define GA_OUT_SAME_CT(ID, ct) ct
#define GA_OUT_BOOL_CT(ID, ct) bool
#define GA_OUT_FLOATY_CT(ID, ct) GA_FLOATY_##ID
#define GA_FLOATY_BOOL double
#define GA_FLOATY_INT8 double
#define GA_FLOATY_UINT8 double
#define GA_FLOATY_INT16 double
#define GA_FLOATY_UINT16 double
#define GA_FLOATY_INT32 double
#define GA_FLOATY_UINT32 double
#define GA_FLOATY_INT64 double
#define GA_FLOATY_UINT64 double
#define GA_FLOATY_FLOAT16 ga_f16
#define GA_FLOATY_FLOAT32 float
#define GA_FLOATY_FLOAT64 double
#define GA_FLOATY_COMPLEX64 ga_c64
#define GA_FLOATY_COMPLEX128 ga_c128

/* Flags */
#define GA_OPF_NOBOOL 1u   /* NumPy refuses this op when every input is bool */

typedef enum ga_op_id {
#define GA_OP(ID, name, nin, nout, tset, outrule, flags, ...) GA_OP_##ID,
#include "ga_ops.def"
#undef GA_OP
  GA_NOPS
} ga_op_id;

typedef struct ga_op {
  int id;
  const char *name;
  int nin, nout;
  uint32_t types;      /* bitmask of loop input dtypes */
  int outrule;
  unsigned flags;
  const char *expr;    /* the expression's text, for NVRTC */
} ga_op;

extern const ga_op ga_ops[GA_NOPS];
const ga_op *ga_op_find(const char *name);
/* Output dtype of `op`'s loop with input dtype t. */
int ga_op_out_dtype(const ga_op *op, int t);

#endif
