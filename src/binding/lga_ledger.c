/* The sync ledger (ga.cuda.sync_ledger, GPUARRAY_SYNC_LEDGER=1): every
 * implicit host-device synchronisation a backend reports (base/ga_sync.h)
 * is counted under the Lua call site that caused it: the first frame up
 * the stack that is neither C nor gpuarray's own Lua.  The hook runs in
 * the middle of a C call, so it allocates nothing from Lua (no GC, no
 * finalizer can run there): the counts live in a fixed C table. */
#include "binding/lga_core.h"
#include "base/ga_sync.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEDGER_MT "gpuarray.SyncLedger"
#define NSITES 512                     /* a power of 2; more sites share "(other sites)" */
#define SITE_LEN (LUA_IDSIZE + 16)

typedef struct site { char name[SITE_LEN]; long long count; } site;
typedef struct ledger {
  lua_State *L;          /* the state's main thread: its stack gives the site */
  int active, at_exit;   /* at_exit: print the report to stderr when collected */
  long long total;
  int used;
  site sites[NSITES];
  site other;
} ledger;

static const char ledger_key = 0;   /* registry: the state's ledger */

/* our own Lua files: a source ".../gpuarray/<file>.lua" */
static int is_ours(const char *src) {
  const char *p = strstr(src, "gpuarray/");
  if (!p) return 0;
  p += 9;
  return !strchr(p, '/') && strstr(p, ".lua") != NULL;
}

static void site_of(lua_State *L, char *buf, size_t cap) {
  lua_Debug ar;
  for (int level = 0; lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline < 0 || is_ours(ar.source)) continue;
    snprintf(buf, cap, "%s:%d", ar.short_src, ar.currentline);
    return;
  }
  snprintf(buf, cap, "?");
}

static unsigned hash(const char *s) {
  unsigned h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

static void on_sync(void *ud, int device) {
  (void)device;
  ledger *g = ud;
  if (!g->active) return;
  char name[SITE_LEN];
  site_of(g->L, name, sizeof name);
  g->total++;
  for (unsigned i = hash(name), k = 0; k < NSITES; i++, k++) {
    site *s = &g->sites[i & (NSITES - 1)];
    if (!s->count) {
      if (g->used >= NSITES / 2) break;   /* keep probes short: the rest go to "other" */
      snprintf(s->name, sizeof s->name, "%s", name);
      s->count = 1;
      g->used++;
      return;
    }
    if (!strcmp(s->name, name)) { s->count++; return; }
  }
  g->other.count++;
}

static int by_count(const void *a, const void *b) {
  const site *x = *(const site *const *)a, *y = *(const site *const *)b;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  return strcmp(x->name, y->name);
}

/* the sites in order of count (an array of pointers into g; n of them) */
static int sorted(const ledger *g, const site **out) {
  int n = 0;
  for (int i = 0; i < NSITES; i++)
    if (g->sites[i].count) out[n++] = &g->sites[i];
  if (g->other.count) out[n++] = &g->other;
  qsort(out, (size_t)n, sizeof *out, by_count);
  return n;
}

static void report(const ledger *g, luaL_Buffer *b, FILE *f, int limit) {
  const site *list[NSITES + 1];
  int n = sorted(g, list);
  char line[SITE_LEN + 64];
  snprintf(line, sizeof line, "gpuarray sync ledger: %lld implicit host-device synchronisation%s at %d call site%s\n",
           g->total, g->total == 1 ? "" : "s", n, n == 1 ? "" : "s");
  if (b) luaL_addstring(b, line); else fputs(line, f);
  for (int i = 0; i < n && (limit <= 0 || i < limit); i++) {
    snprintf(line, sizeof line, "%10lld  %s\n", list[i]->count, list[i]->name);
    if (b) luaL_addstring(b, line); else fputs(line, f);
  }
}

static ledger *check_ledger(lua_State *L) { return luaL_checkudata(L, 1, LEDGER_MT); }

/* core.sync_ledger([at_exit]): the state's ledger, started (made on first use) */
static int l_sync_ledger(lua_State *L) {
  int at_exit = lua_toboolean(L, 1);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ledger_key) == LUA_TNIL) {
    lua_pop(L, 1);
    ledger *g = lua_newuserdatauv(L, sizeof *g, 0);
    memset(g, 0, sizeof *g);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    g->L = lua_tothread(L, -1);
    lua_pop(L, 1);
    luaL_setmetatable(L, LEDGER_MT);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ledger_key);
  }
  ledger *g = lua_touserdata(L, -1);
  g->active = 1;
  if (at_exit) g->at_exit = 1;
  ga_sync_set_hook(on_sync, g);
  return 1;
}

static int l_total(lua_State *L) { lua_pushinteger(L, check_ledger(L)->total); return 1; }

static int l_counts(lua_State *L) {
  ledger *g = check_ledger(L);
  lua_newtable(L);
  for (int i = 0; i < NSITES; i++)
    if (g->sites[i].count) { lua_pushinteger(L, g->sites[i].count); lua_setfield(L, -2, g->sites[i].name); }
  if (g->other.count) { lua_pushinteger(L, g->other.count); lua_setfield(L, -2, "(other sites)"); }
  return 1;
}

static int l_report(lua_State *L) {
  ledger *g = check_ledger(L);
  int limit = (int)luaL_optinteger(L, 2, 0);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  report(g, &b, NULL, limit);
  luaL_pushresult(&b);
  return 1;
}

static int l_reset(lua_State *L) {
  ledger *g = check_ledger(L);
  memset(g->sites, 0, sizeof g->sites);
  memset(&g->other, 0, sizeof g->other);
  g->total = 0;
  g->used = 0;
  lua_settop(L, 1);
  return 1;
}

static void stop(ledger *g) {
  g->active = 0;
  if (ga_sync_hook_ud() == g) ga_sync_set_hook(NULL, NULL);
}

static int l_stop(lua_State *L) {
  stop(check_ledger(L));
  lua_settop(L, 1);
  return 1;
}

static int l_gc(lua_State *L) {
  ledger *g = check_ledger(L);
  if (g->at_exit) { report(g, NULL, stderr, 0); g->at_exit = 0; }
  stop(g);
  return 0;
}

void lga_open_ledger(lua_State *L) {
  static const luaL_Reg meth[] = {{"total", l_total}, {"counts", l_counts}, {"report", l_report},
                                  {"reset", l_reset}, {"stop", l_stop}, {NULL, NULL}};
  luaL_newmetatable(L, LEDGER_MT);
  luaL_newlib(L, meth);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, l_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, l_report);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  lua_pushcfunction(L, l_sync_ledger);
  lua_setfield(L, -2, "sync_ledger");
}
