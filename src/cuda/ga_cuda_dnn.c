/* The CUDA backend's ga.cudnn slot on cuDNN 9's legacy API.
 *
 * Loading: libcudnn.so.9 (or the file in GPUARRAY_CUDNN) is opened with
 * dlopen on the first call, never at require time, and its entry points
 * are looked up by name (cuDNN 9's libcudnn.so.9 exports them all and
 * forwards to libcudnn_ops / libcudnn_cnn); the prototypes are ours
 * (cuda/ga_cudnn_api.h).  Without the library every call fails with
 * "cudnn: library not found (set GPUARRAY_CUDNN=/path/to/libcudnn.so.9)".
 *
 * Handles: one per device, created on first use, driven under the
 * device's lock (a handle must not be used by two threads at once); the
 * call's stream is set on it each time, after the launch queue is flushed
 * so that cuDNN's work follows the kernels queued before it.
 *
 * Convolutions: the algorithm is cuDNN's heuristic choice
 * (cudnnGet*Algorithm_v7) or, with algo_find, the fastest measured by
 * cudnnFind*AlgorithmEx; either is cached per device and shape (the key
 * is the call's geometry).  Workspaces are scratch from the device's pool,
 * stream-ordered, given back once the work is queued. */
#include "cuda/ga_cuda.h"
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cudnn_api.h"
#include "base/ga_dnn_call.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include "base/ga_scratch.h"
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOT_FOUND "cudnn: library not found (set GPUARRAY_CUDNN=/path/to/libcudnn.so.9)"

/* ---- the library ---- */

static struct {
#define X(ret, name, args) ret(*name) args;
  GDNN_FUNCS(X)
#undef X
} dnn;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_rc;
static size_t load_version;
static char load_msg[512];

/* cuDNN 9's libcudnn.so.9 opens its sub-libraries by name when first
 * needed; when GPUARRAY_CUDNN names a file in a directory the loader does
 * not search (a Python wheel's nvidia/cudnn/lib), open them from that
 * directory first, so that those later opens find them loaded (a
 * library's soname matches).  Any that is missing is left to cuDNN. */
static void preload_siblings(const char *path) {
  static const char *const subs[] = {"libcudnn_graph.so.9", "libcudnn_engines_precompiled.so.9",
                                     "libcudnn_engines_runtime_compiled.so.9", "libcudnn_heuristic.so.9",
                                     "libcudnn_ops.so.9", "libcudnn_cnn.so.9"};
  const char *slash = strrchr(path, '/');
  if (!slash) return;
  size_t dl = (size_t)(slash - path) + 1;
  char buf[4096];
  for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
    size_t sl = strlen(subs[i]);
    if (dl + sl + 1 > sizeof buf) return;
    memcpy(buf, path, dl);
    memcpy(buf + dl, subs[i], sl + 1);
    (void)dlopen(buf, RTLD_NOW | RTLD_LOCAL);   /* kept open for the process's life */
  }
}

static void load(void) {
  const char *env = getenv("GPUARRAY_CUDNN");
  const char *path = env && *env ? env : "libcudnn.so.9";
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h) preload_siblings(path);
  if (!h) {
    load_rc = GA_EDEVICE;
    snprintf(load_msg, sizeof load_msg, "%s", NOT_FOUND);
    return;
  }
  /* POSIX: a function pointer through a void * (dlsym's contract) */
#define X(ret, name, args)                                                                              \
  if (!(*(void **)&dnn.name = dlsym(h, "cudnn" #name))) {                                               \
    load_rc = GA_EDEVICE;                                                                               \
    snprintf(load_msg, sizeof load_msg, "cudnn: %s has no cudnn%s (gpuarray needs cuDNN 9)", path, #name); \
    dlclose(h);                                                                                         \
    memset(&dnn, 0, sizeof dnn);                                                                        \
    return;                                                                                             \
  }
  GDNN_FUNCS(X)
#undef X
  load_version = dnn.GetVersion();
  if (load_version < 90000 || load_version >= 100000) {
    load_rc = GA_EDEVICE;
    snprintf(load_msg, sizeof load_msg, "cudnn: %s is cuDNN version %zu; gpuarray needs cuDNN 9", path,
             load_version);
    memset(&dnn, 0, sizeof dnn);
    dlclose(h);   /* a wrong version is never used */
    return;
  }
  load_rc = GA_OK;
}

int ga_cuda_dnn_load(int *version) {
  pthread_once(&load_once, load);
  if (load_rc) return ga_err(load_rc, "%s", load_msg);
  *version = (int)load_version;
  return GA_OK;
}

/* CUDNN_STATUS_NOT_SUPPORTED and its sub-codes (3000-3999) */
#define UNSUPPORTED(s) ((s) / 1000 == 3)

/* cuDNN's message; tells the core when the configuration is unsupported */
static int dnn_error(const ga_dnn_call *c, gdnnStatus_t s, const char *what) {
  if (UNSUPPORTED(s) && c->unsupported) *c->unsupported = 1;
  const char *m = dnn.GetErrorString ? dnn.GetErrorString(s) : NULL;
  int oom = s == GDNN_STATUS_HOST_ALLOCATION_FAILED || s == GDNN_STATUS_DEVICE_ALLOCATION_FAILED;
  return ga_err(oom ? GA_ENOMEM : GA_ECUDA, "cuDNN error in %s: %s (%d)", what, m ? m : "unknown", (int)s);
}
#define DNN(call, what)                \
  do {                                 \
    gdnnStatus_t s_ = (call);          \
    if (s_ != GDNN_STATUS_SUCCESS) {   \
      rc = dnn_error(c, s_, what);     \
      goto done;                       \
    }                                  \
  } while (0)

/* ---- handles and the algorithm cache, per device ---- */

typedef struct algo_key {
  int op, dtype, nhwc, ndim, groups, tensor_cores, find;
  int dims[3][GA_DNN_MAXDIM];   /* x, w, y */
  int pad[3], stride[3], dilation[3];
} algo_key;

typedef struct algo_entry {
  algo_key key;
  int algo, math;
  size_t ws;
  struct algo_entry *next;
} algo_entry;

#define MAX_ALGOS 512

static gdnnHandle_t handles[GA_MAX_DEVICES];
static algo_entry *algos[GA_MAX_DEVICES];
static int nalgos[GA_MAX_DEVICES];
static pthread_mutex_t locks[GA_MAX_DEVICES];
static pthread_once_t locks_once = PTHREAD_ONCE_INIT;

static void init_locks(void) {
  for (int i = 0; i < GA_MAX_DEVICES; i++) pthread_mutex_init(&locks[i], NULL);
}

static const algo_entry *algo_find(int dev, const algo_key *k) {
  for (algo_entry *e = algos[dev]; e; e = e->next)
    if (!memcmp(&e->key, k, sizeof *k)) return e;
  return NULL;
}

static void algo_put(int dev, const algo_key *k, int algo, int math, size_t ws) {
  if (nalgos[dev] >= MAX_ALGOS) {   /* many shapes: start over */
    while (algos[dev]) {
      algo_entry *e = algos[dev];
      algos[dev] = e->next;
      free(e);
    }
    nalgos[dev] = 0;
  }
  algo_entry *e = calloc(1, sizeof *e);
  if (!e) return;   /* not cached: chosen again next time */
  memcpy(&e->key, k, sizeof *k);
  e->algo = algo, e->math = math, e->ws = ws;
  e->next = algos[dev];
  algos[dev] = e;
  nalgos[dev]++;
}

/* ---- descriptors ---- */

static int dtype_of(int dt) {
  return dt == GA_FLOAT16 ? GDNN_DATA_HALF : dt == GA_FLOAT64 ? GDNN_DATA_DOUBLE : GDNN_DATA_FLOAT;
}

static int to_int(int64_t v, int *o) {
  if (v < 0 || v > INT_MAX) return ga_err(GA_EINVAL, "a dimension or stride (%lld) exceeds cuDNN's 32-bit limit",
                                          (long long)v);
  *o = (int)v;
  return GA_OK;
}

typedef struct descs {
  gdnnTensorDesc_t t[GA_DT_N];
  gdnnFilterDesc_t f;
  gdnnConvDesc_t conv;
  gdnnPoolDesc_t pool;
  gdnnActDesc_t act;
} descs;

/* the descriptors of each device, created on first use and set again by
 * every call (under the device's lock): no allocation per call */
static descs cached[GA_MAX_DEVICES];

/* a tensor descriptor for role r of the call */
static int tensor_desc(const ga_dnn_call *c, int r, descs *d) {
  int dims[GA_DNN_MAXDIM], str[GA_DNN_MAXDIM], rc;
  for (int i = 0; i < c->ndim; i++)
    if ((rc = to_int(c->t[r].dims[i], &dims[i])) || (rc = to_int(c->t[r].strides[i], &str[i]))) return rc;
  gdnnStatus_t s;
  if (!d->t[r] && (s = dnn.CreateTensorDescriptor(&d->t[r])) != GDNN_STATUS_SUCCESS) {
    d->t[r] = NULL;
    return dnn_error(c, s, "cudnnCreateTensorDescriptor");
  }
  int dt = dtype_of(r >= GA_DT_SCALE ? c->pdtype : c->dtype);
  s = dnn.SetTensorNdDescriptor(d->t[r], dt, c->ndim, dims, str);
  return s == GDNN_STATUS_SUCCESS ? GA_OK : dnn_error(c, s, "cudnnSetTensorNdDescriptor");
}

/* the convolution's filter and convolution descriptors */
static int conv_descs(const ga_dnn_call *c, int wr, descs *d) {
  int dims[GA_DNN_MAXDIM], rc;
  for (int i = 0; i < c->ndim; i++)
    if ((rc = to_int(c->t[wr].dims[i], &dims[i]))) return rc;
  gdnnStatus_t s;
  if (!d->f && (s = dnn.CreateFilterDescriptor(&d->f)) != GDNN_STATUS_SUCCESS) {
    d->f = NULL;
    return dnn_error(c, s, "cudnnCreateFilterDescriptor");
  }
  /* dims in KCRS order whatever the format (cuDNN's rule) */
  s = dnn.SetFilterNdDescriptor(d->f, dtype_of(c->dtype), c->nhwc ? GDNN_TENSOR_NHWC : GDNN_TENSOR_NCHW, c->ndim,
                                dims);
  if (s != GDNN_STATUS_SUCCESS) return dnn_error(c, s, "cudnnSetFilterNdDescriptor");
  if (!d->conv && (s = dnn.CreateConvolutionDescriptor(&d->conv)) != GDNN_STATUS_SUCCESS) {
    d->conv = NULL;
    return dnn_error(c, s, "cudnnCreateConvolutionDescriptor");
  }
  /* float16 data computes in float32 (PSEUDO_HALF), float64 in float64 */
  int compute = c->dtype == GA_FLOAT64 ? GDNN_DATA_DOUBLE : GDNN_DATA_FLOAT;
  s = dnn.SetConvolutionNdDescriptor(d->conv, c->ndim - 2, c->pad, c->stride, c->dilation, GDNN_CROSS_CORRELATION,
                                     compute);
  if (s != GDNN_STATUS_SUCCESS) return dnn_error(c, s, "cudnnSetConvolutionNdDescriptor");
  if ((s = dnn.SetConvolutionGroupCount(d->conv, c->groups)) != GDNN_STATUS_SUCCESS)
    return dnn_error(c, s, "cudnnSetConvolutionGroupCount");
  return GA_OK;
}

/* the math type asked for before the algorithm search: tensor cores (and
 * TF32 for float32) allowed, or plain FMA arithmetic */
static int math_wanted(const ga_dnn_call *c) {
  if (!c->tensor_cores) return GDNN_FMA_MATH;
  return c->dtype == GA_FLOAT16 ? GDNN_TENSOR_OP_MATH : GDNN_DEFAULT_MATH;
}

/* a heuristic result or measurement we may use */
static int perf_ok(const ga_dnn_call *c, const gdnnAlgoPerf *p) {
  if (p->status != GDNN_STATUS_SUCCESS) return 0;
  if (!c->tensor_cores && (p->mathType == GDNN_TENSOR_OP_MATH || p->mathType == GDNN_TENSOR_OP_MATH_ALLOW_CONVERSION))
    return 0;
  /* float32 may use TF32 (DEFAULT_MATH on Ampere and later, as PyTorch's
   * default), never a conversion to float16 */
  if (c->dtype != GA_FLOAT16 && p->mathType == GDNN_TENSOR_OP_MATH_ALLOW_CONVERSION) return 0;
  return 1;
}

/* cuDNN's heuristic ranking of the algorithms of a convolution (with the
 * workspace each needs), into perf[16] */
static int heuristics(gdnnHandle_t h, const ga_dnn_call *c, descs *d, gdnnAlgoPerf *perf, int *got) {
  gdnnStatus_t s;
  if (c->op == GA_DNN_CONV_FWD)
    s = dnn.GetConvolutionForwardAlgorithm_v7(h, d->t[GA_DT_X], d->f, d->conv, d->t[GA_DT_Y],
                                              GDNN_CONVOLUTION_FWD_ALGO_COUNT, got, perf);
  else if (c->op == GA_DNN_CONV_BWD_DATA)
    s = dnn.GetConvolutionBackwardDataAlgorithm_v7(h, d->f, d->t[GA_DT_DY], d->conv, d->t[GA_DT_DX],
                                                   GDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, got, perf);
  else
    s = dnn.GetConvolutionBackwardFilterAlgorithm_v7(h, d->t[GA_DT_X], d->t[GA_DT_DY], d->conv, d->f,
                                                     GDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, got, perf);
  return s == GDNN_STATUS_SUCCESS ? GA_OK : dnn_error(c, s, "cudnnGetConvolutionAlgorithm_v7");
}

/* choose (or look up) the algorithm of a convolution; with the device's
 * lock held and the handle on the call's stream.  x/w/y: the roles of the
 * input, filter and output tensors of this op. */
static int conv_algo(int dev, gdnnHandle_t h, const ga_dnn_call *c, descs *d, int xr, int wr, int yr, int *algo,
                     int *math, size_t *ws) {
  algo_key k;
  memset(&k, 0, sizeof k);   /* padding too: keys compare with memcmp */
  k.op = c->op, k.dtype = c->dtype, k.nhwc = c->nhwc, k.ndim = c->ndim, k.groups = c->groups;
  k.tensor_cores = c->tensor_cores, k.find = c->algo_find;
  int roles3[3] = {xr, wr, yr};
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < c->ndim; i++) k.dims[j][i] = (int)c->t[roles3[j]].dims[i];
  memcpy(k.pad, c->pad, sizeof k.pad), memcpy(k.stride, c->stride, sizeof k.stride);
  memcpy(k.dilation, c->dilation, sizeof k.dilation);
  const algo_entry *e = algo_find(dev, &k);
  if (e) {
    *algo = e->algo, *math = e->math, *ws = e->ws;
    return GA_OK;
  }
  int rc = GA_OK;
  gdnnAlgoPerf perf[16];
  int got = 0;
  memset(perf, 0, sizeof perf);
  ga_scratch scr = {0};
  gdnnStatus_t s;
  if ((s = dnn.SetConvolutionMathType(d->conv, math_wanted(c))) != GDNN_STATUS_SUCCESS)
    return dnn_error(c, s, "cudnnSetConvolutionMathType");
  if (c->algo_find) {
    /* a workspace for the trials as large as the heuristics' hungriest
     * candidate (TF32 implicit GEMM wants ~400 MB on a ResNet layer, and a
     * fixed 256 MiB left float32 with FMA algorithms only: 13x slower),
     * less if the pool cannot give it (the search then skips those) */
    size_t want = (size_t)256 << 20;
    if ((rc = heuristics(h, c, d, perf, &got))) return rc;
    for (int i = 0; i < got && i < 16; i++)
      if (perf[i].status == GDNN_STATUS_SUCCESS && perf[i].memory > want) want = perf[i].memory;
    got = 0;
    memset(perf, 0, sizeof perf);
    while (want >= ((size_t)1 << 20) && ga_scratch_get(ga_cuda_pool(dev), want, c->stream, &scr)) want >>= 1;
    if (!scr.ptr) want = 0;   /* scratch of a user's allocator has no pool block */
    void *wp = scr.ptr;
    if (c->op == GA_DNN_CONV_FWD)
      s = dnn.FindConvolutionForwardAlgorithmEx(h, d->t[GA_DT_X], c->t[GA_DT_X].data, d->f, c->t[GA_DT_W].data,
                                                d->conv, d->t[GA_DT_Y], c->t[GA_DT_Y].data,
                                                GDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf, wp, want);
    else if (c->op == GA_DNN_CONV_BWD_DATA)
      s = dnn.FindConvolutionBackwardDataAlgorithmEx(h, d->f, c->t[GA_DT_W].data, d->t[GA_DT_DY],
                                                     c->t[GA_DT_DY].data, d->conv, d->t[GA_DT_DX],
                                                     c->t[GA_DT_DX].data, GDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &got,
                                                     perf, wp, want);
    else
      s = dnn.FindConvolutionBackwardFilterAlgorithmEx(h, d->t[GA_DT_X], c->t[GA_DT_X].data, d->t[GA_DT_DY],
                                                       c->t[GA_DT_DY].data, d->conv, d->f, c->t[GA_DT_DW].data,
                                                       GDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &got, perf, wp,
                                                       want);
    ga_scratch_put(&scr);
    if (s != GDNN_STATUS_SUCCESS) return dnn_error(c, s, "cudnnFindConvolutionAlgorithmEx");
  } else if ((rc = heuristics(h, c, d, perf, &got))) {
    return rc;
  }
  int pick = -1;
  for (int i = 0; i < got && i < 16; i++)
    if (perf_ok(c, &perf[i])) {
      pick = i;
      break;
    }
  if (pick < 0) {
    if (c->unsupported) *c->unsupported = 1;
    return ga_err(GA_ECUDA, "cuDNN has no convolution algorithm for this configuration");
  }
  *algo = perf[pick].algo;
  *math = c->tensor_cores ? perf[pick].mathType : GDNN_FMA_MATH;
  if ((s = dnn.SetConvolutionMathType(d->conv, *math)) != GDNN_STATUS_SUCCESS)
    return dnn_error(c, s, "cudnnSetConvolutionMathType");
  size_t need = 0;
  if (c->op == GA_DNN_CONV_FWD)
    s = dnn.GetConvolutionForwardWorkspaceSize(h, d->t[GA_DT_X], d->f, d->conv, d->t[GA_DT_Y], *algo, &need);
  else if (c->op == GA_DNN_CONV_BWD_DATA)
    s = dnn.GetConvolutionBackwardDataWorkspaceSize(h, d->f, d->t[GA_DT_DY], d->conv, d->t[GA_DT_DX], *algo, &need);
  else
    s = dnn.GetConvolutionBackwardFilterWorkspaceSize(h, d->t[GA_DT_X], d->t[GA_DT_DY], d->conv, d->f, *algo,
                                                      &need);
  if (s != GDNN_STATUS_SUCCESS) return dnn_error(c, s, "cudnnGetConvolutionWorkspaceSize");
  *ws = need > perf[pick].memory ? need : perf[pick].memory;
  algo_put(dev, &k, *algo, *math, *ws);
  return rc;
}

/* ---- one call ---- */

int ga_cuda_dnn(const ga_dnn_call *c) {
  int rc = ga_cuda_dnn_load(&(int){0});
  if (rc) return rc;
  int dev = c->device;
  if (dev < 0 || dev >= GA_MAX_DEVICES) return ga_err(GA_EDEVICE, "no CUDA device %d", dev);
  if ((rc = ga_cuda_set_device(dev))) return rc;
  if ((rc = ga_cuda_flush(dev))) return rc;   /* cuDNN's work goes after queued kernels */
  pthread_once(&locks_once, init_locks);
  static __thread int holding;   /* the workspace's allocator (it may run Lua) called cuDNN again */
  if (holding)
    return ga_err(GA_EINVAL, "called from inside an allocator function serving a cuDNN workspace "
                  "(an allocator must not run cuDNN: that would deadlock)");
  pthread_mutex_lock(&locks[dev]);
  holding = 1;
  descs *dd = &cached[dev];
  ga_scratch ws = {0};
  gdnnHandle_t h = handles[dev];
  if (!h) {
    gdnnStatus_t s = dnn.Create(&h);
    if (s != GDNN_STATUS_SUCCESS) {
      holding = 0;
      pthread_mutex_unlock(&locks[dev]);
      return dnn_error(c, s, "cudnnCreate");
    }
    handles[dev] = h;
  }
  DNN(dnn.SetStream(h, c->stream), "cudnnSetStream");
  for (int r = 0; r < GA_DT_N; r++) {
    if (!c->t[r].data || r == GA_DT_W || r == GA_DT_DW) continue;
    if ((rc = tensor_desc(c, r, dd))) goto done;
  }
  /* blend factors: double for float64 data, float otherwise (cuDNN's rule) */
  double one_d = 1, zero_d = 0, alpha_d = c->alpha, beta_d = c->beta;
  float one_f = 1, zero_f = 0, alpha_f = (float)c->alpha, beta_f = (float)c->beta;
  int dbl = c->dtype == GA_FLOAT64;
  const void *one = dbl ? (const void *)&one_d : (const void *)&one_f;
  const void *zero = dbl ? (const void *)&zero_d : (const void *)&zero_f;
  const void *alpha = dbl ? (const void *)&alpha_d : (const void *)&alpha_f;
  const void *beta = dbl ? (const void *)&beta_d : (const void *)&beta_f;
#define P(r) (c->t[r].data)

  switch (c->op) {
  case GA_DNN_CONV_FWD:
  case GA_DNN_CONV_BWD_DATA:
  case GA_DNN_CONV_BWD_FILTER: {
    int wr = c->op == GA_DNN_CONV_BWD_FILTER ? GA_DT_DW : GA_DT_W;
    int xr = c->op == GA_DNN_CONV_BWD_DATA ? GA_DT_DX : GA_DT_X;
    int yr = c->op == GA_DNN_CONV_FWD ? GA_DT_Y : GA_DT_DY;
    if ((rc = conv_descs(c, wr, dd))) goto done;
    int algo = 0, math = 0;
    size_t need = 0;
    if ((rc = conv_algo(dev, h, c, dd, xr, wr, yr, &algo, &math, &need))) goto done;
    DNN(dnn.SetConvolutionMathType(dd->conv, math), "cudnnSetConvolutionMathType");
    if (need > 0 && (rc = ga_scratch_get(ga_cuda_pool(dev), need, c->stream, &ws))) goto done;
    if (c->op == GA_DNN_CONV_FWD) {
      DNN(dnn.ConvolutionForward(h, alpha, dd->t[GA_DT_X], P(GA_DT_X), dd->f, P(GA_DT_W), dd->conv, algo, ws.ptr, need,
                                 beta, dd->t[GA_DT_Y], P(GA_DT_Y)),
          "cudnnConvolutionForward");
      if (P(GA_DT_B))
        DNN(dnn.AddTensor(h, one, dd->t[GA_DT_B], P(GA_DT_B), one, dd->t[GA_DT_Y], P(GA_DT_Y)), "cudnnAddTensor");
    } else if (c->op == GA_DNN_CONV_BWD_DATA) {
      DNN(dnn.ConvolutionBackwardData(h, alpha, dd->f, P(GA_DT_W), dd->t[GA_DT_DY], P(GA_DT_DY), dd->conv, algo, ws.ptr,
                                      need, beta, dd->t[GA_DT_DX], P(GA_DT_DX)),
          "cudnnConvolutionBackwardData");
    } else {
      DNN(dnn.ConvolutionBackwardFilter(h, alpha, dd->t[GA_DT_X], P(GA_DT_X), dd->t[GA_DT_DY], P(GA_DT_DY), dd->conv, algo,
                                        ws.ptr, need, beta, dd->f, P(GA_DT_DW)),
          "cudnnConvolutionBackwardFilter");
    }
    break;
  }
  case GA_DNN_CONV_BWD_BIAS:
    DNN(dnn.ConvolutionBackwardBias(h, alpha, dd->t[GA_DT_DY], P(GA_DT_DY), beta, dd->t[GA_DT_B], P(GA_DT_B)),
        "cudnnConvolutionBackwardBias");
    break;
  case GA_DNN_POOL_FWD:
  case GA_DNN_POOL_BWD: {
    gdnnStatus_t s;
    if (!dd->pool && (s = dnn.CreatePoolingDescriptor(&dd->pool)) != GDNN_STATUS_SUCCESS) {
      dd->pool = NULL;
      rc = dnn_error(c, s, "cudnnCreatePoolingDescriptor");
      goto done;
    }
    int mode = c->mode == GA_POOL_MAX ? GDNN_POOLING_MAX
               : c->mode == GA_POOL_AVG_INCLUDE ? GDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                                : GDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
    DNN(dnn.SetPoolingNdDescriptor(dd->pool, mode, GDNN_NOT_PROPAGATE_NAN, c->ndim - 2, c->window, c->pad, c->stride),
        "cudnnSetPoolingNdDescriptor");
    if (c->op == GA_DNN_POOL_FWD)
      DNN(dnn.PoolingForward(h, dd->pool, alpha, dd->t[GA_DT_X], P(GA_DT_X), beta, dd->t[GA_DT_Y], P(GA_DT_Y)),
          "cudnnPoolingForward");
    else
      DNN(dnn.PoolingBackward(h, dd->pool, alpha, dd->t[GA_DT_Y], P(GA_DT_Y), dd->t[GA_DT_DY], P(GA_DT_DY), dd->t[GA_DT_X],
                              P(GA_DT_X), beta, dd->t[GA_DT_DX], P(GA_DT_DX)),
          "cudnnPoolingBackward");
    break;
  }
  case GA_DNN_ACT_FWD:
  case GA_DNN_ACT_BWD: {
    gdnnStatus_t s;
    if (!dd->act && (s = dnn.CreateActivationDescriptor(&dd->act)) != GDNN_STATUS_SUCCESS) {
      dd->act = NULL;
      rc = dnn_error(c, s, "cudnnCreateActivationDescriptor");
      goto done;
    }
    int mode = c->mode == GA_ACT_SIGMOID ? GDNN_ACTIVATION_SIGMOID
               : c->mode == GA_ACT_RELU ? GDNN_ACTIVATION_RELU
               : c->mode == GA_ACT_TANH ? GDNN_ACTIVATION_TANH
               : c->mode == GA_ACT_CLIPPED_RELU ? GDNN_ACTIVATION_CLIPPED_RELU
               : c->mode == GA_ACT_ELU ? GDNN_ACTIVATION_ELU
                                        : GDNN_ACTIVATION_SWISH;
    DNN(dnn.SetActivationDescriptor(dd->act, mode, GDNN_NOT_PROPAGATE_NAN, c->coef), "cudnnSetActivationDescriptor");
    if (mode == GDNN_ACTIVATION_SWISH)
      DNN(dnn.SetActivationDescriptorSwishBeta(dd->act, c->coef), "cudnnSetActivationDescriptorSwishBeta");
    if (c->op == GA_DNN_ACT_FWD)
      DNN(dnn.ActivationForward(h, dd->act, alpha, dd->t[GA_DT_X], P(GA_DT_X), beta, dd->t[GA_DT_Y], P(GA_DT_Y)),
          "cudnnActivationForward");
    else
      DNN(dnn.ActivationBackward(h, dd->act, alpha, dd->t[GA_DT_Y], P(GA_DT_Y), dd->t[GA_DT_DY], P(GA_DT_DY),
                                 dd->t[GA_DT_X], P(GA_DT_X), beta, dd->t[GA_DT_DX], P(GA_DT_DX)),
          "cudnnActivationBackward");
    break;
  }
  case GA_DNN_SOFTMAX_FWD:
  case GA_DNN_SOFTMAX_BWD: {
    int algo = c->mode == GA_SOFTMAX_LOG ? GDNN_SOFTMAX_LOG : GDNN_SOFTMAX_ACCURATE;
    int mode = c->mode2 == GA_SOFTMAX_INSTANCE ? GDNN_SOFTMAX_MODE_INSTANCE : GDNN_SOFTMAX_MODE_CHANNEL;
    if (c->op == GA_DNN_SOFTMAX_FWD)
      DNN(dnn.SoftmaxForward(h, algo, mode, alpha, dd->t[GA_DT_X], P(GA_DT_X), beta, dd->t[GA_DT_Y], P(GA_DT_Y)),
          "cudnnSoftmaxForward");
    else
      DNN(dnn.SoftmaxBackward(h, algo, mode, alpha, dd->t[GA_DT_Y], P(GA_DT_Y), dd->t[GA_DT_DY], P(GA_DT_DY), beta,
                              dd->t[GA_DT_DX], P(GA_DT_DX)),
          "cudnnSoftmaxBackward");
    break;
  }
  case GA_DNN_BN_TRAIN:
  case GA_DNN_BN_INFER:
  case GA_DNN_BN_BWD: {
    int mode = c->mode == GA_BN_SPATIAL ? GDNN_BATCHNORM_SPATIAL : GDNN_BATCHNORM_PER_ACTIVATION;
    gdnnTensorDesc_t pd = dd->t[GA_DT_SCALE];
    if (mode == GDNN_BATCHNORM_PER_ACTIVATION && c->nhwc) {
      /* cuDNN answers BAD_PARAM to channels-last per-activation parameters
       * (seen with cuDNN 9): the core runs it on channels-first copies */
      if (c->unsupported) *c->unsupported = 1;
      rc = ga_err(GA_ECUDA, "cuDNN has no channels-last per-activation batch normalization");
      goto done;
    }
    if (c->op == GA_DNN_BN_TRAIN)
      DNN(dnn.BatchNormalizationForwardTraining(h, mode, alpha, beta, dd->t[GA_DT_X], P(GA_DT_X), dd->t[GA_DT_Y],
                                                P(GA_DT_Y), pd, P(GA_DT_SCALE), P(GA_DT_BIAS), c->factor,
                                                P(GA_DT_MEAN), P(GA_DT_VAR), c->epsilon, P(GA_DT_SMEAN),
                                                P(GA_DT_SINV)),
          "cudnnBatchNormalizationForwardTraining");
    else if (c->op == GA_DNN_BN_INFER)
      DNN(dnn.BatchNormalizationForwardInference(h, mode, alpha, beta, dd->t[GA_DT_X], P(GA_DT_X), dd->t[GA_DT_Y],
                                                 P(GA_DT_Y), pd, P(GA_DT_SCALE), P(GA_DT_BIAS), P(GA_DT_MEAN),
                                                 P(GA_DT_VAR), c->epsilon),
          "cudnnBatchNormalizationForwardInference");
    else
      DNN(dnn.BatchNormalizationBackward(h, mode, alpha, beta, one, zero, dd->t[GA_DT_X], P(GA_DT_X), dd->t[GA_DT_DY],
                                         P(GA_DT_DY), dd->t[GA_DT_DX], P(GA_DT_DX), pd, P(GA_DT_SCALE),
                                         P(GA_DT_DSCALE), P(GA_DT_DBIAS), c->epsilon, P(GA_DT_SMEAN),
                                         P(GA_DT_SINV)),
          "cudnnBatchNormalizationBackward");
    break;
  }
  case GA_DNN_ADD:
    DNN(dnn.AddTensor(h, alpha, dd->t[GA_DT_B], P(GA_DT_B), beta, dd->t[GA_DT_Y], P(GA_DT_Y)), "cudnnAddTensor");
    break;
  default:
    rc = ga_err(GA_EINTERNAL, "unknown dnn op %d", c->op);
  }
#undef P
done:
  ga_scratch_put(&ws);   /* stream-ordered: reused only by later work of this stream */
  holding = 0;
  pthread_mutex_unlock(&locks[dev]);
  return rc;
}
