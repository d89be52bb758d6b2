// Batched two-sided (classical cyclic) Jacobi for small real symmetric
// matrices (eigh of float32/float64 stacks, n <= 32): P lanes per matrix
// (P = n rounded up to a power of two, at least 2), 32 / P matrices per
// warp, the whole matrix and the accumulated rotations in registers.
//
// Storage "relative to the lane": lane i (0 <= i < P) of a matrix's group
// holds row i of A and of V as A[k] = a(i, i^k), V[k] = v(i, i^k).  Rows
// and columns n..P-1 are zero padding: their pairs never rotate (a_pq = 0
// exactly), so they stay decoupled and are dropped at the end.
//
// Ordering: a sweep is P-1 steps; step m (1 <= m < P) rotates the P/2
// disjoint pairs (i, i^m) at once (for every i: each pair once a sweep).
// With the relative storage every index is a compile-time constant once
// the step loop is unrolled: the pair's a_pq is A[m], the diagonal A[0];
// the partner's row arrives by __shfl_xor_sync(.., m); the rotation of the
// column pair holding column i^k comes from lane i^k (__shfl_xor_sync(.., k)).
// No shared memory and no dynamic register indexing in the sweeps.
//
// Rotation of (p, q), p < q (Rutishauser): theta = (a_qq - a_pp) / (2 a_pq),
// t = sgn(theta) / (|theta| + sqrt(theta^2 + 1)), c = 1 / sqrt(1 + t^2),
// s = c t; A <- Jᵀ A J, V <- V J with J_pp = J_qq = c, J_pq = s, J_qp = -s,
// computed as c (x + sigma t y) (sigma -1 for p, +1 for q; the row step's c
// folded into the column step's, c c_j), a multiply and an FMA an element;
// then a_pq = 0 and a_pp -= t a_pq, a_qq += t a_pq exactly.  Both lanes
// of a pair compute it from the same three numbers (the lower lane's), so
// they agree bit for bit.  A pair is skipped when |a_pq| <= GA_JTOL *
// sqrt(|a_pp| |a_qq|) (relative accuracy of the small eigenvalues) or
// |a_pq| <= GA_JFLOOR * ||A||_F; a step nobody in the warp rotates is
// skipped whole; the sweeps stop when a sweep rotated nothing in the warp
// (a warp-uniform exit) or after GA_JMAXSWEEP.
//
// The matrix is scaled by a power of two (exact) so that max |a_ij| is in
// [0.5, 1) first: huge and tiny inputs neither overflow nor underflow.
//
// In: a, the batch of column-major n x n matrices (read from the GA_JUPPER
// triangle: 1 the upper one, as LAPACK's uplo).  Out, as cuSOLVER's
// syevjBatched: w (n per matrix) ascending, the eigenvectors over a
// (column k is the vector of w[k]); info[m] = 0 (as the one-sided kernel:
// a NaN input gives NaN eigenvalues, and no error, as LAPACK's syevd
// gives garbage and no error).
// Loads and stores go through shared memory, coalesced.
//
// Per-call macros (cuda/ga_cuda_solver.c): GA_JN, GA_JP, GA_JREAL_T,
// GA_JUPPER, GA_JWPB (warps per block), GA_JMINB (blocks an SM should
// hold, for __launch_bounds__; 0: none), GA_JMAXSWEEP, GA_JTOL, GA_JFLOOR,
// GA_JSHFLT (1: only sigma t crosses lanes for the column rotations, each
// lane recomputes c from it; 0: c crosses too), GA_JFAST (float32: the
// approximate reciprocal, square root and reciprocal square root).
// Include-free: NVRTC parses only this.

typedef GA_JREAL_T R;
#define N GA_JN
#define P GA_JP
#define MPW (32 / GA_JP)          /* matrices per warp */
#define NN (GA_JN * GA_JN)
#define MS (GA_JN * GA_JN + 1)    /* a matrix's stride in the staging area */
#define FULL 0xffffffffu

// float32 with GA_JFAST: the approximate MUFU forms (no denormal fix-ups,
// no slow-path branches); their error only moves t, and the rotation stays
// orthogonal whatever t is (c is from t); float64: IEEE
#if GA_JFAST
__device__ __forceinline__ float ga_j_rsqrt(float x) { float r; asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ __forceinline__ float ga_j_rcp(float x) { float r; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ __forceinline__ float ga_j_sqrt(float x) { float r; asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
#else
__device__ __forceinline__ float ga_j_rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ float ga_j_rcp(float x) { return 1 / x; }
__device__ __forceinline__ float ga_j_sqrt(float x) { return sqrt(x); }
#endif
__device__ __forceinline__ double ga_j_rsqrt(double x) { return rsqrt(x); }
__device__ __forceinline__ double ga_j_rcp(double x) { return 1 / x; }
__device__ __forceinline__ double ga_j_sqrt(double x) { return sqrt(x); }
__device__ __forceinline__ float ga_j_ldexp(float x, int e) { return ldexpf(x, e); }
__device__ __forceinline__ double ga_j_ldexp(double x, int e) { return ldexp(x, e); }
__device__ __forceinline__ int ga_j_exponent(float x) { int e; frexpf(x, &e); return e; }
__device__ __forceinline__ int ga_j_exponent(double x) { int e; frexp(x, &e); return e; }
// c of a rotation from its t: 1 exactly when t = 0; the same instructions
// wherever a lane needs it, so equal t give equal c bit for bit
__device__ __forceinline__ R ga_j_cos(R t) { return t == 0 ? (R)1 : ga_j_rsqrt(fma(t, t, (R)1)); }
// the highest set bit of m (m >= 1): m's pairs are (i, i^m) with i & hib == 0
#define HIB(m) ((m) >= 16 ? 16 : (m) >= 8 ? 8 : (m) >= 4 ? 4 : (m) >= 2 ? 2 : 1)
// a < b in the order NaNs last
#define LESS(x, y) ((x) < (y) || ((y) != (y) && (x) == (x)))

#if GA_JMINB > 0
#define GA_JBOUNDS __launch_bounds__(GA_JWPB * 32, GA_JMINB)
#else
#define GA_JBOUNDS __launch_bounds__(GA_JWPB * 32)
#endif
extern "C" __global__ void GA_JBOUNDS
ga_jacobi(R *a, R *w, int *info, int batch) {   // the entry is ga_jacobi, as the one-sided kernel's
  __shared__ R stage[GA_JWPB][MPW * MS];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int i = lane & (P - 1), g = lane / P;                    // row, matrix of the warp
  const long long m0 = ((long long)blockIdx.x * GA_JWPB + warp) * MPW;   // the warp's first matrix
  if (m0 >= batch) return;   // the whole warp: every collective below has all 32 lanes
  const long long mat = m0 + g;                                  // this lane's matrix
  const bool live = mat < batch;
  R *st = stage[warp];

  // ---- load: the warp's matrices are contiguous; staged through shared ----
  {
    const long long nel = ((long long)batch - m0 < MPW ? (long long)batch - m0 : MPW) * NN;
    const R *src = a + m0 * NN;
    for (int e = lane; e < MPW * NN; e += 32) st[(e / NN) * MS + e % NN] = e < nel ? src[e] : (R)0;
  }
  __syncwarp();
  R A[P], V[P];
#pragma unroll
  for (int k = 0; k < P; k++) {
    const int j = i ^ k;
    R x = 0;
    if (i < N && j < N) {
      const bool mine = GA_JUPPER ? (i <= j) : (i >= j);
      x = st[g * MS + (mine ? j * N + i : i * N + j)];   // column-major (row, col) = col * N + row
    }
    A[k] = x;
    V[k] = k == 0 ? (R)1 : (R)0;
  }
  __syncwarp();

  // ---- scale by a power of two: max |a| in [0.5, 1) ----
  R amax = 0;
#pragma unroll
  for (int k = 0; k < P; k++) amax = fmax(amax, fabs(A[k]));
#pragma unroll
  for (int o = P / 2; o > 0; o >>= 1) amax = fmax(amax, __shfl_xor_sync(FULL, amax, o));
  int ex = 0;
  if (amax > 0 && amax - amax == 0) ex = ga_j_exponent(amax);   // finite, not zero
  if (ex != 0) {
#pragma unroll
    for (int k = 0; k < P; k++) A[k] = ga_j_ldexp(A[k], -ex);
  }
  R f2 = 0;
#pragma unroll
  for (int k = 0; k < P; k++) f2 += A[k] * A[k];
#pragma unroll
  for (int o = P / 2; o > 0; o >>= 1) f2 += __shfl_xor_sync(FULL, f2, o);
  const R floor_ = (R)GA_JFLOOR * sqrt(f2);

  // ---- sweeps ----
  for (int sweep = 0; sweep < GA_JMAXSWEEP; sweep++) {
    int any = 0;
#pragma unroll
    for (int m = 1; m < P; m++) {
      const bool lo = (i & HIB(m)) == 0;          // i is the pair's p (< q)
      const R dii = A[0];
      const R djj = __shfl_xor_sync(FULL, dii, m);
      const R aji = __shfl_xor_sync(FULL, A[m], m);
      const R apq = lo ? A[m] : aji;
      const R app = lo ? dii : djj, aqq = lo ? djj : dii;
      const R aapq = fabs(apq);
      // (relative test squared: the scaled entries are <= n, no overflow)
      const bool rot = aapq > floor_ && aapq * aapq > (R)GA_JTOL * (R)GA_JTOL * fabs(app * aqq);
      if (!__any_sync(FULL, rot)) continue;       // warp-uniform
      any = 1;
      // branch-free: where rot, |apq| > floor_ >= eps / 2 and the diagonal
      // is at most ||A||_F <= n, so |th| < 64 / eps and th^2 is finite, and
      // the approximate reciprocals are safe; elsewhere t is masked to 0
      const R th = (aqq - app) * ga_j_rcp(2 * apq);
      const R ath = fabs(th);
      R t = ga_j_rcp(ath + ga_j_sqrt(fma(ath, ath, (R)1)));
      t = th < 0 ? -t : t;
      t = rot ? t : (R)0;
      const R dnew = lo ? app - t * apq : aqq + t * apq;
      // c = 1 and s = 0 exactly where no rotation (pads, converged pairs)
      const R c = ga_j_cos(t);
      const R st = lo ? -t : t;                   // sigma t: sigma -1 on p's lane, +1 on q's
      // rows: row_i <- c (row_i + sigma t row_(i^m)), the factor c left to
      // the column step below (which scales every element anyway); relative
      // index k of the partner's row is k^m of its storage
#pragma unroll
      for (int k = 0; k < P; k++) {
        if (k & HIB(m)) continue;
        const int k2 = k ^ m;
        const R o1 = __shfl_xor_sync(FULL, A[k2], m);   // partner's a(i^m, i^k)
        const R o2 = __shfl_xor_sync(FULL, A[k], m);    // partner's a(i^m, i^k2)
        A[k] = fma(st, o1, A[k]);
        A[k2] = fma(st, o2, A[k2]);
      }
      // columns (A and V): the pair of relative columns (k, k^m) is the
      // pair of lane i^k, whose sigma t belongs to column i^k (its sigma is
      // this lane's: k has no bit HIB(m)); col_j <- c_j (col_j + sigma_j t_j col_(j^m))
#pragma unroll
      for (int k = 0; k < P; k++) {
        if (k & HIB(m)) continue;
        const int k2 = k ^ m;
        R ck = c, tk = st;
        if (k != 0) {
          tk = __shfl_xor_sync(FULL, st, k);
#if GA_JSHFLT
          ck = ga_j_cos(tk);                      // c again from t, bit for bit
#else
          ck = __shfl_xor_sync(FULL, c, k);
#endif
        }
        const R cc = c * ck;                      // the row's c and the column's
        const R x = A[k], y = A[k2];
        A[k] = cc * fma(tk, y, x);
        A[k2] = cc * fma(-tk, x, y);
        const R vx = V[k], vy = V[k2];
        V[k] = ck * fma(tk, vy, vx);
        V[k2] = ck * fma(-tk, vx, vy);
      }
      A[0] = rot ? dnew : A[0];
      A[m] = rot ? (R)0 : A[m];
    }
    if (!__any_sync(FULL, any)) break;
  }

  // ---- eigenvalues, their order (NaNs last), outputs ----
  const R d = ex != 0 ? ga_j_ldexp(A[0], ex) : A[0];
  int rank = 0;
#pragma unroll
  for (int j = 0; j < P; j++) {
    const R dj = __shfl_sync(FULL, d, j, P);
    if (j < N && (LESS(dj, d) || (!LESS(d, dj) && j < i))) rank++;
  }
  // V's column i^k goes to column rank(i^k); staged as column-major
#pragma unroll
  for (int k = 0; k < P; k++) {
    const int rk = __shfl_xor_sync(FULL, rank, k);
    const int j = i ^ k;
    if (i < N && j < N) st[g * MS + rk * N + i] = V[k];
  }
  if (live && i < N) w[mat * N + rank] = d;
  __syncwarp();
  {
    const long long nel = ((long long)batch - m0 < MPW ? (long long)batch - m0 : MPW) * NN;
    R *dst = a + m0 * NN;
    for (int e = lane; e < nel; e += 32) dst[e] = st[(e / NN) * MS + e % NN];
  }
  if (live && i == 0) info[mat] = 0;
}

#undef N
#undef P
#undef MPW
#undef NN
#undef MS
#undef FULL
#undef HIB
#undef LESS
#undef GA_JBOUNDS
