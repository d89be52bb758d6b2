/* The elementwise pipeline shared by both backends: loop resolution (NumPy's
 * linear search, NEP 50 weak scalars), broadcasting, output checks, dimension
 * collapsing, and the hand-off to the backend of the operands' device. */
#include "core/ga_mem.h"
#include "core/ga_elementwise.h"
#include "core/ga_backend.h"
#include "base/ga_shape.h"
#include <stdio.h>
#include <string.h>

/* The dtype a Lua number stands for next to arrays of promoted dtype P:
 * P's own when P's kind can hold the number's kind, else the default. */
static int weak_dtype(const ga_operand *o, int P) {
  char k = GA_KIND(P);
  if (o->kind == GA_ARG_BOOL) return P;
  if (o->kind == GA_ARG_INT) return (k == 'b') ? GA_INT64 : P;
  return (k == 'f' || k == 'c') ? P : GA_FLOAT64;
}

/* The dtype a Lua number counts as where a cast of it is refused. */
static int scalar_dtype(const ga_operand *o) {
  return o->kind == GA_ARG_BOOL ? GA_BOOL : o->kind == GA_ARG_INT ? GA_INT64 : GA_FLOAT64;
}

/* May a Lua number go into loop dtype lt under `casting`?  NumPy's rule for
 * Python scalars (can_cast_pyscalar_scalar_to): an integer goes into any
 * number dtype (its value is checked against lt afterwards), a float into
 * any inexact one; otherwise they count as int64 / float64.  A boolean is a
 * bool, as NumPy's Python bool. */
static bool weak_can_cast(const ga_operand *o, int lt, int casting) {
  if (o->kind != GA_ARG_BOOL &&
      (GA_IS_FLOAT(lt) || GA_IS_COMPLEX(lt) || (o->kind == GA_ARG_INT && GA_IS_INT(lt))))
    return true;
  return ga_can_cast(scalar_dtype(o), lt, casting);
}

/* The mixed comparison loop (int64 first, or uint64 first) for these
 * operands, or -1: one side uint64, the other a signed integer array. */
static int mixed_cmp(const ga_operand *ins, const int *eff) {
  if (ins[0].kind != GA_ARG_ARRAY || ins[1].kind != GA_ARG_ARRAY) return -1;
  if (eff[1] == GA_UINT64 && GA_KIND(eff[0]) == 'i') return GA_INT64;
  if (eff[0] == GA_UINT64 && GA_KIND(eff[1]) == 'i') return GA_UINT64;
  return -1;
}

/* Are all outputs of op's loop t of dtype X (every output for X < 0)? */
static bool outputs_are(const ga_op *op, int t, int X) {
  for (int k = 0; k < op->nout && X >= 0; k++)
    if (ga_op_arg_dtype(op, t, op->nin + k) != X) return false;
  return true;
}

/* NumPy's linear search: the first loop (with outputs X when X >= 0) every
 * input casts to safely.  Without X, Lua numbers are their weak dtypes
 * eff[k]; with X (NumPy's dtype= signature) and in fixed slots (ldexp's
 * exponent), they are judged by their own kind.  *mixed: the comparison
 * loop qQ/Qq NumPy finds before the floats, or -1. */
static int search(const ga_op *op, const ga_operand *ins, const int *eff, int X, int *mixed) {
  *mixed = -1;
  for (int t = 0; t < GA_NDTYPES; t++) {
    if (t == GA_FLOAT16 && op->sig == GA_SIG_CMP && X < 0 && (*mixed = mixed_cmp(ins, eff)) >= 0) return -1;
    if (!(op->types & (1u << t)) || !outputs_are(op, t, X)) continue;
    bool ok = true;
    for (int k = 0; k < op->nin && ok; k++) {
      int lt = ga_op_arg_dtype(op, t, k);
      if (ins[k].kind != GA_ARG_ARRAY && (X >= 0 || ga_op_in_fixed(op, k)))
        ok = weak_can_cast(&ins[k], lt, GA_CAST_SAFE);
      else
        ok = ga_can_cast(eff[k], lt, GA_CAST_SAFE);
    }
    if (ok) return t;
  }
  return -1;
}

/* NumPy's second try for dtype=X: the loop whose every argument is X, the
 * inputs cast as the casting rule allows (checked after).  A fixed slot is
 * part of a ufunc's signature (NumPy refuses ldexp(float64, 3,
 * dtype=float32)), but not of the rows behind Lua functions ("_round",
 * "_where": NumPy's round and where have no dtype=): their decimals and
 * cond are not what dtype= names. */
static bool homogeneous(const ga_op *op, int X) {
  if (!(op->types & (1u << X))) return false;
  bool internal = op->name[0] == '_';
  for (int k = 0; k < op->nin + op->nout; k++)
    if (ga_op_arg_dtype(op, X, k) != X && !(internal && k < op->nin && ga_op_in_fixed(op, k))) return false;
  return true;
}

/* A GA_OPF_TRUTH op's loop: the operands' dtype when they are arrays of
 * one dtype, else bool (each operand cast to bool: its own truth). */
static int truth_loop(const ga_op *op, const ga_operand *ins) {
  int t = ins[0].kind == GA_ARG_ARRAY ? ins[0].arr->dtype : -1;
  for (int k = 1; k < op->nin && t >= 0; k++)
    if (ins[k].kind != GA_ARG_ARRAY || ins[k].arr->dtype != t) t = -1;
  return t >= 0 ? t : GA_BOOL;
}

/* The inputs against the chosen loop: NumPy applies the casting rule to
 * the input casts too (not for a GA_OPF_TRUTH op: its cast to bool is the
 * truth test), and a Lua integer must fit an integer loop dtype. */
static int check_inputs(const ga_ew_plan *plan, const ga_operand *ins, int casting) {
  const ga_op *op = plan->op;
  char in[24] = "input";   /* "input %d" of any int */
  for (int k = 0; k < op->nin; k++) {
    int lt = plan->in_dtype[k];
    const ga_operand *o = &ins[k];
    bool arr = o->kind == GA_ARG_ARRAY;
    bool castable = arr ? ga_can_cast(o->arr->dtype, lt, casting) : weak_can_cast(o, lt, casting);
    if (!castable && !(op->flags & GA_OPF_TRUTH)) {
      if (op->nin > 1) snprintf(in, sizeof in, "input %d", k);
      return ga_err(GA_ETYPE, "Cannot cast ufunc '%s' %s from %s to %s with casting rule '%s'", op->name, in,
                    ga_dtypes[arr ? o->arr->dtype : scalar_dtype(o)].name, ga_dtypes[lt].name,
                    ga_casting_names[casting]);
    }
    if (o->kind == GA_ARG_INT && GA_IS_INT(lt) && !ga_int_fits(lt, o->i))
      return ga_err(GA_EINVAL, "Lua integer %lld out of bounds for %s", (long long)o->i, ga_dtypes[lt].name);
  }
  return GA_OK;
}

/* The loop of each op's last call without dtype= (a dispatch cache, as
 * NumPy keeps): the loop search then depends only on the arrays' dtypes
 * and the kinds of the Lua numbers (their weak dtypes follow from those),
 * except a comparison's Lua integer, whose value can make it int64.  One
 * word per op, read and written whole: bit 0 valid, per input (nin <= 3)
 * 5 bits from bit 1 (an array's dtype, or 16 + a Lua number's kind), T + 1
 * and mixed + 1 in 6 bits each from bits 16 and 22. */
static uint64_t loop_memo[GA_NOPS];

int ga_ew_prepare(const ga_op *op, const ga_operand *ins, int dtype_req, int casting,
                  ga_ew_plan *plan) {
  const ga_array *arrs[GA_MAXARGS];
  int pdt[GA_MAXARGS];
  int device = 0, narr = 0, np = 0;
  bool all_bool = true, arrays_bool = true;
  char b1[32], b2[32];
  for (int k = 0; k < op->nin; k++) {
    arrs[k] = NULL;
    if (ins[k].kind != GA_ARG_ARRAY) {
      if (ins[k].kind != GA_ARG_BOOL) all_bool = false;
      continue;
    }
    const ga_array *a = ins[k].arr;
    arrs[k] = a;
    if (narr++ == 0) device = GA_DEVICE(a);
    else if (GA_DEVICE(a) != device) {
      const char *n1 = ga_device_name(device, b1);
      return ga_err(GA_EDEVICE, "operands are on different devices (%s and %s); move one with "
                    "x:to(\"%s\") (ga.asarray(x) under that device; x:get() to the host)",
                    n1, ga_device_name(GA_DEVICE(a), b2), n1);
    }
    /* a fixed-dtype slot (ldexp's exponent) does not promote the others */
    if (!ga_op_in_fixed(op, k)) pdt[np++] = a->dtype;
    if (a->dtype != GA_BOOL) all_bool = arrays_bool = false;
  }
  if (narr == 0) return ga_err(GA_EINVAL, "at least one operand must be an array");
  /* (with dtype= a non-bool loop is asked for: subtract(b, b, dtype=int8)) */
  if ((op->flags & GA_OPF_NOBOOL) && all_bool && (dtype_req < 0 || dtype_req == GA_BOOL))
    return ga_err(GA_ETYPE, "the boolean %s is not supported (as in NumPy); use the logical or "
                  "bitwise functions instead", op->name);
  /* the weak scalars' reference dtype (none: nothing to compute) */
  int P = np && narr < op->nin ? ga_result_type(np, pdt, sizeof pdt[0]) : -1;

  int eff[GA_MAXARGS];
  for (int k = 0; k < op->nin; k++) {
    if (ins[k].kind == GA_ARG_ARRAY) { eff[k] = ins[k].arr->dtype; continue; }
    /* with arrays only in fixed slots (ldexp(1, int16_array)) a weak
     * integer fits any loop (NumPy gives float16), a float is float64 */
    eff[k] = P >= 0 ? weak_dtype(&ins[k], P) : ins[k].kind == GA_ARG_FLOAT ? GA_FLOAT64
             : arrays_bool ? GA_INT64 : GA_BOOL;   /* next to bool only: int64 (NumPy) */
    /* NumPy 2 compares with an out-of-range Python int exactly: int64 holds
     * the value and every integer dtype but uint64 (then float64, where the
     * value is negative and the order survives rounding).  Elsewhere the
     * value is checked against the loop's dtype (check_inputs): uint8 / -1
     * divides in float64. */
    if (op->sig == GA_SIG_CMP && ins[k].kind == GA_ARG_INT && GA_IS_INT(eff[k]) &&
        !ga_int_fits(eff[k], ins[k].i))
      eff[k] = GA_INT64;
  }

  /* dtype= is the outputs' dtype (NumPy's signature (None, ..., X)); the
   * comparisons and logical ops give bool anyway and NumPy ignores it */
  bool bool_op = op->sig == GA_SIG_CMP || (op->flags & GA_OPF_TRUTH);
  int X = dtype_req == GA_BOOL && bool_op ? -1 : dtype_req;
  int T, mixed = -1;
  bool memo = op->nin <= 3 && X < 0 && !(op->flags & GA_OPF_TRUTH);
  uint64_t key = 1, m;
  for (int k = 0; k < op->nin && memo; k++) {
    if (op->sig == GA_SIG_CMP && ins[k].kind == GA_ARG_INT) memo = false;
    bool arr = ins[k].kind == GA_ARG_ARRAY;
    key |= (uint64_t)(arr ? ins[k].arr->dtype : 16 + ins[k].kind) << (1 + 5 * k);
  }
  if (memo && ((m = __atomic_load_n(&loop_memo[op->id], __ATOMIC_RELAXED)) & 0xffff) == key) {
    T = (int)((m >> 16) & 63) - 1;
    mixed = (int)((m >> 22) & 63) - 1;
  } else if (op->flags & GA_OPF_TRUTH) {
    T = outputs_are(op, GA_BOOL, X) ? truth_loop(op, ins) : -1;
  } else {
    if ((T = search(op, ins, eff, X, &mixed)) < 0 && mixed < 0 && X >= 0 && homogeneous(op, X)) T = X;
    if (memo && (T >= 0 || mixed >= 0))
      __atomic_store_n(&loop_memo[op->id], key | (uint64_t)(T + 1) << 16 | (uint64_t)(mixed + 1) << 22,
                       __ATOMIC_RELAXED);
  }
  if (T < 0 && mixed < 0) {
    if (X >= 0)
      return ga_err(GA_ETYPE, "No loop matching the specified signature and casting was found for ufunc %s",
                    op->name);
    char types[256];
    size_t m = 0;
    for (int k = 0; k < op->nin && m < sizeof types; k++)   /* m: what snprintf wanted */
      m += snprintf(types + m, sizeof types - m, "%s%s", k ? ", " : "", ga_dtypes[eff[k]].name);
    return ga_err(GA_ETYPE, "ufunc '%s' not supported for the input types (%s)", op->name, types);
  }
  /* a FLOATY loop of integer T reads T and computes in float64: a Lua
   * integer T cannot hold makes it the float64 loop (NumPy's dd->d) */
  bool int_floaty = op->sig == GA_SIG_FLOATY && mixed < 0 && !GA_IS_FLOAT(T) && !GA_IS_COMPLEX(T);
  for (int k = 0; k < op->nin && int_floaty; k++)
    if (ins[k].kind == GA_ARG_INT && !ga_int_fits(T, ins[k].i)) T = ga_op_arg_dtype(op, T, op->nin);

  plan->op = op;
  if (mixed >= 0) {
    plan->loop_dtype = mixed;
    plan->in_dtype[0] = mixed;
    plan->in_dtype[1] = mixed == GA_INT64 ? GA_UINT64 : GA_INT64;
  } else {
    plan->loop_dtype = T;
    for (int k = 0; k < op->nin; k++) plan->in_dtype[k] = ga_op_arg_dtype(op, T, k);
  }
  for (int k = 0; k < op->nout; k++) plan->out_dtype[k] = ga_op_arg_dtype(op, plan->loop_dtype, op->nin + k);
  plan->device = device;
  int rc = check_inputs(plan, ins, casting);
  return rc ? rc : ga_broadcast_shapes(op->nin, arrs, &plan->ndim, plan->shape);
}

/* Do the inputs' broadcast shape (nd, shape) broadcast up to out's? */
static bool broadcasts_to(int nd, const int64_t *shape, const ga_array *out) {
  if (nd > out->ndim) return false;
  for (int i = 1; i <= nd; i++)
    if (shape[nd - i] != 1 && shape[nd - i] != out->shape[out->ndim - i]) return false;
  return true;
}

int ga_ew_check_out(ga_ew_plan *plan, int k, const ga_array *out, int casting) {
  char b1[32], b2[32], s1[512], s2[512];
  if (ga_check_writable(out)) return ga_errcode();
  /* a zero stride on a longer axis (a broadcast_to view) would be written
   * many times: NumPy's broadcast views are read-only */
  for (int i = 0; i < out->ndim; i++)
    if (out->strides[i] == 0 && out->shape[i] > 1)
      return ga_err(GA_EINVAL, "output array is read-only (a broadcast view: a zero stride repeats its "
                    "elements); write into a copy");
  if (GA_DEVICE(out) != plan->device)
    return ga_err(GA_EDEVICE, "out is on %s but the operands are on %s; make out with the operands' "
                  "module (ga.empty_like(x)) or move data with ga.asarray(x) / x:get()",
                  ga_device_name(GA_DEVICE(out), b1), ga_device_name(plan->device, b2));
  if (out->ndim != plan->ndim || memcmp(out->shape, plan->shape, sizeof(int64_t) * out->ndim)) {
    /* NumPy broadcasts the inputs up to the first out's shape */
    if (k > 0 || !broadcasts_to(plan->ndim, plan->shape, out))
      return ga_err(GA_EINVAL, "out has shape %s but the result has shape %s",
                    ga_shape_str(out->ndim, out->shape, s1, sizeof s1),
                    ga_shape_str(plan->ndim, plan->shape, s2, sizeof s2));
    plan->ndim = out->ndim;
    memcpy(plan->shape, out->shape, sizeof(int64_t) * out->ndim);
  }
  if (!ga_can_cast(plan->out_dtype[k], out->dtype, casting))
    return ga_err(GA_ETYPE, "Cannot cast ufunc '%s' output from %s to %s with casting rule '%s'",
                  plan->op->name, ga_dtypes[plan->out_dtype[k]].name, ga_dtypes[out->dtype].name,
                  ga_casting_names[casting]);
  return GA_OK;
}

/* Merge dimensions that every operand walks contiguously, drop size-1 axes:
 * a C-contiguous n-d op becomes 1-d, the fast kernel. */
static void collapse(ga_ew_call *c) {
  int n = c->nin + c->nout;
  int64_t *st[GA_MAXARGS];
  for (int k = 0; k < n; k++) st[k] = c->arg[k].kind == GA_AK_SCALAR ? NULL : c->arg[k].strides;
  c->ndim = ga_collapse(c->ndim, c->shape, n, st, true);
  c->dense = c->ndim == 1;
  for (int k = 0; k < n; k++) {
    ga_ew_arg *a = &c->arg[k];
    if (a->kind == GA_AK_SCALAR) continue;
    int w = ga_walk(c->ndim, c->shape, a->strides, GA_ITEMSIZE(a->dtype));
    a->kind = w == GA_WALK_BCAST ? GA_AK_BCAST : w == GA_WALK_CONTIG ? GA_AK_CONTIG : GA_AK_STRIDED;
    c->dense = c->dense && w != GA_WALK_STRIDED;
  }
}

/* Bytes [lo, hi) of a's buffer that `a`, seen with `st` over (nd, shape),
 * can touch. */
static void extent(const ga_array *a, int nd, const int64_t *shape, const int64_t *st, int64_t *lo, int64_t *hi) {
  *lo = *hi = a->offset;
  for (int i = 0; i < nd; i++) {
    if (st[i] > 0) *hi += (shape[i] - 1) * st[i];
    else *lo += (shape[i] - 1) * st[i];
  }
  *hi += GA_ITEMSIZE(a->dtype);
}

/* NumPy's rule for an input that shares memory with an output: unless it is
 * the output's identical view (same first byte, itemsize and strides: each
 * element is then read before it is written, by the same thread), the
 * kernel could read elements another thread already wrote, so the input is
 * copied to a temporary first.  Overlap is judged by byte extents, so some
 * interleaved views are copied without need; never the reverse.  tmps[k]
 * holds the copy of input k (buf NULL when none); ins2 the operands to use. */
static int copy_overlapping(const ga_ew_plan *plan, const ga_operand *ins, ga_array *const *outs, void *stream,
                            ga_operand *ins2, ga_array *tmps, bool *any) {
  const ga_op *op = plan->op;
  int64_t st[GA_MAXDIM];
  *any = false;
  for (int k = 0; k < op->nin; k++) {
    ins2[k] = ins[k];
    tmps[k].buf = NULL;
    const ga_array *a = ins[k].arr;
    if (ins[k].kind != GA_ARG_ARRAY) continue;
    ga_broadcast_strides(a, plan->ndim, plan->shape, st);
    int64_t alo, ahi;
    extent(a, plan->ndim, plan->shape, st, &alo, &ahi);
    bool copy = false;
    for (int j = 0; j < op->nout && !copy; j++) {
      const ga_array *o = outs[j];
      if (o->buf != a->buf) continue;
      int64_t olo, ohi;
      extent(o, plan->ndim, plan->shape, o->strides, &olo, &ohi);
      if (ahi <= olo || ohi <= alo) continue;
      bool same = a->offset == o->offset && GA_ITEMSIZE(a->dtype) == GA_ITEMSIZE(o->dtype);
      for (int i = 0; i < plan->ndim && same; i++)
        same = plan->shape[i] == 1 || st[i] == o->strides[i];
      copy = !same;
    }
    if (!copy) continue;
    int rc = ga_array_init(&tmps[k], plan->device, a->dtype, a->ndim, a->shape, stream);
    if (!rc) rc = ga_copy(&tmps[k], a, stream);
    if (rc) {
      for (int i = 0; i <= k; i++) ga_array_release(&tmps[i]);
      return rc;
    }
    ins2[k].arr = &tmps[k];
    *any = true;
  }
  return GA_OK;
}

static int ew_run(const ga_ew_plan *plan, const ga_operand *ins, ga_array *const *outs, void *stream);

int ga_ew_run(const ga_ew_plan *plan, const ga_operand *ins, ga_array *const *outs, void *stream) {
  int64_t size = 1;
  for (int i = 0; i < plan->ndim; i++) size *= plan->shape[i];
  if (size == 0) return GA_OK;
  for (int k = 0; k < plan->op->nout; k++) {
    int rc = ga_check_writable(outs[k]);
    if (rc) return rc;
  }
  ga_operand ins2[GA_MAXARGS];
  ga_array tmps[GA_MAXARGS];
  bool any;
  int rc = copy_overlapping(plan, ins, outs, stream, ins2, tmps, &any);
  if (rc || !any) return rc ? rc : ew_run(plan, ins, outs, stream);
  rc = ew_run(plan, ins2, outs, stream);
  /* device temporaries go back to the stream-ordered pool: the kernel
   * queued on `stream` runs before any later reuse of their blocks */
  for (int k = 0; k < plan->op->nin; k++) ga_array_release(&tmps[k]);
  return rc;
}

static int ew_run(const ga_ew_plan *plan, const ga_operand *ins, ga_array *const *outs, void *stream) {
  const ga_op *op = plan->op;
  ga_ew_call c;
  c.op = op;
  c.nin = op->nin;
  c.nout = op->nout;
  c.ndim = plan->ndim;
  c.size = 1;
  for (int i = 0; i < plan->ndim; i++) c.size *= plan->shape[i];
  if (c.size == 0) return GA_OK;
  memcpy(c.shape, plan->shape, sizeof(int64_t) * plan->ndim);
  c.device = plan->device;
  c.stream = stream;
  for (int k = 0; k < op->nin; k++) {
    ga_ew_arg *a = &c.arg[k];
    c.loop_types[k] = plan->in_dtype[k];
    if (ins[k].kind == GA_ARG_ARRAY) {
      a->kind = GA_AK_STRIDED;
      a->dtype = ins[k].arr->dtype;
      a->data = GA_DATA(ins[k].arr);
      ga_broadcast_strides(ins[k].arr, plan->ndim, plan->shape, a->strides);
    } else {
      a->kind = GA_AK_SCALAR;
      a->dtype = plan->in_dtype[k];
      a->data = NULL;
      if (ins[k].kind != GA_ARG_FLOAT) ga_scalar_from_int(&a->value, a->dtype, ins[k].i);
      else ga_scalar_from_double(&a->value, a->dtype, ins[k].f);
      memset(a->strides, 0, sizeof a->strides);
    }
  }
  for (int k = 0; k < op->nout; k++) {
    ga_ew_arg *a = &c.arg[op->nin + k];
    c.loop_types[op->nin + k] = plan->out_dtype[k];
    a->kind = GA_AK_STRIDED;
    a->dtype = outs[k]->dtype;
    a->data = GA_DATA(outs[k]);
    memcpy(a->strides, outs[k]->strides, sizeof(int64_t) * plan->ndim);
  }
  collapse(&c);
  return ga_backend_of(c.device)->ew(&c);
}

static void plan_for(ga_ew_plan *p, int op, int loop, const ga_array *dst) {
  p->op = &ga_ops[op];
  p->loop_dtype = loop;
  for (int k = 0; k < p->op->nin; k++) p->in_dtype[k] = ga_op_arg_dtype(p->op, loop, k);
  p->out_dtype[0] = ga_op_arg_dtype(p->op, loop, p->op->nin);
  p->ndim = dst->ndim;
  memcpy(p->shape, dst->shape, sizeof(int64_t) * dst->ndim);
  p->device = GA_DEVICE(dst);
}

int ga_copy(ga_array *dst, const ga_array *src, void *stream) {
  ga_ew_plan p;
  const ga_array *both[2] = {dst, src};
  int nd;
  int64_t shape[GA_MAXDIM];
  int rc = ga_broadcast_shapes(2, both, &nd, shape);
  if (rc || nd != dst->ndim || memcmp(shape, dst->shape, sizeof(int64_t) * nd)) {
    char s1[512], s2[512];
    return ga_err(GA_EINVAL, "could not broadcast input array from shape %s into shape %s",
                  ga_shape_str(src->ndim, src->shape, s1, sizeof s1),
                  ga_shape_str(dst->ndim, dst->shape, s2, sizeof s2));
  }
  plan_for(&p, GA_OP_COPY, src->dtype, dst);
  ga_operand in = {GA_ARG_ARRAY, src, 0, 0};
  return ga_ew_run(&p, &in, &dst, stream);
}

int ga_fill(ga_array *dst, const ga_operand *value, void *stream) {
  ga_ew_plan p;
  plan_for(&p, GA_OP_COPY, dst->dtype, dst);
  return ga_ew_run(&p, value, &dst, stream);
}

int ga_arange_fill(ga_array *dst, const ga_operand *start, const ga_operand *step, int loop, void *stream) {
  ga_ew_plan p;
  if (!(ga_ops[GA_OP_ARANGE].types & (1u << loop)))
    return ga_err(GA_ETYPE, "no arange for dtype %s", ga_dtypes[loop].name);
  plan_for(&p, GA_OP_ARANGE, loop, dst);
  ga_operand in[2] = {*start, *step};
  return ga_ew_run(&p, in, &dst, stream);
}
