/* Sorting and searching on CUDA (ga_sort.h): an LSD radix sort of 8-bit
 * digits over the order-preserving keys of ga_sort.c (the same transform,
 * written here in CUDA C on the elements' raw bits), and a binary search.
 *
 * One pass per key byte (float32: 4, complex128: 17), least significant
 * first, then, when there are several rows, one pass per byte of the row
 * number: stable passes, so the result is ordered by (row, key) and equal
 * keys keep their input order.  Rows and argsort carry a payload, the
 * element's flat input position (32-bit, 64-bit from 2^31 elements); the
 * row number is payload / n.  Each pass is
 *   hist:    per tile (256 threads x KPT keys) the count of each digit,
 *            stored digit-major: counts[digit * ntiles + tile];
 *   scan:    exclusive prefix sum of the counts (reduce, scan of the
 *            partial sums, down-sweep) -> where each (digit, tile) starts;
 *   scatter: each tile ranks its keys stably (per round of 256 keys: warp
 *            peers by __match_any_sync, per-warp digit counts in shared
 *            memory, prefix over warps and earlier rounds), stages them in
 *            shared memory in digit order and writes each digit's run
 *            contiguously to its place.
 * Buffers alternate so that the last pass writes the caller's dst (and, for
 * argsort, the 1-based positions within the row as int64).  Deterministic;
 * no atomics on global memory; nothing synchronises. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_strbuf.h"
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_sort[];

#define NT 256                /* threads per block of the sort kernels */
#define SCAN_TPC 64           /* tiles per chunk of the offset scan */


enum { K_HIST, K_SCATTER, K_SCAN_REDUCE, K_SCAN_PARTS, K_SCAN_DOWN, K_SEARCH };
static const char *const knames[] = {"ga_sort_hist", "ga_sort_scatter", "ga_scan_reduce", "ga_scan_parts",
                                     "ga_scan_down", "ga_searchsorted"};

typedef struct s_gen {
  int which, dtype, big, pay_in, pay_out, kpt;
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

/* The per-call part (which kernel, types, key, payload modes), then the
 * algorithm of kernels/ga_sort.cuh. */
static char *gen_source(const void *ud) {
  const s_gen *g = ud;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_printf(&b, "// %s, %s, %s positions, payload in %d out %d, %d keys per thread\n", knames[g->which],
               ga_dtypes[g->dtype].name, g->big ? "64-bit" : "32-bit", g->pay_in, g->pay_out, g->kpt);
  ga_sb_printf(&b, "#define NT %d\n#define GA_SORT_KERNEL %d\ntypedef %s IT;\ntypedef %s PT;\n", NT, g->which,
               g->big ? "long long" : "int", g->big ? "unsigned long long" : "unsigned int");
  if (g->which == K_SCAN_REDUCE || g->which == K_SCAN_PARTS || g->which == K_SCAN_DOWN)
    ga_sb_printf(&b, "#define TPC %d\n", SCAN_TPC);
  else
    ga_sb_printf(&b, "#define GA_SORT_E %s\n#define GA_SORT_KEY %d\n", raw_type(g->dtype), key_kind(g->dtype));
  if (g->which == K_HIST || g->which == K_SCATTER)
    ga_sb_printf(&b, "#define NKB %d\n#define KPT %d\n#define GA_PAY_IN %d\n#define GA_PAY_OUT %d\n",
                 ga_sort_key_bytes(g->dtype), g->kpt, g->pay_in, g->which == K_SCATTER ? g->pay_out : 0);
  ga_sb_puts(&b, ga_kernel_ga_sort);
  return ga_sb_take(&b);
}

char *ga_cuda_sort_source(int which, int dtype, int big, int pay_in, int pay_out) {
  if (which < 0 || which > K_SEARCH || dtype < 0 || dtype >= GA_NDTYPES) return NULL;
  s_gen g = {which, dtype, big != 0, pay_in, pay_out, kpt_for(dtype, big, pay_in || pay_out)};
  return gen_source(&g);
}

static int get_kernel(int dev, const s_gen *g, void **kernel) {
  ga_kkey key;
  ga_kpack k;
  int dt = g->which <= K_SCAN_DOWN && g->which >= K_SCAN_REDUCE ? 0 : g->dtype;   /* scans: no dtype */
  ga_kpack_init(&k, &key, GA_KFAM_SORT);
  ga_kpack_put(&k, (uint64_t)g->which, 4);
  ga_kpack_put(&k, (uint64_t)dt, 5);
  ga_kpack_put(&k, (uint64_t)g->big, 1);
  ga_kpack_put(&k, (uint64_t)g->pay_in, 4);
  ga_kpack_put(&k, (uint64_t)g->pay_out, 4);
  ga_kpack_put(&k, (uint64_t)g->kpt, 8);
  return ga_cuda_kernel_get(dev, &key, knames[g->which], gen_source, g, kernel);
}

/* counts[ntiles][256] -> each (digit, tile)'s exclusive prefix in
 * digit-major order, in place; parts: ceil(ntiles / SCAN_TPC) * 256 */
static int run_scan(int dev, void *stream, int big, void *counts, int64_t ntiles, void *parts) {
  s_gen g = {K_SCAN_REDUCE, 0, big, 0, 0, 1};
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

int ga_cuda_sort(const ga_sort_call *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
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
  ga_scratch tk = {0}, pa = {0}, pb = {0}, cnt = {0}, parts = {0};
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
      void *kout = odd ? tk.ptr : c->dst;
      void *pout = last ? (void *)c->idx : !carry ? NULL : odd ? pa.ptr : (pb.ptr ? pb.ptr : pa.ptr);
      s_gen gh = {K_HIST, dt, big, p >= kb ? 2 : 0, 0, kpt};
      s_gen gs = {K_SCATTER, dt, big, !carry ? 0 : p == 0 ? 1 : 2, last ? (c->idx ? 2 : 0) : carry, kpt};
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
  return rc;
}

int ga_cuda_searchsorted(const ga_search_call *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  s_gen g = {K_SEARCH, c->dtype, 0, 0, 0, 1};
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
