/* The cuDNN-style calls (ga.cudnn): one descriptor for every operation,
 * filled by the core (core/ga_dnn.c) and run by the backend's `dnn` slot
 * (host/ga_host_dnn.c, cuda/ga_cuda_dnn.c).  Tensors arrive in canonical
 * order (N, C, spatial...) whatever the user's layout: a channels-last
 * (NHWC) array is the same dims with other strides.  Every tensor is dense
 * in its layout (the core copies others), strides are in elements. */
#ifndef GA_DNN_CALL_H
#define GA_DNN_CALL_H
#include <stdint.h>

#define GA_DNN_MAXDIM 5   /* N, C and up to 3 spatial dims */

enum {
  GA_DNN_CONV_FWD, GA_DNN_CONV_BWD_DATA, GA_DNN_CONV_BWD_FILTER, GA_DNN_CONV_BWD_BIAS,
  GA_DNN_POOL_FWD, GA_DNN_POOL_BWD, GA_DNN_ACT_FWD, GA_DNN_ACT_BWD,
  GA_DNN_SOFTMAX_FWD, GA_DNN_SOFTMAX_BWD,
  GA_DNN_BN_TRAIN, GA_DNN_BN_INFER, GA_DNN_BN_BWD, GA_DNN_ADD, GA_DNN_NOPS
};

/* the tensors of a call (which ones an op uses: core/ga_dnn.c) */
enum {
  GA_DT_X, GA_DT_Y, GA_DT_W, GA_DT_DX, GA_DT_DY, GA_DT_DW,
  GA_DT_B,       /* conv bias (forward), its gradient (backward_bias), add_tensor's A */
  GA_DT_SCALE, GA_DT_BIAS, GA_DT_MEAN, GA_DT_VAR,   /* batch norm parameters */
  GA_DT_SMEAN, GA_DT_SINV, GA_DT_DSCALE, GA_DT_DBIAS,
  GA_DT_N
};

/* modes (the same numbers as cuDNN's enums, which the CUDA backend checks) */
enum { GA_POOL_MAX = 0, GA_POOL_AVG_INCLUDE = 1, GA_POOL_AVG_EXCLUDE = 2 };
enum { GA_ACT_SIGMOID = 0, GA_ACT_RELU = 1, GA_ACT_TANH = 2, GA_ACT_CLIPPED_RELU = 3, GA_ACT_ELU = 4,
       GA_ACT_SWISH = 6 };
enum { GA_SOFTMAX_ACCURATE = 1, GA_SOFTMAX_LOG = 2 };              /* algorithms */
enum { GA_SOFTMAX_INSTANCE = 0, GA_SOFTMAX_CHANNEL = 1 };          /* modes */
enum { GA_BN_PER_ACTIVATION = 0, GA_BN_SPATIAL = 1 };

typedef struct ga_dnn_tensor {
  char *data;                       /* NULL: not part of this call */
  int64_t dims[GA_DNN_MAXDIM];      /* canonical order; ndim of the call */
  int64_t strides[GA_DNN_MAXDIM];   /* elements */
} ga_dnn_tensor;

typedef struct ga_dnn_call {
  int op;                 /* GA_DNN_* */
  int dtype;              /* of the data tensors (float16/32/64) */
  int pdtype;             /* of batch norm's parameter tensors (float32, or float64 with float64 data) */
  int ndim;               /* 4 or 5 (a 1-D convolution has a spatial dim of 1 in front) */
  int nhwc;               /* the filter is (K, spatial..., C/g) rather than (K, C/g, spatial...) */
  ga_dnn_tensor t[GA_DT_N];
  /* convolution and pooling (ndim - 2 entries) */
  int pad[3], stride[3], dilation[3], window[3];
  int groups;
  int algo_find;          /* benchmark algorithms once per shape (cudnnFind*Ex) */
  int tensor_cores;       /* tensor-core math allowed */
  int mode;               /* GA_POOL_*, GA_ACT_*, GA_SOFTMAX_* (algorithm), GA_BN_* */
  int mode2;              /* softmax: GA_SOFTMAX_INSTANCE / CHANNEL */
  double coef;            /* clipped relu ceiling, elu alpha, swish beta */
  double epsilon, factor; /* batch norm */
  double alpha, beta;     /* result = alpha * op + beta * result (add_tensor, out=) */
  int device;
  void *stream;
  /* the backend sets *unsupported = 1 when it fails because the library
   * does not support this configuration (the core then retries a
   * channels-last call on channels-first copies) */
  int *unsupported;
} ga_dnn_call;

#endif
