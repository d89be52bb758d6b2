/* Random draws on the host: the generator kernel's own functions
 * (kernels/ga_philox.cuh, compiled here as C), walked in the kernel's
 * order, so a host draw equals the GPU's bit for bit (uniform, integer and
 * bit draws) or within CUDA's ulps (normal and exponential draws). */
#include "host/ga_host.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include <math.h>
#include <stdint.h>
#include "../kernels/ga_philox.cuh"

static void store_int(void *out, int dtype, int64_t i, ga_rng_u64 v) {
  switch (dtype) {
  case GA_INT8: ((int8_t *)out)[i] = (int8_t)v; break;
  case GA_UINT8: ((uint8_t *)out)[i] = (uint8_t)v; break;
  case GA_INT16: ((int16_t *)out)[i] = (int16_t)v; break;
  case GA_UINT16: ((uint16_t *)out)[i] = (uint16_t)v; break;
  case GA_INT32: ((int32_t *)out)[i] = (int32_t)v; break;
  case GA_UINT32: ((uint32_t *)out)[i] = (uint32_t)v; break;
  case GA_INT64: ((int64_t *)out)[i] = (int64_t)v; break;
  default: ((uint64_t *)out)[i] = (uint64_t)v; break;
  }
}

/* The draws are chains of fma (kernels/ga_philox.cuh): a clone for CPUs
 * with FMA runs them as instructions instead of libm calls, with the same
 * bits (an fma is exact either way). */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
__attribute__((target_clones("fma", "default")))
#endif
int ga_host_rand(const ga_rand_call *c) {
  ga_rng_args a = {c->k0, c->k1, c->s, c->p0, c->p1, c->ilow, c->irange, c->pa, c->pb, c->pc};
  int dbl = c->dtype == GA_FLOAT64;
  int e = 4 / ga_rng_wpv(c->dist, dbl, c->irange);   /* values per 4 words */
  int64_t nt = (c->n + e - 1) / e;
  for (int64_t t = 0; t < nt; t++) {
    ga_rng_u64 pos = c->off + 4 * (ga_rng_u64)t;
    int64_t i0 = t * e, m = c->n - i0 < e ? c->n - i0 : e;
    if (c->dist >= GA_RNG_GAMMA) {   /* rejection draws: value i0+j from word pos+j */
      for (int j = 0; j < m; j++) {
        double v = ga_rng_reject(c->dist, &a, pos + j, (ga_rng_u64)(i0 + j));
        if (c->dtype == GA_FLOAT32) ((float *)c->out)[i0 + j] = (float)v;
        else if (c->dtype == GA_FLOAT64) ((double *)c->out)[i0 + j] = v;
        else store_int(c->out, c->dtype, i0 + j, (ga_rng_u64)(int64_t)v);
      }
      continue;
    }
    ga_rng_w4 w = ga_rng_words(pos, c->s, c->k0, c->k1);
    if (c->dist == GA_RNG_INT || c->dist == GA_RNG_BITS) {
      ga_rng_u64 v[4];
      ga_rng_ints(c->dist, &a, pos, w, v);
      for (int j = 0; j < m; j++) store_int(c->out, c->dtype, i0 + j, v[j]);
    } else if (dbl) {
      double v[2];
      ga_rng_doubles(c->dist, &a, w, v);
      for (int j = 0; j < m; j++) ((double *)c->out)[i0 + j] = v[j];
    } else {
      float v[4];
      ga_rng_floats(c->dist, &a, w, v);
      for (int j = 0; j < m; j++) ((float *)c->out)[i0 + j] = v[j];
    }
  }
  return GA_OK;
}
