/* ReductionKernel on host arrays: the user's map/reduce/post expressions
 * compiled as C++ by the system compiler (host/ga_host_ewk.c says why and
 * how: ga_host_jit).  One loop over the outputs in C order; for each, the
 * reduced elements are mapped and folded in order (from the identity when
 * there is one), then post-mapped into every output.  The GPU folds in a
 * tree: float results agree to rounding, not bit for bit. */
#include "host/ga_host.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include "base/ga_strbuf.h"
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_ewk[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];

static bool is_arr(const ga_redk_call *c, int a) { return c->arg[a].kind == GA_REDK_ARRAY; }

static const char *tname(const ga_redk_call *c, int a) { return ga_ewk_param_type(&c->k->e, a); }

/* The entry:
 *   void ga_redk_host(long long nout, int ond, const long long *osh,
 *                     long long nred, int rnd, const long long *rsh,
 *                     long long insize, char *const *p, const long long *so,
 *                     const long long *sr, const void *const *vals)
 * so/sr: byte strides over the kept/reduced dims, GA_MAXDIM per argument. */
char *ga_host_redk_source(const ga_redk_call *c) {
  const ga_redk *k = c->k;
  int nin = k->e.nin;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, ga_host_cxx_prelude());
  ga_sb_puts(&b, ga_kernel_ga_types);
  ga_sb_puts(&b, ga_kernel_ga_ewk);
  if (k->e.math) ga_sb_puts(&b, ga_kernel_ga_math);
  if (k->e.math > 1) ga_sb_puts(&b, ga_kernel_ga_cmath);
  ga_sb_printf(&b, "// ReductionKernel %s on the host\n", k->e.name);
  for (int t = 0; t < k->e.ntv; t++)
    ga_sb_printf(&b, "typedef %s %s;\n", ga_dtypes[c->tv_dtype[t]].cuda, k->e.tnames[t]);
  ga_sb_printf(&b, "typedef %s _type_reduce;\n", ga_dtypes[c->red_dtype].cuda);
  if (k->e.preamble[0]) ga_sb_printf(&b, "%s\n", k->e.preamble);
  if (k->identity) ga_sb_printf(&b, "static inline _type_reduce _ga_ident() {\n  return (_type_reduce)(%s);\n}\n", k->identity);
  ga_sb_puts(&b, "static inline _type_reduce _ga_map(");
  for (int a = 0; a < nin; a++) ga_sb_printf(&b, "%sconst %s %s", a ? ", " : "", tname(c, a), k->e.p[a].name);
  ga_sb_printf(&b, ") {\n  return (_type_reduce)(\n%s\n  );\n}\n", k->map_expr);
  ga_sb_printf(&b, "static inline _type_reduce _ga_red(const _type_reduce &a, const _type_reduce &b) {\n"
                   "  return (_type_reduce)(\n%s\n  );\n}\n", k->reduce_expr);
  ga_sb_puts(&b, "static inline void _ga_post(const _type_reduce &a");
  for (int a = nin; a < c->nargs; a++) ga_sb_printf(&b, ", %s &%s", tname(c, a), k->e.p[a].name);
  for (int a = 0; a < nin; a++)
    if (!is_arr(c, a)) ga_sb_printf(&b, ", const %s %s", tname(c, a), k->e.p[a].name);
  ga_sb_printf(&b, ", const ga_ind<long long> &_in_ind, const ga_ind<long long> &_out_ind) {\n"
                   "  (void)_in_ind; (void)_out_ind;\n%s\n;\n}\n", k->post_map_expr);
  ga_sb_printf(&b, "#define GA_MAXDIM %d\n", GA_MAXDIM);
  ga_sb_puts(&b, "extern \"C\" void ga_redk_host(long long _ga_nout, int _ga_ond, const long long *_ga_osh, "
                 "long long _ga_nred, int _ga_rnd, const long long *_ga_rsh, long long _ga_insize, "
                 "char *const *_ga_p, const long long *_ga_so, const long long *_ga_sr, const void *const *_ga_v) {\n"
                 "  (void)_ga_v;\n"
                 "  const ga_ind<long long> _in_ind = {_ga_insize}, _out_ind = {_ga_nout};\n");
  for (int a = 0; a < nin; a++)
    if (!is_arr(c, a)) ga_sb_printf(&b, "  const %s _ga_s%d = *(const %s *)_ga_v[%d];\n", tname(c, a), a, tname(c, a), a);
  ga_sb_printf(&b, "  long long _ga_oi[GA_MAXDIM] = {0}, _ga_oo[%d] = {0};\n", c->nargs);
  ga_sb_puts(&b, "  for (long long _ga_o = 0; _ga_o < _ga_nout; _ga_o++) {\n"
                 "    _type_reduce _ga_a;\n    memset((void *)&_ga_a, 0, sizeof _ga_a);\n");
  ga_sb_puts(&b, k->identity ? "    bool _ga_has = true;\n    _ga_a = _ga_ident();\n" : "    bool _ga_has = false;\n");
  ga_sb_printf(&b, "    long long _ga_ri[GA_MAXDIM] = {0}, _ga_ro[%d] = {0};\n", c->nargs);
  ga_sb_puts(&b, "    for (long long _ga_r = 0; _ga_r < _ga_nred; _ga_r++) {\n      const _type_reduce _ga_x = _ga_map(");
  for (int a = 0; a < nin; a++) {
    if (a) ga_sb_puts(&b, ", ");
    if (is_arr(c, a)) ga_sb_printf(&b, "*(const %s *)(_ga_p[%d] + _ga_oo[%d] + _ga_ro[%d])", tname(c, a), a, a, a);
    else ga_sb_printf(&b, "_ga_s%d", a);
  }
  ga_sb_puts(&b, ");\n      if (_ga_has) _ga_a = _ga_red(_ga_a, _ga_x); else { _ga_a = _ga_x; _ga_has = true; }\n"
                 "      for (int d = _ga_rnd - 1; d >= 0; d--) {\n");
  for (int a = 0; a < nin; a++)
    if (is_arr(c, a)) ga_sb_printf(&b, "        _ga_ro[%d] += _ga_sr[%d * GA_MAXDIM + d];\n", a, a);
  ga_sb_puts(&b, "        if (++_ga_ri[d] < _ga_rsh[d]) break;\n");
  for (int a = 0; a < nin; a++)
    if (is_arr(c, a)) ga_sb_printf(&b, "        _ga_ro[%d] -= _ga_sr[%d * GA_MAXDIM + d] * _ga_rsh[d];\n", a, a);
  ga_sb_puts(&b, "        _ga_ri[d] = 0;\n      }\n    }\n    _ga_post(_ga_a");
  for (int a = nin; a < c->nargs; a++) ga_sb_printf(&b, ", *(%s *)(_ga_p[%d] + _ga_oo[%d])", tname(c, a), a, a);
  for (int a = 0; a < nin; a++)
    if (!is_arr(c, a)) ga_sb_printf(&b, ", _ga_s%d", a);
  ga_sb_puts(&b, ", _in_ind, _out_ind);\n    for (int d = _ga_ond - 1; d >= 0; d--) {\n");
  for (int a = 0; a < c->nargs; a++)
    if (is_arr(c, a)) ga_sb_printf(&b, "      _ga_oo[%d] += _ga_so[%d * GA_MAXDIM + d];\n", a, a);
  ga_sb_puts(&b, "      if (++_ga_oi[d] < _ga_osh[d]) break;\n");
  for (int a = 0; a < c->nargs; a++)
    if (is_arr(c, a)) ga_sb_printf(&b, "      _ga_oo[%d] -= _ga_so[%d * GA_MAXDIM + d] * _ga_osh[d];\n", a, a);
  ga_sb_puts(&b, "      _ga_oi[d] = 0;\n    }\n  }\n}\n");
  char *s = ga_sb_take(&b);
  if (!s) ga_err(GA_ENOMEM, "out of memory generating kernel source");
  return s;
}

static char *redk_gen(const void *ud) { return ga_host_redk_source(ud); }

int ga_host_redk(const ga_redk_call *c) {
  if (c->nout == 0) return GA_OK;
  int kind[GA_EWK_MAXARGS], dtype[GA_EWK_MAXARGS];
  for (int a = 0; a < c->nargs; a++) kind[a] = c->arg[a].kind, dtype[a] = c->arg[a].dtype;
  uint64_t key[2];   /* c->k->hash covers the expressions and the identity */
  ga_host_jit_key(key, c->k->hash, 'R', c->nargs, kind, dtype, NULL, c->k->e.ntv, c->tv_dtype,
                  c->red_dtype | c->k->e.math << 5);
  void *fn;
  int rc = ga_host_jit(key, redk_gen, c, "ga_redk_host", c->k->e.what, c->k->e.name, &fn);
  if (rc) return rc;
  long long osh[GA_MAXDIM], rsh[GA_MAXDIM], so[GA_EWK_MAXARGS * GA_MAXDIM], sr[GA_EWK_MAXARGS * GA_MAXDIM];
  char *p[GA_EWK_MAXARGS];
  const void *v[GA_EWK_MAXARGS];
  memset(so, 0, sizeof so);
  memset(sr, 0, sizeof sr);
  for (int d = 0; d < c->ondim; d++) osh[d] = c->oshape[d];
  for (int d = 0; d < c->rndim; d++) rsh[d] = c->rshape[d];
  for (int a = 0; a < c->nargs; a++) {
    p[a] = c->arg[a].data;
    v[a] = c->arg[a].value.bytes;
    for (int d = 0; d < c->ondim; d++) so[a * GA_MAXDIM + d] = c->arg[a].so[d];
    for (int d = 0; d < c->rndim; d++) sr[a * GA_MAXDIM + d] = c->arg[a].sr[d];
  }
  typedef void (*fn_t)(long long, int, const long long *, long long, int, const long long *, long long, char *const *,
                       const long long *, const long long *, const void *const *);
  ((fn_t)fn)(c->nout, c->ondim, osh, c->nred, c->rndim, rsh, c->in_size, p, so, sr, v);
  return GA_OK;
}
