/* The host's scans and nonzero selection.  Scan loops are generated from the
 * reduction rows (ga_reduce.def) the way ga_host_loops.c generates the
 * elementwise ones: for every row and every dtype T of its type set, one
 * function that runs the row's map and reduce statements along a line.
 * Only rows flagged GA_REDF_SCAN are dispatched (ga_scan.c checks), but
 * every row gets its function, so flagging a row is all a new scan needs.
 *
 * The first element of a line starts the accumulator (map), every later
 * one is combined into it (reduce) -- no identity, as NumPy's accumulate:
 * cumsum([-0.0]) is -0.0.  The accumulator's values go to a small buffer
 * and are cast to the output dtype from there (float16 accumulates in
 * float32 and rounds once per element). */
#include "host/ga_host.h"
#include "host/ga_host_math.h"
#include "host/ga_host_types.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/ga_host_rows.h"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"

/* hs_acc_<RULE>_<T>: the accumulator's compute type (ga_reduce.h's rules) */
#define HS_ACCT(T, SA, SO, HU, MA, MO)                                        \
  typedef HL_CT_##SA hs_acc_SUM_##T;                                          \
  typedef HL_CT_##HU hs_acc_SAME_##T;                                         \
  typedef HL_CT_##HU hs_acc_ARG_##T;                                          \
  typedef HL_CT_##MA hs_acc_MEAN_##T;                                         \
  typedef bool hs_acc_BOOL_##T;                                               \
  typedef int64_t hs_acc_COUNT_##T;
GA_REDRULE_TOKENS(HS_ACCT)

/* One line step.  lanes == 0: cnt consecutive elements of one line,
 * accumulator st[0]; lanes == 1: element j of cnt lines side by side (a
 * scan along a non-last axis), accumulators st[0..cnt).  first: element j
 * is the line's first.  Writes the cnt accumulator values to buf. */
typedef void (*hs_fn)(const char *in, int64_t cnt, void *st, char *buf, int lanes, int first, int64_t j);

#define HS_MAXACC 32   /* bytes of the largest accumulator struct */

#define HS_FN(ID, ct, OP, RULE, MAP, RED)                                     \
  static void hs_##OP##_##ID(const char *in_, int64_t cnt, void *stv, char *buf, int lanes, \
                             int first, int64_t j0) {                         \
    typedef HL_CT_##ID in0_t;                                                 \
    typedef ct in0_mt;                                                        \
    typedef hs_acc_##RULE##_##ID acc_t;                                       \
    typedef struct { acc_t v; int64_t i; } acc_s;                             \
    _Static_assert(sizeof(acc_s) <= HS_MAXACC, "accumulator size");          \
    const in0_mt *in = (const in0_mt *)(const void *)in_;                     \
    acc_s *st = stv;                                                          \
    acc_t *out = (acc_t *)(void *)buf;                                        \
    for (int64_t k = 0; k < cnt; k++) {                                       \
      acc_s *r = lanes ? &st[k] : st;                                         \
      const in0_t in0 = (in0_t)in[k];                                         \
      const int64_t _j = lanes ? j0 : j0 + k;                                 \
      acc_s a;                                                                \
      memset(&a, 0, sizeof a);                                                \
      { MAP; }                                                                \
      if (!(first && (lanes || k == 0))) {                                    \
        const acc_s b = a;                                                    \
        a = *r;                                                               \
        { RED; }                                                              \
      }                                                                       \
      *r = a;                                                                 \
      out[k] = a.v;                                                           \
    }                                                                         \
  }

#define HS_DEF(ID, ct, OP, RULE, MAP, RED) HS_FN(ID, ct, OP, RULE, MAP, RED)
#define GA_RED(OP, name, tset, rule, flags, ident, map, red, post)            \
  tset(HS_DEF, OP, rule, map, red)
#include "base/ga_reduce.def"
#undef GA_RED

#define HS_ENTRY(ID, ct, OP) [GA_##ID] = hs_##OP##_##ID,
static const hs_fn hs_table[GA_NREDS][GA_NDTYPES] = {
#define GA_RED(OP, name, tset, rule, flags, ...) [GA_RED_##OP] = {tset(HS_ENTRY, OP)},
#include "base/ga_reduce.def"
#undef GA_RED
};

#define HS_CHUNK 4096   /* elements per buffer of accumulator values */

int ga_host_scan(const ga_scan_call *c) {
  hs_fn f = c->op->id >= 0 && c->op->id < GA_NREDS ? hs_table[c->op->id][c->T] : NULL;
  ga_cast_fn cast = ga_host_cast_fn(c->acc, c->out_dtype);
  if (!f || !cast) return ga_err(GA_ETYPE, "%s: no host loop for dtype %s", c->op->name, ga_dtypes[c->T].name);
  int64_t isz = GA_ITEMSIZE(c->T), asz = GA_ITEMSIZE(c->acc), osz = GA_ITEMSIZE(c->out_dtype);
  if (c->inner == 1) {
    _Alignas(16) unsigned char st[HS_MAXACC];
    _Alignas(16) char buf[HS_CHUNK * 16];
    for (int64_t o = 0; o < c->outer; o++)
      for (int64_t j = 0; j < c->n; j += HS_CHUNK) {
        int64_t cnt = c->n - j < HS_CHUNK ? c->n - j : HS_CHUNK, e = o * c->n + j;
        f(c->in + e * isz, cnt, st, buf, 0, j == 0, j);
        cast(buf, asz, c->out + e * osz, osz, cnt);
      }
    return GA_OK;
  }
  /* lanes: up to HS_CHUNK inner elements of one step along the axis, side
   * by side, walked down the axis together */
  void *st = malloc((size_t)HS_CHUNK * HS_MAXACC + (size_t)HS_CHUNK * 16);
  if (!st) return ga_err(GA_ENOMEM, "out of memory allocating the scan's state");
  char *buf = (char *)st + (size_t)HS_CHUNK * HS_MAXACC;
  for (int64_t o = 0; o < c->outer; o++)
    for (int64_t i = 0; i < c->inner; i += HS_CHUNK) {
      int64_t cnt = c->inner - i < HS_CHUNK ? c->inner - i : HS_CHUNK;
      for (int64_t j = 0; j < c->n; j++) {
        int64_t e = (o * c->n + j) * c->inner + i;
        f(c->in + e * isz, cnt, st, buf, 1, j == 0, j);
        cast(buf, asz, c->out + e * osz, osz, cnt);
      }
    }
  free(st);
  return GA_OK;
}

/* ---- nonzero ---- */

int ga_host_nonzero_count(const ga_nz_call *c, int64_t *count) {
  int64_t k = 0;
  for (int64_t i = 0; i < c->n; i++) k += c->flags[i] != 0;
  *count = k;
  return GA_OK;
}

int ga_host_nonzero_fill(const ga_nz_call *c) {
  int64_t pos[GA_MAXDIM] = {0}, j = 0;   /* an odometer over the shape, 0-based */
  char *out = (char *)c->out;
  for (int64_t i = 0; i < c->n; i++) {
    if (c->flags[i]) {
      for (int k = 0; k < c->ndim; k++) *(int64_t *)(void *)(out + j * c->s0 + k * c->s1) = pos[k] + 1;
      j++;
    }
    for (int k = c->ndim - 1; k >= 0; k--) {
      if (++pos[k] < c->shape[k]) break;
      pos[k] = 0;
    }
  }
  return GA_OK;
}
