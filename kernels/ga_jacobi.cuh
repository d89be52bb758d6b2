// Batched one-sided Jacobi (Hestenes) for small square matrices: one warp
// per matrix, the matrix X and the accumulated rotations V in shared
// memory (rows padded to N+1: no bank conflicts), lanes over rows.
//
// Each sweep visits every column pair once in the round-robin order of a
// chess tournament: NP-1 steps of NP/2 disjoint pairs (NP = N rounded up to
// even; a pair holding the dummy column N of an odd N is skipped).  In a
// step, lane k computes the rotation of pair k from the pair's norms and
// inner product; then every lane applies all the step's rotations to its
// row of X and of V.  Rotation of (p, q) with g = x_pᴴ x_q = |g| e:
//   zeta = (|x_q|² - |x_p|²) / (2 |g|), t = sign(zeta) / (|zeta| + sqrt(1 + zeta²)),
//   c = 1 / sqrt(1 + t²), s = c t,
//   x_p <- c x_p - s conj(e) x_q,  x_q <- s e x_p + c x_q   (the same on V),
// which makes x_p and x_q orthogonal; a pair is skipped when
// |g| <= GA_JEPS * |x_p| |x_q|.  The sweeps stop when none rotated (or
// after GA_JMAXSWEEP).
//
// GA_JMODE 0 (SVD): X = A, then A V = X: s_j = |x_j|, u_j = x_j / s_j,
// sorted descending; columns with s_j ~ 0 are completed to an orthonormal
// U (Gram-Schmidt against the others, from unit vectors).  Outputs as
// cuSOLVER's gesvdjBatched: s, U (N x N), V (N x N, not Vᴴ), column-major.
// GA_JMODE 1 (Hermitian eigenproblem): X = A + sigma I with sigma = |A|_F,
// positive semidefinite, so its one-sided Jacobi V holds A's eigenvectors
// and |x_j| - sigma its eigenvalues; sorted ascending, written as
// cuSOLVER's syevjBatched: w, and the vectors over a.  A is read from one
// triangle (GA_JUPPER: the column-major upper one), as LAPACK.
//
// Per-call macros (cuda/ga_cuda_solver.c): GA_JN, GA_JNP, GA_JCPLX,
// GA_JREAL_T, GA_JEPS, GA_JMODE, GA_JUPPER, GA_JWPB (warps per block),
// GA_JMAXSWEEP, GA_JVGLOBAL (N > 32: V lives in the output slab, not in
// shared memory, so that X alone fills it).  Include-free: NVRTC parses
// only this.

typedef GA_JREAL_T R;
#define N GA_JN
#define NP GA_JNP
#define LD (GA_JN + 1)
#define HALF (GA_JNP / 2)
#define ES (GA_JCPLX ? 2 : 1)

struct ga_jw {
  R xr[N * LD];
#if GA_JCPLX
  R xi[N * LD];
#endif
#if !GA_JVGLOBAL
  R vr[N * LD];
#if GA_JCPLX
  R vi[N * LD];
#endif
#endif
  R c[HALF], sr[HALF], si[HALF];
  int pp[HALF], qq[HALF];
  R nrm[N];
  int perm[N];
  int bad[N];
};

// V in global memory: its columns put in order in place, each lane its own
// row staged through X's shared rows (X is done with by then)
#if GA_JVGLOBAL
#if GA_JCPLX
#define GA_JPERMUTE_V() \
  __syncwarp(); \
  for (int i = lane; i < N; i += 32) { \
    for (int j = 0; j < N; j++) { S.xr[i * LD + j] = VR(i, j); S.xi[i * LD + j] = VI(i, j); } \
    for (int k = 0; k < N; k++) { VR(i, k) = S.xr[i * LD + S.perm[k]]; VI(i, k) = S.xi[i * LD + S.perm[k]]; } \
  }
#else
#define GA_JPERMUTE_V() \
  __syncwarp(); \
  for (int i = lane; i < N; i += 32) { \
    for (int j = 0; j < N; j++) S.xr[i * LD + j] = VR(i, j); \
    for (int k = 0; k < N; k++) VR(i, k) = S.xr[i * LD + S.perm[k]]; \
  }
#endif
#else
#define GA_JPERMUTE_V()
#endif

// V's element (i, j): in shared memory (N <= 32), else in the output slab
// (column-major; lane i only ever touches row i of it until the end)
#if GA_JVGLOBAL
#define VR(i, j) Vg[((j) * N + (i)) * ES]
#define VI(i, j) Vg[((j) * N + (i)) * ES + 1]
#else
#define VR(i, j) S.vr[(i) * LD + (j)]
#define VI(i, j) S.vi[(i) * LD + (j)]
#endif

extern "C" __global__ void __launch_bounds__(GA_JWPB * 32)
ga_jacobi(R *a, R *sv, R *u, R *v, int *info, int batch) {
  __shared__ ga_jw sh[GA_JWPB];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const long long m = (long long)blockIdx.x * GA_JWPB + warp;
  if (m >= batch) return;   // the whole warp: only __syncwarp below
  ga_jw &S = sh[warp];
  R *A = a + m * (long long)(N * N * ES);
#if GA_JVGLOBAL
  R *Vg = GA_JMODE == 0 ? v + m * (long long)(N * N * ES) : A;
#endif

  // ---- load (lane = row) ----
  R fro = 0;
  for (int i = lane; i < N; i += 32) {
    for (int j = 0; j < N; j++) {
#if GA_JMODE == 0
      R re = A[(j * N + i) * ES];
      R im = GA_JCPLX ? A[(j * N + i) * ES + GA_JCPLX] : (R)0;
#else
      bool mine = GA_JUPPER ? (i <= j) : (i >= j);
      int o = mine ? (j * N + i) : (i * N + j);
      R re = A[o * ES];
      R im = GA_JCPLX ? A[o * ES + GA_JCPLX] : (R)0;
      if (!mine) im = -im;
      if (i == j) im = 0;
#endif
      S.xr[i * LD + j] = re;
#if GA_JCPLX
      S.xi[i * LD + j] = im;
#endif
      fro += re * re + im * im;
    }
  }
#if GA_JMODE == 1
  for (int o = 16; o > 0; o >>= 1) fro += __shfl_xor_sync(0xffffffffu, fro, o);
  const R sigma = sqrt(fro);
  __syncwarp();
  for (int i = lane; i < N; i += 32) S.xr[i * LD + i] += sigma;
#endif
  __syncwarp();   // every lane has read A (eigh: both triangles) before V = I may go over it
  for (int i = lane; i < N; i += 32) {
    for (int j = 0; j < N; j++) {
      VR(i, j) = i == j ? (R)1 : (R)0;
#if GA_JCPLX
      VI(i, j) = 0;
#endif
    }
  }
  __syncwarp();

  // ---- sweeps ----
  for (int sweep = 0; sweep < GA_JMAXSWEEP; sweep++) {
    int rotated = 0;
    for (int r = 0; r < NP - 1; r++) {
      if (lane < HALF) {
        int p = lane == 0 ? r : (r + lane) % (NP - 1);
        int q = lane == 0 ? NP - 1 : (r - lane + NP - 1) % (NP - 1);
        R c = 1, sr = 0, si = 0;
        if (p < N && q < N) {
          R al = 0, be = 0, gr = 0, gi = 0;
          for (int i = 0; i < N; i++) {
            R xpr = S.xr[i * LD + p], xqr = S.xr[i * LD + q];
            al += xpr * xpr;
            be += xqr * xqr;
            gr += xpr * xqr;
#if GA_JCPLX
            R xpi = S.xi[i * LD + p], xqi = S.xi[i * LD + q];
            al += xpi * xpi;
            be += xqi * xqi;
            gr += xpi * xqi;
            gi += xpr * xqi - xpi * xqr;
#endif
          }
          R ag = sqrt(gr * gr + gi * gi);
          if (ag > 0 && ag > (R)GA_JEPS * sqrt(al) * sqrt(be)) {
            R zeta = (be - al) / (2 * ag);
            R az = fabs(zeta);
            R root = az > 1 ? az * sqrt(1 + (1 / az) * (1 / az)) : sqrt(1 + az * az);
            R t = (zeta >= 0 ? (R)1 : (R)-1) / (az + root);
            c = 1 / sqrt(1 + t * t);
            R s = c * t;
            sr = s * (gr / ag);
            si = s * (gi / ag);
            rotated = 1;
          }
        }
        S.c[lane] = c;
        S.sr[lane] = sr;
        S.si[lane] = si;
        S.pp[lane] = p;
        S.qq[lane] = q;
      }
      __syncwarp();
      for (int i = lane; i < N; i += 32) {
        for (int k = 0; k < HALF; k++) {
          R sr = S.sr[k], si = S.si[k];
          if (sr == 0 && si == 0) continue;
          R c = S.c[k];
          int p = S.pp[k], q = S.qq[k];
          // x_p' = c x_p - conj(se) x_q ; x_q' = se x_p + c x_q
          R xpr = S.xr[i * LD + p], xqr = S.xr[i * LD + q];
          R vpr = VR(i, p), vqr = VR(i, q);
#if GA_JCPLX
          R xpi = S.xi[i * LD + p], xqi = S.xi[i * LD + q];
          R vpi = VI(i, p), vqi = VI(i, q);
          S.xr[i * LD + p] = c * xpr - (sr * xqr + si * xqi);
          S.xi[i * LD + p] = c * xpi - (sr * xqi - si * xqr);
          S.xr[i * LD + q] = (sr * xpr - si * xpi) + c * xqr;
          S.xi[i * LD + q] = (sr * xpi + si * xpr) + c * xqi;
          VR(i, p) = c * vpr - (sr * vqr + si * vqi);
          VI(i, p) = c * vpi - (sr * vqi - si * vqr);
          VR(i, q) = (sr * vpr - si * vpi) + c * vqr;
          VI(i, q) = (sr * vpi + si * vpr) + c * vqi;
#else
          S.xr[i * LD + p] = c * xpr - sr * xqr;
          S.xr[i * LD + q] = sr * xpr + c * xqr;
          VR(i, p) = c * vpr - sr * vqr;
          VR(i, q) = sr * vpr + c * vqr;
#endif
        }
      }
      __syncwarp();
    }
    if (!__any_sync(0xffffffffu, rotated)) break;
  }

  // ---- column norms and the order (lane = column) ----
  for (int j = lane; j < N; j += 32) {
    R s2 = 0;
    for (int i = 0; i < N; i++) {
      R re = S.xr[i * LD + j];
      s2 += re * re;
#if GA_JCPLX
      R im = S.xi[i * LD + j];
      s2 += im * im;
#endif
    }
    S.nrm[j] = sqrt(s2);
  }
  __syncwarp();
  if (lane == 0) {
    for (int k = 0; k < N; k++) S.perm[k] = k;
    for (int k = 1; k < N; k++) {   // insertion sort: descending (SVD) or ascending (eigh)
      int pk = S.perm[k];
      R key = S.nrm[pk];
      int j = k - 1;
      while (j >= 0 && (GA_JMODE == 0 ? S.nrm[S.perm[j]] < key : S.nrm[S.perm[j]] > key)) {
        S.perm[j + 1] = S.perm[j];
        j--;
      }
      S.perm[j + 1] = pk;
    }
  }
  __syncwarp();

#if GA_JMODE == 0
  // ---- U: normalised columns; ~zero ones completed ----
  const R small = S.nrm[S.perm[0]] * (R)GA_JEPS;
  for (int j = lane; j < N; j += 32) {
    R s = S.nrm[j];
    int bad = !(s > small && s > 0);
    S.bad[j] = bad;
    R inv = bad ? (R)0 : 1 / s;
    for (int i = 0; i < N; i++) {
      S.xr[i * LD + j] *= inv;
#if GA_JCPLX
      S.xi[i * LD + j] *= inv;
#endif
    }
  }
  __syncwarp();
  if (lane == 0) {
    for (int j = 0; j < N; j++) {
      if (!S.bad[j]) continue;
      for (int e = 0; e < N; e++) {
        // w = unit vector e, minus its projections on the good columns (twice)
        for (int i = 0; i < N; i++) {
          S.xr[i * LD + j] = i == e ? (R)1 : (R)0;
#if GA_JCPLX
          S.xi[i * LD + j] = 0;
#endif
        }
        for (int pass = 0; pass < 2; pass++) {
          for (int k = 0; k < N; k++) {
            if (k == j || S.bad[k]) continue;
            R pr = 0, pi = 0;   // u_kᴴ w
            for (int i = 0; i < N; i++) {
              pr += S.xr[i * LD + k] * S.xr[i * LD + j];
#if GA_JCPLX
              pr += S.xi[i * LD + k] * S.xi[i * LD + j];
              pi += S.xr[i * LD + k] * S.xi[i * LD + j] - S.xi[i * LD + k] * S.xr[i * LD + j];
#endif
            }
            for (int i = 0; i < N; i++) {
              R ur = S.xr[i * LD + k];
#if GA_JCPLX
              R ui = S.xi[i * LD + k];
              S.xr[i * LD + j] -= pr * ur - pi * ui;
              S.xi[i * LD + j] -= pr * ui + pi * ur;
#else
              S.xr[i * LD + j] -= pr * ur;
#endif
            }
          }
        }
        R w2 = 0;
        for (int i = 0; i < N; i++) {
          w2 += S.xr[i * LD + j] * S.xr[i * LD + j];
#if GA_JCPLX
          w2 += S.xi[i * LD + j] * S.xi[i * LD + j];
#endif
        }
        if (w2 > (R)0.25) {
          R inv = 1 / sqrt(w2);
          for (int i = 0; i < N; i++) {
            S.xr[i * LD + j] *= inv;
#if GA_JCPLX
            S.xi[i * LD + j] *= inv;
#endif
          }
          S.bad[j] = 0;
          break;
        }
      }
    }
  }
  __syncwarp();
  // ---- write s, U, V (column-major; lane = row) ----
  R *U = u + m * (long long)(N * N * ES);
#if !GA_JVGLOBAL
  R *Vo = v + m * (long long)(N * N * ES);
#endif
  for (int i = lane; i < N; i += 32) {
    sv[m * N + i] = S.nrm[S.perm[i]];
    for (int k = 0; k < N; k++) {
      int j = S.perm[k];
      U[(k * N + i) * ES] = S.xr[i * LD + j];
#if GA_JCPLX
      U[(k * N + i) * ES + 1] = S.xi[i * LD + j];
#endif
#if !GA_JVGLOBAL
      Vo[(k * N + i) * ES] = S.vr[i * LD + j];
#if GA_JCPLX
      Vo[(k * N + i) * ES + 1] = S.vi[i * LD + j];
#endif
#endif
    }
  }
  GA_JPERMUTE_V();
#else
  // ---- write w (ascending) and the vectors over a ----
  for (int i = lane; i < N; i += 32) {
    sv[m * N + i] = S.nrm[S.perm[i]] - sigma;
#if !GA_JVGLOBAL
    for (int k = 0; k < N; k++) {
      int j = S.perm[k];
      A[(k * N + i) * ES] = S.vr[i * LD + j];
#if GA_JCPLX
      A[(k * N + i) * ES + 1] = S.vi[i * LD + j];
#endif
    }
#endif
  }
  GA_JPERMUTE_V();
#endif
  if (lane == 0) info[m] = 0;
}
