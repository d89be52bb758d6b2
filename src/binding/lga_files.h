/* Shared by the file bindings (lga_files.c: .npy, raw bytes; lga_npz.c:
 * .npz archives). */
#ifndef LGA_FILES_H
#define LGA_FILES_H
#include "binding/lga_core.h"
#include "core/ga_chunkio.h"
#include <stdint.h>
#include <stdio.h>

/* A source of exactly len bytes read front to back (a .npy file after its
 * start, a zip member, a string). */
typedef struct lga_src {
  ga_read_fn read;
  void *ctx;
  uint64_t len;
} lga_src;

/* Read one whole .npy from src and push the array, made on `device`;
 * errors name fname and `what` (the file or member). */
void lga_npy_read(lua_State *L, lga_state *S, lga_src *src, int device, size_t max_header, const char *fname,
                  const char *what);
/* Write array x (stack index idx; any layout) as a whole .npy to the sink. */
void lga_npy_write(lua_State *L, lga_state *S, int idx, ga_write_fn w, void *ctx, const char *fname);
/* The bytes the .npy of array x takes (header + data). */
uint64_t lga_npy_size(const ga_array *x);

/* The array argument at idx: an array, or a Lua value made into a host
 * array (replacing it on the stack); returns idx. */
int lga_files_array_arg(lua_State *L, lga_state *S, int idx, const char *fname);
/* fopen as a userdata the GC closes if an error unwinds past it; an error
 * naming fname when it cannot be opened. */
FILE **lga_files_open(lua_State *L, const char *path, const char *mode, const char *fname);
/* fclose it now (an error when that fails: data not written). */
void lga_files_close(lua_State *L, FILE **fp, const char *path, const char *fname);
/* Bytes from f's position to its end; an error unless f is a regular file. */
uint64_t lga_files_left(lua_State *L, FILE *f, const char *path, const char *fname);

/* lga_npz.c: push the NpzFile over the open file *fp (from
 * lga_files_open; the NpzFile takes it, and *fp becomes NULL). */
void lga_npz_open(lua_State *L, lga_state *S, FILE **fp, const char *path, int device, size_t max_header,
                  const char *fname);
/* savez/savez_compressed: (path, names table, arrays table, compress). */
int lga_npz_save(lua_State *L);
void lga_npz_register(lua_State *L);   /* the NpzFile metatable */

#endif
