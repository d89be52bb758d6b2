/* The host backend's C types per dtype ID token, for loops generated from
 * table rows (ga_host_loops.c, ga_host_reduce.c, scans).  No Lua. */
#ifndef GA_HOST_TYPES_H
#define GA_HOST_TYPES_H
#include "base/ga_dtype.h"
#include <stdbool.h>
#include <stdint.h>

/* Types of each loop argument: storage (_mt, as in memory) and compute (_t;
 * float16 computes in float and rounds once on store, as NumPy's loops). */
#define HL_MT(ID) HL_MT_(ID)
#define HL_MT_(ID) HL_MT_##ID
#define HL_CT(ID) HL_CT_(ID)
#define HL_CT_(ID) HL_CT_##ID
#define HL_MT_BOOL bool
#define HL_MT_INT8 int8_t
#define HL_MT_UINT8 uint8_t
#define HL_MT_INT16 int16_t
#define HL_MT_UINT16 uint16_t
#define HL_MT_INT32 int32_t
#define HL_MT_UINT32 uint32_t
#define HL_MT_INT64 int64_t
#define HL_MT_UINT64 uint64_t
#define HL_MT_FLOAT16 ga_f16
#define HL_MT_FLOAT32 float
#define HL_MT_FLOAT64 double
#define HL_MT_COMPLEX64 ga_c64
#define HL_MT_COMPLEX128 ga_c128
#define HL_CT_FLOAT16 float
#define HL_CT_BOOL bool
#define HL_CT_INT8 int8_t
#define HL_CT_UINT8 uint8_t
#define HL_CT_INT16 int16_t
#define HL_CT_UINT16 uint16_t
#define HL_CT_INT32 int32_t
#define HL_CT_UINT32 uint32_t
#define HL_CT_INT64 int64_t
#define HL_CT_UINT64 uint64_t
#define HL_CT_FLOAT32 float
#define HL_CT_FLOAT64 double
#define HL_CT_COMPLEX64 ga_c64
#define HL_CT_COMPLEX128 ga_c128

#endif
