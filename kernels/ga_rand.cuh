// The generator kernel: thread t takes the 4 stream words at off + 4t and
// writes values t*E .. t*E+E-1 of the draw (kernels/ga_philox.cuh says
// which words make which value), so the result does not depend on the grid.
// Defined by the generator: GA_RNG_DIST, GA_RNG_OUT (the C type),
// GA_RNG_KIND (0 float, 1 double, 2 integer, 3 rejection draw),
// GA_RNG_E (values per thread), GA_RNG_STD (1: a standard normal draw,
// no loc/scale fma: ga_rng_std), GA_RNG_U (Philox blocks a thread makes per
// step of the aligned loop), GA_RNG_CHUNK (1: the aligned draw by chunks,
// ga_rng_chunks), GA_RNG_CS (1: streaming stores) and GA_RNG_SHIFT
// (0: draws that start mid-block take the general loop); before
// kernels/ga_philox.cuh, GA_RNG_SC (ga_rng_normf's sin/cos); GA_RNG_NREG
// (0 or the float32 normal kernel's register bound).  K: the round keys of
// a.k0, a.k1 (ga_rng_keys_of).
#if GA_RNG_KIND == 0
typedef float4 ga_rng_vec;
GA_RNG_FN ga_rng_vec ga_rng_vals(const ga_rng_args *a, ga_rng_w4 w) {
  float v[4];
#if GA_RNG_STD
  ga_rng_normf4(w, v);
#else
  ga_rng_floats(GA_RNG_DIST, a, w, v);
#endif
  return make_float4(v[0], v[1], v[2], v[3]);
}
#elif GA_RNG_KIND == 1
typedef double2 ga_rng_vec;
GA_RNG_FN ga_rng_vec ga_rng_vals(const ga_rng_args *a, ga_rng_w4 w) {
  double v[2];
  ga_rng_doubles(GA_RNG_DIST, a, w, v);
  return make_double2(v[0], v[1]);
}
#endif

#if GA_RNG_KIND <= 1
GA_RNG_FN void ga_rng_put(ga_rng_vec *p, ga_rng_vec v) {
#if GA_RNG_CS
  __stcs(p, v);
#else
  *p = v;
#endif
}

// the first m (< E, or E) values of v (constant indices: no local memory)
GA_RNG_FN void ga_rng_tail(GA_RNG_OUT *o, ga_rng_vec v, int m) {
#if GA_RNG_KIND == 0
  if (m > 0) o[0] = v.x;
  if (m > 1) o[1] = v.y;
  if (m > 2) o[2] = v.z;
  if (m > 3) o[3] = v.w;
#else
  if (m > 0) o[0] = v.x;
  if (m > 1) o[1] = v.y;
#endif
}

// The aligned draw (off % 4 == 0, out 16-byte aligned): thread t makes the
// whole blocks t, t + stride, ... (block b: Philox counter off / 4 + b,
// values bE .. bE+E-1), U at a time; the thread whose turn falls on the
// partial last block writes its head.
GA_RNG_FN void ga_rng_aligned(ga_rng_vec *out, long long n, unsigned long long off, const ga_rng_args &a,
                              const ga_rng_keys &K) {
  long long nw = n / GA_RNG_E, stride = (long long)gridDim.x * blockDim.x;
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  ga_rng_u64 c0 = off >> 2;
  if (nw < 0x7fffffffLL - stride * GA_RNG_U && (ga_rng_u32)c0 + (ga_rng_u64)nw <= 0xffffffffull) {
    // 32-bit steps: counter word 1 is constant
    unsigned lo = (unsigned)c0, hi = (unsigned)(c0 >> 32), n32 = (unsigned)nw, s32 = (unsigned)stride;
    unsigned u = (unsigned)t;
    for (; u + (GA_RNG_U - 1) * s32 < n32; u += GA_RNG_U * s32) {
      ga_rng_w4 w[GA_RNG_U];
#pragma unroll
      for (int k = 0; k < GA_RNG_U; k++) w[k] = ga_philox_k(((ga_rng_u64)hi << 32) | (lo + u + k * s32), a.s, 0, &K);
#pragma unroll
      for (int k = 0; k < GA_RNG_U; k++) ga_rng_put(out + (u + k * s32), ga_rng_vals(&a, w[k]));
    }
    for (; u < n32; u += s32) ga_rng_put(out + u, ga_rng_vals(&a, ga_philox_k(((ga_rng_u64)hi << 32) | (lo + u), a.s, 0, &K)));
    t = u;
  } else {
    for (; t < nw; t += stride) ga_rng_put(out + t, ga_rng_vals(&a, ga_philox_k(c0 + (ga_rng_u64)t, a.s, 0, &K)));
  }
  if (t == nw && nw * GA_RNG_E < n) {
    ga_rng_vec v = ga_rng_vals(&a, ga_philox(c0 + (ga_rng_u64)nw, a.s, 0, a.k0, a.k1));
    ga_rng_tail((GA_RNG_OUT *)(out + nw), v, (int)(n - nw * GA_RNG_E));
  }
}

// The aligned draw by chunks (GA_RNG_CHUNK 1: uniform draws, whose
// threads compute little between stores): chunk c is vectors c C .. c C +
// C - 1 (C = blockDim.x U), lane t making vectors c C + t + k blockDim.x;
// block b makes chunks b, b + gridDim.x, ... (the generator launches a
// block per chunk), so each block's stores are one contiguous run and the
// grid sweeps the output once, as an elementwise kernel's.  The chunk that
// holds vector nw also writes the partial last block.
GA_RNG_FN void ga_rng_chunks(ga_rng_vec *out, long long n, unsigned long long off, const ga_rng_args &a,
                             const ga_rng_keys &K) {
  long long nw = n / GA_RNG_E, bs = blockDim.x, C = bs * GA_RNG_U, end = nw + (nw * GA_RNG_E < n);
  ga_rng_u64 c0 = off >> 2;
  for (long long c = blockIdx.x; c * C < end; c += gridDim.x) {
    long long u0 = c * C + threadIdx.x;
    if (c * C + C <= nw) {
      ga_rng_w4 w[GA_RNG_U];
#pragma unroll
      for (int k = 0; k < GA_RNG_U; k++) w[k] = ga_philox_k(c0 + (ga_rng_u64)(u0 + k * bs), a.s, 0, &K);
#pragma unroll
      for (int k = 0; k < GA_RNG_U; k++) ga_rng_put(out + (u0 + k * bs), ga_rng_vals(&a, w[k]));
      continue;
    }
    for (int k = 0; k < GA_RNG_U; k++) {
      long long u = u0 + k * bs;
      if (u < nw) ga_rng_put(out + u, ga_rng_vals(&a, ga_philox_k(c0 + (ga_rng_u64)u, a.s, 0, &K)));
      else if (u == nw && u < end)
        ga_rng_tail((GA_RNG_OUT *)(out + nw), ga_rng_vals(&a, ga_philox_k(c0 + (ga_rng_u64)nw, a.s, 0, &K)),
                    (int)(n - nw * GA_RNG_E));
    }
  }
}
#endif

// A draw whose first word is not a block's (off % 4 = sh > 0): output
// vector t (values tE .. tE+E-1, 16-byte aligned) is the words 4t + sh ..
// 4t + sh + 3: the end of block t and the start of block t + 1.  Each lane
// of a warp makes one block (one Philox block per 4 words, where
// ga_rng_words makes two) and takes the next from the lane above
// (__shfl_down_sync), so a warp writes GA_RNG_WS - 1 vectors a step; the
// first thread writes the last values that make no whole vector.  For an
// output that is not 16-byte aligned each block's values are written one by
// one instead.  A block must hold whole values (sh % W == 0, W words a
// value; float32 normals: sh even; float64 normals never); other draws take
// the general loop, as all do with GA_RNG_SHIFT 0 (a timing variant).
#if GA_RNG_KIND <= 1
#ifndef GA_RNG_WS
#define GA_RNG_WS 32   // lanes per warp (tools/rng_emu: 1, each lane making both blocks)
#endif
#if GA_RNG_KIND == 0
#define GA_RNG_SHIFTS(sh) (GA_RNG_SHIFT && (GA_RNG_DIST != GA_RNG_NORMAL || (sh) % 2 == 0))
GA_RNG_FN ga_rng_vec ga_rng_join(ga_rng_vec v, ga_rng_vec x, int sh) {
  return sh == 1 ? make_float4(v.y, v.z, v.w, x.x) : sh == 2 ? make_float4(v.z, v.w, x.x, x.y)
                                                      : make_float4(v.w, x.x, x.y, x.z);
}
GA_RNG_FN ga_rng_vec ga_rng_down(ga_rng_vec v) {
  return make_float4(__shfl_down_sync(0xffffffffu, v.x, 1), __shfl_down_sync(0xffffffffu, v.y, 1),
                     __shfl_down_sync(0xffffffffu, v.z, 1), __shfl_down_sync(0xffffffffu, v.w, 1));
}
#else
#define GA_RNG_SHIFTS(sh) (GA_RNG_SHIFT && GA_RNG_DIST != GA_RNG_NORMAL && (sh) % 2 == 0)
GA_RNG_FN ga_rng_vec ga_rng_join(ga_rng_vec v, ga_rng_vec x, int sh) {
  (void)sh;
  return make_double2(v.y, x.x);
}
GA_RNG_FN ga_rng_vec ga_rng_down(ga_rng_vec v) {
  return make_double2(__shfl_down_sync(0xffffffffu, v.x, 1), __shfl_down_sync(0xffffffffu, v.y, 1));
}
#endif

GA_RNG_FN void ga_rng_shifted(GA_RNG_OUT *out, long long n, unsigned long long off, const ga_rng_args &a,
                              const ga_rng_keys &K) {
  const int W = 4 / GA_RNG_E, sh = (int)(off & 3);
  long long stride = (long long)gridDim.x * blockDim.x, gt = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  ga_rng_u64 c0 = off >> 2;
  if (((unsigned long long)out & 15) == 0) {
    ga_rng_vec *ov = (ga_rng_vec *)out;
    long long nv = n / GA_RNG_E, P = GA_RNG_WS > 1 ? GA_RNG_WS - 1 : 1;   // P: vectors a warp writes a step
    int lane = (int)(threadIdx.x % GA_RNG_WS);
    for (long long base = gt / GA_RNG_WS * P; base < nv; base += stride / GA_RNG_WS * P) {   // the same in a warp
      long long t = base + lane;
      ga_rng_vec v = ga_rng_vals(&a, ga_philox_k(c0 + (ga_rng_u64)t, a.s, 0, &K));
#if GA_RNG_WS > 1
      ga_rng_vec x = ga_rng_down(v);
      if (lane < P && t < nv) ga_rng_put(ov + t, ga_rng_join(v, x, sh));
#else
      ga_rng_vec x = ga_rng_vals(&a, ga_philox_k(c0 + (ga_rng_u64)t + 1, a.s, 0, &K));
      if (t < nv) ga_rng_put(ov + t, ga_rng_join(v, x, sh));
#endif
    }
    if (gt == 0 && nv * GA_RNG_E < n) {
      ga_rng_vec v = ga_rng_vals(&a, ga_philox_k(c0 + (ga_rng_u64)nv, a.s, 0, &K));
      ga_rng_vec x = ga_rng_vals(&a, ga_philox_k(c0 + (ga_rng_u64)nv + 1, a.s, 0, &K));
      ga_rng_tail(out + nv * GA_RNG_E, ga_rng_join(v, x, sh), (int)(n - nv * GA_RNG_E));
    }
    return;
  }
  long long nb = (n * W + sh + 3) / 4;   // an unaligned output: block t's words j are values (4t + j - sh) / W
  for (long long t = gt; t < nb; t += stride) {
    ga_rng_vec v = ga_rng_vals(&a, ga_philox_k(c0 + (ga_rng_u64)t, a.s, 0, &K));
    long long i0 = (4 * t - sh) / W;   // the value of word 0 (negative in block 0)
#if GA_RNG_KIND == 0
    if (i0 >= 0 && i0 < n) out[i0] = v.x;
    if (i0 + 1 >= 0 && i0 + 1 < n) out[i0 + 1] = v.y;
    if (i0 + 2 >= 0 && i0 + 2 < n) out[i0 + 2] = v.z;
    if (i0 + 3 < n) out[i0 + 3] = v.w;
#else
    if (i0 >= 0 && i0 < n) out[i0] = v.x;
    if (i0 + 1 < n) out[i0 + 1] = v.y;
#endif
  }
}
#endif

// float32 normals: at most GA_RNG_NREG registers where not 0 (a timing
// variant: the kernel takes 32 by itself, 8 blocks of 256 per SM)
// (#if sees numbers only: GA_RNG_NORMAL is an enum, 1)
static_assert(GA_RNG_NORMAL == 1, "GA_RNG_NORMAL is 1 in the #if lines below");
#if GA_RNG_KIND == 0 && GA_RNG_DIST == 1 && GA_RNG_NREG
#define GA_RNG_BOUNDS __maxnreg__(GA_RNG_NREG)
#else
#define GA_RNG_BOUNDS
#endif
extern "C" __global__ void GA_RNG_BOUNDS ga_rand(GA_RNG_OUT *out, long long n, unsigned long long off, ga_rng_args a,
                                                 ga_rng_keys K) {
#if GA_RNG_KIND == 0 && GA_RNG_DIST == 1 && GA_RNG_SC
  GA_RNG_SC_LOAD();   // the sin/cos table of ga_rng_sincos24t
#endif
#if GA_RNG_KIND <= 1
  if ((off & 3) == 0 && ((unsigned long long)out & 15) == 0) {
#if GA_RNG_CHUNK
    ga_rng_chunks((ga_rng_vec *)out, n, off, a, K);
#else
    ga_rng_aligned((ga_rng_vec *)out, n, off, a, K);
#endif
    return;
  }
  if ((off & 3) != 0 && GA_RNG_SHIFTS(off & 3)) {
    ga_rng_shifted(out, n, off, a, K);
    return;
  }
#endif
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
#if GA_RNG_KIND <= 1
    ga_rng_vec v = ga_rng_vals(&a, w);
    if (whole) *(ga_rng_vec *)(out + i0) = v;
    else ga_rng_tail(out + i0, v, (int)(n - i0 < GA_RNG_E ? n - i0 : GA_RNG_E));
#else
    ga_rng_u64 v[4];
    ga_rng_ints(GA_RNG_DIST, &a, pos, w, v);
    for (int j = 0; j < GA_RNG_E && i0 + j < n; j++) out[i0 + j] = (GA_RNG_OUT)v[j];
#endif
#endif
  }
}
