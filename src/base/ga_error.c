/* Thread-local error message: each Lua state may run on its own thread. */
#include "base/ga_error.h"
#include <stdarg.h>
#include <stdio.h>

static __thread char msg[8192];
static __thread int last_code;

int ga_err(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  last_code = code;
  return code;
}

const char *ga_errmsg(void) { return msg; }
int ga_errcode(void) { return last_code; }
