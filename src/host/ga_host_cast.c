/* Casts between every pair of dtypes, strided, with NumPy's results:
 * x -> bool is x != 0 (complex: either part; NaN is true), complex -> real
 * drops the imaginary part, real -> complex has a zero imaginary part, and
 * float -> int truncates toward zero.  Out-of-range float -> int is
 * undefined in C and platform-dependent in NumPy; here it saturates to the
 * target's range and NaN gives 0, which is what CUDA's cvt.rzi does, so the
 * GPU and its reference agree (CuPy gives 0 for -2.0 -> uint8 too; NumPy
 * on x86 gives 254). */
#include "host/ga_host.h"
#include "base/ga_checked.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

/* gcc's -O2 vectorises only loops of known trip count, and these loops are
 * the host backend's hot path.  No FMA contraction: the reference must give
 * the same bits on every CPU (NumPy's loops do not contract either). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "fp-contract=off")
#endif
/* On x86-64 Linux every function also gets an AVX2+F16C clone, chosen when
 * the library loads: without F16C each float16 conversion is a libgcc call
 * (about 20x slower). */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define HC_CLONES __attribute__((target_clones("default", "arch=x86-64-v3")))
#else
#define HC_CLONES
#endif

/* The 14x14 functions come from GA_DTYPES (outer) x GA_T_ALL (inner): the
 * same list, but a macro cannot expand inside itself. */
#define HC_ONE(ID, ct, ...) +1
_Static_assert(0 GA_T_ALL(HC_ONE, ~) == GA_NDTYPES, "GA_T_ALL must list every dtype");

static const char hc_kind[GA_NDTYPES] = {
#define HC_X_KIND(ID, name, ch, ct, cu, sz, kind) [GA_##ID] = kind,
  GA_DTYPES(HC_X_KIND)
#undef HC_X_KIND
};

/* Float -> integer of `bits` bits: truncate, saturate, NaN -> 0, written
 * as selects so that the loops vectorise.  Returns the two's-complement bit
 * pattern; the caller's cast keeps the low bits. */

/* One element.  The kind tests are constants per function, so each
 * instance keeps one branch; the others must still compile for all types. */
#define HC_CONV(FROM, TO, toct, x)                                            \
  (hc_kind[GA_##TO] == 'b' ? (toct)((x) != 0)                                 \
   : (hc_kind[GA_##FROM] == 'f' || hc_kind[GA_##FROM] == 'c') &&              \
         (hc_kind[GA_##TO] == 'i' || hc_kind[GA_##TO] == 'u')                 \
       ? (toct)ga_sat_f2i((double)creal(x), 8 * (int)sizeof(toct), hc_kind[GA_##TO] == 'i') \
       : (toct)(x))

/* Typed loads and stores when aligned (gcc turns a memcpy of a complex
 * value into a spill through the stack), memcpy when not. */
#define HC_AT(T, p) (*(T *)(void *)(p))
#define HC_LOOP(fromct, toct, FROM, TO, SS, DS, TYPED)                        \
  for (int64_t j = 0; j < n; j++) {                                           \
    fromct x;                                                                 \
    if (TYPED) x = HC_AT(const fromct, src + j * (SS));                       \
    else memcpy(&x, src + j * (SS), sizeof x);                                \
    toct y = HC_CONV(FROM, TO, toct, x);                                      \
    if (TYPED) HC_AT(toct, dst + j * (DS)) = y;                               \
    else memcpy(dst + j * (DS), &y, sizeof y);                                \
  }

#define HC_DEF(TO, toct, FROM, fromct)                                        \
  HC_CLONES static void hc_##FROM##_##TO(const char *src, int64_t ss, char *dst, \
                                         int64_t ds, int64_t n) {             \
    int64_t fa = __alignof__(fromct), ta = __alignof__(toct);                 \
    bool aligned = (uintptr_t)src % fa == 0 && ss % fa == 0 &&                \
                   (uintptr_t)dst % ta == 0 && ds % ta == 0;                  \
    if (ss == sizeof(fromct) && ds == sizeof(toct) && GA_##FROM == GA_##TO)   \
      memmove(dst, src, (size_t)n * sizeof(toct));                            \
    else if (!aligned)                                                        \
      HC_LOOP(fromct, toct, FROM, TO, ss, ds, 0)                              \
    else if (ss == sizeof(fromct) && ds == sizeof(toct))                      \
      HC_LOOP(fromct, toct, FROM, TO, sizeof(fromct), sizeof(toct), 1)        \
    else                                                                      \
      HC_LOOP(fromct, toct, FROM, TO, ss, ds, 1)                              \
  }
#define HC_X_DEFS(ID, name, ch, ct, cu, sz, kind) GA_T_ALL(HC_DEF, ID, ct)
GA_DTYPES(HC_X_DEFS)

#define HC_ENTRY(TO, toct, FROM) [GA_##TO] = hc_##FROM##_##TO,
#define HC_X_ROW(ID, name, ch, ct, cu, sz, kind) [GA_##ID] = {GA_T_ALL(HC_ENTRY, ID)},
static const ga_cast_fn hc_table[GA_NDTYPES][GA_NDTYPES] = {GA_DTYPES(HC_X_ROW)};

ga_cast_fn ga_host_cast_fn(int from, int to) {
  if (from < 0 || from >= GA_NDTYPES || to < 0 || to >= GA_NDTYPES) return NULL;
  return hc_table[from][to];
}
