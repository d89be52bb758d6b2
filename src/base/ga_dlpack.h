/* DLPack 1.x data structures, written from the DLPack specification
 * (https://dmlc.github.io/dlpack/latest/c_api.html, dlpack.h v1.1): the
 * ABI every framework exchanges tensors with.  Only the types and
 * constants; the conversions are core/ga_dlpack.c.  Plain C99, no
 * dependency: include/gpuarray.h carries the same definitions (guarded by
 * DLPACK_DLPACK_H_ like the official header, so either may come first). */
#ifndef GA_DLPACK_H
#define GA_DLPACK_H
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_
#include <stdint.h>

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

/* The version of the ABI a DLManagedTensorVersioned follows. */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/* Where the data lives. */
typedef enum {
  kDLCPU = 1,            /* system memory */
  kDLCUDA = 2,           /* CUDA device memory */
  kDLCUDAHost = 3,       /* pinned host memory (cudaMallocHost) */
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,   /* CUDA managed (unified) memory */
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;     /* 0 for the CPU */
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,       /* bits: the whole element (64 for complex64) */
  kDLBool = 6U           /* 8 bits a value */
} DLDataTypeCode;

typedef struct {
  uint8_t code;          /* a DLDataTypeCode */
  uint8_t bits;
  uint16_t lanes;        /* 1 for scalars */
} DLDataType;

/* A strided view: element (i0, i1, ...) is at
 * (char *)data + byte_offset + sum(i_k * strides[k]) * bits / 8.
 * strides count elements, not bytes; NULL means compact row-major. */
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} DLTensor;

/* The pre-1.0 managed tensor: the consumer calls deleter(self) once when
 * done (deleter may be NULL). */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)   /* the consumer must not write */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)   /* the producer made a copy for this export */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

/* The 1.x managed tensor (note the field order: version first, dl_tensor
 * last, so that it can grow). */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#endif /* DLPACK_DLPACK_H_ */
#endif
