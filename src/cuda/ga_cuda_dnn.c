#include "cuda/ga_cuda.h"
#include "base/ga_dnn_call.h"
#include "base/ga_error.h"
int ga_cuda_dnn(const struct ga_dnn_call *c) { (void)c; return ga_err(GA_EDEVICE, "todo"); }
int ga_cuda_dnn_load(int *v) { *v = 0; return ga_err(GA_EDEVICE, "todo"); }
