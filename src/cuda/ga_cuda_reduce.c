/* Reductions on CUDA: the rows of ga_reduce.def through the reduction
 * pipeline (ga_cuda_red.h says the kernel shapes).  This file describes a
 * call (one input `in`, one output `out`) and emits the row's types and
 * statements; kernels/ga_reduce_builtin.cuh holds the rest of the per-call
 * parts. */
#include "cuda/ga_cuda_internal.h"
#include "cuda/ga_cuda_red.h"
#include "base/ga_strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char ga_kernel_ga_types[];
extern const char ga_kernel_ga_math[];
extern const char ga_kernel_ga_cmath[];
extern const char ga_kernel_ga_reduce_builtin[];


static void gen_prelude(ga_strbuf *b, const ga_cred_shape *s) {
  const ga_red_call *c = s->c->call;
  ga_sb_puts(b, ga_kernel_ga_types);
  ga_sb_puts(b, ga_kernel_ga_math);
  if (GA_IS_COMPLEX(c->T) || GA_IS_COMPLEX(c->acc)) ga_sb_puts(b, ga_kernel_ga_cmath);
  const ga_red_op *op = c->op;
  ga_sb_printf(b, "\n// reduction %s\n", op->name);
  ga_sb_printf(b, "typedef %s in0_t; typedef %s in0_mt;\n", ga_cu_compute(c->T), ga_cu_type(c->T));
  ga_sb_printf(b, "typedef %s acc_t;\n", ga_cu_compute(c->acc));
  ga_sb_printf(b, "typedef %s out0_t; typedef %s out0_mt;\n", ga_cu_compute(c->out_dtype), ga_cu_type(c->out_dtype));
  ga_sb_puts(b, "struct acc_s { acc_t v; long long i; };\n");
  ga_sb_printf(b, "__device__ __forceinline__ void r_ident(acc_s &a) { a.i = 0; %s; }\n", op->identity);
  ga_sb_printf(b, "__device__ __forceinline__ void r_map(acc_s &a, in0_t in0, long long _j) { (void)_j; a.i = 0; %s; }\n",
               op->map);
  ga_sb_printf(b, "__device__ __forceinline__ void r_red(acc_s &a, const acc_s &b) { %s; }\n", op->reduce);
  ga_sb_printf(b, "__device__ __forceinline__ void r_post(const acc_s &a, long long _n, out0_t &out0) { (void)_n; %s; }\n",
               op->post);
}

static void gen_hooks(ga_strbuf *b, const ga_cred_shape *s) {
  (void)s;
  ga_sb_puts(b, ga_kernel_ga_reduce_builtin);
}

static void key_part(ga_kpack *p, const ga_cred_shape *s) {
  const ga_red_call *c = s->c->call;
  ga_kpack_put(p, (uint64_t)c->op->id | (uint64_t)c->T << 8 | (uint64_t)c->acc << 13 | (uint64_t)c->out_dtype << 18, 23);
}

/* The call as the pipeline sees it; `in` and `out` the kernel's first
 * parameters (they must outlive the run). */
static void describe(const ga_red_call *c, ga_cred *d, const void **in, void **out) {
  GA_CRED_FROM(d, c);
  d->narr = 2;
  d->nin = 1;
  d->arr[0] = (ga_cred_arr){(uintptr_t)c->in, GA_ITEMSIZE(c->T), c->istr_o, c->istr_r};
  d->arr[1] = (ga_cred_arr){(uintptr_t)c->out, GA_ITEMSIZE(c->out_dtype), c->ostr, NULL};
  d->acc_itemsize = GA_ITEMSIZE(c->acc);
  d->noident = (c->op->flags & GA_REDF_NOIDENT) != 0;
  d->kfam = GA_KFAM_REDUCE;
  d->name = "ga_red";
  d->prelude = gen_prelude;
  d->hooks = gen_hooks;
  d->key = key_part;
  d->nparam = 2;
  d->param[0] = in;
  d->psize[0] = sizeof *in;
  d->param[1] = out;
  d->psize[1] = sizeof *out;
}

/* source of the first kernel of a call (second: its combining kernel), for
 * the NVRTC spec rows */
char *ga_cuda_reduce_source(const ga_red_call *c, int second) {
  ga_cred d;
  const void *in = c->in;
  void *out = c->out;
  describe(c, &d, &in, &out);
  ga_cred_shape s, f;
  ga_cuda_red_plan(&d, &s, 132);
  if (second) ga_cuda_red_fin(&s, &f);
  return ga_cuda_red_source(second ? &f : &s);
}

int ga_cuda_reduce(const ga_red_call *c) {
  ga_cred d;
  const void *in = c->in;
  void *out = c->out;
  describe(c, &d, &in, &out);
  return ga_cuda_red_run(&d);
}
