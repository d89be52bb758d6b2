/* A growable string for generating kernel source.  No Lua, no CUDA. */
#ifndef GA_STRBUF_H
#define GA_STRBUF_H
#include <stddef.h>

typedef struct ga_strbuf { char *s; size_t len, cap; int oom; } ga_strbuf;

void ga_sb_init(ga_strbuf *b);
void ga_sb_printf(ga_strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
void ga_sb_puts(ga_strbuf *b, const char *s);
/* Take the string (malloc'ed; NULL if any append ran out of memory). */
char *ga_sb_take(ga_strbuf *b);

#endif
