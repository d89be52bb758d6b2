/* core._range_push(name) / core._range_pop(): the NVTX ranges of
 * ga.profiler.time_range (core/ga_backend.c: the GPU backend's slot, a
 * dlopen'ed NVTX; nothing without it).  push returns whether a range was
 * pushed, so the caller pops only then. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"

static int l_range_push(lua_State *L) {
  lua_pushboolean(L, ga_range_push(luaL_checkstring(L, 1)));
  return 1;
}

static int l_range_pop(lua_State *L) {
  (void)L;
  ga_range_pop();
  return 0;
}

void lga_open_ranges(lua_State *L) {
  lua_pushcfunction(L, l_range_push);
  lua_setfield(L, -2, "_range_push");
  lua_pushcfunction(L, l_range_pop);
  lua_setfield(L, -2, "_range_pop");
}
