// The reduction kernel of built-in reductions and ReductionKernel
// (src/cuda/ga_cuda_red.c says the kernel shapes and plans the call).
// Before this text the generator puts:
//  - from src/cuda/ga_cuda_red.c: GA_BLOCK, GA_U, GA_UC, GA_CTY,
//    GA_RED_KIND (0 ROW, 1 COL, 2 FIN_ROW, 3 FIN_COL), GA_G (threads per
//    group), GA_V (elements per vector load), GA_CONTIG (ROW: the reduced
//    dimension is contiguous, or constant, in every input), GA_NOIDENT (no
//    identity), GA_ONDIM, GA_RNDIM, GA_NARR (arrays), GA_NIN (array inputs,
//    at least 1), ga_idx (offsets), ga_ridx (positions within a contiguous
//    row), GA_OSTEPS and GA_RSTEPS;
//  - from the family (kernels/ga_reduce_builtin.cuh for ga_reduce.def's
//    rows, the ReductionKernel's generator with kernels/ga_redk.cuh):
//    struct acc_s { acc_t v; long long i; ... }, r_red, r_ident, r_shfl and
//    the per-call parts:
//      GA_RED_KERNEL(common params)   the kernel's signature
//      GA_RED_BEGIN                   statements at the kernel's start
//      GA_ODECL, GA_OADD(x, d)        every array's offset over the kept dims
//      GA_RDECL, GA_RADD(x, d)        every input's offset over the reduced dims
//      GA_ROW_SETUP                   ROW, CONTIG: the row's start per input
//      GA_VDECL(n), GA_VLOAD_ROW(u, pos), GA_VLOAD_COL(u)   n vectors, load the u-th
//      GA_VFOLD(a, has, u, k, j)      fold element k of the u-th vectors (position j)
//      GA_SFOLD(a, has, t)            fold element t of a contiguous row
//      GA_RFOLD(a, has, j)            fold position j at the offsets of GA_RDECOMP
//      GA_STORE(a), GA_STORE_K(a, k)  post-map into the outputs (COL: the k-th)

// combine two partial results
__device__ __forceinline__ void r_comb(acc_s &a, bool &has, const acc_s &b, bool hb) {
  if (hb) { if (has) r_red(a, b); else { a = b; has = true; } } }

struct ga_rx { ga_idx oshape[GA_ONDIM], rshape[GA_RNDIM], so[GA_NARR][GA_ONDIM], sr[GA_NIN][GA_RNDIM]; };

// output q's offsets (GA_ODECL's) and reduced position q's (GA_RDECL's):
// GA_OSTEPS and GA_RSTEPS (from the generator) list GA_OSTEP(d) for d =
// ONDIM - 1 .. 1 then GA_OSTEP0, the same for the reduced dims
#define GA_OSTEP(d) { ga_idx t = q / ix.oshape[d], x = q - t * ix.oshape[d]; q = t; GA_OADD(x, d) }
#define GA_OSTEP0 GA_OADD(q, 0)
#define GA_ODECOMP(o) GA_ODECL { ga_idx q = o; GA_OSTEPS }
#define GA_RSTEP(d) { ga_idx t = q / ix.rshape[d], x = q - t * ix.rshape[d]; GA_RADD(x, d) q = t; }
#define GA_RSTEP0 GA_RADD(q, 0)
#if GA_RNDIM == 1
#define GA_RDECOMP(r) GA_RDECL GA_RADD(r, 0)
#else
#define GA_RDECOMP(r) GA_RDECL { ga_idx q = r; GA_RSTEPS }
#endif

// the start of a thread's accumulator: the identity, or "nothing yet"
#if GA_NOIDENT
#define GA_ACC_INIT acc_s a; a.i = 0; bool has = false;
#else
#define GA_ACC_INIT acc_s a; r_ident(a); bool has = true;
#endif

// combine (a, has) over the G threads of a group into lane 0 (raw bytes of
// shared memory: acc_t may have constructors)
#define GA_WARP_COMBINE(d0) \
  for (int d = (d0); d >= 1; d >>= 1) { acc_s t = r_shfl(a, d); bool ht = __shfl_down_sync(0xffffffffu, has, d); r_comb(a, has, t, ht); }
#if GA_G == 1
#define GA_GROUP_COMBINE
#elif GA_G == 32
#define GA_GROUP_COMBINE GA_WARP_COMBINE(16)
#else
#define GA_GROUP_COMBINE \
  GA_WARP_COMBINE(16) \
  __shared__ __align__(16) unsigned char sab[(GA_BLOCK / 32) * sizeof(acc_s)]; __shared__ bool sh[(GA_BLOCK / 32)]; \
  acc_s *sa = (acc_s *)sab; \
  if (threadIdx.x % 32 == 0) { sa[threadIdx.x / 32] = a; sh[threadIdx.x / 32] = has; } \
  __syncthreads(); \
  if (lane < 32) { \
    const int w = grp * (GA_G / 32) + lane; \
    has = false; a.i = 0; \
    if (lane < (GA_G / 32)) { a = sa[w]; has = sh[w]; } \
    GA_WARP_COMBINE(GA_G / 64) \
  }
#endif

GA_RED_KERNEL(acc_s *part, ga_idx nout, ga_idx nred, ga_idx nseg, ga_idx seg, const ga_rx ix) {
  GA_RED_BEGIN
#if GA_RED_KIND == 0
  // ROW: a group of G threads per output, or per segment of it
  const int lane = threadIdx.x % GA_G, grp = threadIdx.x / GA_G;
  const ga_idx gid = (ga_idx)blockIdx.x * (GA_BLOCK / GA_G) + grp;
  const bool active = gid < nout * nseg;
  const ga_idx o = active ? gid / nseg : 0, sg = gid - o * nseg;
  GA_ODECOMP(o)
  const ga_idx r0 = sg * seg, r1 = r0 + seg < nred ? r0 + seg : nred;
  GA_ACC_INIT
  if (active) {
#if GA_CONTIG
    // positions within a row in 32 bits when they fit, whatever the byte
    // offsets of the rows need
    GA_ROW_SETUP
    const ga_ridx q0 = (ga_ridx)r0, q1 = (ga_ridx)r1;
#if GA_V > 1
    // U vectors per step, loaded before any is folded: one bound check for
    // all, so the loads are in flight together
    ga_ridx r = q0 + lane * GA_V;
    for (; r + ((GA_U - 1) * GA_G * GA_V + GA_V) <= q1; r += (GA_U * GA_G * GA_V)) {
      GA_VDECL(GA_U)
#pragma unroll
      for (int u = 0; u < GA_U; u++) GA_VLOAD_ROW(u, r + u * (GA_G * GA_V))
#pragma unroll
      for (int u = 0; u < GA_U; u++)
#pragma unroll
        for (int k = 0; k < GA_V; k++) GA_VFOLD(a, has, u, k, r + u * (GA_G * GA_V) + k)
    }
    for (; r + GA_V <= q1; r += (GA_G * GA_V)) {
      GA_VDECL(1)
      GA_VLOAD_ROW(0, r)
#pragma unroll
      for (int k = 0; k < GA_V; k++) GA_VFOLD(a, has, 0, k, r + k)
    }
    for (ga_ridx t = r; t < q1 && t < r + GA_V; t++) GA_SFOLD(a, has, t)
#else
#pragma unroll 4
    for (ga_ridx r = q0 + lane; r < q1; r += GA_G) GA_SFOLD(a, has, r)
#endif
#else
#pragma unroll 4
    for (ga_idx r = r0 + lane; r < r1; r += GA_G) {
      GA_RDECOMP(r)
      GA_RFOLD(a, has, r)
    }
#endif
  }
  GA_GROUP_COMBINE
  if (lane == 0 && active) {
    if (nseg == 1) GA_STORE(a)
    else part[gid] = a;
  }

#elif GA_RED_KIND == 1
  // COL: 32 x CTY threads, x over V consecutive outputs, y over the reduced
  // positions; the reduced range may be split over gridDim.y
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const ga_idx o0 = ((ga_idx)blockIdx.x * 32 + tx) * GA_V, sg = blockIdx.y;
  const bool active = o0 < nout;
  GA_ODECOMP((active ? o0 : 0))
  const ga_idx r0 = sg * seg, r1 = r0 + seg < nred ? r0 + seg : nred;
  acc_s a[GA_V]; bool has[GA_V];
#if GA_NOIDENT
#pragma unroll
  for (int k = 0; k < GA_V; k++) { a[k].i = 0; has[k] = false;  }
#else
#pragma unroll
  for (int k = 0; k < GA_V; k++) { a[k].i = 0; has[k] = true; r_ident(a[k]); }
#endif
  // UC rows per step, loaded before any is folded (one bound check)
  if (active) {
    ga_idx r = r0 + ty;
    for (; r + ((GA_UC - 1) * GA_CTY) < r1; r += (GA_UC * GA_CTY)) {
      GA_VDECL(GA_UC)
#pragma unroll
      for (int u = 0; u < GA_UC; u++) {
        GA_RDECOMP((r + u * GA_CTY))
        GA_VLOAD_COL(u)
      }
#pragma unroll
      for (int u = 0; u < GA_UC; u++)
#pragma unroll
        for (int k = 0; k < GA_V; k++) GA_VFOLD(a[k], has[k], u, k, r + u * GA_CTY)
    }
    for (; r < r1; r += GA_CTY) {
      GA_RDECOMP(r)
      GA_VDECL(1)
      GA_VLOAD_COL(0)
#pragma unroll
      for (int k = 0; k < GA_V; k++) GA_VFOLD(a[k], has[k], 0, k, r)
    }
  }
  // the CTY accumulators of each of the thread column's V outputs combined
  // through shared memory in a fixed tree; output k's is sa[threadIdx.x * V
  // + k] for ty == 0
  __shared__ __align__(16) unsigned char smr[(GA_BLOCK * GA_V) * sizeof(acc_s)]; __shared__ bool sh[(GA_BLOCK * GA_V)];
  acc_s *sa = (acc_s *)smr;
#pragma unroll
  for (int k = 0; k < GA_V; k++) { sa[threadIdx.x * GA_V + k] = a[k]; sh[threadIdx.x * GA_V + k] = has[k]; }
  __syncthreads();
  for (int h = (GA_CTY / 2); h >= 1; h >>= 1) {
    if (ty < h) {
#pragma unroll
      for (int k = 0; k < GA_V; k++) {
        const int me = threadIdx.x * GA_V + k, ot = (threadIdx.x + h * 32) * GA_V + k;
        acc_s x = sa[me]; bool hx = sh[me]; r_comb(x, hx, sa[ot], sh[ot]); sa[me] = x; sh[me] = hx;
      }
    }
    __syncthreads();
  }
  if (ty == 0 && active) {
#pragma unroll
    for (int k = 0; k < GA_V; k++) {
      const acc_s x = sa[threadIdx.x * GA_V + k];
      if (nseg == 1) GA_STORE_K(x, k)
      else part[sg * nout + o0 + k] = x;
    }
  }

#elif GA_RED_KIND == 2
  // FIN_ROW: combine each output's nseg partial accumulators, a group per
  // output (a warp, or the whole block for many segments); groups leave
  // together, so the barriers of a block group are safe
  (void)seg;
  const int lane = threadIdx.x % GA_G, grp = threadIdx.x / GA_G;
  const ga_idx o = (ga_idx)blockIdx.x * (GA_BLOCK / GA_G) + grp;
  if (o >= nout) return;
  acc_s a; a.i = 0; bool has = false;
  for (ga_idx k = lane; k < nseg; k += GA_G) r_comb(a, has, part[o * nseg + k], true);
  GA_GROUP_COMBINE
  GA_ODECOMP(o)
  if (lane == 0) GA_STORE(a)

#else
  // FIN_COL: a thread per output combines its nseg partial accumulators
  (void)seg;
  const ga_idx o = (ga_idx)blockIdx.x * GA_BLOCK + threadIdx.x;
  if (o >= nout) return;
  acc_s a = part[o];
  for (long long k = 1; k < nseg; k++) r_red(a, part[k * nout + o]);
  GA_ODECOMP(o)
  GA_STORE(a)
#endif
}
