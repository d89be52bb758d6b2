/* Sorting and searching: the dispatch to the backends (ga_sort.h).  The
 * element keys are in ga_host_sort.c, which the host's C unit tests link
 * on its own. */
#include "core/ga_sort.h"

int ga_sort_rows(const ga_sort_call *c) {
  if (c->nrows <= 0 || c->n <= 0) return GA_OK;
  return c->device == GA_CPU ? ga_host_sort(c) : ga_cuda_sort(c);
}

int ga_searchsorted(const ga_search_call *c) {
  if (c->m <= 0) return GA_OK;
  return c->device == GA_CPU ? ga_host_searchsorted(c) : ga_cuda_searchsorted(c);
}
