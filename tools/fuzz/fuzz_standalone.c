/* A driver for the libFuzzer harnesses where clang's libFuzzer is missing
 * (gcc + ASan/UBSan): runs every seed file given on the command line, then
 * random mutations of them (byte flips, truncations, insertions, splices
 * of 1-8 bytes) for FUZZ_SECONDS (default 10) with seed SEED (default:
 * the time), printing the seed so that a crash can be replayed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static uint64_t rng;
static uint64_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

int main(int argc, char **argv) {
  const char *s = getenv("SEED"), *t = getenv("FUZZ_SECONDS");
  rng = s && *s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL);
  if (!rng) rng = 1;
  double secs = t && *t ? atof(t) : 10;
  printf("fuzz_standalone: seed %llu, %g s\n", (unsigned long long)rng, secs);
  fflush(stdout);
  unsigned char *seeds[256];
  size_t lens[256];
  int n = 0;
  for (int i = 1; i < argc && n < 256; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) continue;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    if (len < 0 || len > (1 << 24)) { fclose(f); continue; }
    seeds[n] = malloc((size_t)len + 1);
    lens[n] = fread(seeds[n], 1, (size_t)len, f);
    fclose(f);
    LLVMFuzzerTestOneInput(seeds[n], lens[n]);
    n++;
  }
  if (n == 0) {
    seeds[0] = (unsigned char *)strdup("\x93NUMPY");
    lens[0] = 6;
    n = 1;
  }
  clock_t end = clock() + (clock_t)(secs * CLOCKS_PER_SEC);
  unsigned long runs = 0;
  unsigned char *buf = malloc((1 << 24) + 64);
  while (clock() < end) {
    int k = (int)(next() % (uint64_t)n);
    size_t len = lens[k];
    memcpy(buf, seeds[k], len);
    int muts = 1 + (int)(next() % 8);
    for (int m = 0; m < muts; m++) {
      switch (next() % 5) {
      case 0: if (len) buf[next() % len] ^= (unsigned char)(1u << (next() % 8)); break;
      case 1: if (len) buf[next() % len] = (unsigned char)next(); break;
      case 2: if (len) len = next() % len; break;
      case 3: if (len < (1 << 24)) { size_t at = len ? next() % len : 0; memmove(buf + at + 1, buf + at, len - at); buf[at] = (unsigned char)next(); len++; } break;
      default: if (len >= 8) { size_t a = next() % (len - 4); uint32_t v = (uint32_t)next(); if (next() % 2) v = 0xffffffffu; memcpy(buf + a, &v, 4); } break;
      }
    }
    LLVMFuzzerTestOneInput(buf, len);
    runs++;
  }
  printf("fuzz_standalone: %lu runs, no crash\n", runs);
  free(buf);
  for (int i = 0; i < n; i++) free(seeds[i]);
  return 0;
}
