#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
using std::sqrt; using std::fabs;
struct dim { int x; };
thread_local dim threadIdx, blockIdx;
static std::barrier<> *bar;
static double xch[32];
static int ich[32];
#define __global__
#define __shared__ static
#define __launch_bounds__(x)
static void __syncwarp() { bar->arrive_and_wait(); }
template <typename T> static T __shfl_xor_sync(unsigned, T v, int o) {
  int l = threadIdx.x & 31; bar->arrive_and_wait(); xch[l] = (double)v; bar->arrive_and_wait();
  T r = (T)xch[l ^ o]; bar->arrive_and_wait(); return r;
}
static int __any_sync(unsigned, int p) {
  int l = threadIdx.x & 31; bar->arrive_and_wait(); ich[l] = p; bar->arrive_and_wait();
  int r = 0; for (int i = 0; i < 32; i++) r |= ich[i]; bar->arrive_and_wait(); return r;
}
#include "kern.cuh"
int main(int argc, char **argv) {
  int batch = atoi(argv[1]);
  size_t per = (size_t)N * N * ES;
  std::vector<R> a(per * batch), s(N * batch), u(per * batch), v(per * batch);
  std::vector<int> info(batch);
  FILE *f = fopen("in.bin", "rb"); fread(a.data(), sizeof(R), a.size(), f); fclose(f);
  std::barrier<> b(32); bar = &b;
  for (int m = 0; m < batch; m++) {
    std::vector<std::thread> th;
    for (int l = 0; l < 32; l++) th.emplace_back([&, l, m] { threadIdx.x = l; blockIdx.x = m; ga_jacobi(a.data(), s.data(), u.data(), v.data(), info.data(), batch); });
    for (auto &t : th) t.join();
  }
  f = fopen("out.bin", "wb"); fwrite(a.data(), sizeof(R), a.size(), f); fwrite(s.data(), sizeof(R), s.size(), f);
  fwrite(u.data(), sizeof(R), u.size(), f); fwrite(v.data(), sizeof(R), v.size(), f); fclose(f);
}
