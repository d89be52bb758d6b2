/* Launch batching (see ga_cuda_queue.h).  Per device: one queue, holding
 * launches for one stream at a time (a launch on another stream flushes it
 * first, so work reaches CUDA in exactly the order it was issued), and a
 * small cache of graphs keyed by the sequence of kernels in a batch.
 * A batch is captured into a graph the first time its sequence is seen
 * (about the cost of launching it plainly) and replayed afterwards with its
 * nodes' parameters updated in place. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include <cuda.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS (GA_MAXARGS + 2)
#define ARENA (GA_QUEUE_MAX * 2560)
#define GRAPHS 64

typedef struct entry {
  void *func;
  unsigned grid[3], block[3], smem;
  int nparams;
  size_t off[MAX_PARAMS];
} entry;

typedef struct queue {
  void *stream;
  int n;
  size_t used;
  entry e[GA_QUEUE_MAX];
  _Alignas(16) unsigned char arena[ARENA];
} queue;

typedef struct graph {
  uint64_t sig, last_use;
  int n;
  void *funcs[GA_QUEUE_MAX];
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaGraphNode_t nodes[GA_QUEUE_MAX];
} graph;

typedef struct devq {
  pthread_mutex_t lock;
  int pending;
  queue *q;
  graph graphs[GRAPHS];
  uint64_t clock;
  cudaStream_t capture;
  int no_graphs;     /* capture failed once: launch plainly from then on */
} devq;

static devq devs[GA_MAX_DEVICES];
static int enabled = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

typedef CUresult (*setparams_fn)(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *);
static setparams_fn set_params;

static void init(void) {
  for (int i = 0; i < GA_MAX_DEVICES; i++) pthread_mutex_init(&devs[i].lock, NULL);
  const char *b = getenv("GPUARRAY_BATCH"), *d = getenv("GPUARRAY_MEM_DEBUG");
  enabled = !(b && strcmp(b, "0") == 0) && !(d && d[0] == '1');
  enum cudaDriverEntryPointQueryResult q;
  void *f = NULL;
  if (cudaGetDriverEntryPointByVersion("cuGraphExecKernelNodeSetParams", &f, 12000, cudaEnableDefault, &q) ==
        cudaSuccess && q == cudaDriverEntryPointSuccess)
    set_params = (setparams_fn)f;
  else
    enabled = 0;
  cudaGetLastError();
}

static int launch_all(const queue *q, void *params[][MAX_PARAMS], void *stream) {
  for (int i = 0; i < q->n; i++) {
    const entry *e = &q->e[i];
    int rc = ga_cuda_launch_now3(e->func, e->grid, e->block, e->smem, stream, params[i]);
    if (rc) return rc;
  }
  return GA_OK;
}

static uint64_t signature(const queue *q) {
  uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)q->n;
  for (int i = 0; i < q->n; i++) {
    const entry *e = &q->e[i];
    uint64_t v[6] = {(uint64_t)(uintptr_t)e->func, e->block[0], e->block[1], e->block[2], e->smem,
                     (uint64_t)e->nparams};
    for (int k = 0; k < 6; k++) { h ^= v[k]; h *= 0x100000001b3ULL; h ^= h >> 29; }
  }
  return h;
}

static void drop_graph(graph *g) {
  if (g->exec) cudaGraphExecDestroy(g->exec);
  if (g->g) cudaGraphDestroy(g->g);
  memset(g, 0, sizeof *g);
}

/* Capture the batch into a graph (which does not run it yet). */
static int build(devq *d, const queue *q, void *params[][MAX_PARAMS], graph *g) {
  if (!d->capture && cudaStreamCreateWithFlags(&d->capture, cudaStreamNonBlocking) != cudaSuccess) return 1;
  if (cudaStreamBeginCapture(d->capture, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return 1;
  int rc = launch_all(q, params, d->capture);
  cudaGraph_t cg = NULL;
  if (cudaStreamEndCapture(d->capture, &cg) != cudaSuccess || rc || !cg) {
    if (cg) cudaGraphDestroy(cg);
    cudaGetLastError();
    return 1;
  }
  g->g = cg;
  if (cudaGraphInstantiate(&g->exec, cg, 0) != cudaSuccess) return 1;
  /* the capture is a chain: walk it to map queue slot i -> node */
  size_t n = 1;
  cudaGraphNode_t node;
  if (cudaGraphGetRootNodes(cg, &node, &n) != cudaSuccess || n != 1) return 1;
  for (int i = 0; i < q->n; i++) {
    g->nodes[i] = node;
    g->funcs[i] = q->e[i].func;
    if (i + 1 < q->n) {
      n = 1;
      if (cudaGraphNodeGetDependentNodes(node, &node, NULL, &n) != cudaSuccess || n != 1) return 1;
    }
  }
  g->n = q->n;
  return 0;
}

static int flush_queue(devq *d, queue *q) {
  if (q->n == 0) return GA_OK;
  void *params[GA_QUEUE_MAX][MAX_PARAMS];
  for (int i = 0; i < q->n; i++)
    for (int k = 0; k < q->e[i].nparams; k++) params[i][k] = q->arena + q->e[i].off[k];
  int rc = GA_OK;
  if (q->n < 4 || d->no_graphs) {
    rc = launch_all(q, params, q->stream);
  } else {
    uint64_t sig = signature(q);
    graph *g = NULL, *victim = &d->graphs[0];
    for (int i = 0; i < GRAPHS && !g; i++) {
      graph *c = &d->graphs[i];
      if (c->exec && c->sig == sig && c->n == q->n) g = c;
      if (c->last_use < victim->last_use) victim = c;
    }
    for (int i = 0; g && i < q->n; i++)
      if (g->funcs[i] != q->e[i].func) g = NULL;   /* a hash collision */
    if (g) {
      for (int i = 0; i < q->n && !rc; i++) {
        const entry *e = &q->e[i];
        CUDA_KERNEL_NODE_PARAMS p = {(CUfunction)e->func, e->grid[0], e->grid[1], e->grid[2], e->block[0],
                                     e->block[1], e->block[2], e->smem,
                                     params[i], NULL, NULL, NULL};
        CUresult r = set_params((CUgraphExec)g->exec, (CUgraphNode)g->nodes[i], &p);
        if (r != CUDA_SUCCESS) rc = ga_err(GA_ECUDA, "CUDA error in cuGraphExecKernelNodeSetParams (%d)", (int)r);
      }
      if (!rc) {
        cudaError_t e = cudaGraphLaunch(g->exec, (cudaStream_t)q->stream);
        if (e != cudaSuccess) rc = ga_cuda_error(e, "cudaGraphLaunch");
      }
    } else {
      drop_graph(victim);
      if (build(d, q, params, victim) == 0) {
        g = victim;
        g->sig = sig;
        cudaError_t e = cudaGraphLaunch(g->exec, (cudaStream_t)q->stream);
        if (e != cudaSuccess) rc = ga_cuda_error(e, "cudaGraphLaunch");
      } else {
        drop_graph(victim);
        cudaGetLastError();
        d->no_graphs = 1;
        rc = launch_all(q, params, q->stream);   /* graphs unavailable: launch plainly */
      }
    }
    if (g) g->last_use = ++d->clock;
  }
  __atomic_sub_fetch(&d->pending, q->n, __ATOMIC_RELAXED);
  q->n = 0;
  q->used = 0;
  return rc;
}

static int flush_dev(devq *d) {
  return d->q ? flush_queue(d, d->q) : GA_OK;
}

int ga_cuda_flush(int dev) {
  if (enabled <= 0) return GA_OK;   /* never enabled: nothing can be queued */
  int lo = dev < 0 ? 0 : dev, hi = dev < 0 ? GA_MAX_DEVICES - 1 : dev, rc = GA_OK;
  for (int i = lo; i <= hi; i++) {
    devq *d = &devs[i];
    if (!__atomic_load_n(&d->pending, __ATOMIC_RELAXED)) continue;
    pthread_mutex_lock(&d->lock);
    int r = ga_cuda_set_device(i);
    if (!r) r = flush_dev(d);
    pthread_mutex_unlock(&d->lock);
    if (!rc) rc = r;
  }
  return rc;
}

int ga_cuda_enqueue3(int dev, void *stream, void *func, const unsigned grid[3], const unsigned block[3],
                     unsigned smem, int nparams, void *const *params, const size_t *sizes) {
  pthread_once(&once, init);
  if (!enabled) return ga_cuda_launch_now3(func, grid, block, smem, stream, (void **)params);
  devq *d = &devs[dev];
  pthread_mutex_lock(&d->lock);
  if (!d->q) d->q = calloc(1, sizeof *d->q);
  queue *q = d->q;
  size_t need = 0;
  for (int k = 0; k < nparams; k++) need += (sizes[k] + 15) & ~(size_t)15;
  int rc = GA_OK;
  if (!q || nparams > MAX_PARAMS || need > ARENA) {
    /* no room for bookkeeping: keep the order and launch directly */
    rc = flush_dev(d);
    if (!rc) rc = ga_cuda_launch_now3(func, grid, block, smem, stream, (void **)params);
    pthread_mutex_unlock(&d->lock);
    return rc;
  }
  if (q->n == GA_QUEUE_MAX || q->used + need > ARENA || (q->n && q->stream != stream)) rc = flush_queue(d, q);
  q->stream = stream;
  entry *e = &q->e[q->n];
  e->func = func;
  memcpy(e->grid, grid, sizeof e->grid);
  memcpy(e->block, block, sizeof e->block);
  e->smem = smem;
  e->nparams = nparams;
  for (int k = 0; k < nparams; k++) {
    e->off[k] = q->used;
    memcpy(q->arena + q->used, params[k], sizes[k]);
    q->used += (sizes[k] + 15) & ~(size_t)15;
  }
  q->n++;
  __atomic_add_fetch(&d->pending, 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&d->lock);
  return rc;
}

int ga_cuda_enqueue(int dev, void *stream, void *func, unsigned grid, unsigned block, unsigned smem,
                    int nparams, void *const *params, const size_t *sizes) {
  const unsigned g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  return ga_cuda_enqueue3(dev, stream, func, g, b, smem, nparams, params, sizes);
}
