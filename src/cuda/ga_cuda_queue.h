/* Launch batching.  Elementwise kernels are not launched one by one: each
 * goes into the queue of its (device, stream), and the queue is flushed when
 * it holds GA_QUEUE_MAX launches or before any other CUDA work (copies,
 * cuBLAS, events, synchronisation, freeing device memory).  A flushed batch
 * whose sequence of kernels was seen before runs as one cached CUDA graph
 * whose node parameters are updated in place: on an H200 VM that costs
 * ~1.1 us per kernel against ~3.3 us for a plain cuLaunchKernel.  Order on
 * each stream is unchanged, and nothing synchronises.
 * GPUARRAY_BATCH=0 (or GPUARRAY_MEM_DEBUG=1) launches every kernel at once. */
#ifndef GA_CUDA_QUEUE_H
#define GA_CUDA_QUEUE_H
#include <stddef.h>

#define GA_QUEUE_MAX 32

/* Queue (or launch) func<<<grid, block, smem, stream>>> with nparams
 * parameters whose values are copied from params[i] (sizes[i] bytes). */
int ga_cuda_enqueue(int dev, void *stream, void *func, unsigned grid, unsigned block, unsigned smem,
                    int nparams, void *const *params, const size_t *sizes);
/* The same with 3-d grid and block (RawKernel). */
int ga_cuda_enqueue3(int dev, void *stream, void *func, const unsigned grid[3], const unsigned block[3],
                     unsigned smem, int nparams, void *const *params, const size_t *sizes);
/* ga_cuda_flush(dev) is declared in ga_cuda.h. */

#endif
