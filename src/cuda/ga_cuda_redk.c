/* ReductionKernel on CUDA: the built-in reductions' kernel shapes
 * (ga_cuda_reduce.c), generalised to several inputs and outputs and to the
 * user's map/reduce/post expressions:
 *  - ROW: a group of G threads per output (or per segment of a long one);
 *    when the reduced dimension is contiguous in every input (or constant
 *    along it), U steps of 16-byte vector loads in flight per thread;
 *  - COL: the kept innermost dimension contiguous in every input: 32 x 8
 *    threads, x over V consecutive outputs (vector loads along the row), y
 *    over the reduced positions, combined through shared memory;
 *  - split reductions write partial accumulators and a second kernel
 *    (FIN_ROW: a warp per output, FIN_COL: a thread per output) combines
 *    them and post-maps.
 * Combining trees are fixed for a call and device: the same bits every run.
 * The accumulator is acc_s {_type_reduce v; long long i;} so that the
 * group-combining code of ga_cuda_reduce.c serves both (i is unused here);
 * warp shuffles move it word by word (any reduce type). */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_diskcache.h"
#include "cuda/ga_cuda_red.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_ewk[];
extern const char ga_kernel_ga_redk[];

#define BLOCK 256
#define U 4                /* loads in flight per thread and step */
#define CTY (BLOCK / 32)   /* COL: threads along the reduced axis */
#define IDX32_LIMIT ((int64_t)INT32_MAX - (1 << 22))
enum { K_ROW, K_COL, K_FIN_ROW, K_FIN_COL };

typedef struct rk_shape {
  const ga_redk_call *c;
  int kind, g, v, contig, idx64;
  int64_t nseg, seg;
} rk_shape;

static int64_t iabs64(int64_t v) { return v < 0 ? -v : v; }
static bool is_arr(const ga_redk_call *c, int a) { return c->arg[a].kind == GA_REDK_ARRAY; }
static int isz(const ga_redk_call *c, int a) { return GA_ITEMSIZE(c->arg[a].dtype); }
static size_t acc_size(const ga_redk_call *c) { return ((size_t)GA_ITEMSIZE(c->red_dtype) + 7) / 8 * 8 + 8; }

/* the C type name a parameter is declared with */
static const char *tname(const ga_redk_call *c, int a) {
  const ga_ewk_param *p = &c->k->e.p[a];
  if (p->dtype >= 0) return p->dtype == GA_BOOL ? "bool" : ga_dtypes[p->dtype].name;
  return c->k->e.tnames[p->tvar];
}

static int needs_idx64(const ga_redk_call *c) {
  if (c->nout * (c->nred > 0 ? c->nred : 1) >= IDX32_LIMIT || (int64_t)acc_size(c) * c->nout * 1024 >= IDX32_LIMIT)
    return 1;
  for (int a = 0; a < c->nargs; a++) {
    if (!is_arr(c, a)) continue;
    int64_t span = isz(c, a);
    for (int d = 0; d < c->ondim; d++) span += (c->oshape[d] - 1) * iabs64(c->arg[a].so[d]);
    if (a < c->k->e.nin)
      for (int d = 0; d < c->rndim; d++) span += (c->rshape[d] > 0 ? c->rshape[d] - 1 : 0) * iabs64(c->arg[a].sr[d]);
    if (span >= IDX32_LIMIT) return 1;
  }
  return 0;
}

static void plan(const ga_redk_call *c, rk_shape *s, int nsm) {
  memset(s, 0, sizeof *s);
  s->c = c;
  s->idx64 = needs_idx64(c);
  s->v = 1;
  s->nseg = 1;
  s->seg = c->nred > 0 ? c->nred : 1;
  int nin = c->k->e.nin, last = c->ondim - 1, maxsz = 1;
  bool rcontig = c->rndim == 1, ocontig = true, any = false;
  for (int a = 0; a < nin; a++) {
    if (!is_arr(c, a)) continue;
    if (isz(c, a) > maxsz) maxsz = isz(c, a);
    int64_t sr = c->arg[a].sr[0];
    rcontig = rcontig && (sr == 0 || sr == isz(c, a));
    any = any || sr == isz(c, a);
    ocontig = ocontig && c->arg[a].so[last] == isz(c, a);
  }
  rcontig = rcontig && any;
  if (c->nout >= 32 && c->oshape[last] >= 32 && ocontig && !rcontig && c->nred > 0) {
    s->kind = K_COL;
    int v = 16 / maxsz > 4 ? 4 : 16 / maxsz;
    bool ok = c->oshape[last] % v == 0;
    for (int a = 0; a < nin && ok; a++) {
      if (!is_arr(c, a)) continue;
      int64_t al = (int64_t)v * isz(c, a);
      ok = (uintptr_t)c->arg[a].data % (uintptr_t)al == 0;
      for (int d = 0; d < last && ok; d++) ok = c->arg[a].so[d] % al == 0;
      for (int d = 0; d < c->rndim && ok; d++) ok = c->arg[a].sr[d] % al == 0;
    }
    s->v = ok ? v : 1;
    ga_cuda_red_col_split(c->nout, c->nred, s->v, nsm, &s->seg, &s->nseg);
    return;
  }
  s->kind = K_ROW;
  int64_t n = c->nred;
  s->g = n >= 2048 ? 256 : n >= 512 ? 128 : n >= 128 ? 64 : n >= 16 ? 32 : 1;
  if (rcontig && s->g > 1) {
    int v = 16 / maxsz;
    bool ok = n >= (int64_t)s->g * v;
    for (int a = 0; a < nin && ok; a++) {
      if (!is_arr(c, a) || c->arg[a].sr[0] == 0) continue;
      int64_t al = (int64_t)v * isz(c, a);
      ok = (uintptr_t)c->arg[a].data % (uintptr_t)al == 0;
      for (int d = 0; d < c->ondim && ok; d++) ok = c->arg[a].so[d] % al == 0;
    }
    if (ok && v > 1) { s->v = v; s->contig = 1; }
  }
  ga_cuda_red_split(n, c->nout * s->g, s->g, s->v, nsm, &s->seg, &s->nseg);   /* as the built-in reductions */
}

/* ---- source ---- */

static void gen_prelude(ga_strbuf *b, const ga_redk_call *c) {
  const ga_redk *k = c->k;
  int nin = k->e.nin;
  ga_sb_puts(b, ga_kernel_ga_types);
  ga_sb_puts(b, ga_kernel_ga_ewk);
  ga_sb_printf(b, "// ReductionKernel %s\n", k->e.name);
  for (int t = 0; t < k->e.ntv; t++) ga_sb_printf(b, "typedef %s %s;\n", ga_dtypes[c->tv_dtype[t]].cuda, k->e.tnames[t]);
  ga_sb_printf(b, "typedef %s _type_reduce;\n", ga_dtypes[c->red_dtype].cuda);
  if (k->e.preamble[0]) { ga_sb_puts(b, k->e.preamble); ga_sb_puts(b, "\n"); }
  ga_sb_puts(b, "struct acc_s { _type_reduce v; long long i; };\n");
  if (k->identity)   /* on a line of its own: a compile error there is blamed on it */
    ga_sb_printf(b, "__device__ __forceinline__ _type_reduce _ga_ident() {\n  return (_type_reduce)(%s); // _ga_identity\n}\n",
                 k->identity);
  ga_sb_puts(b, "__device__ __forceinline__ _type_reduce _ga_map(");
  for (int a = 0; a < nin; a++) ga_sb_printf(b, "%sconst %s %s", a ? ", " : "", tname(c, a), k->e.p[a].name);
  ga_sb_printf(b, ") {\n  return (_type_reduce)(\n%s\n  );\n}\n", k->map_expr);
  ga_sb_printf(b, "__device__ __forceinline__ _type_reduce _ga_red(const _type_reduce &a, const _type_reduce &b) {\n"
               "  return (_type_reduce)(\n%s\n  );\n}\n", k->reduce_expr);
  ga_sb_puts(b, "__device__ __forceinline__ void _ga_post(const _type_reduce &a");
  for (int a = nin; a < c->nargs; a++) ga_sb_printf(b, ", %s &%s", tname(c, a), k->e.p[a].name);
  for (int a = 0; a < nin; a++)
    if (!is_arr(c, a)) ga_sb_printf(b, ", const %s %s", tname(c, a), k->e.p[a].name);
  ga_sb_printf(b, ", const ga_ind<long long> &_in_ind, const ga_ind<long long> &_out_ind) {\n"
               "  (void)_in_ind; (void)_out_ind;\n%s\n;\n}\n", k->post_map_expr);
  ga_sb_puts(b, ga_kernel_ga_redk);
}

/* the index struct: kept and reduced shapes, every array's strides */
static void gen_ix(ga_strbuf *b, const ga_redk_call *c, const char *IT) {
  int na = 0, ni = 0;
  for (int a = 0; a < c->nargs; a++)
    if (is_arr(c, a)) { na++; ni += a < c->k->e.nin; }
  ga_sb_printf(b, "struct _ga_rx { %s oshape[%d], rshape[%d], so[%d][%d], sr[%d][%d]; };\n", IT, c->ondim,
               c->rndim, na, c->ondim, ni > 0 ? ni : 1, c->rndim);
}

/* row of array a in ix.so / ix.sr */
static int so_row(const ga_redk_call *c, int a) {
  int j = 0;
  for (int x = 0; x < a; x++) j += is_arr(c, x);
  return j;
}

/* _ga_o<a>: byte offset of kept position `o` for every array */
static void gen_odecomp(ga_strbuf *b, const ga_redk_call *c, const char *IT, const char *o, const char *ind) {
  for (int a = 0; a < c->nargs; a++)
    if (is_arr(c, a)) ga_sb_printf(b, "%s%s _ga_o%d = 0;\n", ind, IT, a);
  ga_sb_printf(b, "%s{ %s q = %s;\n", ind, IT, o);
  for (int d = c->ondim - 1; d >= 0; d--) {
    if (d > 0) ga_sb_printf(b, "%s  { %s t = q / ix.oshape[%d], x = q - t * ix.oshape[%d]; q = t;", ind, IT, d, d);
    else ga_sb_printf(b, "%s  { %s x = q;", ind, IT);
    for (int a = 0; a < c->nargs; a++)
      if (is_arr(c, a)) ga_sb_printf(b, " _ga_o%d += x * ix.so[%d][%d];", a, so_row(c, a), d);
    ga_sb_puts(b, " }\n");
  }
  ga_sb_printf(b, "%s}\n", ind);
}

/* _ga_r<a>: byte offset of reduced position `r` for every array input */
static void gen_rdecomp(ga_strbuf *b, const ga_redk_call *c, const char *IT, const char *r, const char *ind) {
  int nin = c->k->e.nin;
  for (int a = 0; a < nin; a++)
    if (is_arr(c, a)) ga_sb_printf(b, "%s%s _ga_r%d = 0;\n", ind, IT, a);
  ga_sb_printf(b, "%s{ %s q = %s;\n", ind, IT, r);
  for (int d = c->rndim - 1; d >= 0; d--) {
    if (d > 0) ga_sb_printf(b, "%s  { %s t = q / ix.rshape[%d], x = q - t * ix.rshape[%d]; q = t;", ind, IT, d, d);
    else ga_sb_printf(b, "%s  { %s x = q;", ind, IT);
    for (int a = 0; a < nin; a++)
      if (is_arr(c, a)) ga_sb_printf(b, " _ga_r%d += x * ix.sr[%d][%d];", a, so_row(c, a), d);
    ga_sb_puts(b, " }\n");
  }
  ga_sb_printf(b, "%s}\n", ind);
}

/* _ga_map(...) with each array input's value given by fmt ("%d" = a, "%s" = its type) */
typedef enum { V_STRIDED, V_VEC, V_TAIL } vform;

static void gen_map_call(ga_strbuf *b, const rk_shape *s, vform f, const char *acc, const char *has) {
  const ga_redk_call *c = s->c;
  ga_sb_printf(b, "r_fold(%s, %s, _ga_map(", acc, has);
  for (int a = 0; a < c->k->e.nin; a++) {
    if (a) ga_sb_puts(b, ", ");
    const char *T = tname(c, a);
    if (!is_arr(c, a)) { ga_sb_puts(b, c->k->e.p[a].name); continue; }
    bool hoisted = s->kind == K_ROW && s->contig && c->arg[a].sr[0] == 0;
    if (hoisted) ga_sb_printf(b, "_ga_h%d", a);
    else if (f == V_VEC) ga_sb_printf(b, "_ga_w%d[u].v[k]", a);
    else if (f == V_TAIL) ga_sb_printf(b, "((const %s *)(_ga_p%d + _ga_o%d))[t]", T, a, a);
    else ga_sb_printf(b, "*(const %s *)(_ga_p%d + _ga_o%d + _ga_r%d)", T, a, a, a);
  }
  ga_sb_puts(b, "));\n");
}

/* post-map the accumulator `acc` into every output; `extra`: a byte
 * offset added to each output's (COL's k-th output) or "" */
static void gen_store(ga_strbuf *b, const ga_redk_call *c, const char *acc, bool col, const char *ind) {
  int nin = c->k->e.nin;
  ga_sb_printf(b, "%s_ga_post(%s.v", ind, acc);
  for (int a = nin; a < c->nargs; a++) {
    if (col) ga_sb_printf(b, ", *(%s *)(_ga_p%d + _ga_o%d + k * ix.so[%d][%d])", tname(c, a), a, a, so_row(c, a), c->ondim - 1);
    else ga_sb_printf(b, ", *(%s *)(_ga_p%d + _ga_o%d)", tname(c, a), a, a);
  }
  for (int a = 0; a < nin; a++)
    if (!is_arr(c, a)) ga_sb_printf(b, ", %s", c->k->e.p[a].name);
  ga_sb_puts(b, ", _in_ind, _out_ind);\n");
}

static void gen_signature(ga_strbuf *b, const ga_redk_call *c, const char *IT) {
  const ga_redk *k = c->k;
  ga_sb_printf(b, "extern \"C\" __global__ void __launch_bounds__(%d) %s(", BLOCK, k->e.name);
  for (int a = 0; a < c->nargs; a++) {
    if (is_arr(c, a)) ga_sb_printf(b, "%s *_ga_p%d, ", a < k->e.nin ? "const char" : "char", a);
    else ga_sb_printf(b, "const %s %s, ", tname(c, a), k->e.p[a].name);
  }
  ga_sb_printf(b, "acc_s *_ga_part, %s nout, %s nred, %s nseg, %s seg, long long _ga_insize, const _ga_rx ix) {\n",
               IT, IT, IT, IT);
  ga_sb_puts(b, "  const ga_ind<long long> _in_ind = {_ga_insize}, _out_ind = {(long long)nout};\n"
                "  (void)_ga_part; (void)nred; (void)seg;\n");
}

static const char *acc_init(const ga_redk_call *c) {
  return c->k->identity ? "acc_s a; a.i = 0; a.v = _ga_ident(); bool has = true;" : "acc_s a; a.i = 0; bool has = false;";
}

static void gen_row(ga_strbuf *b, const rk_shape *s, const char *IT) {
  const ga_redk_call *c = s->c;
  int g = s->g, v = s->v, nin = c->k->e.nin;
  ga_sb_printf(b, "  const int lane = threadIdx.x %% %d, grp = threadIdx.x / %d;\n", g, g);
  ga_sb_printf(b, "  const %s gid = (%s)blockIdx.x * %d + grp;\n", IT, IT, BLOCK / g);
  ga_sb_puts(b, "  const bool active = gid < nout * nseg;\n");
  ga_sb_printf(b, "  const %s o = active ? gid / nseg : 0, sg = gid - o * nseg;\n", IT);
  gen_odecomp(b, c, IT, "o", "  ");
  ga_sb_printf(b, "  const %s r0 = sg * seg, r1 = r0 + seg < nred ? r0 + seg : nred;\n", IT);
  ga_sb_printf(b, "  %s\n  if (active) {\n", acc_init(c));
  if (s->contig) {
    for (int a = 0; a < nin; a++)
      if (is_arr(c, a) && c->arg[a].sr[0] == 0)
        ga_sb_printf(b, "    const %s _ga_h%d = *(const %s *)(_ga_p%d + _ga_o%d);\n", tname(c, a), a, tname(c, a), a, a);
    ga_sb_printf(b, "    %s r = r0 + (%s)lane * %d;\n", IT, IT, v);
    ga_sb_printf(b, "    for (; r + %d <= r1; r += %d) {\n", (U - 1) * g * v + v, U * g * v);
    for (int a = 0; a < nin; a++)
      if (is_arr(c, a) && c->arg[a].sr[0] != 0) {
        const char *T = tname(c, a);
        ga_sb_printf(b, "      ga_vec<%s, %d> _ga_w%d[%d];\n", T, v, a, U);
        ga_sb_printf(b, "#pragma unroll\n      for (int u = 0; u < %d; u++) _ga_w%d[u] = *(const ga_vec<%s, %d> *)"
                     "((const %s *)(_ga_p%d + _ga_o%d) + r + u * %d);\n", U, a, T, v, T, a, a, g * v);
      }
    ga_sb_printf(b, "#pragma unroll\n      for (int u = 0; u < %d; u++)\n#pragma unroll\n        for (int k = 0; k < %d; k++) ", U, v);
    gen_map_call(b, s, V_VEC, "a", "has");
    ga_sb_puts(b, "    }\n");
    ga_sb_printf(b, "    for (; r + %d <= r1; r += %d) {\n", v, g * v);
    for (int a = 0; a < nin; a++)
      if (is_arr(c, a) && c->arg[a].sr[0] != 0) {
        const char *T = tname(c, a);
        ga_sb_printf(b, "      ga_vec<%s, %d> _ga_w%d[1];\n      _ga_w%d[0] = *(const ga_vec<%s, %d> *)((const %s *)(_ga_p%d + _ga_o%d) + r);\n",
                     T, v, a, a, T, v, T, a, a);
      }
    ga_sb_printf(b, "      const int u = 0;\n#pragma unroll\n      for (int k = 0; k < %d; k++) ", v);
    gen_map_call(b, s, V_VEC, "a", "has");
    ga_sb_puts(b, "    }\n");
    ga_sb_printf(b, "    for (%s t = r; t < r1 && t < r + %d; t++) ", IT, v);
    gen_map_call(b, s, V_TAIL, "a", "has");
  } else {
    ga_sb_printf(b, "#pragma unroll 4\n    for (%s r = r0 + lane; r < r1; r += %d) {\n", IT, g);
    gen_rdecomp(b, c, IT, "r", "      ");
    ga_sb_puts(b, "      ");
    gen_map_call(b, s, V_STRIDED, "a", "has");
    ga_sb_puts(b, "    }\n");
  }
  ga_sb_puts(b, "  }\n");
  ga_cuda_red_group_combine(b, g);
  ga_sb_puts(b, "  if (lane == 0 && active) {\n    if (nseg == 1) {\n");
  gen_store(b, c, "a", false, "      ");
  ga_sb_puts(b, "    } else _ga_part[gid] = a;\n  }\n");
}

static void gen_col(ga_strbuf *b, const rk_shape *s, const char *IT) {
  const ga_redk_call *c = s->c;
  int v = s->v, nin = c->k->e.nin;
  ga_sb_puts(b, "  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;\n");
  ga_sb_printf(b, "  const %s o0 = ((%s)blockIdx.x * 32 + tx) * %d, sg = blockIdx.y;\n", IT, IT, v);
  ga_sb_puts(b, "  const bool active = o0 < nout;\n");
  gen_odecomp(b, c, IT, "(active ? o0 : 0)", "  ");
  ga_sb_printf(b, "  const %s r0 = sg * seg, r1 = r0 + seg < nred ? r0 + seg : nred;\n", IT);
  ga_sb_printf(b, "  acc_s acc[%d]; bool hs[%d];\n", v, v);
  ga_sb_printf(b, "#pragma unroll\n  for (int k = 0; k < %d; k++) { acc[k].i = 0; hs[k] = %s; %s }\n", v,
               c->k->identity ? "true" : "false", c->k->identity ? "acc[k].v = _ga_ident();" : "");
  ga_sb_printf(b, "  if (active) {\n    %s r = r0 + ty;\n", IT);
  ga_sb_printf(b, "    for (; r + %d < r1; r += %d) {\n", (U - 1) * CTY, U * CTY);
  for (int a = 0; a < nin; a++)
    if (is_arr(c, a)) ga_sb_printf(b, "      ga_vec<%s, %d> _ga_w%d[%d];\n", tname(c, a), v, a, U);
  ga_sb_printf(b, "#pragma unroll\n      for (int u = 0; u < %d; u++) {\n", U);
  char rr[64];
  snprintf(rr, sizeof rr, "(r + u * %d)", CTY);
  gen_rdecomp(b, c, IT, rr, "        ");
  for (int a = 0; a < nin; a++)
    if (is_arr(c, a))
      ga_sb_printf(b, "        _ga_w%d[u] = *(const ga_vec<%s, %d> *)(_ga_p%d + _ga_o%d + _ga_r%d);\n", a, tname(c, a), v, a, a, a);
  ga_sb_printf(b, "      }\n#pragma unroll\n      for (int u = 0; u < %d; u++)\n#pragma unroll\n        for (int k = 0; k < %d; k++) ", U, v);
  gen_map_call(b, s, V_VEC, "acc[k]", "hs[k]");
  ga_sb_printf(b, "    }\n    for (; r < r1; r += %d) {\n", CTY);
  gen_rdecomp(b, c, IT, "r", "      ");
  for (int a = 0; a < nin; a++)
    if (is_arr(c, a))
      ga_sb_printf(b, "      ga_vec<%s, %d> _ga_w%d[1];\n      _ga_w%d[0] = *(const ga_vec<%s, %d> *)(_ga_p%d + _ga_o%d + _ga_r%d);\n",
                   tname(c, a), v, a, a, tname(c, a), v, a, a, a);
  ga_sb_printf(b, "      const int u = 0;\n#pragma unroll\n      for (int k = 0; k < %d; k++) ", v);
  gen_map_call(b, s, V_VEC, "acc[k]", "hs[k]");
  ga_sb_puts(b, "    }\n  }\n");
  ga_cuda_red_col_combine(b, v, "acc", "hs");
  ga_sb_puts(b, "  if (ty == 0 && active) {\n");
  ga_sb_printf(b, "#pragma unroll\n    for (int k = 0; k < %d; k++) {\n", v);
  ga_sb_printf(b, "      const acc_s x = sa[threadIdx.x * %d + k];\n      if (nseg == 1) {\n", v);
  gen_store(b, c, "x", true, "        ");
  ga_sb_puts(b, "      } else _ga_part[sg * nout + o0 + k] = x;\n    }\n  }\n");
}

static void gen_fin(ga_strbuf *b, const rk_shape *s, const char *IT) {
  const ga_redk_call *c = s->c;
  if (s->kind == K_FIN_COL) {
    ga_sb_printf(b, "  const %s o = (%s)blockIdx.x * %d + threadIdx.x;\n  if (o >= nout) return;\n", IT, IT, BLOCK);
    ga_sb_printf(b, "  acc_s a = _ga_part[o];\n  for (%s k = 1; k < nseg; k++) a.v = _ga_red(a.v, _ga_part[k * nout + o].v);\n", IT);
    gen_odecomp(b, c, IT, "o", "  ");
    gen_store(b, c, "a", false, "  ");
    return;
  }
  ga_sb_puts(b, "  const int lane = threadIdx.x % 32, grp = threadIdx.x / 32;\n");
  ga_sb_printf(b, "  const %s o = (%s)blockIdx.x * %d + grp;\n  if (o >= nout) return;\n", IT, IT, BLOCK / 32);
  ga_sb_puts(b, "  acc_s a; a.i = 0; bool has = false;\n");
  ga_sb_printf(b, "  for (%s k = lane; k < nseg; k += 32) r_comb(a, has, _ga_part[o * nseg + k], true);\n", IT);
  ga_cuda_red_group_combine(b, 32);
  gen_odecomp(b, c, IT, "o", "  ");
  ga_sb_puts(b, "  if (lane == 0) {\n");
  gen_store(b, c, "a", false, "    ");
  ga_sb_puts(b, "  }\n");
}

static char *gen_source(const void *ud) {
  const rk_shape *s = ud;
  const char *IT = s->idx64 ? "long long" : "int";
  ga_strbuf b;
  ga_sb_init(&b);
  gen_prelude(&b, s->c);
  gen_ix(&b, s->c, IT);
  gen_signature(&b, s->c, IT);
  switch (s->kind) {
  case K_ROW: gen_row(&b, s, IT); break;
  case K_COL: gen_col(&b, s, IT); break;
  default: gen_fin(&b, s, IT); break;
  }
  ga_sb_puts(&b, "}\n");
  return ga_sb_take(&b);
}

/* Key: the kernel's text hash plus everything about the call that changes
 * the source. */
static void make_key(const rk_shape *s, ga_kkey *key) {
  const ga_redk_call *c = s->c;
  const ga_redk *k = c->k;
  unsigned char d[GA_EWK_MAXARGS * 3 + GA_EWK_MAXARGS + 1];
  size_t n = 0;
  for (int a = 0; a < c->nargs; a++) {
    d[n++] = (unsigned char)c->arg[a].kind;
    d[n++] = (unsigned char)c->arg[a].dtype;
    d[n++] = (unsigned char)(a < k->e.nin && is_arr(c, a) && c->arg[a].sr[0] == 0);   /* hoisted in ROW contig */
  }
  for (int t = 0; t < k->e.ntv; t++) d[n++] = (unsigned char)c->tv_dtype[t];
  d[n++] = (unsigned char)c->red_dtype;
  memset(key, 0, sizeof *key);
  key->w[0] = 0x52444Bull << 40 /* "RDK" */ | (uint64_t)s->kind | (uint64_t)s->idx64 << 3 |
              (uint64_t)c->ondim << 4 | (uint64_t)c->rndim << 10 | (uint64_t)s->contig << 16 |
              (uint64_t)s->v << 17 | (uint64_t)s->g << 22 | (uint64_t)c->nargs << 32;
  key->w[1] = k->hash[0];
  key->w[2] = ga_hash64(d, n, k->hash[1]);
  key->w[3] = ga_hash64(d, n, k->hash[0] ^ 0x5bd1e9955bd1e995ULL);
}

static void fin_shape(const rk_shape *s, rk_shape *f) {
  *f = *s;
  f->kind = s->kind == K_COL ? K_FIN_COL : K_FIN_ROW;
  f->g = 32;
  f->v = 1;
  f->contig = 0;
}

char *ga_cuda_redk_source(const ga_redk_call *c, int second, int nsm) {
  rk_shape s, f;
  plan(c, &s, nsm);
  if (second) {
    if (s.nseg == 1) { ga_err(GA_EINVAL, "this call has no combining kernel (not split)"); return NULL; }
    fin_shape(&s, &f);
  }
  char *src = gen_source(second ? &f : &s);
  if (!src) ga_err(GA_ENOMEM, "out of memory generating kernel source");
  return src;
}

const char *ga_cuda_redk_blame(const char *source, const char *log) {
  const char *m = strstr(source, " // _ga_identity\n");
  if (!m || !log) return NULL;
  int line = 1;
  for (const char *p = source; p < m; p++) line += *p == '\n';
  char pat[32];
  snprintf(pat, sizeof pat, "(%d): error", line);
  const char *e = strstr(log, "): error");   /* the first error */
  const char *hit = strstr(log, pat);
  return hit && hit + strlen(pat) - strlen("): error") == e ? "identity" : NULL;
}

static int launch(const rk_shape *s, void *part, unsigned gx, unsigned gy) {
  const ga_redk_call *c = s->c;
  ga_kkey key;
  make_key(s, &key);
  void *kernel;
  int rc = ga_cuda_kernel_get(c->device, &key, c->k->e.name, gen_source, s, &kernel);
  if (rc) return rc;
  /* the index struct, as gen_ix lays it out */
  union { int i[(2 + 2 * GA_EWK_MAXARGS) * GA_MAXDIM]; long long l[(2 + 2 * GA_EWK_MAXARGS) * GA_MAXDIM]; } ix;
  int n = 0, nin = c->k->e.nin, ni = 0;
#define PUT(v) do { if (s->idx64) ix.l[n++] = (v); else ix.i[n++] = (int)(v); } while (0)
  for (int d = 0; d < c->ondim; d++) PUT(c->oshape[d]);
  for (int d = 0; d < c->rndim; d++) PUT(c->rshape[d]);
  for (int a = 0; a < c->nargs; a++)
    if (is_arr(c, a)) {
      for (int d = 0; d < c->ondim; d++) PUT(c->arg[a].so[d]);
      ni += a < nin;
    }
  for (int a = 0; a < nin; a++)
    if (is_arr(c, a))
      for (int d = 0; d < c->rndim; d++) PUT(c->arg[a].sr[d]);
  if (!ni)
    for (int d = 0; d < c->rndim; d++) PUT(0);
#undef PUT
  void *args[GA_EWK_MAXARGS + 8];
  size_t sizes[GA_EWK_MAXARGS + 8];
  void *ptrs[GA_EWK_MAXARGS];
  int np = 0;
  for (int a = 0; a < c->nargs; a++) {
    if (is_arr(c, a)) {
      ptrs[a] = c->arg[a].data;
      args[np] = &ptrs[a];
      sizes[np++] = sizeof(void *);
    } else {
      args[np] = (void *)c->arg[a].value.bytes;
      sizes[np++] = (size_t)GA_ITEMSIZE(c->arg[a].dtype);
    }
  }
  args[np] = &part;
  sizes[np++] = sizeof part;
  long long l4[4] = {c->nout, c->nred, s->nseg, s->seg};
  int i4[4] = {(int)c->nout, (int)c->nred, (int)s->nseg, (int)s->seg};
  for (int j = 0; j < 4; j++) {
    args[np] = s->idx64 ? (void *)&l4[j] : (void *)&i4[j];
    sizes[np++] = s->idx64 ? sizeof(long long) : sizeof(int);
  }
  long long insize = c->in_size;
  args[np] = &insize;
  sizes[np++] = sizeof insize;
  args[np] = &ix;
  sizes[np++] = (size_t)n * (s->idx64 ? sizeof(long long) : sizeof(int));
  unsigned grid[3] = {gx, gy, 1}, block[3] = {BLOCK, 1, 1};
  return ga_cuda_enqueue3(c->device, c->stream, kernel, grid, block, 0, np, args, sizes);
}

static int sms(int dev) {
  const ga_device_props *p = ga_cuda_props(dev);
  return p && p->multiprocessors > 0 ? p->multiprocessors : 132;
}

int ga_cuda_redk(const ga_redk_call *c) {
  if (c->nout == 0) return GA_OK;
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  rk_shape s;
  plan(c, &s, sms(c->device));
  ga_buffer *part = NULL;
  if (s.nseg > 1 && (rc = ga_buffer_new(c->device, acc_size(c) * (size_t)(c->nout * s.nseg), c->stream, &part)))
    return rc;
  void *pp = part ? part->ptr : NULL;
  if (s.kind == K_COL) {
    int64_t bx = (c->nout + 32 * s.v - 1) / (32 * s.v);
    if (bx > INT32_MAX) { rc = ga_err(GA_EINVAL, "reduction too large"); goto done; }
    rc = launch(&s, pp, (unsigned)bx, (unsigned)s.nseg);
  } else {
    int64_t groups = c->nout * s.nseg, per = BLOCK / s.g, bx = (groups + per - 1) / per;
    if (bx > INT32_MAX) { rc = ga_err(GA_EINVAL, "reduction too large"); goto done; }
    rc = launch(&s, pp, (unsigned)bx, 1);
  }
  if (!rc && s.nseg > 1) {
    rk_shape f;
    fin_shape(&s, &f);
    int64_t per = f.kind == K_FIN_COL ? BLOCK : BLOCK / 32, bx = (c->nout + per - 1) / per;
    rc = launch(&f, pp, (unsigned)bx, 1);
  }
done:
  if (part) ga_buffer_decref(part);
  return rc;
}
