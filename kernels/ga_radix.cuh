// Onesweep LSD radix sort and the short-row sorts (src/cuda/ga_cuda_sort.c
// says the algorithm).  Appended to kernels/ga_sort.cuh compiled with
// GA_SORT_KERNEL 6 (its keys and ga_digit only); the generator puts before
// both: NT (256), IT (positions), PT (payloads), GA_SORT_E, GA_SORT_KEY,
// NKB (key bytes), KPT (keys per thread), GA_PAY_IN, GA_PAY_OUT (as in
// ga_sort.cuh), GA_RADIX_KERNEL (0 hist, 1 bins, 2 pass, 3 rows of a warp,
// 4 rows of a block), NP (digit passes: key bytes + row bytes, hist only)
// and LBW (bits of a look-back word, 32 or 64).
//
// Ranking, everywhere: a group's keys are held in registers in warp-major
// order (warp w holds keys w*32*KPT .. (w+1)*32*KPT - 1 in steps of 32), each
// warp counts its digits with its peers (ga_match8) into private counters
// in shared memory, in key order, so that prefixes over warps and digits
// give each key its stable position.

// digit `byte` of a key computed once (or of the row of payload p)
__device__ __forceinline__ unsigned ga_kdigit(const ga_key &k, const PT p, int byte, long long rowlen) {
  if (byte >= NKB) return (unsigned)(((unsigned long long)p / (unsigned long long)rowlen) >> (8 * (byte - NKB))) & 255u;
  const unsigned long long w = byte < 8 ? k.w0 : byte < 16 ? k.w1 : k.w2;
  return (unsigned)(w >> (8 * (byte & 7))) & 255u;
}

// The lanes of the warp whose digit equals this lane's (0..255, or 256 for
// no key: those lanes group together): nine ballots, much cheaper than
// __match_any_sync (CUB's MatchAny does the same).  Every lane of the warp
// must call it.
__device__ __forceinline__ unsigned ga_match8(unsigned d) {
  const unsigned valid = __ballot_sync(0xffffffffu, d < 256u);
  unsigned m = d < 256u ? valid : ~valid;
#pragma unroll
  for (int b = 0; b < 8; b++) {
    const unsigned bit = (d >> b) & 1u, v = __ballot_sync(0xffffffffu, bit);
    m &= bit ? v : ~v;
  }
  return m;
}

#if GA_RADIX_KERNEL == 2 || GA_RADIX_KERNEL == 4
// ---- block ranking (8 warps, KPT keys each; digit 256 = no key) ----
// dr[r]: the key's digit in bits 0..8 (256: no key); the rank goes above
// bit 9 (fewer registers than two arrays).  wcnt: [8][256] per-warp counts,
// zeroed by the caller and synchronised; on return dr[r] holds the key's
// rank among the keys of its digit in its warp, and the result is the
// block's count of digit threadIdx.x
__device__ __forceinline__ unsigned ga_rank_count(unsigned (&dr)[KPT], unsigned *wcnt) {
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const unsigned lt = (1u << lane) - 1u;
  unsigned *myc = wcnt + warp * 256;
#pragma unroll
  for (int r = 0; r < KPT; r++) {
    const unsigned dg = dr[r] & 511u;
    const bool ok = dg < 256u;
    const unsigned peers = ga_match8(dg);
    const unsigned before = ok ? myc[dg] : 0u;
    __syncwarp();
    if (ok && (peers & lt) == 0) myc[dg] = before + __popc(peers);
    __syncwarp();
    dr[r] = dg | (before + __popc(peers & lt)) << 9;
  }
  __syncthreads();
  unsigned running = 0;
  for (int w = 0; w < 8; w++) { const unsigned c = wcnt[w * 256 + t]; wcnt[w * 256 + t] = running; running += c; }
  return running;
}
// then: the ranks within the block (+= the earlier warps' counts) and
// s_start[digit], the exclusive prefix of the block's digit counts.  Ends
// with a __syncthreads after which wcnt is free.  A key goes to
// s_start[dr & 511] + (dr >> 9).
__device__ __forceinline__ void ga_rank_finish(unsigned (&dr)[KPT], const unsigned *wcnt, unsigned running,
                                               unsigned *s_start, unsigned *wsum) {
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  __syncthreads();   // every warp's prefix is written
#pragma unroll
  for (int r = 0; r < KPT; r++) {
    const unsigned dg = dr[r] & 511u;
    if (dg < 256u) dr[r] += wcnt[warp * 256 + dg] << 9;
  }
  unsigned x = running;
  for (int o = 1; o < 32; o <<= 1) { const unsigned y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }
  if (lane == 31) wsum[warp] = x;
  __syncthreads();
  unsigned add = 0;
  for (int w = 0; w < warp; w++) add += wsum[w];
  s_start[t] = x - running + add;
  __syncthreads();
}
#endif

#if GA_RADIX_KERNEL == 0
// ---- every pass's digit counts in one read: per block [NP][256] counts
// (grid-stride over chunks of 256 x KPT keys); the block also zeroes its
// share of the look-back words (nzero 16-byte words) for the passes ----
extern "C" __global__ void __launch_bounds__(256) ga_radix_hist(const E *keys, IT N, long long rowlen, CT *part,
                                                                uint4 *zero, long long nzero) {
  __shared__ unsigned h[NP * 256];
  const int t = threadIdx.x;
  for (int i = t; i < NP * 256; i += 256) h[i] = 0;
  for (long long i = (long long)blockIdx.x * 256 + t; i < nzero; i += (long long)gridDim.x * 256)
    zero[i] = make_uint4(0u, 0u, 0u, 0u);
  __syncthreads();
  // the most significant key byte (often few values: small integers,
  // float exponents) and the row bytes (neighbours share a row) are counted
  // once per group of equal digits in a warp, the others one by one
  const unsigned lt = (1u << (t & 31)) - 1u;
  for (long long b0 = (long long)blockIdx.x * (256 * KPT); b0 < (long long)N; b0 += (long long)gridDim.x * (256 * KPT)) {
    E v[KPT];
#pragma unroll
    for (int r = 0; r < KPT; r++) {
      const long long i = b0 + r * 256 + t;
      v[r] = keys[i < (long long)N ? i : 0];
    }
#pragma unroll
    for (int r = 0; r < KPT; r++) {
      const long long i = b0 + r * 256 + t;
      const bool ok = i < (long long)N;
      const ga_key k = ga_key_of(v[r]);
#pragma unroll
      for (int b = 0; b < NP; b++) {
        const unsigned dg = ok ? ga_kdigit(k, (PT)i, b, rowlen) : 256u;
        if (b >= NKB - 1) {
          const unsigned peers = ga_match8(dg);
          if (ok && (peers & lt) == 0) atomicAdd(&h[b * 256 + dg], (unsigned)__popc(peers));
        } else if (ok) {
          atomicAdd(&h[b * 256 + dg], 1u);
        }
      }
    }
  }
  __syncthreads();
  for (int i = t; i < NP * 256; i += 256) part[(size_t)blockIdx.x * (NP * 256) + i] = h[i];
}

#elif GA_RADIX_KERNEL == 1
// ---- block p (1024 threads: 4 groups x 256 digits): the digit counts of
// pass p summed over the G histogram blocks, their exclusive prefix ->
// bins[p][digit]; zeroes pass p's tile counter ----
extern "C" __global__ void __launch_bounds__(1024) ga_radix_bins(const CT *part, int G, int np, CT *bins,
                                                                 unsigned *counters) {
  __shared__ CT gs[4][256];
  __shared__ CT ws[8];
  const int p = blockIdx.x, t = threadIdx.x, d = t & 255, q = t >> 8, lane = t & 31, warp = t >> 5;
  CT s = 0;
#pragma unroll 8
  for (int g = q; g < G; g += 4) s += part[((size_t)g * np + p) * 256 + d];
  gs[q][d] = s;
  __syncthreads();
  if (t < 256) {
    s = gs[0][d] + gs[1][d] + gs[2][d] + gs[3][d];
    CT x = s;
    for (int o = 1; o < 32; o <<= 1) { const CT y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }
    if (lane == 31) ws[warp] = x;
    gs[0][d] = x;
  }
  __syncthreads();
  if (t < 256) {
    CT add = 0;
    for (int w = 0; w < warp; w++) add += ws[w];
    bins[(size_t)p * 256 + d] = gs[0][d] - s + add;
  }
  if (t == 0) counters[p] = 0u;
}

#elif GA_RADIX_KERNEL == 2
// ---- one digit pass: tiles in the order of an atomic counter (so a tile
// waits only on tiles whose blocks already run: no deadlock), each ranks
// its keys, publishes its digit counts, and finds each digit's offset by
// decoupled look-back over the earlier tiles' words (status in the top two
// bits: 1 the tile's own count, 2 the inclusive prefix over tiles 0..i;
// passes alternate two regions of words: each tile zeroes its words in the
// other region, znext, for the pass after it) ----
#if LBW == 64
typedef unsigned long long LB;
#define LB_SHIFT 62
#else
typedef unsigned LB;
#define LB_SHIFT 30
#endif
#define LB_AGG ((LB)1 << LB_SHIFT)
#define LB_INC ((LB)2 << LB_SHIFT)
#define LB_MASK (LB_AGG - 1)
#define LBWIN 16   // look-back words read at once
#define CARRY (GA_PAY_IN || GA_PAY_OUT)
#define STAGE (TILE * (sizeof(E) + (CARRY ? sizeof(PT) : 0)))
#define SMEM (STAGE > 8192 ? STAGE : 8192)
extern "C" __global__ void __launch_bounds__(NT, CARRY ? 3 : 4) ga_radix_pass(const E *kin, E *kout, const PT *pin,
    void *pout, IT N, int byte, long long rowlen, const CT *bins, LB *look, unsigned *counter, int wkeys, LB *znext) {
  __shared__ __align__(16) unsigned char sm[SMEM];
  __shared__ CT s_gofs[256];
  __shared__ unsigned s_start[256], wsum[8], s_tile;
  unsigned *wcnt = (unsigned *)sm;   // [warp][digit], while ranking
  E *sk = (E *)sm;                   // the staged tile, after
  PT *sp = (PT *)(sm + TILE * sizeof(E));
  (void)sp; (void)pin; (void)pout;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (t == 0) s_tile = atomicAdd(counter, 1u);
  for (int w = 0; w < 8; w++) wcnt[w * 256 + t] = 0;
  __syncthreads();
  const unsigned tile = s_tile;
  if (znext) znext[(size_t)tile * 256 + t] = 0;   // the next pass's words (two regions alternate)
  const IT base = (IT)tile * TILE;
  const int cnt = N - base < (IT)TILE ? (int)(N - base) : TILE;
  E k[KPT];
  PT p[KPT];
  unsigned dr[KPT];
  const int wbase = warp * 32 * KPT + lane;
#pragma unroll
  for (int r = 0; r < KPT; r++) {   // every load first
    const int j = wbase + r * 32;
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
#pragma unroll
  for (int r = 0; r < KPT; r++) dr[r] = wbase + r * 32 < cnt ? ga_digit(k[r], p[r], byte, rowlen) : 256u;
  const unsigned running = ga_rank_count(dr, wcnt);
  // publish this tile's count of digit t (tile 0: already its prefix)
  volatile LB *lk = (volatile LB *)look;
  lk[(size_t)tile * 256 + t] = (tile == 0 ? LB_INC : LB_AGG) | (LB)running;
  ga_rank_finish(dr, wcnt, running, s_start, wsum);
#pragma unroll
  for (int r = 0; r < KPT; r++)
    if ((dr[r] & 511u) < 256u) {
      const unsigned pos = s_start[dr[r] & 511u] + (dr[r] >> 9);
      sk[pos] = k[r];
#if CARRY
      sp[pos] = p[r];
#endif
    }
  // look-back for digit t while the other warps stage: the words of the
  // LBWIN tiles before j are read at once (one memory round trip per
  // window, not per tile: when many tiles start together, as the first
  // wave of a pass does, the walk to the nearest inclusive prefix is long),
  // then summed in order up to the first inclusive prefix; an unpublished
  // word (its tile's block runs) is read again from there
  LB excl = 0;
  if (tile > 0) {
    long long j = (long long)tile - 1;
    for (;;) {
      LB w[LBWIN];
#pragma unroll
      for (int i = 0; i < LBWIN; i++) w[i] = j - i >= 0 ? lk[(size_t)(j - i) * 256 + t] : (LB)0;
      int used = 0;
      bool done = false;
#pragma unroll
      for (int i = 0; i < LBWIN; i++) {
        const unsigned st = (unsigned)(w[i] >> LB_SHIFT);
        if (!done && used == i && st != 0u) {
          excl += w[i] & LB_MASK;
          used = i + 1;
          done = st == 2u;
        }
      }
      if (done) break;
      j -= used;   // tile 0's word is inclusive, so j stays >= 0
    }
    lk[(size_t)tile * 256 + t] = LB_INC | (excl + (LB)running);
  }
  s_gofs[t] = bins[t] + (CT)excl;
#if GA_PAY_OUT == 2
  const bool one_row = rowlen >= (long long)N;
#endif
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
    if (wkeys) kout[o] = v;
#if GA_PAY_OUT == 1
    ((PT *)pout)[o] = pv;
#elif GA_PAY_OUT == 2
    ((long long *)pout)[o] = (long long)(one_row ? pv : pv % (PT)rowlen) + 1;   // one row: no division
#endif
  }
}

#elif GA_RADIX_KERNEL == 3
// ---- short rows, one warp each (8 rows per block): n <= 32 x KPT keys in
// registers, a digit pass per key byte through the warp's shared memory;
// GA_PAY_OUT 2: idx gets the 1-based positions (argsort) ----
#define CARRY (GA_PAY_OUT == 2)
#define WT (32 * KPT)
#define WSTAGE (((WT * (sizeof(E) + (CARRY ? 2 : 0))) + 15) / 16 * 16)
#define PADI(b) ((b) + ((b) >> 3))   // 8 consecutive counters per lane, conflict-free
extern "C" __global__ void __launch_bounds__(256) ga_radix_roww(const E *src, E *dst, long long *idx, long long n,
                                                                long long nrows) {
  __shared__ unsigned s_cnt[8][288];
  __shared__ __align__(16) unsigned char s_st[8][WSTAGE];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long row = (long long)blockIdx.x * 8 + warp;
  if (row >= nrows) return;
  unsigned *c = s_cnt[warp];
  E *sk = (E *)s_st[warp];
  unsigned short *sp = (unsigned short *)(s_st[warp] + WT * sizeof(E));
  (void)sp; (void)idx;
  const int m = (int)n;
  const E *s = src + row * n;
  const unsigned lt = (1u << lane) - 1u;
  E k[KPT];
  unsigned short p[KPT];
  unsigned rk[KPT], d[KPT];
#pragma unroll
  for (int r = 0; r < KPT; r++) {
    const int j = r * 32 + lane;
    p[r] = (unsigned short)j;
    if (j < m) k[r] = s[j];
  }
  for (int b = 0; b < NKB; b++) {
    for (int i = lane; i < 288; i += 32) c[i] = 0;
    __syncwarp();
#pragma unroll
    for (int r = 0; r < KPT; r++) {
      const bool ok = r * 32 + lane < m;
      d[r] = ok ? ga_kdigit(ga_key_of(k[r]), 0, b, 1) : 256u;
      const unsigned peers = ga_match8(d[r]);
      const unsigned before = ok ? c[PADI(d[r])] : 0u;
      __syncwarp();
      if (ok && (peers & lt) == 0) c[PADI(d[r])] = before + __popc(peers);
      __syncwarp();
      rk[r] = before + __popc(peers & lt);
    }
    // exclusive prefix over the 256 digits: lane L owns digits 8L .. 8L+7
    unsigned v[8], tot = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) { v[i] = c[lane * 9 + i]; tot += v[i]; }
    unsigned x = tot;
    for (int o = 1; o < 32; o <<= 1) { const unsigned y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }
    unsigned e = x - tot;
#pragma unroll
    for (int i = 0; i < 8; i++) { c[lane * 9 + i] = e; e += v[i]; }
    __syncwarp();
#pragma unroll
    for (int r = 0; r < KPT; r++)
      if (d[r] < 256u) {
        const unsigned pos = c[PADI(d[r])] + rk[r];
        sk[pos] = k[r];
#if CARRY
        sp[pos] = p[r];
#endif
      }
    __syncwarp();
    if (b + 1 < NKB) {
#pragma unroll
      for (int r = 0; r < KPT; r++) {
        const int j = r * 32 + lane;
        if (j < m) {
          k[r] = sk[j];
#if CARRY
          p[r] = sp[j];
#endif
        }
      }
      __syncwarp();
    }
  }
  for (int j = lane; j < m; j += 32) {
    if (dst) dst[row * n + j] = sk[j];   // NULL: argsort without the keys
#if CARRY
    idx[row * n + j] = (long long)sp[j] + 1;
#endif
  }
}

#elif GA_RADIX_KERNEL == 4
// ---- rows of up to 256 x KPT keys, one block each: the keys in
// registers, a digit pass per key byte through shared memory (the staging
// area doubles as the ranking counters) ----
#define CARRY (GA_PAY_OUT == 2)
#define STAGE (TILE * (sizeof(E) + (CARRY ? 2 : 0)))
#define SMEM (STAGE > 8192 ? STAGE : 8192)
extern "C" __global__ void __launch_bounds__(NT) ga_radix_rowb(const E *src, E *dst, long long *idx, long long n,
                                                               long long nrows) {
  __shared__ __align__(16) unsigned char sm[SMEM];
  __shared__ unsigned s_start[256], wsum[8];
  unsigned *wcnt = (unsigned *)sm;
  E *sk = (E *)sm;
  unsigned short *sp = (unsigned short *)(sm + TILE * sizeof(E));
  (void)sp; (void)idx; (void)nrows;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const long long row = blockIdx.x;
  const int m = (int)n;
  const E *s = src + row * n;
  const int wbase = warp * 32 * KPT + lane;
  E k[KPT];
  unsigned short p[KPT];
  unsigned dr[KPT];
#pragma unroll
  for (int r = 0; r < KPT; r++) {
    const int j = wbase + r * 32;
    p[r] = (unsigned short)j;
    if (j < m) k[r] = s[j];
  }
  for (int b = 0; b < NKB; b++) {
    for (int w = 0; w < 8; w++) wcnt[w * 256 + t] = 0;
    __syncthreads();
#pragma unroll
    for (int r = 0; r < KPT; r++) dr[r] = wbase + r * 32 < m ? ga_kdigit(ga_key_of(k[r]), 0, b, 1) : 256u;
    const unsigned running = ga_rank_count(dr, wcnt);
    ga_rank_finish(dr, wcnt, running, s_start, wsum);
#pragma unroll
    for (int r = 0; r < KPT; r++)
      if ((dr[r] & 511u) < 256u) {
        const unsigned pos = s_start[dr[r] & 511u] + (dr[r] >> 9);
        sk[pos] = k[r];
#if CARRY
        sp[pos] = p[r];
#endif
      }
    __syncthreads();
    if (b + 1 < NKB) {
#pragma unroll
      for (int r = 0; r < KPT; r++) {
        const int j = wbase + r * 32;
        if (j < m) {
          k[r] = sk[j];
#if CARRY
          p[r] = sp[j];
#endif
        }
      }
      __syncthreads();
    }
  }
  for (int j = t; j < m; j += 256) {
    if (dst) dst[row * n + j] = sk[j];   // NULL: argsort without the keys
#if CARRY
    idx[row * n + j] = (long long)sp[j] + 1;
#endif
  }
}
#endif
