/* RawKernel / RawModule on CUDA: user CUDA C++ compiled as given (no
 * generated wrapper), loaded once per (code, options, device) and shared
 * by every module object with the same text, launched through the batching
 * queue with 3-d grids and blocks. */
#ifndef GA_CUDA_RAW_H
#define GA_CUDA_RAW_H
#include "base/ga_raw.h"
#include <stddef.h>

/* Load `code` (CUDA C++ source; with is_image, a CUBIN or NUL-terminated
 * PTX of len bytes) on device dev, compiling with NVRTC for the device's
 * arch and the extra options.  Sharing: the same text and options on the
 * same device give the same library, one more reference.  `what` names
 * the program in NVRTC's messages. */
int ga_cuda_raw_load(int dev, const char *code, size_t len, int is_image, const char *const *opts, int nopts,
                     const char *what, ga_raw_lib **lib);
/* Drop one reference; the last flushes the device's queue, waits for it
 * and unloads the library. */
void ga_cuda_raw_release(ga_raw_lib *lib);
/* Look a function up by its (extern "C") name. */
int ga_cuda_raw_function(ga_raw_lib *lib, const char *name, ga_raw_fn *fn);
/* Check the launch shape against the device and the kernel, then queue it
 * on stream; parameter values are copied now. */
int ga_cuda_raw_launch(ga_raw_fn *fn, void *stream, const unsigned grid[3], const unsigned block[3],
                       unsigned smem, int nparams, void *const *params, const size_t *sizes);

#endif
