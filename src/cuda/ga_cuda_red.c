/* The reduction pipeline on CUDA (ga_cuda_red.h says the kernel shapes):
 * planning, the index width, keys, the source's frame, launch geometry and
 * the run of a ga_cred, for built-in reductions and ReductionKernel. */
#include "cuda/ga_cuda_red.h"
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_queue.h"
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_reduce[];

#define BLOCK GA_CRED_BLOCK
#define U 4   /* loads in flight per thread and step */
#define UC 8  /* the same in the COL kernel (rows of a column reduction) */
#define CTY (BLOCK / 32)   /* COL: threads along the reduced axis */

/* bytes of the device's struct acc_s { acc_t v; long long i; } */
static size_t acc_size(const ga_cred *c) { return ((size_t)c->acc_itemsize + 7) / 8 * 8 + 8; }

static int needs_idx64(const ga_cred *c) {
  if (c->nout * (c->nred > 0 ? c->nred : 1) >= GA_IDX32_LIMIT || (int64_t)acc_size(c) * c->nout * 1024 >= GA_IDX32_LIMIT)
    return 1;
  for (int a = 0; a < c->narr; a++) {
    const ga_cred_arr *x = &c->arr[a];
    int64_t span = ga_span_bytes(x->itemsize, c->ondim, c->oshape, x->so);
    if (x->sr) span += ga_span_bytes(0, c->rndim, c->rshape, x->sr);
    if (span >= GA_IDX32_LIMIT) return 1;
  }
  return 0;
}

/* How a COL reduction of nout outputs in blocks of 32 x v and nred rows
 * splits over gridDim.y on nsm multiprocessors */
static void col_split(int64_t nout, int64_t nred, int v, int nsm, int64_t *seg, int64_t *nseg) {
  /* the reduced rows split until about four waves of 8 blocks per SM, at
   * least 64 rows a segment */
  int64_t bx = (nout + 32 * v - 1) / (32 * v), want = (int64_t)nsm * 8 * 4;
  int64_t n = bx >= want ? 1 : (want + bx - 1) / bx;
  int64_t maxseg = nred / 64 > 0 ? nred / 64 : 1;
  if (n > maxseg) n = maxseg;
  if (n > 65535) n = 65535;
  *seg = (nred + n - 1) / n;
  *nseg = (nred + *seg - 1) / *seg;
}

/* Segments of length *seg (v-aligned) splitting n reduced elements into
 * `want` (at most n / chunk); *seg and *nseg are left alone when it does
 * not split. */
static void row_segments(int64_t n, int64_t want, int64_t chunk, int v, int64_t *seg, int64_t *nseg) {
  int64_t maxseg = n / chunk;
  if (want > maxseg) want = maxseg;
  if (want <= 1) return;
  int64_t sg = (n + want - 1) / want;
  *seg = (sg + v - 1) / v * v;
  *nseg = (n + *seg - 1) / *seg;
}

/* How a ROW reduction of n elements per output, read by `threads` threads
 * in groups of g with v-element loads, splits: about eight waves of blocks
 * (a partly filled last wave then costs little, whatever the occupancy),
 * each thread taking at least 8 steps of U loads.  (ga_cuda_red_run
 * refines this from the kernel's occupancy.) */
static void row_split(int64_t n, int64_t threads, int g, int v, int nsm, int64_t *seg, int64_t *nseg) {
  int64_t target = (int64_t)nsm * 2048, chunk = (int64_t)g * v * U * 8;
  if (threads * 2 > target || n < 2 * chunk) return;
  row_segments(n, 8 * target / threads, chunk, v, seg, nseg);
}

void ga_cuda_red_plan(const ga_cred *c, ga_cred_shape *s, int nsm) {
  memset(s, 0, sizeof *s);
  s->c = c;
  s->idx64 = needs_idx64(c);
  s->ridx64 = c->nred >= GA_IDX32_LIMIT;
  s->v = 1;
  s->nseg = 1;
  s->seg = c->nred > 0 ? c->nred : 1;
  int last = c->ondim - 1, maxsz = 1;
  /* rows are contiguous when every input is contiguous or constant along
   * the one reduced dimension, and one at least contiguous */
  bool rcontig = c->rndim == 1, any = false, ocontig = true;
  for (int a = 0; a < c->nin; a++) {
    const ga_cred_arr *x = &c->arr[a];
    if (x->itemsize > maxsz) maxsz = x->itemsize;
    rcontig = rcontig && (x->sr[0] == 0 || x->sr[0] == x->itemsize);
    any = any || x->sr[0] == x->itemsize;
    ocontig = ocontig && x->so[last] == x->itemsize;
  }
  rcontig = rcontig && any;
  if (c->nout >= 32 && c->oshape[last] >= 32 && ocontig && !rcontig && c->nred > 0) {
    s->kind = GA_CRED_COL;
    int v = 16 / maxsz > 4 ? 4 : 16 / maxsz;
    bool ok = c->oshape[last] % v == 0;
    for (int a = 0; a < c->nin && ok; a++) {
      const ga_cred_arr *x = &c->arr[a];
      ok = x->data % 16 == 0;
      for (int d = 0; d < last && ok; d++) ok = x->so[d] % 16 == 0;
      for (int d = 0; d < c->rndim && ok; d++) ok = x->sr[d] % 16 == 0;
    }
    s->v = ok ? v : 1;
    col_split(c->nout, c->nred, s->v, nsm, &s->seg, &s->nseg);
    return;
  }
  s->kind = GA_CRED_ROW;
  s->contig = rcontig;
  int64_t n = c->nred;
  s->g = n >= 2048 ? 256 : n >= 512 ? 128 : n >= 128 ? 64 : n >= 16 ? 32 : 1;
  if (rcontig && s->g > 1) {
    int v = 16 / maxsz;
    bool ok = n >= (int64_t)s->g * v;
    for (int a = 0; a < c->nin && ok; a++) {
      const ga_cred_arr *x = &c->arr[a];
      if (x->sr[0] == 0) continue;   /* read once per output */
      ok = x->data % 16 == 0;
      for (int d = 0; d < c->ondim && ok; d++) ok = x->so[d] % 16 == 0;
    }
    if (ok) s->v = v;
  }
  row_split(n, c->nout * s->g, s->g, s->v, nsm, &s->seg, &s->nseg);
}

void ga_cuda_red_fin(const ga_cred_shape *s, ga_cred_shape *f) {
  *f = *s;
  f->kind = s->kind == GA_CRED_COL ? GA_CRED_FIN_COL : GA_CRED_FIN_ROW;
  f->g = s->nseg >= 512 ? BLOCK : 32;
  f->v = 1;
  f->contig = 0;
}

/* The family's prelude, the shape, the family's per-call macros, then the
 * algorithm of kernels/ga_reduce.cuh. */
char *ga_cuda_red_source(const void *ud) {
  const ga_cred_shape *s = ud;
  const ga_cred *c = s->c;
  ga_strbuf b;
  ga_sb_init(&b);
  c->prelude(&b, s);
  ga_sb_printf(&b, "typedef %s ga_idx; typedef %s ga_ridx;\n", s->idx64 ? "long long" : "int",
               s->ridx64 ? "long long" : "int");
  ga_sb_printf(&b, "#define GA_BLOCK %d\n#define GA_U %d\n#define GA_UC %d\n#define GA_CTY %d\n#define GA_RED_KIND %d\n",
               BLOCK, U, UC, CTY, s->kind);
  ga_sb_printf(&b, "#define GA_G %d\n#define GA_V %d\n#define GA_CONTIG %d\n#define GA_NOIDENT %d\n", s->g, s->v,
               s->contig, c->noident);
  ga_sb_printf(&b, "#define GA_ONDIM %d\n#define GA_RNDIM %d\n#define GA_NARR %d\n#define GA_NIN %d\n", c->ondim,
               c->rndim, c->narr, c->nin > 0 ? c->nin : 1);
  ga_sb_puts(&b, "#define GA_OSTEPS");
  for (int d = c->ondim - 1; d >= 0; d--) ga_sb_printf(&b, d ? " GA_OSTEP(%d)" : " GA_OSTEP0", d);
  ga_sb_puts(&b, "\n#define GA_RSTEPS");
  for (int d = c->rndim - 1; d >= 0; d--) ga_sb_printf(&b, d ? " GA_RSTEP(%d)" : " GA_RSTEP0", d);
  ga_sb_puts(&b, "\n");
  c->hooks(&b, s);
  ga_sb_puts(&b, ga_kernel_ga_reduce);
  return ga_sb_take(&b);
}

static void make_key(const ga_cred_shape *s, ga_kkey *key) {
  const ga_cred *c = s->c;
  ga_kpack p;
  ga_kpack_init(&p, key, c->kfam);
  /* one put of the shape's fields (the hot path: a key per call) */
  ga_kpack_put(&p, (uint64_t)s->kind | (uint64_t)s->idx64 << 2 | (uint64_t)s->ridx64 << 3 | (uint64_t)s->contig << 4 |
                       (uint64_t)c->ondim << 5 | (uint64_t)c->rndim << 11 | (uint64_t)s->g << 17 | (uint64_t)s->v << 26,
               31);
  c->key(&p, s);
}

static int get_kernel(const ga_cred_shape *s, void **kernel) {
  ga_kkey key;
  make_key(s, &key);
  return ga_cuda_kernel_get(s->c->device, &key, s->c->name, ga_cuda_red_source, s, kernel);
}

/* The family's parameters, then the common ones of ga_reduce.cuh: part,
 * nout, nred, nseg, seg and the index struct (struct ga_rx's layout). */
/* kernel: s's, when the caller already has it (else NULL) */
static int launch(const ga_cred_shape *s, void *kernel, void *part, unsigned gx, unsigned gy) {
  const ga_cred *c = s->c;
  int rc;
  if (!kernel && (rc = get_kernel(s, &kernel))) return rc;
  union { int i[(2 + 2 * GA_CRED_MAXARR) * GA_MAXDIM]; long long l[(2 + 2 * GA_CRED_MAXARR) * GA_MAXDIM]; } ix;
  int n = 0;
#define PUT(v) do { if (s->idx64) ix.l[n++] = (v); else ix.i[n++] = (int)(v); } while (0)
  for (int d = 0; d < c->ondim; d++) PUT(c->oshape[d]);
  for (int d = 0; d < c->rndim; d++) PUT(c->rshape[d]);
  for (int a = 0; a < c->narr; a++)
    for (int d = 0; d < c->ondim; d++) PUT(c->arr[a].so[d]);
  for (int a = 0; a < c->nin; a++)
    for (int d = 0; d < c->rndim; d++) PUT(c->arr[a].sr[d]);
  if (!c->nin)
    for (int d = 0; d < c->rndim; d++) PUT(0);
#undef PUT
  void *args[GA_EWK_MAXARGS + 2 + 6];
  size_t sizes[GA_EWK_MAXARGS + 2 + 6];
  int np = c->nparam;
  memcpy(args, c->param, sizeof(void *) * (size_t)np);
  memcpy(sizes, c->psize, sizeof(size_t) * (size_t)np);
  args[np] = &part;
  sizes[np++] = sizeof part;
  long long l4[4] = {c->nout, c->nred, s->nseg, s->seg};
  int i4[4] = {(int)c->nout, (int)c->nred, (int)s->nseg, (int)s->seg};
  for (int k = 0; k < 4; k++) {
    args[np] = s->idx64 ? (void *)&l4[k] : (void *)&i4[k];
    sizes[np++] = s->idx64 ? sizeof(long long) : sizeof(int);
  }
  args[np] = &ix;
  sizes[np++] = (size_t)n * (s->idx64 ? sizeof(long long) : sizeof(int));
  unsigned grid[3] = {gx, gy, 1}, block[3] = {BLOCK, 1, 1};
  return ga_cuda_enqueue3(c->device, c->stream, kernel, grid, block, 0, np, args, sizes);
}

/* A split ROW reduction: whole waves of resident blocks, so that no SM
 * idles through a partial last wave (the kernel does not depend on the
 * split: same cache entry).  Two waves for 1-4 byte elements, eight for
 * wider ones: the best of 2..12 on an H200 (float32 4430 GB/s at 2, 4330 at
 * 8; float64 4300 at 2, 4470 at 8). */
static int refine_split(ga_cred_shape *s, int nsm, void **kernel) {
  const ga_cred *c = s->c;
  int rc = get_kernel(s, kernel);   /* the split changes no field of the key: the launch's kernel */
  if (rc) return rc;
  int occ = ga_cuda_kernel_occupancy(*kernel, BLOCK, 0);
  if (occ <= 0) return GA_OK;
  int maxsz = 1;
  for (int a = 0; a < c->nin; a++)
    if (c->arr[a].itemsize > maxsz) maxsz = c->arr[a].itemsize;
  int64_t waves = maxsz >= 8 ? 8 : 2;
  int64_t per = BLOCK / s->g, want = (waves * (int64_t)occ * nsm * per + c->nout - 1) / c->nout;
  row_segments(c->nred, want, (int64_t)s->g * s->v * U * 8, s->v, &s->seg, &s->nseg);
  return GA_OK;
}

int ga_cuda_red_run(const ga_cred *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  ga_cred_shape s;
  int nsm = ga_cuda_sm_count(c->device);
  ga_cuda_red_plan(c, &s, nsm);
  void *kernel = NULL;
  if (s.kind == GA_CRED_ROW && s.nseg > 1 && (rc = refine_split(&s, nsm, &kernel))) return rc;
  ga_scratch part = {0};   /* the segments' accumulators */
  if (s.nseg > 1 &&
      (rc = ga_scratch_get(ga_cuda_pool(c->device), acc_size(c) * (size_t)(c->nout * s.nseg), c->stream, &part)))
    return rc;
  void *pp = part.ptr;
  if (s.kind == GA_CRED_COL) {
    int64_t bx = (c->nout + 32 * s.v - 1) / (32 * s.v);
    if (bx > INT32_MAX) { rc = ga_err(GA_EINVAL, "reduction too large"); goto done; }
    rc = launch(&s, kernel, pp, (unsigned)bx, (unsigned)s.nseg);
  } else {
    int64_t groups = c->nout * s.nseg, per = BLOCK / s.g, bx = (groups + per - 1) / per;
    if (bx > INT32_MAX) { rc = ga_err(GA_EINVAL, "reduction too large"); goto done; }
    rc = launch(&s, kernel, pp, (unsigned)bx, 1);
  }
  if (!rc && s.nseg > 1) {
    ga_cred_shape f;
    ga_cuda_red_fin(&s, &f);
    int64_t per = f.kind == GA_CRED_FIN_COL ? BLOCK : BLOCK / f.g, bx = (c->nout + per - 1) / per;
    rc = launch(&f, NULL, pp, (unsigned)bx, 1);
  }
done:
  ga_scratch_put(&part);
  return rc;
}
