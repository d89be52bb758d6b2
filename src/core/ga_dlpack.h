/* Arrays to and from DLPack managed tensors (base/ga_dlpack.h), zero-copy
 * both ways.  An export holds a reference on the array's buffer until the
 * consumer calls its deleter; an import wraps the producer's memory in a
 * buffer whose release calls the producer's deleter, exactly once.  No Lua. */
#ifndef GA_CORE_DLPACK_H
#define GA_CORE_DLPACK_H
#include "base/ga_array.h"
#include "base/ga_dlpack.h"

/* dtype <-> DLDataType (lanes 1 only). */
void ga_dlpack_dtype(int dtype, DLDataType *t);
int ga_dtype_from_dlpack(DLDataType t, int *dtype);   /* GA_ETYPE when we have none */
/* The DLDevice of an array's device and back (kDLCPU, kDLCUDAHost: the
 * host; kDLCUDA, kDLCUDAManaged: CUDA device device_id). */
DLDevice ga_dlpack_device(int device);
int ga_device_from_dlpack(DLDevice d, int *device);

/* Export a view of `a`: a DLManagedTensorVersioned (versioned) or a
 * DLManagedTensor, malloc'ed with its shape and strides, holding one
 * buffer reference; `flags` go into the versioned struct (with
 * DLPACK_FLAG_BITMASK_READ_ONLY added for a read-only array).  Its deleter
 * drops the reference and frees it. */
int ga_dlpack_export(const ga_array *a, int versioned, uint64_t flags, void **managed);
/* Call a managed tensor's deleter (when not NULL). */
void ga_dlpack_delete(void *managed, int versioned);
/* An array over a managed tensor's data (no copy): on success the array
 * owns the managed tensor (the last owner of its buffer calls the
 * deleter); on failure the caller still does.  A versioned tensor flagged
 * DLPACK_FLAG_BITMASK_READ_ONLY gives a read-only array. */
int ga_dlpack_import(void *managed, int versioned, void *stream, ga_array *out);
/* DLPack's stream handover on a GPU: work queued on `consumer` from now
 * on waits for what is queued on `producer` (our queued kernels are
 * submitted first; an event, the host does not wait).  Nothing on the
 * host. */
int ga_dlpack_handover(int device, void *consumer, void *producer);
/* How many times the deleters of our exports have run (for the specs). */
int64_t ga_dlpack_deleter_calls(void);

#endif
