/* Streams, events, copies and synchronisation over the CUDA runtime: every
 * call that must come after the queued kernels flushes the queue first
 * (ga_cuda_queue.c), which in turn only needs the devices (ga_cuda_device.c). */
#include "base/ga_sync.h"
#include "cuda/ga_cuda_internal.h"

/* Make dev current and submit its queued kernels: for every call that must
 * come after them in stream order. */
static int enter_flushed(int dev) {
  int rc = ga_cuda_set_device(dev);
  return rc ? rc : ga_cuda_flush(dev);
}

int ga_cuda_mem_info(int dev, size_t *free_b, size_t *total_b) {
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  GA_CU(cudaMemGetInfo(free_b, total_b), "cudaMemGetInfo");
  return GA_OK;
}

int ga_cuda_device_synchronize(int dev) {
  int rc = enter_flushed(dev);
  if (rc) return rc;
  GA_CU(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return GA_OK;
}

int ga_cuda_stream_create(int dev, int non_blocking, void **s) {
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  cudaStream_t st;
  GA_CU(cudaStreamCreateWithFlags(&st, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault),
        "cudaStreamCreate");
  *s = st;
  return GA_OK;
}

int ga_cuda_stream_destroy(int dev, void *s) {
  int rc = enter_flushed(dev);
  if (rc) return rc;
  GA_CU(cudaStreamDestroy((cudaStream_t)s), "cudaStreamDestroy");
  return GA_OK;
}

int ga_cuda_stream_synchronize(int dev, void *s) {
  int rc = enter_flushed(dev);
  if (rc) return rc;
  GA_CU(cudaStreamSynchronize((cudaStream_t)s), "cudaStreamSynchronize");
  return GA_OK;
}

int ga_cuda_stream_query(int dev, void *s, int *done) {
  int rc = enter_flushed(dev);
  if (rc) return rc;
  cudaError_t e = cudaStreamQuery((cudaStream_t)s);
  if (e == cudaErrorNotReady) { *done = 0; return GA_OK; }
  if (e != cudaSuccess) return ga_cuda_error(e, "cudaStreamQuery");
  *done = 1;
  return GA_OK;
}

int ga_cuda_event_create(int dev, void **ev) {
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  cudaEvent_t e;
  GA_CU(cudaEventCreate(&e), "cudaEventCreate");
  *ev = e;
  return GA_OK;
}

int ga_cuda_event_destroy(int dev, void *e) {
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  GA_CU(cudaEventDestroy((cudaEvent_t)e), "cudaEventDestroy");
  return GA_OK;
}

int ga_cuda_event_record(int dev, void *e, void *s) {
  int rc = enter_flushed(dev);
  if (rc) return rc;
  GA_CU(cudaEventRecord((cudaEvent_t)e, (cudaStream_t)s), "cudaEventRecord");
  return GA_OK;
}

/* DLPack's stream handover: the consumer's stream waits for what is queued
 * on the producer's so far (an event recorded after flushing our launch
 * queue; the host does not wait). */
int ga_cuda_stream_wait(int dev, void *consumer, void *producer) {
  if (consumer == producer) {   /* one stream: already ordered, but our queued kernels must reach it */
    return enter_flushed(dev);
  }
  int rc = enter_flushed(dev);
  if (rc) return rc;
  cudaEvent_t e;
  GA_CU(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
  cudaError_t err = cudaEventRecord(e, (cudaStream_t)producer);
  if (err == cudaSuccess) err = cudaStreamWaitEvent((cudaStream_t)consumer, e, 0);
  cudaEventDestroy(e);   /* released once the wait is satisfied */
  if (err != cudaSuccess) return ga_cuda_error(err, "cudaStreamWaitEvent");
  return GA_OK;
}

int ga_cuda_event_synchronize(int dev, void *e) {
  int rc = ga_cuda_set_device(dev);
  if (rc) return rc;
  GA_CU(cudaEventSynchronize((cudaEvent_t)e), "cudaEventSynchronize");
  return GA_OK;
}

int ga_cuda_event_elapsed(void *e1, void *e2, float *ms) {
  GA_CU(cudaEventElapsedTime(ms, (cudaEvent_t)e1, (cudaEvent_t)e2), "cudaEventElapsedTime");
  return GA_OK;
}

int ga_cuda_memcpy(int dst_dev, void *dst, int src_dev, const void *src, size_t n, void *stream, int sync) {
  int dev = dst_dev != GA_CPU ? dst_dev : src_dev;
  if (n == 0) return GA_OK;
  int rc = ga_cuda_set_device(dev);
  if (!rc) rc = ga_cuda_flush(-1);   /* both sides may have queued kernels */
  if (rc) return rc;
  /* unified addressing: the runtime knows each pointer's side */
  GA_CU(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, (cudaStream_t)stream), "cudaMemcpyAsync");
  if (sync) {
    GA_CU(cudaStreamSynchronize((cudaStream_t)stream), "cudaStreamSynchronize");
    ga_sync_note(dev);   /* every implicit read-back blocks here: the ledger counts it */
  }
  return GA_OK;
}
