// CUDA emulation for tools/sort_emu/run.sh (see there).
#include "prelude.h"
#include <vector>
#include <functional>
thread_local dim threadIdx;
dim blockIdx, gridDim, blockDim;
unsigned long long emu_warpbuf[32][32];
static pthread_barrier_t bar, wbar[32];
void emu_sync() { pthread_barrier_wait(&bar); }
void emu_syncwarp() { pthread_barrier_wait(&wbar[threadIdx.x >> 5]); }
static std::function<void()> body;
std::function<void(unsigned)> emu_after_block;   // called after each block (tests)
static void *run(void *a) { threadIdx.x = (unsigned)(uintptr_t)a; body(); return 0; }
// Every thread must reach the same barriers: rows kernel returns early for whole warps only;
// we run 256 threads; early-returning warps are fine with warp barriers but NOT with block barriers.
void launch_n(unsigned grid, int nt, std::function<void()> f) {
  gridDim.x = grid; blockDim.x = nt; body = f;
  for (unsigned b = 0; b < grid; b++) {
    blockIdx.x = b;
    pthread_barrier_init(&bar, 0, nt);
    for (int w = 0; w < nt / 32; w++) pthread_barrier_init(&wbar[w], 0, 32);
    pthread_t th[1024];
    for (int t = 0; t < nt; t++) pthread_create(&th[t], 0, run, (void *)(uintptr_t)t);
    for (int t = 0; t < nt; t++) pthread_join(th[t], 0);
    pthread_barrier_destroy(&bar);
    for (int w = 0; w < nt / 32; w++) pthread_barrier_destroy(&wbar[w]);
    if (emu_after_block) emu_after_block(b);
  }
}
void launch(unsigned grid, std::function<void()> f) { launch_n(grid, 256, f); }
