/* Copies between two GPUs (the peer_copy slot of ga_cuda_backend).
 *
 * Ordering, without synchronising the host: an event recorded on the
 * source's stream (after its queued work) is waited for by the
 * destination's stream, the copy is queued on the destination's stream,
 * and an event after it is waited for by the source's stream, so that
 * later work on the source device (a write to the source, or the reuse of
 * its memory by the pool) cannot overtake the copy.
 *
 * With peer access (cudaDeviceCanAccessPeer), the copy is one
 * cudaMemcpyPeerAsync; peer access is enabled in both directions on first
 * use and re-enabled before every copy (cheap; another library may have
 * turned it off; cudaErrorPeerAccessAlreadyEnabled is the normal answer).
 * Without it (or with GPUARRAY_PEER_ACCESS=0, which the specs use to test
 * this path on machines that have it), the bytes go through two pinned host
 * buffers in chunks: the device-to-host copy of chunk k+1 overlaps the
 * host-to-device copy of chunk k, each buffer reused only after the copy
 * that read it (events, again). */
#include "cuda/ga_cuda_internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define STAGE_CHUNK ((size_t)8 << 20)   /* bytes per staging buffer */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static cudaEvent_t ev_order[GA_MAX_DEVICES];       /* "queued work done" markers, one per device */
static cudaEvent_t ev_stage[GA_MAX_DEVICES][2];    /* staging buffer b's last copy on this device */
static signed char can_peer[GA_MAX_DEVICES][GA_MAX_DEVICES];   /* 0 unknown, 1 yes, -1 no */
static void *stage_buf[2];
static int stage_last_dev[2] = {-1, -1};           /* device whose ev_stage[.][b] last read buffer b */

static int event_of(cudaEvent_t *slot, int dev) {
  if (*slot) return GA_OK;
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  GA_CU(cudaEventCreateWithFlags(slot, cudaEventDisableTiming), "cudaEventCreate");
  return GA_OK;
}

/* Later work on `waiter_stream` (of waiter) waits for what is queued now
 * on `stream` (of dev). */
static int order_after(int waiter, void *waiter_stream, int dev, void *stream) {
  int rc = event_of(&ev_order[dev], dev);
  if (!rc) rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  GA_CU(cudaEventRecord(ev_order[dev], (cudaStream_t)stream), "cudaEventRecord");
  if ((rc = ga_cuda_set_device(waiter))) return rc;
  GA_CU(cudaStreamWaitEvent((cudaStream_t)waiter_stream, ev_order[dev], 0), "cudaStreamWaitEvent");
  return GA_OK;
}

static int peer_disabled(void) {
  const char *e = getenv("GPUARRAY_PEER_ACCESS");
  return e && e[0] == '0';
}

/* Can dev reach peer's memory directly?  Enables it (again) when so. */
static int ensure_peer(int dev, int peer, int *ok) {
  *ok = 0;
  if (peer_disabled()) return GA_OK;
  if (!can_peer[dev][peer]) {
    int a = 0;
    GA_CU(cudaDeviceCanAccessPeer(&a, dev, peer), "cudaDeviceCanAccessPeer");
    can_peer[dev][peer] = a ? 1 : -1;
  }
  if (can_peer[dev][peer] < 0) return GA_OK;
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();   /* clear it: not an error for us */
  else if (e != cudaSuccess) {
    cudaGetLastError();
    can_peer[dev][peer] = -1;   /* e.g. too many peers: stage instead */
    return GA_OK;
  }
  *ok = 1;
  return GA_OK;
}

static int staged(int dst_dev, char *dst, void *dst_stream, int src_dev, const char *src, void *src_stream,
                  size_t n) {
  int rc;
  for (int b = 0; b < 2; b++) {
    if (!stage_buf[b]) {
      if (cudaHostAlloc(&stage_buf[b], STAGE_CHUNK, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        stage_buf[b] = NULL;
        return ga_err(GA_ENOMEM, "out of pinned host memory for a staged copy between devices");
      }
    }
    if ((rc = event_of(&ev_stage[src_dev][b], src_dev)) || (rc = event_of(&ev_stage[dst_dev][b], dst_dev)))
      return rc;
  }
  size_t k = 0;
  for (size_t off = 0; off < n; off += STAGE_CHUNK, k++) {
    int b = (int)(k & 1);
    size_t len = n - off < STAGE_CHUNK ? n - off : STAGE_CHUNK;
    /* device -> host on the source's stream, after the last copy out of buffer b */
    if ((rc = ga_cuda_set_device(src_dev))) return rc;
    if (stage_last_dev[b] >= 0)
      GA_CU(cudaStreamWaitEvent((cudaStream_t)src_stream, ev_stage[stage_last_dev[b]][b], 0), "cudaStreamWaitEvent");
    GA_CU(cudaMemcpyAsync(stage_buf[b], src + off, len, cudaMemcpyDeviceToHost, (cudaStream_t)src_stream),
          "cudaMemcpyAsync");
    GA_CU(cudaEventRecord(ev_stage[src_dev][b], (cudaStream_t)src_stream), "cudaEventRecord");
    /* host -> device on the destination's stream, once the chunk is in */
    if ((rc = ga_cuda_set_device(dst_dev))) return rc;
    GA_CU(cudaStreamWaitEvent((cudaStream_t)dst_stream, ev_stage[src_dev][b], 0), "cudaStreamWaitEvent");
    GA_CU(cudaMemcpyAsync(dst + off, stage_buf[b], len, cudaMemcpyHostToDevice, (cudaStream_t)dst_stream),
          "cudaMemcpyAsync");
    GA_CU(cudaEventRecord(ev_stage[dst_dev][b], (cudaStream_t)dst_stream), "cudaEventRecord");
    stage_last_dev[b] = dst_dev;
  }
  return GA_OK;
}

static int peer_copy_locked(int dst_dev, void *dst, void *dst_stream, int src_dev, const void *src,
                            void *src_stream, size_t n) {
  int rc, fwd, back;
  /* the kernels queued on both devices reach their streams first */
  if ((rc = ga_cuda_flush(src_dev)) || (rc = ga_cuda_flush(dst_dev))) return rc;
  if ((rc = ensure_peer(dst_dev, src_dev, &fwd)) || (rc = ensure_peer(src_dev, dst_dev, &back))) return rc;
  if (fwd && back) {
    if ((rc = order_after(dst_dev, dst_stream, src_dev, src_stream))) return rc;
    GA_CU(cudaMemcpyPeerAsync(dst, dst_dev, src, src_dev, n, (cudaStream_t)dst_stream), "cudaMemcpyPeerAsync");
  } else if ((rc = staged(dst_dev, dst, dst_stream, src_dev, src, src_stream, n))) {
    return rc;
  }
  /* later work on the source device waits for the copy to have read it */
  return order_after(src_dev, src_stream, dst_dev, dst_stream);
}

int ga_cuda_peer_copy(int dst_dev, void *dst, void *dst_stream, int src_dev, const void *src, void *src_stream,
                      size_t n) {
  if (n == 0) return GA_OK;
  int rc;
  if ((rc = ga_cuda_check_device(dst_dev)) || (rc = ga_cuda_check_device(src_dev))) return rc;
  if (dst_dev == src_dev) return ga_cuda_memcpy(dst_dev, dst, src_dev, src, n, dst_stream, 0);
  pthread_mutex_lock(&lock);
  rc = peer_copy_locked(dst_dev, dst, dst_stream, src_dev, src, src_stream, n);
  pthread_mutex_unlock(&lock);
  return rc;
}
