/* Random draws on the GPU: one kernel per (distribution, dtype, values per
 * thread), kernels/ga_philox.cuh + kernels/ga_rand.cuh, grid-stride. */
#include "cuda/ga_cuda.h"
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_dtype.h"
#include "base/ga_strbuf.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "../kernels/ga_philox.cuh"

extern const char ga_kernel_ga_philox[];
extern const char ga_kernel_ga_rand[];

#define BLOCK 256   /* kernels/ga_rand.cuh's __launch_bounds__ assume it */

static int values_per_thread(const ga_rand_call *c) {
  return 4 / ga_rng_wpv(c->dist, c->dtype == GA_FLOAT64, c->irange);
}

/* std: a standard normal draw (ga_rng_std); u, cs: the aligned loop's
 * Philox blocks per step (default 1 for uniform draws, 2 for the others)
 * and streaming stores; sc: ga_rng_normf's sin/cos
 * by the table (1) or ga_rng_sincos24 (0: other values than the host's, a
 * timing variant only); nreg: the float32 normal kernel's register bound
 * (0: none); shift: draws that start mid-block by whole blocks (1) or the
 * general loop (0).  GA_RNG_TUNE="u,cs[,sc[,nreg[,shift]]]" picks others,
 * for tools/rng_bench.lua; default u as above, then 0,1,0,1.  Why uniform
 * draws take one block a step: on one H200 (stop 31, tools/rng_blocks.lua,
 * four fresh processes each) a process's first 2^28-value draw ran at
 * 3.29-4.15 TB/s with two, 3.92-4.03 with one; the compute-bound normals
 * run 3% faster with two. */
typedef struct rand_gen { int dist, dtype, e, std, u, cs, sc, nreg, shift; } rand_gen;

static void tune(rand_gen *g) {
  static int got, tu = 0, tcs = 0, tsc = 1, tnreg = 0, tshift = 1;
  if (!got) {
    const char *env = getenv("GA_RNG_TUNE");
    int a, b, c = 1, d = 0, e = 1;
    if (env && sscanf(env, "%d,%d,%d,%d,%d", &a, &b, &c, &d, &e) >= 2 && a >= 1 && a <= 4 && (b == 0 || b == 1) &&
        (c == 0 || c == 1) && (d == 0 || (d >= 24 && d <= 255)) && (e == 0 || e == 1)) {
      tu = a;
      tcs = b;
      tsc = c;
      tnreg = d;
      tshift = e;
    }
    got = 1;
  }
  g->u = tu ? tu : g->dist == GA_RNG_UNIFORM ? 1 : 2;
  g->cs = tcs;
  g->sc = tsc;
  g->nreg = tnreg;
  g->shift = tshift;
}

static rand_gen make_gen(const ga_rand_call *c) {
  ga_rng_args a = {c->k0, c->k1, c->s, c->p0, c->p1, c->ilow, c->irange, c->pa, c->pb, c->pc};
  rand_gen g = {c->dist, c->dtype, values_per_thread(c), ga_rng_std(c->dist, &a), 2, 0, 1, 0, 1};
  tune(&g);
  return g;
}


static char *gen_source(const void *ud) {
  const rand_gen *g = ud;
  int kind = g->dist >= GA_RNG_GAMMA ? 3 : g->dtype == GA_FLOAT32 ? 0 : g->dtype == GA_FLOAT64 ? 1 : 2;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_printf(&b, "// random draws: distribution %d, %s, %d per thread\n", g->dist, ga_dtypes[g->dtype].name, g->e);
  ga_sb_printf(&b, "#define GA_RNG_SC %d\n#define GA_RNG_SHIFT %d\n", g->sc, g->shift);
  ga_sb_puts(&b, ga_kernel_ga_philox);
  ga_sb_printf(&b, "#define GA_RNG_DIST %d\n#define GA_RNG_OUT %s\n#define GA_RNG_KIND %d\n#define GA_RNG_E %d\n", g->dist,
               ga_cu_type(g->dtype), kind, g->e);
  ga_sb_printf(&b, "#define GA_RNG_STD %d\n#define GA_RNG_U %d\n#define GA_RNG_CS %d\n#define GA_RNG_NREG %d\n", g->std,
               g->u, g->cs, g->nreg);
  ga_sb_puts(&b, ga_kernel_ga_rand);
  return ga_sb_take(&b);
}

char *ga_cuda_rand_source(const ga_rand_call *c) {
  rand_gen g = make_gen(c);
  return gen_source(&g);
}

int ga_cuda_rand(const ga_rand_call *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  rand_gen g = make_gen(c);
  ga_kkey key;
  ga_kpack k;
  ga_kpack_init(&k, &key, GA_KFAM_RAND);
  ga_kpack_put(&k, (uint64_t)g.dist, 8);
  ga_kpack_put(&k, (uint64_t)g.dtype, 8);
  ga_kpack_put(&k, (uint64_t)g.e, 4);
  ga_kpack_put(&k, (uint64_t)g.std, 1);
  ga_kpack_put(&k, (uint64_t)g.u, 3);
  ga_kpack_put(&k, (uint64_t)g.cs, 1);
  ga_kpack_put(&k, (uint64_t)g.sc, 1);
  ga_kpack_put(&k, (uint64_t)g.nreg, 8);
  ga_kpack_put(&k, (uint64_t)g.shift, 1);
  void *kernel;
  if ((rc = ga_cuda_kernel_get(c->device, &key, "ga_rand", gen_source, &g, &kernel))) return rc;
  long long n = c->n;
  unsigned long long off = c->off;
  ga_rng_args a = {c->k0, c->k1, c->s, c->p0, c->p1, c->ilow, c->irange, c->pa, c->pb, c->pc};
  /* grid-stride: at most about 16 blocks per SM, in whole waves of resident
   * blocks (every block makes the same number of values, so a partial last
   * wave would idle most SMs for a whole block's time) */
  int64_t nt = (n + g.e - 1) / g.e, blocks = (nt + BLOCK - 1) / BLOCK, nsm = ga_cuda_sm_count(c->device), cap = nsm * 16;
  if (blocks > cap) {
    int occ = ga_cuda_kernel_occupancy(kernel, BLOCK, 0);
    if (occ > 0 && occ <= 16) cap = nsm * occ * (16 / occ);
    blocks = cap;
  }
  void *out = c->out;
  ga_rng_keys K = ga_rng_keys_of(c->k0, c->k1);
  void *args[] = {&out, &n, &off, &a, &K};
  size_t sizes[] = {sizeof(void *), sizeof n, sizeof off, sizeof a, sizeof K};
  return ga_cuda_enqueue(c->device, c->stream, kernel, (unsigned)blocks, BLOCK, 0, 5, args, sizes);
}
