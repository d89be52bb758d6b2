/* Unit test of the caching allocator (src/ga_pool.c) over a malloc-backed fake
 * raw allocator with counters.  `test_pool` runs the checks; `test_pool bench`
 * times cached malloc/free pairs. */
#include "base/ga_pool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)

#include "check.h"

/* used / total / n_free_blocks in one check, with the actual values shown. */
static void stats(ga_pool *p, size_t u, size_t t, size_t n, const char *what,
                  int line)
{
  size_t u_ = ga_pool_used_bytes(p), t_ = ga_pool_total_bytes(p),
         n_ = ga_pool_n_free_blocks(p);
  if (u_ == u && t_ == t && n_ == n) {
    n_pass++;
  } else {
    n_fail++;
    printf("FAIL %s:%d: stats %s: used %zu total %zu n_free %zu, expected "
           "%zu %zu %zu\n", __FILE__, line, what, u_, t_, n_, u, t, n);
  }
}
#define STATS(p, u, t, n, what) \
  stats(p, (size_t)(u), (size_t)(t), (size_t)(n), what, __LINE__)

/* ---- fake raw allocator -------------------------------------------------- */

typedef struct {
  long n_alloc, n_free;  /* successful raw allocations / frees */
  long n_calls;          /* every raw alloc call, failed or not */
  size_t live;           /* bytes currently held */
  size_t fail_above;     /* a single request above this fails (0: never) */
  size_t capacity;       /* live bytes may not exceed this (0: no cap) */
  size_t last_size;      /* size of the last successful allocation */
} fake;

static int fake_alloc(void *ctx, size_t n, void **p)
{
  fake *f = ctx;
  __atomic_add_fetch(&f->n_calls, 1, __ATOMIC_RELAXED);
  if (f->fail_above && n > f->fail_above)
    return 1;
  if (f->capacity && __atomic_load_n(&f->live, __ATOMIC_RELAXED) + n > f->capacity)
    return 1;
  if (posix_memalign(p, 512, n))
    return 1;
  __atomic_add_fetch(&f->n_alloc, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&f->live, n, __ATOMIC_RELAXED);
  __atomic_store_n(&f->last_size, n, __ATOMIC_RELAXED);
  return 0;
}

/* A side table of (ptr, size): frees must pass back exactly the pointers the
 * raw allocator returned, and `live` needs each one's size. */
#define MAX_TRACK 4096
static struct { void *p; size_t n; } track[MAX_TRACK];
static pthread_mutex_t track_mu = PTHREAD_MUTEX_INITIALIZER;
static int bad_raw_free;

static int tracked_alloc(void *ctx, size_t n, void **p)
{
  if (fake_alloc(ctx, n, p))
    return 1;
  pthread_mutex_lock(&track_mu);
  int i = 0;
  while (i < MAX_TRACK && track[i].p)
    i++;
  if (i < MAX_TRACK) {
    track[i].p = *p;
    track[i].n = n;
  }
  pthread_mutex_unlock(&track_mu);
  return 0;
}

static void tracked_free(void *ctx, void *p)
{
  fake *f = ctx;
  size_t n = 0;
  int found = 0;
  pthread_mutex_lock(&track_mu);
  for (int i = 0; i < MAX_TRACK; i++)
    if (track[i].p == p) {
      n = track[i].n;
      track[i].p = NULL;
      found = 1;
      break;
    }
  pthread_mutex_unlock(&track_mu);
  if (!found)
    bad_raw_free++;    /* not a pointer the raw allocator returned */
  __atomic_add_fetch(&f->n_free, 1, __ATOMIC_RELAXED);
  __atomic_sub_fetch(&f->live, n, __ATOMIC_RELAXED);
  free(p);
}

static ga_pool *new_pool(fake *f)
{
  memset(f, 0, sizeof *f);
  ga_pool *p = ga_pool_new(tracked_alloc, tracked_free, f);
  if (!p) {
    printf("FAIL ga_pool_new returned NULL\n");
    exit(1);
  }
  return p;
}

/* After delete every raw allocation must have been given back. */
static void end_pool(ga_pool *p, fake *f, const char *what)
{
  ga_pool_delete(p);
  CHECK(f->n_alloc == f->n_free && f->live == 0,
        "%s: after delete raw allocs %ld frees %ld live %zu", what, f->n_alloc,
        f->n_free, f->live);
}

#define S(k) ((void *)(uintptr_t)(k))   /* fake stream handles */

/* ---- tests --------------------------------------------------------------- */

static void test_reuse(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  void *a, *b;
  int lh = -1;
  ga_block *ba = ga_pool_malloc(p, 1000, NULL, &a, &lh);
  CHECK(ba && a, "malloc 1000 failed");
  CHECK(lh == 0, "limit_hit %d on success", lh);
  CHECK(f.n_alloc == 1 && f.last_size == 2 * MiB,
        "small request took %ld raw allocs, last %zu B", f.n_alloc, f.last_size);
  STATS(p, 1024, 2 * MiB, 1, "after malloc 1000");
  ga_pool_free(p, ba);
  STATS(p, 0, 2 * MiB, 1, "after free");
  ga_block *bb = ga_pool_malloc(p, 900, NULL, &b, NULL);
  CHECK(bb && b == a, "freed block not reused: %p vs %p", b, a);
  CHECK(f.n_alloc == 1, "reuse called raw alloc (%ld)", f.n_alloc);
  STATS(p, 1024, 2 * MiB, 1, "after reuse");
  ga_pool_free(p, bb);
  ga_pool_free_all_blocks(p);
  STATS(p, 0, 0, 0, "after free_all_blocks");
  CHECK(f.n_free == 1 && f.live == 0, "raw frees %ld live %zu", f.n_free, f.live);
  end_pool(p, &f, "reuse");
}

static void test_zero(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  void *a = NULL, *b = NULL;
  ga_block *ba = ga_pool_malloc(p, 0, NULL, &a, NULL);
  ga_block *bb = ga_pool_malloc(p, 0, NULL, &b, NULL);
  CHECK(ba && a && bb && b && a != b, "zero-byte blocks %p %p", a, b);
  CHECK((char *)b - (char *)a == 512, "zero-byte block spans %td B",
        (char *)b - (char *)a);
  STATS(p, 1024, 2 * MiB, 1, "two zero-byte blocks");
  ga_pool_free(p, ba);
  ga_pool_free(p, bb);
  STATS(p, 0, 2 * MiB, 1, "zero-byte blocks freed");
  end_pool(p, &f, "zero");
}

/* Free 8 adjacent blocks in a given order; a model of which are free predicts
 * n_free_blocks (maximal free runs; the tail remainder is free throughout). */
static void split_merge_order(const int *order, const char *name)
{
  static const size_t sz[8] = {512, 1000, 4096, 3000, 512, 70000, 100, 8192};
  fake f;
  ga_pool *p = new_pool(&f);
  ga_block *b[8];
  char *ptr[8];
  size_t used = 0;
  for (int i = 0; i < 8; i++) {
    b[i] = ga_pool_malloc(p, sz[i], NULL, (void **)&ptr[i], NULL);
    used += (sz[i] + 511) / 512 * 512;
    memset(ptr[i], i, sz[i]);
  }
  CHECK(f.n_alloc == 1, "%s: 8 small blocks took %ld segments", name, f.n_alloc);
  int contiguous = 1;
  for (int i = 1; i < 8; i++)
    contiguous &= ptr[i] == ptr[i - 1] + (sz[i - 1] + 511) / 512 * 512;
  CHECK(contiguous, "%s: blocks not split off one after another", name);
  STATS(p, used, 2 * MiB, 1, name);
  int is_free[9] = {0};
  is_free[8] = 1;
  for (int k = 0; k < 8; k++) {
    int i = order[k];
    for (size_t j = 0; j < sz[i]; j++)
      if (ptr[i][j] != (char)i) {
        CHECK(0, "%s: block %d overwritten", name, i);
        break;
      }
    ga_pool_free(p, b[i]);
    used -= (sz[i] + 511) / 512 * 512;
    is_free[i] = 1;
    int runs = 0;
    for (int j = 0; j < 9; j++)
      runs += is_free[j] && (j == 0 || !is_free[j - 1]);
    char what[96];
    snprintf(what, sizeof what, "%s: after freeing block %d", name, i);
    STATS(p, used, 2 * MiB, runs, what);
  }
  ga_pool_free_all_blocks(p);
  STATS(p, 0, 0, 0, name);
  CHECK(f.n_free == 1, "%s: segment not released (%ld raw frees)", name, f.n_free);
  end_pool(p, &f, name);
}

static void test_split_merge(void)
{
  static const int fwd[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  static const int rev[8] = {7, 6, 5, 4, 3, 2, 1, 0};
  static const int odd_even[8] = {1, 3, 5, 7, 0, 2, 4, 6};
  static const int middle[8] = {3, 4, 2, 5, 1, 6, 0, 7};
  split_merge_order(fwd, "forward");
  split_merge_order(rev, "reverse");
  split_merge_order(odd_even, "odd-even");
  split_merge_order(middle, "middle-out");
  srand(12345);
  for (int t = 0; t < 20; t++) {
    int o[8];
    for (int i = 0; i < 8; i++)
      o[i] = i;
    for (int i = 7; i > 0; i--) {
      int j = rand() % (i + 1), x = o[i];
      o[i] = o[j];
      o[j] = x;
    }
    char name[32];
    snprintf(name, sizeof name, "random order %d", t);
    split_merge_order(o, name);
  }
}

static void test_best_fit_small(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  ga_block *b[6];
  char *ptr[6];
  static const size_t sz[6] = {512, 4096, 512, 1024, 512, 512};
  for (int i = 0; i < 6; i++)
    b[i] = ga_pool_malloc(p, sz[i], NULL, (void **)&ptr[i], NULL);
  ga_pool_free(p, b[1]);   /* a 4 KiB hole, then a 1 KiB hole */
  ga_pool_free(p, b[3]);
  void *q;
  ga_block *bq = ga_pool_malloc(p, 1024, NULL, &q, NULL);
  CHECK(q == ptr[3], "1 KiB request did not take the 1 KiB hole");
  ga_block *br = ga_pool_malloc(p, 2048, NULL, &q, NULL);
  CHECK(q == ptr[1], "2 KiB request did not split the 4 KiB hole");
  void *q2;
  ga_block *bs = ga_pool_malloc(p, 2048, NULL, &q2, NULL);
  CHECK(q2 == ptr[1] + 2048, "second 2 KiB request not from the hole's rest");
  STATS(p, 512 * 4 + 1024 + 4096, 2 * MiB, 1, "holes refilled");
  ga_pool_free(p, bq);
  ga_pool_free(p, br);
  ga_pool_free(p, bs);
  for (int i = 0; i < 6; i++)
    if (i != 1 && i != 3)
      ga_pool_free(p, b[i]);
  STATS(p, 0, 2 * MiB, 1, "best-fit small all freed");
  end_pool(p, &f, "best fit small");
}

static void test_large(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  void *a, *c, *bp, *d, *q;
  /* a: 2.5 MiB + 200 KiB in a 4 MiB segment; c: its rest exactly */
  const size_t A = 5 * MiB / 2 + 200 * KiB;
  ga_block *ba = ga_pool_malloc(p, A, NULL, &a, NULL);
  CHECK(f.last_size == 4 * MiB, "%zu B took a %zu B segment", A, f.last_size);
  ga_block *bc = ga_pool_malloc(p, 4 * MiB - A, NULL, &c, NULL);
  CHECK(c == (char *)a + A && f.n_alloc == 1, "rest of the segment not reused");
  STATS(p, 4 * MiB, 4 * MiB, 0, "4 MiB segment fully used");
  /* b: 2.5 MiB in a new 4 MiB segment; d takes its 1.5 MiB rest */
  ga_block *bb = ga_pool_malloc(p, 5 * MiB / 2, NULL, &bp, NULL);
  ga_block *bd = ga_pool_malloc(p, 3 * MiB / 2, NULL, &d, NULL);
  CHECK(f.n_alloc == 2 && d == (char *)bp + 5 * MiB / 2, "2.5 + 1.5 MiB layout");
  STATS(p, 8 * MiB, 8 * MiB, 0, "two segments fully used");
  /* Free b then a: both land in one size bin, a (larger) at its head. */
  ga_pool_free(p, bb);
  ga_pool_free(p, ba);
  STATS(p, 4 * MiB - A + 3 * MiB / 2, 8 * MiB, 2, "two large holes");
  ga_block *bq = ga_pool_malloc(p, 5 * MiB / 2, NULL, &q, NULL);
  CHECK(q == bp, "2.5 MiB request did not take the 2.5 MiB hole (best fit)");
  STATS(p, 4 * MiB - A + 4 * MiB, 8 * MiB, 1, "exact large fit, no split");
  ga_pool_free(p, bq);
  bq = ga_pool_malloc(p, 2 * MiB + 200 * KiB, NULL, &q, NULL);
  CHECK(q == bp, "2.2 MiB request did not take the 2.5 MiB hole (best fit)");
  ga_pool_free(p, bq);
  ga_pool_free(p, bc);
  ga_pool_free(p, bd);
  STATS(p, 0, 8 * MiB, 2, "large all freed");
  /* exactly 4 MiB: a segment of 4 MiB, no remainder */
  ga_pool_free_all_blocks(p);
  ga_block *be = ga_pool_malloc(p, 4 * MiB, NULL, &q, NULL);
  CHECK(f.last_size == 4 * MiB, "4 MiB took %zu B", f.last_size);
  STATS(p, 4 * MiB, 4 * MiB, 0, "4 MiB exact");
  ga_block *bf = ga_pool_malloc(p, MiB + 1, NULL, &q, NULL);
  CHECK(f.last_size == 2 * MiB, "1 MiB + 1 took %zu B", f.last_size);
  STATS(p, 5 * MiB + 512, 6 * MiB, 1, "1 MiB + 1");
  ga_pool_free(p, be);
  ga_pool_free(p, bf);
  end_pool(p, &f, "large");
}

static void test_streams(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  void *a, *b, *c;
  ga_block *ba = ga_pool_malloc(p, 1000, S(1), &a, NULL);
  ga_pool_free(p, ba);
  ga_block *bb = ga_pool_malloc(p, 1000, S(2), &b, NULL);
  CHECK(bb && b != a, "stream 2 got stream 1's freed block");
  CHECK(f.n_alloc == 2, "stream 2 did not take its own segment (%ld)", f.n_alloc);
  STATS(p, 1024, 4 * MiB, 2, "two streams");
  ga_block *bn = ga_pool_malloc(p, 1000, NULL, &c, NULL);
  CHECK(c != a && c != b && f.n_alloc == 3, "default stream shares a segment");
  ga_block *ba2 = ga_pool_malloc(p, 1000, S(1), &c, NULL);
  CHECK(c == a && f.n_alloc == 3, "stream 1 did not get its block back");
  ga_pool_free(p, bb);
  ga_pool_free(p, bn);
  ga_pool_free(p, ba2);
  STATS(p, 0, 6 * MiB, 3, "three streams freed");
  end_pool(p, &f, "streams");

  /* many streams: the table grows, states are pruned by free_all_blocks */
  p = new_pool(&f);
  ga_block *bl[100];
  char *first[100];
  for (int i = 0; i < 100; i++) {
    bl[i] = ga_pool_malloc(p, 512, S(100 + i), (void **)&first[i], NULL);
  }
  CHECK(f.n_alloc == 100, "100 streams took %ld segments", f.n_alloc);
  for (int i = 0; i < 100; i++)
    ga_pool_free(p, bl[i]);
  int same = 1;
  for (int i = 0; i < 100; i++) {
    void *q;
    ga_block *x = ga_pool_malloc(p, 512, S(100 + i), &q, NULL);
    same &= q == first[i];
    ga_pool_free(p, x);
  }
  CHECK(same && f.n_alloc == 100, "streams did not get their own blocks back");
  ga_pool_free_all_blocks(p);
  STATS(p, 0, 0, 0, "100 streams released");
  void *q;
  ga_block *x = ga_pool_malloc(p, 512, S(150), &q, NULL);
  CHECK(x != NULL, "malloc after pruning stream states");
  ga_pool_free(p, x);
  end_pool(p, &f, "many streams");
}

static void test_limit(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  void *a, *b;
  int lh = -1;
  ga_pool_set_limit(p, 4 * MiB);
  CHECK(ga_pool_get_limit(p) == 4 * MiB, "get_limit %zu", ga_pool_get_limit(p));
  ga_block *ba = ga_pool_malloc(p, 3 * MiB, NULL, &a, &lh);
  CHECK(ba && lh == 0, "3 MiB under a 4 MiB limit failed");
  STATS(p, 3 * MiB, 4 * MiB, 1, "3 MiB under limit");
  ga_block *bb = ga_pool_malloc(p, 2 * MiB, NULL, &b, &lh);
  CHECK(!bb && lh == 1, "2 MiB beyond the limit: block %p limit_hit %d",
        (void *)bb, lh);
  CHECK(b == NULL, "failed malloc left *ptr %p", b);
  STATS(p, 3 * MiB, 4 * MiB, 1, "after failure (used unchanged)");
  ga_pool_free(p, ba);
  bb = ga_pool_malloc(p, 2 * MiB, NULL, &b, &lh);
  CHECK(bb && lh == 0 && b == a, "2 MiB after freeing did not reuse the segment");
  STATS(p, 2 * MiB, 4 * MiB, 1, "2 MiB after freeing");
  ga_pool_free(p, bb);
  ga_pool_free_all_blocks(p);

  /* The limit makes the pool release another stream's cached segment. */
  ga_block *bs = ga_pool_malloc(p, 1000, S(7), &a, NULL);
  ga_pool_free(p, bs);
  STATS(p, 0, 2 * MiB, 1, "stream 7 cached");
  long frees = f.n_free;
  bb = ga_pool_malloc(p, 3 * MiB, S(8), &b, &lh);
  CHECK(bb && lh == 0, "3 MiB did not fit after releasing the cache");
  CHECK(f.n_free == frees + 1, "cached segment not released (%ld)", f.n_free - frees);
  STATS(p, 3 * MiB, 4 * MiB, 1, "after releasing for the limit");
  ga_pool_free(p, bb);
  ga_pool_free_all_blocks(p);

  /* Below the segment size the pool falls back to an exact allocation. */
  ga_pool_set_limit(p, 1 * MiB);
  bb = ga_pool_malloc(p, 1000, NULL, &b, &lh);
  CHECK(bb && lh == 0 && f.last_size == 1024,
        "1000 B under a 1 MiB limit: %p, raw size %zu", (void *)bb, f.last_size);
  STATS(p, 1024, 1024, 0, "exact fallback under limit");
  ga_pool_free(p, bb);
  ga_pool_set_limit(p, 0);
  CHECK(ga_pool_get_limit(p) == 0, "limit not cleared");
  bb = ga_pool_malloc(p, 64 * MiB, NULL, &b, &lh);
  CHECK(bb != NULL, "64 MiB with no limit failed");
  ga_pool_free(p, bb);
  end_pool(p, &f, "limit");
}

static void test_raw_failure(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  void *a;
  int lh = -1;
  f.fail_above = 4 * MiB;
  ga_pool_free(p, ga_pool_malloc(p, 1000, S(1), &a, NULL));
  ga_pool_free(p, ga_pool_malloc(p, 3 * MiB, S(2), &a, NULL));
  STATS(p, 0, 6 * MiB, 2, "two cached segments");
  ga_block *b = ga_pool_malloc(p, 5 * MiB, NULL, &a, &lh);
  CHECK(!b && lh == 0, "5 MiB with a failing raw allocator: %p limit_hit %d",
        (void *)b, lh);
  CHECK(f.n_free == 2 && f.live == 0, "cached segments not released before "
        "giving up: raw frees %ld live %zu", f.n_free, f.live);
  STATS(p, 0, 0, 0, "after raw failure");

  /* Releasing the cache is enough when memory is merely full. */
  f.fail_above = 0;
  f.capacity = 4 * MiB;
  ga_pool_free(p, ga_pool_malloc(p, 1000, S(1), &a, NULL));
  STATS(p, 0, 2 * MiB, 1, "cached again");
  b = ga_pool_malloc(p, 3 * MiB, S(2), &a, &lh);
  CHECK(b && lh == 0, "3 MiB did not succeed after releasing the cache");
  STATS(p, 3 * MiB, 4 * MiB, 1, "after retry");
  /* The segment rounding does not fit, the exact size does. */
  f.capacity = 4 * MiB + 2 * MiB;
  ga_block *c = ga_pool_malloc(p, 2 * MiB + 512, S(2), &a, &lh);
  CHECK(!c && lh == 0, "2 MiB + 512 beyond capacity succeeded");
  c = ga_pool_malloc(p, 2 * MiB, S(2), &a, &lh);
  CHECK(c && f.last_size == 2 * MiB, "2 MiB at capacity failed");
  ga_pool_free(p, b);
  ga_pool_free(p, c);
  /* A request too large to round fails cleanly. */
  b = ga_pool_malloc(p, SIZE_MAX, NULL, &a, &lh);
  CHECK(!b && lh == 0 && !a, "SIZE_MAX request: %p limit_hit %d", (void *)b, lh);
  end_pool(p, &f, "raw failure");
}

static void test_debug(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  void *a, *b;
  ga_pool_free(p, ga_pool_malloc(p, 1000, NULL, &a, NULL));
  STATS(p, 0, 2 * MiB, 1, "cached before debug");
  ga_pool_set_debug(p, 1);
  STATS(p, 0, 0, 0, "debug on releases the cache");
  ga_block *ba = ga_pool_malloc(p, 1000, NULL, &a, NULL);
  CHECK(f.n_alloc == 2 && f.last_size == 1024, "debug malloc: raw size %zu",
        f.last_size);
  ga_block *bb = ga_pool_malloc(p, 0, NULL, &b, NULL);
  CHECK(bb && f.n_alloc == 3 && f.last_size == 512, "debug zero-byte: %zu",
        f.last_size);
  STATS(p, 1536, 1536, 0, "two debug blocks");
  ga_pool_free(p, ba);
  CHECK(f.n_free == 2, "debug free not a raw free (%ld)", f.n_free);
  STATS(p, 512, 512, 0, "one debug block freed");
  ga_block *bc = ga_pool_malloc(p, 1000, NULL, &a, NULL);
  CHECK(f.n_alloc == 4, "debug malloc reused a block");
  ga_pool_free(p, bc);
  ga_pool_free(p, bb);
  STATS(p, 0, 0, 0, "debug all freed");
  CHECK(f.n_free == 4 && f.live == 0, "debug raw frees %ld live %zu", f.n_free,
        f.live);
  ga_pool_set_debug(p, 0);
  ga_pool_free(p, ga_pool_malloc(p, 1000, NULL, &a, NULL));
  STATS(p, 0, 2 * MiB, 1, "caching again after debug off");
  end_pool(p, &f, "debug");
}

static void test_alignment_and_delete(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  ga_block *b[300];
  int misaligned = 0;
  srand(99);
  for (int i = 0; i < 300; i++) {
    void *q;
    size_t n = (size_t)rand() % (i % 10 == 0 ? 3 * MiB : 20000);
    b[i] = ga_pool_malloc(p, n, S(i % 3), &q, NULL);
    misaligned += ((uintptr_t)q & 511) != 0;
    if (i % 3 == 2) {
      ga_pool_free(p, b[i - 1]);
      b[i - 1] = NULL;
    }
  }
  CHECK(misaligned == 0, "%d pointers not 512-B aligned", misaligned);
  /* delete with blocks still out: every segment must still be released */
  end_pool(p, &f, "delete with live blocks");
  CHECK(bad_raw_free == 0, "%d raw frees of foreign pointers", bad_raw_free);
}

/* ---- threads ------------------------------------------------------------- */

typedef struct {
  ga_pool *pool;
  unsigned seed;
  int errors;
} worker;

#define SLOTS 64
static void *work(void *arg)
{
  worker *w = arg;
  ga_block *blk[SLOTS] = {0};
  unsigned char *ptr[SLOTS];
  size_t len[SLOTS];
  unsigned char tag[SLOTS];
  for (int it = 0; it < 50000; it++) {
    int s = (int)(rand_r(&w->seed) % SLOTS);
    if (blk[s]) {
      /* a block shared with another thread would have its tag overwritten */
      if (ptr[s][0] != tag[s] || ptr[s][len[s] - 1] != tag[s])
        w->errors++;
      ga_pool_free(w->pool, blk[s]);
      blk[s] = NULL;
      continue;
    }
    unsigned r = rand_r(&w->seed);
    size_t n = r % 100 == 0 ? (r % (3 * MiB)) + 1 : (r % 20000) + 1;
    void *stream = S(r % 3);   /* streams shared between threads */
    blk[s] = ga_pool_malloc(w->pool, n, stream, (void **)&ptr[s], NULL);
    if (!blk[s]) {
      w->errors++;
      continue;
    }
    len[s] = n;
    tag[s] = (unsigned char)(rand_r(&w->seed) | 1);
    ptr[s][0] = ptr[s][n - 1] = tag[s];
  }
  for (int s = 0; s < SLOTS; s++)
    if (blk[s])
      ga_pool_free(w->pool, blk[s]);
  return NULL;
}

static void test_threads(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  pthread_t th[4];
  worker w[4];
  for (int i = 0; i < 4; i++) {
    w[i] = (worker){p, 1000u + (unsigned)i, 0};
    pthread_create(&th[i], NULL, work, &w[i]);
  }
  int errors = 0;
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    errors += w[i].errors;
  }
  CHECK(errors == 0, "%d overlapping or failed blocks across threads", errors);
  CHECK(ga_pool_used_bytes(p) == 0, "used %zu after threads", ga_pool_used_bytes(p));
  ga_pool_free_all_blocks(p);
  STATS(p, 0, 0, 0, "threads: all released");
  CHECK(f.n_alloc == f.n_free && f.live == 0, "threads: raw allocs %ld frees %ld",
        f.n_alloc, f.n_free);
  end_pool(p, &f, "threads");
}

/* ---- bench --------------------------------------------------------------- */

static int bench(void)
{
  fake f;
  ga_pool *p = new_pool(&f);
  const long n = 10000000;
  void *q;
  ga_pool_free(p, ga_pool_malloc(p, 4, NULL, &q, NULL));   /* warm */
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < n; i++)
    ga_pool_free(p, ga_pool_malloc(p, 4, NULL, &q, NULL));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)n;
  printf("%.1f ns per malloc/free pair (%ld pairs, %ld raw allocs)\n", ns, n, f.n_alloc);
  ga_pool_delete(p);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "bench") == 0)
    return bench();
  test_reuse();
  test_zero();
  test_split_merge();
  test_best_fit_small();
  test_large();
  test_streams();
  test_limit();
  test_raw_failure();
  test_debug();
  test_alignment_and_delete();
  test_threads();
  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail > 0;
}
