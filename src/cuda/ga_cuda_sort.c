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

#define NT 256                /* threads per block of the sort kernels */
#define SCAN_TPC 64           /* tiles per chunk of the offset scan */
#define BIG_LIMIT ((int64_t)INT32_MAX - (1 << 20))

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

static void gen_key(ga_strbuf *b, int dt) {
  ga_sb_puts(b, "struct __align__(16) ga_u128 { unsigned long long lo, hi; };\n"
                "struct ga_key { unsigned long long w2, w1, w0; };\n"
                "__device__ __forceinline__ bool ga_key_lt(const ga_key &a, const ga_key &b) {\n"
                "  return a.w2 != b.w2 ? a.w2 < b.w2 : a.w1 != b.w1 ? a.w1 < b.w1 : a.w0 < b.w0;\n}\n"
                /* floats of width w: NaN largest, -0 as +0, negatives inverted */
                "__device__ __forceinline__ unsigned long long ga_fk(unsigned long long u, int w) {\n"
                "  const unsigned long long sign = 1ull << (w - 1), all = w == 64 ? ~0ull : (sign << 1) - 1,"
                " mag = all >> 1;\n"
                "  const unsigned long long ex = w == 16 ? 0x7c00ull : w == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;\n"
                "  if ((u & mag) > ex) return all;\n"
                "  if ((u & mag) == 0) u = 0;\n"
                "  return (u & sign) ? (~u & all) : (u | sign);\n}\n"
                "__device__ __forceinline__ bool ga_fnan(unsigned long long u, int w) {\n"
                "  const unsigned long long mag = w == 64 ? 0x7fffffffffffffffull : (1ull << (w - 1)) - 1;\n"
                "  const unsigned long long ex = w == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;\n"
                "  return (u & mag) > ex;\n}\n");
  ga_sb_printf(b, "typedef %s E;\n", raw_type(dt));
  ga_sb_puts(b, "__device__ __forceinline__ ga_key ga_key_of(const E v) {\n  ga_key k; k.w2 = 0; k.w1 = 0;\n");
  switch (dt) {
  case GA_BOOL: ga_sb_puts(b, "  k.w0 = v != 0;\n"); break;
  case GA_INT8: ga_sb_puts(b, "  k.w0 = (unsigned)(v ^ 0x80u) & 0xffu;\n"); break;
  case GA_INT16: ga_sb_puts(b, "  k.w0 = (unsigned)(v ^ 0x8000u) & 0xffffu;\n"); break;
  case GA_INT32: ga_sb_puts(b, "  k.w0 = v ^ 0x80000000u;\n"); break;
  case GA_INT64: ga_sb_puts(b, "  k.w0 = v ^ 0x8000000000000000ull;\n"); break;
  case GA_FLOAT16: ga_sb_puts(b, "  k.w0 = ga_fk(v, 16);\n"); break;
  case GA_FLOAT32: ga_sb_puts(b, "  k.w0 = ga_fk(v, 32);\n"); break;
  case GA_FLOAT64: ga_sb_puts(b, "  k.w0 = ga_fk(v, 64);\n"); break;
  case GA_COMPLEX64:   /* real in the low word (it comes first in memory) */
    ga_sb_puts(b, "  const unsigned long long re = v & 0xffffffffull, im = v >> 32;\n"
                  "  const int cls = ga_fnan(re, 32) * 2 + ga_fnan(im, 32);\n"
                  "  const unsigned long long a = cls < 2 ? ga_fk(re, 32) : cls == 2 ? ga_fk(im, 32) : 0,"
                  " c = cls == 0 ? ga_fk(im, 32) : 0;\n"
                  "  k.w1 = cls; k.w0 = a << 32 | c;\n");
    break;
  case GA_COMPLEX128:
    ga_sb_puts(b, "  const int cls = ga_fnan(v.lo, 64) * 2 + ga_fnan(v.hi, 64);\n"
                  "  k.w2 = cls; k.w1 = cls < 2 ? ga_fk(v.lo, 64) : cls == 2 ? ga_fk(v.hi, 64) : 0;\n"
                  "  k.w0 = cls == 0 ? ga_fk(v.hi, 64) : 0;\n");
    break;
  default: ga_sb_puts(b, "  k.w0 = v;\n"); break;   /* unsigned */
  }
  ga_sb_puts(b, "  return k;\n}\n");
}

static void gen_types(ga_strbuf *b, const s_gen *g) {
  ga_sb_printf(b, "typedef %s IT;\ntypedef %s PT;\ntypedef PT CT;\n", g->big ? "long long" : "int",
               g->big ? "unsigned long long" : "unsigned int");
}

/* digit of (v, payload) for pass `byte`: a key byte, or a byte of the row */
static void gen_digit(ga_strbuf *b, int dt) {
  ga_sb_printf(b, "#define NKB %d\n", ga_sort_key_bytes(dt));
  ga_sb_puts(b, "__device__ __forceinline__ unsigned ga_digit(const E v, const PT p, int byte, long long rowlen) {\n"
                "  if (byte >= NKB) return (unsigned)(((unsigned long long)p / (unsigned long long)rowlen) >> "
                "(8 * (byte - NKB))) & 255u;\n"
                "  const ga_key k = ga_key_of(v);\n"
                "  const unsigned long long w = byte < 8 ? k.w0 : byte < 16 ? k.w1 : k.w2;\n"
                "  return (unsigned)(w >> (8 * (byte & 7))) & 255u;\n}\n");
}

static void gen_hist(ga_strbuf *b, const s_gen *g) {
  ga_sb_printf(b, "#define KPT %d\n#define TILE (%d * KPT)\n", g->kpt, NT);
  ga_sb_printf(b, "extern \"C\" __global__ void __launch_bounds__(%d) ga_sort_hist(const E *keys, const PT *pay, IT N, "
               "int byte, long long rowlen, CT *counts, unsigned ntiles) {\n", NT);
  ga_sb_puts(b, "  __shared__ unsigned h[256];\n  const int t = threadIdx.x;\n  h[t] = 0;\n  __syncthreads();\n"
                "  const IT base = (IT)blockIdx.x * TILE;\n"
                "#pragma unroll\n  for (int r = 0; r < KPT; r++) {\n"
                "    const IT i = base + r * 256 + t;\n    if (i < N) {\n");
  ga_sb_printf(b, "      const PT p = %s;\n", g->pay_in == 2 ? "pay[i]" : g->pay_in == 1 ? "(PT)i" : "0");
  ga_sb_puts(b, "      atomicAdd(&h[ga_digit(keys[i], p, byte, rowlen)], 1u);\n    }\n  }\n  (void)pay;\n"
                "  __syncthreads();\n  counts[(size_t)blockIdx.x * 256 + t] = h[t];   /* [tile][digit]: coalesced */\n  (void)ntiles;\n}\n");
}

static void gen_scatter(ga_strbuf *b, const s_gen *g) {
  int carry = g->pay_in || g->pay_out;
  ga_sb_printf(b, "#define KPT %d\n#define TILE (%d * KPT)\n#define CARRY %d\n", g->kpt, NT, carry);
  ga_sb_puts(b, "#define STAGE (TILE * (sizeof(E) + (CARRY ? sizeof(PT) : 0)))\n"
                "#define SMEM (STAGE > 16384 ? STAGE : 16384)\n");
  /* at least 4 (3 with payloads) resident blocks: measured on an H200, the
   * register cap beats the spills it costs (2.6 ms against 3.0 for 2^26
   * float32 keys) */
  ga_sb_printf(b, "extern \"C\" __global__ void __launch_bounds__(%d, %d) ga_sort_scatter(const E *kin, E *kout, "
               "const PT *pin, void *pout, IT N, int byte, long long rowlen, const CT *offs, unsigned ntiles) {\n",
               NT, carry ? 3 : 4);
  ga_sb_puts(b,
    "  __shared__ __align__(16) unsigned char sm[SMEM];\n"
    "  __shared__ CT s_gofs[256];\n  __shared__ unsigned s_start[256], wsum[8];\n"
    "  unsigned *wcnt = (unsigned *)sm, *wpre = wcnt + 8 * 256;   /* [warp][digit], while ranking */\n"
    "  E *sk = (E *)sm;                                            /* the staged tile, after */\n"
    "  PT *sp = (PT *)(sm + TILE * sizeof(E));\n  (void)sp; (void)pin; (void)pout;\n"
    "  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;\n"
    "  const IT base = (IT)blockIdx.x * TILE;\n"
    "  const int cnt = N - base < (IT)TILE ? (int)(N - base) : TILE;\n"
    "  for (int w = 0; w < 8; w++) wcnt[w * 256 + t] = 0;\n"
    "  s_gofs[t] = offs[(size_t)blockIdx.x * 256 + t];\n  (void)ntiles;\n"
    /* warp-major tile: warp w holds keys w*32*KPT .. (w+1)*32*KPT - 1, in
     * steps of 32 (coalesced), so each warp ranks its own keys in order with
     * private counters and the block synchronises a few times per tile */
    "  E k[KPT];\n  PT p[KPT];\n  unsigned d[KPT], rk[KPT];\n"
    "  const unsigned lt = (1u << lane) - 1u;\n"
    "  const int wbase = warp * 32 * KPT + lane;\n"
    "  __syncthreads();\n"
    "#pragma unroll\n  for (int r = 0; r < KPT; r++) {   /* every load first */\n"
    "    const int j = wbase + r * 32;\n    d[r] = 256u;\n    p[r] = 0;\n"
    "    if (j < cnt) {\n      k[r] = kin[base + j];\n");
  if (g->pay_in == 1) ga_sb_puts(b, "      p[r] = (PT)(base + j);\n");
  else if (g->pay_in == 2) ga_sb_puts(b, "      p[r] = pin[base + j];\n");
  ga_sb_puts(b,
    "    }\n  }\n"
    "  unsigned *myc = wcnt + warp * 256;\n"
    "#pragma unroll\n  for (int r = 0; r < KPT; r++) {\n"
    "    const int j = wbase + r * 32;\n"
    "    if (j < cnt) d[r] = ga_digit(k[r], p[r], byte, rowlen);\n"
    "    const unsigned peers = __match_any_sync(0xffffffffu, d[r]);\n"
    "    const unsigned before = j < cnt ? myc[d[r]] : 0u;\n"
    "    __syncwarp();\n"
    "    if (j < cnt && (peers & lt) == 0) myc[d[r]] = before + __popc(peers);\n"
    "    __syncwarp();\n"
    "    rk[r] = before + __popc(peers & lt);\n  }\n"
    "  __syncthreads();\n"
    "  unsigned running = 0;\n"
    "  for (int w = 0; w < 8; w++) { const unsigned c = wcnt[w * 256 + t]; wpre[w * 256 + t] = running; running += c; }\n"
    "  __syncthreads();\n"
    "#pragma unroll\n  for (int r = 0; r < KPT; r++) if (wbase + r * 32 < cnt) rk[r] += wpre[warp * 256 + d[r]];\n"
    "  /* exclusive scan of the tile's digit counts (running, digit t) */\n"
    "  unsigned x = running;\n"
    "  for (int o = 1; o < 32; o <<= 1) { const unsigned y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }\n"
    "  if (lane == 31) wsum[warp] = x;\n"
    "  __syncthreads();   /* also: the ranking arrays are free now */\n"
    "  unsigned add = 0;\n  for (int w = 0; w < warp; w++) add += wsum[w];\n"
  "  s_start[t] = x - running + add;\n"
    "  __syncthreads();\n"
    "#pragma unroll\n  for (int r = 0; r < KPT; r++)\n"
    "    if (wbase + r * 32 < cnt) {\n      const unsigned pos = s_start[d[r]] + rk[r];\n      sk[pos] = k[r];\n");
  if (carry) ga_sb_puts(b, "      sp[pos] = p[r];\n");
  ga_sb_puts(b, "    }\n  __syncthreads();\n"
                "  for (int j = t; j < cnt; j += 256) {\n    const E v = sk[j];\n");
  ga_sb_printf(b, "    const PT pv = %s;\n", carry ? "sp[j]" : "0");
  ga_sb_puts(b, "    const unsigned dd = ga_digit(v, pv, byte, rowlen);\n"
                "    const IT o = (IT)s_gofs[dd] + (IT)(j - (int)s_start[dd]);\n"
                "    kout[o] = v;\n");
  if (g->pay_out == 1) ga_sb_puts(b, "    ((PT *)pout)[o] = pv;\n");
  else if (g->pay_out == 2) ga_sb_puts(b, "    ((long long *)pout)[o] = (long long)(pv % (PT)rowlen) + 1;\n");
  ga_sb_puts(b, "  }\n}\n");
}

/* The tiles' digit counts, [tile][digit], become each (digit, tile)'s
 * output offset: the exclusive prefix in digit-major order.  Every access
 * is coalesced (a block's 256 threads are the 256 digits): per chunk of TPC
 * tiles a sum per digit (reduce), the chunks' starts from the digit totals
 * (parts, one block), then each chunk's tiles in order (down). */
static void gen_scan(ga_strbuf *b, const s_gen *g) {
  ga_sb_printf(b, "#define TPC %d\n", SCAN_TPC);
  if (g->which == K_SCAN_REDUCE)
    ga_sb_puts(b, "extern \"C\" __global__ void __launch_bounds__(256) ga_scan_reduce(const CT *c, long long nt, CT *parts) {\n"
                  "  const int d = threadIdx.x;\n  const long long b0 = (long long)blockIdx.x * TPC, b1 = b0 + TPC < nt ? b0 + TPC : nt;\n"
                  "  CT s = 0;\n#pragma unroll 8\n  for (long long t = b0; t < b1; t++) s += c[t * 256 + d];\n"
                  "  parts[(long long)blockIdx.x * 256 + d] = s;\n}\n");
  else if (g->which == K_SCAN_PARTS)   /* one block of 1024 threads: 4 groups of chunks x 256 digits */
    ga_sb_puts(b, "extern \"C\" __global__ void __launch_bounds__(1024) ga_scan_parts(CT *parts, long long nc) {\n"
                  "  __shared__ CT gs[4][256];\n  __shared__ CT base[256];\n  __shared__ CT ws[8];\n"
                  "  const int t = threadIdx.x, d = t & 255, q = t >> 8, lane = t & 31, warp = t >> 5;\n"
                  "  const long long per = (nc + 3) / 4, k0 = q * per, k1 = k0 + per < nc ? k0 + per : nc;\n"
                  "  CT s = 0;\n#pragma unroll 8\n  for (long long k = k0; k < k1; k++) s += parts[k * 256 + d];\n"
                  "  gs[q][d] = s;\n  __syncthreads();\n"
                  "  const CT tot = t < 256 ? gs[0][t] + gs[1][t] + gs[2][t] + gs[3][t] : 0;\n"
                  "  CT x = tot;\n"
                  "  for (int o = 1; o < 32; o <<= 1) { const CT y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }\n"
                  "  if (lane == 31 && warp < 8) ws[warp] = x;\n  __syncthreads();\n"
                  "  if (t < 256) { CT add = 0; for (int w = 0; w < warp; w++) add += ws[w]; base[t] = x - tot + add; }\n"
                  "  __syncthreads();\n"
                  "  CT run = base[d];\n  for (int qq = 0; qq < q; qq++) run += gs[qq][d];\n"
                  "  for (long long k = k0; k < k1; k++) { const CT v = parts[k * 256 + d]; parts[k * 256 + d] = run; run += v; }\n}\n");
  else
    ga_sb_puts(b, "extern \"C\" __global__ void __launch_bounds__(256) ga_scan_down(CT *c, long long nt, const CT *parts) {\n"
                  "  const int d = threadIdx.x;\n  const long long b0 = (long long)blockIdx.x * TPC, b1 = b0 + TPC < nt ? b0 + TPC : nt;\n"
                  "  CT run = parts[(long long)blockIdx.x * 256 + d];\n"
                  "#pragma unroll 8\n  for (long long t = b0; t < b1; t++) { const CT v = c[t * 256 + d]; c[t * 256 + d] = run; run += v; }\n}\n");
}

static void gen_search(ga_strbuf *b) {
  ga_sb_puts(b, "extern \"C\" __global__ void __launch_bounds__(256) ga_searchsorted(const E *a, long long n, const E *v, "
                "long long m, long long *out, int right) {\n"
                "  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < m;"
                " j += (long long)gridDim.x * blockDim.x) {\n"
                "    const ga_key kv = ga_key_of(v[j]);\n    long long lo = 0, hi = n;\n"
                "    while (lo < hi) {\n      const long long mid = lo + (hi - lo) / 2;\n"
                "      const ga_key ka = ga_key_of(a[mid]);\n"
                "      if (right ? !ga_key_lt(kv, ka) : ga_key_lt(ka, kv)) lo = mid + 1; else hi = mid;\n    }\n"
                "    out[j] = lo + 1;\n  }\n}\n");
}

static char *gen_source(const void *ud) {
  const s_gen *g = ud;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_printf(&b, "// %s, %s, %s positions, payload in %d out %d, %d keys per thread\n", knames[g->which],
               ga_dtypes[g->dtype].name, g->big ? "64-bit" : "32-bit", g->pay_in, g->pay_out, g->kpt);
  gen_types(&b, g);
  if (g->which == K_SCAN_REDUCE || g->which == K_SCAN_PARTS || g->which == K_SCAN_DOWN) {
    gen_scan(&b, g);
    return ga_sb_take(&b);
  }
  gen_key(&b, g->dtype);
  if (g->which == K_SEARCH) {
    gen_search(&b);
    return ga_sb_take(&b);
  }
  gen_digit(&b, g->dtype);
  if (g->which == K_HIST) gen_hist(&b, g);
  else gen_scatter(&b, g);
  return ga_sb_take(&b);
}

char *ga_cuda_sort_source(int which, int dtype, int big, int pay_in, int pay_out) {
  if (which < 0 || which > K_SEARCH || dtype < 0 || dtype >= GA_NDTYPES) return NULL;
  s_gen g = {which, dtype, big != 0, pay_in, pay_out, kpt_for(dtype, big, pay_in || pay_out)};
  return gen_source(&g);
}

static int get_kernel(int dev, const s_gen *g, void **kernel) {
  ga_kkey key;
  memset(&key, 0, sizeof key);
  int dt = g->which <= K_SCAN_DOWN && g->which >= K_SCAN_REDUCE ? 0 : g->dtype;   /* scans: no dtype */
  /* bit 40 clear: apart from the elementwise keys */
  key.w[0] = 0x535254ull << 41 /* "SRT" */ | (uint64_t)g->which | (uint64_t)dt << 4 | (uint64_t)g->big << 9 |
             (uint64_t)g->pay_in << 10 | (uint64_t)g->pay_out << 12 | (uint64_t)g->kpt << 16;
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
  int big = N >= BIG_LIMIT;
  int kb = ga_sort_key_bytes(dt), rb = 0;
  for (int64_t v = c->nrows - 1; v > 0; v >>= 8) rb++;
  int P = kb + rb, carry = c->idx != NULL || rb > 0;
  int kpt = kpt_for(dt, big, carry);
  int64_t tile = (int64_t)NT * kpt, ntiles = (N + tile - 1) / tile, M = 256 * ntiles;
  size_t esz = (size_t)GA_ITEMSIZE(dt), psz = big ? 8 : 4;
  ga_buffer *tk = NULL, *pa = NULL, *pb = NULL, *cnt = NULL, *parts = NULL;
  if (P > 1 && (rc = ga_buffer_new(dev, (size_t)N * esz, c->stream, &tk))) goto done;
  if (carry && P > 1 && (rc = ga_buffer_new(dev, (size_t)N * psz, c->stream, &pa))) goto done;
  if (carry && P > 2 && (rc = ga_buffer_new(dev, (size_t)N * psz, c->stream, &pb))) goto done;
  if ((rc = ga_buffer_new(dev, (size_t)M * psz, c->stream, &cnt))) goto done;
  if ((rc = ga_buffer_new(dev, (size_t)((ntiles + SCAN_TPC - 1) / SCAN_TPC) * 256 * psz, c->stream, &parts))) goto done;
  {
    const void *kin = c->src, *pin = NULL;
    long long n64 = N, rowlen = c->n;
    int n32 = (int)N;
    unsigned nt = (unsigned)ntiles;
    for (int p = 0; p < P; p++) {
      int last = p == P - 1, odd = (P - 1 - p) % 2;
      void *kout = odd ? tk->ptr : c->dst;
      void *pout = last ? (void *)c->idx : !carry ? NULL : odd ? pa->ptr : (pb ? pb->ptr : pa->ptr);
      s_gen gh = {K_HIST, dt, big, p >= kb ? 2 : 0, 0, kpt};
      s_gen gs = {K_SCATTER, dt, big, !carry ? 0 : p == 0 ? 1 : 2, last ? (c->idx ? 2 : 0) : carry, kpt};
      void *kh, *ks;
      if ((rc = get_kernel(dev, &gh, &kh)) || (rc = get_kernel(dev, &gs, &ks))) goto done;
      int byte = p;
      void *cp = cnt->ptr;
      void *ha[7] = {&kin, &pin, big ? (void *)&n64 : (void *)&n32, &byte, &rowlen, &cp, &nt};
      size_t hs[7] = {sizeof(void *), sizeof(void *), big ? 8 : 4, sizeof byte, sizeof rowlen, sizeof(void *),
                      sizeof nt};
      if ((rc = ga_cuda_enqueue(dev, c->stream, kh, nt, NT, 0, 7, ha, hs))) goto done;
      if ((rc = run_scan(dev, c->stream, big, cnt->ptr, ntiles, parts->ptr))) goto done;
      void *sa[9] = {&kin, &kout, &pin, &pout, big ? (void *)&n64 : (void *)&n32, &byte, &rowlen, &cp, &nt};
      size_t ss[9] = {sizeof(void *), sizeof(void *), sizeof(void *), sizeof(void *), big ? 8 : 4, sizeof byte,
                      sizeof rowlen, sizeof(void *), sizeof nt};
      if ((rc = ga_cuda_enqueue(dev, c->stream, ks, nt, NT, 0, 9, sa, ss))) goto done;
      kin = kout;
      pin = pout;
    }
  }
done:
  if (tk) ga_buffer_decref(tk);
  if (pa) ga_buffer_decref(pa);
  if (pb) ga_buffer_decref(pb);
  if (cnt) ga_buffer_decref(cnt);
  if (parts) ga_buffer_decref(parts);
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
  const ga_device_props *p = ga_cuda_props(c->device);
  int64_t want = (m + 255) / 256, cap = (int64_t)(p ? p->multiprocessors : 132) * 32;
  return ga_cuda_enqueue(c->device, c->stream, k, (unsigned)(want < cap ? want : cap), 256, 0, 6, args, sizes);
}
