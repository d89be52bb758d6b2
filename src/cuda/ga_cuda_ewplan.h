/* Launch planning shared by the elementwise kernels of the built-in ufuncs
 * (ga_cuda_ew.c) and of ElementwiseKernel (ga_cuda_ewk.c).  Both run the
 * same two loop shapes of kernels/ga_ew.cuh: dense (a 1-d loop, VEC
 * consecutive elements per thread, vector accesses) and strided (a
 * grid-stride loop over the collapsed shape, byte strides in an index
 * struct passed by value).  The index width, the vector width, the grid
 * and the index struct are decided here, once for both. */
#ifndef GA_CUDA_EWPLAN_H
#define GA_CUDA_EWPLAN_H
#include "base/ga_calls.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GA_EW_BLOCK 256   /* threads per block of every elementwise kernel */

/* One operand as the planner sees it. */
typedef struct ga_ewp_arg {
  const int64_t *st;   /* byte strides over the loop shape; NULL: nothing
                          indexed along the loop (a scalar, a raw array) */
  const char *data;    /* first element (contig only) */
  int itemsize;
  bool contig;         /* moved with vector accesses by the dense kernel */
} ga_ewp_arg;

/* 64-bit index arithmetic: the loop's element count or some operand's byte
 * span reaches GA_IDX32_LIMIT. */
int ga_ewp_idx64(int64_t size, int ndim, const int64_t *shape, int n, const ga_ewp_arg *a);

/* Elements per thread of the dense kernel: 16 bytes of the widest
 * contiguous operand when every contiguous pointer is aligned for that
 * many, else 1; `none` when no operand is contiguous. */
int ga_ewp_vec(int n, const ga_ewp_arg *a, int none);

/* The grid of a dense (one block per GA_EW_BLOCK * vec elements) or
 * grid-stride (capped at 16 blocks per multiprocessor) launch. */
int ga_ewp_blocks(int device, bool dense, int64_t size, int vec, unsigned *blocks);

/* The strided kernel's index struct, by value: shape[ndim], then one row of
 * strides[ndim] per entry of rows (NULL: zeros), in int or long long. */
typedef union ga_ew_ix {
  int i[(GA_EWK_MAXARGS + 1) * GA_MAXDIM];
  long long l[(GA_EWK_MAXARGS + 1) * GA_MAXDIM];
} ga_ew_ix;
/* Fills ix; returns its size in bytes. */
size_t ga_ewp_index(ga_ew_ix *ix, bool idx64, int ndim, const int64_t *shape, int nrows,
                    const int64_t *const *rows);

#endif
