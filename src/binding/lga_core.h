/* Shared by the binding files (lga_*.c): the per-lua_State state, array
 * userdata access, argument helpers and error conversion.  The only layer
 * that includes lua.h. */
#ifndef LGA_CORE_H
#define LGA_CORE_H
#include <lauxlib.h>
#include <lua.h>
#include "core/ga_elementwise.h"
#include "core/ga_mem.h"

#define LGA_ARRAY_MT "gpuarray.ndarray"
#define LGA_MAX_DEVICES 64

/* Current device and streams live per lua_State (DESIGN.md "State"); every
 * C function of the module gets this as upvalue 1. */
typedef struct lga_state {
  int device;                         /* current: GA_CPU or CUDA ordinal */
  void *stream[LGA_MAX_DEVICES];      /* current stream per device (NULL = null stream) */
  int64_t gc_debt;                    /* bytes allocated since the last forced GC */
  /* the replaceable allocators (lga_interop.c): [0] serves arrays of the
   * current device, [1] host arrays while a CUDA device is current (the
   * pinned allocator); kind 0 = the default pool */
  struct lga_allocator { int kind; void *ptr; int ref; } alloc[2];
  struct lga_anchor *anchor;          /* this state, for releases of Lua-owned memory */
} lga_state;

#define LGA_STATE(L) ((lga_state *)lua_touserdata((L), lua_upvalueindex(1)))

/* Temporaries through the allocator in use (lga_interop.c): the state
 * whose call runs on this thread, noted while any state has an allocator
 * (cheap: one global load when none has). */
extern __thread lua_State *lga_running;
extern int lga_active_allocators;
static inline void lga_note_running(lua_State *L) {
  if (__atomic_load_n(&lga_active_allocators, __ATOMIC_RELAXED)) lga_running = L;
}
void lga_close_allocators(lga_state *S);   /* the state's __gc */

/* Current stream for arrays on `device` (NULL for the host). */
static inline void *lga_stream(lga_state *S, int device) {
  return device >= 0 && device < LGA_MAX_DEVICES ? S->stream[device] : NULL;
}

/* Raise "<fname>: <core message>". */
int lga_fail(lua_State *L, const char *fname);
/* As lga_fail, but an NVRTC compile error is raised with the whole numbered
 * `source` (the core's message buffer has a fixed size, which cuts long
 * user code).  `source` must stay valid (e.g. a string on the Lua stack);
 * NULL raises as lga_fail. */
int lga_fail_compile(lua_State *L, const char *fname, const char *source);
int lga_errorf(lua_State *L, const char *fname, const char *fmt, ...);

/* Arrays (these helpers: lga_aux.c) */
/* The registry key of the ndarray metatable (hidden: a direct address on
 * the hot path, no GOT load). */
extern const char lga_mt_key __attribute__((visibility("hidden")));
ga_array *lga_toarray(lua_State *L, int idx);            /* NULL if not an ndarray */
ga_array *lga_check(lua_State *L, int idx, const char *fname); /* + not freed */
/* Check the array is on the host or on the current device (CuPy's rule). */
void lga_check_current(lua_State *L, lga_state *S, const ga_array *a, const char *fname);
/* Push a new C-contiguous array (allocating, with GC pacing and the
 * free-cache / full-GC / retry sequence on out-of-memory). */
/* The host is about to wait for device work it has just queued: run now
 * the full collection that the next allocations would run (at least half
 * of its byte budget is due), so that it overlaps that work instead of
 * stalling an idle device later. */
void lga_gc_ahead(lua_State *L, lga_state *S);
ga_array *lga_new_array(lua_State *L, lga_state *S, const char *fname, int device, int dtype,
                        int ndim, const int64_t *shape);
/* Push a view of array at index `base_idx` (shares the buffer, records base). */
ga_array *lga_new_view(lua_State *L, int base_idx);

/* Argument helpers */
int lga_opt_dtype(lua_State *L, int idx, const char *fname, int dflt);  /* string/nil */
int lga_get_shape(lua_State *L, int idx, const char *fname, int64_t *shape); /* returns ndim */
void lga_check_options(lua_State *L, int idx, const char *fname, const char *const *allowed);
/* The axis argument of reductions at idx, as given (1-based, unchecked):
 * nil/false = every axis (returns -1), an integer, or a list of integers
 * (returns the count; more than ndim, when ndim >= 0, or than GA_MAXDIM is
 * an error). */
int lga_read_axes(lua_State *L, int idx, const char *fname, int ndim, int64_t *axes);

/* Copies and transfers (lga_transfer.c) */
/* Push an array with src's data on `device` with `dtype` (-1 = src's);
 * when nothing changes and !force_copy, pushes src itself. */
ga_array *lga_to_device(lua_State *L, lga_state *S, int src_idx, int device, int dtype,
                        int force_copy, const char *fname);
/* Push an array made from a Lua value (nested table, number, boolean, array). */
ga_array *lga_from_value(lua_State *L, lga_state *S, int idx, int device, int dtype, int force_copy,
                         const char *fname);
void lga_run_fill(lua_State *L, lga_state *S, ga_array *out, const ga_operand *v, const char *fname);
/* A Lua value put into an array of dtype dt (lga_args.c): an integer out of
 * range, or a float that is NaN, +-inf or out of range for an integer dtype
 * raise (NumPy's OverflowError/ValueError); in range, a float truncates
 * toward zero.  lga_check_number: the same for the Lua value at idx (any
 * non-number passes). */
void lga_check_fits(lua_State *L, const ga_operand *v, int dt, const char *fname);
void lga_check_number(lua_State *L, int idx, int dt, const char *fname);
/* dst = src (broadcast, cast to dst's dtype) on dst's stream; errors name fname */
void lga_run_copy(lua_State *L, lga_state *S, ga_array *dst, const ga_array *src, const char *fname);

/* Registration */
void lga_open_array(lua_State *L);      /* metatable + methods */
void lga_open_create(lua_State *L);
void lga_open_shape(lua_State *L);     /* after create: uses module.host */
void lga_open_transfer(lua_State *L);
void lga_open_ops(lua_State *L);
void lga_open_device(lua_State *L);
void lga_open_blas(lua_State *L);
void lga_open_kernels(lua_State *L);
void lga_open_ewk(lua_State *L);        /* ga.ElementwiseKernel */
void lga_open_redk(lua_State *L);       /* ga.ReductionKernel (lga_redk.c) */
void lga_open_raw(lua_State *L);        /* ga.RawKernel, ga.RawModule, ga.scalar (lga_raw.c) */
void lga_open_dtype(lua_State *L);      /* can_cast, result_type, promote_types */
void lga_open_join(lua_State *L);       /* joins, splits, item selection (lga_join.c, lga_select.c) */
void lga_open_index(lua_State *L);      /* ga.newaxis, ga.ellipsis */
void lga_open_advindex(lua_State *L);   /* __advget/__advset, take put compress add_at (lga_advindex.c) */
void lga_open_scan(lua_State *L);       /* cumsum ... nonzero argwhere flatnonzero (lga_scan.c) */
void lga_open_random(lua_State *L);     /* core._random_fill (lga_random.c) */
void lga_open_curand(lua_State *L);
void lga_open_fft(lua_State *L);        /* core._fft, core._fft_cache (lga_fft.c) */     /* core._curand_new: cuRAND generators (lga_curand.c) */
void lga_open_cudnn(lua_State *L);      /* core._dnn, core._dnn_available (lga_cudnn.c) */
void lga_open_sort(lua_State *L);       /* core._sort, _sort_host, _sort_methods (lga_sort.c) */
void lga_open_reduce(lua_State *L);      /* core._reduce, _reduce_host: the reduction rows (lga_reduce.c) */
void lga_open_ranges(lua_State *L);       /* core._range_push/_range_pop: NVTX ranges (lga_ranges.c) */
void lga_open_ledger(lua_State *L);       /* core.sync_ledger: implicit syncs by call site (lga_ledger.c) */
void lga_open_files(lua_State *L);       /* core._files, core._files_host: .npy/.npz, bytes (lga_files.c, lga_npz.c) */
void lga_open_fuse(lua_State *L);       /* core._fuse_resolve, core._fuse_ctype (lga_fuse.c) */
void lga_open_dist(lua_State *L);       /* core._dist_*: ga.distributed (lga_dist.c) */
void lga_open_interop(lua_State *L);    /* DLPack, foreign memory, allocators (lga_interop.c) */
void lga_open_capi(lua_State *L);       /* the C API table of include/gpuarray.h (lga_capi.c) */
/* A buffer for an array of nbytes on device from the state's allocator
 * (lga_interop.c); returns 0 when the default pool serves it (the caller
 * allocates as usual), 1 when *buf is set; raises on failure. */
int lga_alloc_buffer(lua_State *L, lga_state *S, const char *fname, int device, size_t nbytes, void *stream,
                     ga_buffer **buf);
/* The state of the module loaded in L (for the C API, outside the
 * module's closures); NULL before require "gpuarray.core". */
lga_state *lga_state_of(lua_State *L);
/* The pool set of a ga.cuda.MemoryPool at idx, NULL for anything else. */
ga_mempool *lga_to_mempool(lua_State *L, int idx);
void lga_open_testhooks(lua_State *L);  /* spec-only kernel sources and compiles (lga_testhooks.c) */
/* Indexing (lga_index.c): x[key] with (x, key) on the stack, x[key] = v with
 * (x, key, v); a key's items (returns their count, pushes the key's index
 * arrays, which must stay on the stack while the items are used; errors
 * name fname), and dst = a Lua number, boolean, table or array (broadcast,
 * cast to dst). */
int lga_getitem(lua_State *L);
int lga_setitem(lua_State *L);
struct ga_index_item;
int lga_parse_key(lua_State *L, int key, struct ga_index_item *items, int max, const char *fname);
void lga_assign(lua_State *L, lga_state *S, ga_array *dst, int value, const char *fname);
/* Register funcs into the table at table_idx (the module), each with the
 * upvalues of lga_setfuncs_host (the state, host = false, its name). */
void lga_setfuncs(lua_State *L, const luaL_Reg *l, int table_idx);
/* The functions of ga.X and ga.host.X: each set into the table at
 * table_idx with upvalues (the state of module mod, host, its name).
 * LGA_HOST(L) reads host: Lua values become arrays on the host, else on the
 * current device.  LGA_FNAME(L) reads the name, the one its errors give
 * (as luaL_argerror's, from one place: the luaL_Reg row). */
void lga_setfuncs_host(lua_State *L, const luaL_Reg *l, int mod, int table_idx, int host);
#define LGA_HOST(L) lua_toboolean((L), lua_upvalueindex(2))
#define LGA_FNAME(L) lua_tostring((L), lua_upvalueindex(3))

/* The elementwise binding entry: op on stack args [first, first+nin), with
 * the options table at opts (0 = none); pushes the result(s). */
int lga_ew(lua_State *L, lga_state *S, const ga_op *op, int first, int opts, const char *fname);

#endif
