// ReductionKernel's accumulator helpers, before kernels/ga_reduce.cuh
// (src/cuda/ga_cuda_redk.c puts the call's types, _ga_ident, _ga_red and
// the per-call macros before this text): acc_s moves between lanes word by
// word (any reduce type); fold and combine through the user's _ga_red.
__device__ __forceinline__ acc_s r_shfl(const acc_s &a, int d) {
  acc_s b = a;
  unsigned *w = reinterpret_cast<unsigned *>(&b);
#pragma unroll
  for (int k = 0; k < (int)(sizeof(acc_s) / 4); k++) w[k] = __shfl_down_sync(0xffffffffu, w[k], d);
  return b;
}
__device__ __forceinline__ void r_red(acc_s &a, const acc_s &b) { a.v = _ga_red(a.v, b.v); }
#if !GA_NOIDENT
__device__ __forceinline__ void r_ident(acc_s &a) { a.i = 0; a.v = _ga_ident(); }
#endif
__device__ __forceinline__ void r_fold(acc_s &a, bool &has, const _type_reduce &x) {
  if (has) a.v = _ga_red(a.v, x); else { a.v = x; has = true; } }
