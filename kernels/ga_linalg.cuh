// Helpers of the dense solvers (cuda/ga_cuda_solver.c).  Include-free, so
// NVRTC parses only this.

// The pointer arrays cuBLAS's and cuSOLVER's batched routines take:
// out[i] = b0 + i * s0 and, when b1 is not null, out[n + i] = b1 + i * s1.
extern "C" __global__ void ga_la_ptrs(char **out, char *b0, long long s0, char *b1, long long s1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = b0 + (long long)i * s0;
    if (b1) out[n + i] = b1 + (long long)i * s1;
  }
}

// cusolverDnXgeev of real matrices, all-real form (as LAPACK's sgeev and
// dgeev) -> the complex results of the `lapack` slot's GEEV.  Per matrix:
// wri holds n real parts then n imaginary parts; vr (null: eigenvalues
// only) the n x n real column-major vectors, a conjugate pair (wi[j] > 0,
// wi[j + 1] < 0) stored as its real part in column j and its imaginary
// part in column j + 1.  w: n complex per matrix; v: n x n complex per
// matrix, column j the vector of w[j].  One thread per element of v (of w
// when vr is null); total = batch * n * n (batch * n).
template <typename T>
__device__ void ga_la_geev_real(const T *wri, const T *vr, T *w, T *v, long long n, long long total) {
  long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= total) return;
  if (!vr) {
    long long i = e / n, j = e - i * n;
    w[2 * e] = wri[2 * n * i + j];
    w[2 * e + 1] = wri[2 * n * i + n + j];
    return;
  }
  long long nn = n * n, i = e / nn, rem = e - i * nn, j = rem / n, r = rem - j * n;
  const T *wr = wri + 2 * n * i, *wi = wr + n, *V = vr + nn * i;
  T im = wi[j], vre, vim;
  if (im > (T)0 && j + 1 < n) {
    vre = V[j * n + r], vim = V[(j + 1) * n + r];
  } else if (im < (T)0 && j > 0) {
    vre = V[(j - 1) * n + r], vim = -V[j * n + r];
  } else {
    vre = V[j * n + r], vim = (T)0;
  }
  v[2 * e] = vre;
  v[2 * e + 1] = vim;
  if (r == 0) {
    w[2 * (n * i + j)] = wr[j];
    w[2 * (n * i + j) + 1] = im;
  }
}
extern "C" __global__ void ga_la_geev_real_f(const float *wri, const float *vr, float *w, float *v, long long n,
                                             long long total) {
  ga_la_geev_real<float>(wri, vr, w, v, n, total);
}
extern "C" __global__ void ga_la_geev_real_d(const double *wri, const double *vr, double *w, double *v, long long n,
                                             long long total) {
  ga_la_geev_real<double>(wri, vr, w, v, n, total);
}
