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

#endif
