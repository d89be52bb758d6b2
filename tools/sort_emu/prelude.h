// minimal CUDA emulation: one block at a time, one pthread per CUDA thread
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ static
struct dim { unsigned x; };
extern thread_local dim threadIdx;
extern dim blockIdx, gridDim, blockDim;
struct uint4 { unsigned x, y, z, w; };
static inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) { uint4 r = {a, b, c, d}; return r; }
void emu_sync();
void emu_syncwarp();
extern unsigned long long emu_warpbuf[32][32];
static inline void __syncthreads() { emu_sync(); }
static inline void __syncwarp(unsigned = 0xffffffffu) { emu_syncwarp(); }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = (unsigned long long)y << 32 | x; unsigned r = 0;
  for (int i = 0; i < 4; i++) r |= (unsigned)(v >> (8 * ((s >> (4 * i)) & 7)) & 255u) << (8 * i);
  return r;
}
static inline unsigned __match_any_sync(unsigned, unsigned v) {
  int t = threadIdx.x, w = t >> 5, l = t & 31;
  emu_warpbuf[w][l] = v; emu_syncwarp();
  unsigned m = 0; for (int i = 0; i < 32; i++) if (emu_warpbuf[w][i] == v) m |= 1u << i;
  emu_syncwarp(); return m;
}
static inline unsigned __ballot_sync(unsigned, int pred) {
  int t = threadIdx.x, w = t >> 5, l = t & 31;
  emu_warpbuf[w][l] = pred != 0; emu_syncwarp();
  unsigned m = 0; for (int i = 0; i < 32; i++) if (emu_warpbuf[w][i]) m |= 1u << i;
  emu_syncwarp(); return m;
}
template <class T> static inline T __shfl_up_sync(unsigned, T x, int o) {
  int t = threadIdx.x, w = t >> 5, l = t & 31;
  emu_warpbuf[w][l] = (unsigned long long)x; emu_syncwarp();
  T r = l >= o ? (T)emu_warpbuf[w][l - o] : x;
  emu_syncwarp(); return r;
}
static inline unsigned atomicAdd(unsigned *p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
