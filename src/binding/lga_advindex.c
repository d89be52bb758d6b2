/* Advanced indexing in Lua: x[key] and x[key] = v when the key holds an
 * index array or a mask (the methods table's __advget / __advset, called by
 * lga_index.c), and ga.take, ga.put, ga.compress, ga.add_at (ga.scatter_add).
 * Masks are turned into 1-based coordinates on the host (their count sets
 * the result's shape, so a mask on the GPU is read back, as CuPy does); index
 * arrays stay where they are and are checked by the kernel (ga_gather.h). */
#include "binding/lga_core.h"
#include "base/ga_shape.h"
#include "core/ga_backend.h"
#include "core/ga_gather.h"
#include <stdlib.h>
#include <string.h>

/* A (k, nnz) int64 array of the mask's 1-based coordinates on `device`
 * (pushed).  The mask at stack index mi. */
static ga_array *push_coords(lua_State *L, lga_state *S, int mi, int device, const char *fname) {
  ga_array *h = lga_to_device(L, S, mi, GA_CPU, GA_BOOL, 0, fname);
  int64_t shape[2] = {h->ndim, ga_mask_count(h)};
  ga_array *c = lga_new_array(L, S, fname, GA_CPU, GA_INT64, 2, shape);
  ga_mask_coords(h, c);
  lua_remove(L, -2);
  if (device == GA_CPU) return c;
  ga_array *d = lga_to_device(L, S, -1, device, -1, 0, fname);
  lua_remove(L, -2);
  return d;
}

/* Plan key (stack index key) on x (index xi) into a new userdata-held
 * ga_adv (pushed, with the temporaries it points to, which must stay on the
 * stack while it is used).  copy_idx: an index array sharing x's memory is
 * copied first (x is about to be written). */
static ga_adv *prepare(lua_State *L, lga_state *S, int xi, int key, int copy_idx, const char *fname) {
  ga_array *x = lga_check(L, xi, fname);
  lga_check_current(L, S, x, fname);   /* kernels run on the current device (CuPy) */
  key = lua_absindex(L, key);
  ga_adv *adv = lua_newuserdatauv(L, sizeof *adv, 0);
  ga_index_item items[2 * GA_MAXDIM];
  const ga_array *coords[2 * GA_MAXDIM] = {NULL};
  int anchor = lua_gettop(L) + 1;   /* the key's index arrays, pushed in order */
  int n = lga_parse_key(L, key, items, 2 * GA_MAXDIM, fname);
  luaL_checkstack(L, n + 8, fname);
  int dev = GA_DEVICE(x);
  /* the converted copies are pushed above the anchors: every array that an
   * item points to stays on the stack until the caller returns */
  for (int k = 0; k < n; k++) {
    if (items[k].kind != GA_IDX_ARRAY) continue;
    int at = anchor++;
    const ga_array *a = items[k].arr;
    if (a->dtype == GA_BOOL)
      coords[k] = push_coords(L, S, at, dev, fname);
    else if (GA_IS_INT(a->dtype) && (GA_DEVICE(a) != dev || (copy_idx && a->buf == x->buf)))
      items[k].arr = lga_to_device(L, S, at, dev, -1, GA_DEVICE(a) == dev, fname);
  }
  if (ga_adv_prepare(x, items, n, coords, adv)) lga_fail(L, fname);
  return adv;
}

/* The value of an assignment as an array of x's dtype on x's device that
 * does not share x's memory (pushed). */
static ga_array *value_arg(lua_State *L, lga_state *S, const ga_array *x, int vi, const char *fname) {
  vi = lua_absindex(L, vi);
  lga_check_number(L, vi, x->dtype, fname);
  ga_array *v = lga_toarray(L, vi);
  if (v && !v->buf) lga_errorf(L, fname, "value array has been freed");
  if (v && GA_DEVICE(v) == GA_DEVICE(x) && v->dtype == x->dtype)
    return lga_to_device(L, S, vi, GA_DEVICE(x), -1, v->buf == x->buf, fname);
  return lga_from_value(L, S, vi, GA_DEVICE(x), x->dtype, 0, fname);
}

/* methods.__advget(x, key) */
static int l_advget(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fn = "getitem";
  ga_array *x = lga_check(L, 1, fn);
  ga_adv *adv = prepare(L, S, 1, 2, 0, fn);
  ga_array *out = lga_new_array(L, S, fn, GA_DEVICE(x), x->dtype, adv->ndim, adv->shape);
  if (ga_adv_get(adv, out, lga_stream(S, GA_DEVICE(x)))) return lga_fail(L, fn);
  return 1;
}

static int set_or_add(lua_State *L, int add, const char *fn) {
  lga_state *S = LGA_STATE(L);
  ga_array *x = lga_check(L, 1, fn);
  if (lua_gettop(L) < 3) return lga_errorf(L, fn, "expects an array, an index and a value");
  lua_settop(L, 3);
  ga_adv *adv = prepare(L, S, 1, 2, 1, fn);
  ga_array *v = value_arg(L, S, x, 3, fn);
  if (ga_adv_set(adv, v, add, lga_stream(S, GA_DEVICE(x)))) return lga_fail(L, fn);
  return 0;
}

/* methods.__advset(x, key, v) */
static int l_advset(lua_State *L) { return set_or_add(L, 0, "setitem"); }

/* ga.add_at(x, key, v) / ga.scatter_add */
static int l_add_at(lua_State *L) { return set_or_add(L, 1, LGA_FNAME(L)); }
static int l_scatter_add(lua_State *L) { return set_or_add(L, 1, LGA_FNAME(L)); }

/* An integer index array on x's device from an array, table or number at
 * ii (pushed). */
static ga_array *index_arg(lua_State *L, lga_state *S, const ga_array *x, int ii, int copy, const char *fname) {
  ii = lua_absindex(L, ii);
  ga_array *a = lga_toarray(L, ii);
  if (a && !a->buf) lga_errorf(L, fname, "index array has been freed");
  if (!a && lua_isnoneornil(L, ii)) lga_errorf(L, fname, "indices expected");
  if (a) {
    a = lga_to_device(L, S, ii, GA_DEVICE(x), -1, copy && a->buf == x->buf, fname);
  } else {
    a = lga_from_value(L, S, ii, GA_DEVICE(x), -1, 0, fname);
    if (a->size == 0 && !GA_IS_INT(a->dtype)) {   /* {} is float64 to NumPy, but no index */
      lua_pop(L, 1);
      a = lga_from_value(L, S, ii, GA_DEVICE(x), GA_INT64, 0, fname);
    }
  }
  if (!GA_IS_INT(a->dtype))
    lga_errorf(L, fname, "indices must be integers (1-based), got an array of %s", ga_dtypes[a->dtype].name);
  return a;
}

/* The array at ai as a flat C-ordered 1-d array (pushed): a view when it is
 * C-contiguous, else a copy. */
static ga_array *push_flat(lua_State *L, lga_state *S, int ai, const char *fname) {
  ai = lua_absindex(L, ai);
  ga_array *a = lga_toarray(L, ai), *f;
  if (ga_is_c_contiguous(a)) {
    f = lga_new_view(L, ai);
  } else {
    f = lga_new_array(L, S, fname, GA_DEVICE(a), a->dtype, a->ndim, a->shape);
    if (ga_copy(f, a, lga_stream(S, GA_DEVICE(a)))) lga_fail(L, fname);
  }
  f->ndim = 1;
  f->shape[0] = f->size;
  f->strides[0] = GA_ITEMSIZE(f->dtype);
  return f;
}

/* take with x at xi, an integer index array at ii (x's device), the axis at
 * axi (nil: the flattened x). */
static int take_impl(lua_State *L, lga_state *S, int xi, int ii, int axi, const char *fname) {
  ga_array *x = lga_check(L, xi, fname);
  lga_check_current(L, S, x, fname);
  ga_array *idx = lga_toarray(L, ii);
  const ga_array *src = x;
  ga_index_item items[GA_MAXDIM + 1];
  memset(items, 0, sizeof items);
  int n = 0;
  if (lua_isnoneornil(L, axi)) {
    src = push_flat(L, S, xi, fname);
  } else {
    int ok;
    lua_Integer ax = lua_tointegerx(L, axi, &ok);
    if (!ok) return lga_errorf(L, fname, "axis must be an integer or nil, got %s", luaL_typename(L, axi));
    int a0;
    if (ga_axis(ax, x->ndim, &a0)) return lga_fail(L, fname);
    for (; n < a0; n++) items[n].kind = GA_IDX_RANGE, items[n].step = 1;
  }
  items[n].kind = GA_IDX_ARRAY;
  items[n++].arr = idx;
  ga_adv *adv = lua_newuserdatauv(L, sizeof *adv, 0);
  if (ga_adv_prepare(src, items, n, NULL, adv)) return lga_fail(L, fname);
  ga_array *out = lga_new_array(L, S, fname, GA_DEVICE(x), x->dtype, adv->ndim, adv->shape);
  if (ga_adv_get(adv, out, lga_stream(S, GA_DEVICE(x)))) return lga_fail(L, fname);
  return 1;
}

/* ga.take(x, indices, axis) */
static int l_take(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fn = LGA_FNAME(L);
  ga_array *x = lga_check(L, 1, fn);
  lua_settop(L, 3);
  index_arg(L, S, x, 2, 0, fn);
  lua_replace(L, 2);
  return take_impl(L, S, 1, 2, 3, fn);
}

/* ga.compress(condition, x, axis) */
static int l_compress(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fn = LGA_FNAME(L);
  ga_array *x = lga_check(L, 2, fn);
  lua_settop(L, 3);
  ga_array *c = lga_from_value(L, S, 1, GA_CPU, GA_BOOL, 0, fn);
  if (c->ndim != 1) return lga_errorf(L, fn, "condition must be a 1-d array, got %d dimensions", c->ndim);
  int64_t shape[2] = {1, ga_mask_count(c)};
  ga_array *pos = lga_new_array(L, S, fn, GA_CPU, GA_INT64, 2, shape);
  ga_mask_coords(c, pos);
  pos->ndim = 1;   /* our own fresh array: the row is all of it */
  pos->shape[0] = shape[1];
  pos->strides[0] = 8;
  if (GA_DEVICE(x) != GA_CPU) lga_to_device(L, S, -1, GA_DEVICE(x), -1, 0, fn);
  lua_replace(L, 1);
  lua_settop(L, 3);
  return take_impl(L, S, 2, 1, 3, fn);
}

/* ga.put(x, indices, values) */
static int l_put(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  const char *fn = LGA_FNAME(L);
  ga_array *x = lga_check(L, 1, fn);
  if (lua_gettop(L) < 3) return lga_errorf(L, fn, "expects an array, indices and values");
  lga_check_current(L, S, x, fn);
  lua_settop(L, 3);
  void *stream = lga_stream(S, GA_DEVICE(x));
  index_arg(L, S, x, 2, 1, fn);                 /* 4 */
  ga_array *iflat = push_flat(L, S, 4, fn);     /* 5 */
  value_arg(L, S, x, 3, fn);                    /* 6 */
  ga_array *vflat = push_flat(L, S, 6, fn);     /* 7 */
  int64_t ni = iflat->size, nv = vflat->size;
  if (ni == 0 || nv == 0) return 0;             /* NumPy: nothing to put */
  if (nv != ni && nv != 1) {
    /* values repeat cyclically: tile them (q, nv) and read the first ni */
    int64_t q = ni / nv + (ni % nv != 0), shape[2] = {q, nv};   /* ceil, no overflow */
    ga_array *t = lga_new_array(L, S, fn, GA_DEVICE(x), x->dtype, 2, shape);
    if (ga_copy(t, vflat, stream)) return lga_fail(L, fn);
    t->ndim = 1;
    t->shape[0] = ni;
    t->size = ni;
    t->strides[0] = GA_ITEMSIZE(x->dtype);
    vflat = t;
  }
  /* a view of x, or (x not C-contiguous) a copy that is written back */
  int tmp = !ga_is_c_contiguous(x);
  ga_array *target = push_flat(L, S, 1, fn);
  ga_index_item item;
  memset(&item, 0, sizeof item);
  item.kind = GA_IDX_ARRAY;
  item.arr = iflat;
  ga_adv *adv = lua_newuserdatauv(L, sizeof *adv, 0);
  if (ga_adv_prepare(target, &item, 1, NULL, adv)) return lga_fail(L, fn);
  if (ga_adv_set(adv, vflat, 0, stream)) return lga_fail(L, fn);
  if (tmp) {
    ga_array back = *target;
    back.ndim = x->ndim;
    memcpy(back.shape, x->shape, sizeof back.shape);
    ga_strides_c(x->ndim, x->shape, GA_ITEMSIZE(x->dtype), back.strides);
    if (ga_copy(x, &back, stream)) return lga_fail(L, fn);
  }
  return 0;
}


void lga_open_advindex(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg fns[] = {
    {"take", l_take}, {"put", l_put}, {"compress", l_compress}, {"add_at", l_add_at},
    {"scatter_add", l_scatter_add},
    {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  /* the hooks lga_index.c calls, in the methods table (hidden: "__") */
  lua_getfield(L, mod, "ndarray_methods");
  static const luaL_Reg hooks[] = {{"__advget", l_advget}, {"__advset", l_advset}, {NULL, NULL}};
  for (const luaL_Reg *h = hooks; h->name; h++) {
    lua_getfield(L, mod, "_state");
    lua_pushcclosure(L, h->func, 1);
    lua_setfield(L, -2, h->name);
  }
  lua_settop(L, mod);
}
