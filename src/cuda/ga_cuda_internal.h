/* Shared by the ga_cuda_*.c files only. */
#ifndef GA_CUDA_INTERNAL_H
#define GA_CUDA_INTERNAL_H
#include <cuda_runtime_api.h>
#include "cuda/ga_cuda.h"

#define GA_MAX_DEVICES 64

/* A dtype's CUDA C type name, and the type its arithmetic computes in
 * (float16 computes in float and rounds once on store). */
static inline const char *ga_cu_type(int dt) { return ga_dtypes[dt].cuda; }
static inline const char *ga_cu_compute(int dt) { return dt == GA_FLOAT16 ? "float" : ga_dtypes[dt].cuda; }

/* Turn a CUDA error into the thread's message; returns GA_ECUDA. */
int ga_cuda_error(cudaError_t e, const char *what);
#define GA_CU(call, what) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) return ga_cuda_error(e_, what); } while (0)

/* Cached device facts (filled on first use). */
const ga_device_props *ga_cuda_props(int dev);
/* Its multiprocessors, what grids are sized by (132, an H100's, when the
 * properties cannot be read). */
int ga_cuda_sm_count(int dev);

/* A library (NCCL) may have called cudaSetDevice behind our back: the
 * next ga_cuda_set_device sets the device again whatever it was. */
void ga_cuda_forget_device(void);

/* cuBLAS's workspace for one call (ga_cuda_blas.c), as backend scratch
 * from the allocator in use, so that ga.cuda.set_allocator serves it too:
 * get it before taking a handle's lock (an allocator function runs Lua),
 * set it on the handle after cublasSetStream (which resets it), give it
 * back with ga_scratch_put once the work is queued.  *ptr is 256-aligned;
 * *size may be 0 (none: GPUARRAY_CUBLAS_WORKSPACE=0); cap > 0 caps it
 * (a handle that runs no GEMM needs little). */
#include "base/ga_scratch.h"
int ga_cuda_blas_workspace_get(int dev, void *stream, size_t cap, ga_scratch *w, void **ptr, size_t *size);
int ga_cuda_blas_workspace_set(void *handle, void *ptr, size_t size);   /* cublasSetWorkspace */

#endif
