// The per-call parts of a built-in reduction (a row of src/base/ga_reduce.def;
// src/cuda/ga_cuda_reduce.c), before kernels/ga_reduce.cuh: one input `in`
// (arrays row 0), one output `out` (row 1).  The generator puts before
// this text the types in0_t in0_mt acc_t out0_t out0_mt, struct acc_s and
// the row's r_ident, r_map, r_red, r_post.

// warp shuffles of the accumulator, field by field
__device__ __forceinline__ int r_sh(bool v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ int r_sh(signed char v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ int r_sh(unsigned char v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ int r_sh(short v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ int r_sh(unsigned short v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
template <typename T> __device__ __forceinline__ T r_sh(T v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
template <typename T> __device__ __forceinline__ ga_complex<T> r_sh(ga_complex<T> v, int d) {
  return ga_complex<T>(__shfl_down_sync(0xffffffffu, v.re, d), __shfl_down_sync(0xffffffffu, v.im, d)); }
__device__ __forceinline__ acc_s r_shfl(const acc_s &a, int d) {
  acc_s b; b.v = (acc_t)r_sh(a.v, d); b.i = __shfl_down_sync(0xffffffffu, a.i, d); return b; }
// fold one element (at reduced position j) into (a, has)
__device__ __forceinline__ void r_fold(acc_s &a, bool &has, in0_t x, long long j) {
  if (has) { acc_s t; r_map(t, x, j); r_red(a, t); } else { r_map(a, x, j); has = true; } }

#define GA_RED_KERNEL(...) \
  extern "C" __global__ void __launch_bounds__(GA_BLOCK) ga_red(const char *in, char *out, __VA_ARGS__)
#define GA_RED_BEGIN
#define GA_ODECL ga_idx ioff = 0, ooff = 0;
#define GA_OADD(x, d) ioff += (x) * ix.so[0][d]; ooff += (x) * ix.so[1][d];
#define GA_RDECL ga_idx roff = 0;
#define GA_RADD(x, d) roff += (x) * ix.sr[0][d];
#define GA_ROW_SETUP const in0_mt *row = (const in0_mt *)(in + ioff);
#define GA_VDECL(n) ga_vec<in0_mt, GA_V> w[n];
#define GA_VLOAD_ROW(u, pos) w[u] = *(const ga_vec<in0_mt, GA_V> *)(row + (pos));
#define GA_VLOAD_COL(u) w[u] = *(const ga_vec<in0_mt, GA_V> *)(in + ioff + roff);
#define GA_VFOLD(a, has, u, k, j) r_fold(a, has, ga_cast<in0_t>(w[u].v[k]), j);
#define GA_SFOLD(a, has, t) r_fold(a, has, ga_cast<in0_t>(row[t]), t);
#define GA_RFOLD(a, has, j) r_fold(a, has, ga_cast<in0_t>(*(const in0_mt *)(in + ioff + roff)), j);
#define GA_STORE_AT(a, off) { out0_t r; r_post(a, nred, r); *(out0_mt *)(out + (off)) = ga_cast<out0_mt>(r); }
#define GA_STORE(a) GA_STORE_AT(a, ooff)
#define GA_STORE_K(a, k) GA_STORE_AT(a, ooff + (k) * ix.so[1][GA_ONDIM - 1])
