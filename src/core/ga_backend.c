/* Thin dispatch for devices, memory and copies (core/ga_backend.h). */
#include "core/ga_backend.h"

int ga_device_count(void) { return ga_backend_of(GA_GPU_KIND)->device_count(); }

int ga_check_device(int dev) { return ga_backend_of(GA_GPU_KIND)->check_device(dev); }

int ga_flush(int dev) { return ga_backend_of(dev < 0 ? GA_GPU_KIND : dev)->flush(dev); }

int ga_memcpy(int dst_dev, void *dst, int src_dev, const void *src, size_t n, void *stream, int sync) {
  /* the device side's backend moves the bytes (it knows its own memory) */
  int dev = dst_dev != GA_CPU ? dst_dev : src_dev;
  return ga_backend_of(dev)->memcpy(dst_dev, dst, src_dev, src, n, stream, sync);
}

static int no_slot(const ga_backend *be, const char *what) {
  return ga_err(GA_EINVAL, "%s: not available on the %s backend", what, be->name);
}

int ga_ewk_run(const ga_ewk_call *c) {
  const ga_backend *be = ga_backend_of(c->device);
  return be->ewk ? be->ewk(c) : no_slot(be, "ElementwiseKernel");
}

/* Kernel text is the GPUs' (a virtual call of k:source has no device). */
char *ga_ewk_source(const ga_ewk_call *c) { return ga_backend_of(GA_GPU_KIND)->ewk_source(c); }

int ga_redk_run(const ga_redk_call *c) {
  const ga_backend *be = ga_backend_of(c->device);
  return be->redk ? be->redk(c) : no_slot(be, "ReductionKernel");
}

char *ga_redk_source(const ga_redk_call *c, int second, int sms) {
  return ga_backend_of(GA_GPU_KIND)->redk_source(c, second, sms);
}

const char *ga_redk_blame(const char *source, const char *log) {
  return ga_backend_of(GA_GPU_KIND)->redk_blame(source, log);
}

int ga_compile(const char *source, const char *name, int arch, const char *const *extra, int nextra,
               char **image, size_t *size, int *is_ptx) {
  return ga_backend_of(GA_GPU_KIND)->compile(source, name, arch, extra, nextra, image, size, is_ptx);
}

int ga_raw_load(int dev, const char *code, size_t len, int is_image, const char *const *opts, int nopts,
                const char *what, ga_raw_lib **lib) {
  const ga_backend *be = ga_backend_of(dev);
  if (!be->raw_load) return no_slot(be, what);
  return be->raw_load(dev, code, len, is_image, opts, nopts, what, lib);
}

void ga_raw_release(int dev, ga_raw_lib *lib) {
  if (lib) ga_backend_of(dev)->raw_release(lib);
}

int ga_raw_function(int dev, ga_raw_lib *lib, const char *name, ga_raw_fn *fn) {
  return ga_backend_of(dev)->raw_function(lib, name, fn);
}

int ga_raw_launch(int dev, ga_raw_fn *fn, void *stream, const unsigned grid[3], const unsigned block[3],
                  unsigned smem, int nparams, void *const *params, const size_t *sizes) {
  return ga_backend_of(dev)->raw_launch(fn, stream, grid, block, smem, nparams, params, sizes);
}

int ga_device_arch(int dev) {
  const ga_backend *be = ga_backend_of(dev);
  if (!be->arch || (dev != GA_CPU && ga_check_device(dev))) return 0;
  return be->arch(dev);
}

int ga_rand(const ga_rand_call *c) {
  const ga_backend *be = ga_backend_of(c->device);
  if (c->n == 0) return GA_OK;
  return be->rand ? be->rand(c) : no_slot(be, "random");
}

char *ga_rand_source(const ga_rand_call *c) { return ga_backend_of(GA_GPU_KIND)->rand_source(c); }

int ga_curand_open(int dev, int kind, uint64_t seed, uint64_t offset, void **gen) {
  const ga_backend *be = ga_backend_of(dev);
  *gen = NULL;
  if (!be->curand_open) return ga_err(GA_EDEVICE, "cuRAND generators need a GPU (the host has Philox4x3210)");
  int rc = ga_check_device(dev);
  return rc ? rc : be->curand_open(dev, kind, seed, offset, gen);
}

int ga_range_push(const char *name) {
  const ga_backend *be = ga_backend_of(GA_GPU_KIND);
  return be->range_push ? be->range_push(name) : 0;
}

void ga_range_pop(void) {
  const ga_backend *be = ga_backend_of(GA_GPU_KIND);
  if (be->range_pop) be->range_pop();
}

int ga_curand_draw(int dev, const ga_curand_call *c) {
  if (c->n == 0) return GA_OK;
  return ga_backend_of(dev)->curand_draw(c);
}

void ga_curand_close(int dev, void *gen) {
  if (gen) ga_backend_of(dev)->curand_close(gen);
}
