/* The .npy header (numpy/lib/format.py), parsed as hostile input: the
 * magic, a version of 1.0, 2.0 or 3.0, a length within max_header, then a
 * Python dict literal with exactly the keys 'descr' (a dtype string of
 * ours, either byte order), 'fortran_order' (True/False) and 'shape' (a
 * tuple of non-negative integers), nothing else.  Nothing is evaluated:
 * the dict is read by the small scanner below, so object arrays, pickles
 * and structured dtypes are refused by name. */
#include "base/ga_npy.h"
#include "base/ga_checked.h"
#include <stdio.h>
#include <string.h>

static const char *const descrs[GA_NDTYPES] = {
  [GA_BOOL] = "|b1", [GA_INT8] = "|i1", [GA_UINT8] = "|u1", [GA_INT16] = "<i2", [GA_UINT16] = "<u2",
  [GA_INT32] = "<i4", [GA_UINT32] = "<u4", [GA_INT64] = "<i8", [GA_UINT64] = "<u8", [GA_FLOAT16] = "<f2",
  [GA_FLOAT32] = "<f4", [GA_FLOAT64] = "<f8", [GA_COMPLEX64] = "<c8", [GA_COMPLEX128] = "<c16",
};

const char *ga_npy_descr(int dtype) {
  return dtype >= 0 && dtype < GA_NDTYPES ? descrs[dtype] : NULL;
}

/* A cursor over the dict text. */
typedef struct scan {
  const char *p, *end;
} scan;

static void skip_ws(scan *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static int eat(scan *s, char c) {
  skip_ws(s);
  if (s->p < s->end && *s->p == c) {
    s->p++;
    return 1;
  }
  return 0;
}

/* A quoted string without escapes, at most cap-1 bytes, into out. */
static int read_string(scan *s, char *out, size_t cap) {
  skip_ws(s);
  if (s->p >= s->end || (*s->p != '\'' && *s->p != '"')) return 0;
  char q = *s->p++;
  size_t n = 0;
  while (s->p < s->end && *s->p != q) {
    if (*s->p == '\\' || n + 1 >= cap) return 0;
    out[n++] = *s->p++;
  }
  if (s->p >= s->end) return 0;
  s->p++;
  out[n] = 0;
  return 1;
}

static int word(scan *s, const char *w) {
  skip_ws(s);
  size_t n = strlen(w);
  if ((size_t)(s->end - s->p) >= n && !memcmp(s->p, w, n)) {
    s->p += n;
    return 1;
  }
  return 0;
}

/* The descr string: byte order then type code and size. */
static int parse_descr(const char *d, ga_npy_header *h) {
  static const struct { const char *code; int dtype; } codes[] = {
    {"b1", GA_BOOL}, {"i1", GA_INT8}, {"u1", GA_UINT8}, {"i2", GA_INT16}, {"u2", GA_UINT16},
    {"i4", GA_INT32}, {"u4", GA_UINT32}, {"i8", GA_INT64}, {"u8", GA_UINT64}, {"f2", GA_FLOAT16},
    {"f4", GA_FLOAT32}, {"f8", GA_FLOAT64}, {"c8", GA_COMPLEX64}, {"c16", GA_COMPLEX128},
  };
  char order = d[0];
  const char *code = d;
  if (order == '<' || order == '>' || order == '|' || order == '=') code++;
  else order = '=';
  if (code[0] == 'O')
    return ga_err(GA_EINVAL, "object arrays are not supported (descr '%s'; pickled data is never loaded)", d);
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    if (strcmp(code, codes[i].code)) continue;
    h->dtype = codes[i].dtype;
    h->swap = order == '>' && GA_ITEMSIZE(h->dtype) > 1;
    return GA_OK;
  }
  return ga_err(GA_EINVAL, "unsupported dtype descr '%s' (supported: bool, int8-64, uint8-64, float16/32/64, "
                "complex64/128, in either byte order)", d);
}

static int parse_shape(scan *s, ga_npy_header *h) {
  if (!eat(s, '(')) return ga_err(GA_EINVAL, "bad .npy header: 'shape' is not a tuple");
  h->ndim = 0;
  for (;;) {
    skip_ws(s);
    if (eat(s, ')')) break;
    if (s->p < s->end && *s->p == '-') return ga_err(GA_EINVAL, "bad .npy header: negative dimension in 'shape'");
    if (s->p >= s->end || *s->p < '0' || *s->p > '9')
      return ga_err(GA_EINVAL, "bad .npy header: 'shape' holds something other than integers");
    int64_t v = 0;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
      if (!ga_mul_i64(v, 10, &v) || !ga_add_i64(v, *s->p - '0', &v))
        return ga_err(GA_EINVAL, "bad .npy header: a dimension of 'shape' overflows int64");
      s->p++;
    }
    if (s->p < s->end && (*s->p == 'L' || *s->p == 'l')) s->p++;   /* Python 2's long */
    if (h->ndim == GA_MAXDIM) return ga_err(GA_EINVAL, "bad .npy header: more than %d dimensions", GA_MAXDIM);
    h->shape[h->ndim++] = v;
    if (eat(s, ',')) continue;
    if (!eat(s, ')')) return ga_err(GA_EINVAL, "bad .npy header: malformed 'shape' tuple");
    /* (3) is an int in Python, not a tuple: NumPy refuses it too */
    if (h->ndim == 1) return ga_err(GA_EINVAL, "bad .npy header: 'shape' is not a tuple");
    break;
  }
  return GA_OK;
}

static int parse_dict(const char *text, size_t len, ga_npy_header *h) {
  scan s = {text, text + len};
  int seen_descr = 0, seen_fortran = 0, seen_shape = 0;
  if (!eat(&s, '{')) return ga_err(GA_EINVAL, "bad .npy header: not a dict");
  for (;;) {
    if (eat(&s, '}')) break;
    char key[32];
    if (!read_string(&s, key, sizeof key)) return ga_err(GA_EINVAL, "bad .npy header: expected a quoted key");
    if (!eat(&s, ':')) return ga_err(GA_EINVAL, "bad .npy header: expected ':' after '%s'", key);
    int rc;
    if (!strcmp(key, "descr")) {
      if (seen_descr++) return ga_err(GA_EINVAL, "bad .npy header: 'descr' given twice");
      skip_ws(&s);
      if (s.p < s.end && (*s.p == '[' || *s.p == '{'))
        return ga_err(GA_EINVAL, "structured dtypes are not supported (descr is a %s)", *s.p == '[' ? "list" : "dict");
      char d[16];
      if (!read_string(&s, d, sizeof d)) return ga_err(GA_EINVAL, "bad .npy header: 'descr' is not a short string");
      if ((rc = parse_descr(d, h))) return rc;
    } else if (!strcmp(key, "fortran_order")) {
      if (seen_fortran++) return ga_err(GA_EINVAL, "bad .npy header: 'fortran_order' given twice");
      if (word(&s, "True")) h->fortran = 1;
      else if (word(&s, "False")) h->fortran = 0;
      else return ga_err(GA_EINVAL, "bad .npy header: 'fortran_order' is not True or False");
    } else if (!strcmp(key, "shape")) {
      if (seen_shape++) return ga_err(GA_EINVAL, "bad .npy header: 'shape' given twice");
      if ((rc = parse_shape(&s, h))) return rc;
    } else {
      return ga_err(GA_EINVAL, "bad .npy header: unexpected key '%s'", key);
    }
    if (eat(&s, '}')) break;
    if (!eat(&s, ',')) return ga_err(GA_EINVAL, "bad .npy header: expected ',' or '}' after '%s'", key);
  }
  skip_ws(&s);
  if (s.p != s.end) return ga_err(GA_EINVAL, "bad .npy header: text after the dict");
  if (!seen_descr || !seen_fortran || !seen_shape)
    return ga_err(GA_EINVAL, "bad .npy header: missing key '%s'",
                  !seen_descr ? "descr" : !seen_fortran ? "fortran_order" : "shape");
  int64_t size = 1;
  for (int i = 0; i < h->ndim; i++)
    if (!ga_mul_i64(size, h->shape[i], &size)) return ga_err(GA_EINVAL, "bad .npy header: %s", GA_TOO_BIG);
  if (!ga_bytes_i64(size, GA_ITEMSIZE(h->dtype), &h->nbytes) || (uint64_t)h->nbytes > (uint64_t)SIZE_MAX)
    return ga_err(GA_EINVAL, "bad .npy header: %s", GA_TOO_BIG);
  h->size = size;
  return GA_OK;
}

int ga_npy_parse(const unsigned char *buf, size_t n, size_t max_header, ga_npy_header *h, size_t *need) {
  memset(h, 0, sizeof *h);
  size_t m = n < GA_NPY_MAGIC_LEN ? n : GA_NPY_MAGIC_LEN;
  if (memcmp(buf, GA_NPY_MAGIC, m)) return ga_err(GA_EINVAL, "not a .npy file (bad magic string)");
  if (n < 8) {
    *need = 8;
    return GA_NPY_MORE;
  }
  h->major = buf[6];
  h->minor = buf[7];
  if (h->major < 1 || h->major > 3 || h->minor != 0)
    return ga_err(GA_EINVAL, "unsupported .npy format version %d.%d (1.0, 2.0 and 3.0 are read)", h->major, h->minor);
  size_t prefix = h->major == 1 ? 10 : 12;
  if (n < prefix) {
    *need = prefix;
    return GA_NPY_MORE;
  }
  uint64_t hlen = h->major == 1 ? (uint64_t)buf[8] | (uint64_t)buf[9] << 8
                                : (uint64_t)buf[8] | (uint64_t)buf[9] << 8 | (uint64_t)buf[10] << 16 |
                                      (uint64_t)buf[11] << 24;
  if (hlen > max_header)
    return ga_err(GA_EINVAL, "the .npy header is %llu bytes, over the limit of %zu (NumPy's max_header_size; "
                  "pass {max_header_size = n} to allow more)", (unsigned long long)hlen, max_header);
  if (n < prefix + hlen) {
    *need = prefix + (size_t)hlen;
    return GA_NPY_MORE;
  }
  h->data_offset = prefix + (size_t)hlen;
  int major = h->major, minor = h->minor;
  size_t off = h->data_offset;
  int rc = parse_dict((const char *)buf + prefix, (size_t)hlen, h);
  h->major = major, h->minor = minor, h->data_offset = off;
  return rc;
}

int ga_npy_format(int dtype, int fortran, int ndim, const int64_t *shape, char *out, size_t cap, size_t *len) {
  char dict[GA_NPY_HEADER_CAP];
  int k = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (", descrs[dtype],
                   fortran ? "True" : "False");
  for (int i = 0; i < ndim; i++)
    k += snprintf(dict + k, sizeof dict - (size_t)k, i ? ", %lld" : "%lld", (long long)shape[i]);
  k += snprintf(dict + k, sizeof dict - (size_t)k, "%s), }", ndim == 1 ? "," : "");
  size_t hl = (size_t)k + 1;                          /* + '\n' */
  int major = hl + 10 > 65535 + 10 ? 2 : 1;
  size_t prefix = major == 1 ? 10 : 12;
  size_t total = (prefix + hl + 63) / 64 * 64;
  if (total > cap) return ga_err(GA_EINVAL, "npy header buffer too small");
  size_t dl = total - prefix;                         /* dict + padding + '\n' */
  memcpy(out, GA_NPY_MAGIC, 6);
  out[6] = (char)major;
  out[7] = 0;
  out[8] = (char)(dl & 0xff);
  out[9] = (char)(dl >> 8 & 0xff);
  if (major == 2) {
    out[10] = (char)(dl >> 16 & 0xff);
    out[11] = (char)(dl >> 24 & 0xff);
  }
  memcpy(out + prefix, dict, (size_t)k);
  memset(out + prefix + k, ' ', total - prefix - (size_t)k - 1);
  out[total - 1] = '\n';
  *len = total;
  return GA_OK;
}

void ga_npy_swap(void *data, int64_t n, int dtype) {
  int unit = GA_IS_COMPLEX(dtype) ? GA_ITEMSIZE(dtype) / 2 : GA_ITEMSIZE(dtype);
  if (unit == 1) return;
  int64_t count = GA_IS_COMPLEX(dtype) ? 2 * n : n;
  unsigned char *p = data;
  for (int64_t i = 0; i < count; i++, p += unit) {
    for (int a = 0, b = unit - 1; a < b; a++, b--) {
      unsigned char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
  }
}
