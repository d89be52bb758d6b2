/* RawKernel / RawModule's descriptors: user CUDA C++ compiled as given,
 * loaded once per (code, options, device), launched with 3-d grids.  The
 * types the backend slots raw_* (base/ga_backend.h) pass around. */
#ifndef GA_RAW_H
#define GA_RAW_H

typedef struct ga_raw_lib ga_raw_lib;   /* a loaded library, refcounted (the backend's) */

/* A function of a loaded library on one device, with the facts the launch
 * checks need. */
typedef struct ga_raw_fn {
  void *func;           /* what the backend's launch takes */
  void *ckernel;        /* the backend's kernel handle (attributes) */
  int dev;
  int max_threads;      /* the kernel's own limit (registers, launch bounds) */
  int static_smem;      /* bytes of __shared__ declared in the kernel */
  int max_dyn_smem;     /* dynamic shared memory allowed now (raised on demand) */
} ga_raw_fn;

#endif
