/* The part of cuDNN 9's legacy API that cuda/ga_cuda_dnn.c calls, declared
 * here from cuDNN's documented API so that the build needs no cuDNN header
 * and the module loads without the library (it is opened with dlopen on
 * first use).  Handles and descriptors are opaque pointers; enums are int
 * (same ABI).  Every value below was checked against cuDNN 9's headers
 * (cudnn_graph_v9.h, cudnn_ops_v9.h, cudnn_cnn_v9.h): `make check-cudnn-api`
 * (tools/check_cudnn_api.c) re-checks them with static asserts wherever a
 * cudnn.h is installed.  A wrong enum would compute garbage silently. */
#ifndef GA_CUDNN_API_H
#define GA_CUDNN_API_H
#include <stddef.h>

typedef int gdnnStatus_t;
typedef void *gdnnHandle_t;
typedef void *gdnnTensorDesc_t;
typedef void *gdnnFilterDesc_t;
typedef void *gdnnConvDesc_t;
typedef void *gdnnPoolDesc_t;
typedef void *gdnnActDesc_t;

/* cudnnStatus_t */
#define GDNN_STATUS_SUCCESS 0
#define GDNN_STATUS_HOST_ALLOCATION_FAILED 4003     /* CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED */
#define GDNN_STATUS_DEVICE_ALLOCATION_FAILED 4004   /* CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED */
/* cudnnDataType_t */
#define GDNN_DATA_FLOAT 0
#define GDNN_DATA_DOUBLE 1
#define GDNN_DATA_HALF 2
/* cudnnMathType_t */
#define GDNN_DEFAULT_MATH 0
#define GDNN_TENSOR_OP_MATH 1
#define GDNN_TENSOR_OP_MATH_ALLOW_CONVERSION 2
#define GDNN_FMA_MATH 3
/* cudnnNanPropagation_t */
#define GDNN_NOT_PROPAGATE_NAN 0
#define GDNN_PROPAGATE_NAN 1
/* cudnnTensorFormat_t */
#define GDNN_TENSOR_NCHW 0
#define GDNN_TENSOR_NHWC 1
/* cudnnConvolutionMode_t */
#define GDNN_CONVOLUTION 0
#define GDNN_CROSS_CORRELATION 1
/* cudnnPoolingMode_t */
#define GDNN_POOLING_MAX 0
#define GDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING 1
#define GDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING 2
#define GDNN_POOLING_MAX_DETERMINISTIC 3
/* cudnnActivationMode_t */
#define GDNN_ACTIVATION_SIGMOID 0
#define GDNN_ACTIVATION_RELU 1
#define GDNN_ACTIVATION_TANH 2
#define GDNN_ACTIVATION_CLIPPED_RELU 3
#define GDNN_ACTIVATION_ELU 4
#define GDNN_ACTIVATION_IDENTITY 5
#define GDNN_ACTIVATION_SWISH 6
/* cudnnSoftmaxAlgorithm_t, cudnnSoftmaxMode_t */
#define GDNN_SOFTMAX_FAST 0
#define GDNN_SOFTMAX_ACCURATE 1
#define GDNN_SOFTMAX_LOG 2
#define GDNN_SOFTMAX_MODE_INSTANCE 0
#define GDNN_SOFTMAX_MODE_CHANNEL 1
/* cudnnBatchNormMode_t */
#define GDNN_BATCHNORM_PER_ACTIVATION 0
#define GDNN_BATCHNORM_SPATIAL 1
/* algorithm counts (cudnnConvolution{Fwd,BwdData,BwdFilter}Algo_t) */
#define GDNN_CONVOLUTION_FWD_ALGO_COUNT 8
#define GDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT 6
#define GDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT 7

/* cudnnConvolution{Fwd,BwdData,BwdFilter}AlgoPerf_t: one layout */
typedef struct gdnnAlgoPerf {
  int algo;
  gdnnStatus_t status;
  float time;
  size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
} gdnnAlgoPerf;

/* the entry points, as pointer types (the loader fills a table of them) */
#define GDNN_FUNCS(X)                                                                                          \
  X(size_t, GetVersion, (void))                                                                                \
  X(const char *, GetErrorString, (gdnnStatus_t status))                                                       \
  X(gdnnStatus_t, Create, (gdnnHandle_t * handle))                                                             \
  X(gdnnStatus_t, Destroy, (gdnnHandle_t handle))                                                              \
  X(gdnnStatus_t, SetStream, (gdnnHandle_t handle, void *stream))                                              \
  X(gdnnStatus_t, CreateTensorDescriptor, (gdnnTensorDesc_t * d))                                              \
  X(gdnnStatus_t, DestroyTensorDescriptor, (gdnnTensorDesc_t d))                                               \
  X(gdnnStatus_t, SetTensorNdDescriptor, (gdnnTensorDesc_t d, int dataType, int nbDims, const int dimA[],       \
                                          const int strideA[]))                                                \
  X(gdnnStatus_t, CreateFilterDescriptor, (gdnnFilterDesc_t * d))                                              \
  X(gdnnStatus_t, DestroyFilterDescriptor, (gdnnFilterDesc_t d))                                               \
  X(gdnnStatus_t, SetFilterNdDescriptor, (gdnnFilterDesc_t d, int dataType, int format, int nbDims,             \
                                          const int filterDimA[]))                                             \
  X(gdnnStatus_t, CreateConvolutionDescriptor, (gdnnConvDesc_t * d))                                           \
  X(gdnnStatus_t, DestroyConvolutionDescriptor, (gdnnConvDesc_t d))                                            \
  X(gdnnStatus_t, SetConvolutionNdDescriptor, (gdnnConvDesc_t d, int arrayLength, const int padA[],             \
                                               const int filterStrideA[], const int dilationA[], int mode,     \
                                               int computeType))                                               \
  X(gdnnStatus_t, SetConvolutionGroupCount, (gdnnConvDesc_t d, int groupCount))                                \
  X(gdnnStatus_t, SetConvolutionMathType, (gdnnConvDesc_t d, int mathType))                                    \
  X(gdnnStatus_t, GetConvolutionForwardAlgorithm_v7,                                                           \
    (gdnnHandle_t h, gdnnTensorDesc_t xDesc, gdnnFilterDesc_t wDesc, gdnnConvDesc_t convDesc,                  \
     gdnnTensorDesc_t yDesc, int requested, int *returned, gdnnAlgoPerf *perf))                                \
  X(gdnnStatus_t, FindConvolutionForwardAlgorithmEx,                                                           \
    (gdnnHandle_t h, gdnnTensorDesc_t xDesc, const void *x, gdnnFilterDesc_t wDesc, const void *w,             \
     gdnnConvDesc_t convDesc, gdnnTensorDesc_t yDesc, void *y, int requested, int *returned,                   \
     gdnnAlgoPerf *perf, void *workSpace, size_t workSpaceSize))                                               \
  X(gdnnStatus_t, GetConvolutionBackwardDataAlgorithm_v7,                                                      \
    (gdnnHandle_t h, gdnnFilterDesc_t wDesc, gdnnTensorDesc_t dyDesc, gdnnConvDesc_t convDesc,                 \
     gdnnTensorDesc_t dxDesc, int requested, int *returned, gdnnAlgoPerf *perf))                               \
  X(gdnnStatus_t, FindConvolutionBackwardDataAlgorithmEx,                                                      \
    (gdnnHandle_t h, gdnnFilterDesc_t wDesc, const void *w, gdnnTensorDesc_t dyDesc, const void *dy,           \
     gdnnConvDesc_t convDesc, gdnnTensorDesc_t dxDesc, void *dx, int requested, int *returned,                 \
     gdnnAlgoPerf *perf, void *workSpace, size_t workSpaceSize))                                               \
  X(gdnnStatus_t, GetConvolutionBackwardFilterAlgorithm_v7,                                                    \
    (gdnnHandle_t h, gdnnTensorDesc_t xDesc, gdnnTensorDesc_t dyDesc, gdnnConvDesc_t convDesc,                 \
     gdnnFilterDesc_t dwDesc, int requested, int *returned, gdnnAlgoPerf *perf))                               \
  X(gdnnStatus_t, FindConvolutionBackwardFilterAlgorithmEx,                                                    \
    (gdnnHandle_t h, gdnnTensorDesc_t xDesc, const void *x, gdnnTensorDesc_t dyDesc, const void *dy,           \
     gdnnConvDesc_t convDesc, gdnnFilterDesc_t dwDesc, void *dw, int requested, int *returned,                 \
     gdnnAlgoPerf *perf, void *workSpace, size_t workSpaceSize))                                               \
  X(gdnnStatus_t, GetConvolutionForwardWorkspaceSize,                                                          \
    (gdnnHandle_t h, gdnnTensorDesc_t xDesc, gdnnFilterDesc_t wDesc, gdnnConvDesc_t convDesc,                  \
     gdnnTensorDesc_t yDesc, int algo, size_t *size))                                                          \
  X(gdnnStatus_t, GetConvolutionBackwardDataWorkspaceSize,                                                     \
    (gdnnHandle_t h, gdnnFilterDesc_t wDesc, gdnnTensorDesc_t dyDesc, gdnnConvDesc_t convDesc,                 \
     gdnnTensorDesc_t dxDesc, int algo, size_t *size))                                                         \
  X(gdnnStatus_t, GetConvolutionBackwardFilterWorkspaceSize,                                                   \
    (gdnnHandle_t h, gdnnTensorDesc_t xDesc, gdnnTensorDesc_t dyDesc, gdnnConvDesc_t convDesc,                 \
     gdnnFilterDesc_t dwDesc, int algo, size_t *size))                                                         \
  X(gdnnStatus_t, ConvolutionForward,                                                                          \
    (gdnnHandle_t h, const void *alpha, gdnnTensorDesc_t xDesc, const void *x, gdnnFilterDesc_t wDesc,         \
     const void *w, gdnnConvDesc_t convDesc, int algo, void *workSpace, size_t workSpaceSize,                  \
     const void *beta, gdnnTensorDesc_t yDesc, void *y))                                                       \
  X(gdnnStatus_t, ConvolutionBackwardData,                                                                     \
    (gdnnHandle_t h, const void *alpha, gdnnFilterDesc_t wDesc, const void *w, gdnnTensorDesc_t dyDesc,        \
     const void *dy, gdnnConvDesc_t convDesc, int algo, void *workSpace, size_t workSpaceSize,                 \
     const void *beta, gdnnTensorDesc_t dxDesc, void *dx))                                                     \
  X(gdnnStatus_t, ConvolutionBackwardFilter,                                                                   \
    (gdnnHandle_t h, const void *alpha, gdnnTensorDesc_t xDesc, const void *x, gdnnTensorDesc_t dyDesc,        \
     const void *dy, gdnnConvDesc_t convDesc, int algo, void *workSpace, size_t workSpaceSize,                 \
     const void *beta, gdnnFilterDesc_t dwDesc, void *dw))                                                     \
  X(gdnnStatus_t, ConvolutionBackwardBias,                                                                     \
    (gdnnHandle_t h, const void *alpha, gdnnTensorDesc_t dyDesc, const void *dy, const void *beta,             \
     gdnnTensorDesc_t dbDesc, void *db))                                                                       \
  X(gdnnStatus_t, CreatePoolingDescriptor, (gdnnPoolDesc_t * d))                                               \
  X(gdnnStatus_t, DestroyPoolingDescriptor, (gdnnPoolDesc_t d))                                                \
  X(gdnnStatus_t, SetPoolingNdDescriptor, (gdnnPoolDesc_t d, int mode, int maxpoolingNanOpt, int nbDims,       \
                                           const int windowDimA[], const int paddingA[], const int strideA[]))  \
  X(gdnnStatus_t, PoolingForward,                                                                              \
    (gdnnHandle_t h, gdnnPoolDesc_t pd, const void *alpha, gdnnTensorDesc_t xDesc, const void *x,             \
     const void *beta, gdnnTensorDesc_t yDesc, void *y))                                                       \
  X(gdnnStatus_t, PoolingBackward,                                                                             \
    (gdnnHandle_t h, gdnnPoolDesc_t pd, const void *alpha, gdnnTensorDesc_t yDesc, const void *y,             \
     gdnnTensorDesc_t dyDesc, const void *dy, gdnnTensorDesc_t xDesc, const void *x, const void *beta,         \
     gdnnTensorDesc_t dxDesc, void *dx))                                                                       \
  X(gdnnStatus_t, CreateActivationDescriptor, (gdnnActDesc_t * d))                                             \
  X(gdnnStatus_t, DestroyActivationDescriptor, (gdnnActDesc_t d))                                              \
  X(gdnnStatus_t, SetActivationDescriptor, (gdnnActDesc_t d, int mode, int reluNanOpt, double coef))           \
  X(gdnnStatus_t, SetActivationDescriptorSwishBeta, (gdnnActDesc_t d, double swish_beta))                      \
  X(gdnnStatus_t, ActivationForward,                                                                           \
    (gdnnHandle_t h, gdnnActDesc_t ad, const void *alpha, gdnnTensorDesc_t xDesc, const void *x,              \
     const void *beta, gdnnTensorDesc_t yDesc, void *y))                                                       \
  X(gdnnStatus_t, ActivationBackward,                                                                          \
    (gdnnHandle_t h, gdnnActDesc_t ad, const void *alpha, gdnnTensorDesc_t yDesc, const void *y,              \
     gdnnTensorDesc_t dyDesc, const void *dy, gdnnTensorDesc_t xDesc, const void *x, const void *beta,         \
     gdnnTensorDesc_t dxDesc, void *dx))                                                                       \
  X(gdnnStatus_t, SoftmaxForward,                                                                              \
    (gdnnHandle_t h, int algo, int mode, const void *alpha, gdnnTensorDesc_t xDesc, const void *x,            \
     const void *beta, gdnnTensorDesc_t yDesc, void *y))                                                       \
  X(gdnnStatus_t, SoftmaxBackward,                                                                             \
    (gdnnHandle_t h, int algo, int mode, const void *alpha, gdnnTensorDesc_t yDesc, const void *y,            \
     gdnnTensorDesc_t dyDesc, const void *dy, const void *beta, gdnnTensorDesc_t dxDesc, void *dx))            \
  X(gdnnStatus_t, BatchNormalizationForwardTraining,                                                           \
    (gdnnHandle_t h, int mode, const void *alpha, const void *beta, gdnnTensorDesc_t xDesc, const void *x,    \
     gdnnTensorDesc_t yDesc, void *y, gdnnTensorDesc_t bnDesc, const void *scale, const void *bias,            \
     double exponentialAverageFactor, void *runningMean, void *runningVariance, double epsilon,               \
     void *saveMean, void *saveInvVariance))                                                                   \
  X(gdnnStatus_t, BatchNormalizationForwardInference,                                                          \
    (gdnnHandle_t h, int mode, const void *alpha, const void *beta, gdnnTensorDesc_t xDesc, const void *x,    \
     gdnnTensorDesc_t yDesc, void *y, gdnnTensorDesc_t bnDesc, const void *scale, const void *bias,            \
     const void *estimatedMean, const void *estimatedVariance, double epsilon))                                \
  X(gdnnStatus_t, BatchNormalizationBackward,                                                                  \
    (gdnnHandle_t h, int mode, const void *alphaDataDiff, const void *betaDataDiff,                            \
     const void *alphaParamDiff, const void *betaParamDiff, gdnnTensorDesc_t xDesc, const void *x,             \
     gdnnTensorDesc_t dyDesc, const void *dy, gdnnTensorDesc_t dxDesc, void *dx, gdnnTensorDesc_t bnDesc,      \
     const void *scale, void *dScale, void *dBias, double epsilon, const void *savedMean,                      \
     const void *savedInvVariance))                                                                            \
  X(gdnnStatus_t, AddTensor,                                                                                   \
    (gdnnHandle_t h, const void *alpha, gdnnTensorDesc_t aDesc, const void *A, const void *beta,               \
     gdnnTensorDesc_t cDesc, void *C))

#endif
