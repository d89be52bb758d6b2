// Runs kernels/ga_jacobi_sym.cuh (the two-sided batched Jacobi eigh) on the
// host: one warp at a time, a pthread per lane, barriers for the shuffles
// and votes.  Built and run by sym_check.sh for several sizes and inputs:
//   sym_harness BATCH KIND   (KIND: 0 random, 1 degenerate, 2 diagonal,
//   3 scaled 1e30, 4 scaled 1e-30, 5 a NaN in every third matrix, 6 zero,
//   7 graded, 8 the bench's: uniform [0, 1) plus its transpose); prints the sweeps a warp took and the worst |A V - V w| /
//   max|A|, |Vᵀ V - I|, and disorder of w (float64 checks).
#include <math.h>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>
#include <vector>
#include <random>
#include <algorithm>
using std::sqrt; using std::fabs; using std::fmax;
struct dim3_ { unsigned x, y, z; };
thread_local dim3_ threadIdx, blockIdx;
static pthread_barrier_t bar;
static unsigned char slot[32][8];
static long long anycount;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __shared__ static
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline int L() { return threadIdx.x & 31; }
template <class T> static T xchg(T v, int src) {
  memcpy(slot[L()], &v, sizeof v); pthread_barrier_wait(&bar);
  T r; memcpy(&r, slot[src], sizeof r); pthread_barrier_wait(&bar); return r;
}
template <class T> static T __shfl_xor_sync(unsigned, T v, int m, int w = 32) { (void)w; return xchg(v, L() ^ m); }
template <class T> static T __shfl_sync(unsigned, T v, int s, int w = 32) { return xchg(v, (L() & ~(w - 1)) | (s & (w - 1))); }
static unsigned __ballot_sync(unsigned, int p) {
  int v = p ? 1 : 0; memcpy(slot[L()], &v, 4); pthread_barrier_wait(&bar);
  unsigned r = 0; for (int l = 0; l < 32; l++) { int x; memcpy(&x, slot[l], 4); if (x) r |= 1u << l; }
  pthread_barrier_wait(&bar); return r;
}
static int __any_sync(unsigned m, int p) { if (L() == 0) anycount++; return __ballot_sync(m, p) != 0; }
static void __syncwarp() { pthread_barrier_wait(&bar); }
#include KERNEL_SRC

struct Args { R *a, *w; int *info; int batch; int bx, tx; };
static void *run(void *p) {
  Args *g = (Args *)p; threadIdx.x = g->tx; blockIdx.x = g->bx;
  ga_jacobi(g->a, g->w, g->info, g->batch); return NULL;
}
int main(int argc, char **argv) {
  int batch = argc > 1 ? atoi(argv[1]) : 8;
  int kind = argc > 2 ? atoi(argv[2]) : 0;   // 0 random sym, 1 degenerate, 2 diag, 3 huge, 4 tiny, 5 nan, 6 zero, 7 spd-ish graded
  int n = GA_JN;
  std::mt19937_64 rng(42 + kind);
  std::normal_distribution<double> nd;
  std::uniform_real_distribution<double> ud;
  std::vector<double> A0((size_t)batch * n * n);
  for (int b = 0; b < batch; b++) {
    double *M = &A0[(size_t)b * n * n];
    for (int i = 0; i < n; i++) for (int j = 0; j <= i; j++) {
      double v = kind == 8 ? ud(rng) + ud(rng) : nd(rng);
      if (kind == 2 && i != j) v = 0;
      if (kind == 6) v = 0;
      M[i * n + j] = M[j * n + i] = v;
    }
    if (kind == 1) {  // Q diag(1,1,1,2,2,...) Q^T via Householder
      std::vector<double> u(n); double un = 0; for (auto &x : u) { x = nd(rng); un += x * x; }
      for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) {
        double q = (i == j) - 2 * u[i] * u[j] / un, s = 0;
        (void)q;
      }
      for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) {
          double qi = (i == k) - 2 * u[i] * u[k] / un, qj = (j == k) - 2 * u[j] * u[k] / un;
          s += qi * (k < n / 2 ? 1.0 : 3.0) * qj;
        }
        M[i * n + j] = s;
      }
    }
    if (kind == 3) for (int e = 0; e < n * n; e++) M[e] *= 1e30;
    if (kind == 4) for (int e = 0; e < n * n; e++) M[e] *= 1e-30;
    if (kind == 5 && b % 3 == 1) M[0] = NAN;
    if (kind == 7) for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) M[i * n + j] *= pow(10.0, -(i + j) * 0.3);
  }
  std::vector<R> a(A0.begin(), A0.end()), w((size_t)batch * n);
  std::vector<int> info(batch, -7);
  // poison the lower triangle (column-major upper read): kernel must not read it
  for (int b = 0; b < batch; b++) for (int i = 0; i < n; i++) for (int j = 0; j < n; j++)
    if (GA_JUPPER ? (i > j) : (i < j)) a[(size_t)b * n * n + j * n + i] = (R)12345.0;
  int per_block = GA_JWPB * (32 / GA_JP), nblocks = (batch + per_block - 1) / per_block;
  anycount = 0;
  for (int bx = 0; bx < nblocks; bx++) for (int wp = 0; wp < GA_JWPB; wp++) {
    pthread_barrier_init(&bar, NULL, 32);
    pthread_t th[32]; Args ar[32];
    for (int l = 0; l < 32; l++) { ar[l] = {a.data(), w.data(), info.data(), batch, bx, wp * 32 + l}; pthread_create(&th[l], NULL, run, &ar[l]); }
    for (int l = 0; l < 32; l++) pthread_join(th[l], NULL);
    pthread_barrier_destroy(&bar);
  }
  double worst_res = 0, worst_orth = 0, worst_sorted = 0; int nanrows = 0;
  for (int b = 0; b < batch; b++) {
    const double *M = &A0[(size_t)b * n * n];
    const R *Vv = &a[(size_t)b * n * n]; const R *ww = &w[(size_t)b * n];
    double an = 0; for (int e = 0; e < n * n; e++) an = std::max(an, fabs(M[e]));
    if (an == 0) an = 1;
    bool hasnan = false; for (int e = 0; e < n * n; e++) if (M[e] != M[e]) hasnan = true;
    if (hasnan) { int bad = 0; for (int k = 0; k < n; k++) if (ww[k] != ww[k]) bad = 1; nanrows += bad; continue; }
    if (info[b] != 0) printf("matrix %d info %d\n", b, info[b]);
    for (int k = 1; k < n; k++) if (ww[k] < ww[k - 1]) worst_sorted = std::max(worst_sorted, (double)(ww[k - 1] - ww[k]));
    for (int k = 0; k < n; k++) for (int i = 0; i < n; i++) {
      double s = 0; for (int j = 0; j < n; j++) s += M[i * n + j] * Vv[k * n + j];
      worst_res = std::max(worst_res, fabs(s - ww[k] * Vv[k * n + i]) / an);
    }
    for (int k = 0; k < n; k++) for (int l = 0; l < n; l++) {
      double s = 0; for (int j = 0; j < n; j++) s += (double)Vv[k * n + j] * Vv[l * n + j];
      worst_orth = std::max(worst_orth, fabs(s - (k == l)));
    }
  }
  printf("n=%d P=%d batch=%d kind=%d sweeps/warp=%.2f resid=%.3g orth=%.3g unsorted=%.3g nanmats=%d w0=%g\n", n, GA_JP, batch, kind,
         (double)anycount / GA_JP / ((batch + 32 / GA_JP - 1) / (32 / GA_JP)), worst_res, worst_orth, worst_sorted, nanrows, (double)w[0]);
  return 0;
}
