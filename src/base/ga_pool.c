/* Caching allocator (design in ga_pool.h).
 *
 * Layout: each raw allocation is a segment, cut into blocks that tile it in
 * address order (doubly linked, so merging with neighbours is O(1)).  Free
 * blocks sit in per-stream bins:
 *   - bins 0..2047 hold blocks of exactly (i+1)*512 B (up to 1 MiB), so the
 *     head of the first non-empty bin >= the request is the best fit;
 *   - larger sizes use 8 sub-bins per power of two (TLSF-style), searched
 *     for the best fit within the bin (few large blocks live at once).
 * A two-level bitmap finds the first non-empty bin in O(1).  Block records
 * come from slabs and are recycled, so a cached malloc/free does no malloc. */
#include "base/ga_pool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define UNIT_SHIFT 9
#define UNIT ((size_t)1 << UNIT_SHIFT)        /* request granularity: 512 B */
#define SMALL_MAX ((size_t)1 << 20)           /* below: share a 2 MiB segment */
#define SEG_ROUND ((size_t)2 << 20)           /* segment granularity */
#define N_EXACT 2048                          /* exact bins cover 512 B..1 MiB */
#define SUB_BITS 3                            /* 8 sub-bins per power of two */
#define FIRST_FL 11                           /* log2(N_EXACT): first TLSF level */
#define N_LEVELS ((int)(sizeof(size_t) * 8) - UNIT_SHIFT - FIRST_FL)
#define N_BINS (N_EXACT + (N_LEVELS << SUB_BITS))
#define N_WORDS ((N_BINS + 63) / 64)
#define SLAB_N 64

_Static_assert(N_WORDS <= 64, "summary bitmap must fit one word");

typedef struct ga_segment ga_segment;
typedef struct stream_bins stream_bins;

struct ga_block {
  char *ptr;
  size_t size;                 /* multiple of UNIT */
  ga_segment *seg;
  ga_block *prev, *next;       /* address neighbours in the segment */
  ga_block *fprev, *fnext;     /* bin list while free; spare list when unused */
  unsigned bin;
  int is_free;
};

struct ga_segment {
  ga_segment *prev, *next;     /* the pool's list of segments */
  stream_bins *sb;             /* the stream whose bins hold its free blocks */
  ga_block *head;              /* lowest-address block; survives every merge */
  size_t size;
};

struct stream_bins {
  void *stream;
  size_t n_segments;           /* while > 0 the state cannot be dropped */
  uint64_t summary;            /* bit w: map[w] != 0 */
  uint64_t map[N_WORDS];       /* bit i: bins[i] non-empty */
  ga_block *bins[N_BINS];
};

typedef struct slab {
  struct slab *next;
  ga_block blocks[SLAB_N];
} slab;

struct ga_pool {
  pthread_mutex_t mu;
  ga_raw_alloc_fn raw_alloc;
  ga_raw_free_fn raw_free;
  void *ctx;
  size_t used, total, n_free, limit;
  int debug;
  ga_segment *segs;
  ga_block *spare;
  slab *slabs;
  stream_bins **tab;           /* open-addressed hash: stream -> bins */
  size_t tab_cap, tab_count;
  stream_bins *last;           /* most recent lookup: usually the only stream */
};

enum { OK = 0, FAIL_LIMIT = 1, FAIL_RAW = 2 };

/* ---- bins ---------------------------------------------------------------- */

static unsigned bin_of(size_t size)
{
  size_t u = size >> UNIT_SHIFT;
  if (u <= N_EXACT)
    return (unsigned)(u - 1);
  int fl = (int)(sizeof(unsigned long long) * 8) - 1 - __builtin_clzll(u);
  unsigned sl = (unsigned)(u >> (fl - SUB_BITS)) & ((1u << SUB_BITS) - 1);
  return N_EXACT + ((unsigned)(fl - FIRST_FL) << SUB_BITS) + sl;
}

static void bin_insert(stream_bins *sb, ga_block *b)
{
  unsigned i = bin_of(b->size);
  b->bin = i;
  b->fprev = NULL;
  b->fnext = sb->bins[i];      /* LIFO: the block freed last is cache-warm */
  if (b->fnext)
    b->fnext->fprev = b;
  sb->bins[i] = b;
  sb->map[i >> 6] |= 1ULL << (i & 63);
  sb->summary |= 1ULL << (i >> 6);
}

static void bin_remove(stream_bins *sb, ga_block *b)
{
  unsigned i = b->bin;
  if (b->fprev)
    b->fprev->fnext = b->fnext;
  else
    sb->bins[i] = b->fnext;
  if (b->fnext)
    b->fnext->fprev = b->fprev;
  if (!sb->bins[i]) {
    sb->map[i >> 6] &= ~(1ULL << (i & 63));
    if (!sb->map[i >> 6])
      sb->summary &= ~(1ULL << (i >> 6));
  }
}

/* First non-empty bin >= from, or -1. */
static int next_bin(const stream_bins *sb, unsigned from)
{
  if (from >= N_BINS)
    return -1;
  unsigned w = from >> 6;
  uint64_t m = sb->map[w] & (~0ULL << (from & 63));
  if (m)
    return (int)(w * 64 + (unsigned)__builtin_ctzll(m));
  uint64_t s = w + 1 < 64 ? sb->summary & (~0ULL << (w + 1)) : 0;
  if (!s)
    return -1;
  w = (unsigned)__builtin_ctzll(s);
  return (int)(w * 64 + (unsigned)__builtin_ctzll(sb->map[w]));
}

static ga_block *find_fit(const stream_bins *sb, size_t r)
{
  for (int i = next_bin(sb, bin_of(r)); i >= 0; i = next_bin(sb, (unsigned)i + 1)) {
    if (i < N_EXACT)           /* every block here has the same size >= r */
      return sb->bins[i];
    ga_block *best = NULL;
    for (ga_block *b = sb->bins[i]; b; b = b->fnext)
      if (b->size >= r && (!best || b->size < best->size)) {
        best = b;
        if (b->size == r)
          break;
      }
    if (best)                  /* only r's own bin can hold none that fits */
      return best;
  }
  return NULL;
}

/* ---- block records ------------------------------------------------------- */

/* Make sure two records are at hand, so a malloc (new segment + split) cannot
 * fail half-way through. */
static int spare_reserve(ga_pool *p)
{
  if (p->spare && p->spare->fnext)
    return 0;
  slab *s = malloc(sizeof *s);
  if (!s)
    return -1;
  s->next = p->slabs;
  p->slabs = s;
  for (int i = 0; i < SLAB_N; i++) {
    s->blocks[i].fnext = p->spare;
    p->spare = &s->blocks[i];
  }
  return 0;
}

static ga_block *block_get(ga_pool *p)
{
  ga_block *b = p->spare;
  p->spare = b->fnext;
  return b;
}

static void block_put(ga_pool *p, ga_block *b)
{
  b->fnext = p->spare;
  p->spare = b;
}

/* ---- streams ------------------------------------------------------------- */

static size_t hash_ptr(const void *s)
{
  uint64_t x = (uint64_t)(uintptr_t)s;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

static void tab_put(stream_bins **tab, size_t cap, stream_bins *sb)
{
  size_t i = hash_ptr(sb->stream) & (cap - 1);
  while (tab[i])
    i = (i + 1) & (cap - 1);
  tab[i] = sb;
}

/* Rehash into `cap` slots; with `prune`, drop states that own no segment
 * (they hold nothing, and a program may create many short-lived streams). */
static int tab_rebuild(ga_pool *p, size_t cap, int prune)
{
  stream_bins **nt = calloc(cap, sizeof *nt);
  if (!nt)
    return -1;
  size_t count = 0;
  for (size_t i = 0; i < p->tab_cap; i++) {
    stream_bins *sb = p->tab[i];
    if (!sb)
      continue;
    if (prune && sb->n_segments == 0) {
      free(sb);
      continue;
    }
    tab_put(nt, cap, sb);
    count++;
  }
  free(p->tab);
  p->tab = nt;
  p->tab_cap = cap;
  p->tab_count = count;
  p->last = NULL;
  return 0;
}

static stream_bins *sb_get(ga_pool *p, void *stream)
{
  if (p->last && p->last->stream == stream)
    return p->last;
  size_t mask = p->tab_cap - 1;
  for (size_t i = hash_ptr(stream) & mask; p->tab[i]; i = (i + 1) & mask)
    if (p->tab[i]->stream == stream)
      return p->last = p->tab[i];
  if ((p->tab_count + 1) * 2 > p->tab_cap && tab_rebuild(p, p->tab_cap * 2, 0))
    return NULL;
  stream_bins *sb = calloc(1, sizeof *sb);
  if (!sb)
    return NULL;
  sb->stream = stream;
  tab_put(p->tab, p->tab_cap, sb);
  p->tab_count++;
  return p->last = sb;
}

/* ---- segments ------------------------------------------------------------ */

static int raw_try(ga_pool *p, size_t n, void **mem)
{
  if (p->limit && (n > p->limit || p->total > p->limit - n))
    return FAIL_LIMIT;
  *mem = NULL;
  if (p->raw_alloc(p->ctx, n, mem) != 0 || !*mem)
    return FAIL_RAW;
  return OK;
}

/* Give a segment back to the raw allocator; its single block is not in a bin. */
static void segment_release(ga_pool *p, ga_segment *s)
{
  if (s->prev)
    s->prev->next = s->next;
  else
    p->segs = s->next;
  if (s->next)
    s->next->prev = s->prev;
  s->sb->n_segments--;
  p->total -= s->size;
  p->raw_free(p->ctx, s->head->ptr);
  block_put(p, s->head);
  free(s);
}

static void release_free_segments(ga_pool *p)
{
  ga_segment *s = p->segs, *nx;
  for (; s; s = nx) {
    nx = s->next;
    if (s->head->is_free && !s->head->next) {
      bin_remove(s->sb, s->head);
      p->n_free--;
      segment_release(p, s);
    }
  }
}

/* A new segment for a request of r bytes, as one (not yet split) block. */
static ga_segment *segment_new(ga_pool *p, stream_bins *sb, size_t r, int *why)
{
  size_t want = r;
  if (!p->debug) {
    if (r < SMALL_MAX)
      want = SEG_ROUND;
    else if (r <= SIZE_MAX - SEG_ROUND)
      want = (r + SEG_ROUND - 1) & ~(SEG_ROUND - 1);
  }
  ga_segment *s = malloc(sizeof *s);
  if (!s) {
    *why = FAIL_RAW;
    return NULL;
  }
  void *mem;
  int rc = raw_try(p, want, &mem);
  if (rc) {
    release_free_segments(p);
    rc = raw_try(p, want, &mem);
  }
  if (rc && want > r) {        /* the rounding itself may be what does not fit */
    want = r;
    rc = raw_try(p, want, &mem);
  }
  if (rc) {
    free(s);
    *why = rc;
    return NULL;
  }
  ga_block *b = block_get(p);
  *b = (ga_block){.ptr = mem, .size = want, .seg = s};
  *s = (ga_segment){.prev = NULL, .next = p->segs, .sb = sb, .head = b, .size = want};
  if (p->segs)
    p->segs->prev = s;
  p->segs = s;
  sb->n_segments++;
  p->total += want;
  return s;
}

/* ---- public -------------------------------------------------------------- */

ga_pool *ga_pool_new(ga_raw_alloc_fn alloc, ga_raw_free_fn free_, void *ctx)
{
  ga_pool *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->tab_cap = 8;
  p->tab = calloc(p->tab_cap, sizeof *p->tab);
  if (!p->tab || pthread_mutex_init(&p->mu, NULL)) {
    free(p->tab);
    free(p);
    return NULL;
  }
  p->raw_alloc = alloc;
  p->raw_free = free_;
  p->ctx = ctx;
  return p;
}

void ga_pool_delete(ga_pool *p)
{
  if (!p)
    return;
  ga_segment *s = p->segs, *nx;
  for (; s; s = nx) {
    nx = s->next;
    p->raw_free(p->ctx, s->head->ptr);
    free(s);
  }
  slab *sl = p->slabs, *snx;
  for (; sl; sl = snx) {
    snx = sl->next;
    free(sl);
  }
  for (size_t i = 0; i < p->tab_cap; i++)
    free(p->tab[i]);
  free(p->tab);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

ga_block *ga_pool_malloc(ga_pool *p, size_t nbytes, void *stream, void **ptr,
                         int *limit_hit)
{
  int why = FAIL_RAW;
  ga_block *b = NULL;
  if (limit_hit)
    *limit_hit = 0;
  if (ptr)
    *ptr = NULL;
  if (nbytes > SIZE_MAX - SEG_ROUND)   /* cannot even be rounded */
    return NULL;
  size_t r = nbytes ? (nbytes + UNIT - 1) & ~(UNIT - 1) : UNIT;

  pthread_mutex_lock(&p->mu);
  stream_bins *sb = sb_get(p, stream);
  if (!sb || spare_reserve(p))
    goto fail;
  b = p->debug ? NULL : find_fit(sb, r);
  if (b) {
    bin_remove(sb, b);
    p->n_free--;
  } else {
    ga_segment *s = segment_new(p, sb, r, &why);
    if (!s)
      goto fail;
    b = s->head;
  }
  if (b->size > r) {           /* split; the rest (>= 512 B) stays cached */
    ga_block *rest = block_get(p);
    *rest = (ga_block){.ptr = b->ptr + r, .size = b->size - r, .seg = b->seg,
                       .prev = b, .next = b->next, .is_free = 1};
    if (b->next)
      b->next->prev = rest;
    b->next = rest;
    b->size = r;
    bin_insert(sb, rest);
    p->n_free++;
  }
  b->is_free = 0;
  p->used += r;
  pthread_mutex_unlock(&p->mu);
  if (ptr)
    *ptr = b->ptr;
  return b;

fail:
  pthread_mutex_unlock(&p->mu);
  if (limit_hit)
    *limit_hit = why == FAIL_LIMIT;
  return NULL;
}

void ga_pool_free(ga_pool *p, ga_block *b)
{
  if (!b)
    return;
  pthread_mutex_lock(&p->mu);
  if (b->is_free) {            /* double free: ignore rather than corrupt bins */
    pthread_mutex_unlock(&p->mu);
    return;
  }
  stream_bins *sb = b->seg->sb;
  p->used -= b->size;
  b->is_free = 1;
  ga_block *pr = b->prev, *nx = b->next;
  if (pr && pr->is_free) {     /* the left block survives: head stays head */
    bin_remove(sb, pr);
    p->n_free--;
    pr->size += b->size;
    pr->next = nx;
    if (nx)
      nx->prev = pr;
    block_put(p, b);
    b = pr;
  }
  if (nx && nx->is_free) {
    bin_remove(sb, nx);
    p->n_free--;
    b->size += nx->size;
    b->next = nx->next;
    if (nx->next)
      nx->next->prev = b;
    block_put(p, nx);
  }
  if (p->debug && !b->prev && !b->next) {
    segment_release(p, b->seg);
  } else {
    bin_insert(sb, b);
    p->n_free++;
  }
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_free_all_blocks(ga_pool *p)
{
  pthread_mutex_lock(&p->mu);
  release_free_segments(p);
  tab_rebuild(p, p->tab_cap, 1);   /* on failure the states simply stay */
  pthread_mutex_unlock(&p->mu);
}

#define GETTER(name, field)                  \
  size_t name(ga_pool *p)                    \
  {                                          \
    pthread_mutex_lock(&p->mu);              \
    size_t v = p->field;                     \
    pthread_mutex_unlock(&p->mu);            \
    return v;                                \
  }
GETTER(ga_pool_used_bytes, used)
GETTER(ga_pool_total_bytes, total)
GETTER(ga_pool_n_free_blocks, n_free)
GETTER(ga_pool_get_limit, limit)

void ga_pool_set_limit(ga_pool *p, size_t limit)
{
  pthread_mutex_lock(&p->mu);
  p->limit = limit;
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_set_debug(ga_pool *p, int on)
{
  pthread_mutex_lock(&p->mu);
  p->debug = on != 0;
  if (p->debug)                /* cached segments would hide buffers from tools */
    release_free_segments(p);
  pthread_mutex_unlock(&p->mu);
}
