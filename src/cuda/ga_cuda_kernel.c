/* Structural kernel cache (open addressing, per device, one mutex each). */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "base/ga_diskcache.h"
#include <cuda.h>            /* driver types only: libcuda is reached through the runtime */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry { ga_kkey key; void *kernel; int used; } entry;
typedef struct table { entry *e; size_t cap, n; pthread_mutex_t lock; } table;

static table tables[GA_MAX_DEVICES];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_tables(void) {
  for (int i = 0; i < GA_MAX_DEVICES; i++) pthread_mutex_init(&tables[i].lock, NULL);
}

static size_t slot(const ga_kkey *k, size_t cap) {
  uint64_t h = k->w[0] * 0x9e3779b97f4a7c15ULL ^ k->w[1] * 0xc2b2ae3d27d4eb4fULL ^
               k->w[2] * 0x165667b19e3779f9ULL ^ k->w[3];
  h ^= h >> 29;
  return (size_t)h & (cap - 1);
}

static entry *find(table *t, const ga_kkey *k) {
  if (!t->cap) return NULL;
  for (size_t i = slot(k, t->cap);; i = (i + 1) & (t->cap - 1)) {
    entry *e = &t->e[i];
    if (!e->used) return NULL;
    if (memcmp(&e->key, k, sizeof *k) == 0) return e;
  }
}

static int insert(table *t, const ga_kkey *k, void *kernel) {
  if ((t->n + 1) * 2 > t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 256;
    entry *e = calloc(cap, sizeof *e);
    if (!e) return ga_err(GA_ENOMEM, "out of host memory (kernel cache)");
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->e[i].used) continue;
      size_t j = slot(&t->e[i].key, cap);
      while (e[j].used) j = (j + 1) & (cap - 1);
      e[j] = t->e[i];
    }
    free(t->e);
    t->e = e;
    t->cap = cap;
  }
  size_t j = slot(k, t->cap);
  while (t->e[j].used) j = (j + 1) & (t->cap - 1);
  t->e[j].key = *k;
  t->e[j].kernel = kernel;
  t->e[j].used = 1;
  t->n++;
  return GA_OK;
}

int ga_cuda_arch(int dev) {
  const ga_device_props *p = ga_cuda_props(dev);
  return p ? p->major * 10 + p->minor : 0;
}

/* cuLaunchKernel on a CUfunction costs the host ~0.8 us less than
 * cudaLaunchKernel on a context-independent cudaKernel_t; both entry points
 * come from the runtime, so the module still never links libcuda. */
typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, CUstream, void **, void **);
typedef CUresult (*kgf_fn)(CUfunction *, CUkernel);
typedef CUresult (*errstr_fn)(CUresult, const char **);
typedef CUresult (*occ_fn)(int *, CUfunction, int, size_t);
static launch_fn drv_launch;
static occ_fn drv_occupancy;
static errstr_fn drv_error_string;
static kgf_fn drv_kernel_get_function;
static pthread_once_t drv_once = PTHREAD_ONCE_INIT;

static void find_driver_entry_points(void) {
  enum cudaDriverEntryPointQueryResult q;
  void *f = NULL, *g = NULL;
  if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", &f, 12000, cudaEnableDefault, &q) == cudaSuccess &&
      q == cudaDriverEntryPointSuccess &&
      cudaGetDriverEntryPointByVersion("cuKernelGetFunction", &g, 12000, cudaEnableDefault, &q) == cudaSuccess &&
      q == cudaDriverEntryPointSuccess) {
    drv_launch = (launch_fn)f;
    drv_kernel_get_function = (kgf_fn)g;
    void *h = NULL;
    if (cudaGetDriverEntryPointByVersion("cuGetErrorString", &h, 12000, cudaEnableDefault, &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess)
      drv_error_string = (errstr_fn)h;
    if (cudaGetDriverEntryPointByVersion("cuOccupancyMaxActiveBlocksPerMultiprocessor", &h, 12000,
                                         cudaEnableDefault, &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess)
      drv_occupancy = (occ_fn)h;
  }
  cudaGetLastError();
}

int ga_cuda_launch_now3(void *kernel, const unsigned grid[3], const unsigned block[3], unsigned smem,
                        void *stream, void **args) {
  if (drv_launch) {
    CUresult r = drv_launch((CUfunction)kernel, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem,
                            (CUstream)stream, args, NULL);
    if (r == CUDA_SUCCESS) return GA_OK;
    const char *msg = NULL;
    if (!drv_error_string || drv_error_string(r, &msg) != CUDA_SUCCESS || !msg) msg = "unknown error";
    return ga_err(GA_ECUDA, "CUDA error in cuLaunchKernel: %s (%d)", msg, (int)r);
  }
  cudaError_t e = cudaLaunchKernel((const void *)kernel, (dim3){grid[0], grid[1], grid[2]},
                                   (dim3){block[0], block[1], block[2]}, args, smem, (cudaStream_t)stream);
  return e == cudaSuccess ? GA_OK : ga_cuda_error(e, "cudaLaunchKernel");
}

int ga_cuda_launch_now(void *kernel, unsigned grid, unsigned block, unsigned smem, void *stream, void **args) {
  const unsigned g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  return ga_cuda_launch_now3(kernel, g, b, smem, stream, args);
}

int ga_cuda_kernel_function(void *cuda_kernel, void **kernel) {
  pthread_once(&drv_once, find_driver_entry_points);
  if (!drv_kernel_get_function) {   /* no driver entry points: the runtime launches */
    *kernel = cuda_kernel;
    return GA_OK;
  }
  CUfunction fn;
  CUresult r = drv_kernel_get_function(&fn, (CUkernel)cuda_kernel);
  if (r != CUDA_SUCCESS) return ga_err(GA_ECUDA, "CUDA error in cuKernelGetFunction (%d)", (int)r);
  *kernel = fn;
  return GA_OK;
}

int ga_cuda_kernel_occupancy(void *kernel, int block, int smem) {
  int n = 0;
  if (drv_kernel_get_function) {   /* kernel is a CUfunction */
    if (!drv_occupancy || drv_occupancy(&n, (CUfunction)kernel, block, (size_t)smem) != CUDA_SUCCESS) return 0;
    return n;
  }
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)kernel, block, (size_t)smem) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

static int load(int dev, const char *name, ga_kgen_fn gen, const void *ud, void **kernel) {
  char *src = gen(ud);
  if (!src) return ga_errcode() == GA_OK ? ga_err(GA_ENOMEM, "out of memory generating kernel") : ga_errcode();
  char *image;
  size_t size;
  int is_ptx;
  int rc = ga_cuda_compile(src, name, ga_cuda_arch(dev), &image, &size, &is_ptx);
  free(src);
  if (rc) return rc;
  cudaLibrary_t lib;
  cudaError_t e = cudaLibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0);
  free(image);
  if (e != cudaSuccess) return ga_cuda_error(e, "cudaLibraryLoadData");
  cudaKernel_t k;
  e = cudaLibraryGetKernel(&k, lib, name);
  if (e != cudaSuccess) {
    cudaLibraryUnload(lib);
    return ga_cuda_error(e, "cudaLibraryGetKernel");
  }
  /* the library stays loaded for the process's life */
  return ga_cuda_kernel_function((void *)k, kernel);
}

int ga_cuda_kernel_get(int dev, const ga_kkey *key, const char *name, ga_kgen_fn gen,
                       const void *ud, void **kernel) {
  pthread_once(&init_once, init_tables);
  table *t = &tables[dev];
  pthread_mutex_lock(&t->lock);
  entry *e = find(t, key);
  int rc = GA_OK;
  if (e) *kernel = e->kernel;
  else if (!(rc = load(dev, name, gen, ud, kernel))) rc = insert(t, key, *kernel);
  pthread_mutex_unlock(&t->lock);
  return rc;
}
