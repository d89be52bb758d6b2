/* ga.distributed's C entries (lua/gpuarray/distributed.lua builds the
 * public functions on them; core/ga_dist.c checks and dispatches):
 *   core._dist_version(kind)         -> the collectives library's version
 *                                       (kind -1 the host, 0 the GPUs)
 *   core._dist_unique_id(kind)       -> a new id: 128 raw bytes
 *   core._dist_init(devs, ranks, world[, id]) -> a communicator over the
 *       local devices devs (ordinals; {-1}: the host) with ranks ranks of a
 *       world of `world`; id (128 bytes) for one rank per process, nil for
 *       one process driving every rank.  Created closed, then opened.
 *   comm:_run(fname, kind, op, root, peer, ins[, outs]) -> outs
 *       ins: a list of arrays (one per local rank; send/recv: one array), or
 *       a list of such lists, all issued as one group; outs alike or nil
 *       (in place where the collective allows, else new arrays)
 *   comm:_group(start)  comm:_barrier()  comm:_info() -> world, devs, ranks
 *   comm:destroy() (also __gc and __close; idempotent), comm:abort() (also
 *   __close when the scope is left by an error) */
#include "binding/lga_core.h"
#include "core/ga_backend.h"
#include "core/ga_dist.h"
#include <string.h>

#define COMM_MT "gpuarray.Comm"

static ga_comm *check_comm(lua_State *L) { return luaL_checkudata(L, 1, COMM_MT); }

static int l_destroy(lua_State *L) {
  ga_dist_destroy(check_comm(L), 0);
  return 0;
}

/* __close(comm, err): a scope left by an error aborts (the other ranks
 * may never come to the collectives this rank would wait for) */
static int l_close(lua_State *L) {
  ga_dist_destroy(check_comm(L), !lua_isnoneornil(L, 2));
  return 0;
}

static int l_abort(lua_State *L) {
  ga_dist_destroy(check_comm(L), 1);
  return 0;
}

static int kind_arg(lua_State *L, int idx) {
  lua_Integer k = luaL_checkinteger(L, idx);
  return k < 0 ? GA_CPU : GA_GPU_KIND;
}

static int l_version(lua_State *L) {
  int v;
  if (ga_dist_version(kind_arg(L, 1), &v)) return lga_fail(L, "distributed");
  lua_pushinteger(L, v);
  return 1;
}

static int l_unique_id(lua_State *L) {
  unsigned char id[GA_DIST_ID_BYTES];
  if (ga_dist_unique_id(kind_arg(L, 1), id)) return lga_fail(L, "distributed.unique_id");
  lua_pushlstring(L, (const char *)id, sizeof id);
  return 1;
}

static int int_list(lua_State *L, int idx, int *out, const char *fname, const char *what) {
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
  if (n < 1 || n > GA_DIST_MAX_LOCAL)
    return lga_errorf(L, fname, "%s: a list of 1 to %d integers", what, GA_DIST_MAX_LOCAL);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    int isnum;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    if (!isnum || v < -1 || v > 1 << 30) return lga_errorf(L, fname, "%s[%d] is not a valid integer", what, (int)i);
    out[i - 1] = (int)v;
    lua_pop(L, 1);
  }
  return (int)n;
}

static int l_init(lua_State *L) {
  const char *fname = "distributed.init";
  ga_comm tmp;
  memset(&tmp, 0, sizeof tmp);
  int n = int_list(L, 1, tmp.dev, fname, "devices");
  if (int_list(L, 2, tmp.rank, fname, "ranks") != n) return lga_errorf(L, fname, "one rank per device");
  lua_Integer world = luaL_checkinteger(L, 3);
  if (world < 1 || world > 1 << 24) return lga_errorf(L, fname, "world_size must be a positive integer");
  size_t idlen = 0;
  const char *id = luaL_optlstring(L, 4, NULL, &idlen);
  if (id && idlen != GA_DIST_ID_BYTES) return lga_errorf(L, fname, "the id must be %d bytes", GA_DIST_ID_BYTES);
  tmp.nlocal = n;
  tmp.world = (int)world;
  tmp.kind = tmp.dev[0] == GA_CPU ? GA_CPU : GA_GPU_KIND;
  for (int i = 0; i < n; i++)
    if ((tmp.dev[i] == GA_CPU) != (tmp.kind == GA_CPU))
      return lga_errorf(L, fname, "the host and GPUs cannot share one communicator");
  for (int i = 0; i < n && tmp.kind != GA_CPU; i++)
    if (ga_check_device(tmp.dev[i])) return lga_fail(L, fname);
  ga_comm *c = lua_newuserdatauv(L, sizeof *c, 0);   /* closed until opened */
  *c = tmp;
  c->open = 0;
  luaL_setmetatable(L, COMM_MT);
  if (ga_dist_init(c, (const unsigned char *)id)) return lga_fail(L, fname);
  return 1;
}

static int l_info(lua_State *L) {
  ga_comm *c = check_comm(L);
  lua_pushinteger(L, c->world);
  lua_createtable(L, c->nlocal, 0);
  lua_createtable(L, c->nlocal, 0);
  for (int i = 0; i < c->nlocal; i++) {
    lua_pushinteger(L, c->dev[i]);
    lua_rawseti(L, -3, i + 1);
    lua_pushinteger(L, c->rank[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushboolean(L, c->open);
  return 4;
}

static int l_group(lua_State *L) {
  ga_comm *c = check_comm(L);
  if (ga_dist_group(c, lua_toboolean(L, 2))) return lga_fail(L, "Comm:group");
  return 0;
}

static int l_barrier(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  ga_comm *c = check_comm(L);
  void *streams[GA_DIST_MAX_LOCAL] = {0};
  for (int i = 0; i < c->nlocal; i++) streams[i] = lga_stream(S, c->dev[i]);
  if (ga_dist_barrier(c, streams)) return lga_fail(L, "Comm:barrier");
  return 0;
}

/* the arrays of list at idx (n of them) into a[] */
static int arrays_of(lua_State *L, int idx, ga_array **a, const char *fname, const char *what) {
  int n = (int)lua_rawlen(L, idx);
  if (n < 1 || n > GA_DIST_MAX_LOCAL) return lga_errorf(L, fname, "%s: a list of 1 to %d arrays", what, GA_DIST_MAX_LOCAL);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, idx, i + 1);
    a[i] = lga_toarray(L, -1);
    if (!a[i]) return lga_errorf(L, fname, "%s[%d] is a %s, not an array", what, i + 1, luaL_typename(L, -1));
    if (!a[i]->buf) return lga_errorf(L, fname, "%s[%d] has been freed", what, i + 1);
    lua_pop(L, 1);   /* the list keeps it alive */
  }
  return n;
}

typedef struct one_call { int n; ga_array *in[GA_DIST_MAX_LOCAL]; ga_array *out[GA_DIST_MAX_LOCAL]; } one_call;

static int l_run(lua_State *L) {
  lga_state *S = LGA_STATE(L);
  ga_comm *c = check_comm(L);
  const char *fname = luaL_checkstring(L, 2);
  int kind = (int)luaL_checkinteger(L, 3), op = (int)luaL_checkinteger(L, 4);
  int root = (int)luaL_checkinteger(L, 5), peer = (int)luaL_checkinteger(L, 6);
  luaL_checktype(L, 7, LUA_TTABLE);
  if (!lua_isnoneornil(L, 8)) luaL_checktype(L, 8, LUA_TTABLE);
  lua_settop(L, 8);
  if (!c->open) {
    ga_dist_group(c, 1);   /* leaves the closed/aborted message */
    return lga_fail(L, fname);
  }
  /* a list of arrays, or a list of lists (several calls, one group) */
  lua_rawgeti(L, 7, 1);
  int nested = lua_type(L, -1) == LUA_TTABLE && !lga_toarray(L, -1);
  lua_pop(L, 1);
  int ncalls = nested ? (int)lua_rawlen(L, 7) : 1;
  if (nested && ncalls < 1) return lga_errorf(L, fname, "no arrays given");
  if (!lua_isnil(L, 8) && (int)lua_rawlen(L, 8) != (nested ? ncalls : (int)lua_rawlen(L, 7)))
    return lga_errorf(L, fname, "out= must be shaped like the arrays (one output per input)");
  int in_place = kind == GA_DIST_ALL_REDUCE || kind == GA_DIST_BROADCAST || kind == GA_DIST_REDUCE ||
                 kind == GA_DIST_SEND || kind == GA_DIST_RECV;
  one_call *calls = lua_newuserdatauv(L, sizeof(one_call) * (size_t)ncalls, 0);   /* 9 */
  lua_createtable(L, ncalls, 0);                                                   /* 10: results */
  for (int k = 0; k < ncalls; k++) {
    one_call *oc = &calls[k];
    if (nested) {
      lua_rawgeti(L, 7, k + 1);
      if (!lua_istable(L, -1)) return lga_errorf(L, fname, "arrays[%d] is not a list of arrays", k + 1);
    } else lua_pushvalue(L, 7);
    int ins = lua_gettop(L);
    oc->n = arrays_of(L, ins, oc->in, fname, "arrays");
    int outs_idx;
    if (!lua_isnil(L, 8)) {
      if (nested) lua_rawgeti(L, 8, k + 1);
      else lua_pushvalue(L, 8);
      if (!lua_istable(L, -1)) return lga_errorf(L, fname, "out[%d] is not a list of arrays", k + 1);
      outs_idx = lua_gettop(L);
      if (arrays_of(L, outs_idx, oc->out, fname, "out") != oc->n)
        return lga_errorf(L, fname, "out= has %d arrays for %d inputs", (int)lua_rawlen(L, outs_idx), oc->n);
    } else if (in_place) {
      lua_pushvalue(L, ins);
      outs_idx = lua_gettop(L);
      memcpy(oc->out, oc->in, sizeof(ga_array *) * (size_t)oc->n);
    } else {
      lua_createtable(L, oc->n, 0);
      outs_idx = lua_gettop(L);
      for (int i = 0; i < oc->n; i++) {
        int nd;
        int64_t shape[GA_MAXDIM];
        if (ga_dist_out_shape(c, kind, oc->in[i], &nd, shape)) return lga_fail(L, fname);
        oc->out[i] = lga_new_array(L, S, fname, GA_DEVICE(oc->in[i]), oc->in[i]->dtype, nd, shape);
        lua_rawseti(L, outs_idx, i + 1);
      }
    }
    lua_pushvalue(L, outs_idx);
    lua_rawseti(L, 10, k + 1);
    lua_settop(L, 10);
  }
  void *streams[GA_DIST_MAX_LOCAL];
  int rc = GA_OK;
  int grouped = ncalls > 1;
  if (grouped && ga_dist_group(c, 1)) return lga_fail(L, fname);
  for (int k = 0; k < ncalls && !rc; k++) {
    one_call *oc = &calls[k];
    if (kind == GA_DIST_SEND || kind == GA_DIST_RECV) streams[0] = lga_stream(S, GA_DEVICE(oc->in[0]));
    else
      for (int i = 0; i < c->nlocal && i < oc->n; i++) streams[i] = lga_stream(S, c->dev[i]);
    rc = ga_dist_run(c, kind, op, root, peer, (const ga_array *const *)oc->in, oc->out, oc->n, streams);
  }
  if (grouped) {
    if (rc) {
      char msg[1024];   /* keep the first error's message */
      snprintf(msg, sizeof msg, "%s", ga_errmsg());
      int code = ga_errcode();
      ga_dist_group(c, 0);
      ga_err(code, "%s", msg);
    } else rc = ga_dist_group(c, 0);
  }
  if (rc) return lga_fail(L, fname);
  if (!nested) lua_rawgeti(L, 10, 1);
  return 1;
}

void lga_open_dist(lua_State *L) {
  int mod = lua_gettop(L);
  static const luaL_Reg fns[] = {
    {"_dist_version", l_version}, {"_dist_unique_id", l_unique_id}, {"_dist_init", l_init}, {NULL, NULL}};
  lga_setfuncs(L, fns, mod);
  static const luaL_Reg meta[] = {{"__gc", l_destroy}, {"__close", l_close}, {NULL, NULL}};
  static const luaL_Reg methods[] = {
    {"destroy", l_destroy}, {"abort", l_abort}, {"_run", l_run}, {"_group", l_group}, {"_barrier", l_barrier},
    {"_info", l_info}, {NULL, NULL}};
  luaL_newmetatable(L, COMM_MT);
  int mt = lua_gettop(L);
  lga_setfuncs_host(L, meta, mod, mt, 0);
  lua_newtable(L);
  lga_setfuncs_host(L, methods, mod, -1, 0);
  lua_pushvalue(L, -1);
  lua_setfield(L, mod, "_comm_methods");   /* distributed.lua adds the public methods */
  lua_setfield(L, mt, "__index");
  lua_pushvalue(L, mt);
  lua_setfield(L, mod, "_comm_mt");
  lua_settop(L, mod);
}
