/* Host reductions (being written). */
#include "ga_reduce.h"
int ga_host_reduce(const ga_red_call *c) { (void)c; return ga_err(GA_EINTERNAL, "host reductions: not yet built"); }
