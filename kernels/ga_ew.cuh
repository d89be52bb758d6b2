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
//   GA_EW_TX, GA_EW_TY, GA_EW_TI, GA_EW_TJ, GA_EW_TQ, GA_EW_TRANSPOSE, ...
//                    tiled: the tile's shape and the operand lists
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
//  - tiled (built-in ufuncs only; n-d strided, long rows): a block takes a
//    tile of TI rows x TJ columns of the two innermost dimensions, the
//    innermost on threadIdx, so neighbouring threads touch neighbouring
//    elements and no index is divided per element (only per tile, for the
//    outer dimensions).  Each thread does TQ elements: along the row (rows),
//    or down the tile (transpose: 32x32 tiles, 32x8 threads), where the
//    staged operands (fastest along the second innermost axis) go through
//    shared memory, +1 column against bank conflicts, so that both sides
//    are read and written along their own fastest axis.
#define GA_EW_BLOAD(k, T) const T _ga_b##k = _ga_p##k[0];
#define GA_EW_VLOAD(k, T) const ga_vec<T, GA_EW_VEC> _ga_v##k = *(const ga_vec<T, GA_EW_VEC> *)(_ga_p##k + _ga_base);
#define GA_EW_VLOADW(k, T) ga_vec<T, GA_EW_VEC> _ga_v##k = *(ga_vec<T, GA_EW_VEC> *)(_ga_p##k + _ga_base);
#define GA_EW_VOUT(k, T) ga_vec<T, GA_EW_VEC> _ga_v##k;
#define GA_EW_VSTORE(k, T) *(ga_vec<T, GA_EW_VEC> *)(_ga_p##k + _ga_base) = _ga_v##k;
#define GA_EW_OSTEP(k, row, d) _ga_o##k += _ga_x * _ga_ix.st[row][d];
#define GA_EW_DSTEP(d) { GA_IT _ga_q = _ga_r / _ga_ix.sh[d], _ga_x = _ga_r - _ga_q * _ga_ix.sh[d]; _ga_r = _ga_q; GA_EW_OSTEPS(d) }
#define GA_EW_DSTEP0 { GA_IT _ga_x = _ga_r; GA_EW_OSTEPS(0) }
#define GA_EW_TT 32
// raw bytes: the element types have constructors
#define GA_EW_SMEM(k, T) __shared__ __align__(16) unsigned char _ga_sm##k[GA_EW_TT * (GA_EW_TT + 1) * sizeof(T)]; \
  T (*_ga_t##k)[GA_EW_TT + 1] = (T (*)[GA_EW_TT + 1])_ga_sm##k;
#define GA_EW_BOSTEP(k, row, d) bo##k += _ga_x * _ga_ix.st[row][d];
#define GA_EW_BSTEP(d) { GA_IT _ga_q = r / _ga_ix.sh[d], _ga_x = r - _ga_q * _ga_ix.sh[d]; r = _ga_q; GA_EW_BOSTEPS(d) }
#define GA_EW_BSTEP0 { GA_IT _ga_x = r; GA_EW_BOSTEPS(0) }
// (no parentheses: added to bo<k> from the left, as written out)
#define GA_EW_TAT(k, row) i * _ga_ix.st[row][GA_EW_NDIM - 2] + j * _ga_ix.st[row][GA_EW_NDIM - 1]
#define GA_EW_TOFFSET(k, row) const GA_IT _ga_o##k = bo##k + GA_EW_TAT(k, row);
#define GA_EW_STAGE_LOAD(k, row, T) _ga_t##k[ty + q * GA_EW_TY][tx] = *(const T *)(_ga_p##k + bo##k + GA_EW_TAT(k, row));
#define GA_EW_STAGE_STORE(k, row, T) *(T *)(_ga_p##k + bo##k + GA_EW_TAT(k, row)) = _ga_t##k[ty + q * GA_EW_TY][tx];

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
  GA_EW_SMEMS
  const int tx = threadIdx.x % GA_EW_TX, ty = threadIdx.x / GA_EW_TX;
  const GA_IT n0 = _ga_ix.sh[GA_EW_NDIM - 2], n1 = _ga_ix.sh[GA_EW_NDIM - 1];
  const GA_IT tj = (n1 + GA_EW_TJ - 1) / GA_EW_TJ, per = (n0 + GA_EW_TI - 1) / GA_EW_TI * tj,
              ntiles = per * (_ga_n / (n0 * n1));
  for (GA_IT t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const GA_IT bi = t / per, w = t - bi * per, i0 = w / tj * GA_EW_TI, j0 = (w % tj) * GA_EW_TJ;
    GA_IT r = bi GA_EW_BOFFSETS;   // bo<k>: the batch's element (0, 0)
    (void)r;
    GA_EW_BSTEPS
#if GA_EW_STAGED_IN   // staged inputs: columns on threadIdx
#pragma unroll
    for (int q = 0; q < GA_EW_TT / GA_EW_TY; q++) {
      const GA_IT i = i0 + tx, j = j0 + ty + q * GA_EW_TY;
      if (i < n0 && j < n1) { GA_EW_STAGE_LOADS }
    }
    __syncthreads();
#endif
#pragma unroll
    for (int q = 0; q < GA_EW_TQ; q++) {
#if GA_EW_TRANSPOSE
      const GA_IT i = i0 + ty + q * GA_EW_TY, j = j0 + tx;
#else
      const GA_IT i = i0 + ty, j = j0 + tx + q * GA_EW_TX;
#endif
      if (i < n0 && j < n1) {
        GA_EW_TOFFSETS
//@tbody
      }
    }
#if GA_EW_STAGED_OUT   // staged outputs: written back with columns on threadIdx
    __syncthreads();
#pragma unroll
    for (int q = 0; q < GA_EW_TT / GA_EW_TY; q++) {
      const GA_IT i = i0 + tx, j = j0 + ty + q * GA_EW_TY;
      if (i < n0 && j < n1) { GA_EW_STAGE_STORES }
    }
#endif
#if GA_EW_STAGED_IN || GA_EW_STAGED_OUT
    __syncthreads();   // the next tile reuses shared memory
#endif
  }
#else
  for (GA_IT i = (GA_IT)blockIdx.x * blockDim.x + threadIdx.x; i < _ga_n; i += (GA_IT)gridDim.x * blockDim.x) {
    GA_IT _ga_r = i GA_EW_OFFSETS;
    GA_EW_DSTEPS
//@sbody
  }
#endif
//@epilogue
}
