/* Shared by the reduction generators (ga_cuda_reduce.c, ga_cuda_redk.c):
 * combining trees and the split of long reductions over the device. */
#ifndef GA_CUDA_RED_H
#define GA_CUDA_RED_H
#include "base/ga_strbuf.h"
#include <stdint.h>

/* The combining tree of a group of g threads */
void ga_cuda_red_group_combine(ga_strbuf *b, int g);
void ga_cuda_red_col_combine(ga_strbuf *b, int v, const char *acc, const char *has);
/* How a reduction of n elements per output, read by `threads` threads in
 * groups of g with v-element loads, splits into segments on nsm
 * multiprocessors: *seg and *nseg are left alone when it does not split. */
void ga_cuda_red_split(int64_t n, int64_t threads, int g, int v, int nsm, int64_t *seg, int64_t *nseg);
/* The same for COL kernels: nout outputs in blocks of 32 x v, nred rows. */
void ga_cuda_red_col_split(int64_t nout, int64_t nred, int v, int nsm, int64_t *seg, int64_t *nseg);

#endif
