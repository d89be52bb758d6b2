/* RawKernel / RawModule on CUDA (see ga_cuda_raw.h).  Libraries are kept in
 * a small process-wide list keyed by a 128-bit hash of (code, options,
 * image flag) and the device, so that building the same RawKernel twice in
 * a loop costs neither NVRTC nor a disk read nor a second load. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "cuda/ga_cuda_raw.h"
#include "base/ga_diskcache.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ga_raw_lib {
  uint64_t h[2];
  int dev, refs;
  cudaLibrary_t lib;
  struct ga_raw_lib *next;
};

static ga_raw_lib *libs;
static pthread_mutex_t libs_lock = PTHREAD_MUTEX_INITIALIZER;

static void hash_text(uint64_t h[2], const void *p, size_t n) {
  h[0] = ga_hash64(p, n, h[0]);
  h[1] = ga_hash64(p, n, h[1]);
}

static int load_new(int dev, const char *code, size_t len, int is_image, const char *const *opts, int nopts,
                    const char *what, cudaLibrary_t *lib) {
  char *image = NULL;
  size_t size = len;
  int is_ptx = 0;
  if (!is_image) {
    int rc = ga_cuda_compile_opts(code, what, ga_cuda_arch(dev), opts, nopts, &image, &size, &is_ptx);
    if (rc) return rc;
  }
  cudaError_t e = cudaLibraryLoadData(lib, image ? image : code, NULL, NULL, 0, NULL, NULL, 0);
  free(image);
  return e == cudaSuccess ? GA_OK : ga_cuda_error(e, "cudaLibraryLoadData");
}

int ga_cuda_raw_load(int dev, const char *code, size_t len, int is_image, const char *const *opts, int nopts,
                     const char *what, ga_raw_lib **out) {
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  uint64_t h[2] = {GA_HASH_SEED, 0x9e3779b97f4a7c15ULL};
  hash_text(h, &is_image, sizeof is_image);
  hash_text(h, &nopts, sizeof nopts);
  for (int i = 0; i < nopts; i++) hash_text(h, opts[i], strlen(opts[i]) + 1);
  hash_text(h, code, len);
  pthread_mutex_lock(&libs_lock);
  for (ga_raw_lib *l = libs; l; l = l->next)
    if (l->dev == dev && l->h[0] == h[0] && l->h[1] == h[1]) {
      l->refs++;
      *out = l;
      pthread_mutex_unlock(&libs_lock);
      return GA_OK;
    }
  /* compiling under the lock keeps two threads from building the same
   * module twice; raw modules are few */
  ga_raw_lib *l = calloc(1, sizeof *l);
  if (!l) rc = ga_err(GA_ENOMEM, "out of host memory");
  else if ((rc = load_new(dev, code, len, is_image, opts, nopts, what, &l->lib))) { free(l); l = NULL; }
  if (l) {
    l->h[0] = h[0];
    l->h[1] = h[1];
    l->dev = dev;
    l->refs = 1;
    l->next = libs;
    libs = l;
    *out = l;
  }
  pthread_mutex_unlock(&libs_lock);
  return rc;
}

void ga_cuda_raw_release(ga_raw_lib *lib) {
  if (!lib) return;
  pthread_mutex_lock(&libs_lock);
  int last = --lib->refs == 0;
  if (last)
    for (ga_raw_lib **p = &libs; *p; p = &(*p)->next)
      if (*p == lib) { *p = lib->next; break; }
  pthread_mutex_unlock(&libs_lock);
  if (!last) return;
  /* queued or running launches may still use its functions */
  if (ga_cuda_set_device(lib->dev) == GA_OK) {
    ga_cuda_flush(lib->dev);
    cudaDeviceSynchronize();
  }
  cudaLibraryUnload(lib->lib);
  cudaGetLastError();
  free(lib);
}

int ga_cuda_raw_function(ga_raw_lib *lib, const char *name, ga_raw_fn *fn) {
  int rc = ga_cuda_set_device(lib->dev);
  if (rc) return rc;
  cudaKernel_t k;
  cudaError_t e = cudaLibraryGetKernel(&k, lib->lib, name);
  if (e == cudaErrorSymbolNotFound || e == cudaErrorInvalidDeviceFunction) {
    cudaGetLastError();
    return ga_err(GA_EINVAL, "no kernel named '%s' in the module (CUDA: %s); a kernel must be "
                  "declared extern \"C\" __global__ (C++ names are mangled)", name, cudaGetErrorString(e));
  }
  if (e != cudaSuccess) return ga_cuda_error(e, "cudaLibraryGetKernel");
  struct cudaFuncAttributes a;
  GA_CU(cudaFuncGetAttributes(&a, (const void *)k), "cudaFuncGetAttributes");
  fn->ckernel = (void *)k;
  fn->dev = lib->dev;
  fn->max_threads = a.maxThreadsPerBlock;
  fn->static_smem = (int)a.sharedSizeBytes;
  fn->max_dyn_smem = a.maxDynamicSharedSizeBytes;
  return ga_cuda_kernel_function((void *)k, &fn->func);
}

int ga_cuda_raw_launch(ga_raw_fn *fn, void *stream, const unsigned grid[3], const unsigned block[3],
                       unsigned smem, int nparams, void *const *params, const size_t *sizes) {
  int dev = fn->dev, rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  /* launch errors would only surface at the next flush, far from the call:
   * check what the driver would refuse here */
  static const enum cudaDeviceAttr gattr[3] = {cudaDevAttrMaxGridDimX, cudaDevAttrMaxGridDimY,
                                               cudaDevAttrMaxGridDimZ};
  static const enum cudaDeviceAttr battr[3] = {cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY,
                                               cudaDevAttrMaxBlockDimZ};
  static const char axis[3] = {'x', 'y', 'z'};
  for (int d = 0; d < 3; d++) {
    int gmax = 0, bmax = 0;
    GA_CU(cudaDeviceGetAttribute(&gmax, gattr[d], dev), "cudaDeviceGetAttribute");
    GA_CU(cudaDeviceGetAttribute(&bmax, battr[d], dev), "cudaDeviceGetAttribute");
    if (grid[d] > (unsigned)gmax)
      return ga_err(GA_EINVAL, "grid %c dimension %u exceeds the device's maximum %d", axis[d], grid[d], gmax);
    if (block[d] > (unsigned)bmax)
      return ga_err(GA_EINVAL, "block %c dimension %u exceeds the device's maximum %d", axis[d], block[d], bmax);
  }
  unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
  if (threads > (unsigned long long)fn->max_threads)
    return ga_err(GA_EINVAL, "block of %llu threads (%ux%ux%u) is too large: this kernel allows at most %d "
                  "threads per block on cuda:%d (CUDA: too many resources requested for launch)",
                  threads, block[0], block[1], block[2], fn->max_threads, dev);
  if ((int64_t)smem > fn->max_dyn_smem) {
    int optin = 0;
    GA_CU(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "cudaDeviceGetAttribute");
    if ((int64_t)smem + fn->static_smem > optin)
      return ga_err(GA_EINVAL, "shared_mem of %u bytes (+ %d static) exceeds the device's %d bytes per block",
                    smem, fn->static_smem, optin);
    /* above the 48 KiB default a kernel must opt in (CuPy leaves this to
     * the user; doing it here is harmless) */
    GA_CU(cudaFuncSetAttribute((const void *)fn->ckernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
          "cudaFuncSetAttribute");
    fn->max_dyn_smem = (int)smem;
  }
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) return GA_OK;   /* nothing to run (CuPy: no launch) */
  return ga_cuda_enqueue3(dev, stream, fn->func, grid, block, smem, nparams, params, sizes);
}
