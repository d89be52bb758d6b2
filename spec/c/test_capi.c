/* The edges of the C API (include/gpuarray.h), on host memory (every
 * machine): the API before the module is loaded, views and their
 * references, errors instead of Lua errors, wraps with strides and their
 * release callback, copies, DLPack both ways with deleter counts (a
 * tensor we make by hand, one the module makes), devices, streams, the
 * allocator, pool statistics.  Built with ASan+UBSan by make test-capi. */
#include <dlfcn.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuarray.h"

static int failures, checks;
#define CHECK(cond, ...) do { checks++; if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                                                      printf(__VA_ARGS__); printf("\n"); } } while (0)

static int run(lua_State *L, const char *code) {
  if (luaL_dostring(L, code) != LUA_OK) {
    printf("FAIL: %s\n", lua_tostring(L, -1));
    failures++;
    lua_pop(L, 1);
    return 1;
  }
  return 0;
}

static int releases;
static void count_release(void *ctx, void *data) {
  (void)ctx;
  (void)data;
  releases++;
}

/* a DLPack tensor made by hand over host memory, with a counting deleter */
static int deletes;
typedef struct mine { DLManagedTensorVersioned m; int64_t shape[2], strides[2]; double data[6]; } mine;
static void mine_delete(DLManagedTensorVersioned *self) {
  deletes++;
  free(self->manager_ctx);
}
static DLManagedTensorVersioned *make_tensor(uint8_t code, uint8_t bits) {
  mine *t = calloc(1, sizeof *t);
  for (int i = 0; i < 6; i++) t->data[i] = i;
  t->shape[0] = 3, t->shape[1] = 2;
  t->strides[0] = 1, t->strides[1] = 3;   /* column-major: element (i, j) is data[i + 3j] */
  t->m.version.major = 1;
  t->m.manager_ctx = t;
  t->m.deleter = mine_delete;
  t->m.dl_tensor.data = t->data;
  t->m.dl_tensor.device.device_type = kDLCPU;
  t->m.dl_tensor.ndim = 2;
  t->m.dl_tensor.dtype.code = code;
  t->m.dl_tensor.dtype.bits = bits;
  t->m.dl_tensor.dtype.lanes = 1;
  t->m.dl_tensor.shape = t->shape;
  t->m.dl_tensor.strides = t->strides;
  return &t->m;
}

static double get_number(lua_State *L, const char *expr) {
  char code[256];
  snprintf(code, sizeof code, "return %s", expr);
  if (luaL_dostring(L, code) != LUA_OK) {
    printf("FAIL: %s: %s\n", expr, lua_tostring(L, -1));
    failures++;
    lua_pop(L, 1);
    return -1e300;
  }
  double v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

static int alloc_calls, free_calls;
static int my_alloc(void *ctx, size_t n, int device, void *stream, void **p) {
  (void)ctx; (void)device; (void)stream;
  alloc_calls++;
  *p = malloc(n ? n : 1);
  return *p == NULL;
}
static void my_free(void *ctx, void *p, size_t n, int device, void *stream) {
  (void)ctx; (void)n; (void)device; (void)stream;
  free_calls++;
  free(p);
}
static int failing_alloc(void *ctx, size_t n, int device, void *stream, void **p) {
  (void)ctx; (void)n; (void)device; (void)stream; (void)p;
  return 1;
}

int main(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  CHECK(gpuarray_get_api(L) == NULL, "no API before the module is loaded");
  run(L, "package.path = 'lua/?.lua;lua/?/init.lua;' .. package.path\n"
         "package.cpath = (os.getenv('GPUARRAY_BUILD') or 'build') .. '/?.so;' .. package.cpath\n"
         "ga = require 'gpuarray'\n");
  const gpuarray_api *api = gpuarray_get_api(L);
  CHECK(api && api->version == GPUARRAY_API_VERSION, "the API table");
  if (!api) return 1;
  {   /* the exported accessor gives the same table (the module is loaded: RTLD_NOLOAD finds it) */
    const char *b = getenv("GPUARRAY_BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/gpuarray/core.so", b ? b : "build");
    void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    gpuarray_capi_fn f = h ? (gpuarray_capi_fn)dlsym(h, "gpuarray_capi") : NULL;
    CHECK(f && f() == api, "dlsym(gpuarray_capi) gives the registry's table");
    if (h) dlclose(h);
  }
  int f64 = api->dtype_from_name("float64"), i32 = api->dtype_from_name("i4");
  CHECK(f64 >= 0 && i32 >= 0 && !strcmp(api->dtype_name(f64), "float64") && api->dtype_from_name("nope") < 0 &&
        api->dtype_name(99) == NULL, "dtype names");
  int prev = api->get_device(L);
  CHECK(api->set_device(L, GPUARRAY_CPU) == 0 && api->get_device(L) == GPUARRAY_CPU, "set_device(cpu)");
  CHECK(api->set_device(L, 999) != 0 && strstr(api->last_error(), "999"), "set_device(999): %s", api->last_error());
  CHECK(api->set_stream(L, (void *)16) != 0, "the host has no streams");
  CHECK(api->set_stream(L, NULL) == 0 && api->get_stream(L) == NULL, "set_stream(NULL) on the host");

  /* views */
  gpuarray_view v;
  lua_pushinteger(L, 3);
  CHECK(api->get_view(L, -1, &v) != 0 && strstr(api->last_error(), "not an ndarray"), "%s", api->last_error());
  lua_pop(L, 1);
  run(L, "x = ga.arange(12):reshape(3, 4).T");
  lua_getglobal(L, "x");
  CHECK(api->get_view(L, -1, &v) == 0, "get_view: %s", api->last_error());
  lua_pop(L, 1);
  CHECK(v.ndim == 2 && v.shape[0] == 4 && v.shape[1] == 3 && v.strides[0] == 8 && v.strides[1] == 32 &&
        !v.c_contiguous && v.itemsize == 8 && v.size == 12 && v.dtype == api->dtype_from_name("int64"),
        "the view's geometry");
  run(L, "x = nil; collectgarbage(); collectgarbage()");
  CHECK(((int64_t *)v.data)[1 * 4 + 2] == 6, "the reference keeps the data alive");   /* x[2][1]: base (1, 2) */
  api->release_view(L, &v);
  api->release_view(L, &v);   /* idempotent */
  run(L, "y = ga.ones(3); y:free()");
  lua_getglobal(L, "y");
  CHECK(api->get_view(L, -1, &v) != 0 && strstr(api->last_error(), "freed"), "freed: %s", api->last_error());
  lua_pop(L, 1);

  /* wraps: negative strides, release once */
  double data[6] = {0, 1, 2, 3, 4, 5};
  int64_t shape[2] = {2, 3}, rev[2] = {-24, -8};
  int top = lua_gettop(L);
  CHECK(api->push_wrap(L, data + 5, GPUARRAY_CPU, f64, 2, shape, rev, count_release, NULL) == 0, "push_wrap");
  lua_setglobal(L, "w");
  CHECK(get_number(L, "w[{1, 1}]:item()") == 5 && get_number(L, "w[{2, 3}]:item()") == 0, "reversed wrap");
  run(L, "w[{1, 1}] = 50; wv = w[2]");
  CHECK(data[5] == 50, "writes reach the host's memory");
  run(L, "w = nil; collectgarbage()");
  CHECK(releases == 0, "a view holds it");
  run(L, "wv = nil; collectgarbage(); collectgarbage()");
  CHECK(releases == 1, "release ran %d times", releases);
  CHECK(api->push_wrap(L, data, GPUARRAY_CPU, 77, 1, shape, NULL, NULL, NULL) != 0, "bad dtype");
  CHECK(api->push_wrap(L, data, GPUARRAY_CPU, f64, 40, shape, NULL, NULL, NULL) != 0, "bad ndim");
  CHECK(api->push_wrap(L, NULL, GPUARRAY_CPU, f64, 1, shape, NULL, NULL, NULL) != 0, "NULL data");
  int64_t neg[1] = {-1};
  CHECK(api->push_wrap(L, data, GPUARRAY_CPU, f64, 1, neg, NULL, NULL, NULL) != 0, "negative dimension");
  CHECK(lua_gettop(L) == top, "failures push nothing");

  /* read-only wraps: reads work, writes are errors, views inherit, a
   * copy is writable, the export carries the flag; read-only imports */
  CHECK(api->push_wrap_readonly(L, data, GPUARRAY_CPU, f64, 2, shape, NULL, count_release, NULL) == 0,
        "push_wrap_readonly: %s", api->last_error());
  CHECK(api->writeable(L, -1) == 0, "writeable() of a read-only wrap");
  {
    DLManagedTensorVersioned *rt = NULL;
    CHECK(api->to_dlpack(L, -1, &rt) == 0 && (rt->flags & DLPACK_FLAG_BITMASK_READ_ONLY), "the export is READ_ONLY");
    CHECK(api->push_dlpack(L, rt) == 0 && api->writeable(L, -1) == 0, "a READ_ONLY import is read-only");
    lua_pop(L, 1);
  }
  lua_setglobal(L, "ro");
  run(L, "assert(not ro.flags.writeable and not ro[1].flags.writeable and ro:copy().flags.writeable)\n"
         "local ok, e = pcall(function() ro[{1, 1}] = 9 end)\n"
         "assert(not ok and e:find('read-only', 1, true), e)\n"
         "ok, e = pcall(function() ga.add(ro, 1, {out = ro}) end)\n"
         "assert(not ok and e:find('add: array is read-only', 1, true), e)\n"
         "assert(ro:sum():item() == 60)");
  CHECK(data[0] == 0 && data[5] == 50, "nothing written through the read-only wrap");
  run(L, "ro = nil; collectgarbage(); collectgarbage()");
  CHECK(releases == 2, "the read-only wrap's release ran (%d)", releases);
  lua_pushinteger(L, 3);
  CHECK(api->writeable(L, -1) == -1 && strstr(api->last_error(), "not an ndarray"), "writeable(3)");
  lua_pop(L, 1);
  run(L, "w2 = ga.host.ones(3)");
  lua_getglobal(L, "w2");
  CHECK(api->writeable(L, -1) == 1, "writeable() of an array");
  lua_pop(L, 1);

  /* copies (a strided source) */
  int32_t src[6] = {1, 2, 3, 4, 5, 6};
  int64_t tshape[2] = {3, 2}, tstr[2] = {4, 12};   /* the transpose of a 2x3 */
  CHECK(api->push_copy(L, src, GPUARRAY_CPU, GPUARRAY_CPU, i32, 2, tshape, tstr) == 0, "push_copy: %s",
        api->last_error());
  lua_setglobal(L, "c");
  src[0] = 100;
  CHECK(get_number(L, "c[{1, 2}]:item()") == 4 && get_number(L, "c[{1, 1}]:item()") == 1 &&
        get_number(L, "c.flags.c_contiguous and 1 or 0") == 1, "push_copy copies");

  /* DLPack: a tensor we made */
  deletes = 0;
  DLManagedTensorVersioned *t = make_tensor(kDLFloat, 64);
  CHECK(api->push_dlpack(L, t) == 0, "push_dlpack: %s", api->last_error());
  lua_setglobal(L, "d");
  CHECK(get_number(L, "d[{2, 2}]:item()") == 4 && get_number(L, "d.strides[2]") == 24, "the import's layout");
  run(L, "d = nil; collectgarbage(); collectgarbage()");
  CHECK(deletes == 1, "the deleter ran %d times", deletes);
  t = make_tensor(kDLFloat, 7);
  CHECK(api->push_dlpack(L, t) != 0 && strstr(api->last_error(), "dtype"), "bad dtype: %s", api->last_error());
  CHECK(deletes == 1 && lua_gettop(L) == top, "a failed import leaves the tensor to the caller");
  t->deleter(t);
  CHECK(deletes == 2, "deleted by the caller");
  t = make_tensor(kDLFloat, 64);
  t->version.major = 2;
  CHECK(api->push_dlpack(L, t) != 0, "a major version we do not read");
  t->deleter(t);

  /* DLPack: one the module made; the array lives on until the deleter */
  run(L, "e = ga.host.arange(5, 'float32')");
  lua_getglobal(L, "e");
  CHECK(api->to_dlpack(L, -1, &t) == 0, "to_dlpack");
  lua_pop(L, 1);
  run(L, "e = nil; collectgarbage(); collectgarbage()");
  CHECK(t->version.major == 1 && t->dl_tensor.ndim == 1 && t->dl_tensor.shape[0] == 5 &&
        t->dl_tensor.strides[0] == 1 && t->dl_tensor.dtype.code == kDLFloat && t->dl_tensor.dtype.bits == 32 &&
        ((float *)t->dl_tensor.data)[4] == 4.0f, "the export");
  double before = get_number(L, "ga.core._dlpack_deleter_calls()");
  t->deleter(t);
  CHECK(get_number(L, "ga.core._dlpack_deleter_calls()") == before + 1, "our deleter ran once");
  lua_pushinteger(L, 1);
  CHECK(api->to_dlpack(L, -1, &t) != 0 && t == NULL, "to_dlpack of a number");
  lua_pop(L, 1);

  /* the allocator */
  CHECK(api->set_allocator(L, my_alloc, my_free, NULL) == 0, "set_allocator");
  run(L, "a1 = ga.host.zeros(100); a2 = a1 + 1");
  CHECK(alloc_calls == 2, "our allocator served %d arrays", alloc_calls);
  /* and the temporaries inside a call: the float64 copy of the int32
   * input of this sum (its result goes into o, made before) */
  run(L, "i1 = ga.host.arange(10, 'int32'); o1 = ga.host.empty({}, 'float64')");
  int before_sum = alloc_calls;
  run(L, "ga.sum(i1, nil, {dtype = 'float64', out = o1}); assert(o1:item() == 45)");
  CHECK(alloc_calls == before_sum + 1, "the temporary came from our allocator (%d calls)", alloc_calls - before_sum);
  CHECK(api->set_allocator(L, failing_alloc, my_free, NULL) == 0, "set_allocator");
  CHECK(luaL_dostring(L, "return ga.host.zeros(4)") != LUA_OK && strstr(lua_tostring(L, -1), "out of memory"),
        "a failing allocator is a Lua error: %s", lua_tostring(L, -1));
  lua_settop(L, top);
  CHECK(api->set_allocator(L, NULL, NULL, NULL) == 0, "back to the default pool");
  run(L, "assert(ga.host.ones(3):sum():item() == 3)");
  run(L, "a1 = nil; a2 = nil; i1 = nil; o1 = nil; collectgarbage(); collectgarbage()");
  CHECK(free_calls == alloc_calls, "freed %d of %d", free_calls, alloc_calls);
  gpuarray_pool_stats ps;
  CHECK(api->pool_stats(GPUARRAY_CPU, &ps) == 0 && ps.total_bytes >= ps.used_bytes, "pool_stats");
  CHECK(api->pool_stats(999, &ps) != 0, "pool_stats(999)");
  api->set_device(L, prev);

  lua_close(L);
  printf("test_capi: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
