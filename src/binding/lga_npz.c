/* .npz archives: savez/savez_compressed write a zip of .npy members
 * (base/ga_zip_write.c), load gives an NpzFile that reads the central
 * directory at once and each member only when asked (f.name, f["arr_0"]),
 * checking the .npy header's size against the member's before inflating
 * (base/ga_zip_read.c).  f:close(), <close> and __gc share one idempotent
 * release, as liolib's files. */
#include "binding/lga_files.h"
#include "base/ga_zip.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NPZ_MT "gpuarray.NpzFile"
#define MEMBER_MT "gpuarray.files.member"
#define ZIPW_MT "gpuarray.files.zipw"

typedef struct npz {
  FILE *f;
  ga_zip z;
  int device;
  size_t max_header;
} npz;

static int file_pread(void *ctx, void *p, size_t n, uint64_t off) {
  FILE *f = ctx;
  if (off > (uint64_t)INT64_MAX || fseeko(f, (off_t)off, SEEK_SET))
    return ga_err(GA_EINVAL, "cannot seek in the archive: %s", strerror(errno));
  if (fread(p, 1, n, f) != n) return ga_err(GA_EINVAL, "the archive ends early (truncated)");
  return GA_OK;
}

static int npz_release(lua_State *L) {
  npz *a = luaL_checkudata(L, 1, NPZ_MT);
  ga_zip_close(&a->z);
  if (a->f) fclose(a->f);
  a->f = NULL;
  return 0;
}

static npz *check_open(lua_State *L, const char *fname) {
  npz *a = luaL_checkudata(L, 1, NPZ_MT);
  if (!a->f) lga_errorf(L, fname, "the NpzFile is closed");
  return a;
}

/* f:keys(): the member names without ".npy", sorted (NumPy's f.files) */
static int npz_keys(lua_State *L) {
  npz *a = check_open(L, "keys");
  lua_createtable(L, (int)a->z.n, 0);
  for (size_t i = 0; i < a->z.n; i++) {
    const char *nm = a->z.e[i].name;
    size_t n = strlen(nm);
    if (n > 4 && !strcmp(nm + n - 4, ".npy")) n -= 4;
    lua_pushlstring(L, nm, n);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_getglobal(L, "table");
  lua_getfield(L, -1, "sort");
  lua_pushvalue(L, -3);
  lua_call(L, 1, 0);
  lua_pop(L, 1);
  return 1;
}

static int member_gc(lua_State *L) {
  ga_zip_member_free(lua_touserdata(L, 1));
  return 0;
}

/* f.name / f["arr_0"]: read that member now */
static int npz_index(lua_State *L) {
  const char *fname = "load";
  lga_state *S = LGA_STATE(L);
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;   /* a method */
    lua_pop(L, 1);
  }
  npz *a = check_open(L, fname);
  const char *key = luaL_checkstring(L, 2);
  lua_pushfstring(L, "%s.npy", key);
  long i = ga_zip_find(&a->z, lua_tostring(L, -1));
  if (i < 0) i = ga_zip_find(&a->z, key);
  if (i < 0) return lga_errorf(L, fname, "no member '%s' in the archive", key);
  ga_zip_member *m = lua_newuserdatauv(L, sizeof *m, 0);
  memset(m, 0, sizeof *m);
  luaL_setmetatable(L, MEMBER_MT);
  if (ga_zip_member_open(&a->z, (size_t)i, m)) return lga_fail(L, fname);
  int mi = lua_gettop(L);
  lga_src src = {ga_zip_member_read, m, a->z.e[i].usize};
  lga_npy_read(L, S, &src, a->device, a->max_header, fname, a->z.e[i].name);
  if (ga_zip_member_finish(m)) return lga_fail(L, fname);
  ga_zip_member_free(m);
  lua_remove(L, mi);
  return 1;
}

static int npz_tostring(lua_State *L) {
  npz *a = luaL_checkudata(L, 1, NPZ_MT);
  if (!a->f) lua_pushliteral(L, "NpzFile (closed)");
  else lua_pushfstring(L, "NpzFile (%d members)", (int)a->z.n);
  return 1;
}

void lga_npz_open(lua_State *L, lga_state *S, FILE **fp, const char *path, int device, size_t max_header,
                  const char *fname) {
  (void)S;
  npz *a = lua_newuserdatauv(L, sizeof *a, 0);
  memset(a, 0, sizeof *a);
  luaL_setmetatable(L, NPZ_MT);
  a->f = *fp;
  *fp = NULL;
  a->device = device;
  a->max_header = max_header;
  uint64_t size = lga_files_left(L, a->f, path, fname);
  if (ga_zip_open(&a->z, file_pread, a->f, size)) lga_errorf(L, fname, "%s: %s", path, ga_errmsg());
}

static int zipw_gc(lua_State *L) {
  ga_zipw_free(lua_touserdata(L, 1));
  return 0;
}

/* savez(path, names, arrays) / savez_compressed(...) */
int lga_npz_save(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  int compress = !strcmp(fname, "savez_compressed");
  const char *path = luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  lua_Integer n = luaL_len(L, 2);
  FILE **fp = lga_files_open(L, path, "wb", fname);
  ga_zipw *w = lua_newuserdatauv(L, sizeof *w, 0);
  memset(w, 0, sizeof *w);
  luaL_setmetatable(L, ZIPW_MT);
  ga_zipw_init(w, *fp, path);
  for (lua_Integer i = 1; i <= n; i++) {
    int top = lua_gettop(L);
    lua_geti(L, 2, i);
    const char *name = lua_tostring(L, -1);
    if (!name) lga_errorf(L, fname, "array names must be strings");
    lua_geti(L, 3, i);
    int x = lga_files_array_arg(L, S, lua_gettop(L), fname);
    lua_pushfstring(L, "%s.npy", name);
    if (ga_zipw_begin(w, lua_tostring(L, -1), compress, lga_npy_size(lga_toarray(L, x)))) lga_fail(L, fname);
    lga_npy_write(L, S, x, ga_zipw_write, w, fname);
    if (ga_zipw_end(w)) lga_fail(L, fname);
    lua_settop(L, top);
  }
  if (ga_zipw_finish(w)) lga_fail(L, fname);
  ga_zipw_free(w);
  lga_files_close(L, fp, path, fname);
  return 0;
}

void lga_npz_register(lua_State *L) {
  int mod = lua_gettop(L);
  luaL_newmetatable(L, NPZ_MT);
  static const luaL_Reg methods[] = {{"keys", npz_keys}, {"close", npz_release}, {NULL, NULL}};
  lua_newtable(L);                 /* the methods, also upvalue 2 of __index */
  luaL_setfuncs(L, methods, 0);
  lua_getfield(L, mod, "_state");
  lua_pushvalue(L, -2);
  lua_pushcclosure(L, npz_index, 2);
  lua_setfield(L, -3, "__index");
  lua_pop(L, 1);
  lua_pushcfunction(L, npz_release);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, npz_release);
  lua_setfield(L, -2, "__close");
  lua_pushcfunction(L, npz_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushliteral(L, "NpzFile");
  lua_setfield(L, -2, "__name");
  lua_pop(L, 1);
  luaL_newmetatable(L, MEMBER_MT);
  lua_pushcfunction(L, member_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  luaL_newmetatable(L, ZIPW_MT);
  lua_pushcfunction(L, zipw_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
}
