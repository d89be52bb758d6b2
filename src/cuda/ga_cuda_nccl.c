/* Collectives over NCCL (the dist_* slots of ga_cuda_backend; base/ga_dist.h).
 * NCCL is opened with dlopen on first use: GPUARRAY_NCCL (the library's
 * path, or a directory holding libnccl.so.2 or lib/libnccl.so.2, as pip's
 * nvidia-nccl packages lay it out) when set, else libnccl.so.2 on the
 * loader's search path, else where CUDA or pip's nvidia-nccl put it
 * (/usr/local/cuda, python3's dist-/site-packages).  Without it every slot here fails with a message
 * that says so, and nothing else in gpuarray needs it.
 *
 * Ordering: each call first submits the queued kernels of every device it
 * touches (ga_cuda_flush), then issues the NCCL operations on the given
 * streams (the devices' current streams) inside one ncclGroupStart/End:
 * asynchronous, as every other operation.  A failed group aborts the
 * communicators (ncclCommAbort) and marks the comm broken. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_nccl_api.h"
#include "base/ga_dist.h"
#include <dlfcn.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct {
  ga_ncclGetVersion_fn GetVersion;
  ga_ncclGetUniqueId_fn GetUniqueId;
  ga_ncclCommInitRank_fn CommInitRank;
  ga_ncclCommInitAll_fn CommInitAll;
  ga_ncclCommDestroy_fn CommDestroy;
  ga_ncclCommAbort_fn CommAbort;
  ga_ncclGetErrorString_fn GetErrorString;
  ga_ncclGetLastError_fn GetLastError;
  ga_ncclAllReduce_fn AllReduce;
  ga_ncclBroadcast_fn Broadcast;
  ga_ncclReduce_fn Reduce;
  ga_ncclAllGather_fn AllGather;
  ga_ncclReduceScatter_fn ReduceScatter;
  ga_ncclSend_fn Send;
  ga_ncclRecv_fn Recv;
  ga_ncclGroup_fn GroupStart, GroupEnd;
  int version;
} nc;
static int loaded;
static char load_msg[768];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define SYM(field, name)                                             \
  do {                                                               \
    *(void **)&nc.field = dlsym(h, name);                            \
    if (!nc.field && required) { missing = name; goto bad; }         \
  } while (0)

static int try_open(const char *path) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(load_msg, sizeof load_msg, "%s", dlerror());
    return 0;
  }
  const char *missing = NULL;
  int required = 1;
  SYM(GetVersion, "ncclGetVersion");
  SYM(GetUniqueId, "ncclGetUniqueId");
  SYM(CommInitRank, "ncclCommInitRank");
  SYM(CommInitAll, "ncclCommInitAll");
  SYM(CommDestroy, "ncclCommDestroy");
  SYM(CommAbort, "ncclCommAbort");
  SYM(GetErrorString, "ncclGetErrorString");
  SYM(AllReduce, "ncclAllReduce");
  SYM(Broadcast, "ncclBroadcast");
  SYM(Reduce, "ncclReduce");
  SYM(AllGather, "ncclAllGather");
  SYM(ReduceScatter, "ncclReduceScatter");
  SYM(Send, "ncclSend");
  SYM(Recv, "ncclRecv");
  SYM(GroupStart, "ncclGroupStart");
  SYM(GroupEnd, "ncclGroupEnd");
  required = 0;
  SYM(GetLastError, "ncclGetLastError");
  if (nc.GetVersion(&nc.version) != ga_ncclSuccess) nc.version = 0;
  if (nc.version < 20700) {
    snprintf(load_msg, sizeof load_msg, "%s is NCCL %d; gpuarray needs NCCL 2.7 or newer (send/recv)", path,
             nc.version);
    goto close;
  }
  return 1;
bad:
  snprintf(load_msg, sizeof load_msg, "%s lacks %s (not NCCL 2.7 or newer?)", path, missing);
close:
  dlclose(h);
  memset(&nc, 0, sizeof nc);
  return 0;
}

static void load(void) {
  const char *env = getenv("GPUARRAY_NCCL");
  if (env && *env) {
    struct stat st;
    char path[4096];
    if (stat(env, &st) == 0 && S_ISDIR(st.st_mode)) {
      snprintf(path, sizeof path, "%s/lib/libnccl.so.2", env);
      if (stat(path, &st) != 0) snprintf(path, sizeof path, "%s/libnccl.so.2", env);
    } else snprintf(path, sizeof path, "%s", env);
    loaded = try_open(path);
    if (!loaded) {
      char why[768];
      snprintf(why, sizeof why, "%s", load_msg);
      snprintf(load_msg, sizeof load_msg, "cannot load NCCL from GPUARRAY_NCCL=%.200s: %.400s", env, why);
    }
    return;
  }
  loaded = try_open("libnccl.so.2") || try_open("libnccl.so");
  if (!loaded) {
    char why[768];
    snprintf(why, sizeof why, "%s", load_msg);
    /* where CUDA's and pip's packages put it (nvidia-nccl-cu12/cu13) */
    static const char *const where[] = {
      "/usr/local/cuda/lib64/libnccl.so.2", "/usr/local/cuda/lib/libnccl.so.2",
      "/usr/local/lib/python3*/dist-packages/nvidia/nccl/lib/libnccl.so.2",
      "/usr/local/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
      "/usr/lib/python3/dist-packages/nvidia/nccl/lib/libnccl.so.2",
      "/usr/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
      "/opt/conda/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2"};
    for (size_t i = 0; i < sizeof where / sizeof where[0] && !loaded; i++) {
      glob_t g;
      if (glob(where[i], 0, NULL, &g) == 0) {
        for (size_t j = 0; j < g.gl_pathc && !loaded; j++) loaded = try_open(g.gl_pathv[j]);
        globfree(&g);
      }
    }
    if (loaded) return;
    snprintf(load_msg, sizeof load_msg,
             "NCCL is not available (cannot load libnccl.so.2: %.300s); install NCCL, or set GPUARRAY_NCCL to "
             "libnccl.so.2's path or its directory (pip's nvidia-nccl: python3 -c \"import nvidia.nccl, os; "
             "print(os.path.dirname(nvidia.nccl.__file__))\")", why);
  }
}

static int need_nccl(void) {
  pthread_once(&once, load);
  return loaded ? GA_OK : ga_err(GA_EDEVICE, "%s", load_msg);
}

static int nccl_fail(ga_ncclResult_t r, const char *what, ga_ncclComm_t comm) {
  const char *last = nc.GetLastError ? nc.GetLastError(comm) : NULL;
  return ga_err(GA_ECUDA, "NCCL error in %s: %s%s%s%s", what, nc.GetErrorString ? nc.GetErrorString(r) : "?",
                last && *last ? " (" : "", last && *last ? last : "", last && *last ? ")" : "");
}

int ga_cuda_dist_version(int *version) {
  int rc = need_nccl();
  if (rc) return rc;
  *version = nc.version;
  return GA_OK;
}

int ga_cuda_dist_unique_id(unsigned char id[GA_DIST_ID_BYTES]) {
  int rc = need_nccl();
  if (rc) return rc;
  ga_ncclUniqueId u;
  ga_ncclResult_t r = nc.GetUniqueId(&u);
  if (r != ga_ncclSuccess) return nccl_fail(r, "ncclGetUniqueId", NULL);
  memcpy(id, u.internal, GA_DIST_ID_BYTES);
  return GA_OK;
}

int ga_cuda_dist_init(ga_comm *c, const unsigned char *id) {
  int rc = need_nccl();
  if (rc) return rc;
  for (int i = 0; i < c->nlocal; i++)
    if ((rc = ga_cuda_check_device(c->dev[i]))) return rc;
  ga_ncclComm_t h[GA_DIST_MAX_LOCAL];
  ga_ncclResult_t r;
  if (!id) {
    r = nc.CommInitAll(h, c->nlocal, c->dev);
    ga_cuda_forget_device();   /* NCCL switched devices */
    if (r != ga_ncclSuccess) return nccl_fail(r, "ncclCommInitAll", NULL);
  } else {
    if ((rc = ga_cuda_set_device(c->dev[0]))) return rc;
    ga_ncclUniqueId u;
    memcpy(u.internal, id, GA_DIST_ID_BYTES);
    r = nc.CommInitRank(&h[0], c->world, u, c->rank[0]);
    ga_cuda_forget_device();
    if (r != ga_ncclSuccess) return nccl_fail(r, "ncclCommInitRank", NULL);
  }
  for (int i = 0; i < c->nlocal; i++) c->h[i] = h[i];
  c->open = 1;
  return GA_OK;
}

void ga_cuda_dist_destroy(ga_comm *c, int abort) {
  if (!c->open) return;
  c->open = 0;
  if (!loaded) return;
  /* NCCL's destroy waits for the comm's pending work: submit ours first */
  for (int i = 0; i < c->nlocal; i++) ga_cuda_flush(c->dev[i]);
  for (int i = 0; i < c->nlocal; i++) {
    if (!c->h[i]) continue;
    if (abort || c->broken) nc.CommAbort((ga_ncclComm_t)c->h[i]);
    else nc.CommDestroy((ga_ncclComm_t)c->h[i]);
    c->h[i] = NULL;
  }
  ga_cuda_forget_device();
}

static int nccl_dtype(int dt, ga_ncclDataType_t *out) {
  switch (dt) {
  case GA_INT8: *out = ga_ncclInt8; return 1;
  case GA_UINT8: *out = ga_ncclUint8; return 1;
  case GA_INT32: *out = ga_ncclInt32; return 1;
  case GA_UINT32: *out = ga_ncclUint32; return 1;
  case GA_INT64: *out = ga_ncclInt64; return 1;
  case GA_UINT64: *out = ga_ncclUint64; return 1;
  case GA_FLOAT16: *out = ga_ncclFloat16; return 1;
  case GA_FLOAT32: *out = ga_ncclFloat32; return 1;
  case GA_FLOAT64: *out = ga_ncclFloat64; return 1;
  default: return 0;
  }
}

/* Abort a comm whose group failed: its ranks may be stuck mid-collective. */
static int broken(ga_comm *c) {
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", ga_errmsg());
  int code = ga_errcode();
  c->broken = 1;
  ga_cuda_dist_destroy(c, 1);
  return ga_err(code, "%s; the communicator was aborted (make a new one)", msg);
}

int ga_cuda_dist_group(ga_comm *c, int start) {
  int rc = need_nccl();
  if (rc) return rc;
  ga_ncclResult_t r = start ? nc.GroupStart() : nc.GroupEnd();
  ga_cuda_forget_device();
  if (r != ga_ncclSuccess) {
    nccl_fail(r, start ? "ncclGroupStart" : "ncclGroupEnd", c->open ? (ga_ncclComm_t)c->h[0] : NULL);
    return start ? ga_errcode() : broken(c);
  }
  return GA_OK;
}

/* one part of a call: the NCCL operations of local rank i */
static ga_ncclResult_t issue(const ga_comm *c, const ga_dist_call *k, int i, ga_ncclDataType_t dt,
                             const char **what) {
  int part = k->kind == GA_DIST_SEND || k->kind == GA_DIST_RECV ? 0 : i;
  ga_ncclComm_t comm = (ga_ncclComm_t)c->h[i];
  cudaStream_t s = (cudaStream_t)k->stream[part];
  const void *in = k->send[part];
  void *out = k->recv[part];
  ga_ncclRedOp_t op = (ga_ncclRedOp_t)k->op;
  switch (k->kind) {
  case GA_DIST_ALL_REDUCE: *what = "ncclAllReduce"; return nc.AllReduce(in, out, k->count, dt, op, comm, s);
  case GA_DIST_BROADCAST: *what = "ncclBroadcast"; return nc.Broadcast(in, out, k->count, dt, k->root, comm, s);
  case GA_DIST_REDUCE: *what = "ncclReduce"; return nc.Reduce(in, out, k->count, dt, op, k->root, comm, s);
  case GA_DIST_ALL_GATHER: *what = "ncclAllGather"; return nc.AllGather(in, out, k->count, dt, comm, s);
  case GA_DIST_REDUCE_SCATTER:
    *what = "ncclReduceScatter";
    return nc.ReduceScatter(in, out, k->count, dt, op, comm, s);
  case GA_DIST_ALL_TO_ALL: {
    /* grouped send/recv (ncclAlltoAll is NCCL 2.28's only) */
    size_t block = k->count * (size_t)GA_ITEMSIZE(k->dtype);
    for (int p = 0; p < c->world; p++) {
      ga_ncclResult_t r = nc.Send((const char *)in + (size_t)p * block, k->count, dt, p, comm, s);
      if (r != ga_ncclSuccess) { *what = "ncclSend"; return r; }
      r = nc.Recv((char *)out + (size_t)p * block, k->count, dt, p, comm, s);
      if (r != ga_ncclSuccess) { *what = "ncclRecv"; return r; }
    }
    return ga_ncclSuccess;
  }
  case GA_DIST_SEND: *what = "ncclSend"; return nc.Send(in, k->count, dt, k->peer, comm, s);
  case GA_DIST_RECV: *what = "ncclRecv"; return nc.Recv(out, k->count, dt, k->peer, comm, s);
  default: *what = "NCCL"; return ga_ncclInvalidArgument;
  }
}

int ga_cuda_dist_run(ga_comm *c, const ga_dist_call *k) {
  int rc = need_nccl();
  if (rc) return rc;
  if (!c->open) return ga_err(GA_EINVAL, "the communicator is closed");
  ga_ncclDataType_t dt;
  if (!nccl_dtype(k->dtype, &dt)) return ga_err(GA_ETYPE, "NCCL has no %s type", ga_dtypes[k->dtype].name);
  if (k->op == GA_DIST_AVG && nc.version < 21000)
    return ga_err(GA_EINVAL, "op \"avg\" needs NCCL 2.10 or newer (this is %d)", nc.version);
  int first = 0, last = c->nlocal;
  if (k->kind == GA_DIST_SEND || k->kind == GA_DIST_RECV) first = k->local, last = k->local + 1;
  /* the kernels queued before this call come first on each stream */
  for (int i = first; i < last; i++)
    if ((rc = ga_cuda_flush(c->dev[i]))) return rc;
  ga_ncclResult_t r = nc.GroupStart();
  if (r != ga_ncclSuccess) return nccl_fail(r, "ncclGroupStart", (ga_ncclComm_t)c->h[first]);
  const char *what = "NCCL";
  ga_ncclResult_t bad = ga_ncclSuccess;
  int bad_i = first;
  for (int i = first; i < last && bad == ga_ncclSuccess; i++) {
    bad = issue(c, k, i, dt, &what);
    bad_i = i;
  }
  r = nc.GroupEnd();
  ga_cuda_forget_device();
  if (bad != ga_ncclSuccess) {
    nccl_fail(bad, what, (ga_ncclComm_t)c->h[bad_i]);
    return broken(c);
  }
  if (r != ga_ncclSuccess) {
    nccl_fail(r, "ncclGroupEnd", (ga_ncclComm_t)c->h[first]);
    return broken(c);
  }
  return GA_OK;
}
