/* Every fact about a dtype lives in the one X-macro list below.
 * Order is NumPy's loop order (? b B h H i I l L e f d F D): the op
 * resolution's linear search and ga_promote rely on it. */
#ifndef GA_DTYPE_H
#define GA_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <complex.h>

typedef _Float16 ga_f16;
typedef float _Complex ga_c64;
typedef double _Complex ga_c128;

/* X(ID, name, numpy char, host C type, CUDA C type, itemsize, kind).
 * (The reductions' accumulator dtypes are their rule table's,
 * core/ga_reduce.h GA_REDRULE_TOKENS.) */
#define GA_DTYPES(X)                                                        \
  X(BOOL,       bool,       '?', bool,     "bool",               1, 'b')  \
  X(INT8,       int8,       'b', int8_t,   "signed char",        1, 'i')  \
  X(UINT8,      uint8,      'B', uint8_t,  "unsigned char",      1, 'u')  \
  X(INT16,      int16,      'h', int16_t,  "short",              2, 'i')  \
  X(UINT16,     uint16,     'H', uint16_t, "unsigned short",     2, 'u')  \
  X(INT32,      int32,      'i', int32_t,  "int",                4, 'i')  \
  X(UINT32,     uint32,     'I', uint32_t, "unsigned int",       4, 'u')  \
  X(INT64,      int64,      'l', int64_t,  "long long",          8, 'i')  \
  X(UINT64,     uint64,     'L', uint64_t, "unsigned long long", 8, 'u')  \
  X(FLOAT16,    float16,    'e', ga_f16,   "ga_half",            2, 'f')  \
  X(FLOAT32,    float32,    'f', float,    "float",              4, 'f')  \
  X(FLOAT64,    float64,    'd', double,   "double",             8, 'f')  \
  X(COMPLEX64,  complex64,  'F', ga_c64,   "ga_complex64",       8, 'c')  \
  X(COMPLEX128, complex128, 'D', ga_c128,  "ga_complex128",     16, 'c')

typedef enum ga_dtype {
#define GA_X_ENUM(ID, name, ch, ct, cu, sz, kind) GA_##ID,
  GA_DTYPES(GA_X_ENUM)
#undef GA_X_ENUM
  GA_NDTYPES
} ga_dtype;

typedef struct ga_dtype_info {
  const char *name;   /* "float32" */
  char chr;           /* NumPy type char */
  char kind;          /* 'b' 'i' 'u' 'f' 'c' */
  int size;           /* itemsize in bytes */
  const char *cuda;   /* CUDA C type name used by generated kernels */
} ga_dtype_info;

extern const ga_dtype_info ga_dtypes[GA_NDTYPES];

#define GA_ITEMSIZE(dt) (ga_dtypes[(dt)].size)
#define GA_KIND(dt) (ga_dtypes[(dt)].kind)
#define GA_IS_COMPLEX(dt) (GA_KIND(dt) == 'c')
#define GA_IS_FLOAT(dt) (GA_KIND(dt) == 'f')
#define GA_IS_INT(dt) (GA_KIND(dt) == 'i' || GA_KIND(dt) == 'u')

typedef enum ga_casting {
  GA_CAST_NO, GA_CAST_EQUIV, GA_CAST_SAFE, GA_CAST_SAME_KIND, GA_CAST_UNSAFE
} ga_casting;

/* Name, alias ("float", "f4", "single", ...) or type char -> dtype; -1 if unknown. */
int ga_dtype_from_name(const char *name);
/* The dtype name or alias closest to a misspelt one (within 2 edits), or
 * NULL: for "did you mean" in messages. */
const char *ga_dtype_closest(const char *name);
int ga_casting_from_name(const char *name); /* -1 if unknown */
extern const char *const ga_casting_names[];
bool ga_can_cast(int from, int to, int casting);
/* NumPy's promote_types: the smallest dtype both cast to safely. */
int ga_promote(int a, int b);
/* NumPy's result_type of n dtypes (PyArray_PromoteDTypeSequence): the
 * "main" dtype -- the latest in NumPy's type-number order, where float16
 * comes last -- promotes with each of the others and those results promote
 * together.  Not a pairwise fold: uint8, int8, float16 gives float16, not
 * float32.  dtypes[i] is read at (char *)dtypes + i * stride (a member of
 * an array of structs: stride = sizeof the struct). */
int ga_result_type(int n, const int *dtypes, size_t stride);

/* A scalar value held in any dtype (16 bytes covers complex128). */
typedef union ga_scalar {
#define GA_X_MEMBER(ID, name, ch, ct, cu, sz, kind) ct v_##name;
  GA_DTYPES(GA_X_MEMBER)
#undef GA_X_MEMBER
  unsigned char bytes[16];
} ga_scalar;

/* Convert a Lua integer or float to dtype `dt`: integers wrap (C casting);
 * a float into an integer dtype truncates and saturates, NaN -> 0, as the
 * array casts do (never C's undefined conversion).  Values a user puts into
 * an array are checked first with ga_int_fits / ga_double_fits. */
void ga_scalar_from_int(ga_scalar *s, int dt, int64_t v);
void ga_scalar_from_double(ga_scalar *s, int dt, double v);
/* Read element of dtype `dt` at p: as double (real part) and as int64. */
double ga_load_double(const void *p, int dt);
double ga_load_imag(const void *p, int dt);
int64_t ga_load_int(const void *p, int dt);
/* Does integer v fit dtype dt (integers and bool)?  Floats always fit. */
bool ga_int_fits(int dt, int64_t v);
/* Does the float v, truncated toward zero, fit dtype dt?  False for NaN and
 * +-inf into integers (NumPy's OverflowError/ValueError for Python floats);
 * floats, complex and bool always fit. */
bool ga_double_fits(int dt, double v);

#endif
