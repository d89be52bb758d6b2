/* The random draw's plan (core/ga_rand.c): which output dtypes a draw
 * takes and how many stream words it uses (kernels/ga_philox.cuh). */
#ifndef GA_CORE_RAND_H
#define GA_CORE_RAND_H
#include "base/ga_calls.h"
#include <stdint.h>

/* Checks c->dist against c->dtype and sets *words to the stream words the
 * draw of c->n values uses; GA_OK or an error (ga_err) to report. */
int ga_rand_plan(const ga_rand_call *c, int64_t *words);
/* The number of draws (dist is 0 .. ga_rand_ndist() - 1). */
int ga_rand_ndist(void);

#endif
