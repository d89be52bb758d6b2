/* tools/rng_sass: compile one CUDA source file with NVRTC (the backend's
 * options: --gpu-architecture=sm_90 --std=c++17 -default-device) into a
 * cubin, for cuobjdump -sass / -res-usage.  No GPU needed.
 *   cc -O1 -o /tmp/nvrtc_cubin nvrtc_cubin.c -I/usr/local/cuda/include \
 *      -L/usr/local/cuda/lib64 -lnvrtc
 *   /tmp/nvrtc_cubin in.cu out.cubin [extra options...] */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s in.cu out.cubin [opts]\n", argv[0]); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *src = malloc((size_t)n + 1);
  if (!src || fread(src, 1, (size_t)n, f) != (size_t)n) return 1;
  src[n] = 0;
  fclose(f);
  nvrtcProgram p;
  if (nvrtcCreateProgram(&p, src, argv[1], 0, NULL, NULL) != NVRTC_SUCCESS) return 1;
  const char *opts[32] = {"--gpu-architecture=sm_90", "--std=c++17", "-default-device"};
  int no = 3;
  for (int i = 3; i < argc && no < 32; i++) opts[no++] = argv[i];
  nvrtcResult r = nvrtcCompileProgram(p, no, opts);
  size_t ls;
  nvrtcGetProgramLogSize(p, &ls);
  if (ls > 1) {
    char *log = malloc(ls);
    nvrtcGetProgramLog(p, log);
    fprintf(stderr, "%s\n", log);
    free(log);
  }
  if (r != NVRTC_SUCCESS) return 1;
  size_t cs;
  nvrtcGetCUBINSize(p, &cs);
  char *cubin = malloc(cs);
  nvrtcGetCUBIN(p, cubin);
  FILE *o = fopen(argv[2], "wb");
  if (!o || fwrite(cubin, 1, cs, o) != cs) return 1;
  fclose(o);
  return 0;
}
