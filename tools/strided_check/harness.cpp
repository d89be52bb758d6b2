// Runs kernels/ga_strided.cuh on the CPU (a thread at a time: the kernel
// has no shared memory, barriers or warp calls) for every itemsize, step
// 2..8, 1- to 3-d loops and both index widths, over random shapes, odd
// offsets, misaligned rows, negative outer strides, a capped grid and an
// input that ends at a guard page (no read past its last byte), and
// compares each output with a direct loop.  Run by tools/strided_check/run.sh.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <sys/mman.h>
struct dim3_ { unsigned x; };
static dim3_ threadIdx, blockIdx, gridDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
template <typename T, int N> struct alignas(sizeof(T) * N) ga_vec { T v[N]; };
// every load inside [the 16-byte boundary at or below the view's lowest
// byte, one past its highest byte), 16-byte loads aligned
static const char *g_lo, *g_end;
static long long g_bad_loads;
template <typename T> static T checked_load(const char *p) {
  if (p < g_lo || p + sizeof(T) > g_end || (sizeof(T) == 16 && ((uintptr_t)p & 15))) g_bad_loads++;
  T v;
  memcpy(&v, p, sizeof v);
  return v;
}
#define GA_SC_LOAD(T, p) checked_load<T>((const char *)(p))
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
  long long as = S < 0 ? -S : S;
  st[ndim - 1] = as * E;   // walked backwards below when S < 0
  long long span = n1 * as * E;
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
  // the input's pages end where the view's last byte does, in every other
  // case, and a PROT_NONE page follows: a read past `end` faults
  size_t bytes = (size_t)(span + lead + 64), pages = (bytes + 4095) / 4096 + 1;
  unsigned char *map = (unsigned char *)mmap(NULL, (pages + 1) * 4096, PROT_READ | PROT_WRITE,
                                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  mprotect(map + pages * 4096, 4096, PROT_NONE);
  std::vector<unsigned char> outbuf((size_t)n * E + 64), ref((size_t)n * E);
  for (size_t i = 0; i < pages * 4096; i++) map[i] = (unsigned char)rnd(256);
  long long extent = E;   // bytes from the lowest to one past the highest byte
  for (int d = 0; d < ndim; d++) extent += (shape[d] - 1) * st[d];
  unsigned char *in0 = trial % 2 ? map + pages * 4096 - extent
                                 : (unsigned char *)(((uintptr_t)map + 15) & ~(uintptr_t)15) + lead;
  unsigned char *out = (unsigned char *)(((uintptr_t)outbuf.data() + 15) & ~(uintptr_t)15);
  unsigned char *in = in0;
  if (neg) { in = in0 + (shape[0] - 1) * st[0]; st[0] = -st[0]; }
  if (S < 0) { in += (n1 - 1) * st[ndim - 1]; st[ndim - 1] = -st[ndim - 1]; }
  // one past the last byte (the kernel's `end`)
  unsigned char *end = in + E;
  for (int d = 0; d < ndim; d++) if (st[d] > 0) end += (shape[d] - 1) * st[d];
  if (trial % 2 && end != map + pages * 4096) { printf("harness: bad extent\n"); exit(2); }
  g_lo = (const char *)((uintptr_t)in0 & ~(uintptr_t)15);
  g_end = (const char *)end;
  g_bad_loads = 0;
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
    for (unsigned t = 0; t < 256; t++) { blockIdx.x = (unsigned)b; threadIdx.x = t; kernel((IT)n, (const char *)in, (const char *)end, out, ix); }
  munmap(map, (pages + 1) * 4096);
  if (g_bad_loads) {
    printf("OUT OF BOUNDS (%lld loads) E=%d S=%d ndim=%d trial=%d n1=%lld n=%lld\n", g_bad_loads, E, S, ndim, trial, n1, n);
    return 1;
  }
  if (memcmp(out, ref.data(), n * E)) {
    printf("MISMATCH E=%d S=%d ndim=%d trial=%d n1=%lld n=%lld lead=%lld neg=%d\n", E, S, ndim, trial, n1, n, lead, neg);
    return 1;
  }
  return 0;
}

int main(void) {
  int bad = 0, runs = 0;
#define RUN(E, S, ND, IT, fn, T, IX) for (int t = 0; t < 300; t++, runs++) \
    bad += check<IT>(E, S, ND, [](IT n, const char *in, const char *end, unsigned char *out, const IT *ix) { \
      fn(n, in, end, (T *)out, *(const IX *)ix); }, t);
#include "runs.inc"
  printf("%d cases, %d mismatches\n", runs, bad);
  return bad != 0;
}
