/* Elementwise kernels on CUDA: the structural key, the source generated from
 * an op row, and the launch.  Two kernel shapes:
 *  - dense (collapsed to 1-d, every operand contiguous, broadcast or scalar):
 *    each thread moves VEC consecutive elements with aligned vector accesses;
 *  - strided (any layout): grid-stride loop, index decomposed over the
 *    collapsed shape, 32-bit arithmetic whenever every offset fits. */
#include "ga_cuda_internal.h"
#include "ga_cuda_kernel.h"
#include "ga_cuda_queue.h"
#include "ga_strbuf.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];

#define BLOCK 256

typedef struct ew_shape {
  const ga_ew_call *c;
  int idx64;    /* 64-bit index arithmetic */
  int vec;      /* elements per thread in the dense kernel */
} ew_shape;

static const char *cu(int dt) { return ga_dtypes[dt].cuda; }
/* The type a loop computes in: float16 in float (rounded once on store). */
static const char *cu_compute(int dt) { return dt == GA_FLOAT16 ? "float" : cu(dt); }

/* Does every byte offset of the call fit in a signed 32-bit int? */
/* Margin below 2^31 so that `base + VEC` in the dense kernel and `i +=
 * stride` in the grid-stride loop cannot overflow a 32-bit index. */
#define IDX32_LIMIT ((int64_t)INT32_MAX - (1 << 22))

static int needs_idx64(const ga_ew_call *c) {
  if (c->size >= IDX32_LIMIT) return 1;
  for (int k = 0; k < c->nin + c->nout; k++) {
    int64_t span = GA_ITEMSIZE(c->arg[k].dtype);
    for (int d = 0; d < c->ndim; d++) {
      int64_t s = c->arg[k].strides[d];
      span += (c->shape[d] - 1) * (s < 0 ? -s : s);
    }
    if (span >= IDX32_LIMIT) return 1;
  }
  return 0;
}

/* Elements per thread for the dense kernel: 16 bytes of the widest operand,
 * if every contiguous pointer is aligned for it. */
static int pick_vec(const ga_ew_call *c) {
  int maxsz = 1;
  for (int k = 0; k < c->nin + c->nout; k++)
    if (c->arg[k].kind == GA_AK_CONTIG && GA_ITEMSIZE(c->arg[k].dtype) > maxsz)
      maxsz = GA_ITEMSIZE(c->arg[k].dtype);
  int vec = 16 / maxsz;
  if (vec < 1) vec = 1;
  for (int k = 0; k < c->nin + c->nout && vec > 1; k++)
    if (c->arg[k].kind == GA_AK_CONTIG &&
        ((uintptr_t)c->arg[k].data % ((uintptr_t)vec * GA_ITEMSIZE(c->arg[k].dtype))) != 0)
      vec = 1;
  return vec;
}

static void make_key(const ew_shape *s, ga_kkey *key) {
  const ga_ew_call *c = s->c;
  memset(key, 0, sizeof *key);
  key->w[0] = (uint64_t)c->op->id | (uint64_t)c->ndim << 16 | (uint64_t)s->idx64 << 24 |
              (uint64_t)s->vec << 25 | (uint64_t)c->dense << 31 | (uint64_t)c->nin << 32 |
              (uint64_t)c->nout << 36 | 1ull << 40 /* kind: elementwise op row */;
  for (int k = 0; k < c->nin + c->nout; k++) {
    /* the dense kernel distinguishes contiguous/broadcast; the strided one
     * only array vs scalar */
    int kind = c->arg[k].kind;
    if (!c->dense && kind != GA_AK_SCALAR) kind = GA_AK_STRIDED;
    uint64_t f = (uint64_t)c->arg[k].dtype | (uint64_t)c->loop_types[k] << 5 | (uint64_t)kind << 10;
    key->w[1 + k / 5] |= f << (12 * (k % 5));
  }
}

/* Load the inputs, run the op's expression, store the outputs, for element
 * `elem`.  Dense kernels index contiguous operands with p<k>[elem], or, in
 * the vector path (vec), use the registers v<k>.v[j] loaded beforehand;
 * strided kernels use the byte offsets o<k>. */
static void gen_body(ga_strbuf *b, const ga_ew_call *c, const char *elem, int vec, const char *indent) {
  int na = c->nin + c->nout;
  char ref[GA_MAXARGS][64];
  for (int k = 0; k < na; k++) {
    const ga_ew_arg *a = &c->arg[k];
    if (a->kind == GA_AK_SCALAR) snprintf(ref[k], sizeof ref[k], "s%d", k);
    else if (c->dense && a->kind == GA_AK_BCAST) snprintf(ref[k], sizeof ref[k], k < c->nin ? "b%d" : "p%d[0]", k);
    else if (c->dense && vec) snprintf(ref[k], sizeof ref[k], "v%d.v[j]", k);
    else if (c->dense) snprintf(ref[k], sizeof ref[k], "p%d[%s]", k, elem);
    else snprintf(ref[k], sizeof ref[k], "*(%s%s *)(p%d + o%d)", k < c->nin ? "const " : "", cu(a->dtype), k, k);
  }
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
      ga_sb_printf(b, "%s%s = ga_cast<%s>(ga_cast<out%d_mt>(out%d));\n", indent, ref[k], cu(c->arg[k].dtype), o, o);
    else
      ga_sb_printf(b, "%s%s = ga_cast<%s>(out%d);\n", indent, ref[k], cu(c->arg[k].dtype), o);
  }
}

static char *gen_source(const void *ud) {
  const ew_shape *s = ud;
  const ga_ew_call *c = s->c;
  int na = c->nin + c->nout;
  const char *IT = s->idx64 ? "long long" : "int";
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, ga_kernel_ga_types);
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
    ga_sb_printf(&b, "typedef %s in%d_t; typedef %s in%d_mt;\n", cu_compute(c->loop_types[k]), k, cu(c->loop_types[k]), k);
  for (int k = c->nin; k < na; k++)
    ga_sb_printf(&b, "typedef %s out%d_t; typedef %s out%d_mt;\n", cu_compute(c->loop_types[k]), k - c->nin,
                 cu(c->loop_types[k]), k - c->nin);
  if (!c->dense) ga_sb_printf(&b, "struct ga_ix { %s shape[%d]; %s st[%d][%d]; };\n", IT, c->ndim, IT, na, c->ndim);
  ga_sb_printf(&b, "extern \"C\" __global__ void __launch_bounds__(%d) ga_ew(%s n", BLOCK, IT);
  for (int k = 0; k < na; k++) {
    const ga_ew_arg *a = &c->arg[k];
    const char *cst = k < c->nin ? "const " : "";
    if (a->kind == GA_AK_SCALAR) ga_sb_printf(&b, ", in%d_mt s%d", k, k);
    else if (c->dense) ga_sb_printf(&b, ", %s%s *p%d", cst, cu(a->dtype), k);
    else ga_sb_printf(&b, ", %schar *p%d", cst, k);
  }
  if (!c->dense) ga_sb_puts(&b, ", const ga_ix ix");
  ga_sb_puts(&b, ") {\n");
  if (c->dense) {
    for (int k = 0; k < c->nin; k++)
      if (c->arg[k].kind == GA_AK_BCAST) ga_sb_printf(&b, "  const %s b%d = p%d[0];\n", cu(c->arg[k].dtype), k, k);
    ga_sb_printf(&b, "  const %s base = ((%s)blockIdx.x * %d + threadIdx.x) * %d;\n", IT, IT, BLOCK, s->vec);
    if (s->vec > 1) {
      ga_sb_printf(&b, "  if (base + %d <= n) {\n", s->vec);
      for (int k = 0; k < na; k++) {
        const ga_ew_arg *a = &c->arg[k];
        if (a->kind != GA_AK_CONTIG) continue;
        if (k < c->nin)
          ga_sb_printf(&b, "    const ga_vec<%s, %d> v%d = *(const ga_vec<%s, %d> *)(p%d + base);\n",
                       cu(a->dtype), s->vec, k, cu(a->dtype), s->vec, k);
        else
          ga_sb_printf(&b, "    ga_vec<%s, %d> v%d;\n", cu(a->dtype), s->vec, k);
      }
      ga_sb_printf(&b, "#pragma unroll\n    for (int j = 0; j < %d; j++) {\n", s->vec);
      gen_body(&b, c, "base + j", 1, "      ");
      ga_sb_puts(&b, "    }\n");
      for (int k = c->nin; k < na; k++)
        if (c->arg[k].kind == GA_AK_CONTIG)
          ga_sb_printf(&b, "    *(ga_vec<%s, %d> *)(p%d + base) = v%d;\n", cu(c->arg[k].dtype), s->vec, k, k);
      ga_sb_puts(&b, "    return;\n  }\n");
    }
    ga_sb_printf(&b, "  for (%s e = base; e < n && e < base + %d; e++) {\n", IT, s->vec);
    gen_body(&b, c, "e", 0, "    ");
    ga_sb_puts(&b, "  }\n}\n");
  } else {
    ga_sb_printf(&b, "  for (%s i = (%s)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (%s)gridDim.x * blockDim.x) {\n", IT, IT, IT);
    ga_sb_printf(&b, "    %s r = i", IT);
    for (int k = 0; k < na; k++) if (c->arg[k].kind != GA_AK_SCALAR) ga_sb_printf(&b, ", o%d = 0", k);
    ga_sb_printf(&b, ";\n#pragma unroll\n    for (int d = %d; d >= 0; d--) {\n", c->ndim - 1);
    ga_sb_printf(&b, "      %s q = r / ix.shape[d], x = r - q * ix.shape[d];\n      r = q;\n", IT);
    for (int k = 0; k < na; k++) if (c->arg[k].kind != GA_AK_SCALAR) ga_sb_printf(&b, "      o%d += x * ix.st[%d][d];\n", k, k);
    ga_sb_puts(&b, "    }\n");
    gen_body(&b, c, "i", 0, "    ");
    ga_sb_puts(&b, "  }\n}\n");
  }
  return ga_sb_take(&b);
}

char *ga_cuda_ew_source(const ga_ew_call *c) {
  ew_shape s = {c, needs_idx64(c), c->dense ? pick_vec(c) : 1};
  return gen_source(&s);
}

int ga_cuda_ew(const ga_ew_call *c) {
  int rc = ga_cuda_set_device(c->device);
  if (rc) return rc;
  ew_shape s = {c, needs_idx64(c), c->dense ? pick_vec(c) : 1};
  ga_kkey key;
  make_key(&s, &key);
  void *kernel;
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
  /* the strided kernel's index struct: shape[ndim], then st[na][ndim] */
  union { int i[(GA_MAXARGS + 1) * GA_MAXDIM]; long long l[(GA_MAXARGS + 1) * GA_MAXDIM]; } ix;
  unsigned blocks;
  if (c->dense) {
    int64_t per = (int64_t)BLOCK * s.vec;
    blocks = (unsigned)((c->size + per - 1) / per);
  } else {
    int nd = c->ndim;
    for (int d = 0; d < nd; d++) {
      if (s.idx64) ix.l[d] = c->shape[d]; else ix.i[d] = (int)c->shape[d];
      for (int k = 0; k < na; k++) {
        int64_t st = c->arg[k].kind == GA_AK_SCALAR ? 0 : c->arg[k].strides[d];
        if (s.idx64) ix.l[nd + k * nd + d] = st; else ix.i[nd + k * nd + d] = (int)st;
      }
    }
    args[nargs] = &ix;
    sizes[nargs++] = (size_t)(1 + na) * nd * (s.idx64 ? sizeof(long long) : sizeof(int));
    const ga_device_props *p = ga_cuda_props(c->device);
    int64_t want = (c->size + BLOCK - 1) / BLOCK, cap = (int64_t)(p ? p->multiprocessors : 132) * 16;
    blocks = (unsigned)(want < cap ? want : cap);
  }
  return ga_cuda_enqueue(c->device, c->stream, kernel, blocks, BLOCK, 0, nargs, args, sizes);
}
