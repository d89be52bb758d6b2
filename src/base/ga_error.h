/* Status codes and the thread-local error message of the core and backends.
 * Core and backend functions return a ga_status and, on failure, leave one
 * message here; the binding (lga_*.c) turns it into a single Lua error
 * prefixed with the Lua function's name. No Lua here. */
#ifndef GA_ERROR_H
#define GA_ERROR_H

typedef enum ga_status {
  GA_OK = 0,
  GA_EINVAL,     /* bad argument: shape, dtype, axis, option... */
  GA_ETYPE,      /* no loop / cast not allowed */
  GA_ENOMEM,     /* allocation failed (device or host) */
  GA_EDEVICE,    /* no such device / mixed devices / no GPU */
  GA_ECUDA,      /* CUDA runtime error */
  GA_ENVRTC,     /* NVRTC compile error (message carries the log) */
  GA_EBLAS,      /* cuBLAS / OpenBLAS error */
  GA_EFREED,     /* array used after :free() */
  GA_EINTERNAL
} ga_status;

/* Set the message (printf-style) and return code, so `return ga_err(...)`. */
int ga_err(int code, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
const char *ga_errmsg(void);
int ga_errcode(void);

#endif
