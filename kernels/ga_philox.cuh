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

// Words pos .. pos+3 of substream s.
GA_RNG_FN ga_rng_w4 ga_rng_words(ga_rng_u64 pos, ga_rng_u32 s, ga_rng_u32 k0, ga_rng_u32 k1) {
  ga_rng_w4 a = ga_philox(pos >> 2, s, 0, k0, k1);
  unsigned sh = (unsigned)(pos & 3);
  if (!sh) return a;
  ga_rng_w4 b = ga_philox((pos >> 2) + 1, s, 0, k0, k1), o;
  for (unsigned j = 0; j < 4; j++) o.w[j] = j + sh < 4 ? a.w[j + sh] : b.w[j + sh - 4];
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

// ---- the transcendental functions: CUDA's on the GPU; on the host the
// float ones are computed in double and rounded once (so the two differ by
// CUDA's 1 ulp per function; 3 ulp measured on a normal), sin/cos of
// pi*x reduced exactly first ----
#ifdef __CUDACC__
GA_RNG_FN float ga_rng_logf(float x) { return logf(x); }
GA_RNG_FN double ga_rng_log(double x) { return log(x); }
GA_RNG_FN void ga_rng_sincospif(float x, float *s, float *c) { sincospif(x, s, c); }
GA_RNG_FN void ga_rng_sincospi(double x, double *s, double *c) { sincospi(x, s, c); }
#else
GA_RNG_FN float ga_rng_logf(float x) { return (float)log((double)x); }
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
GA_RNG_FN void ga_rng_sincospif(float x, float *s, float *c) {
  double sd, cd;
  ga_rng_sincospi((double)x, &sd, &cd);
  *s = (float)sd;
  *c = (float)cd;
}
#endif

// ---- standard normals by Box-Muller (float64): (u1 in (0, 1], u2 in [0, 1))
// -> r cos(2 pi u2), r sin(2 pi u2), r = sqrt(-2 log u1) ----
GA_RNG_FN void ga_rng_normd(ga_rng_w4 w, double *a, double *b) {
  double u1 = (double)(ga_rng_bits53(w.w[0], w.w[1]) + 1) * GA_RNG_2M53;
  double u2 = ga_rng_u01d(w.w[2], w.w[3]);
  double r = sqrt(-2.0 * ga_rng_log(u1)), s, c;
  ga_rng_sincospi(2.0 * u2, &s, &c);
  *a = r * c;
  *b = r * s;
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
} ga_rng_args;

// ---- float32 standard normals by the ziggurat (Marsaglia and Tsang,
// 2000; 256 layers, tables from tools/gen_ziggurat.py, which says how a
// word maps to a value): one word per value.  98.5% of values pass the fast
// test -- one multiply, the same bits on the host and the GPU; the others
// (the wedges and the tail) take their uniforms from blocks of their own,
// philox({k, s, NORMAL << 24 | j}) for value word k, attempt j. ----
// GA_RNG_ZIG begin: written by tools/gen_ziggurat.py (256 layers, r = 3.654152885361009, v = 0.00492867323399)
#define GA_RNG_ZIG_K \
  0x7799ecu, 0x000000u, 0x6045f4u, 0x6d1aa7u, 0x728fb3u, 0x7592afu, 0x777a5cu, 0x78ca38u, \
  0x79bf6bu, 0x7a7a34u, 0x7b0d2fu, 0x7b83d3u, 0x7be597u, 0x7c3788u, 0x7c7d32u, 0x7cb926u, \
  0x7ced48u, 0x7d1b07u, 0x7d437eu, 0x7d678bu, 0x7d87dbu, 0x7da4fcu, 0x7dbf61u, 0x7dd767u, \
  0x7ded5cu, 0x7e0183u, 0x7e1410u, 0x7e2533u, 0x7e3514u, 0x7e43d5u, 0x7e5192u, 0x7e5e67u, \
  0x7e6a68u, 0x7e75aau, 0x7e803du, 0x7e8a32u, 0x7e9395u, 0x7e9c72u, 0x7ea4d4u, 0x7eacc5u, \
  0x7eb44eu, 0x7ebb75u, 0x7ec242u, 0x7ec8bcu, 0x7ecee8u, 0x7ed4cbu, 0x7eda6au, 0x7edfcau, \
  0x7ee4efu, 0x7ee9dcu, 0x7eee94u, 0x7ef31bu, 0x7ef773u, 0x7efba0u, 0x7effa3u, 0x7f037fu, \
  0x7f0736u, 0x7f0ac9u, 0x7f0e3cu, 0x7f118fu, 0x7f14c4u, 0x7f17dcu, 0x7f1ad9u, 0x7f1dbcu, \
  0x7f2087u, 0x7f233au, 0x7f25d6u, 0x7f285du, 0x7f2acfu, 0x7f2d2eu, 0x7f2f79u, 0x7f31b3u, \
  0x7f33dbu, 0x7f35f3u, 0x7f37fau, 0x7f39f2u, 0x7f3bdcu, 0x7f3db7u, 0x7f3f84u, 0x7f4144u, \
  0x7f42f7u, 0x7f449eu, 0x7f463au, 0x7f47c9u, 0x7f494eu, 0x7f4ac8u, 0x7f4c37u, 0x7f4d9du, \
  0x7f4ef9u, 0x7f504bu, 0x7f5194u, 0x7f52d5u, 0x7f540du, 0x7f553cu, 0x7f5664u, 0x7f5783u, \
  0x7f589bu, 0x7f59acu, 0x7f5ab5u, 0x7f5bb7u, 0x7f5cb2u, 0x7f5da7u, 0x7f5e95u, 0x7f5f7du, \
  0x7f605fu, 0x7f613au, 0x7f6210u, 0x7f62dfu, 0x7f63aau, 0x7f646eu, 0x7f652du, 0x7f65e7u, \
  0x7f669cu, 0x7f674bu, 0x7f67f6u, 0x7f689bu, 0x7f693cu, 0x7f69d8u, 0x7f6a6fu, 0x7f6b02u, \
  0x7f6b90u, 0x7f6c1au, 0x7f6ca0u, 0x7f6d21u, 0x7f6d9eu, 0x7f6e16u, 0x7f6e8bu, 0x7f6efcu, \
  0x7f6f68u, 0x7f6fd0u, 0x7f7035u, 0x7f7096u, 0x7f70f2u, 0x7f714bu, 0x7f71a0u, 0x7f71f1u, \
  0x7f723fu, 0x7f7289u, 0x7f72cfu, 0x7f7311u, 0x7f7350u, 0x7f738bu, 0x7f73c2u, 0x7f73f6u, \
  0x7f7426u, 0x7f7453u, 0x7f747bu, 0x7f74a1u, 0x7f74c2u, 0x7f74e0u, 0x7f74fau, 0x7f7511u, \
  0x7f7524u, 0x7f7533u, 0x7f753eu, 0x7f7546u, 0x7f754au, 0x7f754au, 0x7f7546u, 0x7f753fu, \
  0x7f7533u, 0x7f7524u, 0x7f7510u, 0x7f74f9u, 0x7f74ddu, 0x7f74beu, 0x7f749au, 0x7f7472u, \
  0x7f7445u, 0x7f7414u, 0x7f73deu, 0x7f73a4u, 0x7f7366u, 0x7f7322u, 0x7f72dau, 0x7f728cu, \
  0x7f723au, 0x7f71e2u, 0x7f7185u, 0x7f7123u, 0x7f70bau, 0x7f704du, 0x7f6fd9u, 0x7f6f5fu, \
  0x7f6edfu, 0x7f6e58u, 0x7f6dcbu, 0x7f6d36u, 0x7f6c9bu, 0x7f6bf8u, 0x7f6b4eu, 0x7f6a9cu, \
  0x7f69e2u, 0x7f691fu, 0x7f6853u, 0x7f677eu, 0x7f66a0u, 0x7f65b8u, 0x7f64c5u, 0x7f63c8u, \
  0x7f62bfu, 0x7f61abu, 0x7f608au, 0x7f5f5cu, 0x7f5e21u, 0x7f5cd7u, 0x7f5b7fu, 0x7f5a16u, \
  0x7f589du, 0x7f5712u, 0x7f5575u, 0x7f53c4u, 0x7f51feu, 0x7f5022u, 0x7f4e2eu, 0x7f4c21u, \
  0x7f49fau, 0x7f47b5u, 0x7f4552u, 0x7f42cfu, 0x7f4027u, 0x7f3d5au, 0x7f3a63u, 0x7f3740u, \
  0x7f33edu, 0x7f3064u, 0x7f2ca3u, 0x7f28a3u, 0x7f245eu, 0x7f1fcdu, 0x7f1ae9u, 0x7f15a8u, \
  0x7f1000u, 0x7f09e4u, 0x7f0346u, 0x7efc15u, 0x7ef43eu, 0x7eeba8u, 0x7ee237u, 0x7ed7c7u, \
  0x7ecc2fu, 0x7ebf37u, 0x7eb09du, 0x7ea00au, 0x7e8d0du, 0x7e7710u, 0x7e5d46u, 0x7e3e93u, \
  0x7e1959u, 0x7deb2cu, 0x7db036u, 0x7d6202u, 0x7cf4b8u, 0x7c4fd2u, 0x7b362fu, 0x78d2d2u
#define GA_RNG_ZIG_W \
  0x34fa49dcu, 0x32dc685fu, 0x3312857au, 0x332be5cau, 0x33400fe7u, 0x33511861u, 0x33600269u, 0x336d617bu, \
  0x33799241u, 0x33826991u, 0x3387a82au, 0x338c9535u, 0x33913d14u, 0x3395a972u, 0x3399e1feu, 0x339decf6u, \
  0x33a1cf7cu, 0x33a58ddau, 0x33a92babu, 0x33acac05u, 0x33b0118eu, 0x33b35e93u, 0x33b69515u, 0x33b9b6d7u, \
  0x33bcc569u, 0x33bfc22du, 0x33c2ae63u, 0x33c58b25u, 0x33c85975u, 0x33cb1a3cu, 0x33cdce4cu, 0x33d07667u, \
  0x33d3133bu, 0x33d5a56bu, 0x33d82d8bu, 0x33daac24u, 0x33dd21b4u, 0x33df8eb1u, 0x33e1f388u, 0x33e4509du, \
  0x33e6a650u, 0x33e8f4f8u, 0x33eb3ce9u, 0x33ed7e70u, 0x33efb9d5u, 0x33f1ef5eu, 0x33f41f4au, 0x33f649d6u, \
  0x33f86f3cu, 0x33fa8fb3u, 0x33fcab6du, 0x33fec29cu, 0x34006ab7u, 0x34017208u, 0x34027755u, 0x34037ab3u, \
  0x34047c35u, 0x34057becu, 0x340679ebu, 0x34077642u, 0x34087102u, 0x34096a38u, 0x340a61f5u, 0x340b5846u, \
  0x340c4d39u, 0x340d40dbu, 0x340e3338u, 0x340f245du, 0x34101455u, 0x3411032cu, 0x3411f0ecu, 0x3412dda0u, \
  0x3413c953u, 0x3414b40eu, 0x34159ddbu, 0x341686c3u, 0x34176ecfu, 0x34185608u, 0x34193c77u, 0x341a2224u, \
  0x341b0716u, 0x341beb56u, 0x341cceebu, 0x341db1deu, 0x341e9435u, 0x341f75f7u, 0x3420572cu, 0x342137d9u, \
  0x34221807u, 0x3422f7bcu, 0x3423d6fdu, 0x3424b5d2u, 0x34259440u, 0x3426724du, 0x34275001u, 0x34282d5fu, \
  0x34290a70u, 0x3429e737u, 0x342ac3bau, 0x342ba000u, 0x342c7c0eu, 0x342d57e9u, 0x342e3397u, 0x342f0f1cu, \
  0x342fea7eu, 0x3430c5c3u, 0x3431a0efu, 0x34327c08u, 0x34335713u, 0x34343214u, 0x34350d11u, 0x3435e80fu, \
  0x3436c313u, 0x34379e22u, 0x34387940u, 0x34395473u, 0x343a2fbfu, 0x343b0b2au, 0x343be6b8u, 0x343cc26eu, \
  0x343d9e52u, 0x343e7a68u, 0x343f56b4u, 0x3440333du, 0x34411007u, 0x3441ed16u, 0x3442ca71u, 0x3443a81bu, \
  0x3444861bu, 0x34456475u, 0x3446432du, 0x3447224bu, 0x344801d1u, 0x3448e1c7u, 0x3449c231u, 0x344aa314u, \
  0x344b8476u, 0x344c665cu, 0x344d48cdu, 0x344e2bccu, 0x344f0f61u, 0x344ff391u, 0x3450d862u, 0x3451bdd9u, \
  0x3452a3fdu, 0x34538ad4u, 0x34547263u, 0x34555ab2u, 0x345643c6u, 0x34572da7u, 0x3458185au, 0x345903e8u, \
  0x3459f055u, 0x345addaau, 0x345bcbeeu, 0x345cbb28u, 0x345dab5fu, 0x345e9c9bu, 0x345f8ee5u, 0x34608243u, \
  0x346176bfu, 0x34626c61u, 0x34636330u, 0x34645b37u, 0x3465547eu, 0x34664f0eu, 0x34674af2u, 0x34684832u, \
  0x346946d9u, 0x346a46f1u, 0x346b4885u, 0x346c4ba0u, 0x346d504du, 0x346e5698u, 0x346f5e8du, 0x34706838u, \
  0x347173a6u, 0x347280e5u, 0x34739001u, 0x3474a10au, 0x3475b40eu, 0x3476c91cu, 0x3477e043u, 0x3478f994u, \
  0x347a1520u, 0x347b32f9u, 0x347c5330u, 0x347d75d9u, 0x347e9b07u, 0x347fc2ceu, 0x348076a2u, 0x34810d40u, \
  0x3481a54cu, 0x34823ed2u, 0x3482d9e0u, 0x34837681u, 0x348414c4u, 0x3484b4b8u, 0x3485566cu, 0x3485f9efu, \
  0x34869f52u, 0x348746a6u, 0x3487efffu, 0x34889b70u, 0x3489490du, 0x3489f8ebu, 0x348aab22u, 0x348b5fcau, \
  0x348c16fcu, 0x348cd0d3u, 0x348d8d6cu, 0x348e4ce5u, 0x348f0f60u, 0x348fd4feu, 0x34909de5u, 0x34916a3cu, \
  0x34923a2du, 0x34930de6u, 0x3493e598u, 0x3494c176u, 0x3495a1bbu, 0x349686a2u, 0x3497706eu, 0x34985f67u, \
  0x349953dbu, 0x349a4e20u, 0x349b4e94u, 0x349c559du, 0x349d63acu, 0x349e793eu, 0x349f96ddu, 0x34a0bd25u, \
  0x34a1ecc1u, 0x34a32672u, 0x34a46b14u, 0x34a5bb9du, 0x34a71928u, 0x34a884fbu, 0x34aa008bu, 0x34ab8d8du, \
  0x34ad2e04u, 0x34aee451u, 0x34b0b34eu, 0x34b29e74u, 0x34b4aa06u, 0x34b6db5cu, 0x34b93948u, 0x34bbccabu, \
  0x34bea170u, 0x34c1c818u, 0x34c5587eu, 0x34c97705u, 0x34ce5f70u, 0x34d47ee4u, 0x34dcc0fau, 0x34e9dda4u
#define GA_RNG_ZIG_F \
  0x3f800000u, 0x3f7a2356u, 0x3f75baa3u, 0x3f71f88fu, 0x3f6e9b7du, 0x3f6b8490u, 0x3f68a24cu, 0x3f65e99du, \
  0x3f6352f6u, 0x3f60d8e7u, 0x3f5e775au, 0x3f5c2b2au, 0x3f59f1d4u, 0x3f57c952u, 0x3f55aff8u, 0x3f53a45fu, \
  0x3f51a558u, 0x3f4fb1dfu, 0x3f4dc914u, 0x3f4bea33u, 0x3f4a148eu, 0x3f48478eu, 0x3f4682aau, 0x3f44c56au, \
  0x3f430f60u, 0x3f416028u, 0x3f3fb76au, 0x3f3e14d4u, 0x3f3c781au, 0x3f3ae0f8u, 0x3f394f30u, 0x3f37c286u, \
  0x3f363ac5u, 0x3f34b7bbu, 0x3f333939u, 0x3f31bf15u, 0x3f304925u, 0x3f2ed743u, 0x3f2d694du, 0x3f2bff21u, \
  0x3f2a98a0u, 0x3f2935abu, 0x3f27d627u, 0x3f2679fau, 0x3f25210cu, 0x3f23cb43u, 0x3f22788au, 0x3f2128ccu, \
  0x3f1fdbf5u, 0x3f1e91f1u, 0x3f1d4aadu, 0x3f1c0619u, 0x3f1ac424u, 0x3f1984beu, 0x3f1847d8u, 0x3f170d63u, \
  0x3f15d551u, 0x3f149f94u, 0x3f136c21u, 0x3f123aebu, 0x3f110be5u, 0x3f0fdf05u, 0x3f0eb440u, 0x3f0d8b8bu, \
  0x3f0c64dcu, 0x3f0b4029u, 0x3f0a1d69u, 0x3f08fc92u, 0x3f07dd9du, 0x3f06c081u, 0x3f05a534u, 0x3f048bb1u, \
  0x3f0373eeu, 0x3f025de5u, 0x3f01498fu, 0x3f0036e4u, 0x3efe4bbcu, 0x3efc2cedu, 0x3efa114eu, 0x3ef7f8d4u, \
  0x3ef5e371u, 0x3ef3d11bu, 0x3ef1c1c7u, 0x3eefb56au, 0x3eedabfau, 0x3eeba56bu, 0x3ee9a1b5u, 0x3ee7a0ceu, \
  0x3ee5a2acu, 0x3ee3a746u, 0x3ee1ae93u, 0x3edfb88cu, 0x3eddc527u, 0x3edbd45cu, 0x3ed9e623u, 0x3ed7fa75u, \
  0x3ed6114au, 0x3ed42a9au, 0x3ed2465fu, 0x3ed06492u, 0x3ece852bu, 0x3ecca824u, 0x3ecacd77u, 0x3ec8f51du, \
  0x3ec71f10u, 0x3ec54b4au, 0x3ec379c5u, 0x3ec1aa7cu, 0x3ebfdd69u, 0x3ebe1285u, 0x3ebc49cdu, 0x3eba833bu, \
  0x3eb8becau, 0x3eb6fc74u, 0x3eb53c35u, 0x3eb37e09u, 0x3eb1c1eau, 0x3eb007d4u, 0x3eae4fc2u, 0x3eac99b1u, \
  0x3eaae59cu, 0x3ea9337eu, 0x3ea78354u, 0x3ea5d51bu, 0x3ea428cdu, 0x3ea27e67u, 0x3ea0d5e7u, 0x3e9f2f47u, \
  0x3e9d8a84u, 0x3e9be79bu, 0x3e9a4689u, 0x3e98a74au, 0x3e9709dcu, 0x3e956e3au, 0x3e93d462u, 0x3e923c51u, \
  0x3e90a604u, 0x3e8f1178u, 0x3e8d7eaau, 0x3e8bed97u, 0x3e8a5e3eu, 0x3e88d09au, 0x3e8744abu, 0x3e85ba6cu, \
  0x3e8431dcu, 0x3e82aaf9u, 0x3e8125c0u, 0x3e7f445cu, 0x3e7c4084u, 0x3e793ff3u, 0x3e7642a5u, 0x3e734896u, \
  0x3e7051c1u, 0x3e6d5e23u, 0x3e6a6db8u, 0x3e67807cu, 0x3e64966du, 0x3e61af86u, 0x3e5ecbc4u, 0x3e5beb24u, \
  0x3e590da3u, 0x3e56333du, 0x3e535bf0u, 0x3e5087bau, 0x3e4db696u, 0x3e4ae883u, 0x3e481d7eu, 0x3e455585u, \
  0x3e429094u, 0x3e3fceabu, 0x3e3d0fc7u, 0x3e3a53e5u, 0x3e379b04u, 0x3e34e522u, 0x3e32323du, 0x3e2f8254u, \
  0x3e2cd564u, 0x3e2a2b6du, 0x3e27846du, 0x3e24e063u, 0x3e223f4eu, 0x3e1fa12cu, 0x3e1d05fdu, 0x3e1a6dc0u, \
  0x3e17d874u, 0x3e154619u, 0x3e12b6adu, 0x3e102a31u, 0x3e0da0a5u, 0x3e0b1a07u, 0x3e089659u, 0x3e06159au, \
  0x3e0397cau, 0x3e011cebu, 0x3dfd49f6u, 0x3df85ff9u, 0x3df37be0u, 0x3dee9dabu, 0x3de9c55eu, 0x3de4f2fau, \
  0x3de02683u, 0x3ddb5ffcu, 0x3dd69f67u, 0x3dd1e4cau, 0x3dcd3027u, 0x3dc88184u, 0x3dc3d8e5u, 0x3dbf3650u, \
  0x3dba99cbu, 0x3db6035cu, 0x3db17309u, 0x3dace8dbu, 0x3da864d8u, 0x3da3e70au, 0x3d9f6f79u, 0x3d9afe2fu, \
  0x3d969336u, 0x3d922e9au, 0x3d8dd066u, 0x3d8978a7u, 0x3d852769u, 0x3d80dcbdu, 0x3d793161u, 0x3d70b6aau, \
  0x3d684978u, 0x3d5fe9f0u, 0x3d57983du, 0x3d4f5488u, 0x3d471f01u, 0x3d3ef7dcu, 0x3d36df4eu, 0x3d2ed592u, \
  0x3d26dae8u, 0x3d1eef96u, 0x3d1713e7u, 0x3d0f482du, 0x3d078cc1u, 0x3cffc40fu, 0x3cf090d7u, 0x3ce180ccu, \
  0x3cd294fau, 0x3cc3ce8eu, 0x3cb52ed8u, 0x3ca6b758u, 0x3c9869c4u, 0x3c8a481au, 0x3c78a952u, 0x3c5d2469u, \
  0x3c420820u, 0x3c275cb2u, 0x3c0d2c91u, 0x3be70b08u, 0x3bb4f547u, 0x3b8450f8u, 0x3b2afcfau, 0x3aa5302eu
// GA_RNG_ZIG end
#ifdef __CUDACC__
#define GA_RNG_TABLE static __device__ const
GA_RNG_FN float ga_rng_asf(ga_rng_u32 u) { return __uint_as_float(u); }
GA_RNG_FN float ga_rng_expf(float x) { return expf(x); }
#else
#define GA_RNG_TABLE static const
GA_RNG_FN float ga_rng_asf(ga_rng_u32 u) { union { ga_rng_u32 u; float f; } c; c.u = u; return c.f; }
GA_RNG_FN float ga_rng_expf(float x) { return (float)exp((double)x); }
#endif
GA_RNG_TABLE ga_rng_u32 ga_rng_zig_k[256] = {GA_RNG_ZIG_K};
GA_RNG_TABLE ga_rng_u32 ga_rng_zig_w[256] = {GA_RNG_ZIG_W};   // float32 bits
GA_RNG_TABLE ga_rng_u32 ga_rng_zig_f[256] = {GA_RNG_ZIG_F};   // float32 bits

// the fast test of word w against its layer's (k, w): 1 and *x when the
// value lies in the layer's rectangle
GA_RNG_FN int ga_rng_zig_fast(ga_rng_u32 w, ga_rng_u32 k, float wi, float *x) {
  ga_rng_u32 m = w >> 9;
  float v = (float)m * wi;
  *x = (w & 0x100u) ? -v : v;
  return m < k;
}

// the value of word w (stream word k) that failed the fast test
GA_RNG_FN float ga_rng_zig_slow(ga_rng_u32 w, ga_rng_u64 k, const ga_rng_args *a) {
  const float R = 3.6541528853610088f;
  for (ga_rng_u32 j = 0;; j++) {
    int i = (int)(w & 255u);
    float x;
    if (ga_rng_zig_fast(w, ga_rng_zig_k[i], ga_rng_asf(ga_rng_zig_w[i]), &x)) return x;
    ga_rng_w4 b = ga_philox(k, a->s, ((ga_rng_u32)GA_RNG_NORMAL << 24) | (j & 0xffffffu), a->k0, a->k1);
    if (i == 0) {   // the tail beyond R: Marsaglia's exponential method, until it accepts
      for (;;) {
        float xx = -ga_rng_logf((float)(ga_rng_bits24(b.w[0]) + 1) * GA_RNG_2M24) / R;
        float yy = -ga_rng_logf((float)(ga_rng_bits24(b.w[1]) + 1) * GA_RNG_2M24);
        if (yy + yy > xx * xx) return (w & 0x100u) ? -(R + xx) : R + xx;
        j++;
        b = ga_philox(k, a->s, ((ga_rng_u32)GA_RNG_NORMAL << 24) | (j & 0xffffffu), a->k0, a->k1);
      }
    }
    // the wedge: under the curve?  Else a new word, from the top.
    float fi = ga_rng_asf(ga_rng_zig_f[i]), fo = ga_rng_asf(ga_rng_zig_f[i - 1]);
    if (fi + ga_rng_u01f(b.w[0]) * (fo - fi) < ga_rng_expf(-0.5f * x * x)) return x;
    w = b.w[2];
  }
}

GA_RNG_FN float ga_rng_zig(ga_rng_u32 w, ga_rng_u64 k, const ga_rng_args *a) {
  int i = (int)(w & 255u);
  float x;
  if (ga_rng_zig_fast(w, ga_rng_zig_k[i], ga_rng_asf(ga_rng_zig_w[i]), &x)) return x;
  return ga_rng_zig_slow(w, k, a);
}

// Words per value: 1 for float32 draws, 32-bit integer ranges and bits; 2
// for float64 draws and wider ranges.
GA_RNG_FN int ga_rng_wpv(int dist, int is_double, ga_rng_u64 irange) {
  if (dist >= GA_RNG_GAMMA) return 1;   // value i owns word off + i (its draws are its own)
  if (dist == GA_RNG_INT) return irange == 0 || irange > 0x100000000ull ? 2 : 1;
  if (dist == GA_RNG_BITS) return 1;
  return is_double ? 2 : 1;
}

// Float32 draws: the 4 values of words pos .. pos+3 (w).
GA_RNG_FN void ga_rng_floats(int dist, const ga_rng_args *a, ga_rng_u64 pos, ga_rng_w4 w, float v[4]) {
  float p0 = (float)a->p0, p1 = (float)a->p1;
  if (dist == GA_RNG_NORMAL) {
    for (int j = 0; j < 4; j++) v[j] = p0 + p1 * ga_rng_zig(w.w[j], pos + (ga_rng_u64)j, a);
    return;
  }
  for (int j = 0; j < 4; j++) {
    float u = ga_rng_u01f(w.w[j]);
    v[j] = dist == GA_RNG_EXPONENTIAL ? p1 * -ga_rng_logf(1.0f - u) : p0 + p1 * u;
  }
}

GA_RNG_FN void ga_rng_doubles(int dist, const ga_rng_args *a, ga_rng_w4 w, double v[2]) {
  if (dist == GA_RNG_NORMAL) {
    ga_rng_normd(w, &v[0], &v[1]);
    for (int j = 0; j < 2; j++) v[j] = a->p0 + a->p1 * v[j];
    return;
  }
  for (int j = 0; j < 2; j++) {
    double u = ga_rng_u01d(w.w[2 * j], w.w[2 * j + 1]);
    v[j] = dist == GA_RNG_EXPONENTIAL ? a->p1 * -ga_rng_log(1.0 - u) : a->p0 + a->p1 * u;
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
  case GA_RNG_HYPERGEOMETRIC: return ga_rng_hypergeometric(&u, p0, p1, (double)a->ilow);
  case GA_RNG_LOGSERIES: return ga_rng_logseries(&u, p0);
  case GA_RNG_ZIPF: return ga_rng_zipf(&u, p0);
  default: return ga_rng_vonmises(&u, p0, p1);
  }
}
