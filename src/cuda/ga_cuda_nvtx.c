/* NVTX ranges for Nsight Systems (ga.profiler.time_range): the library is
 * opened with dlopen on first use, so that gpuarray neither links it nor
 * fails without it — NVTX v2's libnvToolsExt, else CUDA 12+'s
 * libnvtx3interop (the same two entry points).  Absent: no ranges. */
#include "cuda/ga_cuda.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static int (*push_a)(const char *);
static int (*pop)(void);
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  static const char *const names[] = {"libnvToolsExt.so.1", "libnvToolsExt.so", "libnvtx3interop.so.1"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) continue;
    /* POSIX: a function pointer through a void * (dlsym's contract) */
    *(void **)&push_a = dlsym(h, "nvtxRangePushA");
    *(void **)&pop = dlsym(h, "nvtxRangePop");
    if (push_a && pop) return;
    push_a = NULL;
    pop = NULL;
    dlclose(h);
  }
}

int ga_cuda_range_push(const char *name) {
  pthread_once(&once, load);
  if (!push_a) return 0;
  push_a(name);
  return 1;
}

void ga_cuda_range_pop(void) {
  pthread_once(&once, load);
  if (pop) pop();
}
