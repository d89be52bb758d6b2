// Scans (src/cuda/ga_cuda_scan.c says the algorithm).  The generator puts
// before this text: BLOCK, NWARP, IPT, VI, VO, SBYTES, GA_SCAN_PASS (1, 2,
// 3), GA_SCAN_ROW (1 row style, 0 column style), GA_ACC_SHFL (how the
// accumulator crosses lanes: 0 as is, 1 widened to int, 2 bool, 3 complex),
// GA_ACC_IDX (the accumulator carries an index), the types in0_t in0_mt
// acc_t out0_mt, struct ga_acc and the row's ga_map and ga_red.
#define TILE (BLOCK * IPT)
#define PAD(e) ((e) + ((e) >> 5))

// The accumulator shuffled up by d lanes.
__device__ __forceinline__ ga_acc ga_shfl_up(const ga_acc x, int d) {
  ga_acc r;
#if GA_ACC_SHFL == 3
  r.v.re = __shfl_up_sync(0xffffffffu, x.v.re, d);
  r.v.im = __shfl_up_sync(0xffffffffu, x.v.im, d);
#elif GA_ACC_SHFL == 2
  r.v = __shfl_up_sync(0xffffffffu, (int)x.v, d) != 0;
#elif GA_ACC_SHFL == 1
  r.v = (acc_t)__shfl_up_sync(0xffffffffu, (int)x.v, d);
#else
  r.v = __shfl_up_sync(0xffffffffu, x.v, d);
#endif
#if GA_ACC_IDX
  r.i = __shfl_up_sync(0xffffffffu, x.i, d);
#endif
  return r;
}

// s: this thread's total; (hc, carry): everything before the tile.  pre
// (when hp) = carry + the totals of the threads before this one; tot =
// carry + every thread's total.  w: NWARP accumulators of shared memory,
// not read again until the caller's next __syncthreads.
__device__ __forceinline__ void ga_block_scan(const ga_acc s, const bool hc, const ga_acc &carry,
                                              ga_acc &pre, bool &hp, ga_acc &tot, ga_acc *w) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  ga_acc inc = s;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const ga_acc y = ga_shfl_up(inc, d);
    if (lane >= d) inc = ga_red(y, inc);
  }
  const ga_acc ex = ga_shfl_up(inc, 1);
  if (lane == 31) w[warp] = inc;
  __syncthreads();
  hp = hc;
  if (hc) pre = carry;
  for (int k = 0; k < warp; k++) { pre = hp ? ga_red(pre, w[k]) : w[k]; hp = true; }
  if (lane > 0) { pre = hp ? ga_red(pre, ex) : ex; hp = true; }
  bool ht = hc;
  if (hc) tot = carry;
#pragma unroll
  for (int k = 0; k < NWARP; k++) { tot = ht ? ga_red(tot, w[k]) : w[k]; ht = true; }
}

// Row style: the block's shared memory.
#define GA_ROW_DECL \
  __shared__ __align__(16) unsigned char sbuf[SBYTES]; \
  __shared__ __align__(16) unsigned char wbuf[NWARP * sizeof(ga_acc)]; \
  in0_mt *s_in = (in0_mt *)sbuf; \
  out0_mt *s_out = (out0_mt *)sbuf; \
  ga_acc *w = (ga_acc *)wbuf; \
  (void)s_out;

// Row style: load tile t0 of the chunk at ip into shared memory; declares
// valid, the tile's elements.
#define GA_ROW_LOAD \
      const int valid = (int)(len - t0 < (long long)TILE ? len - t0 : (long long)TILE); \
      const in0_mt *tp = ip + t0; \
      if (valid == TILE && (size_t)tp % (VI * sizeof(in0_mt)) == 0) { \
        _Pragma("unroll") \
        for (int q = 0; q < IPT / VI; q++) { \
          const int v = q * BLOCK + (int)threadIdx.x; \
          const ga_vec<in0_mt, VI> x = ((const ga_vec<in0_mt, VI> *)tp)[v]; \
          _Pragma("unroll") \
          for (int e = 0; e < VI; e++) s_in[PAD(v * VI + e)] = x.v[e]; \
        } \
      } else { \
        for (int e = threadIdx.x; e < valid; e += BLOCK) s_in[PAD(e)] = tp[e]; \
      } \
      __syncthreads();

#if GA_SCAN_PASS == 2
// the chunk totals of each line, scanned in place (the last is never
// needed: pass 3 reads the total before its chunk)
extern "C" __global__ void __launch_bounds__(BLOCK) ga_scan2(ga_acc *tot, long long lines, long long cpl) {
  __shared__ __align__(16) unsigned char wbuf[NWARP * sizeof(ga_acc)];
  ga_acc *w = (ga_acc *)wbuf;
  const long long m = cpl - 1;
  for (long long line = blockIdx.x; line < lines; line += gridDim.x) {
    ga_acc *t = tot + line * cpl;
    ga_acc carry;
    bool hc = false;
    for (long long i0 = 0; i0 < m; i0 += BLOCK) {
      const long long last = (m - i0 < BLOCK ? m - i0 : BLOCK) - 1;
      const long long e = i0 + (threadIdx.x < last ? threadIdx.x : last);
      const ga_acc x = t[e];
      ga_acc pre, tt;
      bool hp;
      ga_block_scan(x, hc, carry, pre, hp, tt, w);
      if (threadIdx.x <= last) t[e] = hp ? ga_red(pre, x) : x;
      carry = tt;
      hc = true;
      __syncthreads();
    }
  }
}

#elif GA_SCAN_ROW && GA_SCAN_PASS == 1
// row style: each chunk's total (every chunk of a line but its last)
extern "C" __global__ void __launch_bounds__(BLOCK, 4) ga_scan1(const in0_mt *in, long long n, long long chunk,
                                                          long long cpl, ga_acc *tot, long long nblk) {
  GA_ROW_DECL
  const long long c1 = cpl - 1;
  for (long long blk = blockIdx.x; blk < nblk; blk += gridDim.x) {
    const long long line = blk / c1, k = blk - line * c1, start = k * chunk, len = chunk;
    const in0_mt *ip = in + line * n + start;
    ga_acc carry;
    bool hc = false;
    for (long long t0 = 0; t0 < len; t0 += TILE) {
      GA_ROW_LOAD
      const int e0 = threadIdx.x * IPT;
      ga_acc s = ga_map((in0_t)s_in[PAD(e0)], start + t0 + e0);
#pragma unroll
      for (int i = 1; i < IPT; i++) s = ga_red(s, ga_map((in0_t)s_in[PAD(e0 + i)], start + t0 + e0 + i));
      ga_acc pre, tt;
      bool hp;
      ga_block_scan(s, hc, carry, pre, hp, tt, w);
      carry = tt;
      hc = true;
      __syncthreads();
    }
    if (threadIdx.x == 0) tot[line * cpl + k] = carry;
  }
}

#elif GA_SCAN_ROW
// row style: each chunk scanned, starting from the total before it
extern "C" __global__ void __launch_bounds__(BLOCK, 4) ga_scan3(const in0_mt *in, out0_mt *out, long long n,
    long long chunk, long long cpl, const ga_acc *tot, long long nblk) {
  GA_ROW_DECL
  for (long long blk = blockIdx.x; blk < nblk; blk += gridDim.x) {
    const long long line = blk / cpl, k = blk - line * cpl, start = k * chunk;
    const long long len = n - start < chunk ? n - start : chunk;
    const in0_mt *ip = in + line * n + start;
    out0_mt *op = out + line * n + start;
    ga_acc carry;
    bool hc = k > 0;
    if (hc) carry = tot[line * cpl + k - 1];
    for (long long t0 = 0; t0 < len; t0 += TILE) {
      GA_ROW_LOAD
      ga_acc x[IPT];
#pragma unroll
      for (int i = 0; i < IPT; i++) {
        int e = threadIdx.x * IPT + i;
        if (e >= valid) e = valid - 1;   // padding repeats the last element
        x[i] = ga_map((in0_t)s_in[PAD(e)], start + t0 + e);
      }
#pragma unroll
      for (int i = 1; i < IPT; i++) x[i] = ga_red(x[i - 1], x[i]);
      ga_acc pre, tt;
      bool hp;
      ga_block_scan(x[IPT - 1], hc, carry, pre, hp, tt, w);   // its __syncthreads ends the reads of s_in
#pragma unroll
      for (int i = 0; i < IPT; i++) {
        const ga_acc r = hp ? ga_red(pre, x[i]) : x[i];
        s_out[PAD(threadIdx.x * IPT + i)] = ga_cast<out0_mt>(r.v);
      }
      __syncthreads();
      out0_mt *tq = op + t0;
      if (valid == TILE && (size_t)tq % (VO * sizeof(out0_mt)) == 0) {
#pragma unroll
        for (int q = 0; q < IPT / VO; q++) {
          const int v = q * BLOCK + (int)threadIdx.x;
          ga_vec<out0_mt, VO> y;
#pragma unroll
          for (int e = 0; e < VO; e++) y.v[e] = s_out[PAD(v * VO + e)];
          ((ga_vec<out0_mt, VO> *)tq)[v] = y;
        }
      } else {
        for (int e = threadIdx.x; e < valid; e += BLOCK) tq[e] = s_out[PAD(e)];
      }
      carry = tt;
      hc = true;
      __syncthreads();   // s_out and w are read before the next tile writes them
    }
  }
}

#elif GA_SCAN_PASS == 1
// column style, chunk totals: thread g -> (o, k < cpl - 1, i)
extern "C" __global__ void __launch_bounds__(BLOCK) ga_scanc1(const in0_mt *in, long long n, long long inner,
    long long chunk, long long cpl, ga_acc *tot, long long total) {
  const long long c1 = cpl - 1;
  for (long long g = (long long)blockIdx.x * BLOCK + threadIdx.x; g < total; g += (long long)gridDim.x * BLOCK) {
    const long long r = g / inner, i = g - r * inner, o = r / c1, k = r - o * c1;
    const long long j0 = k * chunk;
    long long off = (o * n + j0) * inner + i;
    ga_acc a = ga_map((in0_t)in[off], j0);
    for (long long j = j0 + 1; j < j0 + chunk; j++) {
      off += inner;
      a = ga_red(a, ga_map((in0_t)in[off], j));
    }
    tot[(o * inner + i) * cpl + k] = a;
  }
}

#else
// column style: each (line, chunk) scanned by one thread
extern "C" __global__ void __launch_bounds__(BLOCK) ga_scanc3(const in0_mt *in, out0_mt *out, long long n,
    long long inner, long long chunk, long long cpl, const ga_acc *tot, long long total) {
  for (long long g = (long long)blockIdx.x * BLOCK + threadIdx.x; g < total; g += (long long)gridDim.x * BLOCK) {
    const long long r = g / inner, i = g - r * inner, o = r / cpl, k = r - o * cpl;
    const long long j0 = k * chunk, j1 = n - j0 < chunk ? n : j0 + chunk;
    long long off = (o * n + j0) * inner + i;
    ga_acc a;
    bool ha = k > 0;
    if (ha) a = tot[(o * inner + i) * cpl + k - 1];
    for (long long j = j0; j < j1; j++, off += inner) {
      const ga_acc v = ga_map((in0_t)in[off], j);
      a = ha ? ga_red(a, v) : v;
      ha = true;
      out[off] = ga_cast<out0_mt>(a.v);
    }
  }
}
#endif
