/* The dense solvers' C entry (lua/gpuarray/linalg.lua builds ga.linalg on
 * it):
 *   core._lapack(op, a, b, u, vt, ipiv, info, k, flag, uplo, check, fname)
 *     runs LAPACK-style routine op (0 getrf, 1 getrs, 2 potrf, 3 geqrf,
 *     4 orgqr, 5 syevd, 6 gesvd, 7 gesvdj, 8 geev: base/ga_linalg_call.h)
 *     over the batch of a (C-contiguous (..., n, m): column-major m-by-n
 *     matrices), in place; b/u/vt/ipiv may be nil.  Returns the first
 *     nonzero info flag when check is true (one synchronisation on a GPU),
 *     else 0; -1 when the device cannot run op here (eig on a cuSOLVER
 *     without Xgeev: the caller runs it on the host).  A routine that
 *     cannot fail (our batched Jacobi eigh) is not read back; while a GPU
 *     runs one that can, Lua pays its pending collection (lga_gc_ahead)
 *     before waiting. */
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
  int check = lua_toboolean(L, 11), bad = 0, pending = 0;
  void *stream = lga_stream(S, GA_DEVICE(a));
  int rc = ga_linalg_start(op, a, b, u, vt, ipiv, info, k, flag, uplo, stream, &pending);
  if (rc == GA_ENOMEM) {
    /* a workspace: free cached blocks, let Lua drop what it no longer
     * references, retry once (the routines are rerun from the start only
     * when nothing was written: workspaces are taken before any work) */
    ga_pool_free_all_blocks(ga_mem_pool(GA_DEVICE(a)));
    lua_gc(L, LUA_GCCOLLECT);
    S->gc_debt = 0;
    rc = ga_linalg_start(op, a, b, u, vt, ipiv, info, k, flag, uplo, stream, &pending);
  }
  if (rc) return lga_fail(L, fname);
  if (pending == GA_LA_UNAVAILABLE) bad = GA_LA_UNAVAILABLE;
  else if (check && pending) {
    /* the routine runs on the device meanwhile: collect now, not at the
     * next call's allocations when the device would wait for us */
    if (GA_DEVICE(a) != GA_CPU) lga_gc_ahead(L, S);
    if (ga_linalg_finish(op, info, stream, &bad)) return lga_fail(L, fname);
  }
  lua_pushinteger(L, bad);
  return 1;
}

/* core._lapack_check(op, a, info [, fname]) -> the first nonzero info flag
 * of routine op queued by core._lapack(..., check = false) on a's device,
 * when the caller queued more work after it (one synchronisation on a GPU,
 * after paying the pending collection while the device works) */
static int l_lapack_check(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fname = luaL_optstring(L, 4, "linalg");
  int op = (int)luaL_checkinteger(L, 1), bad = 0;
  ga_array *a = lga_check(L, 2, fname), *info = lga_check(L, 3, fname);
  lga_check_current(L, S, a, fname);
  if (GA_DEVICE(info) != GA_DEVICE(a)) return lga_errorf(L, fname, "the info array is on another device");
  if (GA_DEVICE(a) != GA_CPU) lga_gc_ahead(L, S);
  if (ga_linalg_finish(op, info, lga_stream(S, GA_DEVICE(a)), &bad)) return lga_fail(L, fname);
  lua_pushinteger(L, bad);
  return 1;
}

/* core._tril_inplace(a): zero the elements above the main diagonal of the
 * last two axes of a C-contiguous array, in place (cholesky's factor: one
 * pass over it and no second array, as CuPy's in-place _tril) */
static int l_tril_inplace(lua_State *L) {
  const char *fname = "_tril_inplace";
  lga_state *S = LGA_STATE(L);
  ga_array *a = lga_check(L, 1, fname);
  lga_check_current(L, S, a, fname);
  if (a->ndim < 2 || !ga_is_c_contiguous(a)) return lga_errorf(L, fname, "a C-contiguous stack of matrices is needed");
  int64_t R = a->shape[a->ndim - 2], C = a->shape[a->ndim - 1];
  if (R >= ((int64_t)1 << 31) || C >= ((int64_t)1 << 31)) return lga_errorf(L, fname, "the matrices are too large");
  lua_settop(L, 1);
  if (!a->size) return 1;
  ga_operand ins[3] = {{GA_ARG_ARRAY, a, 0, 0}, {GA_ARG_INT, NULL, C | (R << 32), 0}, {GA_ARG_INT, NULL, 0, 0}};
  ga_ew_plan plan;
  if (ga_ew_prepare(&ga_ops[GA_OP_TRIL], ins, -1, GA_CAST_SAME_KIND, &plan) ||
      ga_ew_check_out(&plan, 0, a, GA_CAST_SAME_KIND) || ga_ew_run(&plan, ins, &a, lga_stream(S, GA_DEVICE(a))))
    return lga_fail(L, fname);
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
                                 {"_compile_linalg", l_compile_linalg}, {"_tril_inplace", l_tril_inplace},
                                 {"_lapack_check", l_lapack_check},
                                 {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  lua_settop(L, mod);
}
