/* Reductions on CUDA: kernels generated from the rows of ga_reduce.def.
 * Kernel shapes (chosen from the collapsed ga_red_call):
 *  - ROW: a group of G threads (1, 32 ... 256) reduces one output, or one
 *    segment of it; the reduced elements are read along their own
 *    dimension, with 16-byte vector loads when the reduced dimension is
 *    contiguous and aligned.  Few long outputs (a full reduction) are split
 *    into S segments per output so that the whole GPU reads; the segments'
 *    accumulators go to a temporary and a second kernel (FIN_ROW, a warp
 *    per output) combines them and post-maps.
 *  - COL: the kept innermost dimension is contiguous and the reduced one is
 *    not (sum over the first axis): 32 x 8 threads, x over V consecutive
 *    outputs each (vector loads along the row), y over reduced positions;
 *    the 8 partial accumulators of an output are combined through shared
 *    memory.  The reduced range may be split over gridDim.y (FIN_COL, a
 *    thread per output, combines the splits).
 * Every combination happens in a fixed order for a given call and device
 * (no atomics), so a result has the same bits on every run. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "cuda/ga_cuda_red.h"
#include "base/ga_strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];
extern const char ga_kernel_ga_reduce[];

#define BLOCK 256
#define U 4   /* loads in flight per thread and step */
#define UC 8  /* the same in the COL kernel (rows of a column reduction) */
#define CTY (BLOCK / 32)   /* COL: threads along the reduced axis */
enum { K_ROW, K_COL, K_FIN_ROW, K_FIN_COL };

typedef struct red_shape {
  const ga_red_call *c;
  int kind;        /* K_* */
  int g;           /* ROW: threads per group */
  int v;           /* elements per vector load (1 = none) */
  int contig;      /* ROW: the reduced dimension is contiguous (1-d) */
  int idx64;
  int ridx64;      /* positions within a reduced row need 64 bits */
  int64_t nseg, seg;   /* segments per output and their length */
} red_shape;

static const char *cu(int dt) { return ga_dtypes[dt].cuda; }
static const char *cu_compute(int dt) { return dt == GA_FLOAT16 ? "float" : cu(dt); }
static bool noident(const ga_red_call *c) { return (c->op->flags & GA_REDF_NOIDENT) != 0; }
static int64_t iabs64(int64_t v) { return v < 0 ? -v : v; }
/* bytes of the device's struct acc_s { acc_t v; long long i; } */
static size_t acc_size(const ga_red_call *c) { return ((size_t)GA_ITEMSIZE(c->acc) + 7) / 8 * 8 + 8; }

#define IDX32_LIMIT ((int64_t)INT32_MAX - (1 << 22))

static int needs_idx64(const ga_red_call *c) {
  int64_t span = GA_ITEMSIZE(c->T), ospan = GA_ITEMSIZE(c->out_dtype);
  for (int d = 0; d < c->ondim; d++) {
    span += (c->oshape[d] - 1) * iabs64(c->istr_o[d]);
    ospan += (c->oshape[d] - 1) * iabs64(c->ostr[d]);
  }
  for (int d = 0; d < c->rndim; d++) span += (c->rshape[d] > 0 ? c->rshape[d] - 1 : 0) * iabs64(c->istr_r[d]);
  return span >= IDX32_LIMIT || ospan >= IDX32_LIMIT || c->nout * c->nred >= IDX32_LIMIT ||
         (int64_t)acc_size(c) * c->nout * 1024 >= IDX32_LIMIT;
}

static int sms(int dev) {
  const ga_device_props *p = ga_cuda_props(dev);
  return p && p->multiprocessors > 0 ? p->multiprocessors : 132;
}

static void plan(const ga_red_call *c, red_shape *s, int nsm) {
  memset(s, 0, sizeof *s);
  s->c = c;
  s->idx64 = needs_idx64(c);
  s->ridx64 = c->nred >= IDX32_LIMIT;
  s->v = 1;
  s->nseg = 1;
  s->seg = c->nred > 0 ? c->nred : 1;
  int isz = GA_ITEMSIZE(c->T), last = c->ondim - 1;
  bool aligned = (uintptr_t)c->in % 16 == 0;
  bool rcontig = c->rndim == 1 && c->istr_r[0] == isz;
  if (c->nout >= 32 && c->oshape[last] >= 32 && c->istr_o[last] == isz && !rcontig && c->nred > 0) {
    s->kind = K_COL;
    int v = 16 / isz > 4 ? 4 : 16 / isz;
    bool ok = aligned && c->oshape[last] % v == 0;
    for (int d = 0; d < c->ondim && ok; d++) ok = d == last || c->istr_o[d] % 16 == 0;
    for (int d = 0; d < c->rndim && ok; d++) ok = c->istr_r[d] % 16 == 0;
    s->v = ok ? v : 1;
    ga_cuda_red_col_split(c->nout, c->nred, s->v, nsm, &s->seg, &s->nseg);
    return;
  }
  s->kind = K_ROW;
  s->contig = rcontig;
  int64_t n = c->nred;
  s->g = n >= 2048 ? 256 : n >= 512 ? 128 : n >= 128 ? 64 : n >= 16 ? 32 : 1;
  if (rcontig && s->g > 1) {
    int v = 16 / isz;
    bool ok = aligned && n >= (int64_t)s->g * v;
    for (int d = 0; d < c->ondim && ok; d++) ok = c->istr_o[d] % 16 == 0;
    if (ok) s->v = v;
  }
  ga_cuda_red_split(n, c->nout * s->g, s->g, s->v, nsm, &s->seg, &s->nseg);
}

void ga_cuda_red_col_split(int64_t nout, int64_t nred, int v, int nsm, int64_t *seg, int64_t *nseg) {
  /* blocks of 32 x v outputs; the reduced rows split over gridDim.y until
   * about four waves of 8 blocks per SM, at least 64 rows a segment */
  int64_t bx = (nout + 32 * v - 1) / (32 * v), want = (int64_t)nsm * 8 * 4;
  int64_t n = bx >= want ? 1 : (want + bx - 1) / bx;
  int64_t maxseg = nred / 64 > 0 ? nred / 64 : 1;
  if (n > maxseg) n = maxseg;
  if (n > 65535) n = 65535;
  *seg = (nred + n - 1) / n;
  *nseg = (nred + *seg - 1) / *seg;
}

void ga_cuda_red_split(int64_t n, int64_t threads, int g, int v, int nsm, int64_t *seg, int64_t *nseg) {
  /* about eight waves of blocks (a partly filled last wave then costs
   * little, whatever the occupancy), each thread taking at least 8 steps
   * of U loads; segments start v-aligned.  (Built-in reductions refine
   * this from the kernel's occupancy at launch.) */
  int64_t target = (int64_t)nsm * 2048, chunk = (int64_t)g * v * U * 8;
  if (threads * 2 > target || n < 2 * chunk) return;
  int64_t want = 8 * target / threads, maxseg = n / chunk;
  if (want > maxseg) want = maxseg;
  if (want <= 1) return;
  int64_t sg = (n + want - 1) / want;
  *seg = (sg + v - 1) / v * v;
  *nseg = (n + *seg - 1) / *seg;
}

/* ---- source ---- */
static void gen_prelude(ga_strbuf *b, const ga_red_call *c) {
  ga_sb_puts(b, ga_kernel_ga_types);
  ga_sb_puts(b, ga_kernel_ga_math);
  if (GA_IS_COMPLEX(c->T) || GA_IS_COMPLEX(c->acc)) ga_sb_puts(b, ga_kernel_ga_cmath);
  const ga_red_op *op = c->op;
  ga_sb_printf(b, "\n// reduction %s\n", op->name);
  ga_sb_printf(b, "typedef %s in0_t; typedef %s in0_mt;\n", cu_compute(c->T), cu(c->T));
  ga_sb_printf(b, "typedef %s acc_t;\n", cu_compute(c->acc));
  ga_sb_printf(b, "typedef %s out0_t; typedef %s out0_mt;\n", cu_compute(c->out_dtype), cu(c->out_dtype));
  ga_sb_puts(b, "struct acc_s { acc_t v; long long i; };\n");
  ga_sb_printf(b, "__device__ __forceinline__ void r_ident(acc_s &a) { a.i = 0; %s; }\n", op->identity);
  ga_sb_printf(b, "__device__ __forceinline__ void r_map(acc_s &a, in0_t in0, long long _j) { (void)_j; a.i = 0; %s; }\n",
               op->map);
  ga_sb_printf(b, "__device__ __forceinline__ void r_red(acc_s &a, const acc_s &b) { %s; }\n", op->reduce);
  ga_sb_printf(b, "__device__ __forceinline__ void r_post(const acc_s &a, long long _n, out0_t &out0) { (void)_n; %s; }\n",
               op->post);
}

/* combine (a, has) over the G threads of a group into lane 0 (also used by
 * ReductionKernel's generator, ga_cuda_redk.c: it needs acc_s with a field
 * i, r_shfl, r_comb, and lane/grp as here) */
void ga_cuda_red_group_combine(ga_strbuf *b, int g) {
  if (g == 1) return;
  ga_sb_puts(b, "  for (int d = 16; d >= 1; d >>= 1) { acc_s t = r_shfl(a, d); bool ht = __shfl_down_sync(0xffffffffu, has, d); r_comb(a, has, t, ht); }\n");
  if (g == 32) return;
  /* raw bytes: acc_t may have constructors */
  ga_sb_printf(b, "  __shared__ __align__(16) unsigned char sab[%d * sizeof(acc_s)]; __shared__ bool sh[%d];\n"
               "  acc_s *sa = (acc_s *)sab;\n", BLOCK / 32, BLOCK / 32);
  ga_sb_puts(b, "  if (threadIdx.x % 32 == 0) { sa[threadIdx.x / 32] = a; sh[threadIdx.x / 32] = has; }\n  __syncthreads();\n");
  ga_sb_printf(b, "  if (lane < 32) {\n    const int w = grp * %d + lane;\n", g / 32);
  ga_sb_printf(b, "    has = false; a.i = 0;\n    if (lane < %d) { a = sa[w]; has = sh[w]; }\n", g / 32);
  ga_sb_printf(b, "    for (int d = %d; d >= 1; d >>= 1) { acc_s t = r_shfl(a, d); bool ht = __shfl_down_sync(0xffffffffu, has, d); r_comb(a, has, t, ht); }\n  }\n",
               g / 64);
}

/* COL kernels: the CTY accumulators of each of a thread column's v outputs
 * (acc[k], has[k] of the thread at row ty) combined through shared memory
 * in a fixed tree; the result of output k is sa[threadIdx.x * v + k] for
 * ty == 0.  Shared with ReductionKernel. */
void ga_cuda_red_col_combine(ga_strbuf *b, int v, const char *acc, const char *has) {
  /* raw bytes: acc_t may have constructors */
  ga_sb_printf(b, "  __shared__ __align__(16) unsigned char smr[%d * sizeof(acc_s)]; __shared__ bool sh[%d];\n",
               BLOCK * v, BLOCK * v);
  ga_sb_puts(b, "  acc_s *sa = (acc_s *)smr;\n");
  ga_sb_printf(b, "#pragma unroll\n  for (int k = 0; k < %d; k++) { sa[threadIdx.x * %d + k] = %s[k]; sh[threadIdx.x * %d + k] = %s[k]; }\n",
               v, v, acc, v, has);
  ga_sb_puts(b, "  __syncthreads();\n");
  ga_sb_printf(b, "  for (int h = %d; h >= 1; h >>= 1) {\n    if (ty < h) {\n", CTY / 2);
  ga_sb_printf(b, "#pragma unroll\n      for (int k = 0; k < %d; k++) {\n", v);
  ga_sb_printf(b, "        const int me = threadIdx.x * %d + k, ot = (threadIdx.x + h * 32) * %d + k;\n", v, v);
  ga_sb_puts(b, "        acc_s x = sa[me]; bool hx = sh[me]; r_comb(x, hx, sa[ot], sh[ot]); sa[me] = x; sh[me] = hx;\n");
  ga_sb_puts(b, "      }\n    }\n    __syncthreads();\n  }\n");
}

/* The per-call part (types, the row's statements, the kernel shape), then
 * the algorithm of kernels/ga_reduce.cuh. */
static char *gen_source(const void *ud) {
  const red_shape *s = ud;
  const ga_red_call *c = s->c;
  ga_strbuf b;
  ga_sb_init(&b);
  gen_prelude(&b, c);
  ga_sb_printf(&b, "typedef %s ga_idx; typedef %s ga_ridx;\n", s->idx64 ? "long long" : "int",
               s->ridx64 ? "long long" : "int");
  ga_sb_printf(&b, "#define BLOCK %d\n#define U %d\n#define UC %d\n#define CTY %d\n#define GA_RED_KIND %d\n", BLOCK, U, UC,
               CTY, s->kind);
  ga_sb_printf(&b, "#define G %d\n#define V %d\n#define CONTIG %d\n#define NOIDENT %d\n#define ONDIM %d\n#define RNDIM %d\n",
               s->g, s->v, s->contig, noident(c), c->ondim, c->rndim);
  ga_sb_puts(&b, "#define GA_OSTEPS");
  for (int d = c->ondim - 1; d >= 0; d--) ga_sb_printf(&b, d ? " GA_OSTEP(%d)" : " GA_OSTEP0", d);
  ga_sb_puts(&b, "\n#define GA_RSTEPS");
  for (int d = c->rndim - 1; d >= 0; d--) ga_sb_printf(&b, d ? " GA_RSTEP(%d)" : " GA_RSTEP0", d);
  ga_sb_puts(&b, "\n");
  ga_sb_puts(&b, ga_kernel_ga_reduce);
  return ga_sb_take(&b);
}

static void make_key(const red_shape *s, ga_kkey *key) {
  const ga_red_call *c = s->c;
  memset(key, 0, sizeof *key);
  key->w[0] = (uint64_t)c->op->id | (uint64_t)c->T << 8 | (uint64_t)c->acc << 13 | (uint64_t)c->out_dtype << 18 |
              (uint64_t)s->kind << 23 | (uint64_t)s->idx64 << 26 | (uint64_t)c->ondim << 27 |
              (uint64_t)c->rndim << 33 | 3ull << 40 /* kind: reduction row */;
  key->w[1] = (uint64_t)s->g | (uint64_t)s->v << 16 | (uint64_t)s->contig << 24 | (uint64_t)s->ridx64 << 25;
}

/* source of the first kernel of a call, for the NVRTC spec rows */
char *ga_cuda_reduce_source(const ga_red_call *c, int second) {
  red_shape s;
  plan(c, &s, 132);
  if (second) {
    s.kind = s.kind == K_COL ? K_FIN_COL : K_FIN_ROW;
    s.g = s.nseg >= 512 ? BLOCK : 32;
  }
  return gen_source(&s);
}

static int launch(const red_shape *s, const ga_red_call *c, void *part, unsigned gx, unsigned gy) {
  ga_kkey key;
  make_key(s, &key);
  void *kernel;
  int rc = ga_cuda_kernel_get(c->device, &key, "ga_red", gen_source, s, &kernel);
  if (rc) return rc;
  union { int i[5 * GA_MAXDIM]; long long l[5 * GA_MAXDIM]; } ix;
  int on = c->ondim, rn = c->rndim, n = 0;
#define PUT(v) do { if (s->idx64) ix.l[n++] = (v); else ix.i[n++] = (int)(v); } while (0)
  for (int d = 0; d < on; d++) PUT(c->oshape[d]);
  for (int d = 0; d < on; d++) PUT(c->istr_o[d]);
  for (int d = 0; d < on; d++) PUT(c->ostr[d]);
  for (int d = 0; d < rn; d++) PUT(c->rshape[d]);
  for (int d = 0; d < rn; d++) PUT(c->istr_r[d]);
#undef PUT
  const void *in = c->in;
  void *out = c->out;
  long long l4[4] = {c->nout, c->nred, s->nseg, s->seg};
  int i4[4] = {(int)c->nout, (int)c->nred, (int)s->nseg, (int)s->seg};
  void *args[8] = {&in, &out, &part};
  size_t sizes[8] = {sizeof in, sizeof out, sizeof part};
  for (int k = 0; k < 4; k++) {
    args[3 + k] = s->idx64 ? (void *)&l4[k] : (void *)&i4[k];
    sizes[3 + k] = s->idx64 ? sizeof(long long) : sizeof(int);
  }
  args[7] = &ix;
  sizes[7] = (size_t)n * (s->idx64 ? sizeof(long long) : sizeof(int));
  unsigned grid[3] = {gx, gy, 1}, block[3] = {BLOCK, 1, 1};
  return ga_cuda_enqueue3(c->device, c->stream, kernel, grid, block, 0, 8, args, sizes);
}

int ga_cuda_reduce(const ga_red_call *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  red_shape s;
  int nsm = sms(c->device);
  plan(c, &s, nsm);
  if (s.kind == K_ROW && s.nseg > 1) {
    /* a split reduction: whole waves of resident blocks, so that no SM
     * idles through a partial last wave (the kernel does not depend on the
     * split: same cache entry).  Two waves for 1-4 byte elements, eight for
     * wider ones: the best of 2..12 on an H200 (float32 4430 GB/s at 2,
     * 4330 at 8; float64 4300 at 2, 4470 at 8). */
    ga_kkey key;
    make_key(&s, &key);
    void *kernel;
    if ((rc = ga_cuda_kernel_get(c->device, &key, "ga_red", gen_source, &s, &kernel))) return rc;
    int occ = ga_cuda_kernel_occupancy(kernel, BLOCK, 0);
    if (occ > 0) {
      int64_t waves = GA_ITEMSIZE(c->T) >= 8 ? 8 : 2;
      int64_t per = BLOCK / s.g, want = (waves * (int64_t)occ * nsm * per + c->nout - 1) / c->nout;
      int64_t chunk = (int64_t)s.g * s.v * U * 8, maxseg = c->nred / chunk;
      if (want > maxseg) want = maxseg;
      if (want > 1) {
        int64_t seg = (c->nred + want - 1) / want;
        s.seg = (seg + s.v - 1) / s.v * s.v;
        s.nseg = (c->nred + s.seg - 1) / s.seg;
      }
    }
  }
  ga_buffer *part = NULL;
  if (s.nseg > 1 && (rc = ga_buffer_new(c->device, acc_size(c) * (size_t)(c->nout * s.nseg), c->stream, &part)))
    return rc;
  void *pp = part ? part->ptr : NULL;
  if (s.kind == K_COL) {
    int64_t bx = (c->nout + 32 * s.v - 1) / (32 * s.v);
    if (bx > INT32_MAX) { rc = ga_err(GA_EINVAL, "reduction too large"); goto done; }
    rc = launch(&s, c, pp, (unsigned)bx, (unsigned)s.nseg);
  } else {
    int64_t groups = c->nout * s.nseg, per = BLOCK / s.g, bx = (groups + per - 1) / per;
    if (bx > INT32_MAX) { rc = ga_err(GA_EINVAL, "reduction too large"); goto done; }
    rc = launch(&s, c, pp, (unsigned)bx, 1);
  }
  if (!rc && s.nseg > 1) {
    red_shape f = s;
    f.kind = s.kind == K_COL ? K_FIN_COL : K_FIN_ROW;
    f.g = s.nseg >= 512 ? BLOCK : 32;
    f.v = 1;
    f.contig = 0;
    int64_t per = f.kind == K_FIN_COL ? BLOCK : BLOCK / f.g, bx = (c->nout + per - 1) / per;
    rc = launch(&f, c, pp, (unsigned)bx, 1);
  }
done:
  if (part) ga_buffer_decref(part);
  return rc;
}
