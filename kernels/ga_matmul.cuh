// Batched matrix product C[z] = A[z] @ B[z] for the dtypes cuBLAS lacks
// (integers, bool) and for small float products (a queued launch costs far
// less than a cuBLAS call).  The generator (src/cuda/ga_cuda_blas.c) puts
// before this text:
//   TIN            the element type of A, B and C
//   TACC           the accumulator (and shared-memory) type: the unsigned
//                  type of the result's width for integers (the sum wraps as
//                  NumPy's does in the result dtype), float for float16
//   LOAD(x)        TIN -> TACC;  MAC(acc, x, y): acc += x * y (bool: |= &)
//   STORE(p, acc)  write TACC acc to the TIN at p
//   BM BN BK TM TN the block's tile (BM x BN, BK deep) and each thread's
//                  TM x TN outputs; (BM/TM)*(BN/TN) threads
//   MINB           blocks per multiprocessor to fit (register budget)
//   ga_idx         int, or long long when a matrix spans 2^31 elements
//   A_KFAST B_KFAST 1 when the tile loads of A / B run along k (that
//                  operand's k stride is 1), else along its rows / columns
// Strides are in elements (batch strides long long) and may be anything (negative, zero).  Each thread
// keeps its outputs in registers; the tiles go through shared memory, the
// next tile's global loads are issued before the current one is used.  A
// thread's TM rows are two runs of VM = TM/2 neighbours, one in each half
// of the tile (columns alike), so that it reads them from shared memory
// with vector loads and a warp's loads do not meet in a bank.
#define NT ((BM / TM) * (BN / TN))
#define TX (BN / TN)
#define TY (BM / TM)
#define LA (BM * BK / NT)
#define LB (BK * BN / NT)
#define PAD 4
#define HM (TM > 1 ? 2 : 1)
#define HN (TN > 1 ? 2 : 1)
#define VM (TM / HM)
#define VN (TN / HN)
struct __align__(sizeof(TACC) * VM) ga_vm { TACC v[VM]; };
struct __align__(sizeof(TACC) * VN) ga_vn { TACC v[VN]; };
// tile row of a thread's output ii (0 <= ii < TM), tile column of jj
#define GA_ROW(ii) (((ii) / VM) * (BM / HM) + ty * VM + (ii) % VM)
#define GA_COL(jj) (((jj) / VN) * (BN / HN) + tx * VN + (jj) % VN)

extern "C" __global__ void __launch_bounds__(NT, MINB) ga_matmul(
    const TIN *__restrict__ A, const TIN *__restrict__ B, TIN *__restrict__ C, int m, int n, int k,
    long long sab, ga_idx sar, ga_idx sac, long long sbb, ga_idx sbr, ga_idx sbc,
    long long scb, ga_idx scr, ga_idx scc) {
  __shared__ __align__(16) TACC As[BK][BM + PAD];
  __shared__ __align__(16) TACC Bs[BK][BN + PAD];
  const int tid = threadIdx.x, tx = tid % TX, ty = tid / TX;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const long long z = blockIdx.z;
  A += z * sab;
  B += z * sbb;
  C += z * scb;

  TACC acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = TACC(0);

  TACC ra[LA], rb[LB];
#define GA_MM_LOAD(k0)                                                        \
  _Pragma("unroll") for (int l = 0; l < LA; l++) {                            \
    int e = tid + l * NT;                                                     \
    int kk = A_KFAST ? e % BK : e / BM, r = A_KFAST ? e / BK : e % BM;        \
    int gr = row0 + r, gk = (k0) + kk;                                        \
    ra[l] = gr < m && gk < k ? LOAD(A[gr * sar + gk * sac]) : TACC(0);        \
  }                                                                           \
  _Pragma("unroll") for (int l = 0; l < LB; l++) {                            \
    int e = tid + l * NT;                                                     \
    int kk = B_KFAST ? e % BK : e / BN, c = B_KFAST ? e / BK : e % BN;        \
    int gc = col0 + c, gk = (k0) + kk;                                        \
    rb[l] = gc < n && gk < k ? LOAD(B[gk * sbr + gc * sbc]) : TACC(0);        \
  }

  GA_MM_LOAD(0)
  for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
    for (int l = 0; l < LA; l++) {
      int e = tid + l * NT;
      As[A_KFAST ? e % BK : e / BM][A_KFAST ? e / BK : e % BM] = ra[l];
    }
#pragma unroll
    for (int l = 0; l < LB; l++) {
      int e = tid + l * NT;
      Bs[B_KFAST ? e % BK : e / BN][B_KFAST ? e / BK : e % BN] = rb[l];
    }
    __syncthreads();
    if (k0 + BK < k) { GA_MM_LOAD(k0 + BK) }
#pragma unroll
    for (int kk = 0; kk < BK; kk++) {
      TACC x[TM], y[TN];
#pragma unroll
      for (int h = 0; h < HM; h++) {
        ga_vm t = *(const ga_vm *)&As[kk][h * (BM / HM) + ty * VM];
#pragma unroll
        for (int i = 0; i < VM; i++) x[h * VM + i] = t.v[i];
      }
#pragma unroll
      for (int h = 0; h < HN; h++) {
        ga_vn t = *(const ga_vn *)&Bs[kk][h * (BN / HN) + tx * VN];
#pragma unroll
        for (int j = 0; j < VN; j++) y[h * VN + j] = t.v[j];
      }
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) MAC(acc[i][j], x[i], y[j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; i++) {
    int r = row0 + GA_ROW(i);
    if (r < m) {
#pragma unroll
      for (int j = 0; j < TN; j++) {
        int c = col0 + GA_COL(j);
        if (c < n) STORE(C + r * scr + c * scc, acc[i][j]);
      }
    }
  }
}
