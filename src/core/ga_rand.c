/* The random draw's plan: the stream layout is kernels/ga_philox.cuh's, so
 * the words a draw uses are counted by its ga_rng_wpv, not restated. */
#include "core/ga_rand.h"
#include "base/ga_checked.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include <math.h>
#include "../kernels/ga_philox.cuh"

int ga_rand_ndist(void) { return GA_RNG_NDIST; }

static int float_draw(int dist) {
  return dist == GA_RNG_UNIFORM || dist == GA_RNG_NORMAL || dist == GA_RNG_EXPONENTIAL || dist == GA_RNG_GAMMA ||
         dist == GA_RNG_VONMISES;
}

int ga_rand_plan(const ga_rand_call *c, int64_t *words) {
  if (c->dist < 0 || c->dist >= GA_RNG_NDIST) return ga_err(GA_EINVAL, "unknown distribution %d", c->dist);
  int ok = float_draw(c->dist) ? c->dtype == GA_FLOAT32 || c->dtype == GA_FLOAT64
           : c->dist == GA_RNG_INT ? GA_IS_INT(c->dtype)
           : c->dist == GA_RNG_BITS ? c->dtype == GA_UINT32
           : c->dtype == GA_INT64;
  if (!ok) return ga_err(GA_EINVAL, "no draw of distribution %d into %s", c->dist, ga_dtypes[c->dtype].name);
  if (c->pc && c->dist != GA_RNG_HYPERGEOMETRIC)
    return ga_err(GA_EINVAL, "a per-value sample count is for hypergeometric draws only");
  if ((c->pa || c->pb) && c->dist < GA_RNG_GAMMA)
    return ga_err(GA_EINVAL, "per-value parameters are for rejection draws only");
  /* a normal pair shares its words (float32: 2, float64: 4) */
  int64_t n = c->dist == GA_RNG_NORMAL ? c->n + (c->n & 1) : c->n;
  if (!ga_mul_i64(n, ga_rng_wpv(c->dist, c->dtype == GA_FLOAT64, c->irange), words))
    return ga_err(GA_EINVAL, "too many values");
  return GA_OK;
}
