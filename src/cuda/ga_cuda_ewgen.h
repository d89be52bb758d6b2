/* The source of an elementwise kernel, for the built-in ufuncs
 * (ga_cuda_ew.c) and ElementwiseKernel (ga_cuda_ewk.c): the per-call
 * #defines (index type, VEC, the operand lists), the signature and index
 * struct, and the loop skeleton of kernels/ga_ew.cuh, whose //@ lines the
 * caller fills with its per-element code. */
#ifndef GA_CUDA_EWGEN_H
#define GA_CUDA_EWGEN_H
#include "base/ga_calls.h"
#include "base/ga_strbuf.h"
#include <stdbool.h>
#include <stddef.h>

enum {
  GA_EWG_SCALAR,    /* a kernel parameter, declared by the caller's param() */
  GA_EWG_CONTIG,    /* dense: T *_ga_p<k>, vector accesses */
  GA_EWG_BCAST,     /* T *_ga_p<k>, one element */
  GA_EWG_STRIDED,   /* char *_ga_p<k> + byte offset _ga_o<k> */
  GA_EWG_OTHER      /* declared by the caller's param() (raw arrays) */
};

typedef struct ga_ewg_arg {
  int kind;        /* GA_EWG_* */
  const char *T;   /* C type of an element in memory */
  bool in;         /* an input (read only) */
  bool vload;      /* an output the vector path loads first (the code reads it) */
  int row;         /* STRIDED: its row of the index struct */
} ga_ewg_arg;

enum { GA_EWG_TILE_NONE, GA_EWG_TILE_ROWS, GA_EWG_TILE_TRANSPOSE };

typedef struct ga_ewg {
  const char *name;
  bool idx64, dense;
  int vec, ndim, nrows, n;
  int tile;          /* GA_EWG_TILE_*: a strided kernel's shape */
  int tx, r;         /* tiled rows: threads along a row, elements each */
  unsigned staged;   /* transpose: operands (bit k) through shared memory */
  ga_ewg_arg a[GA_EWK_MAXARGS];
  /* the parameter of a SCALAR or OTHER operand, with its leading ", " */
  void (*param)(ga_strbuf *b, int k, const void *ud);
  /* the code of a //@ line: "prologue", "vbody", "dbody", "sbody", "tbody"
   * (forms 'v', 'd', 's', 't' of ga_ewg_ref), "epilogue" */
  void (*fill)(ga_strbuf *b, const char *hole, const void *ud);
  const void *ud;
} ga_ewg;

/* Append the #defines and the filled skeleton. */
void ga_ewg_emit(ga_strbuf *b, const ga_ewg *g);

/* Operand k's element (not a SCALAR or OTHER one) in a body of form 'v'
 * (vector registers), 'd' (dense pointers, index i), 's' (byte offsets) or
 * 't' (a tile: staged in shared memory, else byte offsets). */
void ga_ewg_ref(char *buf, size_t n, const ga_ewg *g, int k, char form);

#endif
