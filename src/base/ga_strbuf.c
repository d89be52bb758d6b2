/* Growable string; an allocation failure is remembered and reported once
 * by ga_sb_take returning NULL. */
#include "base/ga_strbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ga_sb_init(ga_strbuf *b) { b->s = NULL; b->len = b->cap = 0; b->oom = 0; }

static int grow(ga_strbuf *b, size_t need) {
  if (b->oom) return 0;
  if (b->len + need + 1 <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->len + need + 1) cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s) { b->oom = 1; return 0; }
  b->s = s;
  b->cap = cap;
  return 1;
}

void ga_sb_printf(ga_strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !grow(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void ga_sb_puts(ga_strbuf *b, const char *s) {
  size_t n = strlen(s);
  if (!grow(b, n)) return;
  memcpy(b->s + b->len, s, n + 1);
  b->len += n;
}

char *ga_sb_take(ga_strbuf *b) {
  if (b->oom) { free(b->s); return NULL; }
  if (!b->s) { grow(b, 0); if (b->s) b->s[0] = 0; }
  return b->s;
}
