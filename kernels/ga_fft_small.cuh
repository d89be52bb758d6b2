// Small complex FFTs (src/cuda/ga_cuda_fft_small.c): batched power-of-two
// C2C transforms of length N = 2^GA_LOGN that fit one block's shared
// memory, where a cuFFT call costs more on the host than the work on the
// GPU.  The generator puts before this text: GA_T (float or double),
// GA_LOGN, GA_TPS (threads per signal, a power of two <= N/2) and GA_SPB
// (signals per block).
//
// Radix-2 decimation in time, in place in shared memory: the load puts x
// in bit-reversed order, the block computes the N/2 twiddles
// exp(sign * 2i*pi*k/N) once (sincospi of exact dyadic arguments), then
// log2(N) butterfly stages read them.  The output is multiplied by `scale`
// on the way out (the inverse's 1/n), so a call is one kernel.

struct ga_fftc { GA_T re, im; };

extern "C" __global__ void __launch_bounds__(GA_TPS * GA_SPB)
ga_fft_small(const char *__restrict__ in, char *__restrict__ out, long long istr, long long ostr,
             long long bistr, long long bostr, long long batch, GA_T sign, GA_T scale) {
  const int N = 1 << GA_LOGN;
  __shared__ ga_fftc sm[GA_SPB][N];
  __shared__ ga_fftc tw[N / 2];
  const int s = threadIdx.x / GA_TPS, t = threadIdx.x % GA_TPS;
  const long long sig = (long long)blockIdx.x * GA_SPB + s;
  const bool live = sig < batch;
  for (int k = threadIdx.x; k < N / 2; k += GA_TPS * GA_SPB) {
    GA_T sn, cs;
    sincospi(sign * (GA_T)(2 * k) / (GA_T)N, &sn, &cs);
    tw[k].re = cs;
    tw[k].im = sn;
  }
  if (live) {
    const char *src = in + sig * bistr;
    for (int i = t; i < N; i += GA_TPS)
      sm[s][__brev((unsigned)i) >> (32 - GA_LOGN)] = *(const ga_fftc *)(src + i * istr);
  }
  __syncthreads();
#pragma unroll
  for (int lh = 0; lh < GA_LOGN; lh++) {   // butterflies of span h = 2^lh
    const int h = 1 << lh;
#pragma unroll
    for (int j = t; j < N / 2; j += GA_TPS) {
      const int k = j & (h - 1), i0 = ((j - k) << 1) + k, i1 = i0 + h;
      const ga_fftc w = tw[k << (GA_LOGN - 1 - lh)];
      const ga_fftc a = sm[s][i0], b = sm[s][i1];
      const GA_T br = b.re * w.re - b.im * w.im, bi = b.re * w.im + b.im * w.re;
      sm[s][i0].re = a.re + br;
      sm[s][i0].im = a.im + bi;
      sm[s][i1].re = a.re - br;
      sm[s][i1].im = a.im - bi;
    }
    __syncthreads();
  }
  if (live) {
    char *dst = out + sig * bostr;
    for (int i = t; i < N; i += GA_TPS) {
      ga_fftc v = sm[s][i];
      v.re *= scale;
      v.im *= scale;
      *(ga_fftc *)(dst + i * ostr) = v;
    }
  }
}
