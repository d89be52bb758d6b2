/* Devices, streams, events and memory pools for Lua.  The Lua side
 * (gpuarray/cuda.lua) wraps these into CuPy's objects with :with/:enter. */
#include "binding/lga_core.h"
#include "cuda/ga_cuda.h"
#include "core/ga_backend.h"
#include <string.h>
#include <time.h>

#define STREAM_MT "gpuarray.Stream"
#define EVENT_MT "gpuarray.Event"

typedef struct lga_stream_ud { int device; void *handle; int owned; } lga_stream_ud;
typedef struct lga_event_ud { int device; void *handle; } lga_event_ud;

static int l_device_count(lua_State *L) { lua_pushinteger(L, ga_cuda_device_count()); return 1; }

static int l_get_device(lua_State *L) { lua_pushinteger(L, LGA_STATE(L)->device); return 1; }

static int l_set_device(lua_State *L) {
  lua_Integer d = luaL_checkinteger(L, 1);
  if (d != GA_CPU && ga_cuda_check_device((int)d)) return lga_fail(L, "cuda.Device");
  LGA_STATE(L)->device = (int)d;
  return 0;
}

static int check_dev(lua_State *L, int idx, const char *fname) {
  lua_Integer d = luaL_checkinteger(L, idx);
  if (ga_cuda_check_device((int)d)) lga_fail(L, fname);
  return (int)d;
}

static int l_device_props(lua_State *L) {
  int d = check_dev(L, 1, "cuda.Device");
  ga_device_props p;
  if (ga_cuda_device_props(d, &p)) return lga_fail(L, "cuda.Device");
  lua_createtable(L, 0, 6);
  lua_pushstring(L, p.name); lua_setfield(L, -2, "name");
  lua_pushinteger(L, p.major); lua_setfield(L, -2, "major");
  lua_pushinteger(L, p.minor); lua_setfield(L, -2, "minor");
  lua_pushinteger(L, p.multiprocessors); lua_setfield(L, -2, "multiprocessors");
  lua_pushinteger(L, (lua_Integer)p.total_mem); lua_setfield(L, -2, "total_memory");
  lua_pushinteger(L, p.max_threads_per_block); lua_setfield(L, -2, "max_threads_per_block");
  return 1;
}

static int l_mem_info(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  int d = check_dev(L, 1, fname);
  size_t f, t;
  if (ga_cuda_mem_info(d, &f, &t)) return lga_fail(L, fname);
  lua_pushinteger(L, (lua_Integer)f);
  lua_pushinteger(L, (lua_Integer)t);
  return 2;
}

static int l_device_sync(lua_State *L) {
  int d = check_dev(L, 1, "synchronize");
  if (ga_cuda_device_synchronize(d)) return lga_fail(L, "synchronize");
  return 0;
}

/* ---- streams ---- */
static lga_stream_ud *check_stream(lua_State *L, int idx) { return luaL_checkudata(L, idx, STREAM_MT); }

static int l_stream_new(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  int dev = (int)luaL_optinteger(L, 2, S->device);
  if (dev == GA_CPU) return lga_errorf(L, "cuda.Stream", "no CUDA device is current");
  lga_stream_ud *s = lua_newuserdatauv(L, sizeof *s, 0);
  s->device = dev;
  s->handle = NULL;
  s->owned = 0;
  luaL_setmetatable(L, STREAM_MT);
  /* arg 1: 0 = the null stream, 1 = a new blocking stream, 2 = non-blocking */
  lua_Integer kind = luaL_checkinteger(L, 1);
  if (kind) {
    if (ga_cuda_stream_create(dev, kind == 2, &s->handle)) return lga_fail(L, "cuda.Stream");
    s->owned = 1;
  }
  return 1;
}

static int l_stream_gc(lua_State *L) {
  lga_stream_ud *s = check_stream(L, 1);
  if (s->owned && s->handle) {
    ga_cuda_stream_destroy(s->device, s->handle);
    s->handle = NULL;
    s->owned = 0;
  }
  return 0;
}

static int l_stream_sync(lua_State *L) {
  lga_stream_ud *s = check_stream(L, 1);
  if (ga_cuda_stream_synchronize(s->device, s->handle)) return lga_fail(L, "Stream.synchronize");
  return 0;
}

static int l_stream_done(lua_State *L) {
  lga_stream_ud *s = check_stream(L, 1);
  int done;
  if (ga_cuda_stream_query(s->device, s->handle, &done)) return lga_fail(L, "Stream.done");
  lua_pushboolean(L, done);
  return 1;
}

static int l_stream_info(lua_State *L) {
  lga_stream_ud *s = check_stream(L, 1);
  lua_pushinteger(L, s->device);
  lua_pushinteger(L, (lua_Integer)(intptr_t)s->handle);
  return 2;
}

/* make the stream current for its device in this lua_State */
static int l_stream_use(lua_State *L) {
  lga_stream_ud *s = check_stream(L, 1);
  if (s->device >= 0 && s->device < LGA_MAX_DEVICES) LGA_STATE(L)->stream[s->device] = s->handle;
  return 0;
}

/* ---- events ---- */
static lga_event_ud *check_event(lua_State *L, int idx) { return luaL_checkudata(L, idx, EVENT_MT); }

static int l_event_new(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  if (S->device == GA_CPU) return lga_errorf(L, "cuda.Event", "no CUDA device is current");
  lga_event_ud *e = lua_newuserdatauv(L, sizeof *e, 0);
  e->device = S->device;
  e->handle = NULL;
  luaL_setmetatable(L, EVENT_MT);
  if (ga_cuda_event_create(e->device, &e->handle)) return lga_fail(L, "cuda.Event");
  return 1;
}

static int l_event_gc(lua_State *L) {
  lga_event_ud *e = check_event(L, 1);
  if (e->handle) ga_cuda_event_destroy(e->device, e->handle);
  e->handle = NULL;
  return 0;
}

static int l_event_record(lua_State *L) {
  lga_event_ud *e = check_event(L, 1);
  void *st = lua_isnoneornil(L, 2) ? lga_stream(LGA_STATE(L), e->device) : check_stream(L, 2)->handle;
  if (ga_cuda_event_record(e->device, e->handle, st)) return lga_fail(L, "Event.record");
  return 0;
}

static int l_event_sync(lua_State *L) {
  lga_event_ud *e = check_event(L, 1);
  if (ga_cuda_event_synchronize(e->device, e->handle)) return lga_fail(L, "Event.synchronize");
  return 0;
}

static int l_elapsed(lua_State *L) {
  lga_event_ud *a = check_event(L, 1), *b = check_event(L, 2);
  float ms;
  if (ga_cuda_event_elapsed(a->handle, b->handle, &ms)) return lga_fail(L, LGA_FNAME(L));
  lua_pushnumber(L, ms);
  return 1;
}

/* ---- pools: device id, or -1 for the host (pinned) pool ---- */
static ga_pool *pool_arg(lua_State *L) {
  lua_Integer d = luaL_checkinteger(L, 1);
  if (d == GA_CPU) return ga_mem_pool(GA_CPU);
  if (ga_cuda_check_device((int)d)) lga_fail(L, "memory pool");
  return ga_cuda_pool((int)d);
}

static int l_pool_stats(lua_State *L) {
  ga_mempool *m = lga_to_mempool(L, 1);   /* a ga.cuda.MemoryPool (lga_interop.c) */
  if (m) {
    size_t used, total, nfree;
    ga_mempool_stats(m, &used, &total, &nfree);
    lua_pushinteger(L, (lua_Integer)used);
    lua_pushinteger(L, (lua_Integer)total);
    lua_pushinteger(L, (lua_Integer)nfree);
    lua_pushinteger(L, (lua_Integer)ga_mempool_get_limit(m));
    return 4;
  }
  ga_pool *p = pool_arg(L);
  lua_pushinteger(L, (lua_Integer)ga_pool_used_bytes(p));
  lua_pushinteger(L, (lua_Integer)ga_pool_total_bytes(p));
  lua_pushinteger(L, (lua_Integer)ga_pool_n_free_blocks(p));
  lua_pushinteger(L, (lua_Integer)ga_pool_get_limit(p));
  return 4;
}

static int l_pool_free_all(lua_State *L) {
  ga_mempool *m = lga_to_mempool(L, 1);
  if (m) { ga_mempool_free_all(m); return 0; }
  ga_pool_free_all_blocks(pool_arg(L));
  return 0;
}

static int l_pool_set_limit(lua_State *L) {
  ga_mempool *m = lga_to_mempool(L, 1);
  ga_pool *p = m ? NULL : pool_arg(L);
  lua_Integer n = luaL_checkinteger(L, 2);
  if (n < 0) return lga_errorf(L, "set_limit", "limit must be non-negative");
  if (m) ga_mempool_set_limit(m, (size_t)n);
  else ga_pool_set_limit(p, (size_t)n);
  return 0;
}

/* core.clock(): monotonic wall time in seconds (benchmarks, examples) */
static int l_clock(lua_State *L) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  lua_pushnumber(L, (lua_Number)t.tv_sec + (lua_Number)t.tv_nsec * 1e-9);
  return 1;
}

static int l_live_bytes(lua_State *L) { lua_pushinteger(L, ga_live_device_bytes()); return 1; }

void lga_open_device(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"device_count", l_device_count}, {"get_device", l_get_device}, {"set_device", l_set_device},
    {"device_props", l_device_props}, {"mem_info", l_mem_info}, {"device_synchronize", l_device_sync},
    {"stream_new", l_stream_new}, {"stream_use", l_stream_use}, {"event_new", l_event_new},
    {"get_elapsed_time", l_elapsed}, {"event_record", l_event_record}, {"pool_stats", l_pool_stats}, {"pool_free_all", l_pool_free_all},
    {"pool_set_limit", l_pool_set_limit}, {"live_device_bytes", l_live_bytes}, {"clock", l_clock}, {NULL, NULL}};
  lga_setfuncs(L, fns, -1);
  static const luaL_Reg smeth[] = {
    {"synchronize", l_stream_sync}, {"done", l_stream_done}, {"_info", l_stream_info}, {NULL, NULL}};
  static const luaL_Reg emeth[] = {{"synchronize", l_event_sync}, {NULL, NULL}};
  luaL_newmetatable(L, STREAM_MT);
  lua_pushcfunction(L, l_stream_gc);
  lua_setfield(L, -2, "__gc");
  lua_newtable(L);
  luaL_setfuncs(L, smeth, 0);
  lua_setfield(L, -2, "__index");
  lua_setfield(L, -2, "stream_mt");   /* module.stream_mt */
  luaL_newmetatable(L, EVENT_MT);
  lua_pushcfunction(L, l_event_gc);
  lua_setfield(L, -2, "__gc");
  lua_newtable(L);
  luaL_setfuncs(L, emeth, 0);
  lua_setfield(L, -2, "__index");
  lua_setfield(L, -2, "event_mt");
}
