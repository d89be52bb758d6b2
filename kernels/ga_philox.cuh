// The random stream: Philox4x32-10 (Salmon et al., SC'11, as Random123 and
// cuRAND define it) and the draws made from its words.  The same text is
// compiled by NVRTC into the generator kernel and by the C compiler into
// the host backend (src/host/ga_host_rand.c), so both compute one function:
//
//   word k of a stream (key k0:k1, substream s) = lane k % 4 of
//   philox(counter = {k / 4 low, k / 4 high, s, 0}, key)
//
// A draw of n values starting at word `off` gives value i the words
// off + W*i ... (W words per value), so the result depends on (key, off)
// only: not on the launch geometry, nor on how a draw is split.  A value
// that must be redrawn (integers, rejection) takes its j-th retry from
// philox({its first word's position, s, j}) – a stream of its own, so no
// other value moves.  Plain C99 where compiled on the host (no templates).
#ifdef __CUDACC__
#define GA_RNG_FN static __device__ __forceinline__
#else
#define GA_RNG_FN static inline
#endif

typedef unsigned int ga_rng_u32;
typedef unsigned long long ga_rng_u64;
typedef struct ga_rng_w4 { ga_rng_u32 w[4]; } ga_rng_w4;

GA_RNG_FN ga_rng_u32 ga_rng_mulhi(ga_rng_u32 a, ga_rng_u32 b) {
#ifdef __CUDACC__
  return __umulhi(a, b);
#else
  return (ga_rng_u32)(((ga_rng_u64)a * b) >> 32);
#endif
}

GA_RNG_FN ga_rng_w4 ga_philox(ga_rng_u64 ctr, ga_rng_u32 c2, ga_rng_u32 c3, ga_rng_u32 k0, ga_rng_u32 k1) {
  ga_rng_u32 c0 = (ga_rng_u32)ctr, c1 = (ga_rng_u32)(ctr >> 32);
  for (int r = 0; r < 10; r++) {
    if (r) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    ga_rng_u32 hi0 = ga_rng_mulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    ga_rng_u32 hi1 = ga_rng_mulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  ga_rng_w4 o;
  o.w[0] = c0; o.w[1] = c1; o.w[2] = c2; o.w[3] = c3;
  return o;
}

// The 10 round keys of a key (the kernel takes them precomputed, as
// parameters: no register holds them), and ga_philox with them.
typedef struct ga_rng_keys { ga_rng_u32 k0[10], k1[10]; } ga_rng_keys;
GA_RNG_FN ga_rng_keys ga_rng_keys_of(ga_rng_u32 k0, ga_rng_u32 k1) {
  ga_rng_keys K;
  for (int r = 0; r < 10; r++) {
    K.k0[r] = k0;
    K.k1[r] = k1;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return K;
}
GA_RNG_FN ga_rng_w4 ga_philox_k(ga_rng_u64 ctr, ga_rng_u32 c2, ga_rng_u32 c3, const ga_rng_keys *K) {
  ga_rng_u32 c0 = (ga_rng_u32)ctr, c1 = (ga_rng_u32)(ctr >> 32);
  for (int r = 0; r < 10; r++) {
    ga_rng_u32 hi0 = ga_rng_mulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    ga_rng_u32 hi1 = ga_rng_mulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ K->k0[r];
    c1 = lo1;
    c2 = hi0 ^ c3 ^ K->k1[r];
    c3 = lo0;
  }
  ga_rng_w4 o;
  o.w[0] = c0; o.w[1] = c1; o.w[2] = c2; o.w[3] = c3;
  return o;
}

// Words pos .. pos+3 of substream s.
GA_RNG_FN ga_rng_w4 ga_rng_words(ga_rng_u64 pos, ga_rng_u32 s, ga_rng_u32 k0, ga_rng_u32 k1) {
  ga_rng_w4 a = ga_philox(pos >> 2, s, 0, k0, k1);
  unsigned sh = (unsigned)(pos & 3);
  if (!sh) return a;
  ga_rng_w4 b = ga_philox((pos >> 2) + 1, s, 0, k0, k1), o;
  // constant indices only (a computed one can put a and b in local memory)
  if (sh == 1) { o.w[0] = a.w[1]; o.w[1] = a.w[2]; o.w[2] = a.w[3]; o.w[3] = b.w[0]; }
  else if (sh == 2) { o.w[0] = a.w[2]; o.w[1] = a.w[3]; o.w[2] = b.w[0]; o.w[3] = b.w[1]; }
  else { o.w[0] = a.w[3]; o.w[1] = b.w[0]; o.w[2] = b.w[1]; o.w[3] = b.w[2]; }
  return o;
}

// ---- uniform in [0, 1): float32 from 24 bits, float64 from 53 (NumPy's
// formula: the top 27 bits of w0 and the top 26 of w1) ----
GA_RNG_FN ga_rng_u32 ga_rng_bits24(ga_rng_u32 w) { return w >> 8; }
GA_RNG_FN ga_rng_u64 ga_rng_bits53(ga_rng_u32 w0, ga_rng_u32 w1) {
  return ((ga_rng_u64)(w0 >> 5) << 26) | (w1 >> 6);
}
#define GA_RNG_2M24 5.9604644775390625e-8f
#define GA_RNG_2M53 1.1102230246251565e-16
GA_RNG_FN float ga_rng_u01f(ga_rng_u32 w) { return (float)ga_rng_bits24(w) * GA_RNG_2M24; }
GA_RNG_FN double ga_rng_u01d(ga_rng_u32 w0, ga_rng_u32 w1) { return (double)ga_rng_bits53(w0, w1) * GA_RNG_2M53; }

// ---- IEEE operations in a fixed order: written as calls so that neither
// NVRTC (which fuses a*b+c by default) nor the C compiler contracts them,
// and the host computes the GPU's bits ----
#ifdef __CUDACC__
#define GA_RNG_FMAF(a, b, c) __fmaf_rn(a, b, c)
#define GA_RNG_MULF(a, b) __fmul_rn(a, b)
#define GA_RNG_ADDF(a, b) __fadd_rn(a, b)
#define GA_RNG_FMA(a, b, c) __fma_rn(a, b, c)
#define GA_RNG_MUL(a, b) __dmul_rn(a, b)
#define GA_RNG_ADD(a, b) __dadd_rn(a, b)
#define GA_RNG_DIV(a, b) __ddiv_rn(a, b)
#define GA_RNG_SQRTF(x) __fsqrt_rn(x)
#define GA_RNG_SQRT(x) __dsqrt_rn(x)
GA_RNG_FN ga_rng_u32 ga_rng_fbits(float x) { return __float_as_uint(x); }
GA_RNG_FN float ga_rng_bitsf(ga_rng_u32 u) { return __uint_as_float(u); }
GA_RNG_FN ga_rng_u64 ga_rng_dbits(double x) { return (ga_rng_u64)__double_as_longlong(x); }
GA_RNG_FN double ga_rng_bitsd(ga_rng_u64 u) { return __longlong_as_double((long long)u); }
#else
#define GA_RNG_FMAF(a, b, c) fmaf(a, b, c)
#define GA_RNG_MULF(a, b) ((float)(a) * (float)(b))
#define GA_RNG_ADDF(a, b) ((float)(a) + (float)(b))
#define GA_RNG_FMA(a, b, c) fma(a, b, c)
#define GA_RNG_MUL(a, b) ((double)(a) * (double)(b))
#define GA_RNG_ADD(a, b) ((double)(a) + (double)(b))
#define GA_RNG_DIV(a, b) ((double)(a) / (double)(b))
#define GA_RNG_SQRTF(x) sqrtf(x)
#define GA_RNG_SQRT(x) sqrt(x)
GA_RNG_FN ga_rng_u32 ga_rng_fbits(float x) { union { float f; ga_rng_u32 u; } v; v.f = x; return v.u; }
GA_RNG_FN float ga_rng_bitsf(ga_rng_u32 u) { union { float f; ga_rng_u32 u; } v; v.u = u; return v.f; }
GA_RNG_FN ga_rng_u64 ga_rng_dbits(double x) { union { double f; ga_rng_u64 u; } v; v.f = x; return v.u; }
GA_RNG_FN double ga_rng_bitsd(ga_rng_u64 u) { union { double f; ga_rng_u64 u; } v; v.u = u; return v.f; }
#endif

// ---- float32 log and sin/cos of our own (polynomials from
// tools/fit_rng_poly.py; spec/c checks them against libm over every
// input): one IEEE operation at a time, so host and GPU agree bit for bit,
// and about half the instructions of CUDA's general logf/sincospif, which
// handle arguments these draws never make. ----
// log(j * 2^-24) for j in [1, 2^24]: j = m 2^e with m in [2/3, 4/3)
GA_RNG_FN float ga_rng_log24(ga_rng_u32 j) {
  ga_rng_u32 b = ga_rng_fbits((float)j);
  int e = (int)(b - 0x3f2aaaabu) >> 23;
  float t = ga_rng_bitsf(b - ((ga_rng_u32)e << 23)) - 1.0f;   // exact
  float q = GA_RNG_FMAF(t, -1.294883639e-01f, 1.400476545e-01f);
  q = GA_RNG_FMAF(t, q, -1.216718480e-01f);
  q = GA_RNG_FMAF(t, q, 1.400115937e-01f);
  q = GA_RNG_FMAF(t, q, -1.668230295e-01f);
  q = GA_RNG_FMAF(t, q, 2.001074702e-01f);
  q = GA_RNG_FMAF(t, q, -2.499971688e-01f);
  q = GA_RNG_FMAF(t, q, 3.333320916e-01f);
  q = GA_RNG_FMAF(t, q, -0.5f);
  float l = GA_RNG_FMAF(GA_RNG_MULF(t, t), q, t);          // log1p(t)
  return GA_RNG_FMAF((float)(e - 24), 0.693147182f, l);
}

// sin and cos of 2 pi j / 2^24 for j in [0, 2^24): j = q 2^22 + y 2^24
// exactly, q a quadrant, |y| <= 1/8 of a turn
GA_RNG_FN void ga_rng_sincos24(ga_rng_u32 j, float *s, float *c) {
  ga_rng_u32 q = (j + 0x200000u) >> 22;
  float y = GA_RNG_MULF((float)(int)(j - (q << 22)), 5.9604644775390625e-8f), z = GA_RNG_MULF(y, y);
  float ps = GA_RNG_FMAF(z, -7.539356232e+01f, 8.159235382e+01f);
  ps = GA_RNG_FMAF(z, ps, -4.134166336e+01f);
  ps = GA_RNG_FMAF(z, ps, 6.283185482e+00f);
  float sy = GA_RNG_MULF(y, ps);
  float pc = GA_RNG_FMAF(z, 5.922924042e+01f, -8.544323730e+01f);
  pc = GA_RNG_FMAF(z, pc, 6.493932343e+01f);
  pc = GA_RNG_FMAF(z, pc, -1.973920822e+01f);
  float cy = GA_RNG_FMAF(z, pc, 1.0f);
  // quadrant q: (sin, cos) = (S, C), (C, -S), (-S, -C), (-C, S)
  ga_rng_u32 sw = q & 1, ns = (q & 2) << 30, nc = ((q + 1) & 2) << 30;
  *s = ga_rng_bitsf(ga_rng_fbits(sw ? cy : sy) ^ ns);
  *c = ga_rng_bitsf(ga_rng_fbits(sw ? sy : cy) ^ nc);
}

// sin and cos of 2 pi j / 2^24 from the top 24 bits j of the word w, by a
// table: j = i 2^16 + f exactly (f in [-2^15, 2^15)), (sin, cos)(2 pi i /
// 256) correctly rounded from ga_rng_sc256 (tools/gen_rng_sctab.py), and
// the angle b = 2 pi f 2^-24 (|b| <= pi / 256) by sin b = F (k1 + k3 F^2)
// (k1 as hi + lo), cos b = 1 + k2 F^2 (the next terms are below 2e-10
// relative), F = f:
// s = sa + (sa (cb - 1) + (ca sb + sa lo)), c likewise (1.46 ulp; spec/c
// checks every angle).  On the GPU the table is in shared memory (the
// kernel loads it: GA_RNG_SC_LOAD), on the host this array.
#ifdef __CUDACC__
#define GA_RNG_TABLE static __device__ const
#else
#define GA_RNG_TABLE static const
#endif
GA_RNG_TABLE float ga_rng_sc256[1024] = {   // 2 pi i / 256: sin, cos, sin - sin hi, cos - cos hi
  0.0f, 1.000000000e+00f, 0.0f, 0.0f,
  2.454122901e-02f, 9.996988177e-01f, -4.867160008e-10f, 9.662542988e-10f,
  4.906767607e-02f, 9.987954497e-01f, -1.739934308e-09f, 6.471438052e-09f,
  7.356456667e-02f, 9.972904325e-01f, -3.072180954e-09f, 2.422553536e-08f,
  9.801714122e-02f, 9.951847196e-01f, -8.933931928e-10f, 7.109666189e-09f,
  1.224106774e-01f, 9.924795628e-01f, -2.174193048e-09f, -2.816068978e-08f,
  1.467304677e-01f, 9.891765118e-01f, 6.778245520e-09f, -1.799745353e-09f,
  1.709618866e-01f, 9.852776527e-01f, 2.115937869e-09f, -1.035153741e-08f,
  1.950903237e-01f, 9.807852507e-01f, -1.670471428e-09f, 2.973947311e-08f,
  2.191012353e-01f, 9.757021070e-01f, 4.886369531e-09f, 2.308586211e-08f,
  2.429801822e-01f, 9.700312614e-01f, -2.267604104e-09f, -8.249547712e-09f,
  2.667127550e-01f, 9.637760520e-01f, 2.510069930e-09f, 1.379730108e-08f,
  2.902846634e-01f, 9.569403529e-01f, 1.381566506e-08f, -1.718450804e-08f,
  3.136817515e-01f, 9.495281577e-01f, -1.109074788e-08f, 2.288200740e-08f,
  3.368898630e-01f, 9.415440559e-01f, -9.622000974e-09f, 9.244300436e-09f,
  3.598950505e-01f, 9.329928160e-01f, -1.399067706e-08f, -1.713663522e-08f,
  3.826834261e-01f, 9.238795042e-01f, 6.223350724e-09f, 2.830748969e-08f,
  4.052413106e-01f, 9.142097831e-01f, 3.408523908e-09f, -2.737370863e-08f,
  4.275550842e-01f, 9.039893150e-01f, 9.201766460e-09f, -2.190951598e-08f,
  4.496113360e-01f, 8.932242990e-01f, -6.338206404e-09f, 2.241505204e-09f,
  4.713967443e-01f, 8.819212914e-01f, -7.425253745e-09f, -2.700296342e-08f,
  4.928981960e-01f, 8.700869679e-01f, -3.752195443e-09f, 2.316361325e-08f,
  5.141027570e-01f, 8.577286005e-01f, -1.278385930e-08f, 9.498258180e-09f,
  5.349976420e-01f, 8.448535800e-01f, -2.215315575e-08f, -1.474830924e-08f,
  5.555702448e-01f, 8.314695954e-01f, -1.176952136e-08f, 1.687026341e-08f,
  5.758081675e-01f, 8.175848126e-01f, 2.396026488e-08f, 5.104399126e-10f,
  5.956993103e-01f, 8.032075167e-01f, -5.810301129e-09f, 1.481041778e-08f,
  6.152315736e-01f, 7.883464098e-01f, 1.699893204e-08f, 1.782893833e-08f,
  6.343932748e-01f, 7.730104327e-01f, 9.379557575e-09f, 2.064255256e-08f,
  6.531728506e-01f, 7.572088242e-01f, -7.655049039e-09f, 2.234876995e-08f,
  6.715589762e-01f, 7.409511209e-01f, -2.132638244e-08f, 4.501535145e-09f,
  6.895405650e-01f, 7.242470980e-01f, -2.027681845e-08f, -1.501758895e-08f,
  7.071067691e-01f, 7.071067691e-01f, 1.210161749e-08f, 1.210161749e-08f,
  7.242470980e-01f, 6.895405650e-01f, -1.501758895e-08f, -2.027681845e-08f,
  7.409511209e-01f, 6.715589762e-01f, 4.501535145e-09f, -2.132638244e-08f,
  7.572088242e-01f, 6.531728506e-01f, 2.234876995e-08f, -7.655049039e-09f,
  7.730104327e-01f, 6.343932748e-01f, 2.064255256e-08f, 9.379557575e-09f,
  7.883464098e-01f, 6.152315736e-01f, 1.782893833e-08f, 1.699893204e-08f,
  8.032075167e-01f, 5.956993103e-01f, 1.481041778e-08f, -5.810301129e-09f,
  8.175848126e-01f, 5.758081675e-01f, 5.104399126e-10f, 2.396026488e-08f,
  8.314695954e-01f, 5.555702448e-01f, 1.687026341e-08f, -1.176952136e-08f,
  8.448535800e-01f, 5.349976420e-01f, -1.474830924e-08f, -2.215315575e-08f,
  8.577286005e-01f, 5.141027570e-01f, 9.498258180e-09f, -1.278385930e-08f,
  8.700869679e-01f, 4.928981960e-01f, 2.316361325e-08f, -3.752195443e-09f,
  8.819212914e-01f, 4.713967443e-01f, -2.700296342e-08f, -7.425253745e-09f,
  8.932242990e-01f, 4.496113360e-01f, 2.241505204e-09f, -6.338206404e-09f,
  9.039893150e-01f, 4.275550842e-01f, -2.190951598e-08f, 9.201766460e-09f,
  9.142097831e-01f, 4.052413106e-01f, -2.737370863e-08f, 3.408523908e-09f,
  9.238795042e-01f, 3.826834261e-01f, 2.830748969e-08f, 6.223350724e-09f,
  9.329928160e-01f, 3.598950505e-01f, -1.713663522e-08f, -1.399067706e-08f,
  9.415440559e-01f, 3.368898630e-01f, 9.244300436e-09f, -9.622000974e-09f,
  9.495281577e-01f, 3.136817515e-01f, 2.288200740e-08f, -1.109074788e-08f,
  9.569403529e-01f, 2.902846634e-01f, -1.718450804e-08f, 1.381566506e-08f,
  9.637760520e-01f, 2.667127550e-01f, 1.379730108e-08f, 2.510069930e-09f,
  9.700312614e-01f, 2.429801822e-01f, -8.249547712e-09f, -2.267604104e-09f,
  9.757021070e-01f, 2.191012353e-01f, 2.308586211e-08f, 4.886369531e-09f,
  9.807852507e-01f, 1.950903237e-01f, 2.973947311e-08f, -1.670471428e-09f,
  9.852776527e-01f, 1.709618866e-01f, -1.035153741e-08f, 2.115937869e-09f,
  9.891765118e-01f, 1.467304677e-01f, -1.799745353e-09f, 6.778245520e-09f,
  9.924795628e-01f, 1.224106774e-01f, -2.816068978e-08f, -2.174193048e-09f,
  9.951847196e-01f, 9.801714122e-02f, 7.109666189e-09f, -8.933931928e-10f,
  9.972904325e-01f, 7.356456667e-02f, 2.422553536e-08f, -3.072180954e-09f,
  9.987954497e-01f, 4.906767607e-02f, 6.471438052e-09f, -1.739934308e-09f,
  9.996988177e-01f, 2.454122901e-02f, 9.662542988e-10f, -4.867160008e-10f,
  1.000000000e+00f, 0.0f, 0.0f, 0.0f,
  9.996988177e-01f, -2.454122901e-02f, 9.662542988e-10f, 4.867160008e-10f,
  9.987954497e-01f, -4.906767607e-02f, 6.471438052e-09f, 1.739934308e-09f,
  9.972904325e-01f, -7.356456667e-02f, 2.422553536e-08f, 3.072180954e-09f,
  9.951847196e-01f, -9.801714122e-02f, 7.109666189e-09f, 8.933931928e-10f,
  9.924795628e-01f, -1.224106774e-01f, -2.816068978e-08f, 2.174193048e-09f,
  9.891765118e-01f, -1.467304677e-01f, -1.799745353e-09f, -6.778245520e-09f,
  9.852776527e-01f, -1.709618866e-01f, -1.035153741e-08f, -2.115937869e-09f,
  9.807852507e-01f, -1.950903237e-01f, 2.973947311e-08f, 1.670471428e-09f,
  9.757021070e-01f, -2.191012353e-01f, 2.308586211e-08f, -4.886369531e-09f,
  9.700312614e-01f, -2.429801822e-01f, -8.249547712e-09f, 2.267604104e-09f,
  9.637760520e-01f, -2.667127550e-01f, 1.379730108e-08f, -2.510069930e-09f,
  9.569403529e-01f, -2.902846634e-01f, -1.718450804e-08f, -1.381566506e-08f,
  9.495281577e-01f, -3.136817515e-01f, 2.288200740e-08f, 1.109074788e-08f,
  9.415440559e-01f, -3.368898630e-01f, 9.244300436e-09f, 9.622000974e-09f,
  9.329928160e-01f, -3.598950505e-01f, -1.713663522e-08f, 1.399067706e-08f,
  9.238795042e-01f, -3.826834261e-01f, 2.830748969e-08f, -6.223350724e-09f,
  9.142097831e-01f, -4.052413106e-01f, -2.737370863e-08f, -3.408523908e-09f,
  9.039893150e-01f, -4.275550842e-01f, -2.190951598e-08f, -9.201766460e-09f,
  8.932242990e-01f, -4.496113360e-01f, 2.241505204e-09f, 6.338206404e-09f,
  8.819212914e-01f, -4.713967443e-01f, -2.700296342e-08f, 7.425253745e-09f,
  8.700869679e-01f, -4.928981960e-01f, 2.316361325e-08f, 3.752195443e-09f,
  8.577286005e-01f, -5.141027570e-01f, 9.498258180e-09f, 1.278385930e-08f,
  8.448535800e-01f, -5.349976420e-01f, -1.474830924e-08f, 2.215315575e-08f,
  8.314695954e-01f, -5.555702448e-01f, 1.687026341e-08f, 1.176952136e-08f,
  8.175848126e-01f, -5.758081675e-01f, 5.104399126e-10f, -2.396026488e-08f,
  8.032075167e-01f, -5.956993103e-01f, 1.481041778e-08f, 5.810301129e-09f,
  7.883464098e-01f, -6.152315736e-01f, 1.782893833e-08f, -1.699893204e-08f,
  7.730104327e-01f, -6.343932748e-01f, 2.064255256e-08f, -9.379557575e-09f,
  7.572088242e-01f, -6.531728506e-01f, 2.234876995e-08f, 7.655049039e-09f,
  7.409511209e-01f, -6.715589762e-01f, 4.501535145e-09f, 2.132638244e-08f,
  7.242470980e-01f, -6.895405650e-01f, -1.501758895e-08f, 2.027681845e-08f,
  7.071067691e-01f, -7.071067691e-01f, 1.210161749e-08f, -1.210161749e-08f,
  6.895405650e-01f, -7.242470980e-01f, -2.027681845e-08f, 1.501758895e-08f,
  6.715589762e-01f, -7.409511209e-01f, -2.132638244e-08f, -4.501535145e-09f,
  6.531728506e-01f, -7.572088242e-01f, -7.655049039e-09f, -2.234876995e-08f,
  6.343932748e-01f, -7.730104327e-01f, 9.379557575e-09f, -2.064255256e-08f,
  6.152315736e-01f, -7.883464098e-01f, 1.699893204e-08f, -1.782893833e-08f,
  5.956993103e-01f, -8.032075167e-01f, -5.810301129e-09f, -1.481041778e-08f,
  5.758081675e-01f, -8.175848126e-01f, 2.396026488e-08f, -5.104399126e-10f,
  5.555702448e-01f, -8.314695954e-01f, -1.176952136e-08f, -1.687026341e-08f,
  5.349976420e-01f, -8.448535800e-01f, -2.215315575e-08f, 1.474830924e-08f,
  5.141027570e-01f, -8.577286005e-01f, -1.278385930e-08f, -9.498258180e-09f,
  4.928981960e-01f, -8.700869679e-01f, -3.752195443e-09f, -2.316361325e-08f,
  4.713967443e-01f, -8.819212914e-01f, -7.425253745e-09f, 2.700296342e-08f,
  4.496113360e-01f, -8.932242990e-01f, -6.338206404e-09f, -2.241505204e-09f,
  4.275550842e-01f, -9.039893150e-01f, 9.201766460e-09f, 2.190951598e-08f,
  4.052413106e-01f, -9.142097831e-01f, 3.408523908e-09f, 2.737370863e-08f,
  3.826834261e-01f, -9.238795042e-01f, 6.223350724e-09f, -2.830748969e-08f,
  3.598950505e-01f, -9.329928160e-01f, -1.399067706e-08f, 1.713663522e-08f,
  3.368898630e-01f, -9.415440559e-01f, -9.622000974e-09f, -9.244300436e-09f,
  3.136817515e-01f, -9.495281577e-01f, -1.109074788e-08f, -2.288200740e-08f,
  2.902846634e-01f, -9.569403529e-01f, 1.381566506e-08f, 1.718450804e-08f,
  2.667127550e-01f, -9.637760520e-01f, 2.510069930e-09f, -1.379730108e-08f,
  2.429801822e-01f, -9.700312614e-01f, -2.267604104e-09f, 8.249547712e-09f,
  2.191012353e-01f, -9.757021070e-01f, 4.886369531e-09f, -2.308586211e-08f,
  1.950903237e-01f, -9.807852507e-01f, -1.670471428e-09f, -2.973947311e-08f,
  1.709618866e-01f, -9.852776527e-01f, 2.115937869e-09f, 1.035153741e-08f,
  1.467304677e-01f, -9.891765118e-01f, 6.778245520e-09f, 1.799745353e-09f,
  1.224106774e-01f, -9.924795628e-01f, -2.174193048e-09f, 2.816068978e-08f,
  9.801714122e-02f, -9.951847196e-01f, -8.933931928e-10f, -7.109666189e-09f,
  7.356456667e-02f, -9.972904325e-01f, -3.072180954e-09f, -2.422553536e-08f,
  4.906767607e-02f, -9.987954497e-01f, -1.739934308e-09f, -6.471438052e-09f,
  2.454122901e-02f, -9.996988177e-01f, -4.867160008e-10f, -9.662542988e-10f,
  0.0f, -1.000000000e+00f, 0.0f, 0.0f,
  -2.454122901e-02f, -9.996988177e-01f, 4.867160008e-10f, -9.662542988e-10f,
  -4.906767607e-02f, -9.987954497e-01f, 1.739934308e-09f, -6.471438052e-09f,
  -7.356456667e-02f, -9.972904325e-01f, 3.072180954e-09f, -2.422553536e-08f,
  -9.801714122e-02f, -9.951847196e-01f, 8.933931928e-10f, -7.109666189e-09f,
  -1.224106774e-01f, -9.924795628e-01f, 2.174193048e-09f, 2.816068978e-08f,
  -1.467304677e-01f, -9.891765118e-01f, -6.778245520e-09f, 1.799745353e-09f,
  -1.709618866e-01f, -9.852776527e-01f, -2.115937869e-09f, 1.035153741e-08f,
  -1.950903237e-01f, -9.807852507e-01f, 1.670471428e-09f, -2.973947311e-08f,
  -2.191012353e-01f, -9.757021070e-01f, -4.886369531e-09f, -2.308586211e-08f,
  -2.429801822e-01f, -9.700312614e-01f, 2.267604104e-09f, 8.249547712e-09f,
  -2.667127550e-01f, -9.637760520e-01f, -2.510069930e-09f, -1.379730108e-08f,
  -2.902846634e-01f, -9.569403529e-01f, -1.381566506e-08f, 1.718450804e-08f,
  -3.136817515e-01f, -9.495281577e-01f, 1.109074788e-08f, -2.288200740e-08f,
  -3.368898630e-01f, -9.415440559e-01f, 9.622000974e-09f, -9.244300436e-09f,
  -3.598950505e-01f, -9.329928160e-01f, 1.399067706e-08f, 1.713663522e-08f,
  -3.826834261e-01f, -9.238795042e-01f, -6.223350724e-09f, -2.830748969e-08f,
  -4.052413106e-01f, -9.142097831e-01f, -3.408523908e-09f, 2.737370863e-08f,
  -4.275550842e-01f, -9.039893150e-01f, -9.201766460e-09f, 2.190951598e-08f,
  -4.496113360e-01f, -8.932242990e-01f, 6.338206404e-09f, -2.241505204e-09f,
  -4.713967443e-01f, -8.819212914e-01f, 7.425253745e-09f, 2.700296342e-08f,
  -4.928981960e-01f, -8.700869679e-01f, 3.752195443e-09f, -2.316361325e-08f,
  -5.141027570e-01f, -8.577286005e-01f, 1.278385930e-08f, -9.498258180e-09f,
  -5.349976420e-01f, -8.448535800e-01f, 2.215315575e-08f, 1.474830924e-08f,
  -5.555702448e-01f, -8.314695954e-01f, 1.176952136e-08f, -1.687026341e-08f,
  -5.758081675e-01f, -8.175848126e-01f, -2.396026488e-08f, -5.104399126e-10f,
  -5.956993103e-01f, -8.032075167e-01f, 5.810301129e-09f, -1.481041778e-08f,
  -6.152315736e-01f, -7.883464098e-01f, -1.699893204e-08f, -1.782893833e-08f,
  -6.343932748e-01f, -7.730104327e-01f, -9.379557575e-09f, -2.064255256e-08f,
  -6.531728506e-01f, -7.572088242e-01f, 7.655049039e-09f, -2.234876995e-08f,
  -6.715589762e-01f, -7.409511209e-01f, 2.132638244e-08f, -4.501535145e-09f,
  -6.895405650e-01f, -7.242470980e-01f, 2.027681845e-08f, 1.501758895e-08f,
  -7.071067691e-01f, -7.071067691e-01f, -1.210161749e-08f, -1.210161749e-08f,
  -7.242470980e-01f, -6.895405650e-01f, 1.501758895e-08f, 2.027681845e-08f,
  -7.409511209e-01f, -6.715589762e-01f, -4.501535145e-09f, 2.132638244e-08f,
  -7.572088242e-01f, -6.531728506e-01f, -2.234876995e-08f, 7.655049039e-09f,
  -7.730104327e-01f, -6.343932748e-01f, -2.064255256e-08f, -9.379557575e-09f,
  -7.883464098e-01f, -6.152315736e-01f, -1.782893833e-08f, -1.699893204e-08f,
  -8.032075167e-01f, -5.956993103e-01f, -1.481041778e-08f, 5.810301129e-09f,
  -8.175848126e-01f, -5.758081675e-01f, -5.104399126e-10f, -2.396026488e-08f,
  -8.314695954e-01f, -5.555702448e-01f, -1.687026341e-08f, 1.176952136e-08f,
  -8.448535800e-01f, -5.349976420e-01f, 1.474830924e-08f, 2.215315575e-08f,
  -8.577286005e-01f, -5.141027570e-01f, -9.498258180e-09f, 1.278385930e-08f,
  -8.700869679e-01f, -4.928981960e-01f, -2.316361325e-08f, 3.752195443e-09f,
  -8.819212914e-01f, -4.713967443e-01f, 2.700296342e-08f, 7.425253745e-09f,
  -8.932242990e-01f, -4.496113360e-01f, -2.241505204e-09f, 6.338206404e-09f,
  -9.039893150e-01f, -4.275550842e-01f, 2.190951598e-08f, -9.201766460e-09f,
  -9.142097831e-01f, -4.052413106e-01f, 2.737370863e-08f, -3.408523908e-09f,
  -9.238795042e-01f, -3.826834261e-01f, -2.830748969e-08f, -6.223350724e-09f,
  -9.329928160e-01f, -3.598950505e-01f, 1.713663522e-08f, 1.399067706e-08f,
  -9.415440559e-01f, -3.368898630e-01f, -9.244300436e-09f, 9.622000974e-09f,
  -9.495281577e-01f, -3.136817515e-01f, -2.288200740e-08f, 1.109074788e-08f,
  -9.569403529e-01f, -2.902846634e-01f, 1.718450804e-08f, -1.381566506e-08f,
  -9.637760520e-01f, -2.667127550e-01f, -1.379730108e-08f, -2.510069930e-09f,
  -9.700312614e-01f, -2.429801822e-01f, 8.249547712e-09f, 2.267604104e-09f,
  -9.757021070e-01f, -2.191012353e-01f, -2.308586211e-08f, -4.886369531e-09f,
  -9.807852507e-01f, -1.950903237e-01f, -2.973947311e-08f, 1.670471428e-09f,
  -9.852776527e-01f, -1.709618866e-01f, 1.035153741e-08f, -2.115937869e-09f,
  -9.891765118e-01f, -1.467304677e-01f, 1.799745353e-09f, -6.778245520e-09f,
  -9.924795628e-01f, -1.224106774e-01f, 2.816068978e-08f, 2.174193048e-09f,
  -9.951847196e-01f, -9.801714122e-02f, -7.109666189e-09f, 8.933931928e-10f,
  -9.972904325e-01f, -7.356456667e-02f, -2.422553536e-08f, 3.072180954e-09f,
  -9.987954497e-01f, -4.906767607e-02f, -6.471438052e-09f, 1.739934308e-09f,
  -9.996988177e-01f, -2.454122901e-02f, -9.662542988e-10f, 4.867160008e-10f,
  -1.000000000e+00f, 0.0f, 0.0f, 0.0f,
  -9.996988177e-01f, 2.454122901e-02f, -9.662542988e-10f, -4.867160008e-10f,
  -9.987954497e-01f, 4.906767607e-02f, -6.471438052e-09f, -1.739934308e-09f,
  -9.972904325e-01f, 7.356456667e-02f, -2.422553536e-08f, -3.072180954e-09f,
  -9.951847196e-01f, 9.801714122e-02f, -7.109666189e-09f, -8.933931928e-10f,
  -9.924795628e-01f, 1.224106774e-01f, 2.816068978e-08f, -2.174193048e-09f,
  -9.891765118e-01f, 1.467304677e-01f, 1.799745353e-09f, 6.778245520e-09f,
  -9.852776527e-01f, 1.709618866e-01f, 1.035153741e-08f, 2.115937869e-09f,
  -9.807852507e-01f, 1.950903237e-01f, -2.973947311e-08f, -1.670471428e-09f,
  -9.757021070e-01f, 2.191012353e-01f, -2.308586211e-08f, 4.886369531e-09f,
  -9.700312614e-01f, 2.429801822e-01f, 8.249547712e-09f, -2.267604104e-09f,
  -9.637760520e-01f, 2.667127550e-01f, -1.379730108e-08f, 2.510069930e-09f,
  -9.569403529e-01f, 2.902846634e-01f, 1.718450804e-08f, 1.381566506e-08f,
  -9.495281577e-01f, 3.136817515e-01f, -2.288200740e-08f, -1.109074788e-08f,
  -9.415440559e-01f, 3.368898630e-01f, -9.244300436e-09f, -9.622000974e-09f,
  -9.329928160e-01f, 3.598950505e-01f, 1.713663522e-08f, -1.399067706e-08f,
  -9.238795042e-01f, 3.826834261e-01f, -2.830748969e-08f, 6.223350724e-09f,
  -9.142097831e-01f, 4.052413106e-01f, 2.737370863e-08f, 3.408523908e-09f,
  -9.039893150e-01f, 4.275550842e-01f, 2.190951598e-08f, 9.201766460e-09f,
  -8.932242990e-01f, 4.496113360e-01f, -2.241505204e-09f, -6.338206404e-09f,
  -8.819212914e-01f, 4.713967443e-01f, 2.700296342e-08f, -7.425253745e-09f,
  -8.700869679e-01f, 4.928981960e-01f, -2.316361325e-08f, -3.752195443e-09f,
  -8.577286005e-01f, 5.141027570e-01f, -9.498258180e-09f, -1.278385930e-08f,
  -8.448535800e-01f, 5.349976420e-01f, 1.474830924e-08f, -2.215315575e-08f,
  -8.314695954e-01f, 5.555702448e-01f, -1.687026341e-08f, -1.176952136e-08f,
  -8.175848126e-01f, 5.758081675e-01f, -5.104399126e-10f, 2.396026488e-08f,
  -8.032075167e-01f, 5.956993103e-01f, -1.481041778e-08f, -5.810301129e-09f,
  -7.883464098e-01f, 6.152315736e-01f, -1.782893833e-08f, 1.699893204e-08f,
  -7.730104327e-01f, 6.343932748e-01f, -2.064255256e-08f, 9.379557575e-09f,
  -7.572088242e-01f, 6.531728506e-01f, -2.234876995e-08f, -7.655049039e-09f,
  -7.409511209e-01f, 6.715589762e-01f, -4.501535145e-09f, -2.132638244e-08f,
  -7.242470980e-01f, 6.895405650e-01f, 1.501758895e-08f, -2.027681845e-08f,
  -7.071067691e-01f, 7.071067691e-01f, -1.210161749e-08f, 1.210161749e-08f,
  -6.895405650e-01f, 7.242470980e-01f, 2.027681845e-08f, -1.501758895e-08f,
  -6.715589762e-01f, 7.409511209e-01f, 2.132638244e-08f, 4.501535145e-09f,
  -6.531728506e-01f, 7.572088242e-01f, 7.655049039e-09f, 2.234876995e-08f,
  -6.343932748e-01f, 7.730104327e-01f, -9.379557575e-09f, 2.064255256e-08f,
  -6.152315736e-01f, 7.883464098e-01f, -1.699893204e-08f, 1.782893833e-08f,
  -5.956993103e-01f, 8.032075167e-01f, 5.810301129e-09f, 1.481041778e-08f,
  -5.758081675e-01f, 8.175848126e-01f, -2.396026488e-08f, 5.104399126e-10f,
  -5.555702448e-01f, 8.314695954e-01f, 1.176952136e-08f, 1.687026341e-08f,
  -5.349976420e-01f, 8.448535800e-01f, 2.215315575e-08f, -1.474830924e-08f,
  -5.141027570e-01f, 8.577286005e-01f, 1.278385930e-08f, 9.498258180e-09f,
  -4.928981960e-01f, 8.700869679e-01f, 3.752195443e-09f, 2.316361325e-08f,
  -4.713967443e-01f, 8.819212914e-01f, 7.425253745e-09f, -2.700296342e-08f,
  -4.496113360e-01f, 8.932242990e-01f, 6.338206404e-09f, 2.241505204e-09f,
  -4.275550842e-01f, 9.039893150e-01f, -9.201766460e-09f, -2.190951598e-08f,
  -4.052413106e-01f, 9.142097831e-01f, -3.408523908e-09f, -2.737370863e-08f,
  -3.826834261e-01f, 9.238795042e-01f, -6.223350724e-09f, 2.830748969e-08f,
  -3.598950505e-01f, 9.329928160e-01f, 1.399067706e-08f, -1.713663522e-08f,
  -3.368898630e-01f, 9.415440559e-01f, 9.622000974e-09f, 9.244300436e-09f,
  -3.136817515e-01f, 9.495281577e-01f, 1.109074788e-08f, 2.288200740e-08f,
  -2.902846634e-01f, 9.569403529e-01f, -1.381566506e-08f, -1.718450804e-08f,
  -2.667127550e-01f, 9.637760520e-01f, -2.510069930e-09f, 1.379730108e-08f,
  -2.429801822e-01f, 9.700312614e-01f, 2.267604104e-09f, -8.249547712e-09f,
  -2.191012353e-01f, 9.757021070e-01f, -4.886369531e-09f, 2.308586211e-08f,
  -1.950903237e-01f, 9.807852507e-01f, 1.670471428e-09f, 2.973947311e-08f,
  -1.709618866e-01f, 9.852776527e-01f, -2.115937869e-09f, -1.035153741e-08f,
  -1.467304677e-01f, 9.891765118e-01f, -6.778245520e-09f, -1.799745353e-09f,
  -1.224106774e-01f, 9.924795628e-01f, 2.174193048e-09f, -2.816068978e-08f,
  -9.801714122e-02f, 9.951847196e-01f, 8.933931928e-10f, 7.109666189e-09f,
  -7.356456667e-02f, 9.972904325e-01f, 3.072180954e-09f, 2.422553536e-08f,
  -4.906767607e-02f, 9.987954497e-01f, 1.739934308e-09f, 6.471438052e-09f,
  -2.454122901e-02f, 9.996988177e-01f, 4.867160008e-10f, 9.662542988e-10f,
};
#ifdef __CUDACC__
__shared__ float4 ga_rng_sc_sh[256];
// every thread of the block, before any draw
#define GA_RNG_SC_LOAD()                                                       \
  do {                                                                         \
    for (int i_ = threadIdx.x; i_ < 256; i_ += blockDim.x)                     \
      ga_rng_sc_sh[i_] = make_float4(ga_rng_sc256[4 * i_], ga_rng_sc256[4 * i_ + 1], \
                                     ga_rng_sc256[4 * i_ + 2], ga_rng_sc256[4 * i_ + 3]); \
    __syncthreads();                                                           \
  } while (0)
GA_RNG_FN float4 ga_rng_sc_get(ga_rng_u32 i) { return ga_rng_sc_sh[i]; }
#else
typedef struct { float x, y, z, w; } ga_rng_f4;
GA_RNG_FN ga_rng_f4 ga_rng_sc_get(ga_rng_u32 i) {
  ga_rng_f4 v = {ga_rng_sc256[4 * i], ga_rng_sc256[4 * i + 1], ga_rng_sc256[4 * i + 2], ga_rng_sc256[4 * i + 3]};
  return v;
}
#endif

GA_RNG_FN void ga_rng_sincos24t(ga_rng_u32 w, float *s, float *c) {
#ifdef __CUDACC__
  float4 t = ga_rng_sc_get((w + 0x800000u) >> 24);
#else
  ga_rng_f4 t = ga_rng_sc_get((w + 0x800000u) >> 24);
#endif
  float F = (float)((int)(w << 8) >> 16), z = GA_RNG_MULF(F, F);
  float sb = GA_RNG_FMAF(F, 3.745070387e-07f, GA_RNG_MULF(F, GA_RNG_FMAF(z, -8.754445818e-21f, -1.042160709e-14f)));
  float cm = GA_RNG_MULF(z, -7.012775506e-14f);   // cos b - 1
  *s = GA_RNG_ADDF(t.x, GA_RNG_FMAF(t.x, cm, GA_RNG_FMAF(t.y, sb, t.z)));
  *c = GA_RNG_ADDF(t.y, GA_RNG_FMAF(t.y, cm, GA_RNG_FMAF(-t.x, sb, t.w)));
}

// ---- float64 log and sin/cos, the same way (a draw's only arguments:
// k 2^-53 and 2 pi k 2^-53) ----
// log(k 2^-53) for k in [1, 2^53]: k = m 2^e, m in [sqrt(1/2), sqrt(2)),
// then fdlibm's log1p(m - 1) = f - (f^2/2 - s (f^2/2 + R(s^2))), s = f / (2 + f)
GA_RNG_FN double ga_rng_log53(ga_rng_u64 k) {
  ga_rng_u64 b = ga_rng_dbits((double)k);
  long long e = (long long)(b - 0x3fe6a09e667f3bcdull) >> 52;
  double f = ga_rng_bitsd(b - ((ga_rng_u64)e << 52)) - 1.0;   // exact
  double s = GA_RNG_DIV(f, GA_RNG_ADD(2.0, f)), z = GA_RNG_MUL(s, s), w = GA_RNG_MUL(z, z);
  double t1 = GA_RNG_MUL(w, GA_RNG_FMA(w, GA_RNG_FMA(w, 1.531383769920937332e-01, 2.222219843214978396e-01),
                                       3.999999999940941908e-01));
  double t2 = GA_RNG_MUL(z, GA_RNG_FMA(w, GA_RNG_FMA(w, GA_RNG_FMA(w, 1.479819860511658591e-01, 1.818357216161805012e-01),
                                                     2.857142874366239149e-01), 6.666666666666735130e-01));
  double hfsq = GA_RNG_MUL(GA_RNG_MUL(0.5, f), f), dk = (double)(e - 53);
  // dk ln2_hi is exact (ln2_hi ends in zeros); ln2_lo carries the rest
  double lo = GA_RNG_FMA(s, GA_RNG_ADD(hfsq, GA_RNG_ADD(t2, t1)), GA_RNG_MUL(dk, 1.90821492927058770002e-10));
  return GA_RNG_ADD(GA_RNG_MUL(dk, 6.93147180369123816490e-01), GA_RNG_ADD(f, -GA_RNG_ADD(hfsq, -lo)));
}

// sin and cos of 2 pi j / 2^53 for j in [0, 2^53): as ga_rng_sincos24, the
// polynomials Taylor's in y with (2 pi)^n / n! folded in (to n = 17, 18)
GA_RNG_FN void ga_rng_sincos53(ga_rng_u64 j, double *s, double *c) {
  ga_rng_u64 q = (j + (1ull << 50)) >> 51;
  double y = GA_RNG_MUL((double)(long long)(j - (q << 51)), 1.1102230246251565e-16), z = GA_RNG_MUL(y, y);
  double ps = GA_RNG_FMA(z, 0.10422916220813984, -0.7181223017785006);
  ps = GA_RNG_FMA(z, ps, 3.819952584848282);
  ps = GA_RNG_FMA(z, ps, -15.09464257682299);
  ps = GA_RNG_FMA(z, ps, 42.058693944897655);
  ps = GA_RNG_FMA(z, ps, -76.70585975306139);
  ps = GA_RNG_FMA(z, ps, 81.60524927607506);
  ps = GA_RNG_FMA(z, ps, -41.34170224039976);
  double sy = GA_RNG_FMA(GA_RNG_MUL(y, z), ps, GA_RNG_MUL(y, 6.283185307179586));
  double pc = GA_RNG_FMA(z, -0.03638284114254567, 0.28200596845579123);
  pc = GA_RNG_FMA(z, pc, -1.714390711088672);
  pc = GA_RNG_FMA(z, pc, 7.903536371318469);
  pc = GA_RNG_FMA(z, pc, -26.4262567833744);
  pc = GA_RNG_FMA(z, pc, 60.24464137187666);
  pc = GA_RNG_FMA(z, pc, -85.45681720669373);
  pc = GA_RNG_FMA(z, pc, 64.9393940226683);
  pc = GA_RNG_FMA(z, pc, -19.739208802178716);
  double cy = GA_RNG_FMA(z, pc, 1.0);
  ga_rng_u64 sw = q & 1, ns = (q & 2) << 62, nc = ((q + 1) & 2) << 62;
  *s = ga_rng_bitsd(ga_rng_dbits(sw ? cy : sy) ^ ns);
  *c = ga_rng_bitsd(ga_rng_dbits(sw ? sy : cy) ^ nc);
}

// ---- the rejection draws' float64 functions of any argument: CUDA's on
// the GPU, libm's on the host (each within an ulp) ----
#ifdef __CUDACC__
GA_RNG_FN double ga_rng_log(double x) { return log(x); }
GA_RNG_FN void ga_rng_sincospi(double x, double *s, double *c) { sincospi(x, s, c); }
#else
GA_RNG_FN double ga_rng_log(double x) { return log(x); }
// x in [0, 2): x = q/2 + y exactly, |y| <= 1/4, then a quadrant swap
GA_RNG_FN void ga_rng_sincospi(double x, double *s, double *c) {
  double q = nearbyint(2.0 * x), y = x - 0.5 * q;
  double sy = sin(3.141592653589793 * y), cy = cos(3.141592653589793 * y);
  switch ((int)q & 3) {
  case 0: *s = sy; *c = cy; break;
  case 1: *s = cy; *c = -sy; break;
  case 2: *s = -sy; *c = -cy; break;
  default: *s = -cy; *c = sy; break;
  }
}
#endif

// -2 log(j 2^-24) for j in [1, 2^24], the reduction of ga_rng_log24 with
// the factor -2 folded in exactly: T = -2t (exact), Horner in T with the
// coefficients of a degree-7 q (tools/fit_rng_poly.py, q(0) = -1/2; one
// term less than ga_rng_log24's) scaled by (-2)^k / 256, -2 ln 2.  spec/c
// checks it over every j.
GA_RNG_FN float ga_rng_m2log24(ga_rng_u32 j) {
  ga_rng_u32 b = ga_rng_fbits((float)j);
  int e = (int)(b - 0x3f2aaaabu) >> 23;
  float T = GA_RNG_FMAF(ga_rng_bitsf(b - ((ga_rng_u32)e << 23)), -2.0f, 2.0f);   // -2t, exact
  float q = GA_RNG_FMAF(T, 5.398491630e-04f, 1.181421336e-03f);
  q = GA_RNG_FMAF(T, q, 2.194113797e-03f);
  q = GA_RNG_FMAF(T, q, 5.147601478e-03f);
  q = GA_RNG_FMAF(T, q, 1.250494923e-02f);
  q = GA_RNG_FMAF(T, q, 3.125529736e-02f);
  q = GA_RNG_FMAF(T, q, 8.333316445e-02f);
  q = GA_RNG_FMAF(T, q, 0.25f);               // -q / 2
  float l = GA_RNG_FMAF(GA_RNG_MULF(T, T), q, T);          // -2 log1p(t)
  return GA_RNG_FMAF((float)(e - 24), -1.386294364f, l);
}

// sqrt(x) for x >= 0 (x in [0, 34)), correctly rounded: the GPU's IEEE
// sqrt without its special-argument branch.  These are the five
// instructions NVRTC emits for __fsqrt_rn's fast path (x in [2^-101,
// 2^126): MUFU.RSQ, x y, y / 2, one Newton step), which the IEEE sqrt.rn
// guarantees correctly rounded, so the host's sqrtf gives the same bits.
// (Not with any rsqrt 1 ulp off: a few inputs in 10^7 would round wrong.)
// x = 0 gives 0: y = rsqrt(2^-100), s = 0 * y.
#ifdef __CUDACC__
GA_RNG_FN float ga_rng_sqrtf_pos(float x) {
  float y, x1 = __fadd_rn(x, 7.88860905e-31f);   // x for the x > 0 a draw makes (>= 1.2e-7), 2^-100 for 0
#ifdef GA_RNG_RSQRT_APPROX   // tools/rng_emu: the emulation's stand-in
  y = GA_RNG_RSQRT_APPROX(x1);
#else
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x1));
#endif
  float s = __fmul_rn(x, y), h = __fmul_rn(y, 0.5f);
  return __fmaf_rn(__fmaf_rn(-s, s, x), h, s);
}
#else
GA_RNG_FN float ga_rng_sqrtf_pos(float x) { return sqrtf(x); }
#endif

// ---- standard normals by Box-Muller: (u1 in (0, 1], u2 in [0, 1)) ->
// r cos(2 pi u2), r sin(2 pi u2), r = sqrt(-2 log u1) ----
// GA_RNG_SC 0 (a timing variant of the GPU kernel only: the host always
// uses the table) takes sin and cos from ga_rng_sincos24 instead
#ifndef GA_RNG_SC
#define GA_RNG_SC 1
#endif
GA_RNG_FN void ga_rng_normf(ga_rng_u32 w0, ga_rng_u32 w1, float *a, float *b) {
  float r = ga_rng_sqrtf_pos(ga_rng_m2log24(ga_rng_bits24(w0) + 1)), s, c;
#if GA_RNG_SC
  ga_rng_sincos24t(w1, &s, &c);
#else
  ga_rng_sincos24(ga_rng_bits24(w1), &s, &c);
#endif
  *a = GA_RNG_MULF(r, c);
  *b = GA_RNG_MULF(r, s);
}
GA_RNG_FN void ga_rng_normd(ga_rng_w4 w, double *a, double *b) {
  double r = GA_RNG_SQRT(-2.0 * ga_rng_log53(ga_rng_bits53(w.w[0], w.w[1]) + 1)), s, c;
  ga_rng_sincos53(ga_rng_bits53(w.w[2], w.w[3]), &s, &c);
  *a = GA_RNG_MUL(r, c);
  *b = GA_RNG_MUL(r, s);
}

// ---- integers in [0, range) without bias (Lemire's multiply and reject;
// range 0 means 2^64).  A 32-bit range takes one word, a wider one two. ----
GA_RNG_FN ga_rng_u64 ga_rng_int32(ga_rng_u32 w, ga_rng_u64 range, ga_rng_u64 pos, ga_rng_u32 s, ga_rng_u32 k0,
                                  ga_rng_u32 k1) {
  if (range == 0x100000000ull) return w;
  ga_rng_u32 r = (ga_rng_u32)range;
  ga_rng_u64 m = (ga_rng_u64)w * r;
  if ((ga_rng_u32)m < r) {
    ga_rng_u32 t = (0u - r) % r;
    for (ga_rng_u32 j = 1; (ga_rng_u32)m < t; j++) m = (ga_rng_u64)ga_philox(pos, s, j, k0, k1).w[0] * r;
  }
  return m >> 32;
}

GA_RNG_FN ga_rng_u64 ga_rng_mul64(ga_rng_u64 a, ga_rng_u64 b, ga_rng_u64 *lo) {
  *lo = a * b;
#ifdef __CUDACC__
  return __umul64hi(a, b);
#else
  return (ga_rng_u64)(((unsigned __int128)a * b) >> 64);
#endif
}

GA_RNG_FN ga_rng_u64 ga_rng_int64(ga_rng_u32 w0, ga_rng_u32 w1, ga_rng_u64 range, ga_rng_u64 pos, ga_rng_u32 s,
                                  ga_rng_u32 k0, ga_rng_u32 k1) {
  ga_rng_u64 x = ((ga_rng_u64)w0 << 32) | w1;
  if (range == 0) return x;
  ga_rng_u64 lo, hi = ga_rng_mul64(x, range, &lo);
  if (lo < range) {
    ga_rng_u64 t = (0ull - range) % range;
    for (ga_rng_u32 j = 1; lo < t; j++) {
      ga_rng_w4 v = ga_philox(pos, s, j, k0, k1);
      hi = ga_rng_mul64(((ga_rng_u64)v.w[0] << 32) | v.w[1], range, &lo);
    }
  }
  return hi;
}

// ---- what one thread makes from the 4 words at pos: the values of the
// draw's elements t*E .. t*E+E-1 (E = 4 / words per value) ----
// The draws; from GA_RNG_GAMMA on, each is a rejection draw (one word per
// value, attempts from the value's own blocks: see below).
enum {
  GA_RNG_UNIFORM = 0, GA_RNG_NORMAL, GA_RNG_INT, GA_RNG_BITS, GA_RNG_EXPONENTIAL,
  GA_RNG_GAMMA, GA_RNG_POISSON, GA_RNG_BINOMIAL, GA_RNG_HYPERGEOMETRIC, GA_RNG_LOGSERIES, GA_RNG_ZIPF,
  GA_RNG_VONMISES, GA_RNG_NDIST
};

typedef struct ga_rng_args {
  ga_rng_u32 k0, k1, s;     // key and substream
  double p0, p1;            // loc/low and scale/width (float draws); a rejection draw's parameters
  ga_rng_u64 ilow, irange;  // integers: low + [0, range) (range 0: 2^64); hypergeometric: ilow = nsample
  const double *pa, *pb;    // rejection draws: value i's p0 = pa[i], p1 = pb[i] where not NULL
  const double *pc;         // hypergeometric: value i's nsample = pc[i] where not NULL (else ilow)
} ga_rng_args;

// Words per value: 1 for float32 draws, 32-bit integer ranges and bits; 2
// for float64 draws and wider ranges.
GA_RNG_FN int ga_rng_wpv(int dist, int is_double, ga_rng_u64 irange) {
  if (dist >= GA_RNG_GAMMA) return 1;   // value i owns word off + i (its draws are its own)
  if (dist == GA_RNG_INT) return irange == 0 || irange > 0x100000000ull ? 2 : 1;
  if (dist == GA_RNG_BITS) return 1;
  return is_double ? 2 : 1;
}

// A standard normal draw (loc 0, scale 1) skips the fma with loc and scale
// (it would change only the sign of a zero).
GA_RNG_FN int ga_rng_std(int dist, const ga_rng_args *a) {
  return dist == GA_RNG_NORMAL && a->p0 == 0.0 && a->p1 == 1.0;
}

GA_RNG_FN void ga_rng_normf4(ga_rng_w4 w, float v[4]) {
  ga_rng_normf(w.w[0], w.w[1], &v[0], &v[1]);
  ga_rng_normf(w.w[2], w.w[3], &v[2], &v[3]);
}

GA_RNG_FN void ga_rng_floats(int dist, const ga_rng_args *a, ga_rng_w4 w, float v[4]) {
  float p0 = (float)a->p0, p1 = (float)a->p1;
  if (dist == GA_RNG_NORMAL) {
    ga_rng_normf4(w, v);
    if (!ga_rng_std(dist, a))
      for (int j = 0; j < 4; j++) v[j] = GA_RNG_FMAF(p1, v[j], p0);
    return;
  }
  for (int j = 0; j < 4; j++)   // exponential: log(1 - u) = log((2^24 - bits) 2^-24)
    v[j] = dist == GA_RNG_EXPONENTIAL ? GA_RNG_MULF(p1, -ga_rng_log24(0x1000000u - ga_rng_bits24(w.w[j])))
                                      : GA_RNG_FMAF(p1, ga_rng_u01f(w.w[j]), p0);
}

GA_RNG_FN void ga_rng_doubles(int dist, const ga_rng_args *a, ga_rng_w4 w, double v[2]) {
  if (dist == GA_RNG_NORMAL) {
    ga_rng_normd(w, &v[0], &v[1]);
    if (!ga_rng_std(dist, a))
      for (int j = 0; j < 2; j++) v[j] = GA_RNG_FMA(a->p1, v[j], a->p0);
    return;
  }
  for (int j = 0; j < 2; j++) {
    ga_rng_u64 k = ga_rng_bits53(w.w[2 * j], w.w[2 * j + 1]);
    v[j] = dist == GA_RNG_EXPONENTIAL ? GA_RNG_MUL(a->p1, -ga_rng_log53((1ull << 53) - k))
                                      : GA_RNG_FMA(a->p1, (double)k * GA_RNG_2M53, a->p0);
  }
}

// Integers (and bits): E values; pos is the thread's first word.
GA_RNG_FN int ga_rng_ints(int dist, const ga_rng_args *a, ga_rng_u64 pos, ga_rng_w4 w, ga_rng_u64 v[4]) {
  if (dist == GA_RNG_BITS) {
    for (int j = 0; j < 4; j++) v[j] = w.w[j];
    return 4;
  }
  if (ga_rng_wpv(dist, 0, a->irange) == 1) {
    for (int j = 0; j < 4; j++) v[j] = a->ilow + ga_rng_int32(w.w[j], a->irange, pos + j, a->s, a->k0, a->k1);
    return 4;
  }
  for (int j = 0; j < 2; j++)
    v[j] = a->ilow + ga_rng_int64(w.w[2 * j], w.w[2 * j + 1], a->irange, pos + 2 * j, a->s, a->k0, a->k1);
  return 2;
}

// ---- rejection draws: value i owns stream word k = off + i and takes its
// uniforms, in order, from blocks of its own: philox({k, s, TAG | j}) for
// j = 0, 1, ... (TAG = the draw << 24), so it moves no other value.
// Computed in float64 (NumPy's algorithms, or the published one named);
// the host and the GPU agree except when an acceptance test lands within
// an ulp or two of its bound. ----
typedef struct ga_rng_sub {
  const ga_rng_args *a;
  ga_rng_u64 k;
  ga_rng_u32 tag, j;
  int h;                    // the next double of w (2: draw a block)
  ga_rng_w4 w;
} ga_rng_sub;

GA_RNG_FN ga_rng_sub ga_rng_sub_open(const ga_rng_args *a, ga_rng_u64 k, int dist) {
  ga_rng_sub u;
  u.a = a; u.k = k; u.tag = (ga_rng_u32)dist << 24; u.j = 0; u.h = 2;
  u.w.w[0] = u.w.w[1] = u.w.w[2] = u.w.w[3] = 0;
  return u;
}

// the next uniform in [0, 1) (53 bits)
GA_RNG_FN double ga_rng_next(ga_rng_sub *u) {
  if (u->h == 2) {
    u->w = ga_philox(u->k, u->a->s, u->tag | (u->j++ & 0xffffffu), u->a->k0, u->a->k1);
    u->h = 0;
  }
  int h = u->h++;
  return ga_rng_u01d(u->w.w[2 * h], u->w.w[2 * h + 1]);
}

// a standard normal (Box-Muller's cos branch)
GA_RNG_FN double ga_rng_next_normal(ga_rng_sub *u) {
  double u1 = ga_rng_next(u) + GA_RNG_2M53, s, c;
  ga_rng_sincospi(2.0 * ga_rng_next(u), &s, &c);
  return sqrt(-2.0 * ga_rng_log(u1)) * c;
}

// Standard gamma(alpha): Marsaglia and Tsang (2000); alpha < 1 by
// gamma(alpha + 1) * u^(1/alpha).
GA_RNG_FN double ga_rng_gamma(ga_rng_sub *u, double alpha) {
  if (alpha <= 0.0) return 0.0;
  double boost = 1.0, al = alpha < 1.0 ? alpha + 1.0 : alpha;
  if (alpha < 1.0) boost = pow(ga_rng_next(u) + GA_RNG_2M53, 1.0 / alpha);
  double d = al - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x = ga_rng_next_normal(u), v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    double w = ga_rng_next(u);
    if (w < 1.0 - 0.0331 * (x * x) * (x * x)) return d * v * boost;
    if (ga_rng_log(w) < 0.5 * x * x + d * (1.0 - v + ga_rng_log(v))) return d * v * boost;
  }
}

// Poisson(lambda): Knuth's product of uniforms below 10, Hormann's PTRS
// (1993) from 10 on.
GA_RNG_FN double ga_rng_poisson(ga_rng_sub *u, double lam) {
  if (lam <= 0.0) return 0.0;
  if (lam < 10.0) {
    double e = exp(-lam), prod = 1.0, n = 0.0;
    for (;;) {
      prod *= ga_rng_next(u);
      if (prod <= e) return n;
      n += 1.0;
    }
  }
  double slam = sqrt(lam), loglam = ga_rng_log(lam);
  double b = 0.931 + 2.53 * slam, aa = -0.059 + 0.02483 * b, invalpha = 1.1239 + 1.1328 / (b - 3.4);
  double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    double U = ga_rng_next(u) - 0.5, V = ga_rng_next(u);
    double us = 0.5 - fabs(U);
    double kk = floor((2.0 * aa / us + b) * U + lam + 0.43);
    if (us >= 0.07 && V <= vr) return kk;
    if (kk < 0.0 || (us < 0.013 && V > us)) continue;
    if (ga_rng_log(V) + ga_rng_log(invalpha) - ga_rng_log(aa / (us * us) + b) <= -lam + kk * loglam - lgamma(kk + 1.0))
      return kk;
  }
}

// log k! - ((k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2): Stirling's
// tail, exactly (lgamma) below 10
GA_RNG_FN double ga_rng_stirling_tail(double k) {
  if (k < 10.0) return lgamma(k + 1.0) - (k + 0.5) * ga_rng_log(k + 1.0) + (k + 1.0) - 0.91893853320467274178;
  double r = 1.0 / (k + 1.0), r2 = r * r;
  return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260) * r2) * r2) * r;
}

// Binomial(n, p): inversion (NumPy's, with its restart bound) when
// n min(p, 1-p) < 10, else Hormann's BTRS (1993) with its exact
// acceptance test written in ratios (no lgamma cancellation for large n).
GA_RNG_FN double ga_rng_binomial(ga_rng_sub *u, double n, double p) {
  if (n <= 0.0 || p <= 0.0) return 0.0;
  if (p >= 1.0) return n;
  int flip = p > 0.5;
  double pp = flip ? 1.0 - p : p, q = 1.0 - pp, x;
  if (n * pp < 10.0) {
    double qn = exp(n * ga_rng_log(q)), np = n * pp, bound = fmin(n, np + 10.0 * sqrt(np * q + 1.0));
    double px = qn, U = ga_rng_next(u);
    x = 0.0;
    while (U > px) {
      x += 1.0;
      if (x > bound) {
        x = 0.0;
        px = qn;
        U = ga_rng_next(u);
      } else {
        U -= px;
        px = ((n - x + 1.0) * pp * px) / (x * q);
      }
    }
  } else {
    double spq = sqrt(n * pp * q), b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * pp;
    double c = n * pp + 0.5, vr = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, r = pp / q;
    double m = floor((n + 1.0) * pp), nm = n - m + 1.0;
    double h = (m + 0.5) * ga_rng_log((m + 1.0) / (r * nm)) + ga_rng_stirling_tail(m) + ga_rng_stirling_tail(n - m);
    for (;;) {
      double U = ga_rng_next(u) - 0.5, V = ga_rng_next(u), us = 0.5 - fabs(U);
      double k = floor((2.0 * a / us + b) * U + c);
      if (k < 0.0 || k > n) continue;
      if (us >= 0.07 && V <= vr) { x = k; break; }
      V = ga_rng_log(V * alpha / (a / (us * us) + b));
      double nk = n - k + 1.0;
      if (V <= h + (n + 1.0) * ga_rng_log(nm / nk) + (k + 0.5) * ga_rng_log(nk * r / (k + 1.0)) -
                   ga_rng_stirling_tail(k) - ga_rng_stirling_tail(n - k)) { x = k; break; }
    }
  }
  return flip ? n - x : x;
}

// Hypergeometric(good, bad, sample): NumPy's legacy pair, the urn walk
// (HYP) for samples up to 10 and ratio of uniforms (HRUA, Stadlober) above.
GA_RNG_FN double ga_rng_hypergeometric(ga_rng_sub *u, double good, double bad, double sample) {
  if (sample <= 0.0 || good <= 0.0) return 0.0;
  if (bad <= 0.0) return sample;
  double z;
  if (sample <= 10.0) {
    double d1 = bad + good - sample, d2 = fmin(bad, good), y = d2, k = sample;
    while (y > 0.0) {
      y -= floor(ga_rng_next(u) + y / (d1 + k));
      k -= 1.0;
      if (k == 0.0) break;
    }
    z = d2 - y;
    if (good > bad) z = sample - z;
    return z;
  }
  const double D1 = 1.7155277699214135, D2 = 0.8989161620588988;
  double mingb = fmin(good, bad), pop = good + bad, maxgb = fmax(good, bad), m = fmin(sample, pop - sample);
  double d4 = mingb / pop, d5 = 1.0 - d4, d6 = m * d4 + 0.5;
  double d7 = sqrt((pop - m) * sample * d4 * d5 / (pop - 1.0) + 0.5), d8 = D1 * d7 + D2;
  double d9 = floor((m + 1.0) * (mingb + 1.0) / (pop + 2.0));
  double d10 = lgamma(d9 + 1.0) + lgamma(mingb - d9 + 1.0) + lgamma(m - d9 + 1.0) + lgamma(maxgb - m + d9 + 1.0);
  double d11 = fmin(fmin(m, mingb) + 1.0, floor(d6 + 16.0 * d7));
  for (;;) {
    double X = ga_rng_next(u), Y = ga_rng_next(u), W = d6 + d8 * (Y - 0.5) / X;
    if (W < 0.0 || W >= d11) continue;
    z = floor(W);
    double T = d10 - (lgamma(z + 1.0) + lgamma(mingb - z + 1.0) + lgamma(m - z + 1.0) + lgamma(maxgb - m + z + 1.0));
    if (X * (4.0 - X) - 3.0 <= T) break;
    if (X * (X - T) >= 1.0) continue;
    if (X > 0.0 && 2.0 * ga_rng_log(X) <= T) break;
  }
  if (good > bad) z = m - z;
  if (m < sample) z = good - z;
  return z;
}

// Logarithmic series(p): Kemp's second method (NumPy's)
GA_RNG_FN double ga_rng_logseries(ga_rng_sub *u, double p) {
  if (p <= 0.0) return 1.0;
  double r = log1p(-p);
  for (;;) {
    double V = ga_rng_next(u);
    if (V >= p) return 1.0;
    double q = -expm1(r * ga_rng_next(u));
    if (V <= q * q) {
      double x = floor(1.0 + ga_rng_log(V) / ga_rng_log(q));
      if (x < 1.0 || V == 0.0) continue;
      return x;
    }
    return V >= q ? 1.0 : 2.0;
  }
}

// Zipf(a), a > 1: Devroye's rejection (NumPy's), values beyond int64 redrawn
GA_RNG_FN double ga_rng_zipf(ga_rng_sub *u, double a) {
  if (a >= 1025.0) return 1.0;
  double am1 = a - 1.0, b = pow(2.0, am1);
  for (;;) {
    double U = 1.0 - ga_rng_next(u), V = ga_rng_next(u), X = floor(pow(U, -1.0 / am1));
    if (X > 9.2233720368547748e18 || X < 1.0) continue;
    double T = pow(1.0 + 1.0 / X, am1);
    if (V * X * (T - 1.0) / (b - 1.0) <= T / b) return X;
  }
}

// von Mises(mu, kappa) on [-pi, pi]: Best and Fisher (1979) as NumPy 1.21+
// (a uniform angle below kappa 1e-8, a wrapped normal above 1e6)
GA_RNG_FN double ga_rng_vonmises(ga_rng_sub *u, double kappa, double mu) {
  const double PI = 3.14159265358979323846;
  if (kappa < 1e-8) return PI * (2.0 * ga_rng_next(u) - 1.0);
  double s, W;
  if (kappa > 1e6) {
    double x = mu + sqrt(1.0 / kappa) * ga_rng_next_normal(u);
    if (x < -PI) x += 2.0 * PI;
    if (x > PI) x -= 2.0 * PI;
    return x;
  }
  if (kappa < 1e-5) s = 1.0 / kappa + kappa;
  else {
    double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa), rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
    s = (1.0 + rho * rho) / (2.0 * rho);
  }
  for (;;) {
    double sn, Z;
    ga_rng_sincospi(ga_rng_next(u), &sn, &Z);
    W = (1.0 + s * Z) / (s + Z);
    double Y = kappa * (s - W), V = ga_rng_next(u);
    if (Y * (2.0 - Y) - V >= 0.0 || (V > 0.0 && ga_rng_log(Y / V) + 1.0 - Y >= 0.0)) break;
  }
  double x = acos(W);
  if (ga_rng_next(u) < 0.5) x = -x;
  x += mu;
  int neg = x < 0.0;
  double mod = fmod(fabs(x) + PI, 2.0 * PI) - PI;
  return neg ? -mod : mod;
}

// value i of a rejection draw, from stream word k
GA_RNG_FN double ga_rng_reject(int dist, const ga_rng_args *a, ga_rng_u64 k, ga_rng_u64 i) {
  double p0 = a->pa ? a->pa[i] : a->p0, p1 = a->pb ? a->pb[i] : a->p1;
  ga_rng_sub u = ga_rng_sub_open(a, k, dist);
  switch (dist) {
  case GA_RNG_GAMMA: return ga_rng_gamma(&u, p0);
  case GA_RNG_POISSON: return ga_rng_poisson(&u, p0);
  case GA_RNG_BINOMIAL: return ga_rng_binomial(&u, p0, p1);
  case GA_RNG_HYPERGEOMETRIC: return ga_rng_hypergeometric(&u, p0, p1, a->pc ? a->pc[i] : (double)a->ilow);
  case GA_RNG_LOGSERIES: return ga_rng_logseries(&u, p0);
  case GA_RNG_ZIPF: return ga_rng_zipf(&u, p0);
  default: return ga_rng_vonmises(&u, p0, p1);
  }
}
