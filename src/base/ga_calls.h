/* The call descriptors a backend receives (DESIGN.md, Architecture): what
 * the core's pipelines hand to the slots of ga_backend (base/ga_backend.h)
 * once operands are checked, broadcast, cast and collapsed.  Backends
 * include this (and base/) only, never the core headers. */
#ifndef GA_CALLS_H
#define GA_CALLS_H
#include "base/ga_array.h"
#include "base/ga_index.h"
#include "base/ga_ops.h"
#include <stdbool.h>

/* ---- elementwise (core/ga_elementwise.c) ---- */
#define GA_MAXARGS 8

enum { GA_AK_CONTIG, GA_AK_BCAST, GA_AK_SCALAR, GA_AK_STRIDED };  /* arg kinds */

typedef struct ga_ew_arg {
  char *data;                     /* first element (not used for SCALAR) */
  int dtype;                      /* dtype in memory */
  int kind;                       /* GA_AK_*: CONTIG = dense with the loop's
                                     natural strides (itemsize) in 1-d; BCAST =
                                     every stride 0 (one element);
                                     SCALAR = `value`, already of the loop type */
  ga_scalar value;
  int64_t strides[GA_MAXDIM];     /* bytes, over the collapsed shape */
} ga_ew_arg;

typedef struct ga_ew_call {
  const ga_op *op;
  int nin, nout;
  int loop_types[GA_MAXARGS];     /* loop dtype of each arg (ins then outs) */
  int ndim;                       /* collapsed, >= 1 */
  int64_t size;                   /* number of elements, > 0 */
  int64_t shape[GA_MAXDIM];       /* collapsed shape */
  ga_ew_arg arg[GA_MAXARGS];      /* ins then outs */
  bool dense;                     /* ndim == 1 and every arg CONTIG/BCAST/SCALAR */
  int device;
  void *stream;
} ga_ew_call;

/* ---- reductions: the rows (base/ga_reduce.def, base/ga_redops.c) ---- */
/* Accumulator/output rules (ga_reduce.def).  The same rules as dtype ID
 * tokens for the host loop generators: GA_RACC_<RULE>(T) and
 * GA_ROUT_<RULE>(T) name a column of GA_REDRULE_TOKENS (SUMACC ...), whose
 * rows the generators turn into per-T typedefs. */
enum { GA_RULE_SUM, GA_RULE_SAME, GA_RULE_BOOL, GA_RULE_COUNT, GA_RULE_ARG, GA_RULE_MEAN };

#define GA_RACC_SUM(T) GA_SUMACC_##T
#define GA_ROUT_SUM(T) GA_SUMOUT_##T
#define GA_RACC_SAME(T) GA_HALFUP_##T
#define GA_ROUT_SAME(T) T
#define GA_RACC_BOOL(T) BOOL
#define GA_ROUT_BOOL(T) BOOL
#define GA_RACC_COUNT(T) INT64
#define GA_ROUT_COUNT(T) INT64
#define GA_RACC_ARG(T) GA_HALFUP_##T
#define GA_ROUT_ARG(T) INT64
#define GA_RACC_MEAN(T) GA_MEANACC_##T
#define GA_ROUT_MEAN(T) GA_MEANOUT_##T

#define GA_REDRULE_TOKENS(X)                                                  \
  /* T           SUMACC      SUMOUT      HALFUP      MEANACC     MEANOUT */   \
  X(BOOL,        INT64,      INT64,      BOOL,       FLOAT64,    FLOAT64)     \
  X(INT8,        INT64,      INT64,      INT8,       FLOAT64,    FLOAT64)     \
  X(UINT8,       UINT64,     UINT64,     UINT8,      FLOAT64,    FLOAT64)     \
  X(INT16,       INT64,      INT64,      INT16,      FLOAT64,    FLOAT64)     \
  X(UINT16,      UINT64,     UINT64,     UINT16,     FLOAT64,    FLOAT64)     \
  X(INT32,       INT64,      INT64,      INT32,      FLOAT64,    FLOAT64)     \
  X(UINT32,      UINT64,     UINT64,     UINT32,     FLOAT64,    FLOAT64)     \
  X(INT64,       INT64,      INT64,      INT64,      FLOAT64,    FLOAT64)     \
  X(UINT64,      UINT64,     UINT64,     UINT64,     FLOAT64,    FLOAT64)     \
  X(FLOAT16,     FLOAT32,    FLOAT16,    FLOAT32,    FLOAT32,    FLOAT16)     \
  X(FLOAT32,     FLOAT32,    FLOAT32,    FLOAT32,    FLOAT32,    FLOAT32)     \
  X(FLOAT64,     FLOAT64,    FLOAT64,    FLOAT64,    FLOAT64,    FLOAT64)     \
  X(COMPLEX64,   COMPLEX64,  COMPLEX64,  COMPLEX64,  COMPLEX64,  COMPLEX64)   \
  X(COMPLEX128,  COMPLEX128, COMPLEX128, COMPLEX128, COMPLEX128, COMPLEX128)

#define GA_REDF_NOIDENT 1u
#define GA_REDF_IDX 2u
#define GA_REDF_ARG 4u
#define GA_REDF_SCAN 8u

typedef enum ga_red_id {
#define GA_RED(ID, name, tset, rule, flags, ...) GA_RED_##ID,
#include "base/ga_reduce.def"
#undef GA_RED
  GA_NREDS
} ga_red_id;

typedef struct ga_red_op {
  int id;
  const char *name;
  uint32_t types;       /* bitmask of input loop dtypes */
  int rule;             /* GA_RULE_* */
  unsigned flags;       /* GA_REDF_* */
  const char *identity, *map, *reduce, *post;   /* statements, for NVRTC */
} ga_red_op;

extern const ga_red_op ga_red_ops[GA_NREDS];
const ga_red_op *ga_red_find(const char *name);
/* The accumulator's dtype (float16 accumulates in float32) and the output's
 * dtype of row r for input loop dtype T. */
int ga_red_acc_dtype(const ga_red_op *r, int T);
int ga_red_out_dtype(const ga_red_op *r, int T);

/* ---- a reduction call (core/ga_reduce.c) ---- */
typedef struct ga_red_call {
  const ga_red_op *op;
  int T, acc, out_dtype;          /* input (already of dtype T), accumulator, output */
  const char *in;                 /* first element of the input */
  char *out;                      /* first element of the output */
  int ondim;                      /* kept dims (collapsed, C order, >= 1) */
  int64_t oshape[GA_MAXDIM];
  int64_t istr_o[GA_MAXDIM];      /* input byte strides over the kept dims */
  int64_t ostr[GA_MAXDIM];        /* output byte strides */
  int rndim;                      /* reduced dims (collapsed, C order, >= 1) */
  int64_t rshape[GA_MAXDIM];
  int64_t istr_r[GA_MAXDIM];      /* input byte strides over the reduced dims */
  int64_t nout, nred;             /* products of oshape and rshape; nout > 0 */
  int device;
  void *stream;
} ga_red_call;

/* ---- scans (core/ga_scan.c) ---- */
typedef struct ga_scan_call {
  const ga_red_op *op;
  int T, acc, out_dtype;   /* input (of dtype T), accumulator, output */
  const char *in;          /* C-contiguous (outer, n, inner), dtype T */
  char *out;               /* C-contiguous (outer, n, inner), out_dtype; may be `in` when
                              T and out_dtype have one size */
  int64_t outer, n, inner; /* each > 0 */
  int device;
  void *stream;
} ga_scan_call;

/* ---- nonzero (core/ga_scan.c) ---- */
/* What a backend receives: flags (n bytes, non-zero = true, C order of the
 * shape), and either count (pass 0: *count = the number of true flags) or
 * scatter into out (pass 1: position k (1-based) of the j-th true element
 * at out + j * s0 + k * s1 bytes, int64). */
typedef struct ga_nz_call {
  const unsigned char *flags;
  int64_t n;
  int ndim;
  int64_t shape[GA_MAXDIM];
  int64_t *out;
  int64_t s0, s1;        /* byte strides of out (see above) */
  int device;
  void *stream;
} ga_nz_call;

/* ---- sorting and searching (core/ga_sort.c; keys: base/ga_sort_key.c) ---- */
/* Sort nrows rows of n elements of `dtype` from src into dst (both
 * C-contiguous, distinct); with idx != NULL also write, for each output
 * element, its 1-based position in its input row (int64): argsort.  With
 * idx != NULL, dst may be NULL: only the positions are written. */
typedef struct ga_sort_call {
  int device;
  void *stream;
  int dtype;
  int64_t nrows, n;
  const char *src;
  char *dst;
  int64_t *idx;
} ga_sort_call;

/* Insertion points: for each of the m values v (C-contiguous, dtype) the
 * 1-based position in sorted a (n elements, C-contiguous, same dtype) where
 * it would go: before the first element not less than it (left) or not
 * less or equal (right); int64 into out. */
typedef struct ga_search_call {
  int device;
  void *stream;
  int dtype;
  const char *a;
  int64_t n;
  const char *v;
  int64_t m;
  int64_t *out;
  int right;
} ga_search_call;

/* Key of an element: the order of (w2, w1, w0) as unsigned integers is the
 * sort order.  Bytes of the key that matter: ga_sort_key_bytes. */
typedef struct ga_sort_key { uint64_t w2, w1, w0; } ga_sort_key;
ga_sort_key ga_sort_key_of(const void *p, int dtype);
int ga_sort_key_bytes(int dtype);
/* Which CUDA sort runs (tests and comparisons; set by core._sort_path):
 * AUTO chooses by row length (ga_cuda_sort.c); the others force one (the
 * warp and block row kernels where they can take the row length, else
 * onesweep; DIGIT the per-digit pipeline).  ga_sort_kpt / ga_sort_minb: the
 * onesweep pass's keys per thread and resident blocks per SM, for
 * comparisons (0: the environment's GPUARRAY_SORT_KPT / _MINB, else the
 * default). */
enum { GA_SORT_PATH_AUTO, GA_SORT_PATH_ONESWEEP, GA_SORT_PATH_WARP, GA_SORT_PATH_BLOCK, GA_SORT_PATH_DIGIT };
extern int ga_sort_path, ga_sort_kpt, ga_sort_minb;

/* ---- advanced indexing (core/ga_gather.c) ---- */
#define GA_GATHER_MAXIDX GA_MAXDIM   /* index arrays in one key */

enum { GA_GATHER_GET, GA_GATHER_SET, GA_GATHER_ADD };

typedef struct ga_gather_idx {
  const char *data;                /* element 0 of the index array */
  int dtype;                       /* any integer dtype */
  int64_t strides[GA_MAXDIM];      /* bytes, per selection dimension (0: broadcast) */
  int64_t n;                       /* length of the axis it indexes */
  int64_t stride;                  /* x's byte stride along that axis */
  int axis;                        /* that axis of x, 0-based (for messages) */
} ga_gather_idx;

/* A key applied to x.  `view` is x after the key's basic items (ints,
 * ranges, newaxis, ellipsis; each index array kept as a whole axis): same
 * buffer, new geometry. */
typedef struct ga_adv {
  ga_array view;
  int ndim;                        /* the selection */
  int64_t shape[GA_MAXDIM];
  int64_t size;
  int64_t xstrides[GA_MAXDIM];     /* view's byte stride per selection dim (0 on index dims) */
  int nidx;
  ga_gather_idx idx[GA_GATHER_MAXIDX];
  ga_array rows[GA_GATHER_MAXIDX]; /* views of masks' coordinate rows (see below) */
} ga_adv;

/* The backends' call: the plan plus the other operand.  GET: out[sel] =
 * x[...] (out has the selection shape, x's dtype).  SET / ADD: x[...] = /
 * += v, v of x's dtype seen with `vstrides` over the selection. */
typedef struct ga_gather_call {
  const ga_adv *adv;
  int mode;                        /* GA_GATHER_* */
  char *x;                         /* element 0 of adv->view */
  int dtype;
  char *v;                         /* GET: the output; else the value */
  int64_t vstrides[GA_MAXDIM];
  int device;
  void *stream;
} ga_gather_call;

/* ---- ElementwiseKernel (core/ga_ewk.c) ---- */
#define GA_EWK_MAXARGS 16       /* inputs + outputs */
#define GA_EWK_NAMELEN 64       /* identifiers, including the NUL */

typedef struct ga_ewk_param {
  char name[GA_EWK_NAMELEN];
  int dtype;            /* the declared dtype, or -1 for a placeholder */
  int tvar;             /* placeholder: index into ga_ewk.tnames; else -1 */
  bool raw, out;
  bool write_first;     /* output the operation assigns before it reads it:
                           the vector path need not load it */
  bool may_write;       /* raw input the kernel's texts may write through
                           (ga_ewk_may_write): a read-only array is refused */
} ga_ewk_param;

typedef struct ga_ewk {
  int nin, nout;
  ga_ewk_param p[GA_EWK_MAXARGS];   /* inputs then outputs */
  int ntv;                          /* type placeholders, in order of appearance */
  char tnames[GA_EWK_MAXARGS][GA_EWK_NAMELEN];
  const char *what;                 /* "ElementwiseKernel" (or the kernel family reusing this), for messages */
  /* not owned; they must outlive the object (the binding keeps them) */
  const char *name, *operation, *preamble, *loop_prep, *after_loop;
  bool reduce_dims;
  bool host_ok;                     /* host arrays run it too (the host backend's compiled C++) */
  int math;                         /* 1: gpuarray's math library (ga_exp ...) is
                                       in the source; 2: with its complex part */
  uint64_t hash[2];                 /* of everything that reaches the source */
} ga_ewk;

enum {
  GA_EWK_K_CONTIG,      /* dense, itemsize stride (collapsed to 1-d) */
  GA_EWK_K_BCAST,       /* every stride 0: one element */
  GA_EWK_K_SCALAR,      /* `value`, a kernel parameter */
  GA_EWK_K_STRIDED,     /* byte strides over the collapsed loop shape */
  GA_EWK_K_RAWC,        /* raw, C-contiguous: pointer + size */
  GA_EWK_K_RAWS         /* raw, any layout: its own (collapsed) shape and strides */
};

/* an argument the element loop addresses (not a scalar, not raw) */
static inline bool ga_ewk_is_array(int kind) {
  return kind == GA_EWK_K_CONTIG || kind == GA_EWK_K_BCAST || kind == GA_EWK_K_STRIDED;
}

/* the type name parameter a of k is declared with in generated kernel
 * text (every backend's): its dtype's name (`bool` for bool), or its
 * placeholder */
static inline const char *ga_ewk_param_type(const ga_ewk *k, int a) {
  const ga_ewk_param *p = &k->p[a];
  if (p->dtype >= 0) return p->dtype == GA_BOOL ? "bool" : ga_dtypes[p->dtype].name;
  return k->tnames[p->tvar];
}

typedef struct ga_ewk_arg {
  int kind;
  int dtype;
  char *data;
  ga_scalar value;
  int64_t rsize;                    /* raw: number of elements */
  int rndim;                        /* RAWS */
  int64_t rshape[GA_MAXDIM];        /* RAWS */
  int64_t strides[GA_MAXDIM];       /* STRIDED (loop shape) and RAWS (own) */
} ga_ewk_arg;

typedef struct ga_ewk_call {
  const ga_ewk *k;
  int nargs;                        /* nin + nout */
  int tv_dtype[GA_EWK_MAXARGS];
  int ndim;                         /* collapsed, >= 1 */
  int64_t size;                     /* > 0 */
  int64_t shape[GA_MAXDIM];
  bool dense;                       /* ndim 1, non-raw arrays CONTIG or BCAST */
  ga_ewk_arg arg[GA_EWK_MAXARGS];
  int device;
  void *stream;
} ga_ewk_call;

/* ---- ReductionKernel (core/ga_redk.c) ---- */
typedef struct ga_redk {
  ga_ewk e;             /* parameters, name, preamble; e.operation is map_expr */
  /* not owned (the binding keeps them); identity NULL: none */
  const char *map_expr, *reduce_expr, *post_map_expr, *identity;
  int red_dtype;        /* reduce_type: a dtype, or -1 ... */
  int red_tvar;         /* ... a placeholder of the parameters */
  uint64_t hash[2];     /* of everything that reaches the source */
} ga_redk;

enum { GA_REDK_ARRAY = 16, GA_REDK_SCALAR };   /* argument kinds of a call */

typedef struct ga_redk_arg {
  int kind, dtype;
  char *data;
  ga_scalar value;                  /* SCALAR */
  int64_t so[GA_MAXDIM];            /* byte strides over the kept dims (inputs and outputs) */
  int64_t sr[GA_MAXDIM];            /* inputs: over the reduced dims */
} ga_redk_arg;

typedef struct ga_redk_call {
  const ga_redk *k;
  int nargs;                        /* nin + nout */
  int tv_dtype[GA_EWK_MAXARGS];
  int red_dtype;
  ga_redk_arg arg[GA_EWK_MAXARGS];
  int ondim;                        /* kept dims (collapsed, C order, >= 1) */
  int64_t oshape[GA_MAXDIM];
  int rndim;                        /* reduced dims (collapsed, C order, >= 1) */
  int64_t rshape[GA_MAXDIM];
  int64_t nout, nred;               /* nout > 0 when there is something to run */
  int64_t in_size;                  /* elements of the broadcast inputs (_in_ind.size()) */
  int device;
  void *stream;
} ga_redk_call;


/* ---- random draws (core/ga_backend.c: ga_rand; the stream is
 * kernels/ga_philox.cuh) ---- */
typedef struct ga_rand_call {
  void *out;               /* n contiguous values of dtype */
  int dtype;               /* float32/float64 (floats); any integer (ints); uint32 (bits) */
  int64_t n;
  int dist;                /* GA_RNG_* of kernels/ga_philox.cuh */
  uint64_t off;            /* the stream word of value 0 */
  uint32_t k0, k1, s;      /* key, substream */
  double p0, p1;
  uint64_t ilow, irange;
  const double *pa, *pb;   /* rejection draws: per-value p0, p1 (n contiguous float64) or NULL */
  const double *pc;        /* hypergeometric: per-value nsample, or NULL (ilow) */
  int device;
  void *stream;
} ga_rand_call;

/* ---- cuRAND's generators, for users who want CuPy's streams' kind (GPU
 * only; core/ga_backend.c: ga_curand_*) ---- */
enum { GA_CURAND_XORWOW = 0, GA_CURAND_MRG32K3A };
enum { GA_CURAND_BITS = 0, GA_CURAND_UNIFORM, GA_CURAND_NORMAL, GA_CURAND_LOGNORMAL };
typedef struct ga_curand_call {
  void *gen;               /* from ga_curand_open */
  void *out;               /* n contiguous values: uint32 (bits), float32/float64 */
  int dtype;
  int64_t n;
  int what;                /* GA_CURAND_BITS ... */
  double mean, stddev;     /* normal, log-normal */
  void *stream;
} ga_curand_call;

/* ---- FFT (core/ga_fft.c): batched 1-D transforms along one axis ---- */
enum { GA_FFT_C2C, GA_FFT_R2C, GA_FFT_C2R };
typedef struct ga_fft_call {
  int kind;                /* GA_FFT_*: complex->complex, real->complex (n/2+1 out),
                              complex (n/2+1 in)->real */
  int inverse;             /* C2C: sign +1 (unnormalised inverse); C2R is always inverse */
  int dtype_in, dtype_out; /* float32/complex64 or float64/complex128, one precision */
  int64_t n;               /* the transform's length, >= 1 */
  const char *in;          /* element 0 of the first transform's input */
  char *out;
  int64_t in_len, out_len; /* elements along the axis: n or n/2+1 by kind */
  int64_t istride, ostride;/* bytes between neighbours along the axis (istride may be
                              anything; ostride > 0) */
  int bndim;               /* batch axes (collapsed, C order, >= 1) */
  int64_t bshape[GA_MAXDIM], bistr[GA_MAXDIM], bostr[GA_MAXDIM];
  int64_t batch;           /* product of bshape, > 0 */
  double scale;            /* every output value is to be multiplied by it: by the
                              backend (the slot sets *scaled), else by the core */
  int in_writable;         /* the input is a private copy the backend may overwrite */
  /* A multi-axis C2C transform (ga_fft_axes): rank 2 or 3 axes transformed
   * together; the axis above is the innermost, these the outer ones,
   * outermost first, with their lengths and byte strides (each a multiple
   * of the next inner one, at least its length times it).  rank 0 or 1:
   * one axis.  Only backends that set fft_multi get rank > 1. */
  int rank;
  int64_t outer_n[2], outer_istr[2], outer_ostr[2];
  int device;
  void *stream;
} ga_fft_call;

/* The plan cache of a device (ga.fft.config): what fft_cache reports and
 * the operations it takes. */
enum { GA_FFTC_GET, GA_FFTC_SET_SIZE, GA_FFTC_SET_MEMSIZE, GA_FFTC_CLEAR };
typedef struct ga_fft_cache_info {
  int64_t size, max_size;        /* plans held; limit (-1: none, 0: caching off) */
  int64_t memsize, max_memsize;  /* bytes held by plans (work areas, twiddles); limit (-1: none) */
  int64_t hits, misses;          /* look-ups since the process started */
  int64_t created;               /* plans made */
} ga_fft_cache_info;


/* ---- matrix products (core/ga_matmul.c): out[b] = a[b] @ b[b] for b <
 * batch, one dtype (the core casts first).  Strides are bytes, multiples of
 * the itemsize, data aligned to it.  For float and complex dtypes (BLAS)
 * the core guarantees each of a and b has a unit stride along one of its
 * two matrix axes (and a positive other stride covering that axis), and
 * out a unit column stride with a row stride >= n*itemsize (any when m ==
 * 1); integer and bool matrices may have any strides.  Batch strides may
 * be 0 for a and b (a broadcast operand is never copied). ---- */
typedef struct ga_matmul_call {
  int dtype;
  int64_t m, n, k;          /* a (m, k) @ b (k, n) -> out (m, n); m, n, k >= 1, each <= INT32_MAX */
  int64_t batch;            /* >= 1 */
  const char *a, *b;        /* element (0, 0) of batch 0 */
  char *out;
  int64_t as[3], bs[3], os[3];   /* byte strides: batch, row, column */
  int device;
  void *stream;
} ga_matmul_call;


/* How BLAS can read a (rows, cols) matrix at byte strides (rs, cs): *trans
 * = 0 when its rows are contiguous (ld = rs / isz elements, >= cols), 1
 * when its columns are (ld = cs / isz, >= rows); a stride over an axis of
 * length 1 does not matter.  False when neither works (a copy is needed).
 * One rule for the core (which copies) and the BLAS backends (which pass
 * transpose flags and leading dimensions). */
static inline bool ga_matmul_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, int64_t isz,
                                    int *trans, int64_t *ld) {
  if ((cols <= 1 || cs == isz) && (rows <= 1 || (rs > 0 && rs % isz == 0 && rs / isz >= cols))) {
    *trans = 0;
    *ld = rows <= 1 ? (cols > 1 ? cols : 1) : rs / isz;
    return *ld <= INT32_MAX;
  }
  if ((rows <= 1 || rs == isz) && (cols <= 1 || (cs > 0 && cs % isz == 0 && cs / isz >= rows))) {
    *trans = 1;
    *ld = cols <= 1 ? (rows > 1 ? rows : 1) : cs / isz;
    return *ld <= INT32_MAX;
  }
  return false;
}

#endif
