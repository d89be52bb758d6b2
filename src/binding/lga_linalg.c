/* The dense solvers' C entry (lua/gpuarray/linalg.lua builds ga.linalg on
 * it):
 *   core._lapack(op, a, b, u, vt, ipiv, info, k, flag, uplo, check, fname)
 *     runs LAPACK-style routine op (0 getrf, 1 getrs, 2 potrf, 3 geqrf,
 *     4 orgqr, 5 syevd, 6 gesvd, 7 gesvdj, 8 geev: base/ga_linalg_call.h)
 *     over the batch of a (C-contiguous (..., n, m): column-major m-by-n
 *     matrices), in place; b/u/vt/ipiv may be nil.  Returns the first
 *     nonzero info flag when check is true (one synchronisation on a GPU),
 *     else 0; -1 when the device cannot run op here (eig on a cuSOLVER
 *     without Xgeev: the caller runs it on the host). */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_linalg.h"
#include "base/ga_dtype.h"
#include <stdlib.h>

static ga_array *opt_array(lua_State *L, int idx, const char *fname) {
  if (lua_isnoneornil(L, idx) || (lua_isboolean(L, idx) && !lua_toboolean(L, idx))) return NULL;
  return lga_check(L, idx, fname);
}

static int l_lapack(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fname = luaL_optstring(L, 12, "linalg");
  int op = (int)luaL_checkinteger(L, 1);
  ga_array *a = lga_check(L, 2, fname);
  lga_check_current(L, S, a, fname);
  ga_array *b = opt_array(L, 3, fname), *u = opt_array(L, 4, fname), *vt = opt_array(L, 5, fname);
  ga_array *ipiv = opt_array(L, 6, fname), *info = lga_check(L, 7, fname);
  int64_t k = luaL_optinteger(L, 8, 0);
  int flag = (int)luaL_optinteger(L, 9, 0), uplo = (int)luaL_optinteger(L, 10, 0);
  int check = lua_toboolean(L, 11), bad = 0;
  void *stream = lga_stream(S, GA_DEVICE(a));
  int rc = ga_linalg_run(op, a, b, u, vt, ipiv, info, k, flag, uplo, check, stream, &bad);
  if (rc == GA_ENOMEM) {
    /* a workspace: free cached blocks, let Lua drop what it no longer
     * references, retry once (the routines are rerun from the start only
     * when nothing was written: workspaces are taken before any work) */
    ga_pool_free_all_blocks(ga_mem_pool(GA_DEVICE(a)));
    lua_gc(L, LUA_GCCOLLECT);
    S->gc_debt = 0;
    rc = ga_linalg_run(op, a, b, u, vt, ipiv, info, k, flag, uplo, check, stream, &bad);
  }
  if (rc) return lga_fail(L, fname);
  lua_pushinteger(L, bad);
  return 1;
}

/* core._linalg_source(which, dtype, n) -> the CUDA source of a solver
 * kernel (which: 0 pointer arrays, 1 batched Jacobi SVD, 2 its eigh); core._compile_linalg
 * (which, dtype, n, arch) -> bytes of its image: the specs compile every
 * kernel with NVRTC, no GPU needed */
static char *linalg_source(lua_State *L, const char *fname) {
  const ga_backend *be = ga_backend_of(GA_GPU_KIND);
  int which = (int)luaL_checkinteger(L, 1);
  int dt = lga_opt_dtype(L, 2, fname, GA_FLOAT32);
  int n = (int)luaL_optinteger(L, 3, 8);
  char *src = be->linalg_source ? be->linalg_source(which, dt, n) : NULL;
  if (!src) lga_errorf(L, fname, "no solver kernel %d for %s n=%d", which, ga_dtypes[dt].name, n);
  return src;
}

static int l_linalg_source(lua_State *L) {
  char *src = linalg_source(L, "_linalg_source");
  lua_pushstring(L, src);
  free(src);
  return 1;
}

static int l_compile_linalg(lua_State *L) {
  char *src = linalg_source(L, "_compile_linalg");
  int which = (int)luaL_checkinteger(L, 1);
  char *image;
  size_t size;
  int is_ptx;
  int rc = ga_compile(src, which == 0 ? "ga_la_ptrs" : "ga_jacobi", (int)luaL_optinteger(L, 4, 90), NULL, 0, &image, &size, &is_ptx);
  lua_pushstring(L, src);
  free(src);
  if (rc) return lga_fail_compile(L, "_compile_linalg", lua_tostring(L, -1));
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

void lga_open_linalg(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg fns[] = {{"_lapack", l_lapack}, {"_linalg_source", l_linalg_source},
                                 {"_compile_linalg", l_compile_linalg}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  lua_settop(L, mod);
}
