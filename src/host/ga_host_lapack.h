/* The host backend's dense solvers (the `lapack` slot): LAPACK through
 * OpenBLAS (host/ga_host_lapack.c). */
#ifndef GA_HOST_LAPACK_H
#define GA_HOST_LAPACK_H
#include "base/ga_linalg_call.h"

int ga_host_lapack(const ga_la_call *c);

#endif
