/* Small complex FFTs of our own (kernels/ga_fft_small.cuh), for the calls
 * where cuFFT's host cost (several microseconds a cufftExec) is most of
 * the time: one-axis C2C transforms of a power-of-two length up to 4096
 * (complex64) or 2048 (complex128) whose batch is small (at most 2^16
 * values in all).  The kernel goes through the launch queue like every
 * elementwise kernel (~1 us), needs no plan, reads and writes any strides,
 * and applies the scale itself.  Everything else goes to cuFFT
 * (cuda/ga_cuda_fft.c). */
#include "cuda/ga_cuda.h"
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_kernel.h"
#include "cuda/ga_cuda_queue.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include "base/ga_strbuf.h"
#include <string.h>

extern const char ga_kernel_ga_fft_small[];

#define BLOCK 256   /* threads of a block of small signals */
#define TPS_MAX 512 /* threads on one long signal */
#define MAX_VALUES (1 << 16)

typedef struct small_shape { int dbl, logn; } small_shape;

static int tps_of(int logn) { return 1 << (logn - 1) >= TPS_MAX ? TPS_MAX : 1 << (logn - 1); }
static int spb_of(int logn) { return tps_of(logn) >= BLOCK ? 1 : BLOCK / tps_of(logn); }

static char *gen_source(const void *ud) {
  const small_shape *s = ud;
  int tps = tps_of(s->logn);
  ga_strbuf b;
  ga_sb_init(&b);
  ga_sb_printf(&b, "// small FFT: %s, n = 2^%d\n#define GA_T %s\n#define GA_LOGN %d\n#define GA_TPS %d\n#define GA_SPB %d\n",
               s->dbl ? "complex128" : "complex64", s->logn, s->dbl ? "double" : "float", s->logn, tps, spb_of(s->logn));
  ga_sb_puts(&b, ga_kernel_ga_fft_small);
  return ga_sb_take(&b);
}

char *ga_cuda_fft_small_source(int dbl, int logn) {
  if (logn < 1 || logn > (dbl ? 11 : 12)) return NULL;
  small_shape s = {dbl != 0, logn};
  return gen_source(&s);
}

static int log2_exact(int64_t n) {
  int l = 0;
  while ((1ll << l) < n && l < 62) l++;
  return (1ll << l) == n ? l : -1;
}

int ga_cuda_fft_small(const ga_fft_call *c, int pd, int *done) {
  *done = 0;
  if (c->kind != GA_FFT_C2C || c->rank > 1) return GA_OK;
  int dbl = c->dtype_in == GA_COMPLEX128, logn = log2_exact(c->n);
  if (logn < 1 || logn > (dbl ? 11 : 12)) return GA_OK;
  if (c->batch > MAX_VALUES / c->n) return GA_OK;
  int64_t outer = c->batch / c->bshape[pd];
  if (outer > 1) return GA_OK;   /* one batch axis: one launch */
  small_shape s = {dbl, logn};
  ga_kkey key;
  ga_kpack p;
  ga_kpack_init(&p, &key, GA_KFAM_FFT);
  ga_kpack_put(&p, (uint64_t)dbl, 1);
  ga_kpack_put(&p, (uint64_t)logn, 4);
  void *kernel;
  int rc = ga_cuda_kernel_get(c->device, &key, "ga_fft_small", gen_source, &s, &kernel);
  if (rc) return rc;
  const char *in = c->in;
  char *out = c->out;
  long long istr = c->istride, ostr = c->ostride, batch = c->bshape[pd];
  long long bistr = batch > 1 ? c->bistr[pd] : 0, bostr = batch > 1 ? c->bostr[pd] : 0;
  double sign = c->inverse ? 1.0 : -1.0, scale = c->scale;
  float signf = (float)sign, scalef = (float)scale;
  void *args[] = {&in, &out, &istr, &ostr, &bistr, &bostr, &batch, dbl ? (void *)&sign : (void *)&signf,
                  dbl ? (void *)&scale : (void *)&scalef};
  size_t fsz = dbl ? sizeof(double) : sizeof(float);
  size_t sizes[] = {sizeof in, sizeof out, 8, 8, 8, 8, 8, fsz, fsz};
  int spb = spb_of(logn);
  unsigned grid = (unsigned)((batch + spb - 1) / spb);
  if ((rc = ga_cuda_enqueue(c->device, c->stream, kernel, grid, (unsigned)(tps_of(logn) * spb), 0, 9, args, sizes)))
    return rc;
  *done = 1;
  return GA_OK;
}
