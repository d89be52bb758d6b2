/* ElementwiseKernel without Lua or CUDA: parsing CuPy's parameter language,
 * resolving placeholder types the way CuPy's _decide_params_type does
 * (outputs first, then inputs; arrays must match typed parameters exactly),
 * broadcasting the non-raw arrays (outputs included, as CuPy), and
 * collapsing the loop's dimensions like the built-in elementwise ops. */
#include "core/ga_ewk.h"
#include "base/ga_diskcache.h"   /* ga_hash64 */
#include "base/ga_shape.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ---- parameter lists ---- */

static bool is_ident(const char *s, size_t n) {
  if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (size_t i = 1; i < n; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return false;
  return true;
}

/* Type words that are not dtype names: NumPy aliases ("float" is float64
 * to NumPy but float32 to C) and C type keywords.  Refused, so that a
 * declaration never means something else than it reads. */
static const char *const c_type_words[] = {
  "char", "short", "int", "long", "unsigned", "signed", "float", "double", "void", "auto",
  "half", "size_t", "ptrdiff_t", "const", "raw", "volatile", "struct", NULL};

static bool is_c_type_word(const char *t) {
  for (int i = 0; c_type_words[i]; i++)
    if (!strcmp(t, c_type_words[i])) return true;
  return false;
}

static int canonical_dtype(const char *t) {
  for (int i = 0; i < GA_NDTYPES; i++)
    if (!strcmp(t, ga_dtypes[i].name)) return i;
  return -1;
}

#define DTYPE_LIST "bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float32, " \
                   "float64, complex64, complex128"

static int add_tvar(ga_ewk *k, const char *t) {
  for (int i = 0; i < k->ntv; i++)
    if (!strcmp(k->tnames[i], t)) return i;
  snprintf(k->tnames[k->ntv], GA_EWK_NAMELEN, "%s", t);
  return k->ntv++;
}

/* One "[raw] [const] TYPE NAME" (text s, length n) into k->p[idx]. */
static int parse_param(ga_ewk *k, const char *what, const char *s, size_t n, int idx, bool out) {
  const char *tok[8];
  size_t len[8];
  int nt = 0;
  for (size_t i = 0; i < n;) {
    while (i < n && isspace((unsigned char)s[i])) i++;
    if (i >= n) break;
    size_t j = i;
    while (j < n && !isspace((unsigned char)s[j])) j++;
    if (nt == 8) return ga_err(GA_EINVAL, "%s: too many words in parameter '%.*s'", what, (int)n, s);
    tok[nt] = s + i;
    len[nt++] = j - i;
    i = j;
  }
  if (nt == 0) return ga_err(GA_EINVAL, "%s: empty parameter (a stray comma?)", what);
  if (nt == 1)
    return ga_err(GA_EINVAL, "%s: parameter '%.*s' needs a type and a name (e.g. 'float32 x' or 'T x')",
                  what, (int)len[0], tok[0]);
  for (int t = 0; t < nt; t++)
    if (!is_ident(tok[t], len[t]))
      return ga_err(GA_EINVAL, "%s: '%.*s' in parameter '%.*s' is not a name (write [raw] TYPE NAME)",
                    what, (int)len[t], tok[t], (int)n, s);
  ga_ewk_param *p = &k->p[idx];
  memset(p, 0, sizeof *p);
  p->out = out;
  for (int t = 0; t < nt - 2; t++) {
    if (len[t] == 3 && !memcmp(tok[t], "raw", 3)) p->raw = true;
    else if (len[t] == 5 && !memcmp(tok[t], "const", 5)) { /* inputs are const already */ }
    else
      return ga_err(GA_EINVAL, "%s: unknown keyword '%.*s' in parameter '%.*s' (known: raw, const)",
                    what, (int)len[t], tok[t], (int)n, s);
  }
  const char *ty = tok[nt - 2], *nm = tok[nt - 1];
  size_t tl = len[nt - 2], nl = len[nt - 1];
  if (tl >= GA_EWK_NAMELEN || nl >= GA_EWK_NAMELEN)
    return ga_err(GA_EINVAL, "%s: names are limited to %d characters", what, GA_EWK_NAMELEN - 1);
  char type[GA_EWK_NAMELEN];
  memcpy(type, ty, tl);
  type[tl] = 0;
  memcpy(p->name, nm, nl);
  p->name[nl] = 0;
  p->dtype = canonical_dtype(type);
  p->tvar = -1;
  if (p->dtype < 0) {
    /* one letter is always a placeholder (CuPy); other words must not be
     * dtype aliases or C type words */
    if (tl > 1 && (ga_dtype_from_name(type) >= 0 || is_c_type_word(type)))
      return ga_err(GA_EINVAL, "%s: type '%s' of parameter '%s' is not a dtype name; write one of "
                    DTYPE_LIST " (or a placeholder such as T)", what, type, p->name);
    if (!strcmp(type, "i") || !strcmp(type, "_ind") || !strncmp(type, "_ga_", 4))
      return ga_err(GA_EINVAL, "%s: '%s' cannot be a type placeholder (reserved name)", what, type);
    p->tvar = add_tvar(k, type);
  }
  return GA_OK;
}

static int parse_list(ga_ewk *k, const char *what, const char *s, bool out, int *count) {
  *count = 0;
  const char *q = s;
  while (*q && isspace((unsigned char)*q)) q++;
  if (!*q) return GA_OK;   /* no parameters */
  for (const char *p = s;;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    int idx = k->nin + *count;
    if (idx >= GA_EWK_MAXARGS)
      return ga_err(GA_EINVAL, "at most %d parameters (inputs and outputs together)", GA_EWK_MAXARGS);
    int rc = parse_param(k, what, p, n, idx, out);
    if (rc) return rc;
    (*count)++;
    if (!e) break;
    p = e + 1;
  }
  return GA_OK;
}

static bool mentions(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *p = text; (p = strstr(p, name)); p += n) {
    bool before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
    bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
    if (!before && !after) return true;
  }
  return false;
}

int ga_ewk_init(ga_ewk *k, const char *in_params, const char *out_params, const char *operation,
                const char *name, const char *preamble, const char *loop_prep, const char *after_loop,
                bool reduce_dims) {
  memset(k, 0, sizeof *k);
  if (!is_ident(name, strlen(name)) || strlen(name) >= GA_EWK_NAMELEN)
    return ga_err(GA_EINVAL, "invalid kernel name '%s' (a C identifier of at most %d characters)", name,
                  GA_EWK_NAMELEN - 1);
  int rc, n;
  if ((rc = parse_list(k, "in_params", in_params, false, &n))) return rc;
  k->nin = n;
  if ((rc = parse_list(k, "out_params", out_params, true, &n))) return rc;
  k->nout = n;
  int np = k->nin + k->nout;
  for (int a = 0; a < np; a++) {
    const char *nm = k->p[a].name;
    if (!strcmp(nm, "i")) return ga_err(GA_EINVAL, "'i' cannot be a parameter name (it is the loop index)");
    if (!strcmp(nm, "_ind") || !strncmp(nm, "_ga_", 4))
      return ga_err(GA_EINVAL, "'%s' cannot be a parameter name (reserved)", nm);
    if (canonical_dtype(nm) >= 0 || is_c_type_word(nm))
      return ga_err(GA_EINVAL, "'%s' cannot be a parameter name (it is a type name)", nm);
    if (!strcmp(nm, name)) return ga_err(GA_EINVAL, "parameter '%s' has the kernel's own name", nm);
    for (int t = 0; t < k->ntv; t++)
      if (!strcmp(nm, k->tnames[t]))
        return ga_err(GA_EINVAL, "'%s' is both a type placeholder and a parameter name", nm);
    for (int b = 0; b < a; b++)
      if (!strcmp(nm, k->p[b].name)) return ga_err(GA_EINVAL, "parameter name '%s' is used twice", nm);
  }
  k->what = "ElementwiseKernel";
  k->name = name;
  k->operation = operation;
  k->preamble = preamble;
  k->loop_prep = loop_prep;
  k->after_loop = after_loop;
  k->reduce_dims = reduce_dims;
  k->host_ok = true;
  /* a macro of the preamble or loop_prep could read an output behind the
   * operation's back: any mention there counts as a read */
  for (int a = k->nin; a < np; a++)
    k->p[a].write_first = !k->p[a].raw && ga_ewk_write_first(operation, k->p[a].name) &&
                          !mentions(preamble, k->p[a].name) && !mentions(loop_prep, k->p[a].name);
  /* raw inputs are plain pointers in the kernel: which may be written
   * (a read-only array is refused there); any mention in the preamble
   * (a macro) counts as a write */
  for (int a = 0; a < k->nin; a++)
    k->p[a].may_write = k->p[a].raw && (ga_ewk_may_write(operation, k->p[a].name) ||
                                        ga_ewk_may_write(loop_prep, k->p[a].name) ||
                                        ga_ewk_may_write(after_loop, k->p[a].name) ||
                                        mentions(preamble, k->p[a].name));

  /* two independent hashes of what the generated source depends on */
  const char *texts[5] = {name, operation, preamble, loop_prep, after_loop};
  for (int h = 0; h < 2; h++) {
    uint64_t x = h ? 0x9e3779b97f4a7c15ULL : GA_HASH_SEED;
    for (int t = 0; t < 5; t++) x = ga_hash64(texts[t], strlen(texts[t]) + 1, x);
    for (int a = 0; a < np; a++) {
      const ga_ewk_param *p = &k->p[a];
      x = ga_hash64(p->name, strlen(p->name) + 1, x);
      int32_t f[5] = {p->dtype, p->tvar, p->raw, p->out, p->write_first};
      x = ga_hash64(f, sizeof f, x);
    }
    for (int t = 0; t < k->ntv; t++) x = ga_hash64(k->tnames[t], strlen(k->tnames[t]) + 1, x);
    int32_t g[3] = {k->nin, k->nout, k->ntv};
    k->hash[h] = ga_hash64(g, sizeof g, x);
  }
  return GA_OK;
}

void ga_ewk_set_math(ga_ewk *k, int math, uint64_t *extra) {
  k->math = math;
  for (int h = 0; h < 2; h++) {
    int32_t m = math;
    k->hash[h] = ga_hash64(&m, sizeof m, k->hash[h]);
    if (extra) extra[h] = ga_hash64(&m, sizeof m, extra[h]);
  }
}

/* ---- write-first analysis: a small C lexer ---- */

typedef struct lexer { const char *s; const char *tok; size_t len; bool pp; } lexer;

/* Next token into l->tok/len (len 0 at the end).  Comments, string and
 * character literals are skipped; a preprocessor line sets l->pp. */
static void next(lexer *l) {
  const char *s = l->s;
  for (;;) {
    while (*s && isspace((unsigned char)*s)) s++;
    if (s[0] == '/' && s[1] == '/') { while (*s && *s != '\n') s++; continue; }
    if (s[0] == '/' && s[1] == '*') {
      const char *e = strstr(s + 2, "*/");
      s = e ? e + 2 : s + strlen(s);
      continue;
    }
    if (*s == '#') { l->pp = true; while (*s && *s != '\n') s++; continue; }
    if (*s == '"' || *s == '\'') {
      char q = *s++;
      while (*s && *s != q) s += (s[0] == '\\' && s[1]) ? 2 : 1;
      if (*s) s++;
      l->tok = "\"";   /* a literal: an operand like any other */
      l->len = 1;
      l->s = s;
      return;
    }
    break;
  }
  l->tok = s;
  if (!*s) { l->len = 0; l->s = s; return; }
  size_t n = 1;
  if (isalnum((unsigned char)*s) || *s == '_' || *s == '.') {
    while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
  } else {
    static const char *const ops[] = {"<<=", ">>=", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=",
                                      "&=", "|=", "^=", "->", "::", "++", "--", "&&", "||", "<<", ">>", NULL};
    for (int i = 0; ops[i]; i++)
      if (!strncmp(s, ops[i], strlen(ops[i]))) { n = strlen(ops[i]); break; }
  }
  l->len = n;
  l->s = s + n;
}

static bool tok_is(const lexer *l, const char *t) { return l->len == strlen(t) && !memcmp(l->tok, t, l->len); }

bool ga_ewk_write_first(const char *op, const char *name) {
  lexer l = {op, NULL, 0, false};
  int depth = 0;
  bool boundary = true;   /* the previous token ends a statement (or there is none) */
  size_t nl = strlen(name);
  for (next(&l); l.len; next(&l)) {
    if (l.len == nl && !memcmp(l.tok, name, nl)) {
      if (!boundary || depth != 0 || l.pp) return false;
      next(&l);
      if (!tok_is(&l, "=")) return false;
      /* the right-hand side, to the end of the statement, must not use it */
      int d = 0;
      for (next(&l); l.len && !(d == 0 && tok_is(&l, ";")); next(&l)) {
        if (l.len == nl && !memcmp(l.tok, name, nl)) return false;
        if (tok_is(&l, "(") || tok_is(&l, "[") || tok_is(&l, "{")) d++;
        else if (tok_is(&l, ")") || tok_is(&l, "]") || tok_is(&l, "}")) d--;
      }
      return !l.pp;
    }
    if (tok_is(&l, "(") || tok_is(&l, "[") || tok_is(&l, "{")) depth++;
    else if (tok_is(&l, ")") || tok_is(&l, "]") || tok_is(&l, "}")) depth--;
    boundary = depth == 0 && (tok_is(&l, ";") || tok_is(&l, "}"));
  }
  return false;   /* never assigned: its old value must survive */
}

static bool tok_ends_operand(const lexer *l) {
  if (!l->len) return false;
  char c = l->tok[0];
  return isalnum((unsigned char)c) || c == '_' || c == '"' || tok_is(l, ")") || tok_is(l, "]");
}

static bool tok_assigns(const lexer *l) {
  static const char *const as[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--",
                                   NULL};
  for (int i = 0; as[i]; i++)
    if (tok_is(l, as[i])) return true;
  return false;
}

bool ga_ewk_may_write(const char *text, const char *name) {
  if (!text || !*text) return false;
  lexer l = {text, NULL, 0, false};
  lexer p1 = {0}, p2 = {0};   /* the two tokens before */
  size_t nl = strlen(name);
  for (next(&l); l.len; p2 = p1, p1 = l, next(&l)) {
    if (l.len != nl || memcmp(l.tok, name, nl)) continue;
    if (p1.len && (tok_is(&p1, "->") || tok_is(&p1, "::"))) continue;   /* a member of that name */
    if (p1.len && (tok_is(&p1, "++") || tok_is(&p1, "--"))) return true;
    if (p1.len && tok_is(&p1, "&") && !tok_ends_operand(&p2)) return true;   /* &x[i]: its address */
    lexer q = l;
    next(&q);
    if (q.len == 5 && !memcmp(q.tok, ".size", 5)) continue;
    if (!tok_is(&q, "[")) return true;   /* passed whole, or used otherwise */
    for (;;) {   /* past the matching ] (and any further [..]) */
      int d = 0;
      do {
        if (tok_is(&q, "[") || tok_is(&q, "(")) d++;
        else if (tok_is(&q, "]") || tok_is(&q, ")")) d--;
        next(&q);
      } while (q.len && d > 0);
      if (!tok_is(&q, "[")) break;
    }
    if (tok_assigns(&q) || (q.len && q.tok[0] == '.') || tok_is(&q, "->")) return true;
    /* alone as a function argument: f(x[i]) may bind a reference */
    if ((tok_is(&q, ")") || tok_is(&q, ",")) &&
        (tok_is(&p1, ",") || (tok_is(&p1, "(") && p2.len && (isalnum((unsigned char)p2.tok[0]) || p2.tok[0] == '_') &&
                              !tok_is(&p2, "if") && !tok_is(&p2, "while") && !tok_is(&p2, "switch") &&
                              !tok_is(&p2, "return") && !tok_is(&p2, "sizeof"))))
      return true;
  }
  return l.pp && mentions(text, name);   /* a macro line could write it */
}

/* The parameters of the __global__ function `name` in src (RawKernel's
 * read-only check), by the same lexer: count (-1: no such declaration),
 * whether each (up to max) is a pointer to const (`const` at the top level
 * between its last `*` and the `*` before it, or its start), and where
 * each one's text is (starts/ends into src, may be NULL). */
int ga_ewk_param_consts(const char *src, const char *name, unsigned char *isconst, int max, size_t *starts,
                        size_t *ends) {
  lexer l = {src, NULL, 0, false};
  bool global = false;   /* __global__ seen since the last ; { } */
  for (next(&l); l.len; next(&l)) {
    if (tok_is(&l, ";") || tok_is(&l, "{") || tok_is(&l, "}")) global = false;
    else if (tok_is(&l, "__global__")) global = true;
    if (!global || !tok_is(&l, name)) continue;
    lexer q = l;
    next(&q);
    if (!tok_is(&q, "(")) continue;
    /* the list, split at top-level commas; "()" and "(void)" have none */
    int depth = 0, np = 0, ntok = 0;
    bool seg_const = false, star_const = false, star = false, only_void = false;
    const char *ps = NULL, *pe = NULL;
    for (next(&q); q.len; next(&q)) {
      if (depth == 0 && (tok_is(&q, ",") || tok_is(&q, ")"))) {
        bool none = tok_is(&q, ")") && np == 0 && (ntok == 0 || (ntok == 1 && only_void));
        if (!none) {
          if (np < max) {
            isconst[np] = star && star_const;
            if (starts) starts[np] = ps ? (size_t)(ps - src) : 0, ends[np] = pe ? (size_t)(pe - src) : 0;
          }
          np++;
        }
        if (tok_is(&q, ")")) return np;
        ntok = 0, seg_const = star_const = star = false, ps = pe = NULL;
        continue;
      }
      if (!ps) ps = q.tok;
      pe = q.tok + q.len;
      only_void = ++ntok == 1 && tok_is(&q, "void");
      if (tok_is(&q, "(") || tok_is(&q, "<") || tok_is(&q, "[") || tok_is(&q, "{")) depth++;
      else if (tok_is(&q, "<<")) depth += 2;
      else if (tok_is(&q, ")") || tok_is(&q, ">") || tok_is(&q, "]") || tok_is(&q, "}")) depth--;
      else if (tok_is(&q, ">>")) depth -= 2;
      else if (depth == 0 && tok_is(&q, "*")) star_const = seg_const, seg_const = false, star = true;
      else if (depth == 0 && tok_is(&q, "const")) seg_const = true;
    }
    return -1;   /* the list never closes */
  }
  return -1;
}

/* ---- a call ---- */

/* Does the Lua value fit the resolved dtype (NumPy's conversion, refusing
 * what would silently change the value)? */
static int check_scalar(const ga_ewk *k, int a, const ga_ewk_operand *o, int dt) {
  char kind = GA_KIND(dt);
  if (o->kind == GA_EWK_INT && (kind == 'i' || kind == 'u' || kind == 'b') && !ga_int_fits(dt, o->i))
    return ga_err(GA_EINVAL, "argument #%d (%s): Lua integer %lld out of bounds for %s", a + 1, k->p[a].name,
                  (long long)o->i, ga_dtypes[dt].name);
  if (o->kind == GA_EWK_FLOAT && (kind == 'i' || kind == 'u' || kind == 'b')) {
    double f = o->f;
    if (!(f >= -9.2233720368547758e18 && f < 9.2233720368547758e18) || f != (double)(int64_t)f ||
        !ga_int_fits(dt, (int64_t)f))
      return ga_err(GA_ETYPE, "argument #%d (%s): %.17g is not a value of %s (pass an integer in range, or declare the "
                    "parameter as a float)", a + 1, k->p[a].name, f, ga_dtypes[dt].name);
  }
  return GA_OK;
}

/* A placeholder bound by an array: check or record. */
static int bind(const ga_ewk *k, int a, int dt, int *tv, int *tv_from) {
  const ga_ewk_param *p = &k->p[a];
  const char *role = p->out ? "output" : "argument";
  if (p->dtype >= 0) {
    if (dt != p->dtype)
      return ga_err(GA_ETYPE, "%s #%d (%s) is %s but the parameter is declared %s; %s does not cast arrays "
                    "(as CuPy): convert it first, e.g. ga.asarray(x, \"%s\")", role, a + 1, p->name,
                    ga_dtypes[dt].name, ga_dtypes[p->dtype].name, k->what, ga_dtypes[p->dtype].name);
    return GA_OK;
  }
  int t = p->tvar;
  if (tv[t] < 0) { tv[t] = dt; tv_from[t] = a; return GA_OK; }
  if (tv[t] != dt)
    return ga_err(GA_ETYPE, "type placeholder %s is %s (from #%d, %s) but %s #%d (%s) is %s", k->tnames[t],
                  ga_dtypes[tv[t]].name, tv_from[t] + 1, k->p[tv_from[t]].name, role, a + 1, p->name,
                  ga_dtypes[dt].name);
  return GA_OK;
}

int ga_ewk_resolve(const ga_ewk *k, const ga_ewk_operand *ops, int nargs, int default_device,
                   ga_ewk_plan *plan) {
  int np = k->nin + k->nout;
  if (nargs != k->nin && nargs != np) {
    if (k->nout == 0) return ga_err(GA_EINVAL, "takes %d argument%s, got %d", k->nin, k->nin == 1 ? "" : "s", nargs);
    return ga_err(GA_EINVAL, "takes %d argument%s (the inputs) or %d (inputs and outputs), got %d", k->nin,
                  k->nin == 1 ? "" : "s", np, nargs);
  }
  char b1[32], b2[32];
  int device = GA_CPU, first = -1;
  for (int a = 0; a < nargs; a++) {
    const ga_ewk_operand *o = &ops[a];
    if (o->kind != GA_EWK_ARRAY) {
      if (a >= k->nin)
        return ga_err(GA_EINVAL, "output #%d (%s) must be an ndarray, got a %s", a + 1, k->p[a].name,
                      o->kind == GA_EWK_BOOL ? "boolean" : "number");
      continue;
    }
    if (!o->arr->buf) return ga_err(GA_EFREED, "argument #%d (%s): array has been freed", a + 1, k->p[a].name);
    int d = GA_DEVICE(o->arr);
    if (d == GA_CPU && !k->host_ok)
      return ga_err(GA_EDEVICE, "%s needs a CUDA device: argument #%d (%s) is a host (cpu) array; "
                    "host arrays run built-in ops only (move it with ga.asarray(x))", k->what, a + 1, k->p[a].name);
    if (first < 0) { first = a; device = d; }
    else if (d != device)
      return ga_err(GA_EDEVICE, "arguments are on different devices (#%d %s on %s, #%d %s on %s)", first + 1,
                    k->p[first].name, ga_device_name(device, b1), a + 1, k->p[a].name, ga_device_name(d, b2));
  }
  if (first < 0) {
    if (default_device == GA_CPU && !k->host_ok)
      return ga_err(GA_EDEVICE, "%s needs a CUDA device (no array argument, and the current device is cpu)",
                    k->what);
    device = default_device;
  }

  /* types: outputs first, then inputs, as CuPy */
  int tv[GA_EWK_MAXARGS], tv_from[GA_EWK_MAXARGS], rc;
  for (int t = 0; t < k->ntv; t++) tv[t] = tv_from[t] = -1;
  for (int a = k->nin; a < nargs; a++)
    if ((rc = bind(k, a, ops[a].arr->dtype, tv, tv_from))) return rc;
  for (int a = 0; a < k->nin; a++)
    if (ops[a].kind == GA_EWK_ARRAY && (rc = bind(k, a, ops[a].arr->dtype, tv, tv_from))) return rc;
  /* a placeholder only Lua values give: bool, int64 or float64 (the widest) */
  int sdt[GA_EWK_MAXARGS];
  for (int t = 0; t < k->ntv; t++) sdt[t] = -1;
  for (int a = 0; a < k->nin; a++) {
    int t = k->p[a].tvar;
    if (ops[a].kind == GA_EWK_ARRAY || t < 0 || tv[t] >= 0) continue;
    int d = ops[a].kind == GA_EWK_FLOAT ? GA_FLOAT64 : ops[a].kind == GA_EWK_INT ? GA_INT64 : GA_BOOL;
    if (d > sdt[t]) sdt[t] = d;   /* bool < int64 < float64 in dtype order */
  }
  for (int t = 0; t < k->ntv; t++) {
    if (tv[t] < 0) tv[t] = sdt[t];
    plan->tv_dtype[t] = tv[t];
  }
  for (int a = 0; a < np; a++) {
    const ga_ewk_param *p = &k->p[a];
    int dt = p->dtype >= 0 ? p->dtype : tv[p->tvar];
    if (dt < 0)
      return ga_err(GA_ETYPE, "output %s has type placeholder %s that no input fixes; pass the output array "
                    "or declare its dtype", p->name, k->tnames[p->tvar]);
    plan->dtype[a] = dt;
    if (a < k->nin && ops[a].kind != GA_EWK_ARRAY && (rc = check_scalar(k, a, &ops[a], dt))) return rc;
  }
  plan->nargs = nargs;
  plan->device = device;
  return GA_OK;
}

int ga_ewk_prepare(const ga_ewk *k, const ga_ewk_operand *ops, int nargs, int64_t size,
                   int default_device, ga_ewk_plan *plan) {
  int np = k->nin + k->nout, rc;
  if ((rc = ga_ewk_resolve(k, ops, nargs, default_device, plan))) return rc;

  /* the loop shape */
  const ga_array *arrs[GA_EWK_MAXARGS];
  int nb = 0;
  for (int a = 0; a < nargs; a++)
    if (ops[a].kind == GA_EWK_ARRAY && !k->p[a].raw) arrs[nb++] = ops[a].arr;
  if (size >= 0) {
    if (nb) return ga_err(GA_EINVAL, "size= can be used only when every array argument is raw");
    plan->ndim = 1;
    plan->shape[0] = size;
  } else {
    if (!nb)
      return ga_err(GA_EINVAL, "the loop size is undecided: pass a non-raw array, or {size=N} when every array "
                    "argument is raw");
    if ((rc = ga_broadcast_shapes(nb, arrs, &plan->ndim, plan->shape))) return rc;
  }
  char s1[512], s2[512];
  for (int a = k->nin; a < np; a++) {
    if (nargs == np) {
      const ga_array *o = ops[a].arr;
      if (!k->p[a].raw && (o->ndim != plan->ndim || memcmp(o->shape, plan->shape, sizeof(int64_t) * o->ndim)))
        return ga_err(GA_EINVAL, "output #%d (%s) has shape %s but the loop has shape %s", a + 1, k->p[a].name,
                      ga_shape_str(o->ndim, o->shape, s1, sizeof s1),
                      ga_shape_str(plan->ndim, plan->shape, s2, sizeof s2));
    } else if (k->p[a].raw && size < 0) {
      return ga_err(GA_EINVAL, "output %s is raw, so its size is undecided: pass the outputs, or {size=N} "
                    "when every array argument is raw", k->p[a].name);
    }
  }
  return GA_OK;
}

void ga_ewk_out_shape(const ga_ewk_plan *plan, int *ndim, int64_t *shape) {
  *ndim = plan->ndim;
  memcpy(shape, plan->shape, sizeof(int64_t) * plan->ndim);
}

/* A raw array's own layout: C-contiguous, or its dimensions with size-1
 * axes dropped and contiguous runs merged (the flat C-order index is the
 * same). */
static void raw_layout(const ga_array *a, ga_ewk_arg *g) {
  g->rsize = a->size;
  g->rndim = 0;   /* read by the host backend for every raw kind: never left unset */
  if (ga_is_c_contiguous(a)) { g->kind = GA_EWK_K_RAWC; return; }
  memcpy(g->rshape, a->shape, sizeof(int64_t) * a->ndim);
  memcpy(g->strides, a->strides, sizeof(int64_t) * a->ndim);
  int64_t *st = g->strides;
  g->kind = GA_EWK_K_RAWS;
  g->rndim = ga_collapse(a->ndim, g->rshape, 1, &st, true);
}

/* Merge dimensions every non-raw array walks contiguously and drop size-1
 * axes (reduce_dims, the default), then classify each array. */
static void collapse(ga_ewk_call *c, bool reduce) {
  int n = c->nargs;
  int64_t *st[GA_EWK_MAXARGS];
  for (int k = 0; k < n; k++) st[k] = c->arg[k].kind == GA_EWK_K_STRIDED ? c->arg[k].strides : NULL;
  /* without reduce_dims only a 0-d loop changes (to one axis of length 1) */
  if (reduce || c->ndim == 0) c->ndim = ga_collapse(c->ndim, c->shape, n, st, reduce);
  int nd = c->ndim;
  c->dense = nd == 1;
  for (int k = 0; k < n; k++) {
    ga_ewk_arg *a = &c->arg[k];
    if (a->kind != GA_EWK_K_STRIDED) continue;
    int w = ga_walk(nd, c->shape, a->strides, GA_ITEMSIZE(a->dtype));
    if (w == GA_WALK_BCAST) a->kind = GA_EWK_K_BCAST;
    else if (w == GA_WALK_CONTIG) a->kind = GA_EWK_K_CONTIG;
    else c->dense = false;
  }
  if (!c->dense)   /* the strided kernel addresses every array by byte offsets */
    for (int k = 0; k < n; k++)
      if (c->arg[k].kind == GA_EWK_K_CONTIG) c->arg[k].kind = GA_EWK_K_STRIDED;
}

int ga_ewk_build(const ga_ewk *k, const ga_ewk_plan *plan, const ga_ewk_operand *ops,
                 ga_array *const *outs, void *stream, ga_ewk_call *c) {
  int np = k->nin + k->nout;
  c->k = k;
  c->nargs = np;
  c->device = plan->device;
  c->stream = stream;
  for (int o = 0; o < k->nout; o++)
    if (ga_check_writable(outs[o])) return ga_errcode();
  for (int a = 0; a < k->nin; a++)
    if (k->p[a].may_write && ops[a].kind == GA_EWK_ARRAY && ops[a].arr && ops[a].arr->buf &&
        GA_READONLY(ops[a].arr))
      return ga_err(GA_EINVAL, "argument #%d (%s) is read-only (x.flags.writeable is false) and the kernel may "
                    "write it through the raw parameter (only reads as %s[...] are allowed; else pass a "
                    "writable copy, x:copy())", a + 1, k->p[a].name, k->p[a].name);
  memcpy(c->tv_dtype, plan->tv_dtype, sizeof(int) * k->ntv);
  c->size = 1;
  for (int i = 0; i < plan->ndim; i++) c->size *= plan->shape[i];
  if (c->size == 0) return GA_OK;
  c->ndim = plan->ndim;
  memcpy(c->shape, plan->shape, sizeof(int64_t) * plan->ndim);
  for (int a = 0; a < np; a++) {
    ga_ewk_arg *g = &c->arg[a];
    const ga_array *arr = a < k->nin ? (ops[a].kind == GA_EWK_ARRAY ? ops[a].arr : NULL) : outs[a - k->nin];
    g->dtype = plan->dtype[a];
    if (!arr) {
      g->kind = GA_EWK_K_SCALAR;
      g->data = NULL;
      if (ops[a].kind == GA_EWK_FLOAT) ga_scalar_from_double(&g->value, g->dtype, ops[a].f);
      else ga_scalar_from_int(&g->value, g->dtype, ops[a].i);
      continue;
    }
    g->data = GA_DATA(arr);
    if (k->p[a].raw) {
      raw_layout(arr, g);
    } else {
      g->kind = GA_EWK_K_STRIDED;
      ga_broadcast_strides(arr, c->ndim, c->shape, g->strides);
    }
  }
  collapse(c, k->reduce_dims);
  return GA_OK;
}
