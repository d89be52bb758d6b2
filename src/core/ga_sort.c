/* Sorting and searching: the dispatch to the backends (ga_sort.h).  The
 * element keys are in base/ga_sort_key.c. */
#include "core/ga_sort.h"
#include "core/ga_backend.h"

int ga_sort_rows(const ga_sort_call *c) {
  if (c->nrows <= 0 || c->n <= 0) return GA_OK;
  return ga_backend_of(c->device)->sort(c);
}

int ga_searchsorted(const ga_search_call *c) {
  if (c->m <= 0) return GA_OK;
  return ga_backend_of(c->device)->searchsorted(c);
}
