/* Advanced indexing (NumPy's integer index arrays and boolean masks) as a
 * plan: which elements of x a key selects, in which order and shape.  The
 * plan is one loop over the selection: each selection dimension moves x (a
 * basic-indexed view) by a byte stride, and each index array by its own
 * (broadcast) stride; after the walk the index values are read, checked and
 * added as index * stride of their axis.  Gather (x[key]), scatter
 * (x[key] = v) and scatter-add (add_at) all run on that plan.  No Lua, no
 * CUDA: the backends are ga_host_gather.c and ga_cuda_gather.c. */
#ifndef GA_GATHER_H
#define GA_GATHER_H
#include "base/ga_index.h"

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

/* Plan items[0..n) on x.  Each ARRAY item is an integer index array
 * (1-based, negatives from the end) or a boolean mask; for a mask at key
 * position p, coords[p] is a (k, nnz) int64 array on x's device holding the
 * 1-based coordinates of its true elements (ga_mask_coords), k = the mask's
 * ndim.  Every array must be on x's device.  Errors: a float index array,
 * a mask whose shape differs from the axes it covers, too many indices,
 * index arrays that do not broadcast, an integer out of range. */
int ga_adv_prepare(const ga_array *x, const ga_index_item *items, int n, const ga_array *const *coords,
                   ga_adv *adv);

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

/* out = x[key] (a new array of adv->shape, x's dtype, on x's device). */
int ga_adv_get(const ga_adv *adv, ga_array *out, void *stream);
/* x[key] = v, or x[key] += v with repeated positions accumulating (add).
 * v has x's dtype and broadcasts to the selection (NumPy drops its leading
 * length-1 axes beyond the selection's).  v must not share x's memory, nor
 * may an index array (the caller copies them). */
int ga_adv_set(const ga_adv *adv, const ga_array *v, int add, void *stream);

/* A boolean mask (host, any strides): the number of true elements, and,
 * with out != NULL, their 1-based coordinates in C order into out, a
 * C-contiguous (mask->ndim, count) int64 host array. */
int64_t ga_mask_count(const ga_array *mask);
void ga_mask_coords(const ga_array *mask, ga_array *out);

/* Backends.  Bounds: the host checks every index before touching x; the
 * GPU kernel skips (and, for GET, writes 0 for) an out-of-range index, sets
 * a device-side flag and the call synchronises its stream to read it. */
int ga_host_gather(const ga_gather_call *c);
int ga_cuda_gather(const ga_gather_call *c);
/* Kernel source for a call (specs: compiled with NVRTC, no GPU needed). */
char *ga_cuda_gather_source(const ga_gather_call *c);

#endif
