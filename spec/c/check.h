/* The C unit tests' one check macro: counts passes and failures, prints the
 * failed condition with a formatted explanation. */
#ifndef SPEC_C_CHECK_H
#define SPEC_C_CHECK_H
#include <stdio.h>

static int n_pass, n_fail;

#define CHECK(cond, ...)                                     \
  do {                                                       \
    if (cond) {                                              \
      n_pass++;                                              \
    } else {                                                 \
      n_fail++;                                              \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      printf(__VA_ARGS__);                                   \
      printf("\n");                                          \
    }                                                        \
  } while (0)

#endif
