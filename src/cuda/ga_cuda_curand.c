/* cuRAND's XORWOW and MRG32k3a generators through its host API (the
 * library CuPy's legacy RandomState draws from): a generator lives on one
 * device and continues its sequence from call to call. */
#include "cuda/ga_cuda.h"
#include "cuda/ga_cuda_internal.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include "base/ga_scratch.h"
#include <curand.h>
#include <stdlib.h>

typedef struct curand_gen {
  curandGenerator_t g;
  int dev;
} curand_gen;

static int curand_error(curandStatus_t s, const char *what) {
  return ga_err(GA_ECUDA, "cuRAND error %d in %s", (int)s, what);
}
#define GA_CR(call, what) do { curandStatus_t s_ = (call); if (s_ != CURAND_STATUS_SUCCESS) return curand_error(s_, what); } while (0)

int ga_cuda_curand_open(int dev, int kind, uint64_t seed, uint64_t offset, void **gen) {
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  curand_gen *cg = calloc(1, sizeof *cg);
  if (!cg) return ga_err(GA_ENOMEM, "out of host memory");
  curandRngType_t t = kind == GA_CURAND_MRG32K3A ? CURAND_RNG_PSEUDO_MRG32K3A : CURAND_RNG_PSEUDO_XORWOW;
  curandStatus_t s = curandCreateGenerator(&cg->g, t);
  if (s != CURAND_STATUS_SUCCESS) {
    free(cg);
    return curand_error(s, "curandCreateGenerator");
  }
  const char *what = "curandSetPseudoRandomGeneratorSeed";
  s = curandSetPseudoRandomGeneratorSeed(cg->g, seed);
  if (s == CURAND_STATUS_SUCCESS) what = "curandSetGeneratorOffset", s = curandSetGeneratorOffset(cg->g, offset);
  if (s != CURAND_STATUS_SUCCESS) {
    curandDestroyGenerator(cg->g);
    free(cg);
    return curand_error(s, what);
  }
  cg->dev = dev;
  *gen = cg;
  return GA_OK;
}

void ga_cuda_curand_close(void *gen) {
  curand_gen *cg = gen;
  if (ga_cuda_set_device(cg->dev) == GA_OK) curandDestroyGenerator(cg->g);
  free(cg);
}

/* normals come in pairs: an odd count draws its last value with a pair
 * into scratch */
static int normals(curand_gen *cg, const ga_curand_call *c, void *out, size_t n) {
  int dbl = c->dtype == GA_FLOAT64, logn = c->what == GA_CURAND_LOGNORMAL;
  if (dbl)
    GA_CR(logn ? curandGenerateLogNormalDouble(cg->g, out, n, c->mean, c->stddev)
               : curandGenerateNormalDouble(cg->g, out, n, c->mean, c->stddev), "curandGenerateNormalDouble");
  else
    GA_CR(logn ? curandGenerateLogNormal(cg->g, out, n, (float)c->mean, (float)c->stddev)
               : curandGenerateNormal(cg->g, out, n, (float)c->mean, (float)c->stddev), "curandGenerateNormal");
  return GA_OK;
}

int ga_cuda_curand_draw(const ga_curand_call *c) {
  curand_gen *cg = c->gen;
  int rc = ga_cuda_set_device(cg->dev);
  if (rc || (rc = ga_cuda_flush(cg->dev))) return rc;   /* after the queued kernels */
  GA_CR(curandSetStream(cg->g, (cudaStream_t)c->stream), "curandSetStream");
  size_t n = (size_t)c->n, es = c->dtype == GA_FLOAT64 ? 8 : 4;
  switch (c->what) {
  case GA_CURAND_BITS: GA_CR(curandGenerate(cg->g, c->out, n), "curandGenerate"); return GA_OK;
  case GA_CURAND_UNIFORM:
    if (c->dtype == GA_FLOAT64) GA_CR(curandGenerateUniformDouble(cg->g, c->out, n), "curandGenerateUniformDouble");
    else GA_CR(curandGenerateUniform(cg->g, c->out, n), "curandGenerateUniform");
    return GA_OK;
  default: break;
  }
  if (n > 1 && (rc = normals(cg, c, c->out, n & ~(size_t)1))) return rc;
  if (!(n & 1)) return GA_OK;
  ga_scratch pair = {0};
  if ((rc = ga_scratch_get(ga_cuda_pool(cg->dev), 2 * es, c->stream, &pair))) return rc;
  if (!(rc = normals(cg, c, pair.ptr, 2)))
    rc = ga_cuda_memcpy(cg->dev, (char *)c->out + (n - 1) * es, cg->dev, pair.ptr, es, c->stream, 0);
  ga_scratch_put(&pair);
  return rc;
}
