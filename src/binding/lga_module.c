/* luaopen_gpuarray_core: the C half of the module.  Creates the per-state
 * lga_state, picks the default device (GPUARRAY_DEVICE, else cuda:0 when a
 * GPU is usable, else cpu), and registers every binding.  Nothing here
 * touches cuBLAS/cuFFT/cuRAND: they start on first use. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "base/ga_dtype.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int default_device(lua_State *L) {
  const char *env = getenv("GPUARRAY_DEVICE");
  if (env && *env) {
    if (!strcmp(env, "cpu")) return GA_CPU;
    int d;
    char extra;
    if (sscanf(env, "cuda:%d%c", &d, &extra) == 1) {
      if (ga_check_device(d)) luaL_error(L, "gpuarray: GPUARRAY_DEVICE=%s: %s", env, ga_errmsg());
      return d;
    }
    luaL_error(L, "gpuarray: GPUARRAY_DEVICE must be 'cpu' or 'cuda:N', got '%s'", env);
  }
  return ga_device_count() > 0 ? 0 : GA_CPU;
}

/* Closing the state launches what is still queued (it would otherwise
 * never run, e.g. a script that ends without reading its results). */
static int state_gc(lua_State *L) {
  (void)L;
  ga_flush(-1);
  return 0;
}

int luaopen_gpuarray_core(lua_State *L) {
  lua_newtable(L);
  int mod = lua_gettop(L);
  lga_state *S = lua_newuserdatauv(L, sizeof *S, 0);
  memset(S, 0, sizeof *S);
  S->device = default_device(L);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, state_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_setfield(L, mod, "_state");   /* referenced by every closure */

  lua_newtable(L);
  for (int i = 0; i < GA_NDTYPES; i++) {
    lua_pushstring(L, ga_dtypes[i].name);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, mod, "dtypes");

  lga_open_array(L);
  lga_open_create(L);
  lga_open_shape(L);
  lga_open_transfer(L);
  lga_open_ops(L);
  lga_open_device(L);
  lga_open_blas(L);
  lga_open_kernels(L);
  lga_open_ewk(L);
  lga_open_redk(L);
  lga_open_raw(L);
  lga_open_dtype(L);
  lga_open_join(L);
  lga_open_index(L);
  lga_open_advindex(L);
  lga_open_scan(L);
  lga_open_sort(L);
  lga_open_reduce(L);
  lga_open_testhooks(L);
  lua_settop(L, mod);
  return 1;
}
