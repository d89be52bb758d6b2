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
  lga_state *S = lua_touserdata(L, 1);
  if (S) lga_close_allocators(S);
  ga_flush(-1);
  return 0;
}

/* The openers, run in this order on the module table (at the top of the
 * stack): each registers its functions and leaves the stack as it found it.
 * The array comes first (every other part uses its metatable), shape after
 * create (it uses module.host), ops after array (the rows' metamethods and
 * method aliases go into the ndarray's tables). */
void lga_open_linalg(lua_State *L);   /* binding/lga_linalg.c */
static const struct {
  const char *name;
  void (*open)(lua_State *L);
} openers[] = {
  {"array", lga_open_array}, {"create", lga_open_create}, {"shape", lga_open_shape},
  {"transfer", lga_open_transfer}, {"ops", lga_open_ops}, {"device", lga_open_device},
  {"blas", lga_open_blas}, {"kernels", lga_open_kernels}, {"ewk", lga_open_ewk},
  {"redk", lga_open_redk}, {"raw", lga_open_raw}, {"dtype", lga_open_dtype},
  {"join", lga_open_join}, {"index", lga_open_index}, {"advindex", lga_open_advindex},
  {"scan", lga_open_scan}, {"sort", lga_open_sort}, {"reduce", lga_open_reduce},
  {"random", lga_open_random},
  {"curand", lga_open_curand},
  {"ledger", lga_open_ledger},
  {"ranges", lga_open_ranges},
  {"files", lga_open_files},
  {"fft", lga_open_fft},
  {"linalg", lga_open_linalg},
  {"fuse", lga_open_fuse},
  {"dist", lga_open_dist},
  {"cudnn", lga_open_cudnn},
  {"testhooks", lga_open_testhooks},
  {"interop", lga_open_interop},
  {"capi", lga_open_capi},
};

__attribute__((visibility("default"))) int luaopen_gpuarray_core(lua_State *L) {
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

  for (size_t i = 0; i < sizeof openers / sizeof openers[0]; i++) {
    openers[i].open(L);
    if (lua_gettop(L) != mod)   /* a bug in the opener: say which */
      return luaL_error(L, "gpuarray: opener '%s' left %d values on the stack", openers[i].name,
                        lua_gettop(L) - mod);
  }
  return 1;
}
