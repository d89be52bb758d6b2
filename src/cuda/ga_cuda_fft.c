/* The CUDA backend's FFT slot on cuFFT.  A call (ga_fft_call: batched 1-D
 * transforms along one axis over any positive strides) becomes one cuFFT
 * plan with the advanced data layout (istride/idist, ostride/odist: an
 * axis-0 transform of a C-contiguous array is planned on its strides, no
 * copy), executed once per index of the batch axes the plan does not
 * cover.  Plans are cached per device, LRU, keyed by (kind, precision, n,
 * strides, distances, batch, stream); cuFFT's automatic work-area
 * allocation is off: a plan holds no work area between calls.  Each
 * execution takes its work area as backend scratch (base/ga_scratch.h)
 * from the allocator in use at that call (ga.cuda.set_allocator, a
 * MemoryPool, a Lua function, the C API's allocator; else the device's
 * pool), sets it with cufftSetWorkArea and gives it back once the work is
 * queued (stream-ordered), as PyTorch's cuFFT plan cache does.  So a
 * cached plan never holds memory of an allocator that is no longer in
 * use, and the pool statistics count a work area only while a transform
 * runs.  The scratch is taken outside the cache's lock (an allocator
 * function may run Lua, even another transform); the plan is pinned
 * (users > 0) meanwhile so that no trim or clear destroys it.
 * cuFFT starts on the first transform, never at require time.  Length 1
 * needs no plan: strided copies.  Scaling (norm) is left to the core's
 * elementwise pipeline (*scaled = 0).  Small power-of-two C2C transforms
 * skip cuFFT: cuda/ga_cuda_fft_small.c. */
#include "cuda/ga_cuda.h"
#include "cuda/ga_cuda_internal.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include "base/ga_scratch.h"
#include <cufft.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *cufft_msg(cufftResult r) {
  switch (r) {
  case CUFFT_SUCCESS: return "success";
  case CUFFT_INVALID_PLAN: return "invalid plan handle (CUFFT_INVALID_PLAN)";
  case CUFFT_ALLOC_FAILED: return "failed to allocate GPU or CPU memory (CUFFT_ALLOC_FAILED)";
  case CUFFT_INVALID_TYPE: return "invalid type (CUFFT_INVALID_TYPE)";
  case CUFFT_INVALID_VALUE: return "invalid pointer or parameter (CUFFT_INVALID_VALUE)";
  case CUFFT_INTERNAL_ERROR: return "driver or internal cuFFT library error (CUFFT_INTERNAL_ERROR)";
  case CUFFT_EXEC_FAILED: return "failed to execute an FFT on the GPU (CUFFT_EXEC_FAILED)";
  case CUFFT_SETUP_FAILED: return "the cuFFT library failed to initialize (CUFFT_SETUP_FAILED)";
  case CUFFT_INVALID_SIZE: return "invalid transform size (CUFFT_INVALID_SIZE)";
  case CUFFT_UNALIGNED_DATA: return "unaligned data (CUFFT_UNALIGNED_DATA)";
  case CUFFT_INVALID_DEVICE: return "execution of a plan on another GPU (CUFFT_INVALID_DEVICE)";
  case CUFFT_NO_WORKSPACE: return "no workspace has been provided (CUFFT_NO_WORKSPACE)";
  case CUFFT_NOT_IMPLEMENTED: return "functionality not implemented (CUFFT_NOT_IMPLEMENTED)";
  case CUFFT_NOT_SUPPORTED: return "operation not supported for the given parameters (CUFFT_NOT_SUPPORTED)";
  default: return "unknown cuFFT error";
  }
}

static int fft_error(cufftResult r, const char *what) {
  if (r == CUFFT_ALLOC_FAILED) return ga_err(GA_ENOMEM, "cuFFT error in %s: %s", what, cufft_msg(r));
  return ga_err(GA_ECUDA, "cuFFT error in %s: %s", what, cufft_msg(r));
}

/* ---- the plan cache ---- */

typedef struct plan_key {
  int kind, dbl, rank;
  long long n[3];                 /* lengths, outermost first (rank of them) */
  long long inembed[3], onembed[3];   /* storage lengths (cuFFT's advanced layout) */
  long long istride, idist, ostride, odist, batch;
  void *stream;
} plan_key;

typedef struct plan_entry {
  plan_key key;
  cufftHandle plan;
  size_t work_size;       /* the work area each execution takes (0: none) */
  int users;              /* calls between lookup and exec: never destroyed meanwhile */
  struct plan_entry *prev, *next;   /* most recently used first */
} plan_entry;

typedef struct dev_cache {
  plan_entry *head;
  int64_t count, bytes, max_size, max_memsize;
  int64_t hits, misses, created;
} dev_cache;

static dev_cache caches[GA_MAX_DEVICES];
static pthread_mutex_t locks[GA_MAX_DEVICES];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
  for (int i = 0; i < GA_MAX_DEVICES; i++) {
    pthread_mutex_init(&locks[i], NULL);
    caches[i].max_size = 16;
    caches[i].max_memsize = -1;
  }
}

/* under the device's lock, with the device current.  The plan's work may
 * still be queued on its stream (which the user may have destroyed since):
 * wait for the device first, so that neither cuFFT's own buffers nor the
 * work area are freed under a running kernel.  Eviction is rare; the
 * wait is the price. */
static void entry_destroy(int dev, plan_entry *e) {
  cudaDeviceSynchronize();
  (void)dev;
  cufftDestroy(e->plan);
  free(e);
}

static void unlink_entry(dev_cache *dc, plan_entry *e) {
  if (e->prev) e->prev->next = e->next;
  else dc->head = e->next;
  if (e->next) e->next->prev = e->prev;
  e->prev = e->next = NULL;
  dc->count--;
  dc->bytes -= (int64_t)e->work_size;
}

static void push_front(dev_cache *dc, plan_entry *e) {
  e->prev = NULL;
  e->next = dc->head;
  if (dc->head) dc->head->prev = e;
  dc->head = e;
  dc->count++;
  dc->bytes += (int64_t)e->work_size;
}

/* drop least recently used plans (but never `keep` nor one in use) over
 * the limits */
static void trim(int dev, plan_entry *keep) {
  dev_cache *dc = &caches[dev];
  plan_entry *last = dc->head;
  while (last && last->next) last = last->next;
  while (last && ((dc->max_size >= 0 && dc->count > dc->max_size) ||
                  (dc->max_memsize >= 0 && dc->bytes > dc->max_memsize))) {
    plan_entry *p = last->prev;
    if (last != keep && last->users == 0) {
      unlink_entry(dc, last);
      entry_destroy(dev, last);
    }
    last = p;
  }
}

/* every plan not in use (those in use go when their call ends, if the
 * limits say so) */
static void clear_all(int dev) {
  dev_cache *dc = &caches[dev];
  plan_entry *e = dc->head;
  while (e) {
    plan_entry *nx = e->next;
    if (e->users == 0) {
      unlink_entry(dc, e);
      entry_destroy(dev, e);
    }
    e = nx;
  }
}

static cufftType type_of(int kind, int dbl) {
  if (kind == GA_FFT_C2C) return dbl ? CUFFT_Z2Z : CUFFT_C2C;
  if (kind == GA_FFT_R2C) return dbl ? CUFFT_D2Z : CUFFT_R2C;
  return dbl ? CUFFT_Z2D : CUFFT_C2R;
}

/* make a plan for key k (under the lock, device current); *out is owned
 * by the caller until it goes into the cache */
static int plan_new(int dev, const plan_key *k, plan_entry **out) {
  plan_entry *e = calloc(1, sizeof *e);
  if (!e) return ga_err(GA_ENOMEM, "out of host memory for a cuFFT plan");
  memcpy(&e->key, k, sizeof *k);   /* padding included: keys compare with memcmp */
  cufftResult r = cufftCreate(&e->plan);
  if (r != CUFFT_SUCCESS) {
    free(e);
    return fft_error(r, "cufftCreate");
  }
  const char *what = "cufftSetAutoAllocation";
  if ((r = cufftSetAutoAllocation(e->plan, 0)) != CUFFT_SUCCESS) goto fail;
  long long n[3], inembed[3], onembed[3], ivol = 1, ovol = 1;
  int basic = k->istride == 1 && k->ostride == 1;
  for (int i = 0; i < k->rank; i++) {
    n[i] = k->n[i], inembed[i] = k->inembed[i], onembed[i] = k->onembed[i];
    ivol *= inembed[i], ovol *= onembed[i];
    /* real<->complex (rank 1): the stored lengths are n/2+1 on one side */
    long long in_len = k->kind == GA_FFT_C2R && i == k->rank - 1 ? n[i] / 2 + 1 : n[i];
    long long out_len = k->kind == GA_FFT_R2C && i == k->rank - 1 ? n[i] / 2 + 1 : n[i];
    basic = basic && inembed[i] == in_len && onembed[i] == out_len;
  }
  /* a single transform has no batch distance (0 in the key), but cuFFT
   * refuses a zero one: any distance past the signal will do */
  long long idist = k->batch > 1 ? k->idist : ivol * k->istride;
  long long odist = k->batch > 1 ? k->odist : ovol * k->ostride;
  /* contiguous signals back to back: cuFFT's basic layout (no embeds) */
  basic = basic && idist == ivol && odist == ovol;
  size_t ws = 0;
  what = "cufftMakePlanMany64";
  r = cufftMakePlanMany64(e->plan, k->rank, n, basic ? NULL : inembed, k->istride, idist, basic ? NULL : onembed,
                          k->ostride, odist, type_of(k->kind, k->dbl), k->batch, &ws);
  if (r != CUFFT_SUCCESS) goto fail;
  /* the stream is part of the key: set once */
  if ((r = cufftSetStream(e->plan, (cudaStream_t)k->stream)) != CUFFT_SUCCESS) {
    what = "cufftSetStream";
    goto fail;
  }
  e->work_size = ws;   /* taken per execution (ga_cuda_fft) */
  (void)dev;
  *out = e;
  return GA_OK;
fail:
  cufftDestroy(e->plan);
  free(e);
  return fft_error(r, what);
}

int ga_cuda_fft_cache(int dev, int op, int64_t value, ga_fft_cache_info *info) {
  if (dev < 0 || dev >= GA_MAX_DEVICES) return ga_err(GA_EDEVICE, "no CUDA device %d", dev);
  pthread_once(&once, init);
  int rc = GA_OK;
  pthread_mutex_lock(&locks[dev]);
  dev_cache *dc = &caches[dev];
  if (op != GA_FFTC_GET && dc->head && (rc = ga_cuda_set_device(dev))) {
    pthread_mutex_unlock(&locks[dev]);
    return rc;
  }
  if (op == GA_FFTC_SET_SIZE) dc->max_size = value;
  else if (op == GA_FFTC_SET_MEMSIZE) dc->max_memsize = value;
  if (op == GA_FFTC_CLEAR) clear_all(dev);
  else if (op != GA_FFTC_GET) trim(dev, NULL);
  if (info) {
    info->size = dc->count, info->max_size = dc->max_size;
    info->memsize = dc->bytes, info->max_memsize = dc->max_memsize;
    info->hits = dc->hits, info->misses = dc->misses, info->created = dc->created;
  }
  pthread_mutex_unlock(&locks[dev]);
  return rc;
}

/* ---- length 1: no transform, strided copies ---- */

static int copy_rows(const ga_fft_call *c, int pd, const char *in, char *out) {
  int isz = GA_ITEMSIZE(c->dtype_in), osz = GA_ITEMSIZE(c->dtype_out);
  size_t width = (size_t)(isz < osz ? isz : osz);   /* C2R: the real part; R2C: into the real part */
  size_t h = (size_t)c->bshape[pd];
  /* pitches must be at least the width even for one row */
  size_t ip = h > 1 ? (size_t)c->bistr[pd] : (size_t)isz, op = h > 1 ? (size_t)c->bostr[pd] : (size_t)osz;
  if (c->kind == GA_FFT_R2C) {
    /* zero the imaginary parts first: the whole output, row by row */
    GA_CU(cudaMemset2DAsync(out, op, 0, (size_t)osz, h, (cudaStream_t)c->stream),
          "cudaMemset2DAsync");
  }
  GA_CU(cudaMemcpy2DAsync(out, op, in, ip, width, h, cudaMemcpyDeviceToDevice,
                          (cudaStream_t)c->stream),
        "cudaMemcpy2DAsync");
  return GA_OK;
}

/* ---- the slot ---- */

int ga_cuda_fft(const ga_fft_call *c, int *scaled) {
  *scaled = 0;
  int dev = c->device, rc;
  if (dev < 0 || dev >= GA_MAX_DEVICES) return ga_err(GA_EDEVICE, "no CUDA device %d", dev);
  if ((rc = ga_cuda_set_device(dev))) return rc;
  int cin = c->kind != GA_FFT_R2C;
  int dbl = (cin ? c->dtype_in : c->dtype_out) == GA_COMPLEX128;
  int64_t isz = GA_ITEMSIZE(c->dtype_in), osz = GA_ITEMSIZE(c->dtype_out);

  /* the batch axis the plan covers: the longest (rows of a 2-d copy for n = 1) */
  int pd = 0;
  for (int d = 1; d < c->bndim; d++)
    if (c->bshape[d] > c->bshape[pd]) pd = d;
  int64_t bistr = c->bshape[pd] > 1 ? c->bistr[pd] : 0, bostr = c->bshape[pd] > 1 ? c->bostr[pd] : 0;
  if (c->n > 1) {
    if (c->istride % isz || c->ostride % osz || bistr % isz || bostr % osz || c->istride < 0 || bistr < 0 ||
        c->ostride <= 0 || bostr < 0)
      return ga_err(GA_EINTERNAL, "fft: strides cuFFT cannot take (the core copies such inputs)");
    int done = 0;   /* a small transform: our own kernel, through the launch queue */
    if ((rc = ga_cuda_fft_small(c, pd, &done))) return rc;
    if (done) {
      *scaled = 1;
      return GA_OK;
    }
  }
  if ((rc = ga_cuda_flush(dev))) return rc;   /* cuFFT work goes after queued kernels */

  plan_entry *e = NULL;
  ga_scratch work = {0};
  if (c->n > 1) {
    plan_key k;
    memset(&k, 0, sizeof k);
    k.kind = c->kind, k.dbl = dbl;
    k.istride = c->istride / isz, k.ostride = c->ostride / osz;
    int rank = c->rank > 1 ? c->rank : 1;
    k.rank = rank;
    k.n[rank - 1] = c->n;
    k.inembed[rank - 1] = c->in_len;
    k.onembed[rank - 1] = c->out_len;
    for (int i = rank - 2; i >= 0; i--) {   /* outer axes: storage length = stride ratio */
      int64_t ii = i + 2 < rank ? c->outer_istr[i + 1] : c->istride;
      int64_t oi = i + 2 < rank ? c->outer_ostr[i + 1] : c->ostride;
      k.n[i] = c->outer_n[i];
      k.inembed[i + 1] = c->outer_istr[i] / ii;
      k.onembed[i + 1] = c->outer_ostr[i] / oi;
      k.inembed[i] = k.onembed[i] = c->outer_n[i];
    }
    k.idist = bistr / isz, k.odist = bostr / osz;
    k.batch = c->bshape[pd];
    k.stream = c->stream;
    pthread_once(&once, init);
    pthread_mutex_lock(&locks[dev]);
    dev_cache *dc = &caches[dev];
    for (plan_entry *p = dc->head; p; p = p->next)
      if (!memcmp(&p->key, &k, sizeof k)) {
        e = p;
        break;
      }
    if (e) {
      dc->hits++;
      unlink_entry(dc, e);
      push_front(dc, e);
    } else {
      dc->misses++;
      if ((rc = plan_new(dev, &k, &e))) {
        pthread_mutex_unlock(&locks[dev]);
        return rc;
      }
      dc->created++;
      push_front(dc, e);
    }
    e->users++;   /* pinned until the end of this call */
    size_t ws = e->work_size;
    pthread_mutex_unlock(&locks[dev]);
    if (ws > 0) {
      /* the work area: from the allocator in use (outside the lock) */
      if ((rc = ga_scratch_get(ga_cuda_pool(dev), ws, c->stream, &work)) == GA_ENOMEM) {
        /* give back the cached plans and the pool's cached blocks, once */
        pthread_mutex_lock(&locks[dev]);
        clear_all(dev);
        pthread_mutex_unlock(&locks[dev]);
        ga_pool *pool = ga_cuda_pool(dev);
        if (pool) ga_pool_free_all_blocks(pool);
        rc = ga_scratch_get(ga_cuda_pool(dev), ws, c->stream, &work);
      }
    }
    pthread_mutex_lock(&locks[dev]);
    if (!rc && ws > 0) {
      cufftResult r = cufftSetWorkArea(e->plan, work.ptr);
      if (r != CUFFT_SUCCESS) rc = fft_error(r, "cufftSetWorkArea");
    }
  }

  /* every index of the other batch axes */
  int64_t idx[GA_MAXDIM] = {0}, outer = c->batch / (c->bshape[pd] ? c->bshape[pd] : 1);
  const char *in = c->in;
  char *out = c->out;
  for (int64_t b = 0; b < outer && !rc; b++) {
    if (!e) {
      rc = copy_rows(c, pd, in, out);
    } else {
      cufftResult r;
      void *ip = (void *)in, *op = out;
      switch (c->kind) {
      case GA_FFT_C2C:
        r = dbl ? cufftExecZ2Z(e->plan, ip, op, c->inverse ? CUFFT_INVERSE : CUFFT_FORWARD)
                : cufftExecC2C(e->plan, ip, op, c->inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
        break;
      case GA_FFT_R2C:
        r = dbl ? cufftExecD2Z(e->plan, ip, op) : cufftExecR2C(e->plan, ip, op);
        break;
      default:
        r = dbl ? cufftExecZ2D(e->plan, ip, op) : cufftExecC2R(e->plan, ip, op);
        break;
      }
      if (r != CUFFT_SUCCESS) rc = fft_error(r, "cufftExec");
    }
    for (int d = c->bndim - 1; d >= 0; d--) {   /* next index, skipping the planned axis */
      if (d == pd) continue;
      in += c->bistr[d];
      out += c->bostr[d];
      if (++idx[d] < c->bshape[d]) break;
      in -= c->bistr[d] * c->bshape[d];
      out -= c->bostr[d] * c->bshape[d];
      idx[d] = 0;
    }
  }
  if (e) {
    e->users--;
    trim(dev, e);
    dev_cache *dc = &caches[dev];
    /* caching off, or a plan over the byte limit by itself: it goes now
     * (unless another call is using it: that call's end decides) */
    if (e->users == 0 &&
        (dc->max_size == 0 || (dc->max_memsize >= 0 && (int64_t)e->work_size > dc->max_memsize))) {
      unlink_entry(&caches[dev], e);
      entry_destroy(dev, e);
    }
    pthread_mutex_unlock(&locks[dev]);
  }
  ga_scratch_put(&work);   /* after the work is queued: the allocator orders it by stream */
  return rc;
}
