/* The user-kernel objects' shared binding: class, virtual arrays, compile. */
#include "binding/lga_kernobj.h"
#include "core/ga_backend.h"
#include "base/ga_shape.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* __index: upvalue 1 the methods table, upvalue 2 the attributes function
 * (or false) */
static int class_index(lua_State *L) {
  lua_settop(L, 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  lua_CFunction attrs = lua_tocfunction(L, lua_upvalueindex(2));
  return attrs ? attrs(L) : 0;
}

void lga_newclass(lua_State *L, int mod, const char *tname, const luaL_Reg *meta, const luaL_Reg *methods,
                  lua_CFunction attrs) {
  mod = lua_absindex(L, mod);
  luaL_newmetatable(L, tname);
  int mt = lua_gettop(L);
  lga_setfuncs_host(L, meta, mod, mt, 0);
  lua_newtable(L);
  if (methods) lga_setfuncs_host(L, methods, mod, -1, 0);
  if (attrs) lua_pushcfunction(L, attrs);
  else lua_pushboolean(L, 0);
  lua_pushcclosure(L, class_index, 2);
  lua_setfield(L, mt, "__index");
}

/* where virtual arrays live: a buffer on device 0 that is never touched */
static ga_buffer virtual_buf = {1, 0, (void *)(uintptr_t)65536, (size_t)1 << 40, NULL, NULL, NULL, NULL, NULL, 0};

void lga_virtual_array(lua_State *L, const char *fname, ga_array *v, int dtype, int ndim, const int64_t *shape,
                       bool fortran) {
  memset(v, 0, sizeof *v);
  v->buf = &virtual_buf;
  v->dtype = dtype;
  v->ndim = ndim;
  memcpy(v->shape, shape, sizeof(int64_t) * ndim);
  /* the shape's bytes must fit for this dtype, as for a real array */
  if (ga_shape_size(ndim, shape, GA_ITEMSIZE(dtype), &v->size)) lga_fail(L, fname);
  if (fortran) ga_strides_f(ndim, shape, GA_ITEMSIZE(dtype), v->strides);
  else ga_strides_c(ndim, shape, GA_ITEMSIZE(dtype), v->strides);
}

int lga_kernel_compile(lua_State *L, const char *src, const char *name, int arch, const char *const *extra,
                       int nextra) {
  char *image;
  size_t size;
  int is_ptx;
  if (ga_compile(src, name, arch, extra, nextra, &image, &size, &is_ptx)) return -1;
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  lua_pushboolean(L, is_ptx);
  return 2;
}
