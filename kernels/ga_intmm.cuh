// Integer matrix products on the int8 tensor cores (src/cuda/ga_cuda_intmm.c):
// each operand is split into ND signed 8-bit digits in balanced form,
//   x = sum_j d_j 256^j  (mod 2^(8 ND)),  d_j in [-128, 127],
// cuBLAS multiplies the digit matrices (int8 in, int32 out, exact while a
// sum has fewer than 2^17 terms), and
//   C = sum_{j+l<ND} 2^(8(j+l)) D_j E_l  (mod 2^(8 ND))
// is put together by the combine kernel.  The generator puts before this:
//   TIN   the element type of A, B and C (an integer type of ND bytes)
//   TU    the unsigned type of the same width
//   TACC  the combine's accumulator: unsigned (ND <= 4) or unsigned long long
//   ND    digits per element (1, 2, 4 or 8)

// D (prows, ND * kp) int8, row stride ldd: digit j of X[r][k] at
// D[r][c * kp + k] with c = j (rev 0) or ND - 1 - j (rev 1), for r < rows
// and k < kc; zeros for the padding (rows <= r < prows, kc <= k < kp).
// X (rows, kc) at element strides (sxr, sxk), batch sxb (blockIdx.z).  Tiles of 32 x 32 go through shared memory so that both
// the reads (along k when kfast, else along the rows) and the writes (along
// k) are coalesced.  Grid (kp / 32, prows / 32, batch), 256 threads.
extern "C" __global__ void __launch_bounds__(256) ga_intmm_split(
    const TIN *__restrict__ X, long long sxb, long long sxr, long long sxk, signed char *__restrict__ D,
    long long sdb, long long ldd, long long kp, int rows, int prows, int kc, int kfast, int rev) {
  __shared__ TU tile[32][33];
  const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
  const long long r0 = (long long)blockIdx.y * 32, k0 = (long long)blockIdx.x * 32;
  X += (long long)blockIdx.z * sxb;
  D += (long long)blockIdx.z * sdb;
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const int a = ty + 8 * i;
    const long long r = r0 + (kfast ? a : tx), k = k0 + (kfast ? tx : a);
    TU v = 0;
    if (r < rows && k < kc) v = (TU)X[r * sxr + k * sxk];
    if (kfast) tile[a][tx] = v;
    else tile[tx][a] = v;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const int a = ty + 8 * i;
    const long long r = r0 + a, k = k0 + tx;
    if (r < prows && k < kp) {
      const TU u = tile[a][tx];
      signed char *p = D + r * ldd + k;
      int carry = 0;
#pragma unroll
      for (int j = 0; j < ND; j++) {
        const int b = (int)((u >> (8 * j)) & (TU)255) + carry;   // 0 .. 256
        carry = b >= 128;
        p[(long long)(rev ? ND - 1 - j : j) * kp] = (signed char)(b - (carry << 8));
      }
    }
  }
}

// O[r][c] (+)= sum_s C_s[r][c] << 8 s  (mod 2^(8 ND)) for s < ND, C_s at
// C + s * scs, row stride ldc (int32, what cuBLAS wrote); acc: add to what
// O holds (a later slice of k).  O at element strides (sor, soc), batch sob;
// C batch scb (blockIdx.y).  Grid (m * n / 256, batch), 256 threads.
extern "C" __global__ void __launch_bounds__(256) ga_intmm_combine(
    const int *__restrict__ C, long long scs, long long scb, long long ldc, TIN *__restrict__ O, long long sob,
    long long sor, long long soc, int m, int n, int acc) {
  const long long i = (long long)blockIdx.x * 256 + threadIdx.x;
  if (i >= (long long)m * n) return;
  const long long r = i / n, c = i - r * n;
  C += (long long)blockIdx.y * scb + r * ldc + c;
  O += (long long)blockIdx.y * sob + r * sor + c * soc;
  TACC v = acc ? (TACC)(TU)*O : (TACC)0;
#pragma unroll
  for (int s = 0; s < ND; s++) v += (TACC)(long long)C[s * scs] << (8 * s);
  *O = (TIN)v;
}
