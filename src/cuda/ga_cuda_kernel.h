/* The in-process kernel cache: structural key -> loaded kernel, per device.
 * A hit builds no source; a miss generates it, compiles it (disk cache,
 * else NVRTC) and loads it with cudaLibraryLoadData. */
#ifndef GA_CUDA_KERNEL_H
#define GA_CUDA_KERNEL_H
#include <stdint.h>

typedef struct ga_kkey { uint64_t w[4]; } ga_kkey;
typedef char *(*ga_kgen_fn)(const void *ud);  /* malloc'ed source or NULL */

/* *kernel is what ga_cuda_launch takes. */
int ga_cuda_kernel_get(int dev, const ga_kkey *key, const char *name, ga_kgen_fn gen,
                       const void *ud, void **kernel);
/* Launch a kernel from ga_cuda_kernel_get now: a 1-d grid of 1-d blocks.
 * (Kernels normally go through ga_cuda_enqueue, ga_cuda_queue.h.) */
int ga_cuda_launch_now(void *kernel, unsigned grid, unsigned block, unsigned smem, void *stream, void **args);
/* The same with 3-d grid and block (RawKernel). */
int ga_cuda_launch_now3(void *kernel, const unsigned grid[3], const unsigned block[3], unsigned smem,
                        void *stream, void **args);
/* A cudaKernel_t from a loaded library -> what the launches take (a
 * CUfunction of the current context when the driver entry points exist). */
int ga_cuda_kernel_function(void *cuda_kernel, void **kernel);
/* Resident blocks per multiprocessor of a kernel from ga_cuda_kernel_get
 * for `block` threads and `smem` dynamic bytes (0 when unknown). */
int ga_cuda_kernel_occupancy(void *kernel, int block, int smem);
/* Compute capability as an integer (90 for sm_90). */
int ga_cuda_arch(int dev);

#endif
