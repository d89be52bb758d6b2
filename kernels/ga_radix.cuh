// Onesweep LSD radix sort and the short-row sorts (src/cuda/ga_cuda_sort.c
// says the algorithm).  Appended to kernels/ga_sort.cuh compiled with
// GA_SORT_KERNEL 6 (its keys and ga_digit only); the generator puts before
// both: NT (256), IT (positions), PT (payloads), GA_SORT_E, GA_SORT_KEY,
// NKB (key bytes), KPT (keys per thread), GA_PAY_IN, GA_PAY_OUT (as in
// ga_sort.cuh), GA_RADIX_KERNEL (0 hist, 1 bins, 2 pass, 3 rows of a warp,
// 4 rows of a block), NP (digit passes: key bytes + row bytes, hist only)
// and LBW (bits of a look-back word, 32 or 64); for the pass, a tuning knob
// (src/cuda/ga_cuda_sort.c): MINB (resident blocks per SM asked of the
// compiler).
//
// Ranking, everywhere: a group's keys are held in registers in warp-major
// order (warp w holds keys w*32*KPT .. (w+1)*32*KPT - 1 in steps of 32);
// each warp ranks its keys among its peers (ga_warp_rank of ga_sort.cuh)
// on private counters in shared memory, in key order, which start (in a
// block) from prefixes over digits and earlier warps of counts taken first,
// so that each key gets its stable position.

#if GA_RADIX_KERNEL == 2 || GA_RADIX_KERNEL == 4
// ---- block ranking: NT / 32 warps of KPT keys each, dr[r] the key's digit
// (a missing key, past the tile's or row's end, has digit 255: it ranks
// after every real key, at a place >= the real keys' count, and only the
// last tile, whose counts no tile reads, has any), in three steps so that
// a onesweep pass publishes its counts as early as CUB's does (before
// ranking).  wcnt: [NT / 32][256] per-warp counters, zeroed by the caller
// and synchronised ----
#define NW (NT / 32)
#if NT != 256
#error "the block ranking takes thread t as digit t"
#endif
// per-warp digit counts (shared atomics); then wcnt[w][t] holds the keys of
// digit t in the warps before w; returns the block's count of digit t
__device__ __forceinline__ unsigned ga_block_count(const unsigned (&dr)[KPT], unsigned *wcnt) {
  const int t = threadIdx.x, warp = t >> 5;
#pragma unroll
  for (int r = 0; r < KPT; r++)
    atomicAdd(&wcnt[warp * 256 + dr[r]], 1u);
  __syncthreads();
  unsigned running = 0;
#pragma unroll
  for (int w = 0; w < NW; w++) { const unsigned c = wcnt[w * 256 + t]; wcnt[w * 256 + t] = running; running += c; }
  return running;
}
// s_start[t]: the exclusive prefix of the block's digit counts (count: the
// block's count of digit t), also added to wcnt[.][t]
__device__ __forceinline__ void ga_block_scan(unsigned count, unsigned *wcnt, unsigned *s_start, unsigned *wsum) {
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned x = count;
  for (int o = 1; o < 32; o <<= 1) { const unsigned y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }
  if (lane == 31) wsum[warp] = x;
  __syncthreads();
  unsigned add = 0;
  for (int w = 0; w < warp; w++) add += wsum[w];
  const unsigned start = x - count + add;
  s_start[t] = start;
#pragma unroll
  for (int w = 0; w < NW; w++) wcnt[w * 256 + t] += start;
  __syncthreads();
}
// dr[r] becomes the key's place in the block's digit order (keys in order
// of warp, then r, then lane); ends synchronised with wcnt free
__device__ __forceinline__ void ga_block_rank(unsigned (&dr)[KPT], unsigned *wcnt) {
  unsigned *myc = wcnt + (threadIdx.x >> 5) * 256;
#pragma unroll
  for (int r = 0; r < KPT; r++) dr[r] = ga_warp_rank<8>(dr[r], myc + dr[r]);
  __syncthreads();
}
#endif

#if GA_RADIX_KERNEL == 3 || GA_RADIX_KERNEL == 4
#define CARRY (GA_PAY_OUT == 2)   // short rows: 16-bit positions for argsort
// ---- short rows: the group's keys (and 16-bit positions) back into
// registers from the staging area for the next digit, and the row out ----
__device__ __forceinline__ void ga_row_reload(E (&k)[KPT], unsigned short (&p)[KPT], const E *sk,
                                              const unsigned short *sp, int j0, int m) {
  (void)sp; (void)p;
#pragma unroll
  for (int r = 0; r < KPT; r++) {
    const int j = j0 + r * 32;
    if (j < m) {
      k[r] = sk[j];
#if CARRY
      p[r] = sp[j];
#endif
    }
  }
}
__device__ __forceinline__ void ga_row_out(const E *sk, const unsigned short *sp, E *dst, long long *idx, long long row,
                                           long long n, int j0, int step) {
  (void)sp; (void)idx;
  for (int j = j0; j < (int)n; j += step) {
    if (dst) dst[row * n + j] = sk[j];   // NULL: argsort without the keys
#if CARRY
    idx[row * n + j] = (long long)sp[j] + 1;
#endif
  }
}
#endif

#if GA_RADIX_KERNEL == 0
// ---- every pass's digit counts in one read: per block [NP][256] counts in
// shared memory (grid-stride over chunks of 256 x KPT keys; atomicAdd of 1
// compiles to ATOMS.POPC.INC, which adds a warp's equal digits at once, so
// few distinct values cost no more), then added to counts[NP][256] in
// global memory (zeroed before); the block also zeroes its share of the
// look-back words (nzero 16-byte words) for the passes ----
extern "C" __global__ void __launch_bounds__(256, 8) ga_radix_hist(const E *keys, IT N, long long rowlen, CT *counts,
                                                                   uint4 *zero, long long nzero) {
  __shared__ unsigned h[NP * 256];
  const int t = threadIdx.x;
  for (int i = t; i < NP * 256; i += 256) h[i] = 0;
  for (long long i = (long long)blockIdx.x * 256 + t; i < nzero; i += (long long)gridDim.x * 256)
    zero[i] = make_uint4(0u, 0u, 0u, 0u);
  __syncthreads();
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
      if (i < (long long)N) {
#if NKB <= 4
        const unsigned k32 = ga_key32(v[r]);
#pragma unroll
        for (int b = 0; b < NKB; b++) atomicAdd(&h[b * 256 + ((k32 >> (8 * b)) & 255u)], 1u);
#pragma unroll
        for (int b = NKB; b < NP; b++) atomicAdd(&h[b * 256 + ga_kdigit(ga_key(), (PT)i, b, rowlen)], 1u);
#else
        const ga_key k = ga_key_of(v[r]);
#pragma unroll
        for (int b = 0; b < NP; b++) atomicAdd(&h[b * 256 + ga_kdigit(k, (PT)i, b, rowlen)], 1u);
#endif
      }
    }
  }
  __syncthreads();
  for (int i = t; i < NP * 256; i += 256)
    if (h[i]) atomicAdd(&counts[i], (CT)h[i]);
}

#elif GA_RADIX_KERNEL == 1
// ---- block p (256 threads, one per digit): pass p's exclusive digit
// offsets from its counts -> bins[p][digit] ----
extern "C" __global__ void __launch_bounds__(256) ga_radix_bins(const CT *counts, CT *bins) {
  __shared__ CT ws[8];
  const int p = blockIdx.x, t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const CT s = counts[(size_t)p * 256 + t];
  CT x = s;
  for (int o = 1; o < 32; o <<= 1) { const CT y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }
  if (lane == 31) ws[warp] = x;
  __syncthreads();
  CT add = 0;
  for (int w = 0; w < warp; w++) add += ws[w];
  bins[(size_t)p * 256 + t] = x - s + add;
}

#elif GA_RADIX_KERNEL == 2
// ---- one digit pass: tiles in the order of an atomic counter (so a tile
// waits only on tiles whose blocks already run: no deadlock).  Each tile
// loads its keys, counts its digits and publishes the counts at once (one
// word per (tile, digit), status in the top two bits: 1 the tile's own
// count, 2 the inclusive prefix over tiles 0..i), ranks its keys and stages
// them in shared memory in digit order, and then, one thread per digit,
// looks back over the earlier tiles' words one at a time (the tile before
// has usually published its inclusive prefix by then: the ranking hid the
// latency), publishes its own inclusive prefix and writes each digit's run
// contiguously.  Passes alternate two regions of words: each tile zeroes its
// words in the other region, znext, for the pass after it ----
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
#define LBWIN 8   // look-back words read at once past an aggregate
#define CARRY (GA_PAY_IN || GA_PAY_OUT)
#define STAGE (TILE * (sizeof(E) + (CARRY ? sizeof(PT) : 0)))
#define SMEM (STAGE > NW * 1024 ? STAGE : NW * 1024)
#ifndef MINB
#define MINB 1
#endif
extern "C" __global__ void __launch_bounds__(NT, MINB) ga_radix_pass(const E *kin, E *kout, const PT *pin,
    void *pout, IT N, int byte, long long rowlen, const CT *bins, LB *look, unsigned *counter, int wkeys, LB *znext) {
  __shared__ __align__(16) unsigned char sm[SMEM];
  __shared__ CT s_gofs[256];
  __shared__ unsigned s_start[256], wsum[NW], s_tile;
  unsigned *wcnt = (unsigned *)sm;   // [warp][digit], while ranking
  E *sk = (E *)sm;                   // the staged tile, after
  PT *sp = (PT *)(sm + TILE * sizeof(E));
  (void)sp; (void)pin; (void)pout;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (t == 0) s_tile = atomicAdd(counter, 1u);
#pragma unroll
  for (int w = 0; w < NW; w++) wcnt[w * 256 + t] = 0;
  __syncthreads();
  const unsigned tile = s_tile;
  if (znext) znext[(size_t)tile * 256 + t] = 0;   // the next pass's words (two regions alternate)
  const CT gbin = bins[t];                          // read early: needed after the look-back
  const IT base = (IT)tile * TILE;
  const int cnt = N - base < (IT)TILE ? (int)(N - base) : TILE;
  E k[KPT];
  PT p[KPT];
  unsigned dr[KPT];
  const int wbase = warp * 32 * KPT + lane;
#pragma unroll
  for (int r = 0; r < KPT; r++) {   // every load first (predicated: no branches)
    const int j = wbase + r * 32;
    k[r] = E();
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
  for (int r = 0; r < KPT; r++) {
    const unsigned dg = ga_digit(k[r], p[r], byte, rowlen);
    dr[r] = wbase + r * 32 < cnt ? dg : 255u;
  }
  const unsigned count = ga_block_count(dr, wcnt);
  // publish this tile's count of digit t (tile 0: already its prefix)
  volatile LB *lk = (volatile LB *)look;
  lk[(size_t)tile * 256 + t] = (tile == 0 ? LB_INC : LB_AGG) | (LB)count;
  ga_block_scan(count, wcnt, s_start, wsum);
  ga_block_rank(dr, wcnt);
#pragma unroll
  for (int r = 0; r < KPT; r++) {   // missing keys land at >= cnt, unread
    sk[dr[r]] = k[r];
#if CARRY
    sp[dr[r]] = p[r];
#endif
  }
  // look-back for digit t: the earlier tiles' words, nearest first, summed
  // down to the first inclusive prefix.  The word before is read alone (in
  // the steady state it holds its tile's inclusive prefix); past an
  // aggregate the walk reads LBWIN words at once (the first wave of a pass
  // starts many tiles together: one round trip per tile would be slow) and
  // stops at an unpublished word (its tile's block runs), spinning on that
  // one word only
  LB excl = 0;
  if (tile > 0) {
    long long j = (long long)tile - 1;
    for (;;) {
      LB w;
      do w = lk[(size_t)j * 256 + t]; while ((w >> LB_SHIFT) == 0);
      excl += w & LB_MASK;
      if ((w >> LB_SHIFT) == 2) break;
      j--;   // tile 0's word is inclusive, so j stays >= 0
      LB win[LBWIN];
#pragma unroll
      for (int i = 0; i < LBWIN; i++) win[i] = j - i >= 0 ? lk[(size_t)(j - i) * 256 + t] : LB_INC;
      int used = 0;
      bool stop = false, done = false;
#pragma unroll
      for (int i = 0; i < LBWIN; i++) {
        const unsigned st = (unsigned)(win[i] >> LB_SHIFT);
        if (!stop) {
          if (st == 0u) {
            stop = true;
          } else {
            excl += win[i] & LB_MASK;
            used++;
            if (st == 2u) stop = done = true;
          }
        }
      }
      if (done) break;
      j -= used;   // at an unpublished word, or past the window: wait on word j
    }
    lk[(size_t)tile * 256 + t] = LB_INC | (excl + (LB)count);
  }
  // a staged key at j of digit d goes to s_gofs[d] + j
  s_gofs[t] = gbin + (CT)excl - (CT)s_start[t];
#if GA_PAY_OUT == 2
  const bool one_row = rowlen >= (long long)N;
#endif
  __syncthreads();
#pragma unroll
  for (int r = 0; r < KPT; r++) {
    const int j = t + r * NT;
    if (j < cnt) {
      const E v = sk[j];
#if CARRY
      const PT pv = sp[j];
#else
      const PT pv = 0;
#endif
      const IT o = (IT)(s_gofs[ga_digit(v, pv, byte, rowlen)] + (CT)j);
      if (wkeys) kout[o] = v;
#if GA_PAY_OUT == 1
      ((PT *)pout)[o] = pv;
#elif GA_PAY_OUT == 2
      ((long long *)pout)[o] = (long long)(one_row ? pv : pv % (PT)rowlen) + 1;   // one row: no division
#endif
    }
  }
}

#elif GA_RADIX_KERNEL == 3
// ---- short rows, one warp each (8 rows per block): n <= 32 x KPT keys in
// registers, a digit pass per key byte through the warp's shared memory;
// GA_PAY_OUT 2: idx gets the 1-based positions (argsort) ----
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
  const int m = (int)n;
  const E *s = src + row * n;
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
      d[r] = r * 32 + lane < m ? ga_kdigit(ga_key_of(k[r]), 0, b, 1) : 256u;
      rk[r] = ga_warp_rank(d[r], c + PADI(d[r] & 255u));
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
      ga_row_reload(k, p, sk, sp, lane, m);
      __syncwarp();
    }
  }
  ga_row_out(sk, sp, dst, idx, row, n, lane, 32);
}

#elif GA_RADIX_KERNEL == 4
// ---- rows of up to 256 x KPT keys, one block each: the keys in
// registers, a digit pass per key byte through shared memory (the staging
// area doubles as the ranking counters) ----
#define STAGE (TILE * (sizeof(E) + (CARRY ? 2 : 0)))
#define SMEM (STAGE > NW * 1024 ? STAGE : NW * 1024)
extern "C" __global__ void __launch_bounds__(NT) ga_radix_rowb(const E *src, E *dst, long long *idx, long long n,
                                                               long long nrows) {
  __shared__ __align__(16) unsigned char sm[SMEM];
  __shared__ unsigned s_start[256], wsum[NW];
  unsigned *wcnt = (unsigned *)sm;
  E *sk = (E *)sm;
  unsigned short *sp = (unsigned short *)(sm + TILE * sizeof(E));
  (void)nrows;
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
#pragma unroll
    for (int w = 0; w < NW; w++) wcnt[w * 256 + t] = 0;
    __syncthreads();
#pragma unroll
    for (int r = 0; r < KPT; r++) dr[r] = wbase + r * 32 < m ? ga_kdigit(ga_key_of(k[r]), 0, b, 1) : 255u;
    ga_block_scan(ga_block_count(dr, wcnt), wcnt, s_start, wsum);
    ga_block_rank(dr, wcnt);
#pragma unroll
    for (int r = 0; r < KPT; r++) {   // missing keys land at >= m, unread
      sk[dr[r]] = k[r];
#if CARRY
      sp[dr[r]] = p[r];
#endif
    }
    __syncthreads();
    if (b + 1 < NKB) {
      ga_row_reload(k, p, sk, sp, wbase, m);
      __syncthreads();
    }
  }
  ga_row_out(sk, sp, dst, idx, row, n, t, NT);
}
#endif
