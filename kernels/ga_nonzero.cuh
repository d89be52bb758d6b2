// nonzero (src/cuda/ga_cuda_scan.c says the algorithm).  The generator puts
// before this text: BLOCK, NZ_TILE, GA_NZ_PASS (1 count, 2 fill) and
// GA_NZ_MAXDIM.

// this thread's 16 flags of tile t, as 0/1 bytes (0 past n)
__device__ __forceinline__ int ga_flags16(const unsigned char *f, long long n, long long base, unsigned char *fl) {
  int c = 0;
  if (base + 16 <= n && ((size_t)(f + base) & 15) == 0) {
    const ga_vec<unsigned, 4> v = *(const ga_vec<unsigned, 4> *)(f + base);
#pragma unroll
    for (int e = 0; e < 16; e++) { fl[e] = ((v.v[e >> 2] >> (8 * (e & 3))) & 0xffu) != 0; c += fl[e]; }
  } else {
#pragma unroll
    for (int e = 0; e < 16; e++) { fl[e] = base + e < n && f[base + e] != 0; c += fl[e]; }
  }
  return c;
}

#if GA_NZ_PASS == 1
// the flags set in each tile
extern "C" __global__ void __launch_bounds__(BLOCK) ga_nzc(const unsigned char *f, long long n, long long *cnt,
                                                        long long ntiles) {
  __shared__ int ws[BLOCK / 32];
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
    unsigned char fl[16];
    int c = ga_flags16(f, n, t * NZ_TILE + threadIdx.x * 16, fl);
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) c += __shfl_down_sync(0xffffffffu, c, d);
    if ((threadIdx.x & 31) == 0) ws[threadIdx.x >> 5] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
      long long s = 0;
      for (int k = 0; k < BLOCK / 32; k++) s += ws[k];
      cnt[t] = s;
    }
    __syncthreads();
  }
}

#else
// the positions of the set flags, at each tile's offset (incl: the tile
// counts' inclusive scan)
struct ga_nzs { long long shape[GA_NZ_MAXDIM]; };
extern "C" __global__ void __launch_bounds__(BLOCK) ga_nzf(const unsigned char *f, long long n,
    const long long *incl, long long ntiles, char *out, long long s0, long long s1, int ndim, const ga_nzs sh) {
  __shared__ int ws[BLOCK / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const long long base = t * NZ_TILE + threadIdx.x * 16;
    unsigned char fl[16];
    const int c = ga_flags16(f, n, base, fl);
    int inc = c;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const int y = __shfl_up_sync(0xffffffffu, inc, d);
      if (lane >= d) inc += y;
    }
    if (lane == 31) ws[warp] = inc;
    __syncthreads();
    long long j = (t > 0 ? incl[t - 1] : 0) + inc - c;
    for (int k = 0; k < warp; k++) j += ws[k];
    for (int e = 0; e < 16; e++) {
      if (!fl[e]) continue;
      long long fi = base + e;
      for (int k = ndim - 1; k > 0; k--) {
        const long long q = fi / sh.shape[k];
        *(long long *)(out + j * s0 + k * s1) = fi - q * sh.shape[k] + 1;
        fi = q;
      }
      *(long long *)(out + j * s0) = fi + 1;
      j++;
    }
    __syncthreads();   // ws is read before the next tile writes it
  }
}
#endif
