/* Matrix product through cuBLAS.  Handles are per device, created on first
 * use (never at require time), and used under a lock because a cuBLAS
 * handle must not be driven by two threads at once. */
#include "cuda/ga_cuda_internal.h"
#include <cublas_v2.h>
#include <pthread.h>

static cublasHandle_t handles[GA_MAX_DEVICES];
static pthread_mutex_t locks[GA_MAX_DEVICES];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_locks(void) {
  for (int i = 0; i < GA_MAX_DEVICES; i++) pthread_mutex_init(&locks[i], NULL);
}

static int blas_error(cublasStatus_t s, const char *what) {
  return ga_err(GA_EBLAS, "cuBLAS error in %s: %s", what, cublasGetStatusString(s));
}

/* A row-major (rows, cols) operand as cuBLAS sees it: C-contiguous -> no
 * transpose with ld = row stride; F-contiguous -> transpose with ld = column
 * stride.  The binding makes other layouts contiguous first. */
static int layout(const ga_array *a, cublasOperation_t *op, int64_t *ld) {
  int64_t is = GA_ITEMSIZE(a->dtype);
  if (a->shape[1] == 1 || a->strides[1] == is) {
    *op = CUBLAS_OP_N;
    *ld = a->shape[0] == 1 ? a->shape[1] : a->strides[0] / is;
    if (*ld < a->shape[1]) *ld = a->shape[1];
    return GA_OK;
  }
  if (a->shape[0] == 1 || a->strides[0] == is) {
    *op = CUBLAS_OP_T;
    *ld = a->shape[1] == 1 ? a->shape[0] : a->strides[1] / is;
    if (*ld < a->shape[0]) *ld = a->shape[0];
    return GA_OK;
  }
  return ga_err(GA_EINTERNAL, "matmul operand is not contiguous");
}

int ga_cuda_matmul(const ga_array *a, const ga_array *b, ga_array *out, void *stream) {
  int dev = GA_DEVICE(out), rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1];
  if (m == 0 || n == 0 || k == 0) return GA_OK;  /* the binding zero-fills for k == 0 */
  if ((rc = ga_cuda_flush(dev))) return rc;   /* cuBLAS work goes after queued kernels */
  if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
    return ga_err(GA_EINVAL, "matrix dimensions exceed cuBLAS's 32-bit limit");
  cublasOperation_t opa, opb;
  int64_t lda, ldb;
  if ((rc = layout(a, &opa, &lda)) || (rc = layout(b, &opb, &ldb))) return rc;
  pthread_once(&once, init_locks);
  pthread_mutex_lock(&locks[dev]);
  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
  if (!handles[dev]) s = cublasCreate(&handles[dev]);
  if (s != CUBLAS_STATUS_SUCCESS) {
    handles[dev] = NULL;
    pthread_mutex_unlock(&locks[dev]);
    return blas_error(s, "cublasCreate");
  }
  cublasHandle_t h = handles[dev];
  cublasSetStream(h, (cudaStream_t)stream);
  /* row-major C = A B is column-major C^T = B^T A^T */
  const void *A = GA_DATA(a), *B = GA_DATA(b);
  void *C = GA_DATA(out);
  if (out->dtype == GA_FLOAT32) {
    const float one = 1, zero = 0;
    s = cublasSgemm(h, opb, opa, (int)n, (int)m, (int)k, &one, B, (int)ldb, A, (int)lda, &zero, C, (int)n);
  } else if (out->dtype == GA_FLOAT64) {
    const double one = 1, zero = 0;
    s = cublasDgemm(h, opb, opa, (int)n, (int)m, (int)k, &one, B, (int)ldb, A, (int)lda, &zero, C, (int)n);
  } else {
    const float one = 1, zero = 0;   /* float16 storage, float32 accumulation */
    s = cublasGemmEx(h, opb, opa, (int)n, (int)m, (int)k, &one, B, CUDA_R_16F, (int)ldb, A, CUDA_R_16F,
                     (int)lda, &zero, C, CUDA_R_16F, (int)n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  }
  pthread_mutex_unlock(&locks[dev]);
  return s == CUBLAS_STATUS_SUCCESS ? GA_OK : blas_error(s, "gemm");
}
