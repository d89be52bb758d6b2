/* Included (after the other includes, where the pragmas below take effect)
 * by the host files that compile the op and reduction rows once for every
 * T: ga_host_loops.c, ga_host_reduce.c, ga_host_scan.c.  One float
 * semantics for all of them: no FMA contraction (the reference must give
 * the same bits on every CPU; NumPy's loops do not contract either), and
 * complex * and / by the plain formulas without C's Annex G infinity
 * recovery (NumPy's results: inf * 1 = inf+nanj).  And quiet about what
 * writing a row once for every T means: bool * bool (logical and) and
 * x < 0 on unsigned types are intended, not slips. */
#ifndef GA_HOST_ROWS_H
#define GA_HOST_ROWS_H

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off", "cx-fortran-rules")
#endif
#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wbool-operation"

#endif
