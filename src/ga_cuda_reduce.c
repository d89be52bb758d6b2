/* CUDA reductions (being written). */
#include "ga_reduce.h"
int ga_cuda_reduce(const ga_red_call *c) { (void)c; return ga_err(GA_EINTERNAL, "CUDA reductions: not yet built"); }
