/* The ga.cudnn pipeline (core/ga_dnn.c): checks the arrays of one
 * operation (shapes, channels, dtypes, padding, output sizes), brings them
 * to the canonical (N, C, spatial...) descriptor of base/ga_dnn_call.h,
 * copies inputs that are not C-contiguous, and runs the device backend's
 * `dnn` slot.  Outputs are allocated by the caller (lua/gpuarray/cudnn.lua
 * computes their shapes; the core checks them against its own). */
#ifndef GA_CORE_DNN_H
#define GA_CORE_DNN_H
#include "base/ga_array.h"
#include "base/ga_dnn_call.h"

typedef struct ga_dnn_args {
  int op;                        /* GA_DNN_* */
  ga_array *a[GA_DT_N];          /* the user's arrays by role (NULL: absent) */
  int nhwc;                      /* channels last */
  int64_t pad[3], stride[3], dilation[3], window[3];
  int64_t groups;
  int algo_find, tensor_cores, mode, mode2;
  double coef, epsilon, factor, alpha, beta;
  int channels_first;            /* run a channels-last call on channels-first copies (for the specs) */
  void *stream;
} ga_dnn_args;

/* Check and run; the message names the problem (the binding prefixes the
 * public function's name). */
int ga_dnn_run(const ga_dnn_args *a);
/* Can device dev's backend run ga.cudnn?  GA_OK (and the library's version
 * number, 0 for the host) or the loader's message. */
int ga_dnn_available(int dev, int *version);

#endif
