// The generator kernel: thread t takes the 4 stream words at off + 4t and
// writes values t*E .. t*E+E-1 of the draw (kernels/ga_philox.cuh says
// which words make which value), so the result does not depend on the grid.
// Defined by the generator: GA_RNG_DIST, GA_RNG_OUT (the C type),
// GA_RNG_KIND (0 float, 1 double, 2 integer, 3 rejection draw, 4 float32
// normal), GA_RNG_E (values per thread).
#if GA_RNG_KIND == 4
// Float32 normals (the ziggurat): the fast test in the loop; a value that
// fails it (1.5%) goes to its warp's queue, and the warp computes the queue
// 32 at a time, so the slow path runs with every lane busy instead of
// stalling a warp whenever one lane needs it.  The loop runs whole warps
// (lanes past the end take part in the ballots).
#define GA_ZQ 160   // < 32 left + 4 x 32 added per round
extern "C" __global__ void __launch_bounds__(256) ga_rand(float *out, long long n, unsigned long long off, ga_rng_args a) {
  __shared__ uint2 zt[256];
  __shared__ long long qi[8][GA_ZQ];
  __shared__ unsigned qw[8][GA_ZQ];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) zt[i] = make_uint2(ga_rng_zig_k[i], ga_rng_zig_w[i]);
  __syncthreads();
  const int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
  const unsigned below = (1u << lane) - 1u;
  const float p0 = (float)a.p0, p1 = (float)a.p1;
  int nq = 0;
  long long nt = (n + 3) / 4, stride = (long long)gridDim.x * blockDim.x;
  for (long long base = (long long)blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < nt; base += stride) {
    long long t = base + lane, i0 = t * 4;
    bool slow[4] = {false, false, false, false};
    ga_rng_w4 w;
    w.w[0] = w.w[1] = w.w[2] = w.w[3] = 0;
    if (t < nt) {
      w = ga_rng_words(off + 4ull * (ga_rng_u64)t, a.s, a.k0, a.k1);
      float v[4];
      int left = n - i0 < 4 ? (int)(n - i0) : 4;
      for (int j = 0; j < 4; j++) {
        uint2 e = zt[w.w[j] & 255u];
        float x;
        slow[j] = !ga_rng_zig_fast(w.w[j], e.x, __uint_as_float(e.y), &x) && j < left;
        v[j] = p0 + p1 * x;
      }
      if (left == 4 && ((unsigned long long)(out + i0) & 15) == 0) *(float4 *)(out + i0) = make_float4(v[0], v[1], v[2], v[3]);
      else for (int j = 0; j < left; j++) out[i0 + j] = v[j];
    }
    // the lane's slow values go to the queue at nq + (the slow values of
    // the lanes below it): a prefix sum of counts 0..4 from 3 ballots
    int c = slow[0] + slow[1] + slow[2] + slow[3];
    unsigned b0 = __ballot_sync(0xffffffffu, c & 1), b1 = __ballot_sync(0xffffffffu, c & 2),
             b2 = __ballot_sync(0xffffffffu, c & 4);
    int p = nq + __popc(b0 & below) + 2 * __popc(b1 & below) + 4 * __popc(b2 & below);
    if (c) {
      for (int j = 0; j < 4; j++)
        if (slow[j]) {
          qi[wp][p] = i0 + j;
          qw[wp][p] = w.w[j];
          p++;
        }
    }
    nq += __popc(b0) + 2 * __popc(b1) + 4 * __popc(b2);
    __syncwarp();
    while (nq >= 32) {
      int p = nq - 32 + lane;
      long long i = qi[wp][p];
      out[i] = p0 + p1 * ga_rng_zig_slow(qw[wp][p], off + (ga_rng_u64)i, &a);
      nq -= 32;
      __syncwarp();
    }
  }
  __syncwarp();
  if (lane < nq) {
    long long i = qi[wp][lane];
    out[i] = p0 + p1 * ga_rng_zig_slow(qw[wp][lane], off + (ga_rng_u64)i, &a);
  }
}
#else
extern "C" __global__ void ga_rand(GA_RNG_OUT *out, long long n, unsigned long long off, ga_rng_args a) {
  long long nt = (n + GA_RNG_E - 1) / GA_RNG_E;
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < nt; t += stride) {
    ga_rng_u64 pos = off + 4ull * (ga_rng_u64)t;
    long long i0 = t * GA_RNG_E;
#if GA_RNG_KIND == 3   // value i from word pos + i's own attempts
    for (int j = 0; j < 4 && i0 + j < n; j++)
      out[i0 + j] = (GA_RNG_OUT)ga_rng_reject(GA_RNG_DIST, &a, pos + j, (ga_rng_u64)(i0 + j));
#else
    ga_rng_w4 w = ga_rng_words(pos, a.s, a.k0, a.k1);
    bool whole = i0 + GA_RNG_E <= n && ((unsigned long long)(out + i0) & 15) == 0;
#if GA_RNG_KIND == 0
    float v[4];
    ga_rng_floats(GA_RNG_DIST, &a, pos, w, v);
    if (whole) *(float4 *)(out + i0) = make_float4(v[0], v[1], v[2], v[3]);
    else for (int j = 0; j < 4 && i0 + j < n; j++) out[i0 + j] = v[j];
#elif GA_RNG_KIND == 1
    double v[2];
    ga_rng_doubles(GA_RNG_DIST, &a, w, v);
    if (whole) *(double2 *)(out + i0) = make_double2(v[0], v[1]);
    else for (int j = 0; j < 2 && i0 + j < n; j++) out[i0 + j] = v[j];
#else
    ga_rng_u64 v[4];
    ga_rng_ints(GA_RNG_DIST, &a, pos, w, v);
    for (int j = 0; j < GA_RNG_E && i0 + j < n; j++) out[i0 + j] = (GA_RNG_OUT)v[j];
#endif
#endif
  }
}
#endif
