/* The elementwise kernel's source: see ga_cuda_ewgen.h. */
#include "cuda/ga_cuda_ewgen.h"
#include "cuda/ga_cuda_ewplan.h"
#include <stdio.h>
#include <string.h>

extern const char ga_kernel_ga_ew[];

void ga_ewg_ref(char *buf, size_t n, const ga_ewg *g, int k, char form) {
  const ga_ewg_arg *a = &g->a[k];
  if (a->kind == GA_EWG_BCAST) {
    /* a broadcast input is loaded once before the dense loop */
    if (a->in && form != 's') snprintf(buf, n, "_ga_b%d", k);
    else snprintf(buf, n, "_ga_p%d[0]", k);
  } else if (form == 't' && (g->staged >> k & 1)) {
    snprintf(buf, n, "_ga_t%d[tx][ty + q * GA_EW_TY]", k);
  } else if (form == 'v') {
    snprintf(buf, n, "_ga_v%d.v[_ga_j]", k);
  } else if (form == 'd') {
    snprintf(buf, n, "_ga_p%d[i]", k);
  } else {
    snprintf(buf, n, "*(%s%s *)(_ga_p%d + _ga_o%d)", a->in ? "const " : "", a->T, k, k);
  }
}

/* #define NAME followed by item(k, T) for each operand of `kind` that is
 * an input (io > 0), an output (io < 0) or either (0). */
static void list(ga_strbuf *b, const ga_ewg *g, const char *name, int kind, int io, const char *item) {
  ga_sb_printf(b, "#define %s", name);
  for (int k = 0; k < g->n; k++) {
    const ga_ewg_arg *a = &g->a[k];
    if (a->kind != kind || (io > 0 && !a->in) || (io < 0 && a->in)) continue;
    const char *it = item ? item : a->in ? "GA_EW_VLOAD" : a->vload ? "GA_EW_VLOADW" : "GA_EW_VOUT";
    ga_sb_printf(b, " %s(%d, %s)", it, k, a->T);
  }
  ga_sb_puts(b, "\n");
}

/* The tiled kernel's shape and lists (see kernels/ga_ew.cuh); every array
 * is STRIDED there. */
static void tiled(ga_strbuf *b, const ga_ewg *g) {
  bool tr = g->tile == GA_EWG_TILE_TRANSPOSE;
  int tt = 32, ty = GA_EW_BLOCK / g->tx;
  unsigned ins = 0;
  for (int k = 0; k < g->n; k++) ins |= (unsigned)g->a[k].in << k;
  ga_sb_printf(b, "#define GA_EW_TX %d\n#define GA_EW_TY %d\n#define GA_EW_TI %d\n#define GA_EW_TJ %d\n", g->tx, ty,
               tr ? tt : ty, tr ? tt : g->tx * g->r);
  ga_sb_printf(b, "#define GA_EW_TQ %d\n#define GA_EW_TRANSPOSE %d\n#define GA_EW_STAGED_IN %d\n"
               "#define GA_EW_STAGED_OUT %d\n", tr ? tt / ty : g->r, tr, (g->staged & ins) != 0, (g->staged & ~ins) != 0);
  static const struct { const char *name, *item; int which; } lists[] = {
    {"GA_EW_SMEMS", "GA_EW_SMEM", 0}, {"GA_EW_STAGE_LOADS", "GA_EW_STAGE_LOAD", 1},
    {"GA_EW_STAGE_STORES", "GA_EW_STAGE_STORE", 2}, {"GA_EW_TOFFSETS", "GA_EW_TOFFSET", 3}};
  for (int l = 0; l < 4; l++) {
    ga_sb_printf(b, "#define %s", lists[l].name);
    for (int k = 0; k < g->n; k++) {
      const ga_ewg_arg *a = &g->a[k];
      bool st = g->staged >> k & 1, arr = a->kind == GA_EWG_STRIDED;
      int w = lists[l].which;
      if (w == 0 && st) ga_sb_printf(b, " %s(%d, %s)", lists[l].item, k, a->T);
      else if ((w == 1 && st && a->in) || (w == 2 && st && !a->in))
        ga_sb_printf(b, " %s(%d, %d, %s)", lists[l].item, k, a->row, a->T);
      else if (w == 3 && arr && !st) ga_sb_printf(b, " %s(%d, %d)", lists[l].item, k, a->row);
    }
    ga_sb_puts(b, "\n");
  }
  ga_sb_puts(b, "#define GA_EW_BOFFSETS ");
  for (int k = 0; k < g->n; k++)
    if (g->a[k].kind == GA_EWG_STRIDED) ga_sb_printf(b, ", bo%d = 0", k);
  ga_sb_puts(b, "\n#define GA_EW_BOSTEPS(d)");
  for (int k = 0; k < g->n; k++)
    if (g->a[k].kind == GA_EWG_STRIDED) ga_sb_printf(b, " GA_EW_BOSTEP(%d, %d, d)", k, g->a[k].row);
  ga_sb_puts(b, "\n#define GA_EW_BSTEPS");   /* the outer dimensions: once per tile */
  for (int d = g->ndim - 3; d >= 0; d--) ga_sb_printf(b, d ? " GA_EW_BSTEP(%d)" : " GA_EW_BSTEP0", d);
  ga_sb_puts(b, "\n");
}

static void defines(ga_strbuf *b, const ga_ewg *g) {
  ga_sb_printf(b, "#define GA_IT %s\n#define GA_EW_DENSE %d\n#define GA_EW_TILED %d\n", g->idx64 ? "long long" : "int",
               g->dense, !g->dense && g->tile != GA_EWG_TILE_NONE);
  ga_sb_printf(b, "#define GA_EW_BLOCK %d\n#define GA_EW_VEC %d\n", GA_EW_BLOCK, g->vec);
  if (g->dense) {
    list(b, g, "GA_EW_BLOADS", GA_EWG_BCAST, 1, "GA_EW_BLOAD");
    list(b, g, "GA_EW_VLOADS", g->vec > 1 ? GA_EWG_CONTIG : -1, 0, NULL);
    list(b, g, "GA_EW_VSTORES", g->vec > 1 ? GA_EWG_CONTIG : -1, -1, "GA_EW_VSTORE");
    return;
  }
  ga_sb_printf(b, "#define GA_EW_NDIM %d\n", g->ndim);
  if (g->tile != GA_EWG_TILE_NONE) {
    tiled(b, g);
    return;
  }
  ga_sb_puts(b, "#define GA_EW_OFFSETS ");
  for (int k = 0; k < g->n; k++)
    if (g->a[k].kind == GA_EWG_STRIDED) ga_sb_printf(b, ", _ga_o%d = 0", k);
  ga_sb_puts(b, "\n#define GA_EW_OSTEPS(d)");
  for (int k = 0; k < g->n; k++)
    if (g->a[k].kind == GA_EWG_STRIDED) ga_sb_printf(b, " GA_EW_OSTEP(%d, %d, d)", k, g->a[k].row);
  ga_sb_puts(b, "\n#define GA_EW_DSTEPS");
  for (int d = g->ndim - 1; d >= 0; d--) ga_sb_printf(b, d ? " GA_EW_DSTEP(%d)" : " GA_EW_DSTEP0", d);
  ga_sb_puts(b, "\n");
}

/* The strided kernels' index struct (shape, then a row of strides per
 * entry of the call's index rows) and the kernel's signature. */
static void signature(ga_strbuf *b, const ga_ewg *g) {
  const char *IT = g->idx64 ? "long long" : "int";
  if (!g->dense)
    ga_sb_printf(b, "struct _ga_ix_t { %s sh[%d]; %s st[%d][%d]; };\n", IT, g->ndim, IT, g->nrows > 0 ? g->nrows : 1,
                 g->ndim);
  ga_sb_printf(b, "extern \"C\" __global__ void __launch_bounds__(%d) %s(%s _ga_n", GA_EW_BLOCK, g->name, IT);
  for (int k = 0; k < g->n; k++) {
    const ga_ewg_arg *a = &g->a[k];
    const char *cst = a->in ? "const " : "";
    if (a->kind == GA_EWG_CONTIG || a->kind == GA_EWG_BCAST) ga_sb_printf(b, ", %s%s *_ga_p%d", cst, a->T, k);
    else if (a->kind == GA_EWG_STRIDED) ga_sb_printf(b, ", %schar *_ga_p%d", cst, k);
    else g->param(b, k, g->ud);
  }
  ga_sb_puts(b, g->dense ? ") {\n" : ", const _ga_ix_t _ga_ix) {\n");
}

/* Is the //@ line `hole` needed for this shape? */
static bool wanted(const ga_ewg *g, const char *hole) {
  if (!strcmp(hole, "vbody")) return g->dense && g->vec > 1;
  if (!strcmp(hole, "dbody")) return g->dense;
  if (!strcmp(hole, "tbody")) return !g->dense && g->tile != GA_EWG_TILE_NONE;
  if (!strcmp(hole, "sbody")) return !g->dense && g->tile == GA_EWG_TILE_NONE;
  return true;
}

void ga_ewg_emit(ga_strbuf *b, const ga_ewg *g) {
  defines(b, g);
  for (const char *s = ga_kernel_ga_ew; *s;) {
    const char *e = strchr(s, '\n');
    size_t len = e ? (size_t)(e - s) + 1 : strlen(s);
    if (!strncmp(s, "//@", 3)) {
      char hole[16];
      snprintf(hole, sizeof hole, "%.*s", (int)(len - 3 - (e != NULL)), s + 3);
      if (!strcmp(hole, "signature")) signature(b, g);
      else if (wanted(g, hole)) g->fill(b, hole, g->ud);
    } else {
      ga_sb_printf(b, "%.*s", (int)len, s);
    }
    s += len;
  }
}
