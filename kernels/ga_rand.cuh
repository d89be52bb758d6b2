// The generator kernel: thread t takes the 4 stream words at off + 4t and
// writes values t*E .. t*E+E-1 of the draw (kernels/ga_philox.cuh says
// which words make which value), so the result does not depend on the grid.
// Defined by the generator: GA_RNG_DIST, GA_RNG_OUT (the C type),
// GA_RNG_KIND (0 float, 1 double, 2 integer, 3 rejection draw),
// GA_RNG_E (values per thread).
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
    ga_rng_floats(GA_RNG_DIST, &a, w, v);
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
