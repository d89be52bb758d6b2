// Strided copy (cuda/ga_cuda_ew.c, sc_*): out = in for a same-dtype copy
// whose output is C-contiguous and 16-byte aligned and whose input steps
// GA_SC_S (2..8 or -8..-2) elements along its innermost axis, e.g.
// M[::2, ::2]:copy(), x[{{}, {1, -1, 3}}]:copy() or x[:, ::-2].copy().  Each thread writes one 16-byte chunk of
// the output (GA_SC_W elements of one row) with one vector store, after
// issuing every load of the chunk:
//  - GA_SC_WIDE (the input span of a chunk, |GA_SC_S| * 16 bytes, has a
//    wanted element in every 16 bytes): the span (from its lowest byte,
//    also for a negative step) is read with aligned
//    16-byte loads (one more when the row is not 16-byte aligned) and the
//    wanted elements are picked in registers (a chunk whose loads would pass
//    the input's last byte loads its elements one by one instead: no read
//    outside the array's allocation).  DRAM moves whole 32-byte
//    sectors anyway, so reading the unwanted elements costs no bandwidth;
//    it cuts the load instructions and puts many bytes in flight;
//  - otherwise (wider steps) one load per element, all before the store.
// A chunk that crosses the end of a row is copied element by element.
// Defined before this text by the generator:
//   GA_IT       int, or long long when an element count or byte span needs it
//   GA_SC_E     itemsize (1, 2, 4, 8, 16); GA_SC_S the step in elements
//   GA_SC_NDIM  dimensions of the collapsed loop (the innermost is the row)
//   GA_SC_BLOCK threads per block
// Arguments: n (output elements), in, end (one past the input's last byte),
// out, and the index struct: the row length n1, the outer dimensions' sizes
// and the input's byte strides.
#ifndef GA_SC_LOAD   // (tools/strided_check checks each address)
#define GA_SC_LOAD(T, p) (*(const T *)(p))
#endif
#define GA_SC_W (16 / GA_SC_E)
#define GA_SC_STEP (GA_SC_S * GA_SC_E)               // signed
#define GA_SC_ASTEP (GA_SC_STEP < 0 ? -GA_SC_STEP : GA_SC_STEP)
#define GA_SC_REV (GA_SC_S < 0)
#define GA_SC_WIDE (GA_SC_ASTEP < 16)

#if GA_SC_E == 1
typedef unsigned char ga_sc_t;
#elif GA_SC_E == 2
typedef unsigned short ga_sc_t;
#elif GA_SC_E == 4
typedef unsigned int ga_sc_t;
#elif GA_SC_E == 8
typedef unsigned long long ga_sc_t;
#else
typedef ga_vec<unsigned int, 4> ga_sc_t;
#endif
typedef ga_vec<unsigned int, 4> ga_sc_chunk;
union ga_sc_out { ga_sc_chunk c; ga_sc_t e[GA_SC_W]; };

struct _ga_sc_ix {
  GA_IT n1;                 // row length (the innermost dimension)
  GA_IT sh[GA_SC_NDIM];     // sizes of the outer dimensions 0 .. NDIM-2
  GA_IT st[GA_SC_NDIM];     // input byte strides of the outer dimensions
};

// byte offset of row r (a flat index over the outer dimensions) in the input
static __device__ __forceinline__ GA_IT ga_sc_row(GA_IT r, const _ga_sc_ix &ix) {
  GA_IT off = 0;
#pragma unroll
  for (int d = GA_SC_NDIM - 2; d >= 1; d--) {
    const GA_IT q = r / ix.sh[d];
    off += (r - q * ix.sh[d]) * ix.st[d];
    r = q;
  }
  if (GA_SC_NDIM > 1) off += r * ix.st[0];
  return off;
}

#if GA_SC_WIDE
// the chunk whose lowest wanted element is Q bytes past the 16-byte aligned
// address base (the first element, or the last for a negative step): the
// chunks holding wanted bytes, then the picks
// (element by element when the last chunk would pass `end`, the input's
// last byte + 1: no read outside the array's own allocation)
template <int Q>
static __device__ __forceinline__ void ga_sc_pick(const char *__restrict__ base, const char *end, ga_sc_out &o) {
  constexpr int used = Q + (GA_SC_W - 1) * GA_SC_ASTEP + GA_SC_E;   // bytes from base
  constexpr int nch = (used + 15) / 16;
  if (base + nch * 16 > end) {
#pragma unroll
    for (int k = 0; k < GA_SC_W; k++)
      o.e[k] = GA_SC_LOAD(ga_sc_t, base + Q + (GA_SC_REV ? GA_SC_W - 1 - k : k) * GA_SC_ASTEP);
    return;
  }
  union { ga_sc_chunk c[nch]; ga_sc_t e[nch * GA_SC_W]; } u;
#pragma unroll
  for (int i = 0; i < nch; i++) u.c[i] = GA_SC_LOAD(ga_sc_chunk, base + 16 * i);
#pragma unroll
  for (int k = 0; k < GA_SC_W; k++) o.e[k] = u.e[(Q + (GA_SC_REV ? GA_SC_W - 1 - k : k) * GA_SC_ASTEP) / GA_SC_E];
}
#define GA_SC_CASE(i) \
  case i: if constexpr ((i) < GA_SC_W) ga_sc_pick<(i) * GA_SC_E>(base, end, o); break;
#endif

extern "C" __global__ void __launch_bounds__(GA_SC_BLOCK)
ga_sc(GA_IT n, const char *__restrict__ in, const char *end, ga_sc_t *__restrict__ out, const _ga_sc_ix ix) {
  const long long nchunks = ((long long)n + GA_SC_W - 1) / GA_SC_W;
  for (long long c = (long long)blockIdx.x * GA_SC_BLOCK + threadIdx.x; c < nchunks;
       c += (long long)gridDim.x * GA_SC_BLOCK) {
    const GA_IT g = (GA_IT)(c * GA_SC_W);     // first output element of the chunk
    const GA_IT r = g / ix.n1, j = g - r * ix.n1;
    if (j + GA_SC_W <= ix.n1) {
      const char *p = in + ga_sc_row(r, ix) + j * (GA_IT)GA_SC_STEP;
      ga_sc_out o;
#if GA_SC_WIDE
      const char *low = GA_SC_REV ? p + (GA_SC_W - 1) * GA_SC_STEP : p;
      const int q = (int)((unsigned long long)low & 15);   // a multiple of GA_SC_E
      const char *base = low - q;
      switch (q / GA_SC_E) {
        GA_SC_CASE(0) GA_SC_CASE(1) GA_SC_CASE(2) GA_SC_CASE(3) GA_SC_CASE(4) GA_SC_CASE(5)
        GA_SC_CASE(6) GA_SC_CASE(7) GA_SC_CASE(8) GA_SC_CASE(9) GA_SC_CASE(10) GA_SC_CASE(11)
        GA_SC_CASE(12) GA_SC_CASE(13) GA_SC_CASE(14) GA_SC_CASE(15)
      }
#else
#pragma unroll
      for (int k = 0; k < GA_SC_W; k++) o.e[k] = GA_SC_LOAD(ga_sc_t, p + k * GA_SC_STEP);
#endif
      *(ga_sc_chunk *)(out + g) = o.c;
    } else {   // the chunk ends a row (or the array): element by element
      for (int k = 0; k < GA_SC_W && g + k < n; k++) {
        const GA_IT gk = g + k, rk = gk / ix.n1, jk = gk - rk * ix.n1;
        out[gk] = GA_SC_LOAD(ga_sc_t, in + ga_sc_row(rk, ix) + jk * (GA_IT)GA_SC_STEP);
      }
    }
  }
}
