// tools/rng_probe/alloc_probe.cu: does a process's first 1 GiB of device
// memory take writes slower?  A plain CUDA program (no gpuarray): a
// Philox-like uniform kernel by chunks (ga_rng_chunks' shape, 8 blocks a
// thread) and a fill, 10 calls after 2 warm-ups, into a 1 GiB buffer from
// cudaMalloc (malloc), cudaMalloc after 2 GiB held (hold), cuMemCreate +
// cuMemMap at the recommended granularity (vmm) or cudaMallocAsync (async).
// On the GPU machine:
//   nvcc -O2 -arch=sm_90 -o /tmp/alloc_probe tools/rng_probe/alloc_probe.cu -lcuda
//   for i in 1 2 3; do for m in malloc vmm async hold; do /tmp/alloc_probe $m; done; done
// Stop 31, one H200, seven processes each: every mode 4.115-4.123 TB/s
// (fill 4.65-4.67), the first draw as the later ones; in gpuarray's
// process the first 2^28-value uniform draw reads 2.6-4.5 unless 2 GiB are
// held first (tools/rng_blocks.lua), with launch batching on or off.  So
// the slow first 2 GiB come from something in our process, not the driver.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
__device__ __forceinline__ uint4 mix(unsigned long long c, unsigned k0, unsigned k1) {
  unsigned c0 = (unsigned)c, c1 = (unsigned)(c >> 32), c2 = 3, c3 = 0;
  for (int r = 0; r < 10; r++) {
    unsigned hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    unsigned hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0; c1 = lo1; c2 = hi0 ^ c3 ^ k1; c3 = lo0;
    k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
  }
  return make_uint4(c0, c1, c2, c3);
}
__global__ void chunks(float4 *o, long long nv, unsigned k0, unsigned k1) {
  long long bs = blockDim.x, C = bs * 8;
  for (long long c = blockIdx.x; c * C < nv; c += gridDim.x) {
    long long u0 = c * C + threadIdx.x;
    uint4 w[8];
#pragma unroll
    for (int k = 0; k < 8; k++) w[k] = mix(u0 + k * bs, k0, k1);
#pragma unroll
    for (int k = 0; k < 8; k++)
      if (u0 + k * bs < nv)
        o[u0 + k * bs] = make_float4((w[k].x >> 8) * 5.96e-8f, (w[k].y >> 8) * 5.96e-8f, (w[k].z >> 8) * 5.96e-8f,
                                     (w[k].w >> 8) * 5.96e-8f);
  }
}
__global__ void fill(float4 *o, long long nv) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nv) o[i] = make_float4(0.5f, 0.5f, 0.5f, 0.5f);
}
static double rate(void *p, size_t bytes, int which) {
  long long nv = bytes / 16;
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  unsigned g1 = (unsigned)((nv + 2047) / 2048), g2 = (unsigned)((nv + 255) / 256);
  for (int i = 0; i < 2; i++) which ? fill<<<g2, 256>>>((float4 *)p, nv) : chunks<<<g1, 256>>>((float4 *)p, nv, 1, 2);
  cudaEventRecord(a);
  for (int i = 0; i < 10; i++) which ? fill<<<g2, 256>>>((float4 *)p, nv) : chunks<<<g1, 256>>>((float4 *)p, nv, 1, 2);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b);
  return bytes / (ms / 10) / 1e9;
}
int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "malloc";
  size_t G = (size_t)1 << 30;
  cudaFree(0);
  void *p = NULL, *hold = NULL;
  if (!strcmp(mode, "hold")) { cudaMalloc(&hold, 2 * G); cudaMalloc(&p, G); }
  else if (!strcmp(mode, "async")) { cudaMallocAsync(&p, G, 0); cudaStreamSynchronize(0); }
  else if (!strcmp(mode, "vmm")) {
    CUmemAllocationProp prop; memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED; prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE; prop.location.id = 0;
    size_t gmin = 0, grec = 0;
    cuMemGetAllocationGranularity(&gmin, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    cuMemGetAllocationGranularity(&grec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    CUmemGenericAllocationHandle h; CUdeviceptr d;
    if (cuMemCreate(&h, G, &prop, 0) || cuMemAddressReserve(&d, G, 0, 0, 0) || cuMemMap(d, G, 0, h, 0)) { printf("vmm failed\n"); return 1; }
    CUmemAccessDesc ad; ad.location = prop.location; ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (cuMemSetAccess(d, G, &ad, 1)) { printf("access failed\n"); return 1; }
    p = (void *)d;
    if (argc > 2) printf("granularity min %zu rec %zu\n", gmin, grec);
  } else cudaMalloc(&p, G);
  double r1 = rate(p, G, 0), r2 = rate(p, G, 0), f = rate(p, G, 1), r3 = rate(p, G, 0);
  printf("%-6s %.3f %.3f fill %.3f then %.3f TB/s @%p\n", mode, r1, r2, f, r3, p);
  cudaError_t e = cudaGetLastError();
  if (e) printf("error %s\n", cudaGetErrorString(e));
  (void)hold;
  return 0;
}
