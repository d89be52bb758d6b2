/* Collectives (ga.distributed): the communicator the core and the binding
 * share and the call descriptor a backend's dist_* slots receive
 * (base/ga_backend.h).  The host backend implements a world of one rank
 * (every collective a local copy); the CUDA backend drives NCCL, opened
 * with dlopen on first use (cuda/ga_cuda_nccl.c).  No Lua, no CUDA. */
#ifndef GA_DIST_H
#define GA_DIST_H
#include <stddef.h>
#include <stdint.h>

#define GA_DIST_MAX_LOCAL 64       /* ranks one process may drive */
#define GA_DIST_ID_BYTES 128       /* ncclUniqueId */

/* collectives (ga_dist_call.kind) */
enum {
  GA_DIST_ALL_REDUCE, GA_DIST_BROADCAST, GA_DIST_REDUCE, GA_DIST_ALL_GATHER, GA_DIST_REDUCE_SCATTER,
  GA_DIST_ALL_TO_ALL, GA_DIST_SEND, GA_DIST_RECV
};
/* reductions, in ncclRedOp_t's order */
enum { GA_DIST_SUM, GA_DIST_PROD, GA_DIST_MAX, GA_DIST_MIN, GA_DIST_AVG };

/* A communicator: nlocal ranks driven by this process (one per device in
 * dev[], ranks rank[]) of a world of `world` ranks.  kind is the device
 * whose backend owns it (GA_CPU or a GPU ordinal).  The backend keeps its
 * handles in h[] and anything else in impl. */
typedef struct ga_comm {
  int kind;
  int nlocal, world;
  int dev[GA_DIST_MAX_LOCAL];
  int rank[GA_DIST_MAX_LOCAL];
  void *h[GA_DIST_MAX_LOCAL];
  void *impl;
  int open;                        /* 0 once destroyed (or never made) */
  int broken;                      /* a failed call aborted it */
} ga_comm;

/* One collective over the comm's local ranks: part i is local rank i
 * (nparts == nlocal), except for SEND/RECV (one part, local rank `local`).
 * count is in elements: ALL_REDUCE, BROADCAST, REDUCE the whole buffer;
 * ALL_GATHER what each rank sends (recv holds world * count); REDUCE_SCATTER
 * what each rank receives (send holds world * count); ALL_TO_ALL the block
 * one rank sends to each other rank (send and recv hold world * count);
 * SEND/RECV the message.  root and peer are ranks (0-based). */
typedef struct ga_dist_call {
  int kind, op, dtype, root, peer, local;
  size_t count;
  int nparts;
  const void *send[GA_DIST_MAX_LOCAL];
  void *recv[GA_DIST_MAX_LOCAL];
  void *stream[GA_DIST_MAX_LOCAL];
} ga_dist_call;

#endif
