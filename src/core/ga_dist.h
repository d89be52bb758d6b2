/* Several devices: copies between GPUs and the collectives of
 * ga.distributed (base/ga_dist.h), dispatched to the backend that owns the
 * communicator (the host: a one-rank world; CUDA: NCCL).  The checks that
 * can be made locally are made here, before the library is called, so that
 * one rank's wrong call fails at once instead of hanging the others. */
#ifndef GA_CORE_DIST_H
#define GA_CORE_DIST_H
#include "base/ga_array.h"
#include "base/ga_dist.h"

/* n bytes between two GPUs, ordered after src_stream's queued work and
 * before dst_stream's later work (no host synchronisation). */
int ga_peer_copy(int dst_dev, void *dst, void *dst_stream, int src_dev, const void *src, void *src_stream,
                 size_t n);

/* The collectives' library of the backend of device `kind`: its version,
 * or an error saying why it cannot be used. */
int ga_dist_version(int kind, int *version);
/* A new id for ga_dist_init (one process makes it, every rank gets it). */
int ga_dist_unique_id(int kind, unsigned char id[GA_DIST_ID_BYTES]);
/* Open c (kind, nlocal, world, dev[], rank[] set by the caller): id NULL
 * for one process driving every rank, else this process's rank. */
int ga_dist_init(ga_comm *c, const unsigned char *id);
void ga_dist_destroy(ga_comm *c, int abort);
/* Group the calls between start (1) and end (0) into one launch. */
int ga_dist_group(ga_comm *c, int start);

/* The output geometry of a collective on arrays shaped like `in` (ndim,
 * shape into *ndim/shape): ALL_GATHER (world, *shape), REDUCE_SCATTER and
 * ALL_TO_ALL need the first axis divisible by the world size. */
int ga_dist_out_shape(const ga_comm *c, int kind, const ga_array *in, int *ndim, int64_t *shape);
/* One collective: in[i] and out[i] are local rank i's arrays (n ==
 * c->nlocal; SEND/RECV: n == 1, the local rank being the one on the
 * array's device), stream[i] its stream (SEND/RECV: stream[0], the array's
 * device's).  Every array C-contiguous, on its
 * rank's device, of one dtype NCCL knows, the shapes alike and the outputs
 * shaped as ga_dist_out_shape says; out[i] may be in[i] where the
 * collective works in place. */
int ga_dist_run(ga_comm *c, int kind, int op, int root, int peer, const ga_array *const *in,
                ga_array *const *out, int n, void *const *stream);
/* Every rank has reached this point (an all-reduce of one number, then a
 * wait for it on each local rank's stream). */
int ga_dist_barrier(ga_comm *c, void *const *stream);

#endif
