/* The host backend's FFT slot: batched 1-D transforms (ga_fft_call) over
 * any strides, on our own mixed-radix / Bluestein code
 * (host/ga_host_fft_impl.h, compiled for double and for float), with a plan
 * cache (LRU, limits in plans and bytes: ga.host.fft.config). */
#include "host/ga_host.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define GA_FFT_MAXRADIX 32

#define R double
#define S(x) x##_d
#include "host/ga_host_fft_impl.h"
#undef R
#undef S
#define R float
#define S(x) x##_f
#include "host/ga_host_fft_impl.h"
#undef R
#undef S

/* ---- the plan cache ---- */

typedef struct entry {
  int64_t n;
  int real, dbl;
  void *plan;            /* plan_d / plan_f */
  size_t bytes;
  int refs;              /* calls using it; freed at 0 once evicted */
  int evicted;
  struct entry *prev, *next;   /* most recently used first */
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *head;
static int64_t count, bytes_held, max_size = 16, max_memsize = -1, hits, misses, created;

static void entry_free(entry *e) {
  if (e->dbl) plan_free_d(e->plan);
  else plan_free_f(e->plan);
  free(e);
}

static void unlink_entry(entry *e) {
  if (e->prev) e->prev->next = e->next;
  else head = e->next;
  if (e->next) e->next->prev = e->prev;
  e->prev = e->next = NULL;
  count--;
  bytes_held -= (int64_t)e->bytes;
}

static void evict(entry *e) {   /* under the lock */
  unlink_entry(e);
  if (e->refs) e->evicted = 1;
  else entry_free(e);
}

static void trim(void) {   /* under the lock: drop least recently used plans over the limits */
  entry *last = head;
  while (last && last->next) last = last->next;
  while (last && ((max_size >= 0 && count > max_size) || (max_memsize >= 0 && bytes_held > max_memsize))) {
    entry *p = last->prev;
    evict(last);
    last = p;
  }
}

static entry *acquire(int64_t n, int real, int dbl) {
  pthread_mutex_lock(&lock);
  for (entry *e = head; e; e = e->next)
    if (e->n == n && e->real == real && e->dbl == dbl) {
      hits++;
      if (e != head) {   /* to the front */
        e->prev->next = e->next;
        if (e->next) e->next->prev = e->prev;
        e->prev = NULL;
        e->next = head;
        head->prev = e;
        head = e;
      }
      e->refs++;
      pthread_mutex_unlock(&lock);
      return e;
    }
  misses++;
  pthread_mutex_unlock(&lock);
  entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->n = n, e->real = real, e->dbl = dbl;
  if (dbl) {
    plan_d *p = real ? rplan_new_d(n) : plan_new_d(n);
    e->plan = p;
    e->bytes = p ? p->bytes : 0;
  } else {
    plan_f *p = real ? rplan_new_f(n) : plan_new_f(n);
    e->plan = p;
    e->bytes = p ? p->bytes : 0;
  }
  if (!e->plan) {
    free(e);
    return NULL;
  }
  e->refs = 1;
  pthread_mutex_lock(&lock);
  created++;
  if (max_size == 0) {   /* caching off: the caller's alone */
    e->evicted = 1;
  } else {
    e->next = head;
    if (head) head->prev = e;
    head = e;
    count++;
    bytes_held += (int64_t)e->bytes;
    e->refs++;   /* keep it out of trim's reach while we take our reference */
    trim();
    e->refs--;
  }
  pthread_mutex_unlock(&lock);
  return e;
}

static void release(entry *e) {
  pthread_mutex_lock(&lock);
  int gone = --e->refs == 0 && e->evicted;
  pthread_mutex_unlock(&lock);
  if (gone) entry_free(e);
}

int ga_host_fft_cache(int dev, int op, int64_t value, ga_fft_cache_info *info) {
  (void)dev;
  pthread_mutex_lock(&lock);
  if (op == GA_FFTC_SET_SIZE) max_size = value;
  else if (op == GA_FFTC_SET_MEMSIZE) max_memsize = value;
  if (op == GA_FFTC_CLEAR) {
    while (head) evict(head);
  } else {
    trim();
  }
  if (info) {
    info->size = count, info->max_size = max_size;
    info->memsize = bytes_held, info->max_memsize = max_memsize;
    info->hits = hits, info->misses = misses, info->created = created;
  }
  pthread_mutex_unlock(&lock);
  return GA_OK;
}

/* ---- the slot ---- */

/* one transform of batch row (in, out), through buf (see ga_host_fft) */
static int run_d(const ga_fft_call *c, const entry *e, const char *in, char *out, void *buf) {
  const plan_d *p = e->plan;
  int64_t n = c->n;
  cpx_d *data = buf;
  if (c->kind == GA_FFT_C2C) {
    for (int64_t k = 0; k < n; k++) memcpy(&data[k], in + k * c->istride, sizeof(cpx_d));
    pass_all_d(p, data, data + n, c->inverse ? 1 : -1);
    double s = c->scale;
    for (int64_t k = 0; k < n; k++) {
      cpx_d v = {data[k].r * s, data[k].i * s};
      memcpy(out + k * c->ostride, &v, sizeof v);
    }
  } else if (c->kind == GA_FFT_R2C) {
    double *x = (double *)buf;
    cpx_d *X = (cpx_d *)(x + n + (n & 1));
    for (int64_t k = 0; k < n; k++) memcpy(&x[k], in + k * c->istride, sizeof(double));
    r2c_d(p, x, X, X + n / 2 + 1);
    double s = c->scale;
    for (int64_t k = 0; k <= n / 2; k++) {
      cpx_d v = {X[k].r * s, X[k].i * s};
      memcpy(out + k * c->ostride, &v, sizeof v);
    }
  } else {
    int64_t m = n / 2 + 1;
    cpx_d *X = buf;
    double *x = (double *)(X + m);
    cpx_d *w = (cpx_d *)(x + n + (n & 1));
    for (int64_t k = 0; k < m; k++) memcpy(&X[k], in + k * c->istride, sizeof(cpx_d));
    c2r_d(p, X, x, w);
    double s = c->scale;
    for (int64_t k = 0; k < n; k++) {
      double v = x[k] * s;
      memcpy(out + k * c->ostride, &v, sizeof v);
    }
  }
  return GA_OK;
}

static int run_f(const ga_fft_call *c, const entry *e, const char *in, char *out, void *buf) {
  const plan_f *p = e->plan;
  int64_t n = c->n;
  cpx_f *data = buf;
  float s = (float)c->scale;
  if (c->kind == GA_FFT_C2C) {
    for (int64_t k = 0; k < n; k++) memcpy(&data[k], in + k * c->istride, sizeof(cpx_f));
    pass_all_f(p, data, data + n, c->inverse ? 1 : -1);
    for (int64_t k = 0; k < n; k++) {
      cpx_f v = {data[k].r * s, data[k].i * s};
      memcpy(out + k * c->ostride, &v, sizeof v);
    }
  } else if (c->kind == GA_FFT_R2C) {
    float *x = (float *)buf;
    cpx_f *X = (cpx_f *)(x + n + (n & 1));
    for (int64_t k = 0; k < n; k++) memcpy(&x[k], in + k * c->istride, sizeof(float));
    r2c_f(p, x, X, X + n / 2 + 1);
    for (int64_t k = 0; k <= n / 2; k++) {
      cpx_f v = {X[k].r * s, X[k].i * s};
      memcpy(out + k * c->ostride, &v, sizeof v);
    }
  } else {
    int64_t m = n / 2 + 1;
    cpx_f *X = buf;
    float *x = (float *)(X + m);
    cpx_f *w = (cpx_f *)(x + n + (n & 1));
    for (int64_t k = 0; k < m; k++) memcpy(&X[k], in + k * c->istride, sizeof(cpx_f));
    c2r_f(p, X, x, w);
    for (int64_t k = 0; k < n; k++) {
      float v = x[k] * s;
      memcpy(out + k * c->ostride, &v, sizeof v);
    }
  }
  return GA_OK;
}

int ga_host_fft(const ga_fft_call *c, int *scaled) {
  *scaled = 1;
  if (c->rank > 1) return ga_err(GA_EINTERNAL, "fft: the host transforms one axis at a time");
  int cplx_in = c->kind != GA_FFT_R2C;
  int dt = cplx_in ? c->dtype_in : c->dtype_out;
  if (dt != GA_COMPLEX64 && dt != GA_COMPLEX128) return ga_err(GA_EINTERNAL, "fft: bad dtype %d", dt);
  int dbl = dt == GA_COMPLEX128;
  int real = c->kind != GA_FFT_C2C;
  int64_t n = c->n;
  if (n < 1) return ga_err(GA_EINVAL, "invalid number of data points (%lld) specified", (long long)n);
  entry *e = acquire(n, real, dbl);
  if (!e) return ga_err(GA_ENOMEM, "out of host memory making an FFT plan of length %lld", (long long)n);
  /* work: complex values (double-sized for either precision, which is
   * more than enough): the data, the real/complex copies and the scratch */
  int64_t scratch = dbl ? (real ? rscratch_len_d(e->plan) : scratch_len_d(e->plan))
                        : (real ? rscratch_len_f(e->plan) : scratch_len_f(e->plan));
  size_t words = (size_t)(3 * n + 4 + scratch);
  void *buf = malloc(words * sizeof(cpx_d));
  if (!buf) {
    release(e);
    return ga_err(GA_ENOMEM, "out of host memory for an FFT of length %lld", (long long)n);
  }
  int64_t idx[GA_MAXDIM] = {0};
  const char *in = c->in;
  char *out = c->out;
  for (int64_t b = 0; b < c->batch; b++) {
    if (dbl) run_d(c, e, in, out, buf);
    else run_f(c, e, in, out, buf);
    for (int d = c->bndim - 1; d >= 0; d--) {   /* next batch row */
      in += c->bistr[d];
      out += c->bostr[d];
      if (++idx[d] < c->bshape[d]) break;
      in -= c->bistr[d] * c->bshape[d];
      out -= c->bostr[d] * c->bshape[d];
      idx[d] = 0;
    }
  }
  free(buf);
  release(e);
  return GA_OK;
}
