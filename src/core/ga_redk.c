/* ReductionKernel without Lua or CUDA: the parameters come from
 * ElementwiseKernel's parser and type resolution (ga_ewk.c); here the
 * reduce type, the identity's sanity, the reduction's shapes (inputs
 * broadcast together, CuPy's axis/keepdims) and the collapsing of kept and
 * reduced dimensions. */
#include "core/ga_redk.h"
#include "base/ga_diskcache.h"   /* ga_hash64 */
#include "core/ga_reduce.h"      /* ga_red_axes */
#include "base/ga_shape.h"
#include <ctype.h>
#include <string.h>

/* What can be told of the identity without types: an expression, so not
 * empty, balanced, no statement or block (it is spliced into
 * `return (_type_reduce)(IDENTITY);`). */
static int check_identity(const char *id) {
  const char *s = id;
  while (*s && isspace((unsigned char)*s)) s++;
  if (!*s) return ga_err(GA_EINVAL, "identity '%s' is empty (pass nil for a reduction without identity)", id);
  char stack[64];
  int depth = 0;
  for (s = id; *s; s++) {
    char c = *s;
    if (c == '"' || c == '\'') {   /* a literal: skip to its end */
      const char *q = s + 1;
      while (*q && *q != c) q += (q[0] == '\\' && q[1]) ? 2 : 1;
      if (!*q) return ga_err(GA_EINVAL, "identity '%s' does not parse: unterminated literal", id);
      s = q;
      continue;
    }
    if (c == ';' || c == '{' || c == '}')
      return ga_err(GA_EINVAL, "identity '%s' does not parse: '%c' in an expression (write one C expression, "
                    "e.g. \"0\" or \"-CUDART_INF_F\")", id, c);
    if (c == '(' || c == '[') {
      if (depth == (int)sizeof stack) return ga_err(GA_EINVAL, "identity '%s' is nested too deeply", id);
      stack[depth++] = c == '(' ? ')' : ']';
    } else if (c == ')' || c == ']') {
      if (depth == 0 || stack[depth - 1] != c)
        return ga_err(GA_EINVAL, "identity '%s' does not parse: unbalanced '%c'", id, c);
      depth--;
    } else if (c == '/' && (s[1] == '/' || s[1] == '*')) {
      return ga_err(GA_EINVAL, "identity '%s' does not parse: comments are not allowed in it", id);
    } else if (c == '#' || c == '\n') {
      return ga_err(GA_EINVAL, "identity '%s' does not parse: one line of C expression expected", id);
    }
  }
  if (depth) return ga_err(GA_EINVAL, "identity '%s' does not parse: unclosed '%c'", id, stack[depth - 1] == ')' ? '(' : '[');
  return GA_OK;
}

static int dtype_of(const char *t) {
  for (int i = 0; i < GA_NDTYPES; i++)
    if (!strcmp(t, ga_dtypes[i].name)) return i;
  return -1;
}

int ga_redk_init(ga_redk *k, const char *in_params, const char *out_params, const char *map_expr,
                 const char *reduce_expr, const char *post_map_expr, const char *identity, const char *name,
                 const char *reduce_type, const char *preamble, bool reduce_dims) {
  memset(k, 0, sizeof *k);
  int rc = ga_ewk_init(&k->e, in_params, out_params, map_expr, name, preamble, "", "", reduce_dims);
  if (rc) return rc;
  k->e.what = "ReductionKernel";

  int np = k->e.nin + k->e.nout;
  if (k->e.nout == 0) return ga_err(GA_EINVAL, "out_params is empty: a reduction has at least one output");
  if (k->e.nin == 0) return ga_err(GA_EINVAL, "in_params is empty: a reduction has at least one input");
  for (int a = 0; a < np; a++) {
    const ga_ewk_param *p = &k->e.p[a];
    if (p->raw)
      return ga_err(GA_EINVAL, "parameter '%s' is raw: ReductionKernel's expressions see one element of each "
                    "input (declare it without raw)", p->name);
    static const char *const reserved[] = {"a", "b", "_type_reduce", "_in_ind", "_out_ind", NULL};
    for (int r = 0; reserved[r]; r++)
      if (!strcmp(p->name, reserved[r]))
        return ga_err(GA_EINVAL, "'%s' cannot be a parameter name (reduce_expr and post_map_expr use it)", p->name);
  }
  if (identity && (rc = check_identity(identity))) return rc;
  k->map_expr = map_expr;
  k->reduce_expr = reduce_expr;
  k->post_map_expr = post_map_expr;
  k->identity = identity;
  k->red_dtype = k->red_tvar = -1;
  if (!reduce_type) {
    const ga_ewk_param *o = &k->e.p[k->e.nin];
    k->red_dtype = o->dtype;
    k->red_tvar = o->tvar;
  } else {
    k->red_dtype = dtype_of(reduce_type);
    for (int t = 0; t < k->e.ntv && k->red_dtype < 0; t++)
      if (!strcmp(k->e.tnames[t], reduce_type)) k->red_tvar = t;
    if (k->red_dtype < 0 && k->red_tvar < 0)
      return ga_err(GA_EINVAL, "reduce_type '%s' is neither a dtype name (float32, int64 ...) nor a type "
                    "placeholder of the parameters", reduce_type);
  }
  const char *texts[4] = {reduce_expr, post_map_expr, identity ? identity : "", identity ? "1" : "0"};
  for (int h = 0; h < 2; h++) {
    uint64_t x = k->e.hash[h];
    for (int t = 0; t < 4; t++) x = ga_hash64(texts[t], strlen(texts[t]) + 1, x);
    int32_t g[2] = {k->red_dtype, k->red_tvar};
    k->hash[h] = ga_hash64(g, sizeof g, x);
  }
  return GA_OK;
}

int ga_redk_prepare(const ga_redk *k, const ga_ewk_operand *ops, int nargs, int naxes, const int64_t *axes1,
                    bool keepdims, int default_device, ga_redk_plan *plan) {
  memset(plan, 0, sizeof *plan);
  int rc = ga_ewk_resolve(&k->e, ops, nargs, default_device, &plan->p);
  if (rc) return rc;
  plan->red_dtype = k->red_dtype >= 0 ? k->red_dtype : plan->p.tv_dtype[k->red_tvar];
  if (plan->red_dtype < 0)
    return ga_err(GA_ETYPE, "reduce_type %s is not fixed by any argument", k->e.tnames[k->red_tvar]);
  const ga_array *arrs[GA_EWK_MAXARGS];
  int nb = 0;
  for (int a = 0; a < k->e.nin; a++)
    if (ops[a].kind == GA_EWK_ARRAY) arrs[nb++] = ops[a].arr;
  if (!nb) return ga_err(GA_EINVAL, "no input is an array: nothing to reduce");
  if ((rc = ga_broadcast_shapes(nb, arrs, &plan->ndim, plan->shape))) return rc;
  int axes[GA_MAXDIM];
  if (naxes > plan->ndim)
    return ga_err(GA_EINVAL, "%d axes given for inputs of %d dimensions", naxes, plan->ndim);
  if (naxes >= 0 && (rc = ga_red_axes(plan->ndim, naxes, axes1, axes))) return rc;
  for (int d = 0; d < plan->ndim; d++) plan->reduced[d] = naxes < 0;
  for (int j = 0; j < naxes; j++) plan->reduced[axes[j]] = true;
  plan->nred = plan->nout = 1;
  for (int d = 0; d < plan->ndim; d++) {
    if (plan->reduced[d]) {
      plan->nred *= plan->shape[d];
      if (keepdims) plan->out_shape[plan->out_ndim++] = 1;
    } else {
      plan->nout *= plan->shape[d];
      plan->out_shape[plan->out_ndim++] = plan->shape[d];
    }
  }
  char s1[512], s2[512];
  for (int a = k->e.nin; a < nargs; a++) {
    const ga_array *o = ops[a].arr;
    if (o->ndim != plan->out_ndim || memcmp(o->shape, plan->out_shape, sizeof(int64_t) * o->ndim))
      return ga_err(GA_EINVAL, "output #%d (%s) has shape %s but the reduction's output has shape %s", a + 1,
                    k->e.p[a].name, ga_shape_str(o->ndim, o->shape, s1, sizeof s1),
                    ga_shape_str(plan->out_ndim, plan->out_shape, s2, sizeof s2));
  }
  if (plan->nred == 0 && !k->identity)   /* even for an empty result, as NumPy */
    return ga_err(GA_EINVAL, "zero-size array to reduction operation %s which has no identity", k->e.name);
  return GA_OK;
}

int ga_redk_build(const ga_redk *k, const ga_redk_plan *plan, const ga_ewk_operand *ops, ga_array *const *outs,
                  void *stream, ga_redk_call *c) {
  memset(c, 0, sizeof *c);
  int nin = k->e.nin, np = nin + k->e.nout;
  for (int o = 0; o < k->e.nout; o++)
    if (ga_check_writable(outs[o])) return ga_errcode();
  c->k = k;
  c->nargs = np;
  c->device = plan->p.device;
  c->stream = stream;
  c->red_dtype = plan->red_dtype;
  memcpy(c->tv_dtype, plan->p.tv_dtype, sizeof(int) * k->e.ntv);
  c->nout = plan->nout;
  c->nred = plan->nred;
  c->in_size = plan->nout * plan->nred;
  if (c->nout == 0) return GA_OK;
  int64_t bst[GA_EWK_MAXARGS][GA_MAXDIM];   /* strides over the broadcast shape */
  bool in_use[GA_EWK_MAXARGS] = {false}, all_use[GA_EWK_MAXARGS] = {false};
  for (int a = 0; a < np; a++) {
    ga_redk_arg *g = &c->arg[a];
    g->dtype = plan->p.dtype[a];
    if (a < nin && ops[a].kind != GA_EWK_ARRAY) {
      g->kind = GA_REDK_SCALAR;
      if (ops[a].kind == GA_EWK_FLOAT) ga_scalar_from_double(&g->value, g->dtype, ops[a].f);
      else ga_scalar_from_int(&g->value, g->dtype, ops[a].i);
      continue;
    }
    g->kind = GA_REDK_ARRAY;
    all_use[a] = true;
    if (a < nin) {
      in_use[a] = true;
      g->data = GA_DATA(ops[a].arr);
      ga_broadcast_strides(ops[a].arr, plan->ndim, plan->shape, bst[a]);
    } else {
      const ga_array *o = outs[a - nin];
      g->data = GA_DATA(o);
      bool keep = o->ndim == plan->ndim;   /* keepdims: one output axis per input axis */
      for (int d = 0, od = 0; d < plan->ndim; d++) {
        if (plan->reduced[d]) { bst[a][d] = 0; od += keep; }
        else bst[a][d] = o->strides[od++];
      }
    }
  }
  /* split the axes straight into the call; length-1 ones change no offset */
  int nk = 0, nr = 0;
  for (int d = 0; d < plan->ndim; d++) {
    if (plan->shape[d] == 1) continue;
    if (plan->reduced[d]) {
      c->rshape[nr] = plan->shape[d];
      for (int a = 0; a < nin; a++) if (in_use[a]) c->arg[a].sr[nr] = bst[a][d];
      nr++;
    } else {
      c->oshape[nk] = plan->shape[d];
      for (int a = 0; a < np; a++) if (all_use[a]) c->arg[a].so[nk] = bst[a][d];
      nk++;
    }
  }
  /* merge where every array walks two axes as one (outputs have no
   * reduced axes) */
  int64_t *so[GA_EWK_MAXARGS], *sr[GA_EWK_MAXARGS];
  for (int a = 0; a < np; a++) {
    so[a] = all_use[a] ? c->arg[a].so : NULL;
    sr[a] = in_use[a] ? c->arg[a].sr : NULL;
  }
  c->ondim = ga_collapse(nk, c->oshape, np, so, false);
  c->rndim = ga_collapse(nr, c->rshape, nin, sr, false);
  if (c->nred == 0) {
    c->rndim = 1;
    c->rshape[0] = 0;
    for (int a = 0; a < nin; a++) c->arg[a].sr[0] = 0;
  }
  return GA_OK;
}
