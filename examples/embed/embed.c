/* Embedding gpuarray in a C program through its C API (include/gpuarray.h).
 *
 *  1. host Lua 5.4 and load gpuarray;
 *  2. allocate a buffer ourselves (cudaMalloc on a GPU, malloc without
 *     one) and hand it to a Lua script as an array, without a copy;
 *  3. the script transforms it in place and makes a new array;
 *  4. read the results back through the C API (a view, and DLPack);
 *  5. install our own allocator that counts bytes;
 *  6. a second lua_State on another thread shares the same buffer
 *     read-only.
 *
 * Build: make examples (build/embed); run from the repository root:
 *   GPUARRAY_BUILD=build build/embed
 * Prints "embed: ok" and exits 0 when every check passes. */
#include <cuda_runtime_api.h>
#include <lauxlib.h>
#include <lualib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuarray.h"

#define N 1024

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                                             printf(__VA_ARGS__); printf("\n"); } } while (0)

/* ---- a Lua state with gpuarray loaded ---- */
static lua_State *new_state(const gpuarray_api **api) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  const char *boot =
    "package.path = 'lua/?.lua;lua/?/init.lua;' .. package.path\n"
    "package.cpath = (os.getenv('GPUARRAY_BUILD') or 'build') .. '/?.so;' .. package.cpath\n"
    "ga = require 'gpuarray'\n";
  if (luaL_dostring(L, boot) != LUA_OK) {
    fprintf(stderr, "embed: cannot load gpuarray: %s\n", lua_tostring(L, -1));
    exit(1);
  }
  *api = gpuarray_get_api(L);
  if (!*api) {
    fprintf(stderr, "embed: gpuarray has no C API version %d\n", GPUARRAY_API_VERSION);
    exit(1);
  }
  return L;
}

static int run(lua_State *L, const char *code) {
  if (luaL_dostring(L, code) != LUA_OK) {
    printf("FAIL: script error: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    failures++;
    return 1;
  }
  return 0;
}

/* ---- the host's buffer: device memory when gpuarray runs on a GPU ---- */
static int released;   /* our release callback ran (once) */
static void release_buffer(void *ctx, void *data) {
  (void)data;
  released++;
  *(int *)ctx += 1;
}

static void *host_alloc(int device, size_t n) {
  void *p = NULL;
  if (device >= 0) {
    if (cudaSetDevice(device) != cudaSuccess || cudaMalloc(&p, n) != cudaSuccess) return NULL;
  } else {
    p = malloc(n ? n : 1);
  }
  return p;
}

static void host_free(int device, void *p) {
  if (device >= 0) cudaFree(p);
  else free(p);
}

static void to_host(int device, void *dst, const void *src, size_t n, void *stream) {
  if (device >= 0) {
    cudaStreamSynchronize((cudaStream_t)stream);   /* the state's work on it is done */
    cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost);
  } else {
    memcpy(dst, src, n);
  }
}

/* ---- our allocator: counts the bytes it hands out and gets back ---- */
typedef struct counter { size_t allocated, freed; int live; } counter;

static int count_alloc(void *ctx, size_t nbytes, int device, void *stream, void **ptr) {
  (void)stream;
  counter *c = ctx;
  *ptr = host_alloc(device, nbytes);
  if (!*ptr) return 1;
  c->allocated += nbytes;
  c->live++;
  return 0;
}

static void count_free(void *ctx, void *ptr, size_t nbytes, int device, void *stream) {
  (void)stream;
  counter *c = ctx;
  host_free(device, ptr);
  c->freed += nbytes;
  c->live--;
}

/* ---- the second state: reads the shared buffer on its own thread ---- */
typedef struct reader { void *data; int device; double sum; int ok; } reader;

static void *read_shared(void *arg) {
  reader *r = arg;
  const gpuarray_api *api;
  lua_State *L = new_state(&api);
  api->set_device(L, r->device);
  int64_t shape[1] = {N};
  /* no release callback: the main thread owns and frees the buffer; this
   * state may only read it (a write raises "... is read-only") */
  if (api->push_wrap_readonly(L, r->data, r->device, api->dtype_from_name("float32"), 1, shape, NULL, NULL,
                              NULL)) {
    printf("FAIL reader: %s\n", api->last_error());
  } else {
    if (api->writeable(L, -1) != 0) printf("FAIL reader: the shared array is writeable\n");
    lua_setglobal(L, "shared");
    if (luaL_dostring(L, "assert(not shared.flags.writeable and not shared[{{1, 4}}].flags.writeable)\n"
                         "local ok, e = pcall(function() shared:fill(0) end)\n"
                         "assert(not ok and e:find('read-only', 1, true), e)\n"
                         "return shared:sum():item()") == LUA_OK) {
      r->sum = lua_tonumber(L, -1);
      r->ok = 1;
    } else {
      printf("FAIL reader: %s\n", lua_tostring(L, -1));
    }
  }
  lua_close(L);
  return NULL;
}

int main(void) {
  const gpuarray_api *api;
  lua_State *L = new_state(&api);
  int device = api->get_device(L);   /* cuda:0 with a GPU, the host (-1) without */
  printf("embed: gpuarray C API %d on %s\n", api->version, device >= 0 ? "a GPU" : "the host");

  /* 2. our buffer, N float32 values 0..N-1, as the global `buf` */
  size_t nbytes = N * sizeof(float);
  float *host = malloc(nbytes);
  for (int i = 0; i < N; i++) host[i] = (float)i;
  void *buf = host_alloc(device, nbytes);
  CHECK(buf, "cannot allocate the buffer");
  if (device >= 0) cudaMemcpy(buf, host, nbytes, cudaMemcpyHostToDevice);
  else memcpy(buf, host, nbytes);
  int release_count = 0;
  int64_t shape[2] = {32, 32};
  int rc = api->push_wrap(L, buf, device, api->dtype_from_name("float32"), 2, shape, NULL, release_buffer,
                          &release_count);
  CHECK(rc == 0, "push_wrap: %s", api->last_error());
  lua_setglobal(L, "buf");

  /* 3. the script doubles buf in place (no copy: it is our memory) and
   * makes a new array from it */
  run(L, "assert(buf.dtype == 'float32' and buf.shape[1] == 32)\n"
         "ga.multiply(buf, 2, {out = buf})\n"
         "result = ga.sqrt(buf[{{}, {1, 4}}])   -- a new array, 32x4\n");

  /* 4. read back: our buffer through a view, the result through a view
   * and through DLPack */
  lua_getglobal(L, "buf");
  gpuarray_view v;
  rc = api->get_view(L, -1, &v);
  lua_pop(L, 1);
  CHECK(rc == 0 && v.data == buf && v.ndim == 2 && v.c_contiguous && !strcmp(v.dtype_name, "float32"),
        "the view of buf is not our buffer");
  to_host(device, host, buf, nbytes, api->get_stream(L));
  CHECK(host[0] == 0.0f && host[5] == 10.0f && host[N - 1] == 2.0f * (N - 1), "buf was not doubled in place");
  api->release_view(L, &v);

  lua_getglobal(L, "result");
  rc = api->get_view(L, -1, &v);
  lua_pop(L, 1);
  CHECK(rc == 0 && v.ndim == 2 && v.shape[0] == 32 && v.shape[1] == 4 && v.strides[1] == 4, "result's view");
  float r[4];
  to_host(v.device, r, v.data, sizeof r, api->get_stream(L));
  CHECK(r[2] == 2.0f, "sqrt(2 * 2) = %g", r[2]);
  api->release_view(L, &v);

  lua_getglobal(L, "result");
  DLManagedTensorVersioned *t = NULL;
  rc = api->to_dlpack(L, -1, &t);
  lua_pop(L, 1);
  CHECK(rc == 0 && t->version.major == 1 && t->dl_tensor.ndim == 2 && t->dl_tensor.dtype.code == kDLFloat &&
        t->dl_tensor.device.device_type == (device >= 0 ? kDLCUDA : kDLCPU), "to_dlpack");
  /* back into the state as a new array (zero-copy): its deleter runs once
   * the array is collected */
  rc = api->push_dlpack(L, t);
  CHECK(rc == 0, "push_dlpack: %s", api->last_error());
  lua_setglobal(L, "again");
  run(L, "assert(again.shape[2] == 4 and again.data_ptr == result.data_ptr)");

  /* 5. our allocator serves the state's new arrays */
  counter c = {0, 0, 0};
  rc = api->set_allocator(L, count_alloc, count_free, &c);
  CHECK(rc == 0, "set_allocator: %s", api->last_error());
  run(L, "local x = ga.arange(1000, 'float64')\n"   /* 8000 bytes */
         "local y = (x + 1):sum()\n"                 /* 8000 + 8 */
         "assert(y:item() == 500500)\n");
  CHECK(c.allocated >= 16008, "our allocator served %zu bytes", c.allocated);
  rc = api->set_allocator(L, NULL, NULL, NULL);   /* back to the default pool */
  CHECK(rc == 0, "set_allocator(NULL)");
  lua_gc(L, LUA_GCCOLLECT);
  CHECK(c.live == 0 && c.freed == c.allocated, "freed %zu of %zu bytes (%d live)", c.freed, c.allocated, c.live);
  gpuarray_pool_stats ps;
  CHECK(api->pool_stats(device, &ps) == 0, "pool_stats");
  printf("embed: our allocator served %zu bytes; the default pool holds %zu (%zu in use)\n", c.allocated,
         ps.total_bytes, ps.used_bytes);

  /* 6. a second state on another thread reads the same buffer */
  reader rd = {buf, device, 0, 0};
  pthread_t th;
  pthread_create(&th, NULL, read_shared, &rd);
  pthread_join(th, NULL);
  CHECK(rd.ok && rd.sum == (double)N * (N - 1), "the reader's sum %g", rd.sum);

  /* dropping the script's references releases our buffer exactly once */
  run(L, "buf = nil; result = nil; again = nil");
  lua_gc(L, LUA_GCCOLLECT);
  CHECK(release_count == 1, "release callback ran %d times", release_count);
  lua_close(L);
  CHECK(released == 1, "release callback ran %d times in all", released);
  host_free(device, buf);
  free(host);
  printf(failures ? "embed: %d FAILED\n" : "embed: ok\n", failures);
  return failures != 0;
}
