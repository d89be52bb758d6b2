/* The reduction pipeline on CUDA, under built-in reductions
 * (ga_cuda_reduce.c) and ReductionKernel (ga_cuda_redk.c): a family
 * describes its call (a ga_cred) and emits its per-call text; planning, the
 * index width, keys, the source's frame, launch geometry and the run with
 * its partial accumulators and combining launch are ga_cuda_red.c's; the
 * kernel is kernels/ga_reduce.cuh. */
#ifndef GA_CUDA_RED_H
#define GA_CUDA_RED_H
#include "base/ga_calls.h"
#include "base/ga_strbuf.h"
#include "cuda/ga_cuda_kernel.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GA_CRED_BLOCK 256
#define GA_CRED_MAXARR GA_EWK_MAXARGS

/* Kernel shapes (kernels/ga_reduce.cuh):
 *  - ROW: a group of G threads (1, 32 ... 256) reduces one output, or one
 *    segment of it; the reduced elements are read along their own
 *    dimension, with 16-byte vector loads when the reduced dimension is
 *    contiguous (or constant) in every input and aligned.  Few long outputs
 *    (a full reduction) are split into segments per output so that the
 *    whole GPU reads; the segments' accumulators go to a temporary and a
 *    second kernel (FIN_ROW, a group per output) combines them and
 *    post-maps.
 *  - COL: the kept innermost dimension is contiguous in every input and the
 *    reduced one is not (sum over the first axis): 32 x 8 threads, x over V
 *    consecutive outputs each (vector loads along the row), y over reduced
 *    positions; the 8 partial accumulators of an output are combined
 *    through shared memory.  The reduced range may be split over gridDim.y
 *    (FIN_COL, a thread per output, combines the splits).
 * Every combination happens in a fixed order for a given call and device
 * (no atomics), so a result has the same bits on every run. */
enum { GA_CRED_ROW, GA_CRED_COL, GA_CRED_FIN_ROW, GA_CRED_FIN_COL };

typedef struct ga_cred_arr {
  uintptr_t data;        /* the first element (its alignment) */
  int itemsize;
  const int64_t *so;     /* byte strides over the kept dims */
  const int64_t *sr;     /* inputs: over the reduced dims; NULL for an output */
} ga_cred_arr;

struct ga_cred_shape;
typedef void (*ga_cred_emit_fn)(ga_strbuf *b, const struct ga_cred_shape *s);

/* A reduction call as the pipeline sees it */
typedef struct ga_cred {
  int ondim, rndim;      /* collapsed, >= 1 */
  const int64_t *oshape, *rshape;
  int64_t nout, nred;
  int narr, nin;         /* arrays, the first nin of them inputs */
  ga_cred_arr arr[GA_CRED_MAXARR];
  int acc_itemsize;      /* of acc_s's value */
  bool noident;
  /* the family's part */
  unsigned kfam;         /* GA_KFAM_* */
  const char *name;      /* the kernel's */
  ga_cred_emit_fn prelude;   /* types, acc_s, r_ident, r_red, r_shfl, r_fold ... */
  ga_cred_emit_fn hooks;     /* the per-call macros of ga_reduce.cuh (after the shape's) */
  void (*key)(ga_kpack *p, const struct ga_cred_shape *s);   /* what else changes the source */
  const void *call;      /* the family's call */
  int nparam;            /* the kernel's parameters before the common ones */
  void *param[GA_EWK_MAXARGS + 2];
  size_t psize[GA_EWK_MAXARGS + 2];
  int device;
  void *stream;
} ga_cred;

/* The dims, device and stream of a family's call (the fields' names are the
 * same in ga_red_call and ga_redk_call) */
#define GA_CRED_FROM(d, c) \
  ((d)->ondim = (c)->ondim, (d)->rndim = (c)->rndim, (d)->oshape = (c)->oshape, (d)->rshape = (c)->rshape, \
   (d)->nout = (c)->nout, (d)->nred = (c)->nred, (d)->device = (c)->device, (d)->stream = (c)->stream, (d)->call = (c))

typedef struct ga_cred_shape {
  const ga_cred *c;
  int kind;              /* GA_CRED_* */
  int g;                 /* ROW, FIN_ROW: threads per group */
  int v;                 /* elements per vector load (1 = none) */
  int contig;            /* ROW: the reduced dimension is contiguous (1-d) */
  int idx64;
  int ridx64;            /* positions within a reduced row need 64 bits */
  int64_t nseg, seg;     /* segments per output and their length */
} ga_cred_shape;

/* ROW with contiguous rows: array input a is constant along the row (read
 * once per output, not loaded as vectors) */
static inline bool ga_cred_hoisted(const ga_cred_shape *s, int a) {
  return s->kind == GA_CRED_ROW && s->contig && s->c->arr[a].sr[0] == 0;
}

/* The first kernel of a call on nsm multiprocessors; the second (the
 * combining kernel of a split one) */
void ga_cuda_red_plan(const ga_cred *c, ga_cred_shape *s, int nsm);
void ga_cuda_red_fin(const ga_cred_shape *s, ga_cred_shape *f);
/* The source of a shape's kernel (a ga_kgen_fn: ud is the shape) */
char *ga_cuda_red_source(const void *shape);
/* Run the call: the kernel, and the combining one when it splits */
int ga_cuda_red_run(const ga_cred *c);

#endif
