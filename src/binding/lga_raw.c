/* ga.RawKernel, ga.RawModule and ga.scalar (typed kernel arguments).
 * A RawModule userdata owns its code and options (malloc'ed, freed by
 * __gc, which also drops its per-device libraries); a RawKernel userdata
 * holds its module in user value 1, so the module outlives its kernels.
 * Compiling needs no GPU (:compile); launching needs the current device. */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "binding/lga_kernarg.h"
#include "binding/lga_kernobj.h"
#include "core/ga_ewk.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAWMOD_MT "gpuarray.RawModule"
#define RAWFN_MT "gpuarray.RawKernel"
#define SCALAR_MT "gpuarray.scalar"
#define MAX_PARAMS 256

typedef struct lga_rawmod {
  char *code;
  size_t len;
  int is_image;                       /* code is a CUBIN or PTX read from `path` */
  char **opts;
  int nopts;
  ga_raw_lib *lib[LGA_MAX_DEVICES];
  char fname[300];                    /* "RawModule" or "RawKernel 'name'" */
  char what[256];                     /* the program's name in NVRTC's log */
} lga_rawmod;

typedef struct lga_rawfn {
  char name[256];
  char fname[300];
  bool loaded[LGA_MAX_DEVICES];
  ga_raw_fn fn[LGA_MAX_DEVICES];
  int nparams;                        /* from the source: -2 not parsed yet, -1 not found */
  unsigned char pconst[MAX_PARAMS];   /* parameter i is a pointer to const */
} lga_rawfn;

typedef struct lga_scalar { ga_scalar v; int dtype; } lga_scalar;

/* ---- read-only arrays: the kernel's parameter list decides ----
 * A read-only array (x.flags.writeable false: a read-only DLPack import,
 * the C API's read-only wrap, a read-only memory map) may be passed only
 * where the kernel's declaration (read from its source by the ElementwiseKernel
 * lexer, ga_ewk_param_consts in core/ga_ewk.c) shows it cannot
 * write: a pointer to const (`const float *x`, `float const *__restrict__
 * x`).  CuPy checks nothing here; issue 15 asks that read-only memory is
 * never written. */

/* args[i] (0-based) is a read-only array: may the kernel write it? */
static void check_readonly_arg(lua_State *L, lga_rawfn *f, const lga_rawmod *m, int i) {
  if (m->is_image)
    lga_errorf(L, f->fname, "args[%d] is read-only (x.flags.writeable is false) and the kernel was loaded from a "
               "CUBIN/PTX image, whose parameters cannot be checked: pass a writable copy (x:copy())", i + 1);
  if (f->nparams == -2) f->nparams = ga_ewk_param_consts(m->code, f->name, f->pconst, MAX_PARAMS, NULL, NULL);
  if (f->nparams < 0)
    lga_errorf(L, f->fname, "args[%d] is read-only (x.flags.writeable is false) and the kernel's declaration "
               "(__global__ ... %s(...)) was not found in its source to show the parameter is const: pass a "
               "writable copy (x:copy())", i + 1, f->name);
  if (i >= f->nparams || i >= MAX_PARAMS)
    lga_errorf(L, f->fname, "args[%d] is read-only (x.flags.writeable is false) but the kernel declares %d "
               "parameters", i + 1, f->nparams);
  if (f->pconst[i]) return;
  size_t *st = lua_newuserdatauv(L, sizeof(size_t) * 2 * MAX_PARAMS, 0), *en = st + MAX_PARAMS;
  unsigned char tmp[MAX_PARAMS];
  ga_ewk_param_consts(m->code, f->name, tmp, MAX_PARAMS, st, en);
  int len = (int)(en[i] - st[i]);
  lga_errorf(L, f->fname, "args[%d] is read-only (x.flags.writeable is false) but parameter %d (%.*s) is not a "
             "pointer to const: the kernel may write it (declare it const, e.g. const float *x, if it only reads; "
             "else pass a writable copy, x:copy())", i + 1, i + 1, len > 80 ? 80 : len, m->code + st[i]);
}

/* core._raw_param_consts(code, name) -> {bool...} (a pointer to const per
 * parameter) or nil: the parser above, for the specs (it needs no GPU) */
static int l_param_consts(lua_State *L) {
  const char *code = luaL_checkstring(L, 1);
  const char *name = luaL_checkstring(L, 2);
  unsigned char *c = lua_newuserdatauv(L, MAX_PARAMS, 0);
  int np = ga_ewk_param_consts(code, name, c, MAX_PARAMS, NULL, NULL);
  if (np < 0) return 0;
  lua_createtable(L, np, 0);
  for (int i = 0; i < np && i < MAX_PARAMS; i++) {
    lua_pushboolean(L, c[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* ---- typed scalars ---- */

/* ga.scalar(value, dtype) */
static int l_scalar_new(lua_State *L) {
  const char *fn = LGA_FNAME(L);
  if (lua_isnoneornil(L, 2)) return lga_errorf(L, fn, "dtype is required, e.g. ga.scalar(5, \"int32\")");
  int dt = lga_opt_dtype(L, 2, fn, -1);
  lga_scalar *s = lua_newuserdatauv(L, sizeof *s, 0);
  memset(s, 0, sizeof *s);
  s->dtype = dt;
  char k = GA_KIND(dt);
  int t = lua_type(L, 1);
  if (t == LUA_TBOOLEAN) {
    ga_scalar_from_int(&s->v, dt, lua_toboolean(L, 1));
  } else if (t == LUA_TTABLE && k == 'c') {   /* {re, im} */
    lua_rawgeti(L, 1, 1);
    lua_rawgeti(L, 1, 2);
    if (!lua_isnumber(L, -2) || !lua_isnumber(L, -1))
      return lga_errorf(L, fn, "a complex value must be a number or a table {re, im} of numbers");
    double re = lua_tonumber(L, -2), im = lua_tonumber(L, -1);
    lua_pop(L, 2);
    if (dt == GA_COMPLEX64) { float p[2] = {(float)re, (float)im}; memcpy(s->v.bytes, p, sizeof p); }
    else { double p[2] = {re, im}; memcpy(s->v.bytes, p, sizeof p); }
  } else if (t != LUA_TNUMBER) {
    return lga_errorf(L, fn, "value must be a number or boolean, got %s", luaL_typename(L, 1));
  } else if (k == 'i' || k == 'u' || k == 'b') {
    lua_Integer v;
    if (lua_isinteger(L, 1)) v = lua_tointeger(L, 1);
    else if (!lua_numbertointeger(lua_tonumber(L, 1), &v) || floor(lua_tonumber(L, 1)) != lua_tonumber(L, 1))
      return lga_errorf(L, fn, "%s is not an integer (dtype %s)", lua_tostring(L, 1), ga_dtypes[dt].name);
    if (k != 'b' && !ga_int_fits(dt, v))
      return lga_errorf(L, fn, "%lld is out of range for %s", (long long)v, ga_dtypes[dt].name);
    ga_scalar_from_int(&s->v, dt, v);
  } else if (lua_isinteger(L, 1)) {
    ga_scalar_from_int(&s->v, dt, lua_tointeger(L, 1));
  } else {
    ga_scalar_from_double(&s->v, dt, lua_tonumber(L, 1));
  }
  luaL_setmetatable(L, SCALAR_MT);
  return 1;
}

static void push_scalar_value(lua_State *L, const lga_scalar *s) {
  char k = GA_KIND(s->dtype);
  if (k == 'b') lua_pushboolean(L, ga_load_int(s->v.bytes, s->dtype) != 0);
  else if (k == 'i' || k == 'u') lua_pushinteger(L, ga_load_int(s->v.bytes, s->dtype));
  else lua_pushnumber(L, ga_load_double(s->v.bytes, s->dtype));
}

static int l_scalar_attrs(lua_State *L) {
  lga_scalar *s = luaL_checkudata(L, 1, SCALAR_MT);
  const char *key = lua_tostring(L, 2);
  if (key && !strcmp(key, "dtype")) { lua_pushstring(L, ga_dtypes[s->dtype].name); return 1; }
  if (key && !strcmp(key, "value")) { push_scalar_value(L, s); return 1; }
  if (key && !strcmp(key, "imag") && GA_KIND(s->dtype) == 'c') {
    lua_pushnumber(L, ga_load_imag(s->v.bytes, s->dtype));
    return 1;
  }
  return 0;
}

static int l_scalar_tostring(lua_State *L) {
  lga_scalar *s = luaL_checkudata(L, 1, SCALAR_MT);
  push_scalar_value(L, s);
  const char *v = luaL_tolstring(L, -1, NULL);
  lua_pushfstring(L, "scalar(%s, %s)", v, ga_dtypes[s->dtype].name);
  return 1;
}

/* ---- modules ---- */

static int l_mod_gc(lua_State *L) {
  lga_rawmod *m = luaL_checkudata(L, 1, RAWMOD_MT);
  for (int d = 0; d < LGA_MAX_DEVICES; d++) {
    ga_raw_release(d, m->lib[d]);
    m->lib[d] = NULL;
  }
  for (int i = 0; i < m->nopts; i++) free(m->opts[i]);
  free(m->opts);
  free(m->code);
  m->opts = NULL;
  m->nopts = 0;
  m->code = NULL;
  return 0;
}

static char *dup_bytes(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (p) { memcpy(p, s, n); p[n] = 0; }
  return p;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Read `path` into m: .cubin and .ptx are images, anything else source. */
static void read_path(lua_State *L, lga_rawmod *m, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { lga_errorf(L, m->fname, "cannot open '%s'", path); return; }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    char *nb = realloc(buf, cap * 2 + 1);
    if (!nb) { free(buf); buf = NULL; break; }
    buf = nb;
    cap *= 2;
  }
  int err = ferror(f);
  fclose(f);
  if (!buf) { lga_errorf(L, m->fname, "out of host memory reading '%s'", path); return; }
  buf[n] = 0;   /* PTX is loaded as a NUL-terminated string */
  m->code = buf;
  m->len = n;
  if (err) { lga_errorf(L, m->fname, "error reading '%s'", path); return; }
  if (ends_with(path, ".cubin")) m->is_image = 1;
  else if (ends_with(path, ".ptx")) { m->is_image = 1; m->len = n + 1; }
  else if (strlen(buf) != n) lga_errorf(L, m->fname, "'%s' contains a NUL byte (source expected)", path);
}

/* Push a new module from the options table at idx (RawModule's fields;
 * RawKernel passes code separately at code_idx). */
static lga_rawmod *new_module(lua_State *L, int code_idx, int opts, const char *fname) {
  static const char *const mod_options[] = {"code", "path", "options", "backend", "translate_cucomplex",
                                            "name_expressions", "jitify", "enable_cooperative_groups", NULL};
  static const char *const kern_options[] = {"options", "backend", "translate_cucomplex", "jitify",
                                             "enable_cooperative_groups", NULL};
  if (opts) lga_check_options(L, opts, fname, code_idx ? kern_options : mod_options);
  lga_rawmod *m = lua_newuserdatauv(L, sizeof *m, 0);
  memset(m, 0, sizeof *m);
  luaL_setmetatable(L, RAWMOD_MT);   /* from here __gc frees whatever was built */
  snprintf(m->fname, sizeof m->fname, "%s", fname);
  snprintf(m->what, sizeof m->what, "%s", code_idx && lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "module");
  int ud = lua_gettop(L);
  if (opts) {
    if (lua_getfield(L, opts, "backend") != LUA_TNIL &&
        (lua_type(L, -1) != LUA_TSTRING || strcmp(lua_tostring(L, -1), "nvrtc")))
      lga_errorf(L, fname, "backend must be \"nvrtc\" (nvcc is not supported)");
    static const char *const no_flags[] = {"translate_cucomplex", "jitify", "enable_cooperative_groups"};
    for (int i = 0; i < 3; i++) {
      int t = lua_getfield(L, opts, no_flags[i]);
      if (t != LUA_TNIL && (t != LUA_TBOOLEAN || lua_toboolean(L, -1)))
        lga_errorf(L, fname, "option %s is not supported (only false)", no_flags[i]);
    }
    if (lua_getfield(L, opts, "name_expressions") != LUA_TNIL &&
        (lua_type(L, -1) != LUA_TTABLE || lua_rawlen(L, -1) > 0))
      lga_errorf(L, fname, "name_expressions are not supported: wrap each template instance in an "
                 "extern \"C\" __global__ function");
    lua_settop(L, ud);
    if (lua_getfield(L, opts, "options") != LUA_TNIL) {
      int o = lua_gettop(L);
      if (lua_type(L, o) != LUA_TTABLE)
        lga_errorf(L, fname, "options.options must be a table of NVRTC flags, got %s", luaL_typename(L, o));
      int n = (int)lua_rawlen(L, o);
      if (n > 60) lga_errorf(L, fname, "too many NVRTC options (%d, at most 60)", n);
      m->opts = calloc(n > 0 ? (size_t)n : 1, sizeof *m->opts);
      if (!m->opts) lga_errorf(L, fname, "out of host memory");
      for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, o, i);
        size_t len;
        const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        if (!s || strlen(s) != len)
          lga_errorf(L, fname, "NVRTC option %d must be a string (such as \"-DN=4\")", i);
        if (!(m->opts[m->nopts] = dup_bytes(s, len))) lga_errorf(L, fname, "out of host memory");
        m->nopts++;
        lua_pop(L, 1);
      }
    }
    lua_settop(L, ud);
  }
  if (!code_idx && opts) {
    lua_getfield(L, opts, "code");
    code_idx = lua_gettop(L);
  }
  int has_code = code_idx && !lua_isnil(L, code_idx);
  if (!code_idx || lua_isnil(L, code_idx)) {
    const char *path = NULL;
    if (opts && lua_getfield(L, opts, "path") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING) lga_errorf(L, fname, "path must be a string");
      path = lua_tostring(L, -1);
    }
    if (!path) lga_errorf(L, fname, "code must be a string of CUDA C++ source%s",
                          strcmp(fname, "RawModule") ? "" : " (or give path=)");
    read_path(L, m, path);
  } else {
    if (lua_type(L, code_idx) != LUA_TSTRING)
      lga_errorf(L, fname, "code must be a string of CUDA C++ source, got %s", luaL_typename(L, code_idx));
    size_t len;
    const char *s = lua_tolstring(L, code_idx, &len);
    if (strlen(s) != len) lga_errorf(L, fname, "code contains a NUL byte");
    if (!(m->code = dup_bytes(s, len))) lga_errorf(L, fname, "out of host memory");
    m->len = len;
  }
  if (has_code && opts && lua_getfield(L, opts, "path") != LUA_TNIL)
    lga_errorf(L, fname, "give code or path, not both");
  lua_settop(L, ud);
  return m;
}

static lga_rawmod *check_mod(lua_State *L, int idx) {
  lga_rawmod *m = luaL_testudata(L, idx, RAWMOD_MT);
  if (!m) lga_errorf(L, "RawModule", "bad self (RawModule expected, got %s)", luaL_typename(L, idx));
  if (!m->code) lga_errorf(L, "RawModule", "the module has been collected");
  return m;
}

/* Raise the current error; an NVRTC compile error with the whole numbered
 * source (a loaded image has none). */
static int fail(lua_State *L, const char *fname, const lga_rawmod *m) {
  return lga_fail_compile(L, fname, m->is_image ? NULL : m->code);
}

/* :compile([{arch=}]) -> image bytes, is_ptx.  Needs NVRTC only. */
static int compile_module(lua_State *L, lga_rawmod *m, const char *fname, int opts) {
  static const char *const copts[] = {"arch", NULL};
  int arch = 0;
  if (!lua_isnoneornil(L, opts)) {
    if (lua_type(L, opts) != LUA_TTABLE) return lga_errorf(L, fname, "options must be a table such as {arch = 90}");
    lga_check_options(L, opts, fname, copts);
    if (lua_getfield(L, opts, "arch") != LUA_TNIL) arch = lga_kernel_arch(L, -1, fname, "compile");
    lua_pop(L, 1);
  }
  if (!arch) arch = ga_device_arch(LGA_STATE(L)->device);   /* the current device's, */
  if (!arch) arch = 90;                                      /* else a common one */
  if (m->is_image) {
    lua_pushinteger(L, (lua_Integer)m->len);
    lua_pushboolean(L, m->len > 0 && m->code[m->len - 1] == 0);
    return 2;
  }
  int n = lga_kernel_compile(L, m->code, m->what, arch, (const char *const *)m->opts, m->nopts);
  return n < 0 ? fail(L, fname, m) : n;
}

static int l_mod_compile(lua_State *L) {
  lga_rawmod *m = check_mod(L, 1);
  return compile_module(L, m, "RawModule", 2);
}

static void push_options(lua_State *L, const lga_rawmod *m) {
  lua_createtable(L, m->nopts, 0);
  for (int i = 0; i < m->nopts; i++) {
    lua_pushstring(L, m->opts[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* Push a kernel of the module at mod_idx. */
static lga_rawfn *new_function(lua_State *L, int mod_idx, int name_idx, const char *fname) {
  size_t len;
  const char *name = lua_type(L, name_idx) == LUA_TSTRING ? lua_tolstring(L, name_idx, &len) : NULL;
  if (!name) lga_errorf(L, fname, "name must be a string (the kernel's extern \"C\" name), got %s",
                        luaL_typename(L, name_idx));
  if (len == 0 || len >= 256 || strlen(name) != len) lga_errorf(L, fname, "invalid kernel name");
  lga_rawfn *f = lua_newuserdatauv(L, sizeof *f, 1);
  memset(f, 0, sizeof *f);
  memcpy(f->name, name, len + 1);
  f->nparams = -2;
  snprintf(f->fname, sizeof f->fname, "RawKernel '%s'", name);
  lua_pushvalue(L, mod_idx);
  lua_setiuservalue(L, -2, 1);
  luaL_setmetatable(L, RAWFN_MT);
  return f;
}

/* mod:get_function(name) */
static int l_mod_get_function(lua_State *L) {
  check_mod(L, 1);
  new_function(L, 1, 2, "RawModule.get_function");
  return 1;
}

static int l_mod_attrs(lua_State *L) {
  lga_rawmod *m = check_mod(L, 1);
  const char *key = lua_tostring(L, 2);
  if (!key) return 0;
  if (!strcmp(key, "code")) {
    if (m->is_image) return 0;
    lua_pushlstring(L, m->code, m->len);
    return 1;
  }
  if (!strcmp(key, "options")) { push_options(L, m); return 1; }
  return 0;
}

static int l_mod_tostring(lua_State *L) {
  lga_rawmod *m = luaL_checkudata(L, 1, RAWMOD_MT);
  lua_pushfstring(L, "<RawModule %p>", (void *)m);
  return 1;
}

/* ga.RawModule{code=... | path=..., options={...}} */
static int l_mod_new(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  if (lua_type(L, 1) != LUA_TTABLE)
    return lga_errorf(L, fname, "expects a table {code = ..., options = {...}}, got %s", luaL_typename(L, 1));
  new_module(L, 0, 1, fname);
  return 1;
}

/* ---- kernels ---- */

static lga_rawfn *check_fn(lua_State *L, int idx, lga_rawmod **m) {
  lga_rawfn *f = luaL_testudata(L, idx, RAWFN_MT);
  if (!f) lga_errorf(L, "RawKernel", "bad self (RawKernel expected, got %s)", luaL_typename(L, idx));
  lua_getiuservalue(L, idx, 1);
  *m = lua_touserdata(L, -1);
  lua_pop(L, 1);   /* kept alive by f's user value */
  return f;
}

/* ga.RawKernel(code, name [, options]) */
static int l_fn_new(lua_State *L) {
  char fname[300];
  /* lua_tostring would turn a number name into a string in place */
  const char *name = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?";
  snprintf(fname, sizeof fname, "RawKernel '%s'", name);
  int opts = 0;
  if (lua_type(L, 3) == LUA_TTABLE) opts = 3;
  else if (!lua_isnoneornil(L, 3)) return lga_errorf(L, fname, "options must be a table, got %s", luaL_typename(L, 3));
  if (lua_type(L, 1) != LUA_TSTRING)
    return lga_errorf(L, fname, "code must be a string of CUDA C++ source, got %s", luaL_typename(L, 1));
  lua_settop(L, 3);
  new_module(L, 1, opts, fname);
  new_function(L, 4, 2, fname);
  return 1;
}

/* A grid or block: an integer or a table of 1-3 integers. */
static void get_dim(lua_State *L, int idx, const char *fname, const char *what, unsigned d[3]) {
  d[0] = d[1] = d[2] = 1;
  if (lua_isinteger(L, idx)) {
    lua_Integer v = lua_tointeger(L, idx);
    if (v < 1 || v > 0xffffffffLL) lga_errorf(L, fname, "%s must be positive, got %lld", what, (long long)v);
    d[0] = (unsigned)v;
    return;
  }
  int n = lua_type(L, idx) == LUA_TTABLE ? (int)lua_rawlen(L, idx) : 0;
  if (n < 1 || n > 3)
    lga_errorf(L, fname, "%s must be an integer or a table of 1 to 3 integers, got %s", what,
               lua_type(L, idx) == LUA_TTABLE ? "a table of another length" : luaL_typename(L, idx));
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, idx, i + 1);
    if (!lua_isinteger(L, -1)) lga_errorf(L, fname, "%s[%d] must be an integer", what, i + 1);
    lua_Integer v = lua_tointeger(L, -1);
    if (v < 1 || v > 0xffffffffLL) lga_errorf(L, fname, "%s[%d] must be positive, got %lld", what, i + 1, (long long)v);
    d[i] = (unsigned)v;
    lua_pop(L, 1);
  }
}

/* k(grid, block, args [, {shared_mem=, stream=}]) */
static int l_fn_call(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  lga_rawmod *m;
  lga_rawfn *f = check_fn(L, 1, &m);
  const char *fname = f->fname;
  if (!m->code) return lga_errorf(L, fname, "the module has been collected");
  unsigned grid[3], block[3];
  get_dim(L, 2, fname, "grid", grid);
  get_dim(L, 3, fname, "block", block);
  if (lua_type(L, 4) != LUA_TTABLE)
    return lga_errorf(L, fname, "args must be a table of arrays and scalars, got %s", luaL_typename(L, 4));
  int dev = S->device;
  if (dev == GA_CPU || dev >= LGA_MAX_DEVICES)
    return lga_errorf(L, fname, "no CUDA device is current: raw kernels run on a GPU");
  void *stream = lga_stream(S, dev);
  unsigned smem = 0;
  if (!lua_isnoneornil(L, 5)) {
    static const char *const call_options[] = {"shared_mem", "stream", NULL};
    if (lua_type(L, 5) != LUA_TTABLE) return lga_errorf(L, fname, "options must be a table, got %s", luaL_typename(L, 5));
    lga_check_options(L, 5, fname, call_options);
    if (lua_getfield(L, 5, "shared_mem") != LUA_TNIL) {
      if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 || lua_tointeger(L, -1) > 0x7fffffff)
        return lga_errorf(L, fname, "shared_mem must be a non-negative integer (bytes)");
      smem = (unsigned)lua_tointeger(L, -1);
    }
    if (lua_getfield(L, 5, "stream") != LUA_TNIL) {
      if (!luaL_testudata(L, -1, "gpuarray.Stream"))
        return lga_errorf(L, fname, "stream must be a ga.cuda.Stream, got %s", luaL_typename(L, -1));
      lua_getfield(L, -1, "_info");
      lua_pushvalue(L, -2);
      lua_call(L, 1, 2);
      if (lua_tointeger(L, -2) != dev)
        return lga_errorf(L, fname, "the stream is on cuda:%d but the current device is cuda:%d",
                          (int)lua_tointeger(L, -2), dev);
      stream = (void *)(intptr_t)lua_tointeger(L, -1);
    }
    lua_settop(L, 5);
  }
  int n = (int)lua_rawlen(L, 4);
  if (n > MAX_PARAMS) return lga_errorf(L, fname, "too many arguments (%d, at most %d)", n, MAX_PARAMS);
  /* parameter values: pointers and scalars, copied by the queue */
  ga_scalar *vals = lua_newuserdatauv(L, sizeof(ga_scalar) * (size_t)(n ? n : 1), 0);
  void **params = lua_newuserdatauv(L, sizeof(void *) * (size_t)(n ? n : 1), 0);
  size_t *sizes = lua_newuserdatauv(L, sizeof(size_t) * (size_t)(n ? n : 1), 0);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, 4, i + 1);
    int t = lua_type(L, -1);
    params[i] = &vals[i];
    if (t == LUA_TNUMBER) {   /* CuPy: Python int -> int64, float -> float64 */
      if (lua_isinteger(L, -1)) { vals[i].v_int64 = lua_tointeger(L, -1); sizes[i] = 8; }
      else { vals[i].v_float64 = lua_tonumber(L, -1); sizes[i] = 8; }
    } else if (t == LUA_TBOOLEAN) {
      vals[i].v_bool = lua_toboolean(L, -1);
      sizes[i] = 1;
    } else if (t == LUA_TUSERDATA && luaL_testudata(L, -1, SCALAR_MT)) {
      lga_scalar *s = lua_touserdata(L, -1);
      vals[i] = s->v;
      sizes[i] = (size_t)GA_ITEMSIZE(s->dtype);
    } else {
      ga_array *a = t == LUA_TUSERDATA ? lga_toarray(L, -1) : NULL;
      if (!a)
        return lga_errorf(L, fname, "args[%d] must be an ndarray, a ga.scalar(value, dtype), a number or a "
                          "boolean, got %s", i + 1, luaL_typename(L, -1));
      if (!a->buf) return lga_errorf(L, fname, "args[%d]: array has been freed", i + 1);
      if (GA_DEVICE(a) == GA_CPU)
        return lga_errorf(L, fname, "args[%d] is a host array: raw kernels take arrays on the current "
                          "device (cuda:%d); copy it with ga.asarray(x)", i + 1, dev);
      if (GA_DEVICE(a) != dev)
        return lga_errorf(L, fname, "args[%d] is on cuda:%d but the current device is cuda:%d", i + 1,
                          GA_DEVICE(a), dev);
      if (GA_READONLY(a)) check_readonly_arg(L, f, m, i);
      vals[i].v_uint64 = (uint64_t)(uintptr_t)GA_DATA(a);   /* the first element's address */
      sizes[i] = sizeof(void *);
    }
    lua_pop(L, 1);
  }
  if (!m->lib[dev] && ga_raw_load(dev, m->code, m->len, m->is_image, (const char *const *)m->opts, m->nopts,
                                  m->what, &m->lib[dev]))
    return fail(L, fname, m);
  if (!f->loaded[dev]) {
    if (ga_raw_function(dev, m->lib[dev], f->name, &f->fn[dev])) return lga_fail(L, fname);
    f->loaded[dev] = true;
  }
  if (ga_raw_launch(dev, &f->fn[dev], stream, grid, block, smem, n, params, sizes)) return lga_fail(L, fname);
  return 0;
}

static int l_fn_compile(lua_State *L) {
  lga_rawmod *m;
  lga_rawfn *f = check_fn(L, 1, &m);
  if (!m->code) return lga_errorf(L, f->fname, "the module has been collected");
  return compile_module(L, m, f->fname, 2);
}

static int l_fn_attrs(lua_State *L) {
  lga_rawmod *m;
  lga_rawfn *f = check_fn(L, 1, &m);
  const char *key = lua_tostring(L, 2);
  if (!key) return 0;
  if (!strcmp(key, "name")) { lua_pushstring(L, f->name); return 1; }
  if (!strcmp(key, "code")) {
    if (!m->code || m->is_image) return 0;
    lua_pushlstring(L, m->code, m->len);
    return 1;
  }
  if (!strcmp(key, "options")) { push_options(L, m); return 1; }
  if (!strcmp(key, "module")) { lua_getiuservalue(L, 1, 1); return 1; }
  return 0;
}

static int l_fn_tostring(lua_State *L) {
  lga_rawmod *m;
  lga_rawfn *f = check_fn(L, 1, &m);
  lua_pushfstring(L, "<RawKernel '%s'>", f->name);
  return 1;
}

void lga_open_raw(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg smeta[] = {{"__tostring", l_scalar_tostring}, {NULL, NULL}};
  lga_newclass(L, mod, SCALAR_MT, smeta, NULL, l_scalar_attrs);
  lua_pop(L, 1);
  static const luaL_Reg mmeta[] = {{"__gc", l_mod_gc}, {"__tostring", l_mod_tostring}, {NULL, NULL}};
  static const luaL_Reg mmeth[] = {{"compile", l_mod_compile}, {"get_function", l_mod_get_function}, {NULL, NULL}};
  lga_newclass(L, mod, RAWMOD_MT, mmeta, mmeth, l_mod_attrs);
  lua_setfield(L, mod, "rawmodule_mt");
  static const luaL_Reg fmeta[] = {{"__call", l_fn_call}, {"__tostring", l_fn_tostring}, {NULL, NULL}};
  static const luaL_Reg fmeth[] = {{"compile", l_fn_compile}, {NULL, NULL}};
  lga_newclass(L, mod, RAWFN_MT, fmeta, fmeth, l_fn_attrs);
  lua_setfield(L, mod, "rawkernel_mt");
  static const luaL_Reg fns[] = {{"RawKernel", l_fn_new}, {"RawModule", l_mod_new}, {"scalar", l_scalar_new},
                                 {"_raw_param_consts", l_param_consts}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
}
