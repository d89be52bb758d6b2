/* Arrays in files and strings: NumPy's .npy (save, load, dumps, loads),
 * raw bytes (tobytes, frombuffer, binary tofile/fromfile).  Everything read
 * is hostile input: the header goes through base/ga_npy.c, every size is
 * checked against the bytes really there before anything is allocated.
 * Device arrays stream through pinned chunks (core/ga_chunkio.c).  The .npz
 * archives are lga_npz.c's; the text forms and conveniences are Lua
 * (lua/gpuarray/files.lua). */
#include "binding/lga_files.h"
#include "base/ga_checked.h"
#include "base/ga_npy.h"
#include "core/ga_backend.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .npy code assumes a little-endian host"
#endif

/* ---- sources and sinks ---- */

typedef struct file_io {
  FILE *f;
  const char *what;
} file_io;

static int file_read(void *ctx, void *p, size_t n) {
  file_io *io = ctx;
  if (fread(p, 1, n, io->f) == n) return GA_OK;
  if (ferror(io->f)) return ga_err(GA_EINVAL, "%s: read error: %s", io->what, strerror(errno));
  return ga_err(GA_EINVAL, "%s: truncated data (the file ends early)", io->what);
}

static int file_write(void *ctx, const void *p, size_t n) {
  file_io *io = ctx;
  if (fwrite(p, 1, n, io->f) == n) return GA_OK;
  return ga_err(GA_EINVAL, "%s: write error: %s", io->what, strerror(errno));
}

typedef struct mem_io {
  const char *p;
  size_t n, off;
} mem_io;

static int mem_read(void *ctx, void *p, size_t n) {
  mem_io *m = ctx;
  if (n > m->n - m->off) return ga_err(GA_EINVAL, "truncated data (the string ends early)");
  memcpy(p, m->p + m->off, n);
  m->off += n;
  return GA_OK;
}

typedef struct buf_io {
  char *p;
  size_t cap, off;
} buf_io;

static int buf_write(void *ctx, const void *p, size_t n) {
  buf_io *b = ctx;
  if (n > b->cap - b->off) return ga_err(GA_EINTERNAL, "internal error: more bytes than announced");
  memcpy(b->p + b->off, p, n);
  b->off += n;
  return GA_OK;
}

/* ---- arguments ---- */

static int result_device(lua_State *L, lga_state *S) { return LGA_HOST(L) ? GA_CPU : S->device; }

/* An integer option of the table at idx (absent: dflt); must be >= lo. */
static int64_t opt_int(lua_State *L, int idx, const char *key, int64_t dflt, int64_t lo, const char *fname) {
  if (lua_type(L, idx) != LUA_TTABLE) return dflt;
  lua_getfield(L, idx, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return dflt;
  }
  if (!lua_isinteger(L, -1)) {
    lua_Number d = lua_tonumber(L, -1);
    int64_t v;
    if (lua_type(L, -1) != LUA_TNUMBER || !ga_double_to_i64(d, &v) || (lua_Number)v != d)
      lga_errorf(L, fname, "%s must be an integer, got %s", key, luaL_typename(L, -1));
  }
  int64_t v = (int64_t)lua_tonumber(L, -1);
  if (lua_isinteger(L, -1)) v = lua_tointeger(L, -1);
  lua_pop(L, 1);
  if (v < lo) lga_errorf(L, fname, "%s must be >= %lld, got %lld", key, (long long)lo, (long long)v);
  return v;
}

static void check_opts(lua_State *L, int idx, const char *fname, const char *const *allowed) {
  if (lua_isnoneornil(L, idx)) return;
  if (lua_type(L, idx) != LUA_TTABLE) lga_errorf(L, fname, "options must be a table, got %s", luaL_typename(L, idx));
  lga_check_options(L, idx, fname, allowed);
}

static size_t max_header_opt(lua_State *L, int idx, const char *fname) {
  int64_t v = opt_int(L, idx, "max_header_size", GA_NPY_MAX_HEADER, 0, fname);
  return v > (int64_t)(UINT32_MAX) ? (size_t)UINT32_MAX : (size_t)v;
}

/* ---- .npy ---- */

uint64_t lga_npy_size(const ga_array *x) {
  char hdr[GA_NPY_HEADER_CAP];
  size_t hl = 0;
  ga_npy_format(x->dtype, 0, x->ndim, x->shape, hdr, sizeof hdr, &hl);
  return hl + (uint64_t)x->size * (uint64_t)GA_ITEMSIZE(x->dtype);
}

/* Read and check the header of the .npy at the start of src (the data
 * length must match it); src is left at the data. */
static void npy_header(lua_State *L, lga_src *src, size_t max_header, const char *fname, const char *what,
                       ga_npy_header *hp) {
  unsigned char first[GA_NPY_PREFIX_MAX];
  size_t have = src->len < GA_NPY_PREFIX_MAX ? (size_t)src->len : GA_NPY_PREFIX_MAX;
  if (src->read(src->ctx, first, have)) lga_fail(L, fname);
  ga_npy_header h;
  size_t need = 0;
  int rc = ga_npy_parse(first, have, max_header, &h, &need);
  if (rc == GA_NPY_MORE) {
    if (need > src->len)
      lga_errorf(L, fname, "%s: truncated .npy header (%llu bytes, the header needs %zu)", what,
                 (unsigned long long)src->len, need);
    unsigned char *buf = lua_newuserdatauv(L, need, 0);   /* need <= 12 + max_header */
    memcpy(buf, first, have);
    if (src->read(src->ctx, buf + have, need - have)) lga_fail(L, fname);
    rc = ga_npy_parse(buf, need, max_header, &h, &need);
    if (rc == GA_NPY_MORE) lga_errorf(L, fname, "%s: truncated .npy header", what);   /* cannot happen */
    lua_pop(L, 1);
  }
  if (rc) lga_errorf(L, fname, "%s: %s", what, ga_errmsg());
  uint64_t data = src->len - h.data_offset;
  if (data != (uint64_t)h.nbytes) {
    char s[512];
    lga_errorf(L, fname, "%s: the data does not match the header: shape %s %s needs %lld bytes, %s %llu", what,
               ga_shape_str(h.ndim, h.shape, s, sizeof s), ga_dtypes[h.dtype].name, (long long)h.nbytes,
               data < (uint64_t)h.nbytes ? "there are only" : "there are", (unsigned long long)data);
  }
  *hp = h;
}

/* The array at the top in fortran_order: replaced by the view in h's shape. */
static void fortran_view(lua_State *L, const ga_npy_header *h) {
  if (!h->fortran || h->ndim < 2) return;
  ga_array *a = lga_toarray(L, -1);
  ga_array *v = lga_new_view(L, -1);
  int64_t st[GA_MAXDIM];
  for (int i = 0; i < h->ndim; i++) st[i] = a->strides[h->ndim - 1 - i];
  ga_array_set_geometry(v, h->ndim, h->shape, st);
  lua_remove(L, -2);
}

static void memory_shape(const ga_npy_header *h, int64_t *mshape) {   /* reversed for fortran_order */
  for (int i = 0; i < h->ndim; i++) mshape[i] = h->fortran ? h->shape[h->ndim - 1 - i] : h->shape[i];
}

void lga_npy_read(lua_State *L, lga_state *S, lga_src *src, int device, size_t max_header, const char *fname,
                  const char *what) {
  ga_npy_header h;
  npy_header(L, src, max_header, fname, what, &h);
  int64_t mshape[GA_MAXDIM];
  memory_shape(&h, mshape);
  ga_array *a = lga_new_array(L, S, fname, device, h.dtype, h.ndim, mshape);
  if (ga_chunk_read(a, src->read, src->ctx, h.swap, lga_stream(S, device))) lga_fail(L, fname);
  fortran_view(L, &h);
}

/* ---- load(path, {mmap_mode = ...}): NumPy's memory-mapped .npy ---- */
enum { MM_NONE, MM_R, MM_RPLUS, MM_C };

static int mmap_mode_opt(lua_State *L, int idx, const char *fname) {
  if (lua_type(L, idx) != LUA_TTABLE) return MM_NONE;
  int t = lua_getfield(L, idx, "mmap_mode");
  const char *m = t == LUA_TSTRING ? lua_tostring(L, -1) : "";
  int mode = -1;
  if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, -1))) mode = MM_NONE;
  else if (t != LUA_TSTRING) lga_errorf(L, fname, "mmap_mode must be a string or nil, got %s", luaL_typename(L, -1));
  else if (!strcmp(m, "r") || !strcmp(m, "readonly")) mode = MM_R;
  else if (!strcmp(m, "r+") || !strcmp(m, "readwrite")) mode = MM_RPLUS;
  else if (!strcmp(m, "c") || !strcmp(m, "copyonwrite")) mode = MM_C;
  else if (!strcmp(m, "w+") || !strcmp(m, "write"))
    lga_errorf(L, fname, "mmap_mode '%s' creates a new file: load maps existing ones ('r', 'r+' or 'c')", m);
  else lga_errorf(L, fname, "mmap_mode must be nil, 'r', 'r+' or 'c', got '%s'", m);
  lua_pop(L, 1);
  return mode;
}

typedef struct mapping { void *base; size_t len; } mapping;

static void unmap_release(void *ctx, ga_buffer *b) {
  (void)b;
  mapping *m = ctx;
  if (m->base) munmap(m->base, m->len);
  m->base = NULL;
  free(m);
}

/* A mapping of the whole file (the map is torn down by the GC if an error
 * unwinds past it: a userdata holding it, liolib's way). */
static int maphold_gc(lua_State *L) {
  mapping *m = lua_touserdata(L, 1);
  if (m && m->base) munmap(m->base, m->len);
  if (m) m->base = NULL;
  return 0;
}

static mapping *map_file(lua_State *L, const char *path, int mode, size_t len, const char *fname) {
  mapping *m = lua_newuserdatauv(L, sizeof *m, 0);
  m->base = NULL;
  m->len = len;
  if (luaL_newmetatable(L, "gpuarray.files.mapping")) {
    lua_pushcfunction(L, maphold_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  int fd = open(path, mode == MM_RPLUS ? O_RDWR : O_RDONLY);
  if (fd < 0) lga_errorf(L, fname, "cannot open '%s' for mmap_mode '%s': %s", path,
                         mode == MM_RPLUS ? "r+" : mode == MM_C ? "c" : "r", strerror(errno));
  int prot = mode == MM_R ? PROT_READ : PROT_READ | PROT_WRITE;
  void *p = mmap(NULL, len, prot, mode == MM_C ? MAP_PRIVATE : MAP_SHARED, fd, 0);
  int e = errno;
  close(fd);
  if (p == MAP_FAILED) lga_errorf(L, fname, "%s: mmap failed: %s", path, strerror(e));
  m->base = p;
  return m;
}

/* Push the array of the .npy at path mapped in memory.  On the host: an
 * array over the mapping (read-only for "r", writing through to the file
 * for "r+", private copy-on-write pages for "c"), unmapped when the last
 * array or view over it is freed.  On a GPU: a device array read straight
 * from the mapping (no staging copy of ours; writes do not reach the file). */
static void load_mapped(lua_State *L, lga_state *S, FILE **fp, const char *path, uint64_t len, int device,
                        size_t max_header, int mode, const char *fname) {
  file_io io = {*fp, path};
  lga_src src = {file_read, &io, len};
  ga_npy_header h;
  npy_header(L, &src, max_header, fname, path, &h);
  lga_files_close(L, fp, path, fname);
  int64_t mshape[GA_MAXDIM];
  memory_shape(&h, mshape);
  if (h.nbytes == 0 || (uint64_t)h.data_offset + (uint64_t)h.nbytes > (uint64_t)SIZE_MAX) {   /* nothing to map */
    ga_array *a = lga_new_array(L, S, fname, device, h.dtype, h.ndim, mshape);
    if (h.nbytes) lga_errorf(L, fname, "%s: too large to map", path);
    a->buf->readonly = device == GA_CPU && mode == MM_R;
    fortran_view(L, &h);
    return;
  }
  if (device == GA_CPU && h.swap)
    lga_errorf(L, fname, "%s: big-endian data cannot be mapped (gpuarray has no big-endian dtypes; it is swapped on "
               "load): load it without mmap_mode", path);
  size_t maplen = h.data_offset + (size_t)h.nbytes;
  mapping *m = map_file(L, path, device == GA_CPU ? mode : MM_R, maplen, fname);
  int hold = lua_gettop(L);
  if (device != GA_CPU) {
    ga_array *a = lga_new_array(L, S, fname, device, h.dtype, h.ndim, mshape);
    const char *data = (const char *)m->base + h.data_offset;
    int rc;
    if (h.swap) {
      mem_io mi = {data, (size_t)h.nbytes, 0};
      rc = ga_chunk_read(a, mem_read, &mi, 1, lga_stream(S, device));
    } else {
      rc = ga_memcpy(device, GA_DATA(a), GA_CPU, data, (size_t)h.nbytes, lga_stream(S, device), 1);
    }
    if (rc) lga_fail(L, fname);
    munmap(m->base, m->len);   /* copied (synchronously): unmap now */
    m->base = NULL;
    lua_remove(L, hold);
    return;
  }
  ga_array *a = lua_newuserdatauv(L, sizeof(ga_array), 1);   /* first: nothing to leak if this fails */
  memset(a, 0, sizeof *a);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lga_mt_key);
  lua_setmetatable(L, -2);
  mapping *own = malloc(sizeof *own);
  if (!own) lga_errorf(L, fname, "out of host memory");
  ga_buffer *b;
  if (ga_buffer_wrap(GA_CPU, m->base, maplen, NULL, unmap_release, own, &b)) {
    free(own);
    lga_fail(L, fname);
  }
  /* the buffer owns the mapping from here on: the last array or view over
   * it unmaps it (once: the buffer's release runs once) */
  own->base = m->base;
  own->len = maplen;
  m->base = NULL;
  b->readonly = mode == MM_R;
  int64_t st[GA_MAXDIM];
  ga_strides_c(h.ndim, mshape, GA_ITEMSIZE(h.dtype), st);
  a->buf = b;
  a->offset = (int64_t)h.data_offset;
  a->dtype = h.dtype;
  ga_array_set_geometry(a, h.ndim, mshape, st);
  lua_remove(L, hold);
  fortran_view(L, &h);
}

/* x at idx as a C- or F-contiguous array (a copy on its device when it is
 * neither); pushes it, returns it; *fortran: written in Fortran order. */
static ga_array *contiguous(lua_State *L, lga_state *S, int idx, int allow_f, int *fortran, const char *fname) {
  ga_array *x = lga_check(L, idx, fname);
  *fortran = 0;
  if (ga_is_c_contiguous(x)) {
    lua_pushvalue(L, idx);
    return x;
  }
  if (allow_f && ga_is_f_contiguous(x)) {
    *fortran = 1;
    lua_pushvalue(L, idx);
    return x;
  }
  ga_array *c = lga_new_array(L, S, fname, GA_DEVICE(x), x->dtype, x->ndim, x->shape);
  lga_run_copy(L, S, c, x, fname);
  return c;
}

void lga_npy_write(lua_State *L, lga_state *S, int idx, ga_write_fn w, void *ctx, const char *fname) {
  int fortran;
  ga_array *c = contiguous(L, S, idx, 1, &fortran, fname);
  char hdr[GA_NPY_HEADER_CAP];
  size_t hl;
  if (ga_npy_format(c->dtype, fortran, c->ndim, c->shape, hdr, sizeof hdr, &hl) || w(ctx, hdr, hl) ||
      ga_chunk_write(c, w, ctx, lga_stream(S, GA_DEVICE(c))))
    lga_fail(L, fname);
  lua_pop(L, 1);
}

/* The array argument at idx: an array, or a Lua value made into a host array. */
int lga_files_array_arg(lua_State *L, lga_state *S, int idx, const char *fname) {
  if (lga_toarray(L, idx)) {
    lga_check(L, idx, fname);
    return idx;
  }
  if (lua_isnoneornil(L, idx)) lga_errorf(L, fname, "bad argument #%d (array expected, got no value)", idx);
  lga_from_value(L, S, idx, GA_CPU, -1, 0, fname);
  lua_replace(L, idx);
  return idx;
}

/* An open file that the GC closes when an error unwinds past it (a
 * userdata holding the FILE *; liolib's way, in short).  On success the
 * caller closes it with close_file and checks the result. */
static int handle_gc(lua_State *L) {
  FILE **fp = lua_touserdata(L, 1);
  if (fp && *fp) fclose(*fp);
  if (fp) *fp = NULL;
  return 0;
}

FILE **lga_files_open(lua_State *L, const char *path, const char *mode, const char *fname) {
  FILE **fp = lua_newuserdatauv(L, sizeof(FILE *), 0);
  *fp = NULL;
  if (luaL_newmetatable(L, "gpuarray.files.handle")) {
    lua_pushcfunction(L, handle_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  *fp = fopen(path, mode);
  if (!*fp) lga_errorf(L, fname, "cannot open '%s': %s", path, strerror(errno));
  return fp;
}

void lga_files_close(lua_State *L, FILE **fp, const char *path, const char *fname) {
  FILE *f = *fp;
  *fp = NULL;
  if (fclose(f)) lga_errorf(L, fname, "%s: write error: %s", path, strerror(errno));
}

/* Bytes from the current position to the end (seekable files only). */
uint64_t lga_files_left(lua_State *L, FILE *f, const char *path, const char *fname) {
  off_t here = ftello(f);
  struct stat st;
  if (here < 0 || fstat(fileno(f), &st) || !S_ISREG(st.st_mode))
    lga_errorf(L, fname, "%s: not a regular file", path);
  return st.st_size > here ? (uint64_t)(st.st_size - here) : 0;
}

/* save(path, x): NumPy adds ".npy" to a path without it. */
static int l_save(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  const char *path = luaL_checkstring(L, 1);
  size_t n = strlen(path);
  if (n < 4 || strcmp(path + n - 4, ".npy")) {
    lua_pushfstring(L, "%s.npy", path);
    lua_replace(L, 1);
    path = lua_tostring(L, 1);
  }
  int x = lga_files_array_arg(L, S, 2, fname);
  FILE **fp = lga_files_open(L, path, "wb", fname);
  file_io io = {*fp, path};
  lga_npy_write(L, S, x, file_write, &io, fname);
  lga_files_close(L, fp, path, fname);
  return 0;
}

/* load(path[, opts]): a .npy gives an array, a .npz an NpzFile. */
static int l_load(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  const char *path = luaL_checkstring(L, 1);
  static const char *const allowed[] = {"max_header_size", "allow_pickle", "mmap_mode", NULL};
  check_opts(L, 2, fname, allowed);
  size_t max_header = max_header_opt(L, 2, fname);
  int mode = mmap_mode_opt(L, 2, fname);
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_getfield(L, 2, "allow_pickle");
    if (lua_toboolean(L, -1))
      lga_errorf(L, fname, "allow_pickle is not supported: pickled data is never loaded (nothing is executed)");
    lua_pop(L, 1);
  }
  int device = result_device(L, S);
  FILE **fp = lga_files_open(L, path, "rb", fname);
  uint64_t len = lga_files_left(L, *fp, path, fname);
  unsigned char magic[6] = {0};
  size_t got = fread(magic, 1, sizeof magic, *fp);
  rewind(*fp);
  if (got >= 2 && magic[0] == 'P' && magic[1] == 'K') {
    /* mmap_mode is ignored for archives, as NumPy does */
    lga_npz_open(L, S, fp, path, device, max_header, fname);   /* takes *fp */
    return 1;
  }
  if (got < 6 || memcmp(magic, GA_NPY_MAGIC, 6)) {
    if (got >= 1 && (magic[0] == 0x80 || magic[0] == '('))
      lga_errorf(L, fname, "%s: pickled data is not supported (nothing is ever executed; save arrays with save)", path);
    lga_errorf(L, fname, "%s: not a .npy or .npz file (bad magic string)", path);
  }
  if (mode != MM_NONE) {
    load_mapped(L, S, fp, path, len, device, max_header, mode, fname);
    return 1;
  }
  file_io io = {*fp, path};
  lga_src src = {file_read, &io, len};
  lga_npy_read(L, S, &src, device, max_header, fname, path);
  return 1;
}

/* dumps(x): the .npy bytes as a string */
static int l_dumps(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  int x = lga_files_array_arg(L, S, 1, fname);
  ga_array *a = lga_toarray(L, x);
  uint64_t total = lga_npy_size(a);
  if (total > (uint64_t)SIZE_MAX / 2) lga_errorf(L, fname, "array too large for a Lua string");
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, (size_t)total);
  buf_io io = {p, (size_t)total, 0};
  lga_npy_write(L, S, x, buf_write, &io, fname);
  luaL_pushresultsize(&b, io.off);
  return 1;
}

/* loads(s[, opts]): the array of a .npy string */
static int l_loads(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  size_t n;
  const char *s = luaL_checklstring(L, 1, &n);
  static const char *const allowed[] = {"max_header_size", NULL};
  check_opts(L, 2, fname, allowed);
  size_t max_header = max_header_opt(L, 2, fname);
  mem_io m = {s, n, 0};
  lga_src src = {mem_read, &m, n};
  lga_npy_read(L, S, &src, result_device(L, S), max_header, fname, "string");
  return 1;
}

/* tobytes(x[, order]): the raw bytes, C order (default) or "F"/"A". */
static int l_tobytes(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  ga_array *x = lga_check(L, 1, fname);
  const char *order = luaL_optstring(L, 2, "C");
  if (strcmp(order, "C") && strcmp(order, "F") && strcmp(order, "A") && strcmp(order, "K"))
    lga_errorf(L, fname, "order must be one of 'C', 'F', 'A' or 'K', got '%s'", order);
  int want_f = !strcmp(order, "F") || ((!strcmp(order, "A") || !strcmp(order, "K")) && ga_is_f_contiguous(x) &&
                                       !ga_is_c_contiguous(x));
  ga_array *c;
  int fortran = 0;
  if (want_f) {
    /* Fortran order = the C order of the reversed transpose */
    ga_array *t = lga_new_view(L, 1);
    int64_t sh[GA_MAXDIM], st[GA_MAXDIM];
    for (int i = 0; i < x->ndim; i++) sh[i] = x->shape[x->ndim - 1 - i], st[i] = x->strides[x->ndim - 1 - i];
    ga_array_set_geometry(t, x->ndim, sh, st);
    c = contiguous(L, S, lua_gettop(L), 0, &fortran, fname);
  } else {
    c = contiguous(L, S, 1, 0, &fortran, fname);
  }
  size_t nb = (size_t)c->size * (size_t)GA_ITEMSIZE(c->dtype);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, nb);
  buf_io io = {p, nb, 0};
  if (ga_chunk_write(c, buf_write, &io, lga_stream(S, GA_DEVICE(c)))) lga_fail(L, fname);
  luaL_pushresultsize(&b, io.off);
  return 1;
}

/* count items of dtype from `avail` bytes (count -1: all, which must be
 * whole items when exact) */
static int64_t item_count(lua_State *L, uint64_t avail, int dtype, int64_t count, int exact, const char *fname) {
  uint64_t isz = (uint64_t)GA_ITEMSIZE(dtype);
  if (count < 0) {
    if (exact && avail % isz)
      lga_errorf(L, fname, "buffer size (%llu bytes after the offset) must be a multiple of element size (%d)",
                 (unsigned long long)avail, (int)isz);
    return (int64_t)(avail / isz);
  }
  if ((uint64_t)count > avail / isz)
    lga_errorf(L, fname, "%s is smaller than requested size: %lld items of %d bytes, there are %llu bytes",
               exact ? "buffer" : "file", (long long)count, (int)isz, (unsigned long long)avail);
  return count;
}

/* frombuffer(s, dtype[, {count=, offset=}]): a 1-D array of the bytes */
static int l_frombuffer(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  size_t n;
  const char *s = luaL_checklstring(L, 1, &n);
  int dtype = lga_opt_dtype(L, 2, fname, GA_FLOAT64);
  static const char *const allowed[] = {"count", "offset", NULL};
  check_opts(L, 3, fname, allowed);
  int64_t count = opt_int(L, 3, "count", -1, -1, fname), offset = opt_int(L, 3, "offset", 0, 0, fname);
  if ((uint64_t)offset > n)
    lga_errorf(L, fname, "offset must be non-negative and no greater than buffer length (%zu), got %lld", n,
               (long long)offset);
  int64_t items = item_count(L, n - (size_t)offset, dtype, count, 1, fname);
  ga_array *a = lga_new_array(L, S, fname, result_device(L, S), dtype, 1, &items);
  mem_io m = {s + offset, (size_t)items * (size_t)GA_ITEMSIZE(dtype), 0};
  if (ga_chunk_read(a, mem_read, &m, 0, lga_stream(S, GA_DEVICE(a)))) lga_fail(L, fname);
  return 1;
}

/* _tofile_bin(x, path): the raw bytes in C order */
static int l_tofile_bin(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  lga_check(L, 1, fname);
  const char *path = luaL_checkstring(L, 2);
  int fortran;
  ga_array *c = contiguous(L, S, 1, 0, &fortran, fname);
  FILE **fp = lga_files_open(L, path, "wb", fname);
  file_io io = {*fp, path};
  if (ga_chunk_write(c, file_write, &io, lga_stream(S, GA_DEVICE(c)))) lga_fail(L, fname);
  lga_files_close(L, fp, path, fname);
  return 0;
}

/* _fromfile_bin(path, dtype, count, offset): binary fromfile */
static int l_fromfile_bin(lua_State *L) {
  const char *fname = LGA_FNAME(L);
  lga_state *S = LGA_STATE(L);
  const char *path = luaL_checkstring(L, 1);
  int dtype = lga_opt_dtype(L, 2, fname, GA_FLOAT64);
  int64_t count = luaL_optinteger(L, 3, -1), offset = luaL_optinteger(L, 4, 0);
  if (count < -1) lga_errorf(L, fname, "count must be >= -1, got %lld", (long long)count);
  if (offset < 0) lga_errorf(L, fname, "offset must be >= 0, got %lld", (long long)offset);
  FILE **fp = lga_files_open(L, path, "rb", fname);
  uint64_t len = lga_files_left(L, *fp, path, fname);
  if ((uint64_t)offset > len)
    lga_errorf(L, fname, "%s: offset %lld is past the end of the file (%llu bytes)", path, (long long)offset,
               (unsigned long long)len);
  if (fseeko(*fp, (off_t)offset, SEEK_SET)) lga_errorf(L, fname, "%s: cannot seek: %s", path, strerror(errno));
  int64_t items = item_count(L, len - (uint64_t)offset, dtype, count, 0, fname);
  ga_array *a = lga_new_array(L, S, fname, result_device(L, S), dtype, 1, &items);
  file_io io = {*fp, path};
  if (ga_chunk_read(a, file_read, &io, 0, lga_stream(S, GA_DEVICE(a)))) lga_fail(L, fname);
  lga_files_close(L, fp, path, fname);
  return 1;
}

void lga_open_files(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"save", l_save}, {"load", l_load}, {"dumps", l_dumps}, {"loads", l_loads}, {"tobytes", l_tobytes},
    {"frombuffer", l_frombuffer}, {"tofile", l_tofile_bin}, {"fromfile", l_fromfile_bin},
    {"savez", lga_npz_save}, {"savez_compressed", lga_npz_save}, {NULL, NULL}};
  int mod = lua_gettop(L);
  lua_newtable(L);
  lga_setfuncs_host(L, fns, mod, -1, 0);
  lua_setfield(L, mod, "_files");
  lua_newtable(L);
  lga_setfuncs_host(L, fns, mod, -1, 1);
  lua_setfield(L, mod, "_files_host");
  lga_npz_register(L);
}
