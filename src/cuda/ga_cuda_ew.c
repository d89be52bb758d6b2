/* Elementwise kernels on CUDA: the structural key, the source generated from
 * an op row, and the launch.  Kernel shapes (the dense and strided loops
 * are kernels/ga_ew.cuh, shared with ElementwiseKernel through
 * ga_cuda_ewgen.h; index and vector width and grid: ga_cuda_ewplan.h):
 *  - dense (collapsed to 1-d, every operand contiguous, broadcast or scalar):
 *    each thread moves VEC consecutive elements with aligned vector accesses;
 *  - rows (n-d strided, innermost dimension >= 32): a block takes a tile of
 *    TY rows x TX*R columns of the two innermost dimensions, the innermost on
 *    threadIdx, so neighbouring threads touch neighbouring elements and no
 *    index is divided per element (only per tile, for the outer dimensions);
 *  - transpose (as rows, but some operand's fastest axis is the second
 *    innermost, e.g. ascontiguousarray(M.T)): 32x32 tiles, 32x8 threads, 4
 *    elements each; such operands go through shared memory (+1 column of
 *    padding against bank conflicts) so that both sides are read and written
 *    along their own fastest axis;
 *  - strided (anything else): grid-stride loop, index decomposed over the
 *    collapsed shape;
 *  - stepped copy (a same-dtype copy into a C-contiguous 16-byte aligned
 *    output whose input steps 2..8 elements, either way, along its
 *    innermost axis, e.g.
 *    M[::2, ::2]:copy()): kernels/ga_strided.cuh, one 16-byte output chunk
 *    per thread, its input read with wide loads and picked in registers.
 * 32-bit index arithmetic whenever every offset fits.  Before choosing, the
 * CUDA backend orders the collapsed dimensions by the first output's strides
 * (as NumPy's iterator does) unless the op reads its flat index `_i`. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_ewgen.h"
#include "cuda/ga_cuda_ewplan.h"
#include "base/ga_shape.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_strbuf.h"
#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];
extern const char ga_kernel_ga_strided[];

#define BLOCK GA_EW_BLOCK

typedef struct ew_shape {
  const ga_ew_call *c;
  int idx64;    /* 64-bit index arithmetic */
  int vec;      /* elements per thread in the dense kernel */
  int tile;     /* GA_EWG_TILE_*: the strided kernel's shape */
  int tx, r;    /* threads along the innermost dimension; elements per thread */
  unsigned staged;  /* args (bit k) that go through shared memory (transpose) */
  int step;     /* != 0: the stepped-copy kernel, the input's innermost step */
} ew_shape;

#define TT 32   /* transpose tile side; 32 x 8 threads, 4 elements each */
#define SMEM_MAX (48 * 1024)

/* The type a loop computes in: float16 in float (rounded once on store). */

/* The planner's view of the operands (ga_cuda_ewplan.h). */
static void plan_args(const ga_ew_call *c, ga_ewp_arg *pa) {
  for (int k = 0; k < c->nin + c->nout; k++) {
    const ga_ew_arg *a = &c->arg[k];
    pa[k] = (ga_ewp_arg){a->kind == GA_AK_SCALAR ? NULL : a->strides, a->data, GA_ITEMSIZE(a->dtype),
                         a->kind == GA_AK_CONTIG};
  }
}

static void make_key(const ew_shape *s, ga_kkey *key) {
  const ga_ew_call *c = s->c;
  ga_kpack p;
  if (s->step) {   /* the stepped copy: itemsize, step, ndim, index width */
    ga_kpack_init(&p, key, GA_KFAM_STRIDED_COPY);
    ga_kpack_put(&p, (uint64_t)GA_ITEMSIZE(c->arg[0].dtype), 5);
    ga_kpack_put(&p, (uint64_t)(s->step + 8), 5);
    ga_kpack_put(&p, (uint64_t)c->ndim, 6);
    ga_kpack_put(&p, (uint64_t)s->idx64, 1);
    return;
  }
  ga_kpack_init(&p, key, GA_KFAM_EW);
  ga_kpack_put(&p, (uint64_t)c->op->id, 16);
  ga_kpack_put(&p, (uint64_t)c->ndim, 6);
  ga_kpack_put(&p, (uint64_t)s->idx64, 1);
  ga_kpack_put(&p, (uint64_t)s->vec, 5);
  ga_kpack_put(&p, (uint64_t)c->dense, 1);
  ga_kpack_put(&p, (uint64_t)c->nin, 4);
  ga_kpack_put(&p, (uint64_t)c->nout, 4);
  ga_kpack_put(&p, (uint64_t)s->tile, 2);
  ga_kpack_put(&p, (uint64_t)(s->tx / 32), 4);
  ga_kpack_put(&p, (uint64_t)s->r, 3);
  ga_kpack_put(&p, (uint64_t)s->staged, GA_MAXARGS);
  for (int k = 0; k < c->nin + c->nout; k++) {
    /* the dense kernel distinguishes contiguous/broadcast; the strided one
     * only array vs scalar */
    int kind = c->arg[k].kind;
    if (!c->dense && kind != GA_AK_SCALAR) kind = GA_AK_STRIDED;
    /* one field per operand: this runs on every call */
    ga_kpack_put(&p, (uint64_t)c->arg[k].dtype | (uint64_t)c->loop_types[k] << 5 | (uint64_t)kind << 10, 12);
  }
}

/* Load the inputs, run the op's expression, store the outputs, for element
 * `elem` (the flat index _i), each operand spelled as ga_ewg_ref says. */
typedef char ew_refs[GA_MAXARGS][64];

/* The body with each argument's element spelled ref[k]. */
static void gen_body_refs(ga_strbuf *b, const ga_ew_call *c, ew_refs ref, const char *elem, const char *indent) {
  int na = c->nin + c->nout;
  for (int k = 0; k < c->nin; k++) {
    /* a float16 loop reads other dtypes through float16, as NumPy casts */
    bool via = c->loop_types[k] == GA_FLOAT16 && c->arg[k].dtype != GA_FLOAT16;
    if (c->arg[k].kind == GA_AK_SCALAR) ga_sb_printf(b, "%sin%d_t in%d = %s;\n", indent, k, k, ref[k]);
    else if (via) ga_sb_printf(b, "%sin%d_t in%d = ga_cast<in%d_mt>(%s);\n", indent, k, k, k, ref[k]);
    else ga_sb_printf(b, "%sin%d_t in%d = ga_cast<in%d_t>(%s);\n", indent, k, k, k, ref[k]);
  }
  for (int k = c->nin; k < na; k++) ga_sb_printf(b, "%sout%d_t out%d;\n", indent, k - c->nin, k - c->nin);
  ga_sb_printf(b, "%s{ long long _i = (long long)(%s); (void)_i;\n%s  %s;\n%s}\n", indent, elem, indent, c->op->expr, indent);
  for (int k = c->nin; k < na; k++) {
    int o = k - c->nin;
    if (c->loop_types[k] == GA_FLOAT16)
      ga_sb_printf(b, "%s%s = ga_cast<%s>(ga_cast<out%d_mt>(out%d));\n", indent, ref[k], ga_cu_type(c->arg[k].dtype), o, o);
    else
      ga_sb_printf(b, "%s%s = ga_cast<%s>(out%d);\n", indent, ref[k], ga_cu_type(c->arg[k].dtype), o);
  }
}

/* The body of the skeleton's loop of form 'v', 'd', 's' or 't' (ga_ewg_ref). */
static void gen_body(ga_strbuf *b, const ga_ewg *g, const ga_ew_call *c, char form, const char *elem,
                     const char *indent) {
  ew_refs ref;
  for (int k = 0; k < c->nin + c->nout; k++) {
    if (c->arg[k].kind == GA_AK_SCALAR) snprintf(ref[k], sizeof ref[k], "_ga_s%d", k);
    else ga_ewg_ref(ref[k], sizeof ref[k], g, k, form);
  }
  gen_body_refs(b, c, ref, elem, indent);
}

typedef struct ew_gen { const ew_shape *s; ga_ewg g; } ew_gen;

static void ew_param(ga_strbuf *b, int k, const void *ud) { (void)ud; ga_sb_printf(b, ", in%d_mt _ga_s%d", k, k); }

static void ew_fill(ga_strbuf *b, const char *hole, const void *ud) {
  const ew_gen *e = ud;
  if (!strcmp(hole, "vbody")) gen_body(b, &e->g, e->s->c, 'v', "i", "      ");
  else if (!strcmp(hole, "dbody")) gen_body(b, &e->g, e->s->c, 'd', "i", "    ");
  else if (!strcmp(hole, "sbody")) gen_body(b, &e->g, e->s->c, 's', "i", "    ");
  else if (!strcmp(hole, "tbody")) gen_body(b, &e->g, e->s->c, 't', "(bi * n0 + i) * n1 + j", "        ");
}

static char *gen_source(const void *ud) {
  const ew_shape *s = ud;
  const ga_ew_call *c = s->c;
  int na = c->nin + c->nout;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, ga_kernel_ga_types);
  if (s->step) {
    ga_sb_printf(&b, "\n#define GA_IT %s\n#define GA_SC_E %d\n#define GA_SC_S %d\n#define GA_SC_NDIM %d\n"
                 "#define GA_SC_BLOCK %d\n", s->idx64 ? "long long" : "int", GA_ITEMSIZE(c->arg[0].dtype), s->step,
                 c->ndim, BLOCK);
    ga_sb_puts(&b, ga_kernel_ga_strided);
    return ga_sb_take(&b);
  }
  /* the math library only where the expression calls it: it costs parse
   * time in every cold compile */
  if (strstr(c->op->expr, "ga_")) {
    ga_sb_puts(&b, ga_kernel_ga_math);
    bool cplx = false;
    for (int k = 0; k < na; k++) cplx = cplx || GA_IS_COMPLEX(c->loop_types[k]);
    if (cplx) ga_sb_puts(&b, ga_kernel_ga_cmath);
  }
  ga_sb_printf(&b, "\n// op %s\n", c->op->name);
  for (int k = 0; k < c->nin; k++)
    ga_sb_printf(&b, "typedef %s in%d_t; typedef %s in%d_mt;\n", ga_cu_compute(c->loop_types[k]), k, ga_cu_type(c->loop_types[k]), k);
  for (int k = c->nin; k < na; k++)
    ga_sb_printf(&b, "typedef %s out%d_t; typedef %s out%d_mt;\n", ga_cu_compute(c->loop_types[k]), k - c->nin,
                 ga_cu_type(c->loop_types[k]), k - c->nin);
  ew_gen e = {s, {.name = "ga_ew", .idx64 = s->idx64, .dense = c->dense, .vec = s->vec, .ndim = c->ndim,
                  .nrows = na, .n = na, .tile = s->tile, .tx = s->tx, .r = s->r, .staged = s->staged,
                  .param = ew_param, .fill = ew_fill}};
  e.g.ud = &e;
  for (int k = 0; k < na; k++) {
    /* the strided kernels address every array by byte offsets; its index
     * struct has a row per operand (zeros for a scalar) */
    int kind = c->arg[k].kind;
    e.g.a[k] = (ga_ewg_arg){kind == GA_AK_SCALAR ? GA_EWG_SCALAR : !c->dense ? GA_EWG_STRIDED
                            : kind == GA_AK_CONTIG ? GA_EWG_CONTIG : GA_EWG_BCAST,
                            ga_cu_type(c->arg[k].dtype), k < c->nin, false, k};
  }
  ga_ewg_emit(&b, &e.g);
  return ga_sb_take(&b);
}

static int64_t iabs64(int64_t v) { return v < 0 ? -v : v; }

/* Order the dimensions of a strided call by the first output's strides,
 * largest first, and merge those that became adjacent in memory: an F-order
 * copy into F-order becomes dense, and a C-order read into an F-order
 * output becomes a transpose whose staged operand is the input. */
static void reorder(ga_ew_call *c) {
  int nd = c->ndim, na = c->nin + c->nout, perm[GA_MAXDIM];
  const int64_t *o = c->arg[c->nin].strides;
  for (int d = 0; d < nd; d++) perm[d] = d;
  for (int d = 1; d < nd; d++)   /* stable insertion sort */
    for (int e = d; e > 0 && iabs64(o[perm[e - 1]]) < iabs64(o[perm[e]]); e--) {
      int t = perm[e]; perm[e] = perm[e - 1]; perm[e - 1] = t;
    }
  int64_t shape[GA_MAXDIM], st[GA_MAXARGS][GA_MAXDIM], *use[GA_MAXARGS] = {0};   /* (= {0}: for -O1 -Wmaybe-uninitialized) */
  for (int e = 0; e < nd; e++) {
    shape[e] = c->shape[perm[e]];
    for (int k = 0; k < na; k++) st[k][e] = c->arg[k].strides[perm[e]];
  }
  for (int k = 0; k < na; k++) use[k] = c->arg[k].kind == GA_AK_SCALAR ? NULL : st[k];
  int m = c->ndim = ga_collapse(nd, shape, na, use, false);
  memcpy(c->shape, shape, sizeof(int64_t) * m);
  for (int k = 0; k < na; k++) memcpy(c->arg[k].strides, st[k], sizeof(int64_t) * m);
  if (m > 1) return;
  /* 1-d: dense when every operand is contiguous (or broadcast) */
  bool dense = true;
  for (int k = 0; k < na && dense; k++)   /* (an output is never broadcast there) */
    dense = c->arg[k].kind == GA_AK_SCALAR || (c->arg[k].strides[0] == 0 && k < c->nin) ||
            c->arg[k].strides[0] == GA_ITEMSIZE(c->arg[k].dtype);
  if (!dense) return;
  for (int k = 0; k < na; k++)
    if (c->arg[k].kind != GA_AK_SCALAR)
      c->arg[k].kind = c->arg[k].strides[0] == 0 ? GA_AK_BCAST : GA_AK_CONTIG;
  c->dense = true;
}

/* Does the op's expression read the flat index `_i` (as a whole word)? */
static bool uses_flat_index(const char *e) {
  for (const char *p = e; (p = strstr(p, "_i")) != NULL; p += 2) {
    bool before = p > e && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
    bool after = isalnum((unsigned char)p[2]) || p[2] == '_';
    if (!before && !after) return true;
  }
  return false;
}

/* The stepped-copy kernel's step (kernels/ga_strided.cuh) for a strided
 * copy, or 0: the same dtype in and out (bits are moved), an itemsize of
 * 1..16 bytes, an input array stepping 2..8 elements (either way) along
 * the innermost axis with every pointer and stride a multiple of the itemsize, rows of
 * at least 64 bytes of output, and a C-contiguous output at a 16-byte
 * aligned address; GPUARRAY_STEPPED_COPY=0 turns it off (to compare).  A
 * few comparisons: this runs on every strided copy. */
static int stepped_copy_on(void) {   /* GPUARRAY_STEPPED_COPY=0: off (read once) */
  static int on = -1;
  int v = __atomic_load_n(&on, __ATOMIC_RELAXED);
  if (v < 0) {
    const char *env = getenv("GPUARRAY_STEPPED_COPY");
    v = !(env && !strcmp(env, "0"));
    __atomic_store_n(&on, v, __ATOMIC_RELAXED);
  }
  return v;
}

static int stepped_copy(const ga_ew_call *c) {
  const ga_ew_arg *in = &c->arg[0], *out = &c->arg[1];
  int nd = c->ndim;
  int64_t e = GA_ITEMSIZE(in->dtype);
  if (in->kind == GA_AK_SCALAR || out->dtype != in->dtype || c->loop_types[0] != in->dtype ||
      c->loop_types[1] != in->dtype || (e != 1 && e != 2 && e != 4 && e != 8 && e != 16) ||
      ((uintptr_t)out->data & 15) || ((uintptr_t)in->data % (uintptr_t)e))
    return 0;
  int64_t step = in->strides[nd - 1] / e;
  /* rows of at least 4 chunks: a chunk that crosses rows goes element by
   * element, one thread for 16 bytes, slower than the row kernels */
  if (in->strides[nd - 1] != step * e || step < -8 || step > 8 || (step > -2 && step < 2) ||
      c->shape[nd - 1] < 64 / e)
    return 0;
  int64_t want = e;
  for (int d = nd - 1; d >= 0; want *= c->shape[d--])   /* a C-contiguous output */
    if (c->shape[d] > 1 && (out->strides[d] != want || in->strides[d] % e)) return 0;
  return stepped_copy_on() ? (int)step : 0;
}

/* Choose the kernel shape of a call.  A strided call is planned on the
 * backend's copy *lc (reorder changes it); a dense one, the common case,
 * is used as it is. */
static void plan(const ga_ew_call *c0, ga_ew_call *lc, ew_shape *s) {
  memset(s, 0, sizeof *s);
  s->c = c0;
  s->tx = 32;   /* unused outside the tiled kernels; keeps keys canonical */
  if (!c0->dense) {
    *lc = *c0;
    if (lc->ndim > 1 && !uses_flat_index(lc->op->expr)) reorder(lc);
    s->c = lc;
  }
  const ga_ew_call *c = s->c;
  ga_ewp_arg pa[GA_MAXARGS];
  plan_args(c, pa);
  s->idx64 = ga_ewp_idx64(c->size, c->ndim, c->shape, c->nin + c->nout, pa);
  s->vec = c->dense ? ga_ewp_vec(c->nin + c->nout, pa, 16) : 1;
  if (c->dense) return;
  if (c->op->id == GA_OP_COPY && (s->step = stepped_copy(c))) return;
  if (c->ndim < 2) return;
  int nd = c->ndim, na = c->nin + c->nout, smem = 0;
  int64_t n0 = c->shape[nd - 2], n1 = c->shape[nd - 1];
  /* an operand whose fastest axis is the second innermost: read (or
   * written) along it through shared memory */
  for (int k = 0; k < na; k++) {
    const int64_t *st = c->arg[k].strides;
    if (c->arg[k].kind == GA_AK_SCALAR || st[nd - 2] == 0) continue;
    if (iabs64(st[nd - 2]) < iabs64(st[nd - 1])) {
      s->staged |= 1u << k;
      smem += TT * (TT + 1) * GA_ITEMSIZE(c->arg[k].dtype);
    }
  }
  if (s->staged && n0 >= 16 && n1 >= 16 && smem <= SMEM_MAX) {
    s->tile = GA_EWG_TILE_TRANSPOSE;
    s->r = TT / (BLOCK / TT);
    return;
  }
  s->staged = 0;
  if (n1 < 32) return;   /* short rows: the grid-stride kernel wastes fewer threads */
  s->tile = GA_EWG_TILE_ROWS;
  /* threads along a row, and elements each: at least half of a tile's
   * columns are in the row */
  s->tx = n1 >= 1024 ? 256 : n1 >= 512 ? 128 : n1 >= 256 ? 64 : 32;
  s->r = n1 >= 128 ? 4 : n1 >= 64 ? 2 : 1;
}

char *ga_cuda_ew_source(const ga_ew_call *c0) {
  ew_shape s;
  ga_ew_call lc;
  plan(c0, &lc, &s);
  return gen_source(&s);
}

/* The stepped copy's launch: (n, in, end, out, index struct), one 16-byte
 * output chunk per thread (a grid-stride loop past 2^31 - 1 blocks). */
static int sc_launch(const ew_shape *s, void *kernel) {
  const ga_ew_call *c = s->c;
  int nd = c->ndim;
  int64_t e = GA_ITEMSIZE(c->arg[0].dtype), w = 16 / e;
  union { int i[1 + 2 * GA_MAXDIM]; long long l[1 + 2 * GA_MAXDIM]; } ix;
  memset(&ix, 0, sizeof ix);
  /* n1, sh[nd] (outer sizes; the last unused), st[nd] (input byte strides) */
  for (int k = 0; k < 1 + 2 * nd; k++) {
    int64_t v = k == 0 ? c->shape[nd - 1] : k <= nd ? c->shape[k - 1] : c->arg[0].strides[k - 1 - nd];
    if (s->idx64) ix.l[k] = v; else ix.i[k] = (int)v;
  }
  int n32 = (int)c->size;
  long long n64 = c->size;
  /* one past the input's last byte: the wide loads stop short of it */
  int64_t hi = e;
  for (int d = 0; d < nd; d++)
    if (c->arg[0].strides[d] > 0) hi += (c->shape[d] - 1) * c->arg[0].strides[d];
  void *in = c->arg[0].data, *end = c->arg[0].data + hi, *out = c->arg[1].data;
  void *args[5] = {s->idx64 ? (void *)&n64 : (void *)&n32, &in, &end, &out, &ix};
  size_t sizes[5] = {s->idx64 ? sizeof n64 : sizeof n32, sizeof in, sizeof end, sizeof out,
                     (size_t)(1 + 2 * nd) * (s->idx64 ? sizeof(long long) : sizeof(int))};
  int64_t chunks = (c->size + w - 1) / w, want = (chunks + BLOCK - 1) / BLOCK;
  unsigned blocks = (unsigned)(want < INT32_MAX ? want : INT32_MAX);
  return ga_cuda_enqueue(c->device, c->stream, kernel, blocks, BLOCK, 0, 5, args, sizes);
}

int ga_cuda_ew(const ga_ew_call *c0) {
  int rc = ga_cuda_set_device(c0->device);
  if (rc) return rc;
  ew_shape s;
  ga_ew_call lc;
  plan(c0, &lc, &s);
  const ga_ew_call *c = s.c;
  ga_kkey key;
  make_key(&s, &key);
  void *kernel;
  if (s.step) {
    if ((rc = ga_cuda_kernel_get(c->device, &key, "ga_sc", gen_source, &s, &kernel))) return rc;
    return sc_launch(&s, kernel);
  }
  if ((rc = ga_cuda_kernel_get(c->device, &key, "ga_ew", gen_source, &s, &kernel))) return rc;

  int na = c->nin + c->nout, nargs = 1 + na;
  void *args[GA_MAXARGS + 2];
  size_t sizes[GA_MAXARGS + 2];
  int n32 = (int)c->size;
  long long n64 = c->size;
  args[0] = s.idx64 ? (void *)&n64 : (void *)&n32;
  sizes[0] = s.idx64 ? sizeof n64 : sizeof n32;
  void *ptrs[GA_MAXARGS];
  for (int k = 0; k < na; k++) {
    ptrs[k] = c->arg[k].data;
    int scalar = c->arg[k].kind == GA_AK_SCALAR;
    args[1 + k] = scalar ? (void *)c->arg[k].value.bytes : (void *)&ptrs[k];
    sizes[1 + k] = scalar ? (size_t)GA_ITEMSIZE(c->loop_types[k]) : sizeof(void *);
  }
  unsigned blocks;
  ga_ew_ix ix;
  if (!c->dense) {   /* the index struct: shape, then every operand's strides (scalars: 0) */
    const int64_t *rows[GA_MAXARGS];
    for (int k = 0; k < na; k++) rows[k] = c->arg[k].kind == GA_AK_SCALAR ? NULL : c->arg[k].strides;
    args[nargs] = &ix;
    sizes[nargs++] = ga_ewp_index(&ix, s.idx64, c->ndim, c->shape, na, rows);
  }
  if (s.tile != GA_EWG_TILE_NONE) {
    /* one block per tile (the kernel loops if the grid is capped) */
    int nd = c->ndim;
    int64_t ti = s.tile == GA_EWG_TILE_TRANSPOSE ? TT : BLOCK / s.tx, tj = s.tile == GA_EWG_TILE_TRANSPOSE ? TT : s.tx * s.r;
    int64_t n0 = c->shape[nd - 2], n1 = c->shape[nd - 1];
    int64_t want = (n0 + ti - 1) / ti * ((n1 + tj - 1) / tj) * (c->size / (n0 * n1));
    blocks = (unsigned)(want < INT32_MAX ? want : INT32_MAX);
  } else if ((rc = ga_ewp_blocks(c->device, c->dense, c->size, s.vec, &blocks))) {
    return rc;
  }
  return ga_cuda_enqueue(c->device, c->stream, kernel, blocks, BLOCK, 0, nargs, args, sizes);
}
