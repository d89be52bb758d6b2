// tools/rng_emu: just enough CUDA to run the generator kernel
// (kernels/ga_rand.cuh) on the CPU, one thread after another.  Blocks have
// one thread (its only __syncthreads is after the table load, which one
// thread then does whole) and warps one lane, so the emulation needs no
// concurrency.
#include <math.h>
#include <stdint.h>
#include <string.h>
#define __CUDACC__ 1
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __maxnreg__(n)
struct dim3e { unsigned x; };
static dim3e threadIdx, blockIdx, gridDim, blockDim;
struct float4 { float x, y, z, w; };
struct float2 { float x, y; };
struct double2 { double x, y; };
static inline float4 make_float4(float a, float b, float c, float d) { float4 r = {a, b, c, d}; return r; }
static inline double2 make_double2(double a, double b) { double2 r = {a, b}; return r; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
static inline void __syncthreads() {}
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __dsqrt_rn(double a) { return sqrt(a); }
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline unsigned __float_as_uint(float x) { unsigned u; memcpy(&u, &x, 4); return u; }
static inline float __uint_as_float(unsigned u) { float x; memcpy(&x, &u, 4); return x; }
static inline long long __double_as_longlong(double x) { long long u; memcpy(&u, &x, 8); return u; }
static inline double __longlong_as_double(long long u) { double x; memcpy(&x, &u, 8); return x; }
static inline void sincospi(double x, double *s, double *c) { *s = sin(M_PI * x); *c = cos(M_PI * x); }
// MUFU.RSQ's stand-in: the correctly rounded reciprocal square root (with
// it the Newton step of ga_rng_sqrtf_pos is correctly rounded; on the GPU
// the same five instructions are __fsqrt_rn's own fast path, which NVIDIA
// guarantees correctly rounded with the hardware's MUFU.RSQ)
static inline float emu_rsqrt(float x) { return (float)(1.0 / sqrt((double)x)); }
#define GA_RNG_RSQRT_APPROX(x) emu_rsqrt(x)
// warps of one lane: a lane makes the block above itself (ga_rng_shifted)
#define GA_RNG_WS 1
template <class T> static inline T __shfl_down_sync(unsigned, T v, int) { return v; }
