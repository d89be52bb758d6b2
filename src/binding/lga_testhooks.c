/* Spec-only hooks: the CUDA source of every built-in kernel for made-up
 * calls (fake, never dereferenced addresses), and its NVRTC compile, which
 * needs no GPU, so that CI checks every template for every dtype.  They
 * reach the generators through the GPUs' backend table (NULL slots on the
 * host) and keep the core.* names the specs use.  Nothing here is on a
 * production path. */
#include "base/ga_sync.h"
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_elementwise.h"
#include "core/ga_gather.h"
#include "core/ga_reduce.h"
#include "core/ga_scan.h"
#include "core/ga_rand.h"
#include "core/ga_sort.h"
#include "core/ga_matmul.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the backend whose kernels these are */
#define GPU ga_backend_of(GA_GPU_KIND)

/* ======== elementwise kernels (ga_elementwise.h) ======== */

/* core.ew_source(opname, loop_dtype, layout, arch) -> source
 * core.compile_ew(opname, loop_dtype, layout, arch) -> bytes of the image
 * layout: true or "dense" (1-d, contiguous, a broadcast second input),
 * false or "strided" (2-d 4x4: the grid-stride kernel), "rows" (3-d with
 * 2048-long strided rows: the tiled row kernel), "transpose" (4-d batches of
 * 64x64 transposes, the second input broadcast along rows, a second output
 * transposed: the shared-memory kernel with staged inputs and outputs),
 * "step<S>" (a copy's stepped-copy kernel, kernels/ga_strided.cuh: 3-d
 * 3x5x1000, the input stepping S = 2..8 elements along rows and 2 rows
 * down, the output contiguous; "step-<S>" backwards along rows) and
 * "step<S>w" (the same 3x5x2^28: 64-bit indexing). */
static int build_call(lua_State *L, ga_ew_call *c) {
  const char *name = luaL_checkstring(L, 1);
  const ga_op *op = ga_op_find(name);
  if (!op) return lga_errorf(L, "compile_ew", "no op '%s'", name);
  int t = lga_opt_dtype(L, 2, "compile_ew", -1);
  if (t < 0 || !(op->types & (1u << t))) return lga_errorf(L, "compile_ew", "op '%s' has no %s loop", name, lua_tostring(L, 2));
  const char *layout = lua_type(L, 3) == LUA_TSTRING ? lua_tostring(L, 3) : lua_toboolean(L, 3) ? "dense" : "strided";
  static const int64_t shapes[6][4] = {{4}, {4, 4}, {2, 4, 2048}, {2, 3, 64, 64}, {3, 5, 1000}, {3, 5, 1 << 28}};
  static const int ndims[6] = {1, 2, 3, 4, 3, 3};
  int lay = !strcmp(layout, "dense") ? 0 : !strcmp(layout, "strided") ? 1 : !strcmp(layout, "rows") ? 2
          : !strcmp(layout, "transpose") ? 3 : -1, step = 0;
  if (lay < 0 && !strncmp(layout, "step", 4)) {   /* step<S>, step-<S>, then w or nothing */
    const char *d = layout + 4 + (layout[4] == '-');
    if (d[0] >= '2' && d[0] <= '8' && (!d[1] || !strcmp(d + 1, "w"))) {
      step = (d[0] - '0') * (layout[4] == '-' ? -1 : 1);
      lay = d[1] ? 5 : 4;
    }
  }
  if (lay < 0)
    return lga_errorf(L, "compile_ew", "unknown layout '%s' (dense, strided, rows, transpose, step[-]2..8[w])", layout);
  memset(c, 0, sizeof *c);
  c->op = op;
  c->nin = op->nin;
  c->nout = op->nout;
  c->ndim = ndims[lay];
  c->size = 1;
  for (int d = 0; d < c->ndim; d++) c->size *= (c->shape[d] = shapes[lay][d]);
  c->dense = lay == 0;
  for (int k = 0; k < op->nin + op->nout; k++) {
    int lt = ga_op_arg_dtype(op, t, k);
    int64_t isz = GA_ITEMSIZE(lt), *st = c->arg[k].strides;
    c->loop_types[k] = lt;
    c->arg[k].dtype = lt;
    c->arg[k].kind = lay == 0 ? GA_AK_CONTIG : GA_AK_STRIDED;
    c->arg[k].data = (char *)(uintptr_t)4096;   /* aligned: exercises the vector path */
    ga_strides_c(c->ndim, c->shape, (int)isz, st);
    if (lay == 1) st[0] *= 2;                    /* a gap between rows */
    if (step && k < op->nin) {                   /* stepped along and across rows */
      int as = step < 0 ? -step : step;
      st[2] *= step;   /* (a negative step: data stands for the last column) */
      st[1] *= 2 * as;
      st[0] *= 3 * as;
      continue;
    }
    /* outer dimensions that cannot merge (rows: not a contiguous output,
     * which a copy would take to the stepped-copy kernel) */
    if (lay >= 2 && (k == 0 || (lay == 2 && k >= op->nin))) st[0] *= 3;
    if (lay >= 2 && k < op->nin) st[c->ndim - 1] *= 2;   /* stepped rows */
    if (lay == 3 && (k == 0 || k == op->nin + 1)) {      /* transposed: staged */
      st[2] = 2 * isz;
      st[3] = 2 * isz * 64;
    }
    if (lay == 3 && k == 1 && op->nin > 1) st[2] = 0;   /* broadcast along rows */
  }
  if (op->nin > 1 && lay == 0) c->arg[1].kind = GA_AK_BCAST;   /* and a broadcast operand */
  return 0;
}

static int l_ew_source(lua_State *L) {
  ga_ew_call c;
  build_call(L, &c);
  char *src = GPU->ew_source(&c);
  if (!src) return lga_errorf(L, "ew_source", "out of memory");
  lua_pushstring(L, src);
  free(src);
  return 1;
}

static int l_compile_ew(lua_State *L) {
  ga_ew_call c;
  build_call(L, &c);
  int arch = (int)luaL_optinteger(L, 4, 90);
  char *src = GPU->ew_source(&c);
  if (!src) return lga_errorf(L, "compile_ew", "out of memory");
  char *image;
  size_t size;
  int is_ptx;
  int rc = ga_compile(src, "ga_ew", arch, NULL, 0, &image, &size, &is_ptx);
  free(src);
  if (rc) return lga_fail(L, "compile_ew");
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  lua_pushboolean(L, is_ptx);
  return 2;
}

/* ======== gather and scatter (ga_gather.h) ======== */

/* A call of the given shape: mode ("gather", "scatter", "add"), x's dtype,
 * the index arrays' dtype, their count and the selection's ndim. */
static void fake_call(lua_State *L, const char *fn, ga_adv *adv, ga_gather_call *c) {
  static const char *const modes[] = {"gather", "scatter", "add", NULL};
  int mode = luaL_checkoption(L, 1, NULL, modes);
  int dt = lga_opt_dtype(L, 2, fn, -1), it = lga_opt_dtype(L, 3, fn, GA_INT64);
  int ni = (int)luaL_optinteger(L, 4, 1), nd = (int)luaL_optinteger(L, 5, 2);
  if (dt < 0) lga_errorf(L, fn, "a dtype expected");
  if (!GA_IS_INT(it)) lga_errorf(L, fn, "index dtype must be an integer dtype");
  if (ni < 0 || ni > GA_GATHER_MAXIDX || nd < 0 || nd > GA_MAXDIM) lga_errorf(L, fn, "bad shape");
  memset(adv, 0, sizeof *adv);
  memset(c, 0, sizeof *c);
  adv->ndim = nd;
  adv->size = 1;
  for (int d = 0; d < nd; d++) {
    adv->shape[d] = 4;
    adv->size *= 4;
    adv->xstrides[d] = d == 0 ? 0 : 64 * GA_ITEMSIZE(dt) * d;
    c->vstrides[d] = -GA_ITEMSIZE(dt) * (d + 1);
  }
  adv->nidx = ni;
  for (int j = 0; j < ni; j++) {
    adv->idx[j].data = (const char *)(uintptr_t)4096;
    adv->idx[j].dtype = it;
    adv->idx[j].n = lua_toboolean(L, 7) ? (int64_t)1 << 33 : 5;   /* wide: 64-bit offsets */
    adv->idx[j].stride = 8 * GA_ITEMSIZE(dt);
    if (nd) adv->idx[j].strides[0] = GA_ITEMSIZE(it);
  }
  c->adv = adv;
  c->mode = mode;
  c->dtype = dt;
  c->x = c->v = (char *)(uintptr_t)8192;
}

/* core.gather_source(mode, dtype, index_dtype, nindex, ndim, nil, wide) -> source
 * (wide: an axis long enough for 64-bit offsets) */
static int l_gather_source(lua_State *L) {
  lua_settop(L, 7);
  ga_adv *adv = lua_newuserdatauv(L, sizeof *adv, 0);
  ga_gather_call c;
  fake_call(L, "gather_source", adv, &c);
  char *src = GPU->gather_source(&c);
  if (!src) return lga_errorf(L, "gather_source", "out of memory");
  lua_pushstring(L, src);
  free(src);
  return 1;
}

/* core.compile_gather(mode, dtype, index_dtype, nindex, ndim, arch, wide) -> bytes */
static int l_compile_gather(lua_State *L) {
  lua_settop(L, 7);
  ga_adv *adv = lua_newuserdatauv(L, sizeof *adv, 0);
  ga_gather_call c;
  fake_call(L, "compile_gather", adv, &c);
  int arch = (int)luaL_optinteger(L, 6, 90);
  char *src = GPU->gather_source(&c);
  if (!src) return lga_errorf(L, "compile_gather", "out of memory");
  char *image;
  size_t size;
  int is_ptx;
  int rc = ga_compile(src, "ga_gather", arch, NULL, 0, &image, &size, &is_ptx);
  free(src);
  if (rc) return lga_fail(L, "compile_gather");
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

/* ======== reductions (ga_reduce.h) ======== */

/* ---- spec hook: NVRTC-compile the kernels of a row for a dtype without a
 * GPU (CI).  core._compile_reduce(row, dtype, layout, second [, arch]):
 * layout 0 a full contiguous reduction (split: second = its combining
 * kernel), 1 a strided 2-d reduced block, 2 the first axis of a matrix
 * (COL, vector loads), 3 the same unaligned, 4 a short last axis. */
static int l_compile_reduce(lua_State *L) {
  const ga_red_op *op = ga_red_find(luaL_checkstring(L, 1));
  if (!op) return lga_errorf(L, "compile_reduce", "no reduction row '%s'", lua_tostring(L, 1));
  int T = lga_opt_dtype(L, 2, "compile_reduce", GA_FLOAT32);
  int lay = (int)luaL_checkinteger(L, 3), second = lua_toboolean(L, 4);
  int arch = (int)luaL_optinteger(L, 5, 90);
  ga_red_call c;
  memset(&c, 0, sizeof c);
  c.op = op;
  c.T = T;
  c.acc = ga_red_acc_dtype(op, T);
  c.out_dtype = ga_red_out_dtype(op, T);
  c.in = (const char *)(uintptr_t)(lay == 3 ? 0x10002 : 0x10000);
  c.out = (char *)(uintptr_t)0x20000;
  int64_t isz = GA_ITEMSIZE(T), osz = GA_ITEMSIZE(c.out_dtype);
  c.ondim = c.rndim = 1;
  switch (lay) {
  case 0: c.oshape[0] = 1; c.rshape[0] = 1 << 24; c.istr_r[0] = isz; break;
  case 1: c.oshape[0] = 8; c.istr_o[0] = isz; c.ostr[0] = osz; c.rndim = 2;
          c.rshape[0] = 64; c.rshape[1] = 64; c.istr_r[0] = 8 * 64 * isz * 2; c.istr_r[1] = 8 * isz; break;
  case 2: case 3: c.oshape[0] = 4096; c.istr_o[0] = isz; c.ostr[0] = osz; c.rshape[0] = 4096; c.istr_r[0] = 4096 * isz; break;
  default: c.oshape[0] = 1 << 20; c.istr_o[0] = 3 * isz; c.ostr[0] = osz; c.rshape[0] = 3; c.istr_r[0] = isz; break;
  }
  c.nout = c.oshape[0];
  c.nred = c.rshape[0] * (c.rndim == 2 ? c.rshape[1] : 1);
  char *src = GPU->reduce_source(&c, second);
  if (!src) return lga_errorf(L, "compile_reduce", "out of memory");
  char *image;
  size_t size;
  int is_ptx;
  int rc = ga_compile(src, "ga_red", arch, NULL, 0, &image, &size, &is_ptx);
  if (rc) {
    lua_pushstring(L, src);
    free(src);
    return lga_fail_compile(L, "compile_reduce", lua_tostring(L, -1));
  }
  free(src);
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

/* ======== scans and nonzero (ga_scan.h) ======== */

/* ---- spec hooks: kernel sources without a GPU ---- */

/* A scan call on fake pointers: layout "row" (one long line: every row
 * pass), "rows" (many short rows: pass 3 alone), "col" (a non-last axis
 * with few lines: every column pass); dtype_req as dtype=. */
static void fake_scan(lua_State *L, const char *fn, ga_scan_call *c) {
  const ga_red_op *op = ga_red_find(luaL_checkstring(L, 1));
  if (!op || !(op->flags & GA_REDF_SCAN)) lga_errorf(L, fn, "no scan '%s'", lua_tostring(L, 1));
  int xdt = lga_opt_dtype(L, 2, fn, -1);
  if (xdt < 0) lga_errorf(L, fn, "a dtype is needed");
  const char *layout = luaL_optstring(L, 3, "row");
  int dreq = lga_opt_dtype(L, 6, fn, -1);
  memset(c, 0, sizeof *c);
  c->op = op;
  if (ga_scan_dtypes(op, xdt, dreq, &c->T, &c->acc, &c->out_dtype)) lga_fail(L, fn);
  c->in = (const char *)(uintptr_t)4096;
  c->out = (char *)(uintptr_t)(1 << 20);
  c->outer = c->inner = 1;
  if (!strcmp(layout, "row")) c->n = (int64_t)1 << 24;
  else if (!strcmp(layout, "rows")) c->outer = 100000, c->n = 1000;
  else if (!strcmp(layout, "col")) c->outer = 2, c->n = 100000, c->inner = 3;
  else lga_errorf(L, fn, "unknown layout '%s' (row, rows, col)", layout);
}

/* core.scan_source(op, dtype, layout, pass[, nil, dtype_req]) -> source, kernel name (nil: no such pass) */
static int l_scan_source(lua_State *L) {
  ga_scan_call c;
  fake_scan(L, "scan_source", &c);
  const char *name = NULL;
  char *src = GPU->scan_source(&c, (int)luaL_checkinteger(L, 4), &name);
  if (!src) return 0;
  lua_pushstring(L, src);
  free(src);
  lua_pushstring(L, name);
  return 2;
}

static int compile_src(lua_State *L, const char *fn, char *src, const char *name, int arch) {
  char *image;
  size_t size;
  int is_ptx;
  int rc = ga_compile(src, name, arch, NULL, 0, &image, &size, &is_ptx);
  if (rc) {
    lua_pushstring(L, src);   /* the message needs the source */
    free(src);
    return lga_fail_compile(L, fn, lua_tostring(L, -1));
  }
  free(src);
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

/* core.compile_scan(op, dtype, layout, pass, arch[, dtype_req]) -> bytes of the image (nil: no such pass) */
static int l_compile_scan(lua_State *L) {
  ga_scan_call c;
  fake_scan(L, "compile_scan", &c);
  const char *name = NULL;
  char *src = GPU->scan_source(&c, (int)luaL_checkinteger(L, 4), &name);
  if (!src) return 0;
  return compile_src(L, "compile_scan", src, name, (int)luaL_optinteger(L, 5, 90));
}

/* core.nonzero_source(pass) / core.compile_nonzero(pass, arch) */
static int l_nonzero_source(lua_State *L) {
  const char *name = NULL;
  char *src = GPU->nonzero_source((int)luaL_checkinteger(L, 1), &name);
  if (!src) return 0;
  lua_pushstring(L, src);
  free(src);
  lua_pushstring(L, name);
  return 2;
}

static int l_compile_nonzero(lua_State *L) {
  const char *name = NULL;
  char *src = GPU->nonzero_source((int)luaL_checkinteger(L, 1), &name);
  if (!src) return 0;
  return compile_src(L, "compile_nonzero", src, name, (int)luaL_optinteger(L, 2, 90));
}

/* ======== random draws (kernels/ga_philox.cuh) ======== */

/* core._random_source(dist, dtype, irange) -> CUDA source;
 * core._compile_random(dist, dtype, irange, arch) -> bytes of the image */
static char *random_source(lua_State *L, const char *fname) {
  ga_rand_call c = {0};
  c.dist = (int)luaL_checkinteger(L, 1);
  c.dtype = lga_opt_dtype(L, 2, fname, GA_FLOAT32);
  c.irange = (uint64_t)luaL_optinteger(L, 3, 0);
  c.p1 = luaL_optnumber(L, 5, 1.0);   /* 1 (with p0 0): the standard normal kernel */
  int64_t words;
  if (ga_rand_plan(&c, &words)) lga_fail(L, fname);
  char *src = GPU->rand_source(&c);
  if (!src) lga_errorf(L, fname, "out of memory");
  return src;
}

static int l_random_source(lua_State *L) {
  char *src = random_source(L, "_random_source");
  lua_pushstring(L, src);
  free(src);
  return 1;
}

static int l_compile_random(lua_State *L) {
  char *src = random_source(L, "_compile_random");
  return compile_src(L, "_compile_random", src, "ga_rand", (int)luaL_optinteger(L, 4, 90));
}

/* ======== small FFTs (kernels/ga_fft_small.cuh) ======== */

/* core._compile_fft(dbl, logn, arch) -> bytes of the image */
static int l_compile_fft(lua_State *L) {
  char *src = GPU->fft_source(lua_toboolean(L, 1), (int)luaL_checkinteger(L, 2));
  if (!src) return lga_errorf(L, "_compile_fft", "no small-FFT kernel of that length");
  return compile_src(L, "_compile_fft", src, "ga_fft_small", (int)luaL_optinteger(L, 3, 90));
}

/* ======== sorting (ga_sort.h) ======== */

/* core._sort_source(which, dtype, big, pay_in, pay_out) -> CUDA source;
 * which: the per-digit kernels (hist scatter scan_reduce scan_parts
 * scan_down), search, and the onesweep / short-row kernels (rhist rbins
 * rpass roww rowb; pay_in of rhist: row-number bytes; of roww/rowb: keys
 * per thread, 0 the most; pay_out 2: argsort);
 * core._compile_sort(which, dtype, big, pay_in, pay_out, arch) -> bytes of
 * the image (specs: NVRTC compiles every kernel without a GPU). */
static int sort_source(lua_State *L, const char *fname, char **src) {
  static const char *const which[] = {"hist", "scatter", "scan_reduce", "scan_parts", "scan_down", "search",
                                      "rhist", "rbins", "rpass", "roww", "rowb", NULL};
  int w = luaL_checkoption(L, 1, NULL, which);
  int dt = lga_opt_dtype(L, 2, fname, GA_FLOAT32);
  *src = GPU->sort_source(w, dt, lua_toboolean(L, 3), (int)luaL_optinteger(L, 4, 0), (int)luaL_optinteger(L, 5, 0));
  if (!*src) return lga_errorf(L, fname, "out of memory");
  return w;
}

static int l_sort_source(lua_State *L) {
  char *src;
  sort_source(L, "_sort_source", &src);
  lua_pushstring(L, src);
  free(src);
  return 1;
}

static int l_compile_sort(lua_State *L) {
  static const char *const names[] = {"ga_sort_hist", "ga_sort_scatter", "ga_scan_reduce", "ga_scan_parts",
                                      "ga_scan_down", "ga_searchsorted", "ga_radix_hist", "ga_radix_bins",
                                      "ga_radix_pass", "ga_radix_roww", "ga_radix_rowb"};
  char *src, *image;
  int w = sort_source(L, "_compile_sort", &src);
  size_t size;
  int is_ptx;
  int rc = ga_compile(src, names[w], (int)luaL_optinteger(L, 6, 90), NULL, 0, &image, &size, &is_ptx);
  free(src);
  if (rc) return lga_fail(L, "_compile_sort");
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

/* core._sort_path([name [, kpt [, minb]]]) -> the previous name: which
 * CUDA sort runs ("auto", "onesweep", "warp", "block", "digit"; ga_calls.h)
 * and, with a name, the onesweep pass's tuning knobs (keys per thread,
 * blocks per SM; 0 or absent: the default) */
static int l_sort_path(lua_State *L) {
  static const char *const names[] = {"auto", "onesweep", "warp", "block", "digit", NULL};
  int old = ga_sort_path;
  if (!lua_isnoneornil(L, 1)) {
    lua_Integer kpt = luaL_optinteger(L, 2, 0), minb = luaL_optinteger(L, 3, 0);
    luaL_argcheck(L, kpt >= 0 && kpt <= 64, 2, "keys per thread out of 0..64");
    luaL_argcheck(L, minb >= 0 && minb <= 8, 3, "blocks per SM out of 0..8");
    ga_sort_path = luaL_checkoption(L, 1, NULL, names);
    ga_sort_kpt = (int)kpt, ga_sort_minb = (int)minb;
  }
  lua_pushstring(L, names[old]);
  return 1;
}

/* core._sync_note(): report one synchronisation as a backend does, so the
 * ledger's bookkeeping is tested where no GPU makes real ones */
/* ======== matrix products (ga_matmul.h) ======== */

/* core._matmul_source(dtype, m, n, k, a_kfast, b_kfast) -> source;
 * core._compile_matmul(dtype, m, n, k, a_kfast, b_kfast [, arch]) -> bytes:
 * the product kernel for a made-up call (m x n sizes pick its tile). */
static char *matmul_src(lua_State *L, const char *fname) {
  int dt = lga_opt_dtype(L, 1, fname, -1);
  if (dt < 0) lga_errorf(L, fname, "a dtype is needed");
  ga_matmul_call c;
  memset(&c, 0, sizeof c);
  c.dtype = dt;
  c.m = luaL_checkinteger(L, 2), c.n = luaL_checkinteger(L, 3), c.k = luaL_checkinteger(L, 4);
  c.batch = 1;
  int64_t isz = GA_ITEMSIZE(dt);
  c.as[1] = lua_toboolean(L, 5) ? c.k * isz : isz, c.as[2] = lua_toboolean(L, 5) ? isz : c.m * isz;
  c.bs[1] = lua_toboolean(L, 6) ? isz : c.n * isz, c.bs[2] = lua_toboolean(L, 6) ? c.k * isz : isz;
  c.os[1] = c.n * isz, c.os[2] = isz;
  c.a = c.b = (const char *)(uintptr_t)4096, c.out = (char *)(uintptr_t)8192;
  char *src = ga_matmul_source(&c);
  if (!src) lga_fail(L, fname);
  return src;
}

static int l_matmul_source(lua_State *L) {
  char *src = matmul_src(L, "matmul_source");
  lua_pushstring(L, src);
  free(src);
  return 1;
}

static int l_compile_matmul(lua_State *L) {
  char *src = matmul_src(L, "compile_matmul");
  int arch = (int)luaL_optinteger(L, 7, 90);
  char *image;
  size_t size;
  int is_ptx;
  int rc = ga_compile(src, "ga_matmul", arch, NULL, 0, &image, &size, &is_ptx);
  free(src);
  if (rc) return lga_fail(L, "compile_matmul");
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

/* core._intmm_source(dtype) -> source; core._compile_intmm(dtype [, arch])
 * -> bytes: the integer tensor-core product's split and combine kernels
 * (one program holds both) */
static int l_intmm_source(lua_State *L) {
  int dt = lga_opt_dtype(L, 1, "intmm_source", -1);
  if (dt < 0) lga_errorf(L, "intmm_source", "a dtype is needed");
  char *src = ga_matmul_intmm_source(dt);
  if (!src) return lga_fail(L, "intmm_source");
  lua_pushstring(L, src);
  free(src);
  return 1;
}

static int l_compile_intmm(lua_State *L) {
  int dt = lga_opt_dtype(L, 1, "compile_intmm", -1);
  if (dt < 0) lga_errorf(L, "compile_intmm", "a dtype is needed");
  int arch = (int)luaL_optinteger(L, 2, 90);
  char *src = ga_matmul_intmm_source(dt), *image;
  if (!src) return lga_fail(L, "compile_intmm");
  size_t size;
  int is_ptx;
  int rc = ga_compile(src, "ga_intmm_split", arch, NULL, 0, &image, &size, &is_ptx);
  free(src);
  if (rc) return lga_fail(L, "compile_intmm");
  free(image);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

static int l_sync_note(lua_State *L) {
  (void)L;
  ga_sync_note(-1);
  return 0;
}

void lga_open_testhooks(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"ew_source", l_ew_source}, {"compile_ew", l_compile_ew},
    {"gather_source", l_gather_source}, {"compile_gather", l_compile_gather},
    {"_compile_reduce", l_compile_reduce},
    {"scan_source", l_scan_source}, {"compile_scan", l_compile_scan},
    {"nonzero_source", l_nonzero_source}, {"compile_nonzero", l_compile_nonzero},
    {"_random_source", l_random_source}, {"_compile_random", l_compile_random},
    {"_compile_fft", l_compile_fft},
    {"_sort_source", l_sort_source}, {"_compile_sort", l_compile_sort}, {"_sort_path", l_sort_path},
    {"_sync_note", l_sync_note},
    {"_matmul_source", l_matmul_source}, {"_compile_matmul", l_compile_matmul},
    {"_intmm_source", l_intmm_source}, {"_compile_intmm", l_compile_intmm},
    {NULL, NULL}};
  lga_setfuncs(L, fns, -1);
}
