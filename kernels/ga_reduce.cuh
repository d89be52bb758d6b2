// Built-in reductions (src/cuda/ga_cuda_reduce.c says the kernel shapes).
// The generator puts before this text: BLOCK, U, UC, CTY, GA_RED_KIND
// (0 ROW, 1 COL, 2 FIN_ROW, 3 FIN_COL), G (threads per group), V (elements
// per vector load), CONTIG (ROW: the reduced dimension is contiguous),
// NOIDENT (the row has no identity), ONDIM, RNDIM, the types in0_t in0_mt
// acc_t out0_t out0_mt, ga_idx (offsets) and ga_ridx (positions within a
// contiguous row), struct acc_s and the row's r_ident, r_map, r_red, r_post.

// warp shuffles of the accumulator, field by field
__device__ __forceinline__ int r_sh(bool v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ int r_sh(signed char v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ int r_sh(unsigned char v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ int r_sh(short v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ int r_sh(unsigned short v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d); }
template <typename T> __device__ __forceinline__ T r_sh(T v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
template <typename T> __device__ __forceinline__ ga_complex<T> r_sh(ga_complex<T> v, int d) {
  return ga_complex<T>(__shfl_down_sync(0xffffffffu, v.re, d), __shfl_down_sync(0xffffffffu, v.im, d)); }
__device__ __forceinline__ acc_s r_shfl(const acc_s &a, int d) {
  acc_s b; b.v = (acc_t)r_sh(a.v, d); b.i = __shfl_down_sync(0xffffffffu, a.i, d); return b; }
// fold one element into (a, has); combine two partial results
__device__ __forceinline__ void r_fold(acc_s &a, bool &has, in0_t x, long long j) {
  if (has) { acc_s t; r_map(t, x, j); r_red(a, t); } else { r_map(a, x, j); has = true; } }
__device__ __forceinline__ void r_comb(acc_s &a, bool &has, const acc_s &b, bool hb) {
  if (hb) { if (has) r_red(a, b); else { a = b; has = true; } } }

struct ga_rx { ga_idx oshape[ONDIM], istr_o[ONDIM], ostr[ONDIM], rshape[RNDIM], istr_r[RNDIM]; };

// output q's byte offsets in the input (ioff) and the output (ooff), and
// reduced position q's byte offset (roff): GA_OSTEPS and GA_RSTEPS (from
// the generator) list GA_OSTEP(d) for d = ONDIM - 1 .. 1 then GA_OSTEP0
// (nothing when ONDIM is 0), the same for the reduced dims
#define GA_OSTEP(d) { ga_idx t = q / ix.oshape[d], x = q - t * ix.oshape[d]; q = t; ioff += x * ix.istr_o[d]; ooff += x * ix.ostr[d]; }
#define GA_OSTEP0 ioff += q * ix.istr_o[0]; ooff += q * ix.ostr[0];
#define GA_ODECOMP(o) ga_idx ioff = 0, ooff = 0; { ga_idx q = o; GA_OSTEPS }
#define GA_RSTEP(d) { ga_idx t = q / ix.rshape[d]; roff += (q - t * ix.rshape[d]) * ix.istr_r[d]; q = t; }
#define GA_RSTEP0 roff += q * ix.istr_r[0];
#if RNDIM == 1
#define GA_RDECOMP(r) ga_idx roff = r * ix.istr_r[0];
#else
#define GA_RDECOMP(r) ga_idx roff = 0; { ga_idx q = r; GA_RSTEPS }
#endif

// the start of a thread's accumulator: the identity, or "nothing yet"
#if NOIDENT
#define GA_ACC_INIT acc_s a; a.i = 0; bool has = false;
#else
#define GA_ACC_INIT acc_s a; r_ident(a); bool has = true;
#endif

#define GA_STORE(acc, where) { out0_t r; r_post(acc, nred, r); *(out0_mt *)(out + where) = ga_cast<out0_mt>(r); }

// combine (a, has) over the G threads of a group into lane 0 (raw bytes of
// shared memory: acc_t may have constructors)
#define GA_WARP_COMBINE(d0) \
  for (int d = (d0); d >= 1; d >>= 1) { acc_s t = r_shfl(a, d); bool ht = __shfl_down_sync(0xffffffffu, has, d); r_comb(a, has, t, ht); }
#if G == 1
#define GA_GROUP_COMBINE
#elif G == 32
#define GA_GROUP_COMBINE GA_WARP_COMBINE(16)
#else
#define GA_GROUP_COMBINE \
  GA_WARP_COMBINE(16) \
  __shared__ __align__(16) unsigned char sab[(BLOCK / 32) * sizeof(acc_s)]; __shared__ bool sh[(BLOCK / 32)]; \
  acc_s *sa = (acc_s *)sab; \
  if (threadIdx.x % 32 == 0) { sa[threadIdx.x / 32] = a; sh[threadIdx.x / 32] = has; } \
  __syncthreads(); \
  if (lane < 32) { \
    const int w = grp * (G / 32) + lane; \
    has = false; a.i = 0; \
    if (lane < (G / 32)) { a = sa[w]; has = sh[w]; } \
    GA_WARP_COMBINE(G / 64) \
  }
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) ga_red(const char *in, char *out, acc_s *part, ga_idx nout,
                                                         ga_idx nred, ga_idx nseg, ga_idx seg, const ga_rx ix) {
#if GA_RED_KIND == 0
  // ROW: a group of G threads per output, or per segment of it
  const int lane = threadIdx.x % G, grp = threadIdx.x / G;
  const ga_idx gid = (ga_idx)blockIdx.x * (BLOCK / G) + grp;
  const bool active = gid < nout * nseg;
  const ga_idx o = active ? gid / nseg : 0, sg = gid - o * nseg;
  GA_ODECOMP(o)
  const ga_idx r0 = sg * seg, r1 = r0 + seg < nred ? r0 + seg : nred;
  GA_ACC_INIT
  if (active) {
#if CONTIG
    // positions within a row in 32 bits when they fit, whatever the byte
    // offsets of the rows need
    const in0_mt *row = (const in0_mt *)(in + ioff);
    const ga_ridx q0 = (ga_ridx)r0, q1 = (ga_ridx)r1;
#if V > 1
    // U vectors per step, loaded before any is folded: one bound check for
    // all, so the loads are in flight together
    ga_ridx r = q0 + lane * V;
    for (; r + ((U - 1) * G * V + V) <= q1; r += (U * G * V)) {
      ga_vec<in0_mt, V> w[U];
#pragma unroll
      for (int u = 0; u < U; u++) w[u] = *(const ga_vec<in0_mt, V> *)(row + r + u * (G * V));
#pragma unroll
      for (int u = 0; u < U; u++)
#pragma unroll
        for (int k = 0; k < V; k++) r_fold(a, has, ga_cast<in0_t>(w[u].v[k]), r + u * (G * V) + k);
    }
    for (; r + V <= q1; r += (G * V)) {
      const ga_vec<in0_mt, V> w = *(const ga_vec<in0_mt, V> *)(row + r);
#pragma unroll
      for (int k = 0; k < V; k++) r_fold(a, has, ga_cast<in0_t>(w.v[k]), r + k);
    }
    for (ga_ridx t = r; t < q1 && t < r + V; t++) r_fold(a, has, ga_cast<in0_t>(row[t]), t);
#else
#pragma unroll 4
    for (ga_ridx r = q0 + lane; r < q1; r += G) r_fold(a, has, ga_cast<in0_t>(row[r]), r);
#endif
#else
#pragma unroll 4
    for (ga_idx r = r0 + lane; r < r1; r += G) {
      GA_RDECOMP(r)
      r_fold(a, has, ga_cast<in0_t>(*(const in0_mt *)(in + ioff + roff)), r);
    }
#endif
  }
  GA_GROUP_COMBINE
  if (lane == 0 && active) {
    if (nseg == 1) GA_STORE(a, ooff)
    else part[gid] = a;
  }

#elif GA_RED_KIND == 1
  // COL: 32 x CTY threads, x over V consecutive outputs, y over the reduced
  // positions; the reduced range may be split over gridDim.y
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const ga_idx o0 = ((ga_idx)blockIdx.x * 32 + tx) * V, sg = blockIdx.y;
  const bool active = o0 < nout;
  GA_ODECOMP((active ? o0 : 0))
  const ga_idx r0 = sg * seg, r1 = r0 + seg < nred ? r0 + seg : nred;
  acc_s a[V]; bool has[V];
#if NOIDENT
#pragma unroll
  for (int k = 0; k < V; k++) { a[k].i = 0; has[k] = false;  }
#else
#pragma unroll
  for (int k = 0; k < V; k++) { a[k].i = 0; has[k] = true; r_ident(a[k]); }
#endif
  // UC rows per step, loaded before any is folded (one bound check)
  if (active) {
    ga_idx r = r0 + ty;
    for (; r + ((UC - 1) * CTY) < r1; r += (UC * CTY)) {
      ga_vec<in0_mt, V> w[UC];
#pragma unroll
      for (int u = 0; u < UC; u++) {
        GA_RDECOMP((r + u * CTY))
        w[u] = *(const ga_vec<in0_mt, V> *)(in + ioff + roff);
      }
#pragma unroll
      for (int u = 0; u < UC; u++)
#pragma unroll
        for (int k = 0; k < V; k++) r_fold(a[k], has[k], ga_cast<in0_t>(w[u].v[k]), r + u * CTY);
    }
    for (; r < r1; r += CTY) {
      GA_RDECOMP(r)
      const ga_vec<in0_mt, V> w = *(const ga_vec<in0_mt, V> *)(in + ioff + roff);
#pragma unroll
      for (int k = 0; k < V; k++) r_fold(a[k], has[k], ga_cast<in0_t>(w.v[k]), r);
    }
  }
  // the CTY accumulators of each of the thread column's V outputs combined
  // through shared memory in a fixed tree; output k's is sa[threadIdx.x * V
  // + k] for ty == 0
  __shared__ __align__(16) unsigned char smr[(BLOCK * V) * sizeof(acc_s)]; __shared__ bool sh[(BLOCK * V)];
  acc_s *sa = (acc_s *)smr;
#pragma unroll
  for (int k = 0; k < V; k++) { sa[threadIdx.x * V + k] = a[k]; sh[threadIdx.x * V + k] = has[k]; }
  __syncthreads();
  for (int h = (CTY / 2); h >= 1; h >>= 1) {
    if (ty < h) {
#pragma unroll
      for (int k = 0; k < V; k++) {
        const int me = threadIdx.x * V + k, ot = (threadIdx.x + h * 32) * V + k;
        acc_s x = sa[me]; bool hx = sh[me]; r_comb(x, hx, sa[ot], sh[ot]); sa[me] = x; sh[me] = hx;
      }
    }
    __syncthreads();
  }
  if (ty == 0 && active) {
#pragma unroll
    for (int k = 0; k < V; k++) {
      const acc_s x = sa[threadIdx.x * V + k];
      if (nseg == 1) GA_STORE(x, ooff + k * ix.ostr[ONDIM - 1])
      else part[sg * nout + o0 + k] = x;
    }
  }

#elif GA_RED_KIND == 2
  // FIN_ROW: combine each output's nseg partial accumulators, a group per
  // output (a warp, or the whole block for many segments); groups leave
  // together, so the barriers of a block group are safe
  (void)in; (void)seg;
  const int lane = threadIdx.x % G, grp = threadIdx.x / G;
  const ga_idx o = (ga_idx)blockIdx.x * (BLOCK / G) + grp;
  if (o >= nout) return;
  acc_s a; a.i = 0; bool has = false;
  for (ga_idx k = lane; k < nseg; k += G) r_comb(a, has, part[o * nseg + k], true);
  GA_GROUP_COMBINE
  GA_ODECOMP(o)
  if (lane == 0) GA_STORE(a, ooff)

#else
  // FIN_COL: a thread per output combines its nseg partial accumulators
  (void)in; (void)seg;
  const ga_idx o = (ga_idx)blockIdx.x * BLOCK + threadIdx.x;
  if (o >= nout) return;
  acc_s a = part[o];
  for (long long k = 1; k < nseg; k++) r_red(a, part[k * nout + o]);
  GA_ODECOMP(o)
  GA_STORE(a, ooff)
#endif
}
