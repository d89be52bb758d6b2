/* The in-process kernel cache: structural key -> loaded kernel, per device.
 * A hit builds no source; a miss generates it, compiles it (disk cache,
 * else NVRTC) and loads it with cudaLibraryLoadData. */
#ifndef GA_CUDA_KERNEL_H
#define GA_CUDA_KERNEL_H
#include <stdint.h>

typedef struct ga_kkey { uint64_t w[4]; } ga_kkey;
typedef char *(*ga_kgen_fn)(const void *ud);  /* malloc'ed source or NULL */

/* Every generator's key starts with its family, so no two generators' keys
 * can meet; the rest is the call's fields, packed in order by ga_kpack_put. */
enum {
  GA_KFAM_EW = 1, GA_KFAM_EWK, GA_KFAM_REDUCE, GA_KFAM_REDK, GA_KFAM_GATHER,
  GA_KFAM_SCAN, GA_KFAM_NONZERO, GA_KFAM_SORT, GA_KFAM_RAND, GA_KFAM_FFT
};
enum { GA_KFAM_MATMUL = 0x4d };   /* matrix products (ga_cuda_blas.c); apart from the list above */
enum { GA_KFAM_STRIDED_COPY = 0x53 };   /* stepped copies (ga_cuda_ew.c, kernels/ga_strided.cuh) */

typedef struct ga_kpack { ga_kkey *key; unsigned bit; } ga_kpack;

/* Append the low `bits` bits of v (1..64) to the key.  Fields are packed
 * exactly while 256 bits last; past that they are mixed in (a 256-bit
 * hash then, never a shorter key). */
static inline void ga_kpack_put(ga_kpack *p, uint64_t v, unsigned bits) {
  if (bits < 64) v &= (1ull << bits) - 1;
  if (p->bit + bits <= 256) {
    unsigned w = p->bit / 64, o = p->bit % 64;
    p->key->w[w] |= v << o;
    if (o && o + bits > 64) p->key->w[w + 1] |= v >> (64 - o);
  } else {
    for (int i = 0; i < 4; i++) {
      uint64_t h = (p->key->w[i] ^ v) * 0x9e3779b97f4a7c15ULL;
      p->key->w[i] = h ^ (h >> 31) ^ (uint64_t)i;
    }
  }
  p->bit += bits;
}

static inline void ga_kpack_init(ga_kpack *p, ga_kkey *key, unsigned family) {
  key->w[0] = key->w[1] = key->w[2] = key->w[3] = 0;
  p->key = key;
  p->bit = 0;
  ga_kpack_put(p, family, 8);
}

/* 32-bit indexing: a kernel indexes in int when every element count and
 * byte span of the call stays below this; the margin below 2^31 leaves
 * room for `base + VEC` and a grid stride added to the last index. */
#define GA_IDX32_LIMIT ((int64_t)INT32_MAX - (1 << 22))

/* Bytes from the lowest to the highest byte an operand of `itemsize`
 * bytes touches walking (ndim, shape) with byte strides `st` (an empty
 * shape spans one element). */
static inline int64_t ga_span_bytes(int itemsize, int ndim, const int64_t *shape, const int64_t *st) {
  int64_t span = itemsize;
  for (int d = 0; d < ndim; d++)
    if (shape[d] > 0) span += (shape[d] - 1) * (st[d] < 0 ? -st[d] : st[d]);
  return span;
}

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
