/* The host's inner loops, generated from the op table: for every row of
 * ga_ops.def and every dtype T of its type set, one function that runs the
 * row's expression over n strided elements.  A new row needs no edit here.
 *
 * Each function has a few copies of the same loop: one per common stride
 * pattern with the strides as constants (so the compiler can vectorise it),
 * a general strided one, and one through memcpy for misaligned data.
 * Arguments are not `restrict`: an output may be its input. */
#include "host/ga_host.h"
#include "host/ga_host_math.h"
#include "host/ga_host_types.h"
#include <stdint.h>
#include <string.h>

/* The rows' float semantics (ga_host_rows.h; complex / is Smith's), and
 * vectorisation: gcc's -O2 vectorises only loops of known trip count, and
 * these loops are the host backend's hot path. */
#include "host/ga_host_rows.h"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif
/* On x86-64 Linux every function also gets an AVX2+F16C clone, chosen when
 * the library loads: without F16C each float16 conversion is a libgcc call
 * (about 20x slower). */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define HL_CLONES __attribute__((target_clones("default", "arch=x86-64-v3")))
#else
#define HL_CLONES
#endif


/* Per-argument lists, for nin in 1..3 and nout in 1..2. */
#define HL_L1(M, P, Q) M(0, P, Q)
#define HL_L2(M, P, Q) M(0, P, Q) M(1, P, Q)
#define HL_L3(M, P, Q) M(0, P, Q) M(1, P, Q) M(2, P, Q)


/* Stride patterns.  PAT(k) is input k's stride; outputs are contiguous in
 * every pattern but the general one.  C: all contiguous; S1: in0 contiguous,
 * the others broadcast (x + 2, clip(x, lo, hi)); S0: in0 broadcast, the
 * others contiguous (2 - x); SA: every input broadcast (arange). */
#define HL_PAT_C(k) ((int64_t)sizeof(in##k##_mt))
#define HL_PAT_S1(k) ((k) == 0 ? (int64_t)sizeof(in##k##_mt) : 0)
#define HL_PAT_S0(k) ((k) == 0 ? 0 : (int64_t)sizeof(in##k##_mt))
#define HL_PAT_SA(k) ((int64_t)0)

#define HL_DECL_IN(k, _, __)                                                  \
  const char *a##k = args[k];                                                 \
  const int64_t s##k = strides[k];                                            \
  in##k##_mt m##k; /* broadcast inputs are loaded once, before the loop */    \
  memcpy(&m##k, a##k, sizeof m##k);                                           \
  const in##k##_t h##k = (in##k##_t)m##k;
#define HL_DECL_OUT(k, NIN, _)                                                \
  char *b##k = args[(NIN) + k];                                               \
  const int64_t t##k = strides[(NIN) + k];
#define HL_TYPE_IN(k, SIG, T)                                                 \
  typedef HL_MT(GA_SIGIN_##SIG(k, T)) in##k##_mt;                             \
  typedef HL_CT(GA_SIGIN_##SIG(k, T)) in##k##_t;
#define HL_TYPE_OUT(k, SIG, T)                                                \
  typedef HL_MT(GA_SIGOUT_##SIG(k, T)) out##k##_mt;                           \
  typedef HL_CT(GA_SIGOUT_##SIG(k, T)) out##k##_t;
#define HL_MATCH_IN(k, PAT, _) &&s##k == PAT(k)
#define HL_MATCH_OUT(k, _, __) &&t##k == (int64_t)sizeof(out##k##_mt)
#define HL_ALIGNED_IN(k, _, __)                                               \
  &&(uintptr_t)a##k % __alignof__(in##k##_mt) == 0 && s##k % (int64_t)__alignof__(in##k##_mt) == 0
#define HL_ALIGNED_OUT(k, _, __)                                              \
  &&(uintptr_t)b##k % __alignof__(out##k##_mt) == 0 && t##k % (int64_t)__alignof__(out##k##_mt) == 0

/* Loads and stores: typed when aligned (gcc compiles a memcpy of a complex
 * value into a spill through the stack, ten times slower), by memcpy when
 * not (a reinterpreted view may be misaligned). */
#define HL_AT(T, p) (*(T *)(void *)(p))
#define HL_LOAD_P(k, PAT, _)                                                  \
  in##k##_t in##k = PAT(k) == 0 ? h##k : (in##k##_t)HL_AT(const in##k##_mt, a##k + j * PAT(k));
#define HL_LOAD_S(k, _, __) in##k##_t in##k = (in##k##_t)HL_AT(const in##k##_mt, a##k + j * s##k);
#define HL_LOAD_U(k, _, __)                                                   \
  in##k##_mt u##k;                                                            \
  memcpy(&u##k, a##k + j * s##k, sizeof u##k);                                \
  in##k##_t in##k = (in##k##_t)u##k;
#define HL_OUTVAR(k, _, __) out##k##_t out##k;
#define HL_STORE_P(k, _, __) HL_AT(out##k##_mt, b##k + j * (int64_t)sizeof(out##k##_mt)) = (out##k##_mt)out##k;
#define HL_STORE_S(k, _, __) HL_AT(out##k##_mt, b##k + j * t##k) = (out##k##_mt)out##k;
#define HL_STORE_U(k, _, __)                                                  \
  { out##k##_mt v##k = (out##k##_mt)out##k; memcpy(b##k + j * t##k, &v##k, sizeof v##k); }

#define HL_ITER(NIN, NOUT, LOAD, PAT, STORE, ...)                             \
  for (int64_t j = 0; j < n; j++) {                                           \
    HL_L##NIN(LOAD, PAT, ~)                                                   \
    HL_L##NOUT(HL_OUTVAR, ~, ~)                                               \
    int64_t _i = i0 + j;                                                      \
    (void)_i;                                                                 \
    __VA_ARGS__;                                                              \
    HL_L##NOUT(STORE, ~, ~)                                                   \
  }

#define HL_TRY(NIN, NOUT, PAT, ...)                                           \
  if (1 HL_L##NIN(HL_MATCH_IN, PAT, ~) HL_L##NOUT(HL_MATCH_OUT, ~, ~)) {      \
    HL_ITER(NIN, NOUT, HL_LOAD_P, PAT, HL_STORE_P, __VA_ARGS__)               \
    return;                                                                   \
  }

#define HL_FN(NAME, NIN, NOUT, SIG, T, ...)                                   \
  HL_CLONES static void NAME(char **args, const int64_t *strides, int64_t n, int64_t i0) { \
    HL_L##NIN(HL_TYPE_IN, SIG, T)                                             \
    HL_L##NOUT(HL_TYPE_OUT, SIG, T)                                           \
    if (n <= 0) return;                                                       \
    HL_L##NIN(HL_DECL_IN, ~, ~)                                               \
    HL_L##NOUT(HL_DECL_OUT, NIN, ~)                                           \
    if (!(1 HL_L##NIN(HL_ALIGNED_IN, ~, ~) HL_L##NOUT(HL_ALIGNED_OUT, ~, ~))) { \
      HL_ITER(NIN, NOUT, HL_LOAD_U, ~, HL_STORE_U, __VA_ARGS__)               \
      return;                                                                 \
    }                                                                         \
    HL_TRY(NIN, NOUT, HL_PAT_C, __VA_ARGS__)                                  \
    if (NIN > 1) HL_TRY(NIN, NOUT, HL_PAT_S1, __VA_ARGS__)                    \
    if (NIN > 1) HL_TRY(NIN, NOUT, HL_PAT_S0, __VA_ARGS__)                    \
    HL_TRY(NIN, NOUT, HL_PAT_SA, __VA_ARGS__)                                 \
    HL_ITER(NIN, NOUT, HL_LOAD_S, ~, HL_STORE_S, __VA_ARGS__)                 \
  }

/* One function per (row, T): hl_<OP>_<T>. */
#define HL_DEF(ID, ct, OP, nin, nout, sig, ...)                               \
  HL_FN(hl_##OP##_##ID, nin, nout, sig, ID, __VA_ARGS__)
#define GA_OP(OP, name, nin, nout, tset, sig, flags, mm, aliases, ...)                     \
  tset(HL_DEF, OP, nin, nout, sig, __VA_ARGS__)
#include "base/ga_ops.def"
#undef GA_OP

#define HL_ENTRY(ID, ct, OP) [GA_##ID] = hl_##OP##_##ID,
static const ga_host_loop_fn hl_table[GA_NOPS][GA_NDTYPES] = {
#define GA_OP(OP, name, nin, nout, tset, sig, flags, mm, aliases, ...) [GA_OP_##OP] = {tset(HL_ENTRY, OP)},
#include "base/ga_ops.def"
#undef GA_OP
};

/* The comparisons' mixed loops (int64, uint64) and (uint64, int64). */
#define HL_MIXED_SAME(...)
#define HL_MIXED_BOOL(...)
#define HL_MIXED_FLOATY(...)
#define HL_MIXED_REAL(...)
#define HL_MIXED_TI(...)
#define HL_MIXED_FREXP(...)
#define HL_MIXED_TII(...)
#define HL_MIXED_WHERE(...)
#define HL_MIXED_CMP(OP, nin, nout, ...)                                      \
  HL_FN(hl_##OP##_MIXQ, nin, nout, MIXQ, INT64, __VA_ARGS__)                  \
  HL_FN(hl_##OP##_MIXQR, nin, nout, MIXQR, UINT64, __VA_ARGS__)
#define GA_OP(OP, name, nin, nout, tset, sig, flags, mm, aliases, ...) HL_MIXED_##sig(OP, nin, nout, __VA_ARGS__)
#include "base/ga_ops.def"
#undef GA_OP

#define HL_MIXENT_SAME(OP)
#define HL_MIXENT_BOOL(OP)
#define HL_MIXENT_FLOATY(OP)
#define HL_MIXENT_REAL(OP)
#define HL_MIXENT_TI(OP)
#define HL_MIXENT_FREXP(OP)
#define HL_MIXENT_TII(OP)
#define HL_MIXENT_WHERE(OP)
#define HL_MIXENT_CMP(OP) [GA_OP_##OP] = {hl_##OP##_MIXQ, hl_##OP##_MIXQR},
static const ga_host_loop_fn hl_mixed[GA_NOPS][2] = {
#define GA_OP(OP, name, nin, nout, tset, sig, flags, mm, aliases, ...) HL_MIXENT_##sig(OP)
#include "base/ga_ops.def"
#undef GA_OP
};

ga_host_loop_fn ga_host_loop_mixed(const ga_op *op, int first) {
  if (!op || op->id < 0 || op->id >= GA_NOPS || (first != GA_INT64 && first != GA_UINT64)) return NULL;
  return hl_mixed[op->id][first == GA_UINT64];
}

ga_host_loop_fn ga_host_loop(const ga_op *op, int loop_dtype) {
  if (!op || op->id < 0 || op->id >= GA_NOPS || loop_dtype < 0 || loop_dtype >= GA_NDTYPES)
    return NULL;
  return hl_table[op->id][loop_dtype];
}
