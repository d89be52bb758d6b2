/* Devices over the CUDA runtime: count, check, make current, properties,
 * errors (streams, events and copies: ga_cuda_stream.c).  libcudart
 * loads the driver itself, so a machine with the toolkit but no driver or
 * GPU simply reports 0 devices. */
#include "cuda/ga_cuda_internal.h"
#include <pthread.h>
#include <stdio.h>

static int ndev = -1;
static pthread_once_t count_once = PTHREAD_ONCE_INIT;
static __thread int current_dev = -1;   /* what cudaSetDevice last got on this thread */
static ga_device_props props[GA_MAX_DEVICES];
static int props_ready[GA_MAX_DEVICES];
static pthread_mutex_t props_lock = PTHREAD_MUTEX_INITIALIZER;

int ga_cuda_error(cudaError_t e, const char *what) {
  return ga_err(GA_ECUDA, "CUDA error in %s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

static void count_devices(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    n = 0;
    cudaGetLastError();
  }
  ndev = n > GA_MAX_DEVICES ? GA_MAX_DEVICES : n;
}

int ga_cuda_device_count(void) {
  pthread_once(&count_once, count_devices);
  return ndev;
}

int ga_cuda_check_device(int dev) {
  int n = ga_cuda_device_count();
  if (dev < 0 || dev >= n)
    return ga_err(GA_EDEVICE, "invalid device id %d (%d device%s)", dev, n, n == 1 ? "" : "s");
  return GA_OK;
}

int ga_cuda_set_device(int dev) {
  if (dev == current_dev) return GA_OK;
  int rc = ga_cuda_check_device(dev);
  if (rc) return rc;
  GA_CU(cudaSetDevice(dev), "cudaSetDevice");
  current_dev = dev;
  return GA_OK;
}

void ga_cuda_forget_device(void) { current_dev = -1; }

const ga_device_props *ga_cuda_props(int dev) {
  if (ga_cuda_check_device(dev)) return NULL;
  if (__atomic_load_n(&props_ready[dev], __ATOMIC_ACQUIRE)) return &props[dev];
  pthread_mutex_lock(&props_lock);
  if (!props_ready[dev]) {
    struct cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
      pthread_mutex_unlock(&props_lock);
      return NULL;
    }
    ga_device_props *d = &props[dev];
    snprintf(d->name, sizeof d->name, "%s", p.name);
    d->major = p.major;
    d->minor = p.minor;
    d->multiprocessors = p.multiProcessorCount;
    d->total_mem = p.totalGlobalMem;
    d->max_threads_per_block = p.maxThreadsPerBlock;
    __atomic_store_n(&props_ready[dev], 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&props_lock);
  return &props[dev];
}

int ga_cuda_sm_count(int dev) {
  const ga_device_props *p = ga_cuda_props(dev);
  return p && p->multiprocessors > 0 ? p->multiprocessors : 132;
}

int ga_cuda_device_props(int dev, ga_device_props *p) {
  const ga_device_props *d = ga_cuda_props(dev);
  if (!d) return ga_errcode() ? ga_errcode() : ga_err(GA_ECUDA, "cannot read properties of device %d", dev);
  *p = *d;
  return GA_OK;
}
