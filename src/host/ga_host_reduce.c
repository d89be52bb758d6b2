/* Host reductions, generated from the rows of ga_reduce.def: for every row
 * and input dtype T, four functions on the row's accumulator --
 * identity, fold (a strided run of elements, pairwise: blocks of 64 folded
 * in order, blocks combined as a binary counter, so the rounding error of a
 * float sum grows like log n as NumPy's), combine, post.  The driver walks
 * the kept and reduced dimensions of a ga_red_call.  The host is the
 * reference the GPU's results are compared with. */
#include "host/ga_host.h"
#include "host/ga_host_math.h"
#include "host/ga_host_types.h"
#include <string.h>

#include "host/ga_host_rows.h"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* the largest accumulator: complex128 + a position */
typedef union hr_acc { char bytes[32]; long double align_; } hr_acc;

typedef struct hr_fns {
  void (*ident)(hr_acc *);
  void (*fold)(const char *p, int64_t s, int64_t n, int64_t j0, hr_acc *);
  void (*comb)(hr_acc *, const hr_acc *);
  void (*post)(const hr_acc *, int64_t n, char *out);
} hr_fns;

/* the rules' types per T, from ga_reduce.h's table: hr_c_<COLUMN>_<T> is the
 * compute type, hr_m_<COLUMN>_<T> the storage type */
#define HR_RT(T, sumacc, sumout, halfup, meanacc, meanout)                    \
  typedef HL_CT(sumacc) hr_c_SUMACC_##T;                                      \
  typedef HL_CT(sumout) hr_c_SUMOUT_##T;                                      \
  typedef HL_MT(sumout) hr_m_SUMOUT_##T;                                      \
  typedef HL_CT(halfup) hr_c_HALFUP_##T;                                      \
  typedef HL_CT(meanacc) hr_c_MEANACC_##T;                                    \
  typedef HL_CT(meanout) hr_c_MEANOUT_##T;                                    \
  typedef HL_MT(meanout) hr_m_MEANOUT_##T;
GA_REDRULE_TOKENS(HR_RT)
/* accumulator, output compute and output storage types of each rule */
#define HR_ACC_SUM(T) hr_c_SUMACC_##T
#define HR_OUT_SUM(T) hr_c_SUMOUT_##T
#define HR_OUTM_SUM(T) hr_m_SUMOUT_##T
#define HR_ACC_SAME(T) hr_c_HALFUP_##T
#define HR_OUT_SAME(T) HL_CT(T)
#define HR_OUTM_SAME(T) HL_MT(T)
#define HR_ACC_BOOL(T) bool
#define HR_OUT_BOOL(T) bool
#define HR_OUTM_BOOL(T) bool
#define HR_ACC_COUNT(T) int64_t
#define HR_OUT_COUNT(T) int64_t
#define HR_OUTM_COUNT(T) int64_t
#define HR_ACC_ARG(T) hr_c_HALFUP_##T
#define HR_OUT_ARG(T) int64_t
#define HR_OUTM_ARG(T) int64_t
#define HR_ACC_MEAN(T) hr_c_MEANACC_##T
#define HR_OUT_MEAN(T) hr_c_MEANOUT_##T
#define HR_OUTM_MEAN(T) hr_m_MEANOUT_##T

#define HR_TYPES(RULE, T)                                                     \
  typedef HL_CT(T) in0_t;                                                     \
  typedef HL_MT(T) in0_mt;                                                    \
  typedef HR_ACC_##RULE(T) acc_t;                                             \
  typedef HR_OUT_##RULE(T) out0_t;                                            \
  typedef HR_OUTM_##RULE(T) out0_mt;                                          \
  typedef struct { acc_t v; int64_t i; } acc_s;                               \
  (void)sizeof(in0_t); (void)sizeof(in0_mt); (void)sizeof(out0_t); (void)sizeof(out0_mt);

/* a = map(element k of the run) */
#define HR_MAP(MAP)                                                           \
  {                                                                           \
    in0_mt m_;                                                                \
    memcpy(&m_, p + k * s, sizeof m_);                                        \
    in0_t in0 = (in0_t)m_;                                                    \
    int64_t _j = j0 + k;                                                      \
    (void)_j;                                                                 \
    MAP;                                                                      \
  }

#define HR_DEF(T, ct, ROW, RULE, IDENT, MAP, RED, POST)                       \
  static void hr_ident_##ROW##_##T(hr_acc *pa) {                              \
    HR_TYPES(RULE, T)                                                         \
    acc_s a = {0};                                                            \
    IDENT;                                                                    \
    memcpy(pa, &a, sizeof a);                                                 \
  }                                                                           \
  static void hr_comb_##ROW##_##T(hr_acc *pa, const hr_acc *pb) {             \
    HR_TYPES(RULE, T)                                                         \
    acc_s a, b;                                                               \
    memcpy(&a, pa, sizeof a);                                                 \
    memcpy(&b, pb, sizeof b);                                                 \
    RED;                                                                      \
    memcpy(pa, &a, sizeof a);                                                 \
  }                                                                           \
  static void hr_post_##ROW##_##T(const hr_acc *pa, int64_t _n, char *out) {  \
    HR_TYPES(RULE, T)                                                         \
    acc_s a;                                                                  \
    memcpy(&a, pa, sizeof a);                                                 \
    out0_t out0;                                                              \
    (void)_n;                                                                 \
    POST;                                                                     \
    out0_mt m = (out0_mt)out0;                                                \
    memcpy(out, &m, sizeof m);                                                \
  }                                                                           \
  static void hr_fold_##ROW##_##T(const char *p, int64_t s, int64_t n, int64_t j0, hr_acc *res) { \
    HR_TYPES(RULE, T)                                                         \
    acc_s stack[64];                                                          \
    int64_t size[64];                                                         \
    int sp = 0;                                                               \
    for (int64_t k0 = 0; k0 < n; k0 += 64) {                                  \
      int64_t k1 = n - k0 < 64 ? n : k0 + 64;                                 \
      acc_s a = {0};                                                          \
      int64_t k = k0;                                                         \
      HR_MAP(MAP)                                                             \
      for (k = k0 + 1; k < k1; k++) {                                         \
        acc_s a0 = a;                                                         \
        HR_MAP(MAP)                                                           \
        acc_s b = a;                                                          \
        a = a0;                                                               \
        RED;                                                                  \
      }                                                                       \
      int64_t sz = 1;                                                         \
      while (sp > 0 && size[sp - 1] == sz) {                                  \
        acc_s b = a;                                                          \
        a = stack[--sp];                                                      \
        RED;                                                                  \
        sz *= 2;                                                              \
      }                                                                       \
      stack[sp] = a;                                                          \
      size[sp++] = sz;                                                        \
    }                                                                         \
    acc_s a = stack[--sp];                                                    \
    while (sp > 0) {                                                          \
      acc_s b = a;                                                            \
      a = stack[--sp];                                                        \
      RED;                                                                    \
    }                                                                         \
    memcpy(res, &a, sizeof a);                                                \
  }

#define GA_RED(ROW, name, tset, rule, flags, ident, map, red, post)           \
  tset(HR_DEF, ROW, rule, ident, map, red, post)
#include "base/ga_reduce.def"
#undef GA_RED

#define HR_ENTRY(T, ct, ROW)                                                  \
  [GA_##T] = {hr_ident_##ROW##_##T, hr_fold_##ROW##_##T, hr_comb_##ROW##_##T, hr_post_##ROW##_##T},
static const hr_fns hr_table[GA_NREDS][GA_NDTYPES] = {
#define GA_RED(ROW, name, tset, rule, flags, ...) [GA_RED_##ROW] = {tset(HR_ENTRY, ROW)},
#include "base/ga_reduce.def"
#undef GA_RED
};

int ga_host_reduce(const ga_red_call *c) {
  const hr_fns *f = &hr_table[c->op->id][c->T];
  if (!f->fold) return ga_err(GA_ETYPE, "%s: no host loop for dtype %s", c->op->name, ga_dtypes[c->T].name);
  int last = c->rndim - 1;
  int64_t run = c->rshape[last], rs = c->istr_r[last];
  int64_t nruns = c->nred / (run ? run : 1);
  int64_t oi[GA_MAXDIM] = {0};
  const char *ip = c->in;
  char *op = c->out;
  for (int64_t o = 0; o < c->nout; o++) {
    hr_acc total, part;
    if (c->nred == 0) {
      f->ident(&total);
    } else {
      int64_t ri[GA_MAXDIM] = {0};
      const char *rp = ip;
      for (int64_t r = 0; r < nruns; r++) {
        f->fold(rp, rs, run, r * run, r ? &part : &total);
        if (r) f->comb(&total, &part);
        for (int d = last - 1; d >= 0; d--) {   /* next run: odometer over the outer reduced dims */
          rp += c->istr_r[d];
          if (++ri[d] < c->rshape[d]) break;
          rp -= c->istr_r[d] * c->rshape[d];
          ri[d] = 0;
        }
      }
    }
    f->post(&total, c->nred, op);
    for (int d = c->ondim - 1; d >= 0; d--) {   /* next output */
      ip += c->istr_o[d];
      op += c->ostr[d];
      if (++oi[d] < c->oshape[d]) break;
      ip -= c->istr_o[d] * c->oshape[d];
      op -= c->ostr[d] * c->oshape[d];
      oi[d] = 0;
    }
  }
  return GA_OK;
}
