/* The part of NCCL's C API that cuda/ga_cuda_nccl.c calls, declared from
 * NCCL's documented interface (nccl.h of NCCL 2.x; the values below were
 * checked against NCCL 2.28's header).  gpuarray never includes nccl.h nor
 * links libnccl: the library is opened with dlopen on first use, so a
 * machine without it builds and runs everything else. */
#ifndef GA_NCCL_API_H
#define GA_NCCL_API_H
#include <cuda_runtime_api.h>
#include <stddef.h>

#define GA_NCCL_UNIQUE_ID_BYTES 128
typedef struct { char internal[GA_NCCL_UNIQUE_ID_BYTES]; } ga_ncclUniqueId;
typedef struct ga_ncclComm *ga_ncclComm_t;

typedef enum {
  ga_ncclSuccess = 0, ga_ncclUnhandledCudaError = 1, ga_ncclSystemError = 2, ga_ncclInternalError = 3,
  ga_ncclInvalidArgument = 4, ga_ncclInvalidUsage = 5, ga_ncclRemoteError = 6, ga_ncclInProgress = 7
} ga_ncclResult_t;

/* ncclRedOp_t: the built-in reductions (ncclAvg since NCCL 2.10) */
typedef enum { ga_ncclSum = 0, ga_ncclProd = 1, ga_ncclMax = 2, ga_ncclMin = 3, ga_ncclAvg = 4 } ga_ncclRedOp_t;

/* ncclDataType_t */
typedef enum {
  ga_ncclInt8 = 0, ga_ncclUint8 = 1, ga_ncclInt32 = 2, ga_ncclUint32 = 3, ga_ncclInt64 = 4,
  ga_ncclUint64 = 5, ga_ncclFloat16 = 6, ga_ncclFloat32 = 7, ga_ncclFloat64 = 8, ga_ncclBfloat16 = 9
} ga_ncclDataType_t;

/* The entry points, as function-pointer types (dlsym'ed by name: the C
 * names without the ga_ prefix). */
typedef ga_ncclResult_t (*ga_ncclGetVersion_fn)(int *version);
typedef ga_ncclResult_t (*ga_ncclGetUniqueId_fn)(ga_ncclUniqueId *id);
typedef ga_ncclResult_t (*ga_ncclCommInitRank_fn)(ga_ncclComm_t *comm, int nranks, ga_ncclUniqueId id, int rank);
typedef ga_ncclResult_t (*ga_ncclCommInitAll_fn)(ga_ncclComm_t *comm, int ndev, const int *devlist);
typedef ga_ncclResult_t (*ga_ncclCommDestroy_fn)(ga_ncclComm_t comm);
typedef ga_ncclResult_t (*ga_ncclCommAbort_fn)(ga_ncclComm_t comm);
typedef const char *(*ga_ncclGetErrorString_fn)(ga_ncclResult_t r);
typedef const char *(*ga_ncclGetLastError_fn)(ga_ncclComm_t comm);   /* NCCL >= 2.13; may be absent */
typedef ga_ncclResult_t (*ga_ncclCommGetAsyncError_fn)(ga_ncclComm_t comm, ga_ncclResult_t *err);
typedef ga_ncclResult_t (*ga_ncclAllReduce_fn)(const void *send, void *recv, size_t count, ga_ncclDataType_t dt,
                                               ga_ncclRedOp_t op, ga_ncclComm_t comm, cudaStream_t stream);
typedef ga_ncclResult_t (*ga_ncclBroadcast_fn)(const void *send, void *recv, size_t count, ga_ncclDataType_t dt,
                                               int root, ga_ncclComm_t comm, cudaStream_t stream);
typedef ga_ncclResult_t (*ga_ncclReduce_fn)(const void *send, void *recv, size_t count, ga_ncclDataType_t dt,
                                            ga_ncclRedOp_t op, int root, ga_ncclComm_t comm, cudaStream_t stream);
typedef ga_ncclResult_t (*ga_ncclAllGather_fn)(const void *send, void *recv, size_t sendcount, ga_ncclDataType_t dt,
                                               ga_ncclComm_t comm, cudaStream_t stream);
typedef ga_ncclResult_t (*ga_ncclReduceScatter_fn)(const void *send, void *recv, size_t recvcount,
                                                   ga_ncclDataType_t dt, ga_ncclRedOp_t op, ga_ncclComm_t comm,
                                                   cudaStream_t stream);
typedef ga_ncclResult_t (*ga_ncclSend_fn)(const void *send, size_t count, ga_ncclDataType_t dt, int peer,
                                          ga_ncclComm_t comm, cudaStream_t stream);
typedef ga_ncclResult_t (*ga_ncclRecv_fn)(void *recv, size_t count, ga_ncclDataType_t dt, int peer,
                                          ga_ncclComm_t comm, cudaStream_t stream);
typedef ga_ncclResult_t (*ga_ncclGroup_fn)(void);

#endif
