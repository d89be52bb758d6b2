// Runs kernels/ga_strided.cuh on the CPU (a thread at a time: the kernel
// has no shared memory, barriers or warp calls) for every itemsize, step
// 2..8, 1- to 3-d loops and both index widths, over random shapes, odd
// offsets, misaligned rows, negative outer strides and a capped grid, and
// compares each output with a direct loop.  Run by tools/strided_check/run.sh.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
struct dim3_ { unsigned x; };
static dim3_ threadIdx, blockIdx, gridDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
template <typename T, int N> struct alignas(sizeof(T) * N) ga_vec { T v[N]; };
#include "configs.inc"

static unsigned long long rng = 88172645463325252ull;
static unsigned rnd(unsigned n) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (unsigned)(rng % n); }

template <typename IT, typename K>
static int check(int E, int S, int ndim, K kernel, int trial) {
  const int W = 16 / E;
  long long shape[3], st[3];
  long long n1 = rnd(3) == 0 ? 1 + rnd(4) : 1 + (long long)rnd(5 * W);
  if (rnd(4) == 0) n1 = W * (1 + rnd(6)) + (rnd(3) - 1);
  if (n1 < 1) n1 = 1;
  shape[ndim - 1] = n1;
  st[ndim - 1] = (long long)S * E;
  long long span = n1 * S * E;
  for (int d = ndim - 2; d >= 0; d--) {
    shape[d] = 1 + rnd(5);
    long long gap = rnd(3) * E + (rnd(2) ? 16 : 0);
    st[d] = span + gap;                     // rows apart, odd gaps
    span = st[d] * shape[d];
  }
  bool neg = ndim > 1 && rnd(3) == 0;       // outer axis walked backwards
  long long n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  long long lead = (long long)E * rnd(2 * W + 1);   // odd offsets
  std::vector<unsigned char> inbuf(span + lead + 64), outbuf((size_t)n * E + 64), ref((size_t)n * E);
  for (auto &b : inbuf) b = (unsigned char)rnd(256);
  unsigned char *in0 = (unsigned char *)(((uintptr_t)inbuf.data() + 15) & ~(uintptr_t)15) + lead;
  unsigned char *out = (unsigned char *)(((uintptr_t)outbuf.data() + 15) & ~(uintptr_t)15);
  unsigned char *in = in0;
  if (neg) { in = in0 + (shape[0] - 1) * st[0]; st[0] = -st[0]; }
  // reference
  for (long long g = 0; g < n; g++) {
    long long r = g, off = 0;
    for (int d = ndim - 1; d >= 0; d--) { long long x = r % shape[d]; r /= shape[d]; off += x * st[d]; }
    memcpy(&ref[g * E], in + off, E);
  }
  memset(out, 0xAB, n * E);
  IT ix[1 + 2 * 3] = {0};
  ix[0] = (IT)n1;
  for (int d = 0; d < ndim; d++) { ix[1 + d] = (IT)shape[d]; ix[1 + ndim + d] = (IT)st[d]; }
  long long chunks = (n + W - 1) / W, blocks = (chunks + 255) / 256;
  if (rnd(3) == 0 && blocks > 1) blocks = 1 + rnd((unsigned)blocks - 1);   // grid-stride loop
  gridDim.x = (unsigned)blocks;
  for (long long b = 0; b < blocks; b++)
    for (unsigned t = 0; t < 256; t++) { blockIdx.x = (unsigned)b; threadIdx.x = t; kernel((IT)n, (const char *)in, out, ix); }
  if (memcmp(out, ref.data(), n * E)) {
    printf("MISMATCH E=%d S=%d ndim=%d trial=%d n1=%lld n=%lld lead=%lld neg=%d\n", E, S, ndim, trial, n1, n, lead, neg);
    return 1;
  }
  return 0;
}

int main(void) {
  int bad = 0, runs = 0;
#define RUN(E, S, ND, IT, fn, T, IX) for (int t = 0; t < 300; t++, runs++) \
    bad += check<IT>(E, S, ND, [](IT n, const char *in, unsigned char *out, const IT *ix) { \
      fn(n, in, (T *)out, *(const IX *)ix); }, t);
#include "runs.inc"
  printf("%d cases, %d mismatches\n", runs, bad);
  return bad != 0;
}
