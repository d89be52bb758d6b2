/* Unit tests of the host backend (ga_host_*.c) with no Lua and no ga_array
 * core: ga_ew_call and ga_array structs are built by hand over malloc'ed
 * data.  Prints one line per failure and a final "N passed, M failed". */
#include "host/ga_host.h"
#include "base/ga_error.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CMPLX is C11; the build is gnu99. */
#define C64(re, im) __builtin_complex((float)(re), (float)(im))
#define C128(re, im) __builtin_complex((double)(re), (double)(im))

static int npass, nfail;

#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    if (cond) npass++;                                                        \
    else {                                                                    \
      nfail++;                                                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                             \
      printf(__VA_ARGS__);                                                    \
      printf("\n");                                                           \
    }                                                                         \
  } while (0)

static const char *dn(int dt) { return ga_dtypes[dt].name; }
static int isz(int dt) { return GA_ITEMSIZE(dt); }

static void *xalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) { perror("calloc"); exit(2); }
  return p;
}

/* ---- values ---- */

typedef struct val { double re, im; } val;

static val load(const void *p, int dt) {
  val v = {ga_load_double(p, dt), ga_load_imag(p, dt)};
  return v;
}

static bool same_double(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return a == b && signbit(a) == signbit(b);
}
static bool same_val(val a, val b) { return same_double(a.re, b.re) && same_double(a.im, b.im); }

/* Store integer v as dtype dt (C conversion: integers wrap). */
static void store_int(void *p, int dt, int64_t v) {
  ga_scalar s;
  ga_scalar_from_int(&s, dt, v);
  memcpy(p, &s, isz(dt));
}
static void store_double(void *p, int dt, double v) {
  ga_scalar s;
  ga_scalar_from_double(&s, dt, v);
  memcpy(p, &s, isz(dt));
}
static void store_complex(void *p, int dt, double re, double im) {
  if (dt == GA_COMPLEX64) { ga_c64 z = C64((float)re, (float)im); memcpy(p, &z, sizeof z); }
  else if (dt == GA_COMPLEX128) { ga_c128 z = C128(re, im); memcpy(p, &z, sizeof z); }
  else store_double(p, dt, re);
}

/* ---- ga_ew_call construction ---- */

static ga_ew_call mkcall(const char *opname, int T, int ndim, const int64_t *shape) {
  ga_ew_call c;
  memset(&c, 0, sizeof c);
  c.op = ga_op_find(opname);
  if (!c.op) { printf("no op %s\n", opname); exit(2); }
  c.nin = c.op->nin;
  c.nout = c.op->nout;
  for (int k = 0; k < c.nin + c.nout; k++) c.loop_types[k] = ga_op_arg_dtype(c.op, T, k);
  c.ndim = ndim;
  c.size = 1;
  for (int d = 0; d < ndim; d++) c.shape[d] = shape[d], c.size *= shape[d];
  c.dense = false;
  c.device = GA_CPU;
  return c;
}

static void setarg(ga_ew_call *c, int k, int kind, int dtype, void *data, const int64_t *strides) {
  c->arg[k].kind = kind;
  c->arg[k].dtype = dtype;
  c->arg[k].data = data;
  if (strides) memcpy(c->arg[k].strides, strides, sizeof(int64_t) * c->ndim);
}

static void setscalar(ga_ew_call *c, int k, int T, int64_t v) {
  c->arg[k].kind = GA_AK_SCALAR;
  c->arg[k].dtype = T;
  ga_scalar_from_int(&c->arg[k].value, T, v);
}

static int run(const ga_ew_call *c) {
  int rc = ga_host_ew(c);
  if (rc) printf("  ga_host_ew(%s): %s\n", c->op->name, ga_errmsg());
  return rc;
}

/* ---- 1: every op x every loop dtype x layouts, against int64 arithmetic ---- */

static int64_t valA(int64_t i, int T) {
  if (T == GA_BOOL) return i & 1;
  if (GA_KIND(T) == 'u') return i % 50;
  return i % 50 - 25;
}
static int64_t valB(int64_t i, int T) {
  if (T == GA_BOOL) return (i >> 1) & 1;
  int64_t v = i % 13 - 6;
  if (GA_KIND(T) == 'u') v = i % 7 + 1;
  return v ? v : 7;
}

/* Expected element (as stored in the output dtype) of op on x, y at flat i:
 * integers in int64 then wrapped; floats in double then rounded once (exact
 * for these small values), keeping the sign of zero as IEEE arithmetic does;
 * complex parts as NumPy's formulas give them for x + 0i and y + 0i. */
static val expect(const ga_op *op, int T, int64_t x, int64_t y, int64_t i) {
  int od = ga_op_arg_dtype(op, T, op->nin);
  unsigned char buf[16];
  if (GA_IS_INT(T) || T == GA_BOOL) {
    int64_t r = 0;
    switch (op->id) {
    case GA_OP_COPY: r = x; break;
    case GA_OP_ADD: r = T == GA_BOOL ? (x | y) : x + y; break;
    case GA_OP_SUBTRACT: r = x - y; break;
    case GA_OP_MULTIPLY: r = T == GA_BOOL ? (x & y) : x * y; break;
    case GA_OP_NEGATIVE: r = -x; break;
    case GA_OP_ARANGE: r = x + i * y; break;
    case GA_OP_TRUE_DIVIDE: store_double(buf, od, (double)x / (double)y); return load(buf, od);
    default: printf("no reference for %s\n", op->name); exit(2);
    }
    store_int(buf, od, r);
    return load(buf, od);
  }
  double a = (double)x, b = (double)y, re = 0, im = 0;
  switch (op->id) {
  case GA_OP_COPY: re = a, im = 0; break;
  case GA_OP_ADD: re = a + b, im = 0; break;
  case GA_OP_SUBTRACT: re = a - b, im = 0; break;
  case GA_OP_MULTIPLY: re = a * b, im = a * 0.0 + 0.0 * b; break;
  case GA_OP_NEGATIVE: re = -a, im = -0.0; break;
  case GA_OP_ARANGE: re = a + (double)i * b, im = 0.0 + (double)i * 0.0; break;
  case GA_OP_TRUE_DIVIDE:   /* NumPy's complex division scales by 1 / b; sign of 0i: see sweep_one */
    if (od == GA_COMPLEX64) re = (float)a * (1.0f / (float)b), im = 0;
    else if (od == GA_COMPLEX128) re = a * (1.0 / b), im = 0;
    else re = a / b, im = 0;
    break;
  default: printf("no reference for %s\n", op->name); exit(2);
  }
  store_complex(buf, od, re, im);
  return load(buf, od);
}

enum { L_CONTIG, L_STRIDED, L_BCAST1, L_SCALAR0, L_SCALARS, L_INPLACE, NLAYOUTS };
static const char *lname[] = {"contig", "strided", "bcast1", "scalar0", "scalars", "inplace"};

static void sweep_one(const ga_op *op, int T, int layout, int64_t n) {
  int nin = op->nin, od = ga_op_arg_dtype(op, T, nin), tsz = isz(T), osz = isz(od);
  if (nin < 2 && (layout == L_BCAST1 || layout == L_SCALARS)) return;
  if (layout == L_INPLACE && od != T) return;
  int64_t step = layout == L_STRIDED ? 3 : 1, ostep = layout == L_STRIDED ? 2 : 1;
  ga_ew_call c = mkcall(op->name, T, 1, &n);
  char *in[2] = {NULL, NULL};
  for (int k = 0; k < nin; k++) {
    in[k] = xalloc(n * step * tsz);
    for (int64_t i = 0; i < n; i++)
      store_int(in[k] + i * step * tsz, T, k ? valB(i, T) : valA(i, T));
    int64_t st = step * tsz;
    bool bc = (layout == L_BCAST1 && k == 1);
    bool sc = (layout == L_SCALAR0 && k == 0) || layout == L_SCALARS;
    if (sc) setscalar(&c, k, T, k ? valB(0, T) : valA(0, T));
    else if (bc) { int64_t z = 0; setarg(&c, k, GA_AK_BCAST, T, in[k], &z); }
    else setarg(&c, k, layout == L_STRIDED ? GA_AK_STRIDED : GA_AK_CONTIG, T, in[k], &st);
  }
  char *out = layout == L_INPLACE ? in[0] : xalloc(n * ostep * osz);
  int64_t ost = ostep * osz;
  setarg(&c, nin, layout == L_STRIDED ? GA_AK_STRIDED : GA_AK_CONTIG, od, out, &ost);
  c.dense = layout != L_STRIDED;
  if (run(&c) == 0) {
    int64_t bad = -1;
    val got = {0, 0}, want = {0, 0};
    for (int64_t i = 0; i < n && bad < 0; i++) {
      bool s0 = layout == L_SCALAR0 || layout == L_SCALARS;
      bool s1 = layout == L_BCAST1 || layout == L_SCALARS;
      int64_t x = valA(s0 ? 0 : i, T), y = valB(s1 ? 0 : i, T);
      want = expect(op, T, x, y, i);
      got = load(out + i * ost, od);
      /* the signs of zeros in a complex quotient are the division
       * algorithm's business (gcc's and NumPy's differ) */
      if (op->id == GA_OP_TRUE_DIVIDE && GA_IS_COMPLEX(T)) {
        if (got.re == 0 && want.re == 0) got.re = want.re;
        if (got.im == 0 && want.im == 0) got.im = want.im;
      }
      if (!same_val(got, want)) bad = i;
    }
    CHECK(bad < 0, "%s %s %s n=%lld: [%lld] = %g%+gi, want %g%+gi", op->name, dn(T),
          lname[layout], (long long)n, (long long)bad, got.re, got.im, want.re, want.im);
  } else {
    CHECK(0, "%s %s %s: error", op->name, dn(T), lname[layout]);
  }
  for (int k = 0; k < nin; k++) free(in[k]);
  if (layout != L_INPLACE) free(out);
}

/* The driver's layouts are swept with the ops `expect` knows; every other
 * row's values are checked against NumPy by spec/ufunc_spec.lua. */
static bool has_reference(int id) {
  return id == GA_OP_COPY || id == GA_OP_ADD || id == GA_OP_SUBTRACT || id == GA_OP_MULTIPLY ||
         id == GA_OP_NEGATIVE || id == GA_OP_ARANGE || id == GA_OP_TRUE_DIVIDE;
}

static void test_sweep(void) {
  static const int64_t ns[] = {1, 7, 200};
  for (int o = 0; o < GA_NOPS; o++)
    for (int T = 0; T < GA_NDTYPES; T++) {
      bool has = (ga_ops[o].types >> T) & 1u;
      CHECK((ga_host_loop(&ga_ops[o], T) != NULL) == has, "loop table: %s %s", ga_ops[o].name, dn(T));
      if (!has || !has_reference(o)) continue;
      for (int l = 0; l < NLAYOUTS; l++)
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) sweep_one(&ga_ops[o], T, l, ns[j]);
    }
}

/* ---- 2: named cases ---- */

static void test_named(void) {
  int64_t n = 4;
  { /* int8 wraps */
    int8_t a[4] = {127, -128, 100, -100}, b[4] = {1, -1, 100, -100}, o[4];
    int64_t st = 1;
    ga_ew_call c = mkcall("add", GA_INT8, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_INT8, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_INT8, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_INT8, o, &st);
    run(&c);
    CHECK(o[0] == -128 && o[1] == 127 && o[2] == -56 && o[3] == 56, "int8 add wrap: %d %d %d %d",
          o[0], o[1], o[2], o[3]);
  }
  { /* uint8 */
    uint8_t a[4] = {200, 0, 255, 16}, b[4] = {100, 1, 255, 16}, o[4];
    int64_t st = 1;
    ga_ew_call c = mkcall("add", GA_UINT8, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_UINT8, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_UINT8, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_UINT8, o, &st);
    run(&c);
    CHECK(o[0] == 44 && o[1] == 1 && o[2] == 254 && o[3] == 32, "uint8 add: %d %d %d %d", o[0], o[1], o[2], o[3]);
    c = mkcall("subtract", GA_UINT8, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_UINT8, b, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_UINT8, a, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_UINT8, o, &st);
    run(&c);
    CHECK(o[0] == 156 && o[1] == 1 && o[2] == 0 && o[3] == 0, "uint8 subtract: %d %d %d %d", o[0], o[1], o[2], o[3]);
    c = mkcall("multiply", GA_UINT8, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_UINT8, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_UINT8, a, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_UINT8, o, &st);
    run(&c);
    CHECK(o[0] == 64 && o[1] == 0 && o[2] == 1 && o[3] == 0, "uint8 multiply: %d %d %d %d", o[0], o[1], o[2], o[3]);
    c = mkcall("negative", GA_UINT8, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_UINT8, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_UINT8, o, &st);
    run(&c);
    CHECK(o[0] == 56 && o[1] == 0 && o[2] == 1 && o[3] == 240, "uint8 negative: %d %d %d %d", o[0], o[1], o[2], o[3]);
  }
  { /* uint16 * uint16 goes through int in C: -fwrapv keeps it defined */
    uint16_t a[1] = {65535}, o[1];
    int64_t one = 1, st = 2;
    ga_ew_call c = mkcall("multiply", GA_UINT16, 1, &one);
    setarg(&c, 0, GA_AK_CONTIG, GA_UINT16, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_UINT16, a, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_UINT16, o, &st);
    run(&c);
    CHECK(o[0] == 1, "uint16 65535*65535 = %u", o[0]);
  }
  { /* int64 wraps, negative of the minimum is itself */
    int64_t a[2] = {INT64_MAX, INT64_MIN}, b[2] = {1, 0}, o[2], two = 2, st = 8;
    ga_ew_call c = mkcall("add", GA_INT64, 1, &two);
    setarg(&c, 0, GA_AK_CONTIG, GA_INT64, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_INT64, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_INT64, o, &st);
    run(&c);
    CHECK(o[0] == INT64_MIN && o[1] == INT64_MIN, "int64 add wrap");
    c = mkcall("negative", GA_INT64, 1, &two);
    setarg(&c, 0, GA_AK_CONTIG, GA_INT64, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_INT64, o, &st);
    run(&c);
    CHECK(o[0] == -INT64_MAX && o[1] == INT64_MIN, "int64 negative");
  }
  { /* bool: add is or, multiply is and */
    bool a[4] = {0, 0, 1, 1}, b[4] = {0, 1, 0, 1}, o[4];
    int64_t st = 1;
    ga_ew_call c = mkcall("add", GA_BOOL, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_BOOL, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_BOOL, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_BOOL, o, &st);
    run(&c);
    CHECK(!o[0] && o[1] && o[2] && o[3], "bool add: %d %d %d %d", o[0], o[1], o[2], o[3]);
    c = mkcall("multiply", GA_BOOL, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_BOOL, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_BOOL, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_BOOL, o, &st);
    run(&c);
    CHECK(!o[0] && !o[1] && !o[2] && o[3], "bool multiply: %d %d %d %d", o[0], o[1], o[2], o[3]);
  }
  { /* int true_divide -> float64, by zero too */
    int32_t a[4] = {7, -7, 1, 0}, b[4] = {2, 2, 0, 0};
    double o[4];
    int64_t st = 4, ost = 8;
    ga_ew_call c = mkcall("true_divide", GA_INT32, 1, &n);
    CHECK(c.loop_types[2] == GA_FLOAT64, "true_divide int32 -> %s", dn(c.loop_types[2]));
    setarg(&c, 0, GA_AK_CONTIG, GA_INT32, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_INT32, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_FLOAT64, o, &ost);
    run(&c);
    CHECK(o[0] == 3.5 && o[1] == -3.5 && isinf(o[2]) && o[2] > 0 && isnan(o[3]),
          "int32 true_divide: %g %g %g %g", o[0], o[1], o[2], o[3]);
  }
  { /* complex64 multiply and divide */
    ga_c64 a[2] = {C64(1, 2), C64(0, 1)}, b[2] = {C64(3, 4), C64(0, 1)}, o[2];
    int64_t two = 2, st = 8;
    ga_ew_call c = mkcall("multiply", GA_COMPLEX64, 1, &two);
    setarg(&c, 0, GA_AK_CONTIG, GA_COMPLEX64, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_COMPLEX64, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_COMPLEX64, o, &st);
    run(&c);
    CHECK(crealf(o[0]) == -5 && cimagf(o[0]) == 10 && crealf(o[1]) == -1 && cimagf(o[1]) == 0,
          "complex64 multiply: %g%+gi %g%+gi", crealf(o[0]), cimagf(o[0]), crealf(o[1]), cimagf(o[1]));
    { /* NumPy's formulas, without C's Annex G infinity recovery:
         (1+1i) / (inf+infi) is nan+nani in NumPy (C would say 0) */
      ga_c128 x = C128(1, 1), y = C128(INFINITY, INFINITY), z;
      int64_t one = 1, s16 = 16;
      ga_ew_call m = mkcall("true_divide", GA_COMPLEX128, 1, &one);
      setarg(&m, 0, GA_AK_CONTIG, GA_COMPLEX128, &x, &s16);
      setarg(&m, 1, GA_AK_CONTIG, GA_COMPLEX128, &y, &s16);
      setarg(&m, 2, GA_AK_CONTIG, GA_COMPLEX128, &z, &s16);
      run(&m);
      CHECK(isnan(creal(z)) && isnan(cimag(z)), "complex128 (1+1i)/(inf+infi) = %g%+gi, want nan+nani",
            creal(z), cimag(z));
    }
    c = mkcall("true_divide", GA_COMPLEX64, 1, &two);
    setarg(&c, 0, GA_AK_CONTIG, GA_COMPLEX64, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_COMPLEX64, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_COMPLEX64, o, &st);
    run(&c);
    CHECK(fabsf(crealf(o[0]) - 0.44f) < 1e-6f && fabsf(cimagf(o[0]) - 0.08f) < 1e-6f &&
          crealf(o[1]) == 1 && cimagf(o[1]) == 0,
          "complex64 divide: %g%+gi %g%+gi", crealf(o[0]), cimagf(o[0]), crealf(o[1]), cimagf(o[1]));
  }
  { /* float16 rounds after each op, like NumPy's half */
    ga_f16 a[4] = {(ga_f16)0.1, 2048, 65504, 1}, b[4] = {(ga_f16)0.2, 1, 65504, 3}, o[4];
    int64_t st = 2;
    ga_ew_call c = mkcall("add", GA_FLOAT16, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_FLOAT16, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_FLOAT16, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_FLOAT16, o, &st);
    run(&c);
    /* 0.1 + 0.2 in half is 0.2998046875 (NumPy prints 0.2998) */
    CHECK(o[0] == (ga_f16)0.2998046875 && o[1] == 2048 && isinf((double)o[2]),
          "float16 add: %.10g %g %g", (double)o[0], (double)o[1], (double)o[2]);
    c = mkcall("true_divide", GA_FLOAT16, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_FLOAT16, a, &st);
    setarg(&c, 1, GA_AK_CONTIG, GA_FLOAT16, b, &st);
    setarg(&c, 2, GA_AK_CONTIG, GA_FLOAT16, o, &st);
    run(&c);
    CHECK(o[3] == (ga_f16)(1.0 / 3.0) && o[2] == 1, "float16 divide: %.10g", (double)o[3]);
  }
  { /* an unknown loop is an error, not a crash */
    int64_t one = 1;
    ga_ew_call c = mkcall("negative", GA_BOOL, 1, &one);
    bool a = 1, o;
    setarg(&c, 0, GA_AK_CONTIG, GA_BOOL, &a, &one);
    setarg(&c, 1, GA_AK_CONTIG, GA_BOOL, &o, &one);
    CHECK(ga_host_ew(&c) == GA_ETYPE, "negative(bool) should have no loop");
  }
}

/* ---- 3: casts inside the elementwise driver, chunk boundaries ---- */

static void test_buffered(void) {
  static const int64_t ns[] = {1, 511, 512, 513, 5000};
  for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
    int64_t n = ns[t];
    for (int strided = 0; strided < 2; strided++) {
      /* int8 memory, float32 loop, float32 out; in1 broadcast (cast once) */
      int64_t s = strided ? 3 : 1;
      int8_t *a = xalloc(n * s), b = -3;
      float *o = xalloc(n * s * 4);
      for (int64_t i = 0; i < n; i++) a[i * s] = (int8_t)(i % 256 - 128);
      ga_ew_call c = mkcall("add", GA_FLOAT32, 1, &n);
      int64_t sa = s, sb = 0, so = s * 4;
      setarg(&c, 0, strided ? GA_AK_STRIDED : GA_AK_CONTIG, GA_INT8, a, &sa);
      setarg(&c, 1, GA_AK_BCAST, GA_INT8, &b, &sb);
      setarg(&c, 2, strided ? GA_AK_STRIDED : GA_AK_CONTIG, GA_FLOAT32, o, &so);
      run(&c);
      int64_t bad = -1;
      for (int64_t i = 0; i < n && bad < 0; i++)
        if (o[i * s] != (float)(i % 256 - 128) - 3.0f) bad = i;
      CHECK(bad < 0, "int8+int8 in float32 loop, n=%lld strided=%d: [%lld]", (long long)n, strided,
            (long long)bad);
      free(a);
      free(o);
    }
    { /* float64 loop, int16 input, scalar input, int32 out (cast out truncates) */
      int16_t *a = xalloc(n * 2);
      int32_t *o = xalloc(n * 4);
      for (int64_t i = 0; i < n; i++) a[i] = (int16_t)(i - 2500);
      ga_ew_call c = mkcall("true_divide", GA_FLOAT64, 1, &n);
      int64_t sa = 2, so = 4;
      setarg(&c, 0, GA_AK_CONTIG, GA_INT16, a, &sa);
      c.arg[1].kind = GA_AK_SCALAR;
      c.arg[1].value.v_float64 = 4.0;
      setarg(&c, 2, GA_AK_CONTIG, GA_INT32, o, &so);
      run(&c);
      int64_t bad = -1;
      for (int64_t i = 0; i < n && bad < 0; i++)
        if (o[i] != (int32_t)((i - 2500) / 4.0)) bad = i;
      CHECK(bad < 0, "int16/4.0 in float64 loop into int32, n=%lld: [%lld] = %d", (long long)n,
            (long long)bad, bad < 0 ? 0 : o[bad]);
      free(a);
      free(o);
    }
    { /* in place with casts: int16 memory, float32 loop, output is input 0 */
      int16_t *a = xalloc(n * 2);
      uint8_t *b = xalloc(n);
      for (int64_t i = 0; i < n; i++) a[i] = (int16_t)(i % 1000), b[i] = (uint8_t)(i % 5);
      ga_ew_call c = mkcall("multiply", GA_FLOAT32, 1, &n);
      int64_t sa = 2, sb = 1;
      setarg(&c, 0, GA_AK_CONTIG, GA_INT16, a, &sa);
      setarg(&c, 1, GA_AK_CONTIG, GA_UINT8, b, &sb);
      setarg(&c, 2, GA_AK_CONTIG, GA_INT16, a, &sa);
      run(&c);
      int64_t bad = -1;
      for (int64_t i = 0; i < n && bad < 0; i++)
        if (a[i] != (i % 1000) * (i % 5)) bad = i;
      CHECK(bad < 0, "in-place int16 *= uint8 via float32, n=%lld: [%lld]", (long long)n, (long long)bad);
      free(a);
      free(b);
    }
    { /* _arange with cast out: int64 loop into float32 2-d, flat index across chunks */
      int64_t shape[2] = {3, n}, so[2] = {n * 4, 4};
      float *o = xalloc(3 * n * 4);
      ga_ew_call c = mkcall("_arange", GA_INT64, 2, shape);
      setscalar(&c, 0, GA_INT64, 3);
      setscalar(&c, 1, GA_INT64, -2);
      setarg(&c, 2, GA_AK_CONTIG, GA_FLOAT32, o, so);
      run(&c);
      int64_t bad = -1;
      for (int64_t i = 0; i < 3 * n && bad < 0; i++)
        if (o[i] != (float)(3 - 2 * i)) bad = i;
      CHECK(bad < 0, "_arange int64 -> float32 (3,%lld): [%lld]", (long long)n, (long long)bad);
      free(o);
    }
  }
}

/* ---- 4: n-d shapes with strides ---- */

static void test_nd(void) {
  { /* (5,7): a transposed view of a (7,5) array + a broadcast row */
    enum { R = 5, C = 7 };
    double at[C][R], v[C], o[R][C];
    for (int i = 0; i < C; i++) {
      v[i] = 100.0 * i;
      for (int j = 0; j < R; j++) at[i][j] = i * 10 + j;
    }
    int64_t shape[2] = {R, C}, sa[2] = {8, R * 8}, sv[2] = {0, 8}, so[2] = {C * 8, 8};
    ga_ew_call c = mkcall("add", GA_FLOAT64, 2, shape);
    setarg(&c, 0, GA_AK_STRIDED, GA_FLOAT64, at, sa);
    setarg(&c, 1, GA_AK_STRIDED, GA_FLOAT64, v, sv);
    setarg(&c, 2, GA_AK_CONTIG, GA_FLOAT64, o, so);
    run(&c);
    int bad = 0;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) bad += o[i][j] != at[j][i] + v[j];
    CHECK(!bad, "2-d transposed + broadcast row: %d wrong", bad);
  }
  { /* (3,4,5): input permuted from memory (5,3,4), a (4,) broadcast over axes 0 and 2,
       output written with its last axis reversed; int32 memory in an int64 loop */
    enum { A = 3, B = 4, D = 5 };
    int32_t m[D][A][B], w[B], o[A][B][D];
    for (int i = 0; i < D; i++)
      for (int j = 0; j < A; j++)
        for (int k = 0; k < B; k++) m[i][j][k] = i * 100 + j * 10 + k;
    for (int k = 0; k < B; k++) w[k] = 1000 * (k + 1);
    memset(o, 0, sizeof o);
    int64_t shape[3] = {A, B, D};
    int64_t sm[3] = {B * 4, 4, A * B * 4}, sw[3] = {0, 4, 0}, so[3] = {B * D * 4, D * 4, -4};
    for (int cast = 0; cast < 2; cast++) {
      ga_ew_call c = mkcall("subtract", cast ? GA_INT64 : GA_INT32, 3, shape);
      setarg(&c, 0, GA_AK_STRIDED, GA_INT32, m, sm);
      setarg(&c, 1, GA_AK_STRIDED, GA_INT32, w, sw);
      setarg(&c, 2, GA_AK_STRIDED, GA_INT32, &o[0][0][D - 1], so);
      run(&c);
      int bad = 0;
      for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
          for (int k = 0; k < D; k++) bad += o[i][j][D - 1 - k] != m[k][i][j] - w[j];
      CHECK(!bad, "3-d permuted - broadcast, reversed out (cast=%d): %d wrong", cast, bad);
    }
  }
  { /* _arange's _i is the C-order flat index even when the output is F-ordered */
    enum { R = 3, C = 5 };
    double o[R * C];
    int64_t shape[2] = {R, C}, so[2] = {8, R * 8};
    ga_ew_call c = mkcall("_arange", GA_FLOAT64, 2, shape);
    c.arg[0].kind = c.arg[1].kind = GA_AK_SCALAR;
    c.arg[0].value.v_float64 = 0.5;
    c.arg[1].value.v_float64 = 2.0;
    setarg(&c, 2, GA_AK_STRIDED, GA_FLOAT64, o, so);
    run(&c);
    int bad = 0;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) bad += o[i + R * j] != 0.5 + 2.0 * (i * C + j);
    CHECK(!bad, "_arange 2-d F-ordered out: %d wrong", bad);
  }
  { /* in place on a transposed 2-d view, no cast */
    enum { R = 6, C = 9 };
    float m[C][R];
    for (int i = 0; i < C; i++)
      for (int j = 0; j < R; j++) m[i][j] = (float)(i * R + j);
    int64_t shape[2] = {R, C}, s[2] = {4, R * 4};
    ga_ew_call c = mkcall("multiply", GA_FLOAT32, 2, shape);
    setarg(&c, 0, GA_AK_STRIDED, GA_FLOAT32, m, s);
    setarg(&c, 1, GA_AK_STRIDED, GA_FLOAT32, m, s);
    setarg(&c, 2, GA_AK_STRIDED, GA_FLOAT32, m, s);
    run(&c);
    int bad = 0;
    for (int i = 0; i < C; i++)
      for (int j = 0; j < R; j++) bad += m[i][j] != (float)((i * R + j) * (i * R + j));
    CHECK(!bad, "in-place square of a transposed view: %d wrong", bad);
  }
  { /* complex128 only 8-byte aligned (a view at an odd element of a complex64-sized grid) */
    enum { N = 33 };
    char *raw = xalloc(N * 16 + 8);
    char *p = raw + 8;
    for (int i = 0; i < N; i++) store_complex(p + 16 * i, GA_COMPLEX128, i, -i);
    int64_t n = N, s = 16;
    ga_ew_call c = mkcall("multiply", GA_COMPLEX128, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_COMPLEX128, p, &s);
    setarg(&c, 1, GA_AK_CONTIG, GA_COMPLEX128, p, &s);
    setarg(&c, 2, GA_AK_CONTIG, GA_COMPLEX128, p, &s);
    run(&c);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      val v = load(p + 16 * i, GA_COMPLEX128);
      bad += v.re != 0 || v.im != -2.0 * i * i;
    }
    CHECK(!bad, "complex128 at 8-byte alignment: %d wrong", bad);
    free(raw);
  }
  { /* misaligned data (a reinterpreted view): float64 at an odd address, through
       the loops and through the casts; UBSan checks that nothing loads it typed */
    enum { N = 37 };
    char *raw = xalloc(N * 8 * 3 + 3);
    char *x = raw + 1, *y = raw + 1 + N * 8, *o = raw + 2 + 2 * N * 8;
    for (int i = 0; i < N; i++) store_double(x + 8 * i, GA_FLOAT64, i), store_int(y + 8 * i, GA_INT64, 2 * i);
    int64_t n = N, s = 8;
    ga_ew_call c = mkcall("add", GA_FLOAT64, 1, &n);
    setarg(&c, 0, GA_AK_CONTIG, GA_FLOAT64, x, &s);
    setarg(&c, 1, GA_AK_CONTIG, GA_INT64, y, &s);      /* cast in */
    setarg(&c, 2, GA_AK_CONTIG, GA_FLOAT64, o, &s);
    run(&c);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += ga_load_double(o + 8 * i, GA_FLOAT64) != 3.0 * i;
    setarg(&c, 1, GA_AK_CONTIG, GA_FLOAT64, x, &s);    /* no cast */
    run(&c);
    for (int i = 0; i < N; i++) bad += ga_load_double(o + 8 * i, GA_FLOAT64) != 2.0 * i;
    CHECK(!bad, "misaligned float64: %d wrong", bad);
    free(raw);
  }
}

/* ---- 5: casts ---- */

/* Reference result of casting source value s (real or complex, already exact
 * in `from`) to `to`, written independently of ga_host_cast.c. */
static val ref_cast(val s, int from, int to, int64_t si) {
  unsigned char buf[16];
  char fk = GA_KIND(from), tk = GA_KIND(to);
  val r = {0, 0};
  if (tk == 'b') { r.re = (s.re != 0 || s.im != 0); return r; }
  if (tk == 'i' || tk == 'u') {
    if (fk == 'b' || fk == 'i' || fk == 'u') { store_int(buf, to, si); return load(buf, to); }
    /* float -> int: truncate; saturate; NaN -> 0 */
    int bits = 8 * isz(to);
    double lo = tk == 'i' ? -ldexp(1, bits - 1) : 0, hi = tk == 'i' ? ldexp(1, bits - 1) - 1 : ldexp(1, bits) - 1;
    double t = trunc(s.re);
    if (isnan(t)) t = 0;
    if (t < lo) t = lo;
    if (t > hi) t = hi;   /* rounds for 64 bits: compare below through stored values */
    if (bits == 64 && t >= hi) { store_int(buf, to, tk == 'i' ? INT64_MAX : -1); return load(buf, to); }
    if (bits == 64 && tk == 'i' && t <= lo) { store_int(buf, to, INT64_MIN); return load(buf, to); }
    store_double(buf, to, t);
    return load(buf, to);
  }
  /* to float or complex: C conversion of each part */
  if (fk == 'i' || fk == 'u' || fk == 'b') {
    if (tk == 'c') store_complex(buf, to, (double)si, 0);
    else store_int(buf, to, si);
  } else if (tk == 'c') {
    store_complex(buf, to, s.re, s.im);
  } else {
    store_double(buf, to, s.re);
  }
  return load(buf, to);
}

static void test_casts(void) {
  /* Source values: integral ones for every dtype, the rest for inexact ones. */
  static const struct { double re, im; } fv[] = {
    {0, 0}, {1, 0}, {-1, 0}, {2.5, 0}, {-2.5, 0}, {-0.0, 0}, {NAN, 0}, {INFINITY, 0},
    {-INFINITY, 0}, {300, 0}, {-300, 0}, {65504, 0}, {1e10, 0}, {-1e10, 0}, {1e30, 0},
    {0.1, 0}, {1.5, 2.5}, {0, 1}, {0, NAN}, {-0.0, -0.0}, {3e9, 0}, {255.9, 0}, {-0.9, 0},
  };
  static const int64_t iv[] = {0, 1, -1, 127, 128, 255, 256, -129, 32767, 65535, 65536,
                               2147483647, -2147483648LL, 4294967295LL, 9007199254740993LL,
                               INT64_MAX, INT64_MIN};
  for (int from = 0; from < GA_NDTYPES; from++)
    for (int to = 0; to < GA_NDTYPES; to++) {
      ga_cast_fn f = ga_host_cast_fn(from, to);
      CHECK(f != NULL, "no cast %s -> %s", dn(from), dn(to));
      if (!f) continue;
      char fk = GA_KIND(from);
      bool inexact = fk == 'f' || fk == 'c';
      int nv = inexact ? (int)(sizeof fv / sizeof fv[0]) : (int)(sizeof iv / sizeof iv[0]);
      /* source array strided by 3 elements, destination by 2, to test strides */
      char *src = xalloc(nv * 3 * 16), *dst = xalloc(nv * 2 * 16);
      int64_t *sis = xalloc(nv * sizeof(int64_t));
      for (int i = 0; i < nv; i++) {
        char *p = src + 3 * i * isz(from);
        if (inexact) store_complex(p, from, fv[i].re, fv[i].im);
        else {
          store_int(p, from, iv[i]);
          sis[i] = ga_load_int(p, from);   /* the value as stored (wrapped) */
          if (from == GA_UINT64) memcpy(&sis[i], p, 8);
        }
      }
      for (int contig = 0; contig < 2; contig++) {
        int64_t ss = (contig ? 1 : 3) * isz(from), ds = (contig ? 1 : 2) * isz(to);
        if (contig) /* repack densely */
          for (int i = 0; i < nv; i++) memmove(src + i * isz(from), src + 3 * i * isz(from), isz(from));
        memset(dst, 0xAB, nv * 2 * 16);
        f(src, ss, dst, ds, nv);
        for (int i = 0; i < nv; i++) {
          val s = load(src + i * ss, from);
          val want = ref_cast(s, from, to, inexact ? 0 : sis[i]);
          val got = load(dst + i * ds, to);
          if (from == GA_UINT64 && (to == GA_FLOAT32 || to == GA_FLOAT64 || to == GA_FLOAT16 ||
                                    GA_IS_COMPLEX(to))) {
            /* ga_scalar_from_int takes int64: convert the uint64 ourselves */
            uint64_t u = (uint64_t)sis[i];
            unsigned char b[16];
            if (to == GA_FLOAT16) { ga_f16 h = (ga_f16)u; memcpy(b, &h, 2); }
            else if (to == GA_FLOAT32) { float h = (float)u; memcpy(b, &h, 4); }
            else if (to == GA_FLOAT64) { double h = (double)u; memcpy(b, &h, 8); }
            else if (to == GA_COMPLEX64) { ga_c64 h = (float)u; memcpy(b, &h, 8); }
            else { ga_c128 h = (double)u; memcpy(b, &h, 16); }
            want = load(b, to);
          }
          bool ok = same_val(got, want);
          if ((GA_IS_INT(to)) && ok) {   /* compare integers exactly, beyond 2^53 */
            int64_t g = 0, w = 0;
            memcpy(&g, dst + i * ds, isz(to));
            unsigned char b[16];
            if (inexact) {
              /* recompute the reference in the integer domain */
              double t = trunc(s.re);
              int bits = 8 * isz(to);
              if (GA_KIND(to) == 'i') {
                double h = ldexp(1, bits - 1);
                int64_t mx = (int64_t)(UINT64_MAX >> (65 - bits)), v;
                v = isnan(t) ? 0 : t >= h ? mx : t <= -h ? -mx - 1 : (int64_t)t;
                store_int(b, to, v);
              } else {
                double h = ldexp(1, bits);
                uint64_t mx = UINT64_MAX >> (64 - bits), v;
                v = !(t > -1) ? 0 : t >= h ? mx : (uint64_t)t;
                memcpy(b, &v, 8);
              }
            } else {
              store_int(b, to, sis[i]);
            }
            memcpy(&w, b, isz(to));
            ok = g == w;
          }
          CHECK(ok, "cast %s -> %s (%s) of %g%+gi: got %.17g%+gi want %.17g%+gi", dn(from), dn(to),
                contig ? "contig" : "strided", s.re, s.im, got.re, got.im, want.re, want.im);
        }
      }
      free(src);
      free(dst);
      free(sis);
    }
  /* spot checks of the rules, written out */
  {
    double d[4] = {NAN, -0.0, 0.0, 1e-300};
    bool b[4];
    ga_host_cast_fn(GA_FLOAT64, GA_BOOL)((char *)d, 8, (char *)b, 1, 4);
    CHECK(b[0] && !b[1] && !b[2] && b[3], "float64 -> bool: nan true, -0 false, tiny true");
    ga_f16 h[2];
    ga_host_cast_fn(GA_FLOAT64, GA_FLOAT16)((char *)d, 8, (char *)h, 2, 2);
    CHECK(isnan((double)h[0]) && h[1] == 0 && signbit((double)h[1]), "float64 -> float16 keeps nan and -0");
    ga_c128 z[2] = {C128(1.5, -2.5), C128(0, 1)};
    float f[2];
    int8_t i8[2];
    bool zb[2];
    ga_host_cast_fn(GA_COMPLEX128, GA_FLOAT32)((char *)z, 16, (char *)f, 4, 2);
    ga_host_cast_fn(GA_COMPLEX128, GA_INT8)((char *)z, 16, (char *)i8, 1, 2);
    ga_host_cast_fn(GA_COMPLEX128, GA_BOOL)((char *)z, 16, (char *)zb, 1, 2);
    CHECK(f[0] == 1.5f && f[1] == 0 && i8[0] == 1 && i8[1] == 0 && zb[0] && zb[1],
          "complex -> real drops the imaginary part; -> bool looks at both");
    float neg[3] = {-1.0f, 300.0f, -2.9f};
    uint8_t u8[3];
    int8_t s8[3];
    ga_host_cast_fn(GA_FLOAT32, GA_UINT8)((char *)neg, 4, (char *)u8, 1, 3);
    ga_host_cast_fn(GA_FLOAT32, GA_INT8)((char *)neg, 4, (char *)s8, 1, 3);
    CHECK(u8[0] == 0 && u8[1] == 255 && u8[2] == 0 && s8[0] == -1 && s8[1] == 127 && s8[2] == -2,
          "float -> small int truncates, saturates");
    int64_t big = (1LL << 53) + 1;
    double bd;
    ga_host_cast_fn(GA_INT64, GA_FLOAT64)((char *)&big, 8, (char *)&bd, 8, 1);
    CHECK(bd == 9007199254740992.0, "int64 2^53+1 -> float64 rounds to even");
    uint64_t um = UINT64_MAX;
    double ud;
    ga_host_cast_fn(GA_UINT64, GA_FLOAT64)((char *)&um, 8, (char *)&ud, 8, 1);
    CHECK(ud == 18446744073709551616.0, "uint64 max -> float64");
    int64_t m1 = -1;
    uint64_t mu;
    ga_host_cast_fn(GA_INT64, GA_UINT64)((char *)&m1, 8, (char *)&mu, 8, 1);
    CHECK(mu == UINT64_MAX, "int64 -1 -> uint64 wraps");
  }
}

/* ---- 6: matmul ---- */

typedef struct tmat {
  ga_buffer buf;
  ga_array a;
} tmat;

/* (r, c) matrix of dtype dt; layout 0: C-contiguous, 1: F-contiguous (a
 * transposed view), 2: every other row and column of a larger one, 3: rows
 * broadcast (stride 0 on axis 0), 4: row-major with padded rows (ld > c),
 * 5: both strides negative. */
static void tmat_init(tmat *t, int dt, int64_t r, int64_t c, int layout) {
  int64_t s = isz(dt), nbytes = r * c * s * 4 + s;
  memset(t, 0, sizeof *t);
  t->buf.refcount = 1;
  t->buf.device = GA_CPU;
  t->buf.ptr = xalloc(nbytes);
  t->buf.nbytes = nbytes;
  ga_array *a = &t->a;
  a->buf = &t->buf;
  a->dtype = dt;
  a->ndim = 2;
  a->shape[0] = r, a->shape[1] = c;
  a->size = r * c;
  switch (layout) {
  case 0: a->strides[0] = c * s, a->strides[1] = s; break;
  case 1: a->strides[0] = s, a->strides[1] = r * s; break;
  case 2: a->strides[0] = 4 * c * s, a->strides[1] = 2 * s; break;
  case 3: a->strides[0] = 0, a->strides[1] = s; break;
  case 4: a->strides[0] = (c + 3) * s, a->strides[1] = s; break;
  case 5: a->strides[0] = -c * s, a->strides[1] = -s, a->offset = (r * c - 1) * s; break;
  }
}

static double tget(const tmat *t, int64_t i, int64_t j) {
  return ga_load_double(GA_DATA(&t->a) + i * t->a.strides[0] + j * t->a.strides[1], t->a.dtype);
}

static void tset(tmat *t, int64_t i, int64_t j, double v) {
  store_double(GA_DATA(&t->a) + i * t->a.strides[0] + j * t->a.strides[1], t->a.dtype, v);
}

static void test_matmul_case(int dt, int64_t m, int64_t k, int64_t n, int la, int lb) {
  tmat A, B, O;
  tmat_init(&A, dt, m, k, la);
  tmat_init(&B, dt, k, n, lb);
  tmat_init(&O, dt, m, n, 0);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < k; j++) tset(&A, i, j, (double)((i * 7 + j * 3) % 11) / 4.0 - 1.0);
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < n; j++) tset(&B, i, j, (double)((i * 5 + j * 2) % 13) / 8.0 - 0.75);
  int rc = ga_host_matmul(&A.a, &B.a, &O.a);
  CHECK(rc == 0, "matmul %s: %s", dn(dt), rc ? ga_errmsg() : "");
  double tol = dt == GA_FLOAT64 ? 1e-12 : dt == GA_FLOAT32 ? 1e-5 : 2e-3;
  double worst = 0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double ref = 0;
      for (int64_t l = 0; l < k; l++) ref += tget(&A, i, l) * tget(&B, l, j);
      double err = fabs(tget(&O, i, j) - ref) / (1.0 + fabs(ref));
      if (!(err <= worst)) worst = err;
    }
  CHECK(worst <= tol, "matmul %s (%lld,%lld)@(%lld,%lld) layouts %d,%d: rel err %g", dn(dt),
        (long long)m, (long long)k, (long long)k, (long long)n, la, lb, worst);
  free(A.buf.ptr);
  free(B.buf.ptr);
  free(O.buf.ptr);
}

static void test_matmul(void) {
  static const int dts[] = {GA_FLOAT16, GA_FLOAT32, GA_FLOAT64};
  static const int64_t dims[][3] = {{1, 1, 1}, {3, 4, 5}, {17, 9, 33}, {64, 70, 40}, {1, 8, 1}, {5, 1, 6}};
  for (size_t d = 0; d < 3; d++)
    for (size_t s = 0; s < sizeof dims / sizeof dims[0]; s++)
      for (int la = 0; la < 6; la++)
        for (int lb = 0; lb < 6; lb++)
          test_matmul_case(dts[d], dims[s][0], dims[s][1], dims[s][2], la, lb);

  { /* k = 0 gives zeros; m = 0 does nothing */
    tmat A, B, O;
    tmat_init(&A, GA_FLOAT32, 2, 0, 0);
    tmat_init(&B, GA_FLOAT32, 0, 3, 0);
    tmat_init(&O, GA_FLOAT32, 2, 3, 0);
    memset(O.buf.ptr, 0xFF, 24);
    CHECK(ga_host_matmul(&A.a, &B.a, &O.a) == 0 && tget(&O, 1, 2) == 0 && tget(&O, 0, 0) == 0,
          "matmul with k = 0 gives zeros");
    free(A.buf.ptr), free(B.buf.ptr), free(O.buf.ptr);
  }
  { /* the output may be an input: the result uses the old values */
    tmat A, B, ref;
    tmat_init(&A, GA_FLOAT64, 4, 4, 0);
    tmat_init(&B, GA_FLOAT64, 4, 4, 0);
    tmat_init(&ref, GA_FLOAT64, 4, 4, 0);
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) tset(&A, i, j, i + 2 * j), tset(&B, i, j, i == j ? 2 : 1);
    ga_host_matmul(&A.a, &B.a, &ref.a);
    CHECK(ga_host_matmul(&A.a, &B.a, &A.a) == 0 && memcmp(A.buf.ptr, ref.buf.ptr, 128) == 0,
          "matmul into its own input");
    free(A.buf.ptr), free(B.buf.ptr), free(ref.buf.ptr);
  }
  { /* errors */
    tmat A, B, O;
    tmat_init(&A, GA_FLOAT32, 2, 3, 0);
    tmat_init(&B, GA_FLOAT32, 4, 2, 0);
    tmat_init(&O, GA_FLOAT32, 2, 2, 0);
    CHECK(ga_host_matmul(&A.a, &B.a, &O.a) == GA_EINVAL, "matmul shape mismatch is EINVAL");
    B.a.shape[0] = 3;
    B.a.dtype = GA_FLOAT64;
    CHECK(ga_host_matmul(&A.a, &B.a, &O.a) == GA_EINVAL, "matmul dtype mismatch is EINVAL");
    B.a.dtype = GA_FLOAT32;
    O.a.strides[1] = 16;
    CHECK(ga_host_matmul(&A.a, &B.a, &O.a) == GA_EINVAL, "matmul non-contiguous out is EINVAL");
    free(A.buf.ptr), free(B.buf.ptr), free(O.buf.ptr);
  }
}

static void test_mem(void) {
  void *p = NULL, *q = NULL;
  CHECK(ga_host_raw_alloc(NULL, 1000, &p) == 0 && p && ((uintptr_t)p & 63) == 0, "raw alloc aligned");
  CHECK(ga_host_raw_alloc(NULL, 0, &q) == 0 && q, "raw alloc of 0 bytes");
  ga_host_raw_free(NULL, p);
  ga_host_raw_free(NULL, q);
}

int main(void) {
  test_sweep();
  test_named();
  test_buffered();
  test_nd();
  test_casts();
  test_matmul();
  test_mem();
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail ? 1 : 0;
}
