/* The FFT pipeline (core/ga_fft.c): one batched 1-D transform along one
 * axis per call; the Lua side (lua/gpuarray/fft.lua) composes the public
 * functions (norms, n/s crop and pad, several axes, dtype promotion) from
 * it.  No Lua, no CUDA: the device's backend slot `fft` runs it. */
#ifndef GA_CORE_FFT_H
#define GA_CORE_FFT_H
#include "base/ga_calls.h"

/* The output of a transform of kind (GA_FFT_*) of length n along `axis`
 * (0-based) of `in`: its dtype and shape.  Checks in's dtype for the kind
 * (C2C, C2R: complex64/complex128; R2C: float32/float64), n >= 1 and that
 * in has the length the kind reads along the axis (n, or n/2+1 for C2R). */
int ga_fft_out_geometry(const ga_array *in, int axis, int kind, int64_t n, int *dtype, int64_t *shape);
/* out (of ga_fft_out_geometry's dtype and shape, any positive strides)
 * = scale * the transform of `in` along axis; inverse for C2C picks the
 * sign (C2R is always inverse, R2C forward).  `in` is never written: a C2R
 * input (which cuFFT overwrites) and one with zero or negative strides are
 * copied first.  An empty array is no work. */
int ga_fft_axis(const ga_array *in, ga_array *out, int axis, int kind, int inverse, int64_t n, double scale,
                void *stream);
/* out (in's dtype, complex, and shape) = scale * the C2C transform of
 * `in` over `rank` (2 or 3) distinct axes (0-based) at once, as one plan of
 * the backend (rank-2/3 cuFFT) when the backend takes such calls
 * (fft_multi) and the layout nests (see ga_fft_call); *done = 0, and no
 * error, when it does not: the caller then goes one axis at a time. */
int ga_fft_axes(const ga_array *in, ga_array *out, int rank, const int *axes, int inverse, double scale,
                void *stream, int *done);
/* The plan cache of device dev (GA_CPU: the host's): op GA_FFTC_* with
 * value, then *info; an error when the backend has no FFT. */
int ga_fft_cache(int dev, int op, int64_t value, ga_fft_cache_info *info);

#endif
