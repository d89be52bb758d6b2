// Gather, scatter and scatter-add (src/cuda/ga_cuda_gather.c says the
// algorithm).  The generator puts before this text: BLOCK, GA_MODE (0
// gather, 1 scatter, 2 scatter-add), GA_ATOMIC (scatter-add's atomic: 0
// atomicAdd, 1 int64 as unsigned, 2 complex, 3 bool, 4 float16 CAS, 5 8/16-
// bit integer CAS, with GA_CAS_MASK and GA_CAS_NARROW), NDX and NIX (array
// lengths of the index struct), the types ga_idx (offsets) and elem_t (x's
// element), and the per-call lists: GA_OI_DECLS (GA_OI_DECL(j) for each
// index array j), GA_OI_STEPS(d) (GA_OI_STEP(j, d) for each j), GA_DSTEPS
// (GA_DSTEP(d) for d = ndim - 1 .. 1 then GA_DSTEP0) and GA_LOADS (GA_LOAD(j,
// type) or GA_LOAD_U64(j) for each j).

struct ga_gx { ga_idx shape[NDX]; ga_idx sx[NDX]; ga_idx sv[NDX]; ga_idx si[NIX][NDX]; long long n[NIX]; ga_idx st[NIX]; const char *ip[NIX]; };

// the first bad index: its array (1-based) and value
__device__ __forceinline__ void ga_flag(int *err, int j, long long t) {
  if (atomicCAS(err, 0, j + 1) == 0) ((long long *)err)[1] = t;
}

#if GA_MODE == 2
// *p += v for x's dtype, atomically
__device__ __forceinline__ void ga_atomic_add(elem_t *p, elem_t v) {
#if GA_ATOMIC == 0
  atomicAdd(p, v);
#elif GA_ATOMIC == 1
  // two's complement: the unsigned sum has the same bits
  atomicAdd((unsigned long long *)p, (unsigned long long)v);
#elif GA_ATOMIC == 2
  atomicAdd(&p->re, v.re);
  atomicAdd(&p->im, v.im);
#elif GA_ATOMIC == 3
  // stored as 0/1: or-ing bit 0 of its byte is a logical or
  if (v) atomicOr((unsigned *)((size_t)p & ~(size_t)3), 1u << (((size_t)p & 3) * 8));
#else
  // 8/16-bit: compare-and-swap the 32-bit word that holds *p
  unsigned *w = (unsigned *)((size_t)p & ~(size_t)3);
  const unsigned sh = (unsigned)((size_t)p & 3) * 8, mask = GA_CAS_MASK << sh;
  unsigned old = *w, assumed;
  do {
    assumed = old;
    const unsigned cur = (assumed & mask) >> sh;
#if GA_ATOMIC == 4
    // NumPy's float16 add: in float, rounded once
    ga_half h; h.x = (unsigned short)cur;
    const unsigned nb = ga_half((float)h + (float)v).x;
#else
    const unsigned nb = (unsigned)(unsigned GA_CAS_NARROW)(elem_t)((elem_t)cur + v);
#endif
    old = atomicCAS(w, assumed, (assumed & ~mask) | ((nb << sh) & mask));
  } while (old != assumed);
#endif
}
#endif

// the flat index decomposed over the selection shape into byte offsets of
// x (ox), of the value or output (ov) and of each index array (oj); the
// last index left is below shape[0]
#define GA_OI_DECL(j) , o##j = 0
#define GA_OI_STEP(j, d) o##j += e * g.si[j][d];
#define GA_DSTEP(d) { ga_idx q = r / g.shape[d], e = r - q * g.shape[d]; r = q; ox += e * g.sx[d]; ov += e * g.sv[d]; GA_OI_STEPS(d) }
#define GA_DSTEP0 { ga_idx e = r; ox += e * g.sx[0]; ov += e * g.sv[0]; GA_OI_STEPS(0) }
// index j loaded (uint64 above INT64_MAX: LLONG_MIN, which no axis
// accepts), made 0-based (1-based, negatives from the end; 0 lands on n:
// out of range) and checked
#define GA_CHECK(j) \
      const long long z = t > 0 ? t - 1 : t + g.n[j]; \
      if (z < 0 || z >= g.n[j]) { ok = false; ga_flag(err, j, t); } \
      else ox += (ga_idx)z * g.st[j];
#define GA_LOAD(j, IDXT) { const long long t = (long long)*(const IDXT *)(g.ip[j] + o##j); GA_CHECK(j) }
#define GA_LOAD_U64(j) { const unsigned long long u = *(const unsigned long long *)(g.ip[j] + o##j); \
      const long long t = u > 0x7fffffffffffffffull ? (long long)(-0x7fffffffffffffffll - 1) : (long long)u; GA_CHECK(j) }

extern "C" __global__ void __launch_bounds__(BLOCK) ga_gather(ga_idx n, char *x, char *v, int *err, const ga_gx g) {
  for (ga_idx i = (ga_idx)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ga_idx)gridDim.x * blockDim.x) {
    ga_idx r = i, ox = 0, ov = 0 GA_OI_DECLS;
    (void)r;
    GA_DSTEPS
    bool ok = true;
    GA_LOADS
#if GA_MODE == 0
    if (ok) *(elem_t *)(v + ov) = *(const elem_t *)(x + ox);
    else for (int k = 0; k < (int)sizeof(elem_t); k++) v[ov + k] = 0;
#elif GA_MODE == 1
    if (ok) *(elem_t *)(x + ox) = *(const elem_t *)(v + ov);
#else
    if (ok) ga_atomic_add((elem_t *)(x + ox), *(const elem_t *)(v + ov));
#endif
  }
}
