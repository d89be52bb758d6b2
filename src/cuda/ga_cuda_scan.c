/* Scans and nonzero selection on CUDA.  Kernels are generated from the
 * reduction row's map and reduce statements (ga_reduce.def), compiled by
 * NVRTC and cached by a structural key (pass, style, row, dtypes, items per
 * thread).  The input is C-contiguous (outer, n, inner) (ga_scan.c sees to
 * it); lines run along n.
 *
 * Row style (inner == 1, lines longer than SHORT_ROW): reduce-then-scan.
 * Each line is cut into chunks of whole tiles (tile = 256 threads x IPT
 * items) so that there are about ROW_TARGET chunks in all; the cut depends
 * only on the shape, so the same data gives the same bits on every run and
 * every GPU.  Pass 1: one block per chunk but each line's last reduces it
 * to a total; pass 2: one block per line scans the chunk totals; pass 3:
 * one block per chunk walks its tiles: vector loads into shared memory
 * (striped, coalesced), each thread scans its IPT consecutive items in
 * registers, a warp-shuffle scan and a scan of the 8 warp totals give each
 * thread its prefix, plus the chunk's prefix and the running carry of the
 * previous tiles; results go back through shared memory to vector stores.
 * (At least 4 blocks of 256 per SM, so 64 registers a thread: enough loads
 * in flight to keep HBM busy.)
 * Every combination is in sequence order (the rows need only
 * associativity) over a fixed tree; nothing is atomic.  Padding lanes of a
 * partial tile repeat its last element: they sit after every valid one, so
 * no valid result reads them, and no identity is needed.
 *
 * Column style (inner > 1: scans along a non-last axis, or short lines):
 * one thread per (line, chunk), consecutive threads on consecutive inner
 * positions (coalesced); a line is cut into chunks only when there are too
 * few lines to fill the GPU, with the same three passes.
 *
 * nonzero: flags (bool bytes) in tiles of 4096; pass 1 counts each tile,
 * the counts are scanned by the row-style int64 cumsum, the total is read
 * back (the one synchronisation), and pass 2 has each thread write the
 * positions of its 16 flags at its tile's offset plus a block scan of the
 * threads' counts. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_strbuf.h"
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];
extern const char ga_kernel_ga_scan[];
extern const char ga_kernel_ga_nonzero[];

#define BLOCK 256
#define NWARP (BLOCK / 32)
#define SHORT_ROW 256          /* lines up to this long: one thread each */
#define ROW_TARGET 4096        /* chunks wanted over all lines (row style) */
#define COL_LINES 32768        /* lines enough for one thread each */
#define COL_THREADS 65536      /* threads wanted when lines are few */
#define COL_MINCHUNK 32        /* the shortest chunk worth a thread */
#define ACC_MAX 32             /* bytes of the largest accumulator struct */
#define NZ_TILE 4096           /* nonzero: flags per block, 16 per thread */

enum { STYLE_ROW, STYLE_COL };

typedef struct sc_plan {
  const ga_scan_call *c;
  int style;
  int ipt;          /* items per thread (row style) */
  int64_t lines;    /* independent lines */
  int64_t chunk;    /* elements per chunk (row style: whole tiles) */
  int64_t cpl;      /* chunks per line (>= 1) */
  int pass;         /* the kernel being generated: 1, 2, 3 */
} sc_plan;


static void plan(const ga_scan_call *c, sc_plan *p) {
  memset(p, 0, sizeof *p);
  p->c = c;
  int asz = GA_ITEMSIZE(c->acc);
  p->ipt = asz <= 4 ? 16 : asz <= 8 ? 8 : 4;   /* a 16 KiB tile of accumulators */
  if (c->inner == 1 && c->n > SHORT_ROW) {
    p->style = STYLE_ROW;
    p->lines = c->outer;
    int64_t tile = (int64_t)BLOCK * p->ipt, ntiles = (c->n + tile - 1) / tile;
    int64_t want = (ROW_TARGET + c->outer - 1) / c->outer;
    int64_t cpl = want < ntiles ? want : ntiles;
    if (cpl < 1) cpl = 1;
    int64_t tpc = (ntiles + cpl - 1) / cpl;   /* tiles per chunk */
    p->chunk = tpc * tile;
    p->cpl = (ntiles + tpc - 1) / tpc;
  } else {
    p->style = STYLE_COL;
    p->lines = c->outer * c->inner;
    int64_t cpl = 1;
    if (p->lines < COL_LINES && c->n > COL_MINCHUNK) {
      int64_t a = (c->n + COL_MINCHUNK - 1) / COL_MINCHUNK, b = (COL_THREADS + p->lines - 1) / p->lines;
      cpl = a < b ? a : b;
    }
    p->chunk = (c->n + cpl - 1) / cpl;
    p->cpl = (c->n + p->chunk - 1) / p->chunk;
  }
}

/* Vector width (elements) of a 16-byte access that divides ipt. */
static int vec_of(int dt, int ipt) {
  int v = 16 / GA_ITEMSIZE(dt);
  if (v < 1) v = 1;
  while (v > ipt) v /= 2;
  return v;
}

/* How the accumulator crosses lanes (GA_ACC_SHFL of ga_scan.cuh): 3 complex
 * (two shuffles), 2 bool, 1 narrower than int (widened), 0 as is. */
static int shfl_kind(int acc) {
  if (GA_IS_COMPLEX(acc)) return 3;
  if (acc == GA_BOOL) return 2;
  return GA_ITEMSIZE(acc) < 4 ? 1 : 0;
}

/* The per-call part: types, sizes, the kernel chosen, the row's statements as functions. */
static void gen_common(ga_strbuf *b, const sc_plan *p) {
  const ga_scan_call *c = p->c;
  const ga_red_op *op = c->op;
  bool idx = (op->flags & GA_REDF_IDX) != 0;
  ga_sb_puts(b, ga_kernel_ga_types);
  if (strstr(op->map, "ga_") || strstr(op->reduce, "ga_")) {
    ga_sb_puts(b, ga_kernel_ga_math);
    if (GA_IS_COMPLEX(c->T) || GA_IS_COMPLEX(c->acc)) ga_sb_puts(b, ga_kernel_ga_cmath);
  }
  ga_sb_printf(b, "\n// scan %s: %s -> %s, accumulating in %s; %s style, pass %d\n", op->name, ga_dtypes[c->T].name,
               ga_dtypes[c->out_dtype].name, ga_dtypes[c->acc].name, p->style == STYLE_ROW ? "row" : "column", p->pass);
  int tile = BLOCK * p->ipt, msz = GA_ITEMSIZE(c->T) > GA_ITEMSIZE(c->out_dtype) ? GA_ITEMSIZE(c->T)
                                                                                : GA_ITEMSIZE(c->out_dtype);
  ga_sb_printf(b, "#define BLOCK %d\n#define NWARP %d\n#define IPT %d\n#define VI %d\n#define VO %d\n#define SBYTES %d\n",
               BLOCK, NWARP, p->ipt, vec_of(c->T, p->ipt), vec_of(c->out_dtype, p->ipt), (tile + tile / 32) * msz);
  ga_sb_printf(b, "#define GA_SCAN_PASS %d\n#define GA_SCAN_ROW %d\n#define GA_ACC_SHFL %d\n#define GA_ACC_IDX %d\n",
               p->pass, p->style == STYLE_ROW, shfl_kind(c->acc), idx);
  ga_sb_printf(b, "typedef %s in0_t; typedef %s in0_mt; typedef %s acc_t; typedef %s out0_mt;\n", ga_cu_compute(c->T),
               ga_cu_type(c->T), ga_cu_compute(c->acc), ga_cu_type(c->out_dtype));
  ga_sb_printf(b, "struct ga_acc { acc_t v;%s };\n", idx ? " long long i;" : "");
  ga_sb_printf(b, "__device__ __forceinline__ ga_acc ga_map(const in0_t in0, const long long _j) {\n"
               "  ga_acc a; (void)_j;\n  %s;\n  return a;\n}\n", op->map);
  ga_sb_printf(b, "__device__ __forceinline__ ga_acc ga_red(ga_acc a, const ga_acc b) {\n  %s;\n  return a;\n}\n",
               op->reduce);
}

/* The per-call part (types, the row's statements, sizes, which kernel), then
 * the algorithm of kernels/ga_scan.cuh. */
static char *gen_source(const void *ud) {
  ga_strbuf b;
  ga_sb_init(&b);
  gen_common(&b, ud);
  ga_sb_puts(&b, ga_kernel_ga_scan);
  return ga_sb_take(&b);
}

static const char *kernel_name(const sc_plan *p) {
  if (p->pass == 2) return "ga_scan2";
  if (p->style == STYLE_ROW) return p->pass == 1 ? "ga_scan1" : "ga_scan3";
  return p->pass == 1 ? "ga_scanc1" : "ga_scanc3";
}

static void make_key(const sc_plan *p, ga_kkey *key) {
  const ga_scan_call *c = p->c;
  ga_kpack k;
  ga_kpack_init(&k, key, GA_KFAM_SCAN);
  ga_kpack_put(&k, (uint64_t)p->pass, 4);
  ga_kpack_put(&k, (uint64_t)p->style, 4);
  ga_kpack_put(&k, (uint64_t)p->ipt, 8);
  ga_kpack_put(&k, (uint64_t)c->op->id, 16);
  ga_kpack_put(&k, (uint64_t)c->T, 8);
  ga_kpack_put(&k, (uint64_t)c->acc, 8);
  ga_kpack_put(&k, (uint64_t)c->out_dtype, 8);
}

char *ga_cuda_scan_source(const ga_scan_call *c, int pass, const char **name) {
  sc_plan p;
  plan(c, &p);
  if (pass < 1 || pass > 3 || (pass < 3 && p.cpl < 2)) return NULL;
  p.pass = pass;
  if (name) *name = kernel_name(&p);
  return gen_source(&p);
}

static unsigned grid_of(int dev, int64_t want, int per_sm) {
  int64_t cap = (int64_t)ga_cuda_sm_count(dev) * per_sm;
  if (want > cap) want = cap;
  return (unsigned)(want < 1 ? 1 : want);
}

static int launch(sc_plan *p, int pass, int64_t want, int per_sm, int nargs, void **args, size_t *sizes) {
  const ga_scan_call *c = p->c;
  p->pass = pass;
  ga_kkey key;
  make_key(p, &key);
  void *kernel;
  int rc = ga_cuda_kernel_get(c->device, &key, kernel_name(p), gen_source, p, &kernel);
  if (rc) return rc;
  return ga_cuda_enqueue(c->device, c->stream, kernel, grid_of(c->device, want, per_sm), BLOCK, 0, nargs, args, sizes);
}

int ga_cuda_scan(const ga_scan_call *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  sc_plan p;
  plan(c, &p);
  ga_scratch tb = {0};
  if (p.cpl > 1 && (rc = ga_scratch_get(ga_cuda_pool(c->device), (size_t)(p.lines * p.cpl) * ACC_MAX, c->stream, &tb)))
    return rc;
  const void *in = c->in;
  void *out = c->out, *tot = tb.ptr;
  long long n = c->n, inner = c->inner, chunk = p.chunk, cpl = p.cpl, lines = p.lines;
  const size_t P = sizeof(void *), L = sizeof(long long);
  if (p.style == STYLE_ROW) {
    if (cpl > 1) {
      long long nblk = lines * (cpl - 1);
      void *a1[] = {&in, &n, &chunk, &cpl, &tot, &nblk};
      size_t s1[] = {P, L, L, L, P, L};
      if ((rc = launch(&p, 1, nblk, 2048 / BLOCK * 64, 6, a1, s1))) goto done;
    }
    long long nblk = lines * cpl;
    if (cpl > 1) {
      void *a2[] = {&tot, &lines, &cpl};
      size_t s2[] = {P, L, L};
      if ((rc = launch(&p, 2, lines, 64, 3, a2, s2))) goto done;
    }
    void *a3[] = {&in, &out, &n, &chunk, &cpl, &tot, &nblk};
    size_t s3[] = {P, P, L, L, L, P, L};
    rc = launch(&p, 3, nblk, 2048 / BLOCK * 64, 7, a3, s3);
  } else {
    if (cpl > 1) {
      long long total = lines * (cpl - 1);
      void *a1[] = {&in, &n, &inner, &chunk, &cpl, &tot, &total};
      size_t s1[] = {P, L, L, L, L, P, L};
      if ((rc = launch(&p, 1, (total + BLOCK - 1) / BLOCK, 32, 7, a1, s1))) goto done;
      void *a2[] = {&tot, &lines, &cpl};
      size_t s2[] = {P, L, L};
      if ((rc = launch(&p, 2, lines, 64, 3, a2, s2))) goto done;
    }
    long long total = lines * cpl;
    void *a3[] = {&in, &out, &n, &inner, &chunk, &cpl, &tot, &total};
    size_t s3[] = {P, P, L, L, L, L, P, L};
    rc = launch(&p, 3, (total + BLOCK - 1) / BLOCK, 32, 8, a3, s3);
  }
done:
  /* the pool is stream-ordered: a later allocation on this stream runs after these kernels */
  ga_scratch_put(&tb);
  return rc;
}

/* ---- nonzero ---- */

static char *gen_nz(const void *ud) {
  int pass = *(const int *)ud;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, ga_kernel_ga_types);
  ga_sb_printf(&b, "\n// nonzero, pass %d\n", pass);
  ga_sb_printf(&b, "#define BLOCK %d\n#define NZ_TILE %d\n#define GA_NZ_PASS %d\n#define GA_NZ_MAXDIM %d\n", BLOCK, NZ_TILE,
               pass, GA_MAXDIM);
  ga_sb_puts(&b, ga_kernel_ga_nonzero);
  return ga_sb_take(&b);
}

char *ga_cuda_nonzero_source(int pass, const char **name) {
  if (pass != 1 && pass != 2) return NULL;
  if (name) *name = pass == 1 ? "ga_nzc" : "ga_nzf";
  return gen_nz(&pass);
}

static int nz_kernel(int dev, int pass, void **kernel) {
  ga_kkey key;
  ga_kpack k;
  ga_kpack_init(&k, &key, GA_KFAM_NONZERO);
  ga_kpack_put(&k, (uint64_t)pass, 4);
  return ga_cuda_kernel_get(dev, &key, pass == 1 ? "ga_nzc" : "ga_nzf", gen_nz, &pass, kernel);
}

int ga_cuda_nonzero_count(const ga_nz_call *c, int64_t *count, ga_scratch *tb) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  long long n = c->n, ntiles = (c->n + NZ_TILE - 1) / NZ_TILE;
  if ((rc = ga_scratch_get(ga_cuda_pool(c->device), (size_t)ntiles * 8, c->stream, tb))) return rc;
  void *kernel;
  if ((rc = nz_kernel(c->device, 1, &kernel))) return rc;
  {
    const void *f = c->flags;
    void *cnt = tb->ptr;
    void *args[] = {&f, &n, &cnt, &ntiles};
    size_t sizes[] = {sizeof(void *), 8, sizeof(void *), 8};
    if ((rc = ga_cuda_enqueue(c->device, c->stream, kernel, grid_of(c->device, ntiles, 64), BLOCK, 0, 4, args, sizes)))
      return rc;
  }
  /* the tile counts' inclusive scan, in place */
  ga_scan_call sc;
  memset(&sc, 0, sizeof sc);
  sc.op = &ga_red_ops[GA_RED_SUM];
  sc.T = sc.acc = sc.out_dtype = GA_INT64;
  sc.in = tb->ptr;
  sc.out = tb->ptr;
  sc.outer = sc.inner = 1;
  sc.n = ntiles;
  sc.device = c->device;
  sc.stream = c->stream;
  if ((rc = ga_cuda_scan(&sc))) return rc;
  /* the one synchronisation: the count decides the result's size */
  long long total;
  if ((rc = ga_cuda_memcpy(GA_CPU, &total, c->device, (char *)tb->ptr + (ntiles - 1) * 8, 8, c->stream, 1))) return rc;
  *count = total;
  return GA_OK;
}

int ga_cuda_nonzero_fill(const ga_nz_call *c, const ga_scratch *scratch) {
  int rc = ga_cuda_set_device(c->device);
  void *kernel = NULL;
  if (!rc) rc = nz_kernel(c->device, 2, &kernel);
  if (!rc) {
    long long n = c->n, ntiles = (c->n + NZ_TILE - 1) / NZ_TILE, s0 = c->s0, s1 = c->s1;
    int ndim = c->ndim;
    long long sh[GA_MAXDIM] = {0};
    for (int k = 0; k < c->ndim; k++) sh[k] = c->shape[k];
    const void *f = c->flags, *incl = scratch->ptr;
    void *out = c->out;
    void *args[] = {&f, &n, &incl, &ntiles, &out, &s0, &s1, &ndim, sh};
    size_t sizes[] = {sizeof(void *), 8, sizeof(void *), 8, sizeof(void *), 8, 8, sizeof(int), sizeof sh};
    rc = ga_cuda_enqueue(c->device, c->stream, kernel, grid_of(c->device, ntiles, 64), BLOCK, 0, 9, args, sizes);
  }
  return rc;
}
