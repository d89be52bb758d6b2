// What every ElementwiseKernel and ReductionKernel sees besides
// ga_types.cuh: CuPy's dtype typedefs, raw arrays (ga_raw_c, ga_raw_s),
// _ind (ga_ind), and the compound assignments and mixed real/complex
// arithmetic that ga_half and ga_complex lack.
typedef signed char int8;
typedef unsigned char uint8;
typedef short int16;
typedef unsigned short uint16;
typedef int int32;
typedef unsigned int uint32;
typedef long long int64;
typedef unsigned long long uint64;
typedef ga_half float16;
typedef float float32;
typedef double float64;
typedef ga_complex64 complex64;
typedef ga_complex128 complex128;
template <typename T> struct ga_raw_c {
  T *p; long long n;
  __device__ T &operator[](long long j) const { return p[j]; }
  __device__ long long size() const { return n; }
};
template <typename T, int ND> struct ga_raw_s {
  char *p; long long n; long long sh[ND]; long long st[ND];
  __device__ T &operator[](long long j) const {
    long long o = 0;
#pragma unroll
    for (int d = ND - 1; d >= 0; d--) { long long q = j / sh[d]; o += (j - q * sh[d]) * st[d]; j = q; }
    return *(T *)(p + o);
  }
  __device__ long long size() const { return n; }
};
template <typename I> struct ga_ind { I n; __device__ I size() const { return n; } };
#define GA_EWK_HALF_OP(op) \
  __device__ __forceinline__ ga_half &operator op##=(ga_half &a, float b) { a = ga_half((float)a op b); return a; }
GA_EWK_HALF_OP(+) GA_EWK_HALF_OP(-) GA_EWK_HALF_OP(*) GA_EWK_HALF_OP(/)
template <typename T> struct ga_ewk_id { typedef T type; };
#define GA_EWK_CPLX_OP(op) \
  template <typename T> __device__ __forceinline__ ga_complex<T> &operator op##=(ga_complex<T> &a, const ga_complex<T> &b) { a = a op b; return a; } \
  template <typename T> __device__ __forceinline__ ga_complex<T> &operator op##=(ga_complex<T> &a, typename ga_ewk_id<T>::type b) { a = a op ga_complex<T>(b); return a; } \
  template <typename T> __device__ __forceinline__ ga_complex<T> operator op(ga_complex<T> a, typename ga_ewk_id<T>::type b) { return a op ga_complex<T>(b); } \
  template <typename T> __device__ __forceinline__ ga_complex<T> operator op(typename ga_ewk_id<T>::type a, ga_complex<T> b) { return ga_complex<T>(a) op b; }
GA_EWK_CPLX_OP(+) GA_EWK_CPLX_OP(-) GA_EWK_CPLX_OP(*) GA_EWK_CPLX_OP(/)
template <typename T> __device__ __forceinline__ T real(const ga_complex<T> &z) { return z.re; }
template <typename T> __device__ __forceinline__ T imag(const ga_complex<T> &z) { return z.im; }
template <typename T> __device__ __forceinline__ ga_complex<T> conj(const ga_complex<T> &z) { return ga_complex<T>(z.re, -z.im); }
