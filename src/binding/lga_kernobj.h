/* What the user-kernel objects (ElementwiseKernel, ReductionKernel,
 * RawModule/RawKernel) share in the binding: their class (metatable from
 * luaL_Reg rows), the compile-only path's virtual arrays and :compile's
 * results. */
#ifndef LGA_KERNOBJ_H
#define LGA_KERNOBJ_H
#include "binding/lga_core.h"

/* A userdata class in liolib's style: the metatable tname from the rows of
 * `meta` (metamethods), and __index looking up `methods` first, then
 * calling attrs(self, key) (NULL: none) for the object's attributes.
 * Every function gets lga_setfuncs's upvalues from module mod (state,
 * host = false, its name).  Leaves the metatable on the stack. */
void lga_newclass(lua_State *L, int mod, const char *tname, const luaL_Reg *meta, const luaL_Reg *methods,
                  lua_CFunction attrs);

/* A virtual array for :source/:compile: on "cuda:0" at a fixed address,
 * never read or written; C strides, or Fortran's when `fortran`.  A shape
 * whose bytes do not fit is an error naming fname. */
void lga_virtual_array(lua_State *L, const char *fname, ga_array *v, int dtype, int ndim, const int64_t *shape,
                       bool fortran);

/* NVRTC-compile a kernel's source for :compile without a GPU (extra:
 * compiler options).  Success pushes the image's bytes and whether it is
 * PTX and returns 2; failure returns -1 with the thread's error set, for
 * the caller to raise (with the source, for a compile error). */
int lga_kernel_compile(lua_State *L, const char *src, const char *name, int arch, const char *const *extra,
                       int nextra);

#endif
