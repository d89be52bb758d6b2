/* Argument helpers shared by the user-kernel bindings (ElementwiseKernel,
 * ReductionKernel): their text arguments and their call operands. */
#ifndef LGA_KERNARG_H
#define LGA_KERNARG_H
#include "binding/lga_core.h"
#include "core/ga_ewk.h"

/* A string argument at idx (nil: dflt, or an error when dflt is NULL; a
 * number too where `numbers`), stored in the table at `texts` under `key`
 * so that it stays valid while the kernel lives.  Errors name `ctor`. */
const char *lga_kernel_text(lua_State *L, const char *ctor, int idx, int texts, const char *key,
                            const char *dflt, bool numbers);
/* The constructor option `math` of the table at opts (0: none): false/nil
 * 0, true 1 (gpuarray's math library: ga_exp, ga_sin ... in the source),
 * "complex" 2 (with its complex functions). */
int lga_kernel_math_option(lua_State *L, const char *ctor, int opts);
/* Stack argument idx, the kernel's argument a (parameter list k), as an
 * operand; arrays must be on the current device unless S is NULL (compile
 * only).  Errors name `fname`. */
void lga_kernel_operand(lua_State *L, lga_state *S, const ga_ewk *k, const char *fname, int idx, int a,
                        ga_ewk_operand *o);

/* The integer option `key` (the value at idx) of a kernel's :source or
 * :compile, in [lo, hi] (a float with an integral value counts); else an
 * error naming the method ("ElementwiseKernel 'k':source: arch must be an
 * integer (e.g. 90), got 1.5").  `kernel` is the kernel's own name for
 * messages, `method` "source" or "compile". */
lua_Integer lga_kernel_int_option(lua_State *L, int idx, const char *kernel, const char *method, const char *key,
                                  lua_Integer lo, lua_Integer hi, const char *example);
/* The arch option (a compute capability from 30 to 1000) as above. */
int lga_kernel_arch(lua_State *L, int idx, const char *kernel, const char *method);

#endif
