// Types every generated kernel uses.  Deliberately include-free: NVRTC then
// parses only this, which keeps a cold compile in the tens of milliseconds.

// float16 kept as bits; arithmetic goes through float (as NumPy does) and
// rounds once on store.  cvt makes every NaN the positive canonical one;
// NumPy (and the host) keep a NaN's sign and top payload bits, so NaNs take
// the bit path (signbit(-nan) must be true on both backends).
struct ga_half {
  unsigned short x;
  __device__ ga_half() {}
  __device__ ga_half(float f) {
#ifdef GA_HOST_CXX   // the host's compiled ElementwiseKernel (src/host/ga_host_ewk.c)
    x = ga_host_f2h(f);
#else
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(x) : "f"(f));
#endif
    if (f != f) {
      unsigned u = __float_as_uint(f);
      x = (unsigned short)(((u >> 16) & 0x8000u) | 0x7e00u | ((u >> 13) & 0x3ffu));
    }
  }
  __device__ operator float() const {
    float f;
#ifdef GA_HOST_CXX
    f = ga_host_h2f(x);
#else
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x));
#endif
    if ((x & 0x7fffu) > 0x7c00u)
      f = __uint_as_float(((unsigned)(x & 0x8000u) << 16) | 0x7fc00000u | ((unsigned)(x & 0x3ffu) << 13));
    return f;
  }
};

template <typename T> struct ga_complex {
  T re, im;
  __device__ ga_complex() {}
  __device__ ga_complex(T r, T i = T(0)) : re(r), im(i) {}
  template <typename U> __device__ explicit ga_complex(const ga_complex<U> &o) : re((T)o.re), im((T)o.im) {}
};
typedef ga_complex<float> ga_complex64;
typedef ga_complex<double> ga_complex128;

template <typename T> __device__ ga_complex<T> operator+(ga_complex<T> a, ga_complex<T> b) { return ga_complex<T>(a.re + b.re, a.im + b.im); }
template <typename T> __device__ ga_complex<T> operator-(ga_complex<T> a, ga_complex<T> b) { return ga_complex<T>(a.re - b.re, a.im - b.im); }
template <typename T> __device__ ga_complex<T> operator-(ga_complex<T> a) { return ga_complex<T>(-a.re, -a.im); }
template <typename T> __device__ ga_complex<T> operator*(ga_complex<T> a, ga_complex<T> b) {
  return ga_complex<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
// Smith's algorithm: no overflow for large |b| (NumPy does the same).
template <typename T> __device__ ga_complex<T> operator/(ga_complex<T> a, ga_complex<T> b) {
  T ar = b.re < 0 ? -b.re : b.re, ai = b.im < 0 ? -b.im : b.im;
  if (ar >= ai) {
    if (ar == 0 && ai == 0) return ga_complex<T>(a.re / ar, a.im / ai);
    T r = b.im / b.re, d = b.re + b.im * r;
    return ga_complex<T>((a.re + a.im * r) / d, (a.im - a.re * r) / d);
  }
  T r = b.re / b.im, d = b.re * r + b.im;
  return ga_complex<T>((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}

// ga_cast<To>(v): NumPy's casting results between every pair of dtypes.
template <typename To, typename From> struct ga_caster {
  static __device__ To f(const From &v) { return (To)v; }
};
template <typename From> struct ga_caster<ga_half, From> {
  static __device__ ga_half f(const From &v) { return ga_half((float)v); }
};
template <> struct ga_caster<ga_half, double> {   // round once, from double
  static __device__ ga_half f(const double &v) {
    ga_half h;
    if (v != v) {   // the NaN bit path, as in ga_half(float)
      unsigned long long u = (unsigned long long)__double_as_longlong(v);
      h.x = (unsigned short)(((u >> 48) & 0x8000u) | 0x7e00u | ((u >> 42) & 0x3ffu));
      return h;
    }
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h.x) : "d"(v));
    return h;
  }
};
template <> struct ga_caster<ga_half, ga_half> {
  static __device__ ga_half f(const ga_half &v) { return v; }
};
// float -> 8/16-bit integers saturate to the target's range, NaN -> 0, as
// the host's casts (ga_host_cast.c) and as 32/64-bit targets do through
// cvt.rzi; a plain C cast goes through int32 and keeps the low bits.
template <typename To, typename F> __device__ __forceinline__ To ga_sat_(F v, F lo, F hi) {
  return v != v ? To(0) : v <= lo ? To(lo) : v >= hi ? To(hi) : To(v);
}
#define GA_SAT_CASTER(To, LO, HI)                                                  \
  template <> struct ga_caster<To, float> {                                        \
    static __device__ To f(const float &v) { return ga_sat_<To, float>(v, LO, HI); } \
  };                                                                               \
  template <> struct ga_caster<To, double> {                                       \
    static __device__ To f(const double &v) { return ga_sat_<To, double>(v, LO, HI); } \
  };                                                                               \
  template <> struct ga_caster<To, ga_half> {                                      \
    static __device__ To f(const ga_half &v) { return ga_sat_<To, float>((float)v, LO, HI); } \
  };
GA_SAT_CASTER(signed char, -128, 127)
GA_SAT_CASTER(unsigned char, 0, 255)
GA_SAT_CASTER(short, -32768, 32767)
GA_SAT_CASTER(unsigned short, 0, 65535)
#undef GA_SAT_CASTER
// 32/64-bit targets: cvt saturates, but gives the minimum for NaN; NaN -> 0
#define GA_NAN0_CASTER(To)                                                         \
  template <> struct ga_caster<To, float> {                                        \
    static __device__ To f(const float &v) { return v != v ? (To)0 : (To)v; }      \
  };                                                                               \
  template <> struct ga_caster<To, double> {                                       \
    static __device__ To f(const double &v) { return v != v ? (To)0 : (To)v; }     \
  };                                                                               \
  template <> struct ga_caster<To, ga_half> {                                      \
    static __device__ To f(const ga_half &v) { float x = v; return x != x ? (To)0 : (To)x; } \
  };
GA_NAN0_CASTER(int)
GA_NAN0_CASTER(unsigned int)
GA_NAN0_CASTER(long long)
GA_NAN0_CASTER(unsigned long long)
#undef GA_NAN0_CASTER
template <typename To, typename T> struct ga_caster<To, ga_complex<T> > {
  static __device__ To f(const ga_complex<T> &v) { return ga_caster<To, T>::f(v.re); }
};
template <typename T> struct ga_caster<ga_half, ga_complex<T> > {
  static __device__ ga_half f(const ga_complex<T> &v) { return ga_caster<ga_half, T>::f(v.re); }
};
template <typename T> struct ga_caster<bool, ga_complex<T> > {
  static __device__ bool f(const ga_complex<T> &v) { return v.re != T(0) || v.im != T(0); }
};
template <typename T, typename From> struct ga_caster<ga_complex<T>, From> {
  static __device__ ga_complex<T> f(const From &v) { return ga_complex<T>((T)(float)v); }
};
template <typename T> struct ga_caster<ga_complex<T>, double> {
  static __device__ ga_complex<T> f(const double &v) { return ga_complex<T>((T)v); }
};
template <typename T> struct ga_caster<ga_complex<T>, long long> {
  static __device__ ga_complex<T> f(const long long &v) { return ga_complex<T>((T)v); }
};
template <typename T> struct ga_caster<ga_complex<T>, unsigned long long> {
  static __device__ ga_complex<T> f(const unsigned long long &v) { return ga_complex<T>((T)v); }
};
template <typename T> struct ga_caster<ga_complex<T>, int> {
  static __device__ ga_complex<T> f(const int &v) { return ga_complex<T>((T)v); }
};
template <typename T> struct ga_caster<ga_complex<T>, unsigned int> {
  static __device__ ga_complex<T> f(const unsigned int &v) { return ga_complex<T>((T)v); }
};
template <typename T, typename U> struct ga_caster<ga_complex<T>, ga_complex<U> > {
  static __device__ ga_complex<T> f(const ga_complex<U> &v) { return ga_complex<T>(v); }
};
template <typename To, typename From> __device__ __forceinline__ To ga_cast(const From &v) {
  return ga_caster<To, From>::f(v);
}

// N consecutive elements moved as one aligned access (sizeof(T) * N is a
// power of two <= 16 whenever this is used).
template <typename T, int N> struct __align__(sizeof(T) * N) ga_vec { T v[N]; };
