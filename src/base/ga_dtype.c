/* dtype facts, casting rules and promotion, all derived from GA_DTYPES. */
#include "base/ga_dtype.h"
#include "base/ga_checked.h"
#include <math.h>
#include <string.h>

const ga_dtype_info ga_dtypes[GA_NDTYPES] = {
#define GA_X_INFO(ID, name, ch, ct, cu, sz, kind) {#name, ch, kind, sz, cu},
  GA_DTYPES(GA_X_INFO)
#undef GA_X_INFO
};

const char *const ga_casting_names[] = {"no", "equiv", "safe", "same_kind", "unsafe", NULL};

static const struct { const char *alias; int dt; } aliases[] = {
  {"bool_", GA_BOOL}, {"b1", GA_BOOL},
  {"i1", GA_INT8}, {"u1", GA_UINT8}, {"i2", GA_INT16}, {"u2", GA_UINT16},
  {"i4", GA_INT32}, {"u4", GA_UINT32}, {"i8", GA_INT64}, {"u8", GA_UINT64},
  {"int", GA_INT64}, {"intp", GA_INT64}, {"uint", GA_UINT64}, {"uintp", GA_UINT64},
  {"byte", GA_INT8}, {"ubyte", GA_UINT8}, {"short", GA_INT16}, {"ushort", GA_UINT16},
  {"intc", GA_INT32}, {"uintc", GA_UINT32}, {"long", GA_INT64}, {"ulong", GA_UINT64},
  {"longlong", GA_INT64}, {"ulonglong", GA_UINT64},
  {"f2", GA_FLOAT16}, {"f4", GA_FLOAT32}, {"f8", GA_FLOAT64},
  {"half", GA_FLOAT16}, {"single", GA_FLOAT32}, {"double", GA_FLOAT64}, {"float", GA_FLOAT64},
  {"c8", GA_COMPLEX64}, {"c16", GA_COMPLEX128}, {"complex", GA_COMPLEX128},
  {"csingle", GA_COMPLEX64}, {"cdouble", GA_COMPLEX128},
};

int ga_dtype_from_name(const char *name) {
  for (int i = 0; i < GA_NDTYPES; i++)
    if (strcmp(name, ga_dtypes[i].name) == 0) return i;
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (strcmp(name, aliases[i].alias) == 0) return aliases[i].dt;
  if (name[0] && !name[1])
    for (int i = 0; i < GA_NDTYPES; i++)
      if (name[0] == ga_dtypes[i].chr) return i;
  return -1;
}

/* Levenshtein distance of a and b, capped at 3 (enough to rank typos) */
static int edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 32 || lb > 32) return 3;
  int row[33];
  for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[lb] < 3 ? row[lb] : 3;
}

const char *ga_dtype_closest(const char *name) {
  const char *best = NULL;
  int bd = 3;   /* only names within 2 edits */
  for (int i = 0; i < GA_NDTYPES; i++) {
    int d = edit_distance(name, ga_dtypes[i].name);
    if (d < bd) { bd = d; best = ga_dtypes[i].name; }
  }
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
    if (strlen(aliases[i].alias) < 3) continue;   /* "f4" is one edit from too much */
    int d = edit_distance(name, aliases[i].alias);
    if (d < bd) { bd = d; best = aliases[i].alias; }
  }
  return best;
}

int ga_casting_from_name(const char *name) {
  for (int i = 0; ga_casting_names[i]; i++)
    if (strcmp(name, ga_casting_names[i]) == 0) return i;
  return -1;
}

/* Smallest float size (bytes) that holds every integer of `size` bytes
 * the way NumPy counts it: 1 -> f16, 2 -> f32, 4 and 8 -> f64. */
static int float_size_for_int(int size) { return size == 1 ? 2 : size == 2 ? 4 : 8; }

static bool can_cast_safe(int from, int to) {
  if (from == to) return true;
  const ga_dtype_info *f = &ga_dtypes[from], *t = &ga_dtypes[to];
  switch (f->kind) {
  case 'b': return true;
  case 'i':
    if (t->kind == 'i') return t->size >= f->size;
    if (t->kind == 'f') return t->size >= float_size_for_int(f->size);
    if (t->kind == 'c') return t->size / 2 >= float_size_for_int(f->size);
    return false;
  case 'u':
    if (t->kind == 'u') return t->size >= f->size;
    if (t->kind == 'i') return t->size > f->size;
    if (t->kind == 'f') return t->size >= float_size_for_int(f->size);
    if (t->kind == 'c') return t->size / 2 >= float_size_for_int(f->size);
    return false;
  case 'f':
    if (t->kind == 'f') return t->size >= f->size;
    if (t->kind == 'c') return t->size / 2 >= f->size;
    return false;
  case 'c': return t->kind == 'c' && t->size >= f->size;
  }
  return false;
}

static int kind_rank(char k) {
  switch (k) { case 'b': return 0; case 'u': return 1; case 'i': return 2; case 'f': return 3; default: return 4; }
}

/* Casting and promotion are looked up on every op: tabulate them once. */
static unsigned char safe_tab[GA_NDTYPES][GA_NDTYPES], same_kind_tab[GA_NDTYPES][GA_NDTYPES];
static signed char promote_tab[GA_NDTYPES][GA_NDTYPES];

__attribute__((constructor)) static void build_tables(void) {
  for (int a = 0; a < GA_NDTYPES; a++)
    for (int b = 0; b < GA_NDTYPES; b++) {
      safe_tab[a][b] = can_cast_safe(a, b);
      same_kind_tab[a][b] = safe_tab[a][b] || kind_rank(ga_dtypes[a].kind) <= kind_rank(ga_dtypes[b].kind);
    }
  for (int a = 0; a < GA_NDTYPES; a++)
    for (int b = 0; b < GA_NDTYPES; b++) {
      promote_tab[a][b] = GA_COMPLEX128;   /* everything casts to complex128 */
      for (int t = 0; t < GA_NDTYPES; t++)
        if (safe_tab[a][t] && safe_tab[b][t]) { promote_tab[a][b] = (signed char)t; break; }
    }
}

bool ga_can_cast(int from, int to, int casting) {
  switch (casting) {
  case GA_CAST_NO: case GA_CAST_EQUIV: return from == to;
  case GA_CAST_SAFE: return safe_tab[from][to];
  case GA_CAST_SAME_KIND: return same_kind_tab[from][to];
  default: return true;
  }
}

int ga_promote(int a, int b) { return promote_tab[a][b]; }

/* NumPy's type numbers order ours but for float16 (NPY_HALF is last). */
static int type_num_rank(int dt) { return dt == GA_FLOAT16 ? GA_NDTYPES : dt; }

int ga_result_type(int n, const int *dtypes, size_t stride) {
#define GA_DT_AT(i) (*(const int *)((const char *)dtypes + (size_t)(i) * stride))
  /* one or two dtypes: the rule below is the pairwise promotion (the
   * common case: every binary ufunc call) */
  if (n == 1) return GA_DT_AT(0);
  if (n == 2) return ga_promote(GA_DT_AT(0), GA_DT_AT(1));
  int main = 0;
  for (int i = 1; i < n; i++)
    if (type_num_rank(GA_DT_AT(i)) > type_num_rank(GA_DT_AT(main))) main = i;
  int m = GA_DT_AT(main), r = m;
  for (int i = 0; i < n; i++) r = ga_promote(r, ga_promote(m, GA_DT_AT(i)));
  return r;
#undef GA_DT_AT
}

bool ga_int_fits(int dt, int64_t v) {
  switch (dt) {
  case GA_BOOL: return v == 0 || v == 1;
  case GA_INT8: return v >= INT8_MIN && v <= INT8_MAX;
  case GA_UINT8: return v >= 0 && v <= UINT8_MAX;
  case GA_INT16: return v >= INT16_MIN && v <= INT16_MAX;
  case GA_UINT16: return v >= 0 && v <= UINT16_MAX;
  case GA_INT32: return v >= INT32_MIN && v <= INT32_MAX;
  case GA_UINT32: return v >= 0 && v <= (int64_t)UINT32_MAX;
  case GA_UINT64: return v >= 0;
  default: return true;
  }
}

void ga_scalar_from_int(ga_scalar *s, int dt, int64_t v) {
  memset(s, 0, sizeof *s);
  switch (dt) {
#define GA_X_SETI(ID, name, ch, ct, cu, sz, kind) case GA_##ID: s->v_##name = (ct)v; break;
    GA_DTYPES(GA_X_SETI)
#undef GA_X_SETI
  }
}

/* Integer dtype range as doubles: [lo, top) holds every value whose
 * truncation fits. */
static void int_range(int dt, double *lo, double *top) {
  int bits = 8 * GA_ITEMSIZE(dt);
  bool sgn = GA_KIND(dt) == 'i';
  *top = ldexp(1.0, sgn ? bits - 1 : bits);
  *lo = sgn ? -*top : 0.0;
}

bool ga_double_fits(int dt, double v) {
  if (!GA_IS_INT(dt)) return true;
  double lo, top;
  int_range(dt, &lo, &top);
  return (v >= lo || v > lo - 1.0) && v < top;   /* NaN fails both */
}

void ga_scalar_from_double(ga_scalar *s, int dt, double v) {
  memset(s, 0, sizeof *s);
  if (GA_IS_INT(dt)) {   /* the arrays' cast: saturating, as the host's (ga_sat_f2i) */
    ga_scalar_from_int(s, dt, (int64_t)ga_sat_f2i(v, 8 * GA_ITEMSIZE(dt), GA_KIND(dt) == 'i'));
    return;
  }
  switch (dt) {
#define GA_X_SETD(ID, name, ch, ct, cu, sz, kind) case GA_##ID: s->v_##name = (ct)v; break;
    GA_DTYPES(GA_X_SETD)
#undef GA_X_SETD
  }
}

double ga_load_double(const void *p, int dt) {
  switch (dt) {
#define GA_X_LD(ID, name, ch, ct, cu, sz, kind) case GA_##ID: { ct v; memcpy(&v, p, sizeof v); return (double)v; }
    GA_DTYPES(GA_X_LD)
#undef GA_X_LD
  }
  return 0;
}

double ga_load_imag(const void *p, int dt) {
  if (dt == GA_COMPLEX64) { ga_c64 v; memcpy(&v, p, sizeof v); return cimagf(v); }
  if (dt == GA_COMPLEX128) { ga_c128 v; memcpy(&v, p, sizeof v); return cimag(v); }
  return 0;
}

int64_t ga_load_int(const void *p, int dt) {
  switch (dt) {
#define GA_X_LI(ID, name, ch, ct, cu, sz, kind) case GA_##ID: { ct v; memcpy(&v, p, sizeof v); return (int64_t)v; }
    GA_DTYPES(GA_X_LI)
#undef GA_X_LI
  }
  return 0;
}
