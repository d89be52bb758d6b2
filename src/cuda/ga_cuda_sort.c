/* Sorting and searching on CUDA (ga_sort.h): LSD radix sorts of 8-bit
 * digits over the order-preserving keys of ga_sort.c (the same transform,
 * written in CUDA C on the elements' raw bits: the buffers between passes
 * hold the raw elements, so -0.0 and NaN payloads come out as they went in,
 * and each pass computes its digit from the bits in registers), and a
 * binary search.  Three ways, chosen by the row length n
 * (kernels/ga_radix.cuh):
 *
 *   rows of one warp (n <= 32 x 16 keys, staging <= 4 KiB a warp; when
 *   there are >= 1024 rows or the block kernel cannot take them) and rows
 *   of one block (n <= 256 x 16, staging <= 32 KiB): each row is read once
 *   into registers, sorted by one digit pass per key byte through shared
 *   memory (no global passes) and written once, with the 1-based positions
 *   for argsort;
 *
 *   onesweep (longer rows): one pass per key byte, least significant
 *   first, then, when there are several rows, one pass per byte of the row
 *   number (so the result is ordered by (row, key); rows and argsort carry
 *   a payload, the element's flat input position, 32-bit, 64-bit from 2^30
 *   elements).  First `hist` reads the keys once and counts every pass's
 *   digits (per block in shared memory, then added to [pass][digit] counts
 *   zeroed by a memset with the passes' tile counters), zeroing the
 *   look-back words of the first two passes on the way (the passes
 *   alternate two regions of words; each pass zeroes the other region for
 *   the pass after it); `bins` turns each pass's counts into its exclusive
 *   digit offsets; then per pass one kernel: each block takes
 *   the next tile (256 threads x KPT keys) from an atomic counter, so tiles
 *   start in order and a tile only ever waits for tiles whose blocks already
 *   run; loads its keys (and payloads) into registers, counts its digits
 *   per warp (shared atomics) and publishes the tile's counts at once, one
 *   word per (tile, digit) (status in the top two bits: aggregate, or
 *   inclusive prefix); ranks its keys stably (warp peers by nine ballots,
 *   ga_match8, on per-warp counters that start from the counts' prefixes)
 *   and stages them in shared memory in digit order; then each thread looks
 *   back for its digit over the earlier tiles' words, one at a time, for
 *   the digit's exclusive prefix (decoupled look-back, CUB's onesweep: the
 *   ranking gave the tiles before time to publish), publishes the inclusive
 *   prefix, and the block writes each digit's run contiguously to
 *   bins[digit] + prefix.  Keys per thread and blocks per SM are tuning
 *   knobs (core._sort_path, GPUARRAY_SORT_KPT / _MINB; tools/sort_bench.lua
 *   compares them: on an H200, 24 keys per thread (at most 42 KiB staged)
 *   and 3 blocks per SM won for float32 sort and argsort and int64 sort).
 *
 * Buffers alternate so that the last pass writes the caller's dst (and, for
 * argsort, the 1-based positions within the row as int64; with dst NULL no
 * keys are written).  Stable and deterministic (the atomics only order the
 * tiles).  Workspace (histograms, offsets, counters, look-back words,
 * ping-pong buffers) comes from the device pool once per call; nothing
 * synchronises.  The per-digit pipeline (hist, three scan kernels and
 * scatter per pass: kernels/ga_sort.cuh) stays for comparisons:
 * ga_sort_path (GA_SORT_PATH_ONESWEEP, _DIGIT, ...) forces a way for the
 * specs and tools/sort_bench.lua. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_strbuf.h"
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_sort[];
extern const char ga_kernel_ga_radix[];

#define NT 256                /* threads per block of the sort kernels */
#define SCAN_TPC 64           /* tiles per chunk of the offset scan (legacy) */
#define HIST_KPT 8            /* keys per thread per round of the onesweep histogram */
#define BIG_RADIX ((int64_t)1 << 30)   /* onesweep: 64-bit positions and look-back words from here */

enum { K_HIST, K_SCATTER, K_SCAN_REDUCE, K_SCAN_PARTS, K_SCAN_DOWN, K_SEARCH, K_RHIST, K_RBINS, K_RPASS, K_ROWW,
       K_ROWB, K_NKERNELS };
static const char *const knames[] = {"ga_sort_hist", "ga_sort_scatter", "ga_scan_reduce", "ga_scan_parts",
                                     "ga_scan_down", "ga_searchsorted", "ga_radix_hist", "ga_radix_bins",
                                     "ga_radix_pass", "ga_radix_roww", "ga_radix_rowb"};

typedef struct s_gen {
  int which, dtype, big, pay_in, pay_out, kpt, np, minb;   /* minb: onesweep pass only */
} s_gen;

/* Raw storage type of an element (keys are computed from its bits). */
static const char *raw_type(int dt) {
  switch (GA_ITEMSIZE(dt)) {
  case 1: return "unsigned char";
  case 2: return "unsigned short";
  case 4: return "unsigned int";
  case 8: return "unsigned long long";
  default: return "ga_u128";
  }
}

/* Keys per thread: the tile (keys and payloads) staged in shared memory
 * must fit in 32 KiB. */
static int kpt_for(int dt, int big, int carry) {
  int s = GA_ITEMSIZE(dt) + (carry ? (big ? 8 : 4) : 0), k = 16;
  while (k > 1 && NT * k * s > 32768) k /= 2;
  return k;
}

/* A knob of ga_calls.h: set (core._sort_path), else the environment's
 * variable, else 0 (the default). */
static int knob(int set, const char *env, int lo, int hi) {
  if (set) return set;
  const char *e = getenv(env);
  int v = e ? atoi(e) : 0;
  return v >= lo && v <= hi ? v : 0;
}

/* The onesweep pass's keys per thread: the knob, else 24 (measured best on
 * an H200 against 12-32), at most what keeps the staged tile (keys and
 * payloads) within 42 KiB of static shared memory. */
#define PASS_STAGE_MAX (42 * 1024)
static int pass_kpt(int dt, int big, int carry) {
  int s = GA_ITEMSIZE(dt) + (carry ? (big ? 8 : 4) : 0), cap = PASS_STAGE_MAX / (NT * s);
  int k = knob(ga_sort_kpt, "GPUARRAY_SORT_KPT", 1, 64);
  if (!k) k = 24;
  if (k > cap) k = cap;
  return k < 1 ? 1 : k;
}
/* its resident blocks per SM asked of the compiler: the knob (1: none
 * asked), else 3 (80 registers; measured best on an H200 with 24 keys per
 * thread, against 1 and 2; 4 lost with 16) */
static int pass_minb(void) {
  int m = knob(ga_sort_minb, "GPUARRAY_SORT_MINB", 1, 8);
  return m ? m : 3;
}

/* Short rows (kernels/ga_radix.cuh): the keys per thread that hold a row
 * of n, or 0 when the row is too long.  One warp: n <= 32 x 16 and the
 * warp's staging (keys, 16-bit positions for argsort) <= 4 KiB; one block:
 * n <= 256 x 16 and the staging <= 32 KiB. */
static int roww_kpt(int dt, int argsort, int64_t n) {
  int64_t s = GA_ITEMSIZE(dt) + (argsort ? 2 : 0);
  for (int k = 1; k <= 16; k *= 2)
    if (32 * k >= n) return 32 * k * s <= 4096 ? k : 0;
  return 0;
}
static int rowb_kpt(int dt, int argsort, int64_t n) {
  int64_t s = GA_ITEMSIZE(dt) + (argsort ? 2 : 0);
  for (int k = 1; k <= 16; k *= 2)
    if (NT * k >= n) return NT * k * s <= 32768 ? k : 0;
  return 0;
}

/* The key transform of kernels/ga_sort.cuh (GA_SORT_KEY) for a dtype. */
static int key_kind(int dt) {
  switch (dt) {
  case GA_BOOL: return 1;
  case GA_INT8: return 2;
  case GA_INT16: return 3;
  case GA_INT32: return 4;
  case GA_INT64: return 5;
  case GA_FLOAT16: return 6;
  case GA_FLOAT32: return 7;
  case GA_FLOAT64: return 8;
  case GA_COMPLEX64: return 9;
  case GA_COMPLEX128: return 10;
  default: return 0;   /* unsigned */
  }
}

static int is_scan(int w) { return w == K_SCAN_REDUCE || w == K_SCAN_PARTS || w == K_SCAN_DOWN; }

/* The per-call part (which kernel, types, key, payload modes), then the
 * algorithm of kernels/ga_sort.cuh (and ga_radix.cuh). */
static char *gen_source(const void *ud) {
  const s_gen *g = ud;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_printf(&b, "// %s, %s, %s positions, payload in %d out %d, %d keys per thread, %d passes\n", knames[g->which],
               ga_dtypes[g->dtype].name, g->big ? "64-bit" : "32-bit", g->pay_in, g->pay_out, g->kpt, g->np);
  int radix = g->which >= K_RHIST;
  ga_sb_printf(&b, "#define NT %d\n#define GA_SORT_KERNEL %d\ntypedef %s IT;\ntypedef %s PT;\n", NT,
               radix ? 6 : g->which, g->big ? "long long" : "int", g->big ? "unsigned long long" : "unsigned int");
  if (is_scan(g->which))
    ga_sb_printf(&b, "#define TPC %d\n", SCAN_TPC);
  else
    ga_sb_printf(&b, "#define GA_SORT_E %s\n#define GA_SORT_KEY %d\n", raw_type(g->dtype), key_kind(g->dtype));
  if (g->which == K_HIST || g->which == K_SCATTER || radix)
    ga_sb_printf(&b, "#define NKB %d\n#define KPT %d\n#define GA_PAY_IN %d\n#define GA_PAY_OUT %d\n",
                 ga_sort_key_bytes(g->dtype), g->kpt, g->pay_in, g->which == K_HIST ? 0 : g->pay_out);
  if (radix)
    ga_sb_printf(&b, "#define GA_RADIX_KERNEL %d\n#define NP %d\n#define LBW %d\n", g->which - K_RHIST,
                 g->np > 0 ? g->np : 1, g->big ? 64 : 32);
  if (g->which == K_RPASS && g->minb > 1) ga_sb_printf(&b, "#define MINB %d\n", g->minb);
  ga_sb_puts(&b, ga_kernel_ga_sort);
  if (radix) ga_sb_puts(&b, ga_kernel_ga_radix);
  return ga_sb_take(&b);
}

/* For the specs (ga_backend.h's sort_source).  The onesweep and row kernels
 * read pay_in as: rhist, the bytes of the row number (passes = key bytes +
 * pay_in); roww / rowb, the keys per thread (0: the most the dtype allows);
 * pay_out 2 = argsort. */
char *ga_cuda_sort_source(int which, int dtype, int big, int pay_in, int pay_out) {
  if (which < 0 || which >= K_NKERNELS || dtype < 0 || dtype >= GA_NDTYPES) return NULL;
  s_gen g = {which, dtype, big != 0, pay_in, pay_out, kpt_for(dtype, big, pay_in || pay_out), 0, 0};
  if (which == K_RPASS) g.kpt = pass_kpt(dtype, big != 0, pay_in || pay_out), g.minb = pass_minb();
  if (which == K_RHIST) g.np = ga_sort_key_bytes(dtype) + (pay_in > 0 ? pay_in : 0), g.pay_in = 0, g.pay_out = 0,
                        g.kpt = HIST_KPT;
  if (which == K_RBINS) g.dtype = 0, g.pay_in = g.pay_out = 0, g.kpt = 1;
  if (which == K_ROWW || which == K_ROWB) {
    int arg = pay_out == 2, maxn = which == K_ROWW ? 32 * 16 : NT * 16, k = 0;
    for (int64_t n = maxn; n >= 1 && !k; n /= 2) k = which == K_ROWW ? roww_kpt(dtype, arg, n) : rowb_kpt(dtype, arg, n);
    if (pay_in > 0 && pay_in < k) k = pay_in;
    g.big = 0, g.pay_in = 0, g.pay_out = arg ? 2 : 0, g.kpt = k ? k : 1;
  }
  return gen_source(&g);
}

static int get_kernel(int dev, const s_gen *g, void **kernel) {
  ga_kkey key;
  ga_kpack k;
  int dt = is_scan(g->which) || g->which == K_RBINS ? 0 : g->dtype;   /* scans, bins: no dtype */
  ga_kpack_init(&k, &key, GA_KFAM_SORT);
  ga_kpack_put(&k, (uint64_t)g->which, 4);
  ga_kpack_put(&k, (uint64_t)dt, 5);
  ga_kpack_put(&k, (uint64_t)g->big, 1);
  ga_kpack_put(&k, (uint64_t)g->pay_in, 4);
  ga_kpack_put(&k, (uint64_t)g->pay_out, 4);
  ga_kpack_put(&k, (uint64_t)g->kpt, 8);
  ga_kpack_put(&k, (uint64_t)g->np, 6);
  ga_kpack_put(&k, (uint64_t)g->minb, 4);
  return ga_cuda_kernel_get(dev, &key, knames[g->which], gen_source, g, kernel);
}

/* counts[ntiles][256] -> each (digit, tile)'s exclusive prefix in
 * digit-major order, in place; parts: ceil(ntiles / SCAN_TPC) * 256 */
static int run_scan(int dev, void *stream, int big, void *counts, int64_t ntiles, void *parts) {
  s_gen g = {K_SCAN_REDUCE, 0, big, 0, 0, 1, 0, 0};
  void *kr, *kp, *kd;
  int rc;
  if ((rc = get_kernel(dev, &g, &kr))) return rc;
  g.which = K_SCAN_PARTS;
  if ((rc = get_kernel(dev, &g, &kp))) return rc;
  g.which = K_SCAN_DOWN;
  if ((rc = get_kernel(dev, &g, &kd))) return rc;
  long long nt = ntiles, nc = (ntiles + SCAN_TPC - 1) / SCAN_TPC;
  unsigned blocks = (unsigned)nc;
  void *a1[3] = {&counts, &nt, &parts};
  size_t s1[3] = {sizeof(void *), sizeof nt, sizeof(void *)};
  if ((rc = ga_cuda_enqueue(dev, stream, kr, blocks, 256, 0, 3, a1, s1))) return rc;
  void *a2[2] = {&parts, &nc};
  size_t s2[2] = {sizeof(void *), sizeof nc};
  if ((rc = ga_cuda_enqueue(dev, stream, kp, 1, 1024, 0, 2, a2, s2))) return rc;
  return ga_cuda_enqueue(dev, stream, kd, blocks, 256, 0, 3, a1, s1);
}

/* The per-digit pipeline: hist, scan, scatter per pass. */
static int digit_sort(const ga_sort_call *c) {
  int rc = GA_OK;
  int dev = c->device, dt = c->dtype;
  int64_t N = c->nrows * c->n;
  int big = N >= GA_IDX32_LIMIT;
  int kb = ga_sort_key_bytes(dt), rb = 0;
  for (int64_t v = c->nrows - 1; v > 0; v >>= 8) rb++;
  int P = kb + rb, carry = c->idx != NULL || rb > 0;
  int kpt = kpt_for(dt, big, carry);
  int64_t tile = (int64_t)NT * kpt, ntiles = (N + tile - 1) / tile, M = 256 * ntiles;
  size_t esz = (size_t)GA_ITEMSIZE(dt), psz = big ? 8 : 4;
  ga_pool *pool = ga_cuda_pool(dev);
  ga_scratch tk = {0}, pa = {0}, pb = {0}, cnt = {0}, parts = {0}, kd = {0};
  char *dst = c->dst;
  if (!dst) {   /* argsort without the keys: they still need a last home */
    if ((rc = ga_scratch_get(pool, (size_t)N * esz, c->stream, &kd))) goto done;
    dst = kd.ptr;
  }
  if (P > 1 && (rc = ga_scratch_get(pool, (size_t)N * esz, c->stream, &tk))) goto done;
  if (carry && P > 1 && (rc = ga_scratch_get(pool, (size_t)N * psz, c->stream, &pa))) goto done;
  if (carry && P > 2 && (rc = ga_scratch_get(pool, (size_t)N * psz, c->stream, &pb))) goto done;
  if ((rc = ga_scratch_get(pool, (size_t)M * psz, c->stream, &cnt))) goto done;
  if ((rc = ga_scratch_get(pool, (size_t)((ntiles + SCAN_TPC - 1) / SCAN_TPC) * 256 * psz, c->stream, &parts)))
    goto done;
  {
    const void *kin = c->src, *pin = NULL;
    long long n64 = N, rowlen = c->n;
    int n32 = (int)N;
    unsigned nt = (unsigned)ntiles;
    for (int p = 0; p < P; p++) {
      int last = p == P - 1, odd = (P - 1 - p) % 2;
      void *kout = odd ? tk.ptr : dst;
      void *pout = last ? (void *)c->idx : !carry ? NULL : odd ? pa.ptr : (pb.ptr ? pb.ptr : pa.ptr);
      s_gen gh = {K_HIST, dt, big, p >= kb ? 2 : 0, 0, kpt, 0, 0};
      s_gen gs = {K_SCATTER, dt, big, !carry ? 0 : p == 0 ? 1 : 2, last ? (c->idx ? 2 : 0) : carry, kpt, 0, 0};
      void *kh, *ks;
      if ((rc = get_kernel(dev, &gh, &kh)) || (rc = get_kernel(dev, &gs, &ks))) goto done;
      int byte = p;
      void *cp = cnt.ptr;
      void *ha[7] = {&kin, &pin, big ? (void *)&n64 : (void *)&n32, &byte, &rowlen, &cp, &nt};
      size_t hs[7] = {sizeof(void *), sizeof(void *), big ? 8 : 4, sizeof byte, sizeof rowlen, sizeof(void *),
                      sizeof nt};
      if ((rc = ga_cuda_enqueue(dev, c->stream, kh, nt, NT, 0, 7, ha, hs))) goto done;
      if ((rc = run_scan(dev, c->stream, big, cnt.ptr, ntiles, parts.ptr))) goto done;
      void *sa[9] = {&kin, &kout, &pin, &pout, big ? (void *)&n64 : (void *)&n32, &byte, &rowlen, &cp, &nt};
      size_t ss[9] = {sizeof(void *), sizeof(void *), sizeof(void *), sizeof(void *), big ? 8 : 4, sizeof byte,
                      sizeof rowlen, sizeof(void *), sizeof nt};
      if ((rc = ga_cuda_enqueue(dev, c->stream, ks, nt, NT, 0, 9, sa, ss))) goto done;
      kin = kout;
      pin = pout;
    }
  }
done:
  ga_scratch_put(&tk);
  ga_scratch_put(&pa);
  ga_scratch_put(&pb);
  ga_scratch_put(&cnt);
  ga_scratch_put(&parts);
  ga_scratch_put(&kd);
  return rc;
}

/* Onesweep (see the top of the file). */
static int onesweep_sort(const ga_sort_call *c) {
  int rc = GA_OK, dev = c->device, dt = c->dtype;
  int64_t N = c->nrows * c->n;
  int big = N >= BIG_RADIX;
  int kb = ga_sort_key_bytes(dt), rb = 0;
  for (int64_t v = c->nrows - 1; v > 0; v >>= 8) rb++;
  int P = kb + rb, carry = c->idx != NULL || rb > 0;
  int kpt = pass_kpt(dt, big, carry), minb = pass_minb();
  int64_t tile = (int64_t)NT * kpt, ntiles = (N + tile - 1) / tile;
  /* hist: 8 blocks of 256 threads per SM (CUB's takes 2112 x 128 threads
   * on an H200) */
  int64_t hchunk = (int64_t)NT * HIST_KPT, G = (N + hchunk - 1) / hchunk, gcap = (int64_t)ga_cuda_sm_count(dev) * 8;
  if (gcap < 1) gcap = 1;
  if (G > gcap) G = gcap;
  size_t esz = (size_t)GA_ITEMSIZE(dt), psz = big ? 8 : 4, csz = psz, lbsz = big ? 8 : 4;
  /* one workspace: look-back words (two regions, alternating) | digit
   * counts [pass][digit] | tile counters (these two zeroed first) | bins */
  size_t region = (size_t)ntiles * 256 * lbsz, look_b = (size_t)(P < 2 ? P : 2) * region;
  size_t cnt_b = (size_t)P * 256 * csz, ctr_b = ((size_t)P * 4 + 15) / 16 * 16, bins_b = (size_t)P * 256 * csz;
  if (ntiles > (int64_t)UINT32_MAX) return ga_err(GA_EINVAL, "sort: %lld elements are too many", (long long)N);
  ga_pool *pool = ga_cuda_pool(dev);
  ga_scratch ws = {0}, tk = {0}, tk2 = {0}, pa = {0}, pb = {0};
  if ((rc = ga_scratch_get(pool, look_b + cnt_b + ctr_b + bins_b, c->stream, &ws))) goto done;
  /* keys: the passes alternate tk and dst (with dst NULL: tk2, and the
   * last pass writes no keys) so that the last one writes dst */
  if (P > 1 && (rc = ga_scratch_get(pool, (size_t)N * esz, c->stream, &tk))) goto done;
  if (!c->dst && P > 2 && (rc = ga_scratch_get(pool, (size_t)N * esz, c->stream, &tk2))) goto done;
  if (carry && P > 1 && (rc = ga_scratch_get(pool, (size_t)N * psz, c->stream, &pa))) goto done;
  if (carry && P > 2 && (rc = ga_scratch_get(pool, (size_t)N * psz, c->stream, &pb))) goto done;
  {
    char *look = ws.ptr, *counts = look + look_b, *ctr = counts + cnt_b, *bins = ctr + ctr_b;
    long long n64 = N, rowlen = c->n, nzero = (long long)(look_b / 16);
    int n32 = (int)N;
    void *kh, *kbn;
    s_gen gh = {K_RHIST, dt, big, 0, 0, HIST_KPT, P, 0}, gb = {K_RBINS, 0, big, 0, 0, 1, 0, 0};
    if ((rc = get_kernel(dev, &gh, &kh)) || (rc = get_kernel(dev, &gb, &kbn))) goto done;
    /* the counts and counters start at zero (queued kernels first: the
     * memset goes to the stream directly) */
    if ((rc = ga_cuda_flush(dev))) goto done;
    cudaError_t e = cudaMemsetAsync(counts, 0, cnt_b + ctr_b, (cudaStream_t)c->stream);
    if (e != cudaSuccess) { rc = ga_cuda_error(e, "cudaMemsetAsync"); goto done; }
    {
      const void *src = c->src;
      void *ha[6] = {&src, big ? (void *)&n64 : (void *)&n32, &rowlen, &counts, &look, &nzero};
      size_t hs[6] = {sizeof(void *), big ? 8 : 4, sizeof rowlen, sizeof(void *), sizeof(void *), sizeof nzero};
      if ((rc = ga_cuda_enqueue(dev, c->stream, kh, (unsigned)G, NT, 0, 6, ha, hs))) goto done;
      void *ba[2] = {&counts, &bins};
      size_t bs[2] = {sizeof(void *), sizeof(void *)};
      if ((rc = ga_cuda_enqueue(dev, c->stream, kbn, (unsigned)P, NT, 0, 2, ba, bs))) goto done;
    }
    const void *kin = c->src, *pin = NULL;
    for (int p = 0; p < P; p++) {
      int last = p == P - 1, odd = (P - 1 - p) % 2;
      void *kout = odd ? tk.ptr : c->dst ? (void *)c->dst : tk2.ptr;
      void *pout = last ? (void *)c->idx : !carry ? NULL : odd ? pa.ptr : (pb.ptr ? pb.ptr : pa.ptr);
      int wkeys = !last || c->dst != NULL;
      s_gen gs = {K_RPASS, dt, big, !carry ? 0 : p == 0 ? 1 : 2, last ? (c->idx ? 2 : 0) : carry, kpt, 0, minb};
      void *ks;
      if ((rc = get_kernel(dev, &gs, &ks))) goto done;
      int byte = p;
      /* pass p's look-back words: region p % 2, zeroed by hist (passes 0
       * and 1) or by pass p - 1 (znext) */
      void *pbins = bins + (size_t)p * 256 * csz, *plook = look + (size_t)(p % 2) * region;
      void *znext = p >= 1 && p + 1 < P ? look + (size_t)((p + 1) % 2) * region : NULL;
      void *pctr = ctr + (size_t)p * 4;
      void *sa[12] = {&kin, &kout, &pin, &pout, big ? (void *)&n64 : (void *)&n32, &byte, &rowlen, &pbins, &plook,
                      &pctr, &wkeys, &znext};
      size_t ss[12] = {sizeof(void *), sizeof(void *), sizeof(void *), sizeof(void *), big ? 8 : 4, sizeof byte,
                       sizeof rowlen, sizeof(void *), sizeof(void *), sizeof(void *), sizeof wkeys, sizeof(void *)};
      if ((rc = ga_cuda_enqueue(dev, c->stream, ks, (unsigned)ntiles, NT, 0, 12, sa, ss))) goto done;
      kin = kout;
      pin = pout;
    }
  }
done:
  ga_scratch_put(&ws);
  ga_scratch_put(&tk);
  ga_scratch_put(&tk2);
  ga_scratch_put(&pa);
  ga_scratch_put(&pb);
  return rc;
}

/* Short rows: one warp (which K_ROWW) or one block (K_ROWB) per row. */
static int rows_sort(const ga_sort_call *c, int which, int kpt) {
  s_gen g = {which, c->dtype, 0, 0, c->idx ? 2 : 0, kpt, 0, 0};
  void *k;
  int rc = get_kernel(c->device, &g, &k);
  if (rc) return rc;
  const void *src = c->src;
  void *dst = c->dst, *idx = c->idx;
  long long n = c->n, nrows = c->nrows;
  int64_t grid = which == K_ROWW ? (nrows + 7) / 8 : nrows;
  void *args[5] = {&src, &dst, &idx, &n, &nrows};
  size_t sizes[5] = {sizeof(void *), sizeof(void *), sizeof(void *), sizeof n, sizeof nrows};
  return ga_cuda_enqueue(c->device, c->stream, k, (unsigned)grid, NT, 0, 5, args, sizes);
}

int ga_cuda_sort(const ga_sort_call *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  int path = ga_sort_path, arg = c->idx != NULL;
  if (path == GA_SORT_PATH_DIGIT) return digit_sort(c);
  if (path != GA_SORT_PATH_ONESWEEP) {
    int kw = roww_kpt(c->dtype, arg, c->n), kb = rowb_kpt(c->dtype, arg, c->n);
    int grid_ok = c->nrows <= INT32_MAX;   /* one block per row (rowb), 8 rows a block (roww) */
    if (path == GA_SORT_PATH_WARP && kw && grid_ok) return rows_sort(c, K_ROWW, kw);
    if (path == GA_SORT_PATH_BLOCK && kb && grid_ok) return rows_sort(c, K_ROWB, kb);
    if (path == GA_SORT_PATH_AUTO && grid_ok) {
      if (kw && (c->nrows >= 1024 || !kb)) return rows_sort(c, K_ROWW, kw);
      if (kb) return rows_sort(c, K_ROWB, kb);
    }
  }
  /* long rows: onesweep */
  return onesweep_sort(c);
}

int ga_cuda_searchsorted(const ga_search_call *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  s_gen g = {K_SEARCH, c->dtype, 0, 0, 0, 1, 0, 0};
  void *k;
  if ((rc = get_kernel(c->device, &g, &k))) return rc;
  long long n = c->n, m = c->m;
  int right = c->right;
  const void *a = c->a, *v = c->v;
  void *out = c->out;
  void *args[6] = {&a, &n, &v, &m, &out, &right};
  size_t sizes[6] = {sizeof(void *), sizeof n, sizeof(void *), sizeof m, sizeof(void *), sizeof right};
  int64_t want = (m + 255) / 256, cap = (int64_t)ga_cuda_sm_count(c->device) * 32;
  return ga_cuda_enqueue(c->device, c->stream, k, (unsigned)(want < cap ? want : cap), 256, 0, 6, args, sizes);
}
