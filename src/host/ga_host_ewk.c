/* ElementwiseKernel on host arrays: the user's operation compiled as C++
 * by the system compiler into a shared object, cached on disk beside the
 * GPU kernels and loaded with dlopen.
 *
 * Why a compiler and not an interpreter: the operation is C++ (CuPy's
 * contract; ours too: ga_half, ga_complex, raw arrays with operator[],
 * loops, preambles with functions), and only a C++ compiler runs all of it
 * with the meaning it has on the GPU.  The source is the GPU kernel's
 * prelude (kernels/ga_types.cuh, kernels/ga_ewk.cuh) with the CUDA
 * keywords defined away, then one loop over the elements in C order with
 * the user's names bound as references (CuPy's semantics: an output the
 * operation reads holds its old value; `i` is the flat index, `_ind.size()`
 * the element count).
 *
 * The compiler is $GPUARRAY_CXX, else $CXX, else c++.  One object per
 * (kernel text, dtypes, argument kinds, raw ranks); the loop shape and
 * strides are arguments, so a new shape compiles nothing. */
#include "host/ga_host.h"
#include "base/ga_diskcache.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include "base/ga_strbuf.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_ewk[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];

/* what the CUDA text needs from a host compiler */
static const char PRELUDE[] =
    "#include <cmath>\n#include <cstring>\n#include <cstdint>\n#include <cstdlib>\n"
    "using namespace std;\n"
    "#define __device__\n#define __host__\n#define __global__\n#define __forceinline__ inline\n"
    "#define __align__(n) alignas(n)\n#define __restrict__ __restrict\n"
    "static inline unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }\n"
    "static inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }\n"
    "static inline long long __double_as_longlong(double d) { long long u; memcpy(&u, &d, 8); return u; }\n"
    "static inline double __longlong_as_double(long long u) { double d; memcpy(&d, &u, 8); return d; }\n"
    "static inline float __int_as_float(int u) { float f; memcpy(&f, &u, 4); return f; }\n"
    "static inline int __float_as_int(float f) { int u; memcpy(&u, &f, 4); return u; }\n"
    /* CUDA's math library names the host lacks; rounded operations are
     * plain ones (the compile keeps -ffp-contract=off) */
    "static inline float cyl_bessel_i0f(float x) { return std::cyl_bessel_if(0.0f, fabsf(x)); }\n"
    "static inline double cyl_bessel_i0(double x) { return std::cyl_bessel_i(0.0, fabs(x)); }\n"
    "#define __fadd_rn(a, b) ((float)(a) + (float)(b))\n#define __fsub_rn(a, b) ((float)(a) - (float)(b))\n"
    "#define __fmul_rn(a, b) ((float)(a) * (float)(b))\n#define __fdiv_rn(a, b) ((float)(a) / (float)(b))\n"
    "#define __fmaf_rn(a, b, c) fmaf(a, b, c)\n#define __fma_rn(a, b, c) fma(a, b, c)\n"
    "#define __dadd_rn(a, b) ((double)(a) + (double)(b))\n#define __dsub_rn(a, b) ((double)(a) - (double)(b))\n"
    "#define __dmul_rn(a, b) ((double)(a) * (double)(b))\n#define __ddiv_rn(a, b) ((double)(a) / (double)(b))\n"
    /* float16 <-> float by bits, round to nearest even (cvt's rounding) */
    "#define GA_HOST_CXX 1\n"
    "static inline unsigned short ga_host_f2h(float f) {\n"
    "  unsigned u = __float_as_uint(f), sign = (u >> 16) & 0x8000u, e = (u >> 23) & 0xffu, m = u & 0x7fffffu;\n"
    "  if (e == 0xffu) return (unsigned short)(sign | 0x7c00u | (m ? 0x200u : 0u));\n"
    "  int ee = (int)e - 112;\n"
    "  if (ee >= 31) return (unsigned short)(sign | 0x7c00u);\n"
    "  if (ee <= 0) {\n"
    "    if (ee < -10) return (unsigned short)sign;\n"
    "    m |= 0x800000u;\n"
    "    int sh = 14 - ee;\n"
    "    unsigned hm = m >> sh, rem = m & ((1u << sh) - 1u), half = 1u << (sh - 1);\n"
    "    if (rem > half || (rem == half && (hm & 1u))) hm++;\n"
    "    return (unsigned short)(sign | hm);\n"
    "  }\n"
    "  unsigned hm = m >> 13, rem = m & 0x1fffu, h = sign | ((unsigned)ee << 10) | hm;\n"
    "  if (rem > 0x1000u || (rem == 0x1000u && (hm & 1u))) h++;\n"
    "  return (unsigned short)h;\n"
    "}\n"
    "static inline float ga_host_h2f(unsigned short h) {\n"
    "  unsigned sign = (unsigned)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;\n"
    "  if (e == 0) { float f = (float)m * 5.9604644775390625e-8f; return sign ? -f : f; }\n"
    "  if (e == 31) return __uint_as_float(sign | 0x7f800000u | (m << 13));\n"
    "  return __uint_as_float(sign | ((e + 112u) << 23) | (m << 13));\n"
    "}\n";

const char *ga_host_cxx_prelude(void) { return PRELUDE; }

static const char *tname(const ga_ewk_call *c, int a) { return ga_ewk_param_type(c->k, a); }

/* The entry every object exports:
 *   void ga_ewk_host(long long n, int ndim, const long long *shape,
 *                    char *const *data, const long long *st,
 *                    const void *const *vals, const long long *raw)
 * st: byte strides, GA_MAXDIM per argument; raw: per argument
 * {size, shape[GA_MAXDIM], strides[GA_MAXDIM]}. */
#define RAWW (1 + 2 * GA_MAXDIM)

char *ga_host_ewk_source(const ga_ewk_call *c) {
  const ga_ewk *k = c->k;
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, ga_host_cxx_prelude());
  ga_sb_puts(&b, ga_kernel_ga_types);
  ga_sb_puts(&b, ga_kernel_ga_ewk);
  if (k->math) ga_sb_puts(&b, ga_kernel_ga_math);
  if (k->math > 1) ga_sb_puts(&b, ga_kernel_ga_cmath);
  ga_sb_printf(&b, "// ElementwiseKernel %s on the host\n", k->name);
  for (int t = 0; t < k->ntv; t++) ga_sb_printf(&b, "typedef %s %s;\n", ga_dtypes[c->tv_dtype[t]].cuda, k->tnames[t]);
  if (k->preamble[0]) ga_sb_printf(&b, "%s\n", k->preamble);
  ga_sb_printf(&b, "#define GA_MAXDIM %d\n", GA_MAXDIM);
  ga_sb_puts(&b, "extern \"C\" void ga_ewk_host(long long _ga_n, int _ga_nd, const long long *_ga_sh, "
                 "char *const *_ga_p, const long long *_ga_st, const void *const *_ga_v, const long long *_ga_raw) {\n"
                 "  (void)_ga_p; (void)_ga_st; (void)_ga_v; (void)_ga_raw;\n"
                 "  [[maybe_unused]] const ga_ind<long long> _ind = {_ga_n};\n");
  for (int a = 0; a < c->nargs; a++) {
    const ga_ewk_arg *g = &c->arg[a];
    const char *T = tname(c, a), *nm = k->p[a].name, *cst = a < k->nin ? "const " : "";
    if (g->kind == GA_EWK_K_SCALAR) {
      ga_sb_printf(&b, "  const %s %s = *(const %s *)_ga_v[%d];\n", T, nm, T, a);
    } else if (g->kind == GA_EWK_K_RAWC) {
      ga_sb_printf(&b, "  %sga_raw_c<%s> %s = {(%s *)_ga_p[%d], _ga_raw[%d]};\n", cst, T, nm, T, a, a * RAWW);
    } else if (g->kind == GA_EWK_K_RAWS) {
      int nd = g->rndim > 0 ? g->rndim : 1;
      ga_sb_printf(&b, "  ga_raw_s<%s, %d> _ga_r%d;\n  _ga_r%d.p = _ga_p[%d];\n  _ga_r%d.n = _ga_raw[%d];\n", T, nd, a,
                   a, a, a, a * RAWW);
      ga_sb_printf(&b, "  for (int d = 0; d < %d; d++) { _ga_r%d.sh[d] = _ga_raw[%d + 1 + d]; "
                       "_ga_r%d.st[d] = _ga_raw[%d + 1 + %d + d]; }\n",
                   nd, a, a * RAWW, a, a * RAWW, GA_MAXDIM);
      ga_sb_printf(&b, "  %sga_raw_s<%s, %d> %s = _ga_r%d;\n", cst, T, nd, nm, a);
    }
  }
  if (k->loop_prep[0]) ga_sb_printf(&b, "%s\n;\n", k->loop_prep);   /* in the function's scope, as on the GPU */
  ga_sb_printf(&b, "  long long _ga_ix[GA_MAXDIM] = {0}, _ga_o[%d] = {0};\n", c->nargs);
  ga_sb_puts(&b, "  for (long long i = 0; i < _ga_n; i++) {\n");
  for (int a = 0; a < c->nargs; a++) {
    if (!ga_ewk_is_array(c->arg[a].kind)) continue;
    ga_sb_printf(&b, "    %s%s &%s = *(%s *)(_ga_p[%d] + _ga_o[%d]);\n", a < k->nin ? "const " : "", tname(c, a),
                 k->p[a].name, tname(c, a), a, a);
  }
  ga_sb_printf(&b, "    {\n%s\n;\n    }\n", k->operation);
  /* the next element's offsets: an odometer over the loop shape */
  ga_sb_puts(&b, "    for (int d = _ga_nd - 1; d >= 0; d--) {\n");
  for (int a = 0; a < c->nargs; a++)
    if (ga_ewk_is_array(c->arg[a].kind)) ga_sb_printf(&b, "      _ga_o[%d] += _ga_st[%d * GA_MAXDIM + d];\n", a, a);
  ga_sb_puts(&b, "      if (++_ga_ix[d] < _ga_sh[d]) break;\n");
  for (int a = 0; a < c->nargs; a++)
    if (ga_ewk_is_array(c->arg[a].kind))
      ga_sb_printf(&b, "      _ga_o[%d] -= _ga_st[%d * GA_MAXDIM + d] * _ga_sh[d];\n", a, a);
  ga_sb_puts(&b, "      _ga_ix[d] = 0;\n    }\n  }\n");
  if (k->after_loop[0]) ga_sb_printf(&b, "%s\n;\n", k->after_loop);
  ga_sb_puts(&b, "}\n");
  char *s = ga_sb_take(&b);
  if (!s) ga_err(GA_ENOMEM, "out of memory generating kernel source");
  return s;
}

/* ---- compiled objects: in memory by source hash, on disk in the cache ---- */

typedef void (*ewk_fn)(long long, int, const long long *, char *const *, const long long *, const void *const *,
                       const long long *);
typedef struct loaded { uint64_t key[2]; void *fn; struct loaded *next; } loaded;
static loaded *objects;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static char *quote(const char *s) {   /* 'shell quoted' */
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_puts(&b, "'");
  for (; *s; s++) {
    if (*s == '\'') ga_sb_puts(&b, "'\\''");
    else ga_sb_printf(&b, "%c", *s);
  }
  ga_sb_puts(&b, "'");
  return ga_sb_take(&b);
}

static char *read_text(const char *path, size_t max) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *s = malloc(max + 1);
  size_t n = s ? fread(s, 1, max, f) : 0;
  fclose(f);
  if (s) s[n] = 0;
  return s;
}

/* compile `src` into `so` (atomically: a private name, then rename) */
static int compile(const char *src, const char *so, const char *what, const char *name) {
  const char *cxx = getenv("GPUARRAY_CXX");
  if (!cxx || !*cxx) cxx = getenv("CXX");
  if (!cxx || !*cxx) cxx = "c++";
  char tmp[4096], cpp[4096], log[4096];
  int pid = (int)getpid();
  snprintf(tmp, sizeof tmp, "%s.%d.tmp", so, pid);
  snprintf(cpp, sizeof cpp, "%s.%d.cpp", so, pid);
  snprintf(log, sizeof log, "%s.%d.log", so, pid);
  FILE *f = fopen(cpp, "wb");
  if (!f) return ga_err(GA_ENVRTC, "%s '%s' on the host: cannot write %s", what, name, cpp);
  fputs(src, f);
  fclose(f);
  char *qc = quote(cxx), *qs = quote(cpp), *qt = quote(tmp), *ql = quote(log);
  int rc = GA_ENOMEM;
  if (qc && qs && qt && ql) {
    ga_strbuf cmd;
    ga_sb_init(&cmd);
    ga_sb_printf(&cmd, "%s -std=c++17 -O2 -ffp-contract=off -fPIC -shared -w -o %s %s >%s 2>&1", qc, qt, qs, ql);
    char *c = ga_sb_take(&cmd);
    int st = c ? system(c) : -1;
    free(c);
    if (st == 0 && rename(tmp, so) == 0) {
      rc = GA_OK;
    } else {
      char *msg = read_text(log, 3000);
      (void)what, (void)name;   /* the binding's message names the kernel */
      rc = ga_err(GA_ENVRTC, "did not compile on the host (%s; set GPUARRAY_CXX to a C++17 compiler):\n%s", cxx,
                  msg && *msg ? msg : "no compiler output (is it installed?)");
      free(msg);
      unlink(tmp);
    }
  }
  free(qc), free(qs), free(qt), free(ql);
  unlink(cpp);
  unlink(log);
  return rc;
}

/* the entry `sym` of the object for `src` (compiled on a miss) */
int ga_host_jit(const uint64_t key[2], char *(*gen)(const void *ud), const void *ud, const char *sym,
                const char *what, const char *name, void **fn) {
  pthread_mutex_lock(&lock);
  for (loaded *l = objects; l; l = l->next)
    if (l->key[0] == key[0] && l->key[1] == key[1]) {
      *fn = l->fn;
      pthread_mutex_unlock(&lock);
      return GA_OK;
    }
  /* a miss: the source, and the object file named by its hash */
  char *src = gen(ud);
  if (!src) {
    pthread_mutex_unlock(&lock);
    return GA_ENOMEM;
  }
  uint64_t h[2] = {ga_hash64(src, strlen(src), GA_HASH_SEED), ga_hash64(src, strlen(src), 0x5bd1e9955bd1e995ULL)};
  int rc = GA_OK;
  const char *dir = ga_diskcache_dir();
  char so[4096], priv[4096];
  if (!dir) {   /* no cache directory: a private one for this process */
    snprintf(priv, sizeof priv, "%s/gpuarray-host-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    dir = mkdtemp(priv);
    if (!dir) {
      pthread_mutex_unlock(&lock);
      free(src);
      return ga_err(GA_ENVRTC, "%s '%s' on the host: no directory to compile in", what, name);
    }
  }
  snprintf(so, sizeof so, "%s/host-%016llx%016llx.so", dir, (unsigned long long)h[0], (unsigned long long)h[1]);
  struct stat sb;
  if (lstat(so, &sb) != 0 || !S_ISREG(sb.st_mode)) rc = compile(src, so, what, name);
  void *lib = NULL;
  if (!rc) {
    lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {   /* a corrupt cached object: compile again once */
      unlink(so);
      if (!(rc = compile(src, so, what, name)) && !(lib = dlopen(so, RTLD_NOW | RTLD_LOCAL)))
        rc = ga_err(GA_ENVRTC, "%s '%s' on the host: %s", what, name, dlerror());
    }
  }
  free(src);
  void *f = lib ? dlsym(lib, sym) : NULL;
  if (!rc && !f) rc = ga_err(GA_ENVRTC, "%s '%s' on the host: no symbol %s in %s", what, name, sym, so);
  loaded *l = rc ? NULL : malloc(sizeof *l);
  if (!rc && !l) rc = ga_err(GA_ENOMEM, "out of host memory");
  if (!rc) {
    l->key[0] = key[0], l->key[1] = key[1], l->fn = f, l->next = objects;
    objects = l;
    *fn = f;
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

/* What the source depends on besides the kernel's texts (k->hash): each
 * argument's kind, dtype and raw rank, the placeholders' dtypes */
void ga_host_jit_key(uint64_t key[2], const uint64_t khash[2], char family, int nargs, const int *kind, const int *dtype,
                     const int *rank, int ntv, const int *tv_dtype, int extra) {
  unsigned char d[4 + 3 * GA_EWK_MAXARGS + GA_EWK_MAXARGS];
  size_t n = 0;
  d[n++] = (unsigned char)family;
  d[n++] = (unsigned char)nargs;
  d[n++] = (unsigned char)extra;
  for (int a = 0; a < nargs; a++) {
    d[n++] = (unsigned char)kind[a];
    d[n++] = (unsigned char)dtype[a];
    d[n++] = (unsigned char)(rank ? rank[a] : 0);
  }
  for (int t = 0; t < ntv; t++) d[n++] = (unsigned char)tv_dtype[t];
  key[0] = ga_hash64(d, n, khash[0]);
  key[1] = ga_hash64(d, n, khash[1]);
}

static char *ewk_gen(const void *ud) { return ga_host_ewk_source(ud); }

int ga_host_ewk(const ga_ewk_call *c) {
  if (c->size == 0) return GA_OK;
  int kind[GA_EWK_MAXARGS], dtype[GA_EWK_MAXARGS], rank[GA_EWK_MAXARGS];
  for (int a = 0; a < c->nargs; a++) {
    /* the source treats every non-raw array alike: only raw and scalar differ */
    kind[a] = ga_ewk_is_array(c->arg[a].kind) ? GA_EWK_K_STRIDED : c->arg[a].kind;
    dtype[a] = c->arg[a].dtype;
    rank[a] = c->arg[a].kind == GA_EWK_K_RAWS ? c->arg[a].rndim : 0;
  }
  uint64_t key[2];
  ga_host_jit_key(key, c->k->hash, 'E', c->nargs, kind, dtype, rank, c->k->ntv, c->tv_dtype, c->k->math);
  void *fn;
  int rc = ga_host_jit(key, ewk_gen, c, "ga_ewk_host", c->k->what, c->k->name, &fn);
  if (rc) return rc;
  long long shape[GA_MAXDIM], st[GA_EWK_MAXARGS * GA_MAXDIM], raw[GA_EWK_MAXARGS * RAWW];
  char *data[GA_EWK_MAXARGS];
  const void *vals[GA_EWK_MAXARGS];
  memset(st, 0, sizeof st);
  memset(raw, 0, sizeof raw);
  for (int d = 0; d < c->ndim; d++) shape[d] = c->shape[d];
  for (int a = 0; a < c->nargs; a++) {
    const ga_ewk_arg *g = &c->arg[a];
    data[a] = g->data;
    vals[a] = g->value.bytes;
    if (g->kind == GA_EWK_K_STRIDED)
      for (int d = 0; d < c->ndim; d++) st[a * GA_MAXDIM + d] = g->strides[d];
    else if (g->kind == GA_EWK_K_CONTIG)
      for (int d = 0; d < c->ndim; d++) {   /* C order over the loop shape */
        long long s = GA_ITEMSIZE(g->dtype);
        for (int e = d + 1; e < c->ndim; e++) s *= c->shape[e];
        st[a * GA_MAXDIM + d] = s;
      }
    else if (g->kind == GA_EWK_K_RAWC || g->kind == GA_EWK_K_RAWS) {
      raw[a * RAWW] = g->rsize;
      for (int d = 0; d < (g->rndim > 0 ? g->rndim : 1); d++) {
        raw[a * RAWW + 1 + d] = g->rndim > 0 ? g->rshape[d] : 1;
        raw[a * RAWW + 1 + GA_MAXDIM + d] = g->rndim > 0 ? g->strides[d] : 0;
      }
    }
  }
  ((ewk_fn)fn)(c->size, c->ndim, shape, data, st, vals, raw);
  return GA_OK;
}
