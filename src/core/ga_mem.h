/* Buffers and arrays with memory of their own: allocated from the pool of
 * their device through its backend (core/ga_mem.c).  The core's and the
 * binding's; a backend takes the scratch it needs from its own pool
 * (base/ga_scratch.h) and never allocates arrays. */
#ifndef GA_MEM_H
#define GA_MEM_H
#include "base/ga_array.h"

/* A buffer of nbytes on device, from its pool, ordered on stream. */
int ga_buffer_new(int device, size_t nbytes, void *stream, ga_buffer **out);
void ga_buffer_decref(ga_buffer *b);   /* the last owner gives it back */
/* Live bytes held by arrays on CUDA devices (all devices), for GC pacing. */
int64_t ga_live_device_bytes(void);
/* Initialise `a` as a fresh C-contiguous array with a new buffer. */
int ga_array_init(ga_array *a, int device, int dtype, int ndim, const int64_t *shape, void *stream);
void ga_array_release(ga_array *a);   /* decref the buffer, mark freed */

#endif
