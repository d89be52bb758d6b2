/* Embedding: several lua_States on several threads, each with its own
 * gpuarray (current device, streams), sharing the process-wide pools and
 * kernel caches.  Each thread computes and checks its own results.
 * Build: make test-embed (links Lua; loads build/gpuarray/core.so). */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4

static const char *script =
  "package.path = 'lua/?.lua;lua/?/init.lua;' .. package.path\n"
  "package.cpath = (os.getenv('GPUARRAY_BUILD') or 'build') .. '/?.so;' .. package.cpath\n"
  "local ga = require 'gpuarray'\n"
  "local id = ...\n"
  "local dts = {'float32', 'float64', 'int32', 'int8', 'float16'}\n"
  "for i = 1, 300 do\n"
  "  local dt = dts[(i + id) % #dts + 1]\n"
  "  local a = ga.arange(64, dt)\n"
  "  local b = (a * 2 + id) - a\n"          /* = a + id */
  "  local t = b:totable()\n"
  "  for k = 1, 64 do\n"
  "    local want = (k - 1) + id\n"
  "    if dt == 'int8' then want = (want + 128) % 256 - 128 end\n"
  "    assert(t[k] == want, ('thread %d %s: b[%d] = %s, want %s'):format(id, dt, k, t[k], want))\n"
  "  end\n"
  "  if i % 50 == 0 then collectgarbage() end\n"
  "end\n"
  "local m = ga.matmul(ga.ones({8, 8}, 'float32'), ga.ones({8, 8}, 'float32'))\n"
  "assert(m:totable()[3][4] == 8)\n"
  "return ga.cuda.is_available() and 'gpu' or 'cpu'\n";

static int failures;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *run(void *arg) {
  int id = (int)(long)arg;
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  int ok = luaL_loadstring(L, script) == LUA_OK;
  if (ok) {
    lua_pushinteger(L, id);
    ok = lua_pcall(L, 1, 1, 0) == LUA_OK;
  }
  pthread_mutex_lock(&lock);
  if (!ok) {
    failures++;
    printf("thread %d failed: %s\n", id, lua_tostring(L, -1));
  } else if (id == 0) {
    printf("ran on %s\n", lua_tostring(L, -1));
  }
  pthread_mutex_unlock(&lock);
  lua_close(L);
  return NULL;
}

int main(void) {
  pthread_t t[NTHREADS];
  for (long i = 0; i < NTHREADS; i++) pthread_create(&t[i], NULL, run, (void *)i);
  for (int i = 0; i < NTHREADS; i++) pthread_join(t[i], NULL);
  printf("%d passed, %d failed\n", NTHREADS - failures, failures);
  return failures != 0;
}
