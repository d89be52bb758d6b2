// Helpers of the dense solvers (cuda/ga_cuda_solver.c).  Include-free, so
// NVRTC parses only this.

// The pointer arrays cuBLAS's and cuSOLVER's batched routines take:
// out[i] = b0 + i * s0 and, when b1 is not null, out[n + i] = b1 + i * s1.
extern "C" __global__ void ga_la_ptrs(char **out, char *b0, long long s0, char *b1, long long s1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = b0 + (long long)i * s0;
    if (b1) out[n + i] = b1 + (long long)i * s1;
  }
}
