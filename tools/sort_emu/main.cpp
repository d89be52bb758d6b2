// The sort kernels driven as src/cuda/ga_cuda_sort.c drives them, checked against std::stable_sort (tools/sort_emu/run.sh).
#include "prelude.h"
#include <vector>
#include <algorithm>
#include <functional>
#include <math.h>
void launch(unsigned grid, std::function<void()> f);
void launch_n(unsigned grid, int nt, std::function<void()> f);
extern std::function<void(unsigned)> emu_after_block;
// downgrade: after each tile, its inclusive words become aggregates again, so
// later tiles walk back to tile 0 word by word
static int downgrade = 0;
typedef unsigned PT; typedef unsigned CT; typedef unsigned LB;
extern "C" {
void hist4(const unsigned *, int, long long, CT *, uint4 *, long long);
void hist5(const unsigned *, int, long long, CT *, uint4 *, long long);
void bins(const CT *, CT *);
#define PASSDECL(n) void n(const unsigned *, unsigned *, const PT *, void *, int, int, long long, const CT *, LB *, unsigned *, int, LB *);
PASSDECL(pass00) PASSDECL(pass11) PASSDECL(pass21) PASSDECL(pass22) PASSDECL(pass12) PASSDECL(pass20)
void roww(const unsigned *, unsigned *, long long *, long long, long long);
void roww0(const unsigned *, unsigned *, long long *, long long, long long);
void rowb(const unsigned *, unsigned *, long long *, long long, long long);
}
static uint32_t key32(uint32_t u) {
  float f; memcpy(&f, &u, 4);
  if (f != f) return 0xffffffffu;
  if (f == 0) u = 0;
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
typedef void (*passfn)(const unsigned *, unsigned *, const PT *, void *, int, int, long long, const CT *, LB *, unsigned *, int, LB *);
// onesweep as ga_cuda_sort.c's driver (32-bit), float32: its default keys per
// thread, 24 for keys only and 21 with a payload (42 KiB of staging)
static int onesweep(const std::vector<unsigned> &src, long long nrows, long long n, std::vector<unsigned> *dst, std::vector<long long> *idx) {
  long long N = nrows * n;
  int kb = 4, rb = 0; for (long long v = nrows - 1; v > 0; v >>= 8) rb++;
  int P = kb + rb, carry = idx != 0 || rb > 0;
  long long tile = 256 * (carry ? 21 : 24), ntiles = (N + tile - 1) / tile, G = (N + 2047) / 2048; if (G > 7) G = 7;
  size_t region = ntiles * 256, nreg = P < 2 ? P : 2;
  std::vector<LB> look(region * nreg + 4, 0xdeadbeef);
  std::vector<CT> counts(P * 256, 0), binsv(P * 256); std::vector<unsigned> ctr(P, 0);   // zeroed (the memset)
  std::vector<unsigned> tk(N), tk2(N), kd(N); std::vector<PT> pa(N), pb(N);
  if (P > 5) return -1;
  const unsigned *s = src.data(); int n32 = (int)N;
  long long nzero = region * nreg / 4;
  if (rb == 0) launch(G, [&] { hist4(s, n32, n, counts.data(), (uint4 *)look.data(), nzero); });
  else launch(G, [&] { hist5(s, n32, n, counts.data(), (uint4 *)look.data(), nzero); });
  launch_n(P, 256, [&] { bins(counts.data(), binsv.data()); });
  const unsigned *kin = s; const PT *pin = 0;
  unsigned *dstp = dst ? dst->data() : 0;
  for (int p = 0; p < P; p++) {
    int last = p == P - 1, odd = (P - 1 - p) % 2;
    unsigned *kout = odd ? tk.data() : dstp ? dstp : tk2.data();
    void *pout = last ? (void *)(idx ? idx->data() : 0) : !carry ? 0 : odd ? (void *)pa.data() : (void *)pb.data();
    int wkeys = !last || dstp;
    int pin_m = !carry ? 0 : p == 0 ? 1 : 2, pout_m = last ? (idx ? 2 : 0) : carry;
    passfn f = pin_m == 0 ? pass00 : pin_m == 1 && pout_m == 1 ? pass11 : pin_m == 2 && pout_m == 1 ? pass21
             : pin_m == 2 && pout_m == 2 ? pass22 : pin_m == 1 && pout_m == 2 ? pass12 : pin_m == 2 && pout_m == 0 ? pass20 : 0;
    if (!f || (pin_m == 0 && pout_m != 0)) { printf("no variant %d %d\n", pin_m, pout_m); return -1; }
    LB *pl = look.data() + (p % 2) * region, *zn = p >= 1 && p + 1 < P ? look.data() + ((p + 1) % 2) * region : 0;
    unsigned *pc = ctr.data() + p; const CT *pbn = binsv.data() + p * 256;
    long long rl = n;
    std::vector<LB> inc(256, 0);
    if (downgrade) emu_after_block = [&](unsigned b) {
      for (int t = 0; t < 256; t++) {
        LB w = pl[(size_t)b * 256 + t], v = w & ((1u << 30) - 1);
        if ((w >> 30) != 2u) { printf("tile %u digit %d not inclusive\n", b, t); exit(1); }
        if (b > 0) pl[(size_t)b * 256 + t] = (1u << 30) | (v - inc[t]);
        inc[t] = v;
      }
    };
    launch(ntiles, [&] { f(kin, kout, pin, pout, n32, p, rl, pbn, pl, pc, wkeys, zn); });
    emu_after_block = nullptr;
    kin = kout; pin = (const PT *)pout;
  }
  return 0;
}
static int check(const char *what, const std::vector<unsigned> &src, long long nrows, long long n,
                 const std::vector<unsigned> *dst, const std::vector<long long> *idx) {
  int bad = 0;
  for (long long r = 0; r < nrows; r++) {
    std::vector<long long> o(n); for (long long i = 0; i < n; i++) o[i] = i;
    std::stable_sort(o.begin(), o.end(), [&](long long a, long long b) { return key32(src[r * n + a]) < key32(src[r * n + b]); });
    for (long long i = 0; i < n; i++) {
      if (dst && (*dst)[r * n + i] != src[r * n + o[i]]) { if (!bad++) printf("%s: value row %lld pos %lld\n", what, r, i); }
      if (idx && (*idx)[r * n + i] != o[i] + 1) { if (!bad++) printf("%s: idx row %lld pos %lld got %lld want %lld\n", what, r, i, (*idx)[r*n+i], o[i]+1); }
    }
  }
  printf("%s nrows %lld n %lld: %s\n", what, nrows, n, bad ? "FAIL" : "ok");
  return bad;
}
int main() {
  unsigned seed = 1;
  auto rnd = [&]() { seed = seed * 1103515245u + 12345u; return seed >> 8; };
  auto make = [&](long long N, int mod) {
    std::vector<unsigned> v(N);
    for (long long i = 0; i < N; i++) {
      float f = (float)((int)(rnd() % mod) - mod / 2) * 0.5f;
      if (i % 7 == 3) f = NAN; if (i % 11 == 5) f = -0.0f; if (i % 13 == 6) f = 0.0f;
      if (i % 17 == 1) { unsigned u = 0xffc00000u; memcpy(&f, &u, 4); }   // negative NaN
      memcpy(&v[i], &f, 4);
    }
    return v;
  };
  int fails = 0;
  for (long long N : {1LL, 2LL, 5375LL, 5377LL, 6143LL, 6144LL, 6145LL, 3 * 6144LL + 5, 40000LL}) {
    for (int mod : {7, 100000}) {
      auto v = make(N, mod);
      std::vector<unsigned> d(N); std::vector<long long> ix(N);
      fails += onesweep(v, 1, N, &d, 0) || check("onesweep sort", v, 1, N, &d, 0);
      fails += onesweep(v, 1, N, 0, &ix) || check("onesweep argsort", v, 1, N, 0, &ix);
    }
  }
  downgrade = 1;   // the look-back over 25 tiles of aggregates
  for (long long N : {100000LL, 6144LL * 17}) {
    auto v = make(N, 1000);
    std::vector<unsigned> d(N); std::vector<long long> ix(N);
    fails += onesweep(v, 1, N, &d, 0) || check("onesweep sort (aggregates only)", v, 1, N, &d, 0);
    fails += onesweep(v, 1, N, 0, &ix) || check("onesweep argsort (aggregates only)", v, 1, N, 0, &ix);
  }
  downgrade = 0;
  { auto v = make(200 * 37, 50); std::vector<unsigned> d(v.size()); std::vector<long long> ix(v.size());
    fails += onesweep(v, 200, 37, &d, 0) || check("onesweep rows sort", v, 200, 37, &d, 0);
    fails += onesweep(v, 200, 37, 0, &ix) || check("onesweep rows argsort", v, 200, 37, 0, &ix); }
  for (long long n : {1LL, 2LL, 31LL, 32LL, 33LL, 200LL, 255LL, 256LL}) {
    long long rows = 19; auto v = make(rows * n, 9);
    std::vector<unsigned> d(v.size()); std::vector<long long> ix(v.size());
    long long nn = n, nr = rows;
    launch((rows + 7) / 8, [&] { roww(v.data(), d.data(), ix.data(), nn, nr); });
    fails += check("roww argsort", v, rows, n, &d, &ix);
    std::fill(d.begin(), d.end(), 0);
    launch((rows + 7) / 8, [&] { roww0(v.data(), d.data(), 0, nn, nr); });
    fails += check("roww sort", v, rows, n, &d, 0);
    launch((rows + 7) / 8, [&] { roww(v.data(), 0, ix.data(), nn, nr); });
    fails += check("roww argsort dst NULL", v, rows, n, 0, &ix);
  }
  for (long long n : {1LL, 255LL, 256LL, 257LL, 1000LL, 1024LL}) {
    long long rows = 3; auto v = make(rows * n, 9);
    std::vector<unsigned> d(v.size()); std::vector<long long> ix(v.size());
    long long nn = n, nr = rows;
    launch(rows, [&] { rowb(v.data(), d.data(), ix.data(), nn, nr); });
    fails += check("rowb argsort", v, rows, n, &d, &ix);
  }
  printf("fails %d\n", fails);
  return fails ? 1 : 0;
}
