/* The CUDA backend's dense solvers (cuda/ga_cuda_solver.c): the `lapack`
 * slot on cuSOLVER (dlopen) and cuBLAS's batched LU, and the source of the
 * solvers' kernels (which: 0 the batched routines' pointer arrays, 1 the
 * one-sided Jacobi SVD, 2 its eigh, 3 the two-sided real eigh) for
 * the specs' NVRTC check. */
#ifndef GA_CUDA_SOLVER_H
#define GA_CUDA_SOLVER_H
#include "base/ga_linalg_call.h"

int ga_cuda_lapack(const ga_la_call *c);
char *ga_cuda_linalg_source(int which, int dtype, int n);

#endif
