/* The reduction table as data (ga_reduce.def) and its dtype rules: rows
 * that the core pipelines and both backends read. */
#include "base/ga_calls.h"
#include <string.h>

#define GA_X_BIT(ID, ct, ...) | (1u << GA_##ID)
#define RED_STR(...) #__VA_ARGS__
const ga_red_op ga_red_ops[GA_NREDS] = {
#define GA_RED(ID, name, tset, rule, flags, ident, map, red, post)                       \
  {GA_RED_##ID, name, 0u tset(GA_X_BIT, ~), GA_RULE_##rule, flags, RED_STR(ident), RED_STR(map), \
   RED_STR(red), RED_STR(post)},
#include "base/ga_reduce.def"
#undef GA_RED
};

const ga_red_op *ga_red_find(const char *name) {
  for (int i = 0; i < GA_NREDS; i++)
    if (strcmp(ga_red_ops[i].name, name) == 0) return &ga_red_ops[i];
  return NULL;
}

/* the rule tokens of ga_reduce.h as tables: [T] -> dtype */
#define R_ROW(T, sumacc, sumout, halfup, meanacc, meanout) \
  [GA_##T] = {GA_##sumacc, GA_##sumout, GA_##halfup, GA_##meanacc, GA_##meanout},
enum { R_SUMACC, R_SUMOUT, R_HALFUP, R_MEANACC, R_MEANOUT };
static const signed char rule_dt[GA_NDTYPES][5] = {GA_REDRULE_TOKENS(R_ROW)};

int ga_red_acc_dtype(const ga_red_op *r, int T) {
  switch (r->rule) {
  case GA_RULE_SUM: return rule_dt[T][R_SUMACC];
  case GA_RULE_BOOL: return GA_BOOL;
  case GA_RULE_COUNT: return GA_INT64;
  case GA_RULE_MEAN: return rule_dt[T][R_MEANACC];
  default: return rule_dt[T][R_HALFUP];   /* SAME, ARG */
  }
}

int ga_red_out_dtype(const ga_red_op *r, int T) {
  switch (r->rule) {
  case GA_RULE_SUM: return rule_dt[T][R_SUMOUT];
  case GA_RULE_BOOL: return GA_BOOL;
  case GA_RULE_COUNT: case GA_RULE_ARG: return GA_INT64;
  case GA_RULE_MEAN: return rule_dt[T][R_MEANOUT];
  default: return T;
  }
}
