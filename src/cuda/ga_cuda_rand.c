/* Random draws on the GPU: one kernel per (distribution, dtype, values per
 * thread), kernels/ga_philox.cuh + kernels/ga_rand.cuh, grid-stride. */
#include "cuda/ga_cuda.h"
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_dtype.h"
#include "base/ga_strbuf.h"
#include <pthread.h>
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

/* std: a standard normal draw (ga_rng_std); u: Philox blocks a thread
 * makes per step of the aligned loop; chunk: the aligned draw by chunks of
 * BLOCK * u vectors, a block each (ga_rng_chunks), not grid-stride; cs:
 * streaming stores; sc: ga_rng_normf's sin/cos by the table (1) or
 * ga_rng_sincos24 (0: other values than the host's, a timing variant
 * only); nreg: the float32 normal kernel's register bound (0: none); shift:
 * draws that start mid-block by whole blocks (1) or the general loop (0).
 * Uniform draws take u 8 by chunks, the others u 2 grid-stride (the
 * normals load a table per block).  GA_RNG_TUNE="u,cs[,sc[,nreg[,shift[,
 * chunk]]]]" sets them all for every draw, for tools/rng_bench.lua (the
 * fields left out: sc 1, nreg 0, shift 1, chunk 0).  Why chunks for
 * uniform draws: on one H200 (stop 31, tools/rng_blocks.lua hold, eight
 * processes each) a 2^28-value draw ran at 4.51 TB/s by chunks, 4.15-4.22
 * grid-stride.  (The slower draws stop 31 saw in a process's first 2 GiB
 * were the GC pacing's collections holding the host back, fixed in stop
 * 32: tools/rng_blocks.lua.) */
typedef struct rand_gen { int dist, dtype, e, std, u, cs, sc, nreg, shift, chunk; } rand_gen;

static int tu, tcs, tsc = 1, tnreg, tshift = 1, tchunk;   /* tu 0: GA_RNG_TUNE not set */
static pthread_once_t tune_once = PTHREAD_ONCE_INIT;
static void tune_read(void) {
  const char *env = getenv("GA_RNG_TUNE");
  int a, b, c = 1, d = 0, e = 1, f = 0;
  if (env && sscanf(env, "%d,%d,%d,%d,%d,%d", &a, &b, &c, &d, &e, &f) >= 2 && a >= 1 && a <= 8 && (b == 0 || b == 1) &&
      (c == 0 || c == 1) && (d == 0 || (d >= 24 && d <= 255)) && (e == 0 || e == 1) && (f == 0 || f == 1)) {
    tu = a;
    tcs = b;
    tsc = c;
    tnreg = d;
    tshift = e;
    tchunk = f;
  }
}

static void tune(rand_gen *g) {
  pthread_once(&tune_once, tune_read);
  int uni = g->dist == GA_RNG_UNIFORM;
  g->u = tu ? tu : uni ? 8 : 2;
  g->chunk = tu ? tchunk : uni;
  g->cs = tcs;
  g->sc = tsc;
  g->nreg = tnreg;
  g->shift = tshift;
}

static rand_gen make_gen(const ga_rand_call *c) {
  ga_rng_args a = {c->k0, c->k1, c->s, c->p0, c->p1, c->ilow, c->irange, c->pa, c->pb, c->pc};
  rand_gen g = {c->dist, c->dtype, values_per_thread(c), ga_rng_std(c->dist, &a), 2, 0, 1, 0, 1, 0};
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
  ga_sb_printf(&b, "#define GA_RNG_STD %d\n#define GA_RNG_U %d\n#define GA_RNG_CHUNK %d\n#define GA_RNG_CS %d\n", g->std,
               g->u, g->chunk, g->cs);
  ga_sb_printf(&b, "#define GA_RNG_NREG %d\n", g->nreg);
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
  ga_kpack_put(&k, (uint64_t)g.u, 4);
  ga_kpack_put(&k, (uint64_t)g.cs, 1);
  ga_kpack_put(&k, (uint64_t)g.sc, 1);
  ga_kpack_put(&k, (uint64_t)g.nreg, 8);
  ga_kpack_put(&k, (uint64_t)g.shift, 1);
  ga_kpack_put(&k, (uint64_t)g.chunk, 1);
  void *kernel;
  if ((rc = ga_cuda_kernel_get(c->device, &key, "ga_rand", gen_source, &g, &kernel))) return rc;
  long long n = c->n;
  unsigned long long off = c->off;
  ga_rng_args a = {c->k0, c->k1, c->s, c->p0, c->p1, c->ilow, c->irange, c->pa, c->pb, c->pc};
  /* by chunks: a block per chunk of BLOCK * u vectors (nt vectors, the
   * last one partial); grid-stride: at most about 16 blocks per SM, in
   * whole waves of resident blocks (every block makes the same number of
   * values, so a partial last wave would idle most SMs for a whole block's
   * time) */
  int64_t nt = (n + g.e - 1) / g.e, blocks = (nt + BLOCK - 1) / BLOCK, nsm = ga_cuda_sm_count(c->device), cap = nsm * 16;
  if (g.chunk) {
    blocks = (nt + (int64_t)BLOCK * g.u - 1) / ((int64_t)BLOCK * g.u);
    if (blocks > INT32_MAX) blocks = INT32_MAX;   /* the kernel loops over the chunks */
  } else if (blocks > cap) {
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
