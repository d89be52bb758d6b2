// Radix sort and binary search (src/cuda/ga_cuda_sort.c says the
// algorithm).  The generator puts before this text: NT (threads per block),
// GA_SORT_KERNEL (0 hist, 1 scatter, 2 scan_reduce, 3 scan_parts,
// 4 scan_down, 5 search; 6: the keys and ga_digit only, for
// kernels/ga_radix.cuh, appended), IT (positions) and PT (payloads); for the keyed
// kernels GA_SORT_E (the element's raw storage type) and GA_SORT_KEY (the
// key transform: 0 unsigned, 1 bool, 2 int8, 3 int16, 4 int32, 5 int64,
// 6 float16, 7 float32, 8 float64, 9 complex64, 10 complex128); for hist
// and scatter NKB (key bytes), KPT (keys per thread), GA_PAY_IN (0 none,
// 1 the position, 2 read) and GA_PAY_OUT (0 none, 1 the payload, 2 the
// 1-based position within the row as int64).
typedef PT CT;

#if GA_SORT_KERNEL >= 2 && GA_SORT_KERNEL <= 4
// The tiles' digit counts, [tile][digit], become each (digit, tile)'s
// output offset: the exclusive prefix in digit-major order.  Every access
// is coalesced (a block's 256 threads are the 256 digits): per chunk of TPC
// tiles a sum per digit (reduce), the chunks' starts from the digit totals
// (parts, one block), then each chunk's tiles in order (down).
#if GA_SORT_KERNEL == 2
extern "C" __global__ void __launch_bounds__(256) ga_scan_reduce(const CT *c, long long nt, CT *parts) {
  const int d = threadIdx.x;
  const long long b0 = (long long)blockIdx.x * TPC, b1 = b0 + TPC < nt ? b0 + TPC : nt;
  CT s = 0;
#pragma unroll 8
  for (long long t = b0; t < b1; t++) s += c[t * 256 + d];
  parts[(long long)blockIdx.x * 256 + d] = s;
}
#elif GA_SORT_KERNEL == 3
// one block of 1024 threads: 4 groups of chunks x 256 digits
extern "C" __global__ void __launch_bounds__(1024) ga_scan_parts(CT *parts, long long nc) {
  __shared__ CT gs[4][256];
  __shared__ CT base[256];
  __shared__ CT ws[8];
  const int t = threadIdx.x, d = t & 255, q = t >> 8, lane = t & 31, warp = t >> 5;
  const long long per = (nc + 3) / 4, k0 = q * per, k1 = k0 + per < nc ? k0 + per : nc;
  CT s = 0;
#pragma unroll 8
  for (long long k = k0; k < k1; k++) s += parts[k * 256 + d];
  gs[q][d] = s;
  __syncthreads();
  const CT tot = t < 256 ? gs[0][t] + gs[1][t] + gs[2][t] + gs[3][t] : 0;
  CT x = tot;
  for (int o = 1; o < 32; o <<= 1) { const CT y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }
  if (lane == 31 && warp < 8) ws[warp] = x;
  __syncthreads();
  if (t < 256) { CT add = 0; for (int w = 0; w < warp; w++) add += ws[w]; base[t] = x - tot + add; }
  __syncthreads();
  CT run = base[d];
  for (int qq = 0; qq < q; qq++) run += gs[qq][d];
  for (long long k = k0; k < k1; k++) { const CT v = parts[k * 256 + d]; parts[k * 256 + d] = run; run += v; }
}
#else
extern "C" __global__ void __launch_bounds__(256) ga_scan_down(CT *c, long long nt, const CT *parts) {
  const int d = threadIdx.x;
  const long long b0 = (long long)blockIdx.x * TPC, b1 = b0 + TPC < nt ? b0 + TPC : nt;
  CT run = parts[(long long)blockIdx.x * 256 + d];
#pragma unroll 8
  for (long long t = b0; t < b1; t++) { const CT v = c[t * 256 + d]; c[t * 256 + d] = run; run += v; }
}
#endif

#else
// ---- keys: the order-preserving transform of ga_sort.c on raw bits ----
struct __align__(16) ga_u128 { unsigned long long lo, hi; };
struct ga_key { unsigned long long w2, w1, w0; };
__device__ __forceinline__ bool ga_key_lt(const ga_key &a, const ga_key &b) {
  return a.w2 != b.w2 ? a.w2 < b.w2 : a.w1 != b.w1 ? a.w1 < b.w1 : a.w0 < b.w0;
}
// floats of width w: NaN largest, -0 as +0, negatives inverted
__device__ __forceinline__ unsigned long long ga_fk(unsigned long long u, int w) {
  const unsigned long long sign = 1ull << (w - 1), all = w == 64 ? ~0ull : (sign << 1) - 1, mag = all >> 1;
  const unsigned long long ex = w == 16 ? 0x7c00ull : w == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;
  if ((u & mag) > ex) return all;
  if ((u & mag) == 0) u = 0;
  return (u & sign) ? (~u & all) : (u | sign);
}
// the same for halves (w 16) and floats (w 32) in 32-bit arithmetic (fewer
// instructions in the passes' digit extraction)
__device__ __forceinline__ unsigned ga_fk32(unsigned u, int w) {
  const unsigned sign = 1u << (w - 1), all = w == 32 ? ~0u : (sign << 1) - 1, mag = all >> 1;
  const unsigned ex = w == 16 ? 0x7c00u : 0x7f800000u;
  if ((u & mag) > ex) return all;
  if ((u & mag) == 0) u = 0;
  return (u & sign) ? (~u & all) : (u | sign);
}
__device__ __forceinline__ bool ga_fnan(unsigned long long u, int w) {
  const unsigned long long mag = w == 64 ? 0x7fffffffffffffffull : (1ull << (w - 1)) - 1;
  const unsigned long long ex = w == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;
  return (u & mag) > ex;
}
typedef GA_SORT_E E;
__device__ __forceinline__ ga_key ga_key_of(const E v) {
  ga_key k; k.w2 = 0; k.w1 = 0;
#if GA_SORT_KEY == 1
  k.w0 = v != 0;
#elif GA_SORT_KEY == 2
  k.w0 = (unsigned)(v ^ 0x80u) & 0xffu;
#elif GA_SORT_KEY == 3
  k.w0 = (unsigned)(v ^ 0x8000u) & 0xffffu;
#elif GA_SORT_KEY == 4
  k.w0 = v ^ 0x80000000u;
#elif GA_SORT_KEY == 5
  k.w0 = v ^ 0x8000000000000000ull;
#elif GA_SORT_KEY == 6
  k.w0 = ga_fk32(v, 16);
#elif GA_SORT_KEY == 7
  k.w0 = ga_fk32(v, 32);
#elif GA_SORT_KEY == 8
  k.w0 = ga_fk(v, 64);
#elif GA_SORT_KEY == 9
  // real in the low word (it comes first in memory)
  const unsigned long long re = v & 0xffffffffull, im = v >> 32;
  const int cls = ga_fnan(re, 32) * 2 + ga_fnan(im, 32);
  const unsigned long long a = cls < 2 ? ga_fk(re, 32) : cls == 2 ? ga_fk(im, 32) : 0, c = cls == 0 ? ga_fk(im, 32) : 0;
  k.w1 = cls; k.w0 = a << 32 | c;
#elif GA_SORT_KEY == 10
  const int cls = ga_fnan(v.lo, 64) * 2 + ga_fnan(v.hi, 64);
  k.w2 = cls; k.w1 = cls < 2 ? ga_fk(v.lo, 64) : cls == 2 ? ga_fk(v.hi, 64) : 0;
  k.w0 = cls == 0 ? ga_fk(v.hi, 64) : 0;
#else
  k.w0 = v;   // unsigned
#endif
  return k;
}

#if GA_SORT_KERNEL == 5
extern "C" __global__ void __launch_bounds__(256) ga_searchsorted(const E *a, long long n, const E *v, long long m,
                                                                  long long *out, int right) {
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += (long long)gridDim.x * blockDim.x) {
    const ga_key kv = ga_key_of(v[j]);
    long long lo = 0, hi = n;
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      const ga_key ka = ga_key_of(a[mid]);
      if (right ? !ga_key_lt(kv, ka) : ga_key_lt(ka, kv)) lo = mid + 1; else hi = mid;
    }
    out[j] = lo + 1;
  }
}

#else
// digit `byte` of a key computed once: a key byte, or (byte >= NKB) a byte
// of the row of payload p (the element's flat position)
__device__ __forceinline__ unsigned ga_kdigit(const ga_key &k, const PT p, int byte, long long rowlen) {
  if (byte >= NKB) return (unsigned)(((unsigned long long)p / (unsigned long long)rowlen) >> (8 * (byte - NKB))) & 255u;
  const unsigned long long w = byte < 8 ? k.w0 : byte < 16 ? k.w1 : k.w2;
  return (unsigned)(w >> (8 * (byte & 7))) & 255u;
}
#if NKB <= 4
// keys of at most 4 bytes in 32-bit arithmetic (the passes' digits); float32
// branch-free: NaN largest, -0 as +0, negatives inverted
__device__ __forceinline__ unsigned ga_key32(const E v) {
#if GA_SORT_KEY == 7
  const unsigned u = v, mag = u & 0x7fffffffu, key = u ^ ((unsigned)((int)u >> 31) | 0x80000000u);
  return mag > 0x7f800000u ? 0xffffffffu : mag == 0u ? 0x80000000u : key;
#else
  return (unsigned)ga_key_of(v).w0;
#endif
}
#endif
// digit of (v, payload) for pass `byte`
__device__ __forceinline__ unsigned ga_digit(const E v, const PT p, int byte, long long rowlen) {
#if NKB <= 4
  if (byte < NKB) return __byte_perm(ga_key32(v), 0u, 0x4440u | (unsigned)byte);   // byte `byte`, zero above
#endif
  return ga_kdigit(ga_key_of(v), p, byte, rowlen);
}

// The lanes of the warp whose digit equals this lane's (0..255, or 256 for
// no key: those lanes group together): nine ballots (CUB's MatchAny does
// the same; __match_any_sync measured slower on an H200).  Every lane of
// the warp must call it.
// NB 8: digits 0..255 only (a block's ranking gives its missing keys digit
// 255: they are the tile's last keys, so they rank after every real one).
template <int NB = 9>
__device__ __forceinline__ unsigned ga_match8(unsigned d) {
  unsigned m = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < NB; b++) {
#ifdef __CUDA_ARCH__
    // a ballot of bit b, inverted where this lane's bit is 0: four
    // instructions a bit (the compiler's own take of the C below needs six)
    unsigned v;
    asm volatile("{\n\t.reg .pred p;\n\t.reg .u32 q;\n\t"
        "and.b32 q, %1, %2;\n\tsetp.ne.u32 p, q, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t@!p not.b32 %0, %0;\n\t}"
        : "=r"(v) : "r"(d), "r"(1u << b));
    m &= v;
#else
    const unsigned bit = (d >> b) & 1u, v = __ballot_sync(0xffffffffu, bit);
    m &= bit ? v : ~v;
#endif
  }
  return m;
}

// Stable rank of this lane's key among the warp's keys of its digit d
// (256: no key), counted on from *c (the warp's own counter of digit d,
// c ignored for no key): returns *c + the lanes below with the same digit,
// and *c grows by the warp's keys of d.  Calls in key order give each key
// its place; every lane of the warp must call it.  NB 8: d < 256 always.
template <int NB = 9>
__device__ __forceinline__ unsigned ga_warp_rank(unsigned d, unsigned *c) {
  const unsigned lt = (1u << (threadIdx.x & 31)) - 1u, peers = ga_match8<NB>(d);
  const bool ok = NB == 8 || d < 256u;
  const unsigned before = ok ? *c : 0u;
  __syncwarp();
  if (ok && (peers & lt) == 0) *c = before + __popc(peers);
  __syncwarp();
  return before + __popc(peers & lt);
}
#define TILE (NT * KPT)

#if GA_SORT_KERNEL == 0
// per tile the count of each digit
extern "C" __global__ void __launch_bounds__(NT) ga_sort_hist(const E *keys, const PT *pay, IT N, int byte,
                                                              long long rowlen, CT *counts, unsigned ntiles) {
  __shared__ unsigned h[256];
  const int t = threadIdx.x;
  h[t] = 0;
  __syncthreads();
  const IT base = (IT)blockIdx.x * TILE;
#pragma unroll
  for (int r = 0; r < KPT; r++) {
    const IT i = base + r * 256 + t;
    if (i < N) {
#if GA_PAY_IN == 2
      const PT p = pay[i];
#elif GA_PAY_IN == 1
      const PT p = (PT)i;
#else
      const PT p = 0;
#endif
      atomicAdd(&h[ga_digit(keys[i], p, byte, rowlen)], 1u);
    }
  }
  (void)pay;
  __syncthreads();
  counts[(size_t)blockIdx.x * 256 + t] = h[t];   // [tile][digit]: coalesced
  (void)ntiles;
}

#elif GA_SORT_KERNEL == 1
#define CARRY (GA_PAY_IN || GA_PAY_OUT)
#define STAGE (TILE * (sizeof(E) + (CARRY ? sizeof(PT) : 0)))
#define SMEM (STAGE > 16384 ? STAGE : 16384)
// each tile ranks its keys stably, stages them in digit order and writes
// each digit's run to its place.  At least 4 (3 with payloads) resident
// blocks: measured on an H200, the register cap beats the spills it costs
// (2.6 ms against 3.0 for 2^26 float32 keys)
extern "C" __global__ void __launch_bounds__(NT, CARRY ? 3 : 4) ga_sort_scatter(const E *kin, E *kout,
    const PT *pin, void *pout, IT N, int byte, long long rowlen, const CT *offs, unsigned ntiles) {
  __shared__ __align__(16) unsigned char sm[SMEM];
  __shared__ CT s_gofs[256];
  __shared__ unsigned s_start[256], wsum[8];
  unsigned *wcnt = (unsigned *)sm, *wpre = wcnt + 8 * 256;   // [warp][digit], while ranking
  E *sk = (E *)sm;                                            // the staged tile, after
  PT *sp = (PT *)(sm + TILE * sizeof(E));
  (void)sp; (void)pin; (void)pout;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const IT base = (IT)blockIdx.x * TILE;
  const int cnt = N - base < (IT)TILE ? (int)(N - base) : TILE;
  for (int w = 0; w < 8; w++) wcnt[w * 256 + t] = 0;
  s_gofs[t] = offs[(size_t)blockIdx.x * 256 + t];
  (void)ntiles;
  // warp-major tile: warp w holds keys w*32*KPT .. (w+1)*32*KPT - 1, in
  // steps of 32 (coalesced), so each warp ranks its own keys in order with
  // private counters and the block synchronises a few times per tile
  E k[KPT];
  PT p[KPT];
  unsigned d[KPT], rk[KPT];
  const int wbase = warp * 32 * KPT + lane;
  __syncthreads();
#pragma unroll
  for (int r = 0; r < KPT; r++) {   // every load first
    const int j = wbase + r * 32;
    d[r] = 256u;
    p[r] = 0;
    if (j < cnt) {
      k[r] = kin[base + j];
#if GA_PAY_IN == 1
      p[r] = (PT)(base + j);
#elif GA_PAY_IN == 2
      p[r] = pin[base + j];
#endif
    }
  }
  unsigned *myc = wcnt + warp * 256;
#pragma unroll
  for (int r = 0; r < KPT; r++) {
    if (wbase + r * 32 < cnt) d[r] = ga_digit(k[r], p[r], byte, rowlen);
    rk[r] = ga_warp_rank(d[r], myc + (d[r] & 255u));
  }
  __syncthreads();
  unsigned running = 0;
  for (int w = 0; w < 8; w++) { const unsigned c = wcnt[w * 256 + t]; wpre[w * 256 + t] = running; running += c; }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < KPT; r++) if (wbase + r * 32 < cnt) rk[r] += wpre[warp * 256 + d[r]];
  // exclusive scan of the tile's digit counts (running, digit t)
  unsigned x = running;
  for (int o = 1; o < 32; o <<= 1) { const unsigned y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }
  if (lane == 31) wsum[warp] = x;
  __syncthreads();   // also: the ranking arrays are free now
  unsigned add = 0;
  for (int w = 0; w < warp; w++) add += wsum[w];
  s_start[t] = x - running + add;
  __syncthreads();
#pragma unroll
  for (int r = 0; r < KPT; r++)
    if (wbase + r * 32 < cnt) {
      const unsigned pos = s_start[d[r]] + rk[r];
      sk[pos] = k[r];
#if CARRY
      sp[pos] = p[r];
#endif
    }
  __syncthreads();
  for (int j = t; j < cnt; j += 256) {
    const E v = sk[j];
#if CARRY
    const PT pv = sp[j];
#else
    const PT pv = 0;
#endif
    const unsigned dd = ga_digit(v, pv, byte, rowlen);
    const IT o = (IT)s_gofs[dd] + (IT)(j - (int)s_start[dd]);
    kout[o] = v;
#if GA_PAY_OUT == 1
    ((PT *)pout)[o] = pv;
#elif GA_PAY_OUT == 2
    ((long long *)pout)[o] = (long long)(pv % (PT)rowlen) + 1;
#endif
  }
}
#endif
#endif
#endif
