/* The op table (rows in ga_ops.def) and the type sets and output rules the
 * rows use.  No Lua, no backend. */
#ifndef GA_OPS_H
#define GA_OPS_H
#include "base/ga_dtype.h"

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

#define GA_T_BOOLINT(Y, ...) GA_T_BOOL(Y, __VA_ARGS__) GA_T_INT(Y, __VA_ARGS__)
#define GA_T_BOOLREAL(Y, ...) GA_T_BOOL(Y, __VA_ARGS__) GA_T_REAL(Y, __VA_ARGS__)
#define GA_T_FPOW(Y, ...) Y(FLOAT64, double, __VA_ARGS__) Y(COMPLEX128, ga_c128, __VA_ARGS__)

/* Signatures: the dtype of each loop argument for loop dtype T.
 *   SAME: every argument T          BOOL: inputs T, outputs bool
 *   FLOATY: inputs T, outputs T for inexact T, float64 for bool/integer T
 *   REAL: inputs T, outputs the real dtype of T (complex64 -> float32)
 *   TI: in0 T, in1 int64, outputs T   FREXP: in0 T, out0 T, out1 int32
 *   CMP: a comparison, as BOOL, plus NumPy's exact int64/uint64 loops (qQ,
 *   Qq), and a Lua integer out of the array's range still compares.
 *   TII: in0 T, in1 and in2 int64, outputs T
 *   WHERE: in0 bool, in1 and in2 T, outputs T */
enum { GA_SIG_SAME, GA_SIG_BOOL, GA_SIG_FLOATY, GA_SIG_REAL, GA_SIG_TI, GA_SIG_FREXP, GA_SIG_CMP,
       GA_SIG_TII, GA_SIG_WHERE };

/* The same rules for the host loop generator, as dtype ID tokens:
 * GA_SIGIN_<SIG>(k, T) / GA_SIGOUT_<SIG>(k, T) name the dtype of input k /
 * output k (k a literal 0, 1, 2). */
#define GA_SIGIN_SAME(k, T) T
#define GA_SIGIN_BOOL(k, T) T
#define GA_SIGIN_FLOATY(k, T) T
#define GA_SIGIN_REAL(k, T) T
#define GA_SIGIN_TI(k, T) GA_SIGIN_TI_##k(T)
#define GA_SIGIN_TI_0(T) T
#define GA_SIGIN_TI_1(T) INT64
#define GA_SIGIN_FREXP(k, T) T
#define GA_SIGIN_CMP(k, T) T
#define GA_SIGIN_TII(k, T) GA_SIGIN_TII_##k(T)
#define GA_SIGIN_TII_0(T) T
#define GA_SIGIN_TII_1(T) INT64
#define GA_SIGIN_TII_2(T) INT64
#define GA_SIGOUT_TII(k, T) T
#define GA_SIGIN_WHERE(k, T) GA_SIGIN_WHERE_##k(T)
#define GA_SIGIN_WHERE_0(T) BOOL
#define GA_SIGIN_WHERE_1(T) T
#define GA_SIGIN_WHERE_2(T) T
#define GA_SIGOUT_WHERE(k, T) T
#define GA_SIGOUT_CMP(k, T) BOOL
/* the mixed comparison loops: MIXQ = (int64, uint64), MIXQR = (uint64, int64) */
#define GA_SIGIN_MIXQ(k, T) GA_SIGIN_MIXQ_##k
#define GA_SIGIN_MIXQ_0 INT64
#define GA_SIGIN_MIXQ_1 UINT64
#define GA_SIGOUT_MIXQ(k, T) BOOL
#define GA_SIGIN_MIXQR(k, T) GA_SIGIN_MIXQR_##k
#define GA_SIGIN_MIXQR_0 UINT64
#define GA_SIGIN_MIXQR_1 INT64
#define GA_SIGOUT_MIXQR(k, T) BOOL
#define GA_SIGOUT_SAME(k, T) T
#define GA_SIGOUT_BOOL(k, T) BOOL
#define GA_SIGOUT_FLOATY(k, T) GA_FLOATY_##T
#define GA_SIGOUT_REAL(k, T) GA_REALOF_##T
#define GA_SIGOUT_TI(k, T) T
#define GA_SIGOUT_FREXP(k, T) GA_SIGOUT_FREXP_##k(T)
#define GA_SIGOUT_FREXP_0(T) T
#define GA_SIGOUT_FREXP_1(T) INT32

#define GA_FLOATY_BOOL FLOAT64
#define GA_FLOATY_INT8 FLOAT64
#define GA_FLOATY_UINT8 FLOAT64
#define GA_FLOATY_INT16 FLOAT64
#define GA_FLOATY_UINT16 FLOAT64
#define GA_FLOATY_INT32 FLOAT64
#define GA_FLOATY_UINT32 FLOAT64
#define GA_FLOATY_INT64 FLOAT64
#define GA_FLOATY_UINT64 FLOAT64
#define GA_FLOATY_FLOAT16 FLOAT16
#define GA_FLOATY_FLOAT32 FLOAT32
#define GA_FLOATY_FLOAT64 FLOAT64
#define GA_FLOATY_COMPLEX64 COMPLEX64
#define GA_FLOATY_COMPLEX128 COMPLEX128
#define GA_REALOF_BOOL BOOL
#define GA_REALOF_INT8 INT8
#define GA_REALOF_UINT8 UINT8
#define GA_REALOF_INT16 INT16
#define GA_REALOF_UINT16 UINT16
#define GA_REALOF_INT32 INT32
#define GA_REALOF_UINT32 UINT32
#define GA_REALOF_INT64 INT64
#define GA_REALOF_UINT64 UINT64
#define GA_REALOF_FLOAT16 FLOAT16
#define GA_REALOF_FLOAT32 FLOAT32
#define GA_REALOF_FLOAT64 FLOAT64
#define GA_REALOF_COMPLEX64 FLOAT32
#define GA_REALOF_COMPLEX128 FLOAT64

/* Flags */
#define GA_OPF_NOBOOL 1u   /* NumPy refuses this op when every input is bool */
/* A logical op (BOOL rows): each operand's truth is tested in its own
 * dtype.  Operands of one dtype use loop T; any other mix (or a Lua number)
 * the bool loop, every operand cast to bool -- NumPy's logical promoter.
 * The cast to bool is the truth test, so no casting rule applies to it. */
#define GA_OPF_TRUTH 2u

typedef enum ga_op_id {
#define GA_OP(ID, name, nin, nout, tset, sig, flags, mm, aliases, ...) GA_OP_##ID,
#include "base/ga_ops.def"
#undef GA_OP
  GA_NOPS
} ga_op_id;

typedef struct ga_op {
  int id;
  const char *name;
  int nin, nout;
  uint32_t types;      /* bitmask of loop input dtypes */
  int sig;             /* GA_SIG_* */
  unsigned flags;
  const char *mm;      /* the ndarray metamethod it backs ("__add"), or NULL */
  const char *aliases; /* other names, space-separated; ":name" a method */
  const char *expr;    /* the expression's text, for NVRTC */
} ga_op;

extern const ga_op ga_ops[GA_NOPS];
const ga_op *ga_op_find(const char *name);
/* Dtype of argument k (inputs first, then outputs) of op's loop for T. */
int ga_op_arg_dtype(const ga_op *op, int T, int k);
/* Is input k's loop dtype fixed whatever T is (ldexp's exponent)? */
bool ga_op_in_fixed(const ga_op *op, int k);

#endif
