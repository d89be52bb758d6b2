/* Kernel-engine introspection for the specs: generate the source of an op
 * row's kernel for given dtypes and compile it with NVRTC, which needs no
 * GPU (so CI checks every template for every dtype); the op table as data;
 * strided views of a buffer. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include <stdlib.h>
#include <string.h>


/* The op table as Lua data: {name=, nin=, nout=, types={...}} rows */
static int l_ops(lua_State *L) {
  lua_createtable(L, GA_NOPS, 0);
  for (int i = 0; i < GA_NOPS; i++) {
    const ga_op *op = &ga_ops[i];
    lua_createtable(L, 0, 5);
    lua_pushstring(L, op->name); lua_setfield(L, -2, "name");
    lua_pushinteger(L, op->nin); lua_setfield(L, -2, "nin");
    lua_pushinteger(L, op->nout); lua_setfield(L, -2, "nout");
    lua_pushstring(L, op->expr); lua_setfield(L, -2, "expr");
    lua_newtable(L);
    int n = 0;
    for (int t = 0; t < GA_NDTYPES; t++)
      if (op->types & (1u << t)) { lua_pushstring(L, ga_dtypes[t].name); lua_rawseti(L, -2, ++n); }
    lua_setfield(L, -2, "types");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* core._strided_view(x, shape, strides, offset[, dtype]) -> a view of x's
 * buffer (specs only: slicing is not there yet).  shape: table of sizes;
 * strides: table of byte strides (may be 0 or negative); offset: bytes from
 * x's first element; dtype (default x's) reinterprets the bytes, e.g. a
 * uint16 array's bits as float16.  Every byte the view can reach must lie
 * in x's buffer, and offset and strides must be multiples of the itemsize. */
static int l_strided_view(lua_State *L) {
  const char *fn = "_strided_view";
  ga_array *x = lga_check(L, 1, fn);
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  lua_Integer off = luaL_checkinteger(L, 4);
  int dt = lga_opt_dtype(L, 5, fn, x->dtype);
  int nd = (int)luaL_len(L, 2);
  if (nd > GA_MAXDIM) return lga_errorf(L, fn, "too many dimensions (%d)", nd);
  if ((int)luaL_len(L, 3) != nd)
    return lga_errorf(L, fn, "shape has %d entries but strides has %d", nd, (int)luaL_len(L, 3));
  int64_t isz = GA_ITEMSIZE(dt), shape[GA_MAXDIM], strides[GA_MAXDIM], size = 1;
  int64_t lo = x->offset + (int64_t)off, hi = lo;   /* byte range of element starts */
  if (lo % isz) return lga_errorf(L, fn, "offset %lld is not a multiple of the itemsize %lld", (long long)off, (long long)isz);
  for (int i = 0; i < nd; i++) {
    lua_geti(L, 2, i + 1);
    lua_geti(L, 3, i + 1);
    int ok1, ok2;
    shape[i] = (int64_t)lua_tointegerx(L, -2, &ok1);
    strides[i] = (int64_t)lua_tointegerx(L, -1, &ok2);
    lua_pop(L, 2);
    if (!ok1 || !ok2 || shape[i] < 0) return lga_errorf(L, fn, "bad shape or stride at dimension %d", i + 1);
    if (strides[i] % isz) return lga_errorf(L, fn, "stride %lld is not a multiple of the itemsize %lld", (long long)strides[i], (long long)isz);
    /* exact bounds: a reach that overflows int64 is outside any buffer */
    int64_t as = strides[i] < 0 ? -strides[i] : strides[i];
    if (shape[i] > 1 && as > 0 && shape[i] - 1 > (INT64_MAX / 2) / as)
      return lga_errorf(L, fn, "view reaches outside the buffer of %lld bytes", (long long)x->buf->nbytes);
    size = shape[i] && size > INT64_MAX / shape[i] ? INT64_MAX : size * shape[i];
    if (shape[i] > 0) {
      if (strides[i] > 0) hi += (shape[i] - 1) * strides[i];
      else lo += (shape[i] - 1) * strides[i];
    }
  }
  if (size > 0 && (lo < 0 || hi + isz > (int64_t)x->buf->nbytes))
    return lga_errorf(L, fn, "view reaches bytes [%lld, %lld) outside the buffer of %lld bytes", (long long)lo,
                      (long long)(hi + isz), (long long)x->buf->nbytes);
  ga_array *v = lga_new_view(L, 1);
  v->offset = x->offset + (int64_t)off;
  v->dtype = dt;
  v->ndim = nd;
  v->size = size;
  for (int i = 0; i < nd; i++) { v->shape[i] = shape[i]; v->strides[i] = strides[i]; }
  return 1;
}

void lga_open_kernels(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"ops", l_ops},
    {"_strided_view", l_strided_view}, {NULL, NULL}};
  lga_setfuncs(L, fns, -1);
}
