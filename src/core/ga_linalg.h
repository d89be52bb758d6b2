/* The dense-solver pipeline (core/ga_linalg.c): checks a solver call's
 * arrays against what the routine reads and writes, and runs it through
 * the device's `lapack` slot.  lua/gpuarray/linalg.lua builds the public
 * ga.linalg functions on it; binding/lga_linalg.c is its Lua door. */
#ifndef GA_CORE_LINALG_H
#define GA_CORE_LINALG_H
#include "base/ga_array.h"
#include "base/ga_linalg_call.h"

/* Run routine op (GA_LA_*) over the batch of a, a C-contiguous array of
 * shape (..., n, m): the column-major m-by-n matrices of the routine (the
 * leading dimensions are the batch).  b, u, vt, ipiv, info: C-contiguous
 * arrays of a's device (NULL where the routine has none) of exactly the
 * sizes the routine needs (base/ga_linalg_call.h); ipiv and info int32.
 * check: read info back (on a GPU, the call's one synchronisation) and put
 * the first matrix's nonzero LAPACK info in *bad (0: none).  *bad is
 * GA_LA_UNAVAILABLE (-1), with GA_OK, when the backend cannot run op on
 * this machine and wrote nothing (the caller runs it elsewhere). */
int ga_linalg_run(int op, ga_array *a, ga_array *b, ga_array *u, ga_array *vt, ga_array *ipiv, ga_array *info,
                  int64_t k, int flag, int uplo, int check, void *stream, int *bad);
/* ga_linalg_run in two halves, so that the caller can do host work while
 * the device runs the routine: ga_linalg_start queues it (no check) and sets
 * *pending to 1 when info must be read to know whether it failed (0: an
 * empty batch, or a route that cannot fail, e.g. our batched Jacobi;
 * GA_LA_UNAVAILABLE when the backend cannot run op here and wrote nothing);
 * ga_linalg_finish then reads info back (on a GPU: the synchronisation). */
int ga_linalg_start(int op, ga_array *a, ga_array *b, ga_array *u, ga_array *vt, ga_array *ipiv, ga_array *info,
                    int64_t k, int flag, int uplo, void *stream, int *pending);
int ga_linalg_finish(int op, ga_array *info, void *stream, int *bad);

#endif
