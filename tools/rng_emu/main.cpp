// tools/rng_emu driver: runs ga_rand (the generated source, included
// before this file as kernel.cu) for one draw and prints its values (%a).
//   main N OFF MISALIGN GRID K0 K1 S P0 P1
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  if (argc < 10) return 2;
  long long n = atoll(argv[1]);
  unsigned long long off = strtoull(argv[2], 0, 10);
  int mis = atoi(argv[3]);
  unsigned grid = (unsigned)atoi(argv[4]);
  ga_rng_args a;
  memset(&a, 0, sizeof a);
  a.k0 = (unsigned)strtoul(argv[5], 0, 10);
  a.k1 = (unsigned)strtoul(argv[6], 0, 10);
  a.s = (unsigned)strtoul(argv[7], 0, 10);
  a.p0 = atof(argv[8]);
  a.p1 = atof(argv[9]);
  ga_rng_keys K = ga_rng_keys_of(a.k0, a.k1);
  GA_RNG_OUT *buf = (GA_RNG_OUT *)aligned_alloc(64, (size_t)(n + 8) * sizeof(GA_RNG_OUT)), *out = buf + mis;
  gridDim.x = grid;
  blockDim.x = 1;
  threadIdx.x = 0;
  for (unsigned b = 0; b < grid; b++) {
    blockIdx.x = b;
    ga_rand(out, n, off, a, K);
  }
  for (long long i = 0; i < n; i++) printf("%a\n", (double)out[i]);
  free(buf);
  return 0;
}
