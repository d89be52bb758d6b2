/* Source -> CUBIN with NVRTC, through the disk cache.  The key covers the
 * whole generated source (which embeds the kernel templates), the options,
 * the NVRTC version, the arch and the library version. */
#include "cuda/ga_cuda_internal.h"
#include "base/ga_diskcache.h"
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GA_LIB_VERSION "gpuarray-0.1.0"

/* snprintf's count is what it wanted to write: the length in the buffer
 * is at most cap - 1. */
static size_t clamp_len(int n, size_t k, size_t cap) {
  return n < 0 ? k : k + (size_t)n >= cap ? cap - 1 : k + (size_t)n;
}

/* Compile error text: the NVRTC log, then the source with line numbers. */
static int compile_error(const char *name, const char *log, const char *src) {
  size_t cap = strlen(log) + strlen(src) * 2 + 4096, k = 0;
  char *m = malloc(cap);
  if (!m) return ga_err(GA_ENVRTC, "NVRTC compile error in kernel '%s'", name);
  k = clamp_len(snprintf(m, cap, "NVRTC compile error in kernel '%s':\n%s\nsource:\n", name, log), 0, cap);
  int line = 1;
  for (const char *p = src; *p && k < cap - 16;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len > cap - k - 16) len = cap - k - 16;
    k = clamp_len(snprintf(m + k, cap - k, "%4d | %.*s\n", line++, (int)len, p), k, cap);
    p = e ? e + 1 : p + len;
  }
  ga_err(GA_ENVRTC, "%s", m);
  free(m);
  return GA_ENVRTC;
}

static int nvrtc_fail(nvrtcResult r, const char *what) {
  return ga_err(GA_ENVRTC, "NVRTC error in %s: %s", what, nvrtcGetErrorString(r));
}

/* The arch to ask NVRTC for: the device's own when NVRTC knows it (CUBIN),
 * else the newest it knows as PTX for the driver to finish. */
static int pick_arch(int arch, int *is_ptx) {
  int n = 0, archs[128];
  *is_ptx = 0;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0 || n > 128) return arch;
  nvrtcGetSupportedArchs(archs);
  for (int i = 0; i < n; i++) if (archs[i] == arch) return arch;
  if (arch > archs[n - 1]) { *is_ptx = 1; return archs[n - 1]; }
  return arch;
}

int ga_cuda_compile(const char *source, const char *name, int arch, char **image, size_t *size, int *is_ptx) {
  return ga_cuda_compile_opts(source, name, arch, NULL, 0, image, size, is_ptx);
}

#define MAX_OPTS 64

/* Two chained hashes of one part of the key, its terminating NUL included
 * so that the parts' boundaries count too. */
static void hash_part(uint64_t h[2], const char *s) {
  h[0] = ga_hash64(s, strlen(s) + 1, h[0]);
  h[1] = ga_hash64(s, strlen(s) + 1, h[1]);
}

/* The disk cache key (32 hex digits) of a compile: every byte of the
 * library version, NVRTC version, program name, arch, options and source,
 * whatever their lengths (fed part by part, never through a fixed buffer). */
static void cache_key(const char *source, const char *name, const char *archopt, int maj, int min,
                      const char *const *opts, int nopts, char key[40]) {
  uint64_t h[2] = {GA_HASH_SEED, 0x9e3779b97f4a7c15ULL};
  char ver[32];
  snprintf(ver, sizeof ver, "nvrtc %d.%d", maj, min);   /* two ints: always fits */
  hash_part(h, GA_LIB_VERSION);
  hash_part(h, ver);
  hash_part(h, name);
  hash_part(h, archopt);
  for (int i = 0; i < nopts; i++) hash_part(h, opts[i]);
  hash_part(h, source);
  snprintf(key, 40, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
}

int ga_cuda_compile_opts(const char *source, const char *name, int arch, const char *const *extra, int nextra,
                         char **image, size_t *size, int *is_ptx) {
  int use = pick_arch(arch, is_ptx);
  char archopt[64];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s_%d", *is_ptx ? "compute" : "sm", use);
  if (nextra < 0 || nextra > MAX_OPTS - 3) return ga_err(GA_EINVAL, "too many NVRTC options (at most %d)", MAX_OPTS - 3);
  /* a user's own -std replaces the default one (NVRTC refuses two) */
  int own_std = 0;
  for (int i = 0; i < nextra; i++)
    own_std |= !strncmp(extra[i], "-std", 4) || !strncmp(extra[i], "--std", 5);
  const char *opts[MAX_OPTS] = {archopt, own_std ? "-default-device" : "--std=c++17", "-default-device"};
  int nopts = own_std ? 2 : 3;
  for (int i = 0; i < nextra; i++) opts[nopts++] = extra[i];

  int maj = 0, min = 0;
  nvrtcVersion(&maj, &min);
  char key[40];
  cache_key(source, name, archopt, maj, min, opts + 1, nopts - 1, key);
  uint32_t flags;
  if ((*image = ga_diskcache_load(key, size, &flags))) {
    if (flags == (uint32_t)*is_ptx) return GA_OK;
    free(*image);   /* not what this compile gives (the key fixes the kind): a miss */
    *image = NULL;
  }

  nvrtcProgram prog;
  nvrtcResult r = nvrtcCreateProgram(&prog, source, name, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) return nvrtc_fail(r, "nvrtcCreateProgram");
  r = nvrtcCompileProgram(prog, nopts, opts);
  if (r != NVRTC_SUCCESS) {
    size_t ln = 0;
    nvrtcGetProgramLogSize(prog, &ln);
    char *log = malloc(ln + 1);
    if (log) { log[0] = 0; nvrtcGetProgramLog(prog, log); log[ln] = 0; }
    int rc = r == NVRTC_ERROR_COMPILATION ? compile_error(name, log ? log : "", source)
                                          : nvrtc_fail(r, "nvrtcCompileProgram");
    free(log);
    nvrtcDestroyProgram(&prog);
    return rc;
  }
  r = *is_ptx ? nvrtcGetPTXSize(prog, size) : nvrtcGetCUBINSize(prog, size);
  if (r == NVRTC_SUCCESS && !(*image = malloc(*size))) r = NVRTC_ERROR_OUT_OF_MEMORY;
  if (r == NVRTC_SUCCESS) r = *is_ptx ? nvrtcGetPTX(prog, *image) : nvrtcGetCUBIN(prog, *image);
  nvrtcDestroyProgram(&prog);
  if (r != NVRTC_SUCCESS) {
    free(*image);
    *image = NULL;
    return nvrtc_fail(r, "nvrtcGetCUBIN");
  }
  ga_diskcache_store(key, *image, *size, (uint32_t)*is_ptx);
  return GA_OK;
}
