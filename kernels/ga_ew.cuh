// The elementwise kernel of the built-in ufuncs and of ElementwiseKernel:
// one loop skeleton, instantiated per call by cuda/ga_cuda_ewgen.c.  Before
// it the generator defines
//   GA_IT            int, or long long when some offset needs it
//   GA_EW_DENSE, GA_EW_TILED   the loop shape (else the grid-stride loop)
//   GA_EW_BLOCK, GA_EW_VEC     threads per block; dense: elements per thread
//   GA_EW_BLOADS, GA_EW_VLOADS, GA_EW_VSTORES   dense: lists of the items
//                    below, one per broadcast input / contiguous operand
//   GA_EW_OFFSETS, GA_EW_OSTEPS(d), GA_EW_DSTEPS  strided: offsets per
//                    strided operand and their steps per dimension
// and fills the //@ lines: the signature (with the index struct _ga_ix of
// a strided kernel), and the per-element code (the op's expression, the
// user's operation), which may hold what a macro cannot (comments,
// directives).  Operand k is _ga_p<k> in memory, _ga_v<k> in registers;
// the loop index is i.
//  - dense (1-d; every operand contiguous, broadcast or a scalar): each
//    thread moves VEC consecutive elements with aligned vector accesses,
//    the last partial group one by one;
//  - strided: grid-stride loop; the flat index decomposed over the
//    collapsed shape (the outermost index needs no division) gives each
//    operand's byte offset _ga_o<k>;
//  - tiled (built-in ufuncs only): the generator's tile loops.
#define GA_EW_BLOAD(k, T) const T _ga_b##k = _ga_p##k[0];
#define GA_EW_VLOAD(k, T) const ga_vec<T, GA_EW_VEC> _ga_v##k = *(const ga_vec<T, GA_EW_VEC> *)(_ga_p##k + _ga_base);
#define GA_EW_VLOADW(k, T) ga_vec<T, GA_EW_VEC> _ga_v##k = *(ga_vec<T, GA_EW_VEC> *)(_ga_p##k + _ga_base);
#define GA_EW_VOUT(k, T) ga_vec<T, GA_EW_VEC> _ga_v##k;
#define GA_EW_VSTORE(k, T) *(ga_vec<T, GA_EW_VEC> *)(_ga_p##k + _ga_base) = _ga_v##k;
#define GA_EW_OSTEP(k, row, d) _ga_o##k += _ga_x * _ga_ix.st[row][d];
#define GA_EW_DSTEP(d) { GA_IT _ga_q = _ga_r / _ga_ix.sh[d], _ga_x = _ga_r - _ga_q * _ga_ix.sh[d]; _ga_r = _ga_q; GA_EW_OSTEPS(d) }
#define GA_EW_DSTEP0 { GA_IT _ga_x = _ga_r; GA_EW_OSTEPS(0) }

//@signature
//@prologue
#if GA_EW_DENSE
  GA_EW_BLOADS
  const GA_IT _ga_base = ((GA_IT)blockIdx.x * GA_EW_BLOCK + threadIdx.x) * GA_EW_VEC;
#if GA_EW_VEC > 1
  if (_ga_base + GA_EW_VEC <= _ga_n) {
    GA_EW_VLOADS
#pragma unroll
    for (int _ga_j = 0; _ga_j < GA_EW_VEC; _ga_j++) {
      [[maybe_unused]] GA_IT i = _ga_base + _ga_j;
//@vbody
    }
    GA_EW_VSTORES
  } else
#endif
  for (GA_IT i = _ga_base; i < _ga_n && i < _ga_base + GA_EW_VEC; i++) {
//@dbody
  }
#elif GA_EW_TILED
//@tiled
#else
  for (GA_IT i = (GA_IT)blockIdx.x * blockDim.x + threadIdx.x; i < _ga_n; i += (GA_IT)gridDim.x * blockDim.x) {
    GA_IT _ga_r = i GA_EW_OFFSETS;
    GA_EW_DSTEPS
//@sbody
  }
#endif
//@epilogue
}
