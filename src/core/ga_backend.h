/* The core's way to a backend: ga_backend_of(device) picks the table
 * (base/ga_backend.h) of the device's kind; the thin functions below are
 * what the binding needs of devices, memory and copies, so that it never
 * names a backend. */
#ifndef GA_CORE_BACKEND_H
#define GA_CORE_BACKEND_H
#include "base/ga_backend.h"

/* The one place that tells device kinds apart (inline: it is on every
 * call's path). */
static inline const ga_backend *ga_backend_of(int device) {
  return device == GA_CPU ? &ga_host_backend : &ga_cuda_backend;
}

/* Any ordinal >= 0 names the GPUs' backend. */
#define GA_GPU_KIND 0

/* GPUs present (0 without driver or GPU), and the check of a GPU ordinal
 * (message when out of range, -1 included). */
int ga_device_count(void);
int ga_check_device(int dev);
/* Queued kernels of dev (< 0: every device) reach the device. */
int ga_flush(int dev);
/* The pool arrays of `device` come from: for the host, pinned memory when
 * a GPU lends it, else aligned malloc. */
ga_pool *ga_mem_pool(int device);
/* n bytes between any two buffers (host or device) on stream; with sync,
 * wait for it before returning. */
int ga_memcpy(int dst_dev, void *dst, int src_dev, const void *src, size_t n, void *stream, int sync);
/* Random draws into c->out (kernels/ga_philox.cuh defines the stream) and
 * the GPU kernel's text for a call (specs compile it without a GPU). */
int ga_rand(const ga_rand_call *c);
char *ga_rand_source(const ga_rand_call *c);
/* cuRAND's generators on GPU dev (an error on the host): open at (seed,
 * offset), draw c->n values, close (NULL is fine). */
int ga_curand_open(int dev, int kind, uint64_t seed, uint64_t offset, void **gen);
int ga_curand_draw(int dev, const ga_curand_call *c);
void ga_curand_close(int dev, void *gen);
/* a named profiler range around host code (NVTX for Nsight when the GPU
 * backend can load it): push returns 1 when one was pushed, which the
 * caller then pops */
int ga_range_push(const char *name);
void ga_range_pop(void);

/* User kernels (ElementwiseKernel, ReductionKernel): run a built call on
 * its device's backend, and the generated source (for messages and
 * k:source); an error when the backend has none. */
int ga_ewk_run(const ga_ewk_call *c);
char *ga_ewk_source(const ga_ewk_call *c);
int ga_redk_run(const ga_redk_call *c);
char *ga_redk_source(const ga_redk_call *c, int second, int sms);
/* "identity" when a compile log points at the identity's line, else NULL */
const char *ga_redk_blame(const char *source, const char *log);
/* RawKernel / RawModule on device dev's backend (base/ga_raw.h); a device
 * whose backend runs no CUDA C++ (the host) is an error, naming `what`. */
int ga_raw_load(int dev, const char *code, size_t len, int is_image, const char *const *opts, int nopts,
                const char *what, ga_raw_lib **lib);
void ga_raw_release(int dev, ga_raw_lib *lib);   /* NULL: nothing */
int ga_raw_function(int dev, ga_raw_lib *lib, const char *name, ga_raw_fn *fn);
int ga_raw_launch(int dev, ga_raw_fn *fn, void *stream, const unsigned grid[3], const unsigned block[3],
                  unsigned smem, int nparams, void *const *params, const size_t *sizes);
/* The compute capability device dev compiles for (90 for sm_90), or 0
 * when it has none (the host, a bad ordinal). */
int ga_device_arch(int dev);
/* Compile kernel source for arch with the GPUs' compiler (NVRTC), through
 * the disk cache; *image is malloc'ed. */
int ga_compile(const char *source, const char *name, int arch, const char *const *extra, int nextra,
               char **image, size_t *size, int *is_ptx);

#endif
