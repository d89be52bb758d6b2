-- ga.random / ga.host.random: the Philox stream (known answers), host == GPU
-- bit for bit, draws that continue exactly, statistics with bounds from the
-- sampling distribution, choice/permutation/shuffle, and the bad inputs.
local helper = require "spec.helper"
local ga = helper.ga
local core = ga.core

local function list(x) return ga.asnumpy(x):tolist() end

-- Phi(x) to ~1e-7 (Abramowitz-Stegun 7.1.26 for erf)
local function phi(x)
  local z = math.abs(x) / math.sqrt(2)
  local t = 1 / (1 + 0.3275911 * z)
  local poly = ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592
  local y = 1 - poly * t * math.exp(-z * z)
  return x >= 0 and 0.5 * (1 + y) or 0.5 * (1 - y)
end

-- Kolmogorov-Smirnov statistic * sqrt(n) of host values against cdf
local function ks(values, cdf)
  table.sort(values)
  local n, d = #values, 0
  for i = 1, n do
    local f = cdf(values[i])
    d = math.max(d, math.abs(f - (i - 1) / n), math.abs(i / n - f))
  end
  return d * math.sqrt(n)
end
local KS_LIMIT = 2.0   -- P(sqrt(n) D > 2.0) ~ 7e-4 for a correct generator (fixed seeds: deterministic)

describe("the Philox4x32-10 stream", function()
  it("matches Random123's known answer (counter 0, key 0)", function()
    local x = ga.host.empty(4, "uint32")
    core._random_fill(x, 3, 0, 0, 0, 0)
    assert.are.same({ 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 }, x:tolist())
  end)
  it("compiles every draw's kernel with NVRTC", function()
    for _, c in ipairs { { 0, "float32" }, { 0, "float64" }, { 1, "float32" }, { 1, "float64" }, { 4, "float32" },
                         { 4, "float64" }, { 2, "int64", 6 }, { 2, "int64", 0 }, { 2, "uint64", 1 << 40 },
                         { 2, "int8", 100 }, { 2, "int32", 7 }, { 3, "uint32" }, { 5, "float32" },
                         { 5, "float64" }, { 6, "int64" }, { 7, "int64" }, { 8, "int64" }, { 9, "int64" },
                         { 10, "int64" }, { 11, "float32" }, { 11, "float64" },
                         { 1, "float32", 0, 2.0 }, { 1, "float64", 0, 2.0 } } do   -- c[4]: scale (1: standard)
      assert.is_true(core._compile_random(c[1], c[2], c[3], 90, c[4]) > 0, c[1] .. " " .. c[2])
    end
  end)
end)

helper.each_device(function(xp, dev)
  local R = xp.random
  describe("draws continue exactly", function()
    for _, c in ipairs { { "rand f32", function(n) return R.random_sample(n, "float32") end },
                         { "rand f64", function(n) return R.random_sample(n) end },
                         { "randint", function(n) return R.randint(-5, 1000, n) end },
                         { "randint wide", function(n) return R.randint(0, 1 << 40, n) end },
                         { "randint int8", function(n) return R.randint(-128, 128, n, "int8") end } } do
      it(c[1] .. ": (n) then (m) equals (n + m) for sizes not divisible by 4", function()
        for _, nm in ipairs { { 1, 6 }, { 3, 5 }, { 5, 11 }, { 7, 1 }, { 4, 9 } } do
          R.seed(11); local whole = list(c[2](nm[1] + nm[2]))
          R.seed(11); local a, b = list(c[2](nm[1])), list(c[2](nm[2]))
          for i = 1, #b do a[#a + 1] = b[i] end
          assert.are.same(whole, a)
        end
      end)
    end
    it("the same seed gives the same values; another seed others", function()
      R.seed(5); local a = list(R.rand(8))
      R.seed(5); assert.are.same(a, list(R.rand(8)))
      R.seed(6); assert.are_not.same(a, list(R.rand(8)))
      R.seed(-1); local n1 = list(R.rand(4))
      R.seed(0xffffffffffffffff); assert.are.same(n1, list(R.rand(4)))   -- the same 64 bits
      R.seed({ 1, 2, 3 }); local t = list(R.rand(4))
      R.seed({ 1, 2, 4 }); assert.are_not.same(t, list(R.rand(4)))
    end)
    it("get_state/set_state replay a draw; RandomState objects are independent", function()
      local rs = R.RandomState(3)
      local s = rs:get_state()
      local a = list(rs:randn(5))
      rs:set_state(s)
      assert.are.same(a, list(rs:randn(5)))
      assert.are.same(a, list(R.RandomState(3):randn(5)))
    end)
  end)

  describe("statistics (fixed seeds, bounds from the sampling distribution)", function()
    local N = 1000000
    -- mean within 6 standard errors, variance within 6 of its own
    local function moments(x, mean, var, kurt)
      local h = ga.asnumpy(x):astype("float64")
      local m = h:mean():item()
      local v = ((h - m) ^ 2):mean():item()
      assert.is_true(math.abs(m - mean) < 6 * math.sqrt(var / N), ("mean %g, expected %g"):format(m, mean))
      local se_v = math.sqrt((kurt - 1) * var * var / N)
      assert.is_true(math.abs(v - var) < 6 * se_v, ("variance %g, expected %g"):format(v, var))
    end
    it("uniform float64 and float32", function()
      R.seed(1)
      moments(R.random_sample(N), 0.5, 1 / 12, 1.8)
      moments(R.random_sample(N, "float32"), 0.5, 1 / 12, 1.8)
      moments(R.uniform(-2, 4, N), 1, 3, 1.8)
    end)
    it("normal float64 and float32", function()
      R.seed(2)
      moments(R.standard_normal(N), 0, 1, 3)
      moments(R.normal(3, 2, N, "float32"), 3, 4, 3)
    end)
    it("exponential, lognormal, laplace, logistic, gumbel, rayleigh", function()
      R.seed(3)
      moments(R.exponential(2, N), 2, 4, 9)
      local s2 = 0.25
      moments(R.lognormal(0, 0.5, N), math.exp(s2 / 2), (math.exp(s2) - 1) * math.exp(s2), 20)
      moments(R.laplace(1, 2, N), 1, 8, 6)
      moments(R.logistic(0, 1, N), 0, math.pi ^ 2 / 3, 4.2)
      moments(R.gumbel(0, 1, N), 0.5772156649, math.pi ^ 2 / 6, 5.4)
      moments(R.rayleigh(1, N), math.sqrt(math.pi / 2), (4 - math.pi) / 2, 3.25)
      moments(R.weibull(2, N), 0.886226925452758, 1 - 0.785398163397448, 3.25)
      moments(R.power(3, N), 0.75, 0.0375, 3.1)
    end)
    it("rejection draws: gamma (shape < 1 and > 1), poisson (Knuth and PTRS), and what is built on them", function()
      R.seed(13)
      moments(R.standard_gamma(2.5, N), 2.5, 2.5, 3 + 6 / 2.5)
      moments(R.standard_gamma(0.4, N), 0.4, 0.4, 3 + 6 / 0.4)
      moments(R.gamma(3, 2, N, "float32"), 6, 12, 3 + 6 / 3)
      moments(R.poisson(3.5, N), 3.5, 3.5, 3 + 1 / 3.5)
      moments(R.poisson(250, N), 250, 250, 3 + 1 / 250)
      local a, b = 2, 5
      local bvar = a * b / ((a + b) ^ 2 * (a + b + 1))
      moments(R.beta(a, b, N), a / (a + b), bvar, 3)   -- beta(2, 5)'s kurtosis is ~2.9
      moments(R.chisquare(4, N), 4, 8, 3 + 12 / 4)
      moments(R.geometric(0.25, N), 4, 0.75 / 0.0625, 9.1)
      moments(R.triangular(0, 1, 4, N), 5 / 3, (16 + 1 - 4) / 18, 2.4)
      moments(R.wald(2, 3, N), 2, 8 / 3, 3 + 15 * 2 / 3)
      local d = ga.asnumpy(R.dirichlet({ 1, 2, 3 }, N // 4))
      assert.are.same({ N // 4, 3 }, { d.shape[1], d.shape[2] })
      local m = d:mean(1):tolist()
      for j, want in ipairs { 1 / 6, 2 / 6, 3 / 6 } do assert.is_true(math.abs(m[j] - want) < 0.002, tostring(m[j])) end
      assert.is_true(math.abs(d:sum(2):min():item() - 1) < 1e-12)
    end)
    -- zeta(s) by the series and the Euler-Maclaurin tail (to ~1e-12)
    local function zeta(z)
      local n, acc = 1000, 0
      for k = 1, n - 1 do acc = acc + k ^ -z end
      return acc + n ^ (1 - z) / (z - 1) + 0.5 * n ^ -z + z / 12 * n ^ (-z - 1)
    end
    -- modified Bessel I_v(x) by its series
    local function besseli(v, x)
      local term, acc = (x / 2) ^ v, 0
      for i = 2, v do term = term / i end   -- (x/2)^v / v!
      for k = 0, 200 do
        if k > 0 then term = term * (x / 2) ^ 2 / (k * (k + v)) end
        acc = acc + term
      end
      return acc
    end
    it("binomial (inversion and BTRS, p on both sides of 1/2), negative binomial, hypergeometric (HYP, HRUA)",
       function()
      R.seed(21)
      moments(R.binomial(10, 0.3, N), 3, 2.1, 3 + (1 - 6 * 0.21) / 2.1)
      moments(R.binomial(1000, 0.3, N), 300, 210, 3 + (1 - 6 * 0.21) / 210)
      moments(R.binomial(5000, 0.9, N), 4500, 450, 3 + (1 - 6 * 0.09) / 450)
      moments(R.binomial(1 << 40, 0.25, N), 2 ^ 38, 2 ^ 40 * 0.1875, 3)
      local n, p = 5, 0.3
      local nbm, nbv = n * (1 - p) / p, n * (1 - p) / p ^ 2
      moments(R.negative_binomial(n, p, N), nbm, nbv, 3 + 6 / n + p * p / (n * (1 - p)))
      local function hyper(good, bad, m)
        local t = good + bad
        local mean, var = m * good / t, m * good * bad * (t - m) / (t * t * (t - 1))
        moments(R.hypergeometric(good, bad, m, N), mean, var, 3.5)
      end
      hyper(10, 5, 6)
      hyper(5, 30, 8)
      hyper(1000, 500, 600)
      hyper(40, 2000, 1900)
    end)
    it("logseries, zipf, von Mises, multinomial, multivariate normal", function()
      R.seed(22)
      local p = 0.6
      local a = -1 / math.log(1 - p)
      local lm = a * p / (1 - p)
      moments(R.logseries(p, N), lm, a * p * (1 - a * p) / (1 - p) ^ 2, 12)
      local z = 7
      local zm, z2, z3, z4 = zeta(z - 1) / zeta(z), zeta(z - 2) / zeta(z), zeta(z - 3) / zeta(z), zeta(z - 4) / zeta(z)
      local zv = z2 - zm * zm
      local zk = (z4 - 4 * zm * z3 + 6 * zm * zm * z2 - 3 * zm ^ 4) / (zv * zv)
      moments(R.zipf(z, N), zm, zv, zk)
      -- von Mises: E cos(X - mu) = I1/I0, Var cos = (1 + I2/I0)/2 - (I1/I0)^2
      for _, c in ipairs { { 0, 4 }, { 1, 0.5 }, { -2, 30 } } do
        local mu, k = c[1], c[2]
        local A = besseli(1, k) / besseli(0, k)
        local x = R.vonmises(mu, k, N)
        local h = ga.asnumpy(x)
        assert.is_true(h:min():item() >= -math.pi and h:max():item() <= math.pi)
        local cv = (1 + besseli(2, k) / besseli(0, k)) / 2 - A * A
        moments(xp.cos(xp.subtract(x, mu)), A, cv, 6)
      end
      local m = ga.asnumpy(R.multinomial(20, { 0.2, 0.3, 0.5 }, N // 10)):astype("float64")
      local mm = m:mean(1):tolist()
      for j, pj in ipairs { 0.2, 0.3, 0.5 } do
        assert.is_true(math.abs(mm[j] - 20 * pj) < 6 * math.sqrt(20 * pj * (1 - pj) / (N // 10)), tostring(mm[j]))
      end
      assert.are.equal(20, m:sum(2):min():item()); assert.are.equal(20, m:sum(2):max():item())
      local mv = ga.asnumpy(R.multivariate_normal({ 1, -2 }, { { 2, 0.6 }, { 0.6, 1 } }, N // 4))
      local mean = mv:mean(1):tolist()
      assert.is_true(math.abs(mean[1] - 1) < 6 * math.sqrt(2 / (N // 4)))
      assert.is_true(math.abs(mean[2] + 2) < 6 * math.sqrt(1 / (N // 4)))
      local c = mv - mv:mean(1)
      local cov = (ga.host.matmul(c.T, c) / (N // 4)):tolist()
      assert.is_true(math.abs(cov[1][2] - 0.6) < 0.02 and math.abs(cov[1][1] - 2) < 0.03, tostring(cov[1][2]))
      -- semi-definite: cholesky falls back to the eigen factor, both coordinates equal
      local s = ga.asnumpy(R.multivariate_normal({ 0, 0 }, { { 1, 1 }, { 1, 1 } }, 100))
      assert.is_true(ga.host.abs(s[{ {}, 1 }] - s[{ {}, 2 }]):max():item() < 1e-12)
    end)
    it("array parameters: each value draws with its own (gamma, poisson, geometric, triangular, wald, binomial)",
       function()
      R.seed(23)
      local g = ga.asnumpy(R.standard_gamma(xp.array({ 0.5, 2, 9 }), { N // 4, 3 })):mean(1):tolist()
      for j, k in ipairs { 0.5, 2, 9 } do
        assert.is_true(math.abs(g[j] - k) < 6 * math.sqrt(k / (N // 4)), tostring(g[j]))
      end
      local po = ga.asnumpy(R.poisson({ { 1 }, { 40 } }, { 2, N // 4 })):astype("float64"):mean(2):tolist()
      assert.is_true(math.abs(po[1] - 1) < 6 * math.sqrt(1 / (N // 4)))
      assert.is_true(math.abs(po[2] - 40) < 6 * math.sqrt(40 / (N // 4)))
      local ge = ga.asnumpy(R.geometric(xp.array({ 0.5, 0.1 }), { N // 4, 2 })):astype("float64"):mean(1):tolist()
      assert.is_true(math.abs(ge[1] - 2) < 6 * math.sqrt(2 / (N // 4)), tostring(ge[1]))
      assert.is_true(math.abs(ge[2] - 10) < 6 * math.sqrt(90 / (N // 4)), tostring(ge[2]))
      local tr = ga.asnumpy(R.triangular(0, xp.array({ 0, 1, 2 }), 2, { N // 4, 3 })):mean(1):tolist()
      for j, m in ipairs { 0, 1, 2 } do
        assert.is_true(math.abs(tr[j] - (2 + m) / 3) < 0.01, tostring(tr[j]))
      end
      local wa = ga.asnumpy(R.wald(xp.array({ 1, 3 }), 2, { N // 4, 2 })):mean(1):tolist()
      assert.is_true(math.abs(wa[1] - 1) < 0.01 and math.abs(wa[2] - 3) < 0.05, wa[1] .. " " .. wa[2])
      -- hypergeometric with per-value counts: mean nsample ngood / (ngood + nbad)
      local ns = xp.array({ { { 6 } }, { { 12 } } })
      local hy = ga.asnumpy(R.hypergeometric(xp.array({ 10, 300 }), xp.array({ 5, 200 }), ns, { 2, N // 8, 2 }))
      hy = hy:astype("float64")
      local hm = hy:mean(2):tolist()
      for i, k in ipairs { 6, 12 } do
        for j, gb in ipairs { { 10, 5 }, { 300, 200 } } do
          local want = k * gb[1] / (gb[1] + gb[2])
          assert.is_true(math.abs(hm[i][j] - want) < 0.05 * want, i .. "," .. j .. ": " .. hm[i][j])
        end
      end
      local b = ga.asnumpy(R.binomial(xp.array({ 10, 200 }), xp.array({ 0.5, 0.1 }), { N // 4, 2 }))
      local bm = b:astype("float64"):mean(1):tolist()
      assert.is_true(math.abs(bm[1] - 5) < 6 * math.sqrt(2.5 / (N // 4)))
      assert.is_true(math.abs(bm[2] - 20) < 6 * math.sqrt(18 / (N // 4)))
    end)
    it("chi-square against the exact pmf: binomial, hypergeometric, poisson", function()
      R.seed(24)
      -- buckets lo+1 .. hi-1 one by one, <= lo and >= hi lumped (every
      -- expected count >= 50); the bounds are chi-square quantiles at p = 1e-6
      local function chi2pmf(values, pmf, lo, hi)
        local counts, n = {}, #values
        for k = lo, hi do counts[k] = 0 end
        for _, v in ipairs(values) do local k = math.max(lo, math.min(v, hi)); counts[k] = counts[k] + 1 end
        local e, below = {}, 0
        for k = 0, lo do below = below + pmf(k) end
        e[lo] = below
        local mid = below
        for k = lo + 1, hi - 1 do e[k] = pmf(k); mid = mid + e[k] end
        e[hi] = 1 - mid
        local s = 0
        for k = lo, hi do
          assert.is_true(n * e[k] >= 50, "bucket " .. k)
          s = s + (counts[k] - n * e[k]) ^ 2 / (n * e[k])
        end
        return s
      end
      local function choose(n, k) local c = 1; for i = 1, k do c = c * (n - k + i) / i end return c end
      local stat = chi2pmf(list(R.binomial(10, 0.3, 200000)),
                           function(k) return choose(10, k) * 0.3 ^ k * 0.7 ^ (10 - k) end, 0, 8)
      assert.is_true(stat < 40.8, "binomial " .. stat)   -- df 8
      stat = chi2pmf(list(R.binomial(40, 0.45, 200000)),   -- BTRS (n p >= 10)
                     function(k) return choose(40, k) * 0.45 ^ k * 0.55 ^ (40 - k) end, 8, 28)
      assert.is_true(stat < 62.5, "binomial BTRS " .. stat)   -- df 20
      stat = chi2pmf(list(R.hypergeometric(30, 20, 25, 200000)),   -- HRUA
                     function(k) return choose(30, k) * choose(20, 25 - k) / choose(50, 25) end, 9, 21)
      assert.is_true(stat < 45.3, "hypergeometric " .. stat)   -- df 12
      local lam = 3.5
      stat = chi2pmf(list(R.poisson(lam, 200000)), function(k)
        local f = math.exp(-lam)
        for i = 1, k do f = f * lam / i end
        return f
      end, 0, 11)
      assert.is_true(stat < 49.6, "poisson " .. stat)   -- df 11
    end)
    it("Kolmogorov-Smirnov: uniform, normal, exponential", function()
      R.seed(4)
      local n = 100000
      assert.is_true(ks(list(R.random_sample(n, "float32")), function(v) return v end) < KS_LIMIT)
      assert.is_true(ks(list(R.standard_normal(n, "float32")), phi) < KS_LIMIT)
      assert.is_true(ks(list(R.standard_normal(n)), phi) < KS_LIMIT)
      assert.is_true(ks(list(R.standard_exponential(n)), function(v) return 1 - math.exp(-v) end) < KS_LIMIT)
      assert.is_true(ks(list(R.standard_gamma(2, n)), function(v) return 1 - math.exp(-v) * (1 + v) end) < KS_LIMIT)
    end)
    it("chi-square: randint on a die, a range wider than 32 bits and int8", function()
      R.seed(5)
      local function chi2(values, k, lo)
        local counts = {}
        for i = 1, k do counts[i] = 0 end
        for _, v in ipairs(values) do counts[v - lo + 1] = counts[v - lo + 1] + 1 end
        local e, s = #values / k, 0
        for i = 1, k do s = s + (counts[i] - e) ^ 2 / e end
        return s
      end
      assert.is_true(chi2(list(R.randint(1, 7, 600000)), 6, 1) < 35.9)        -- df 5, p = 1e-6
      assert.is_true(chi2(list(R.randint(-3, 5, 400000, "int8")), 8, -3) < 40.5) -- df 7
      -- 2^40 + 3 values: the bucket of the top 40 bits... use v // 2^37 (8 buckets + a tiny remainder)
      local w = list(R.randint(0, (1 << 40), 400000))
      local b = {}
      for i, v in ipairs(w) do b[i] = v >> 37 end
      assert.is_true(chi2(b, 8, 0) < 40.5)
    end)
  end)

  describe("choice, permutation, shuffle", function()
    it("permutation(n) is a permutation of 0 .. n-1; of an array moves its rows", function()
      R.seed(6)
      local p = list(R.permutation(1000))
      table.sort(p)
      for i = 1, 1000 do assert.are.equal(i - 1, p[i]) end
      local x = xp.arange(12):reshape({ 4, 3 })
      local y = list(R.permutation(x))
      for _, row in ipairs(y) do assert.are.equal(row[1] + 1, row[2]); assert.are.equal(row[1] % 3, 0) end
    end)
    it("shuffle moves whole rows of a 2-d array in place", function()
      R.seed(7)
      local x = xp.arange(20):reshape({ 10, 2 })
      R.shuffle(x)
      local rows, firsts = list(x), {}
      for _, r in ipairs(rows) do assert.are.equal(r[1] + 1, r[2]); firsts[#firsts + 1] = r[1] end
      table.sort(firsts)
      for i = 1, 10 do assert.are.equal(2 * (i - 1), firsts[i]) end
    end)
    it("choice with replacement is uniform; with p follows p; without replacement has no repeats", function()
      R.seed(8)
      local v = list(R.choice(4, 400000))
      local c = { 0, 0, 0, 0 }
      for _, x in ipairs(v) do c[x + 1] = c[x + 1] + 1 end
      for i = 1, 4 do assert.is_true(math.abs(c[i] - 100000) < 6 * math.sqrt(100000 * 0.75)) end
      local w = list(R.choice({ 10, 20, 30 }, 300000, true, { 0.2, 0, 0.8 }))
      local n10, n20 = 0, 0
      for _, x in ipairs(w) do if x == 10 then n10 = n10 + 1 elseif x == 20 then n20 = n20 + 1 end end
      assert.are.equal(0, n20)
      assert.is_true(math.abs(n10 - 60000) < 6 * math.sqrt(300000 * 0.16))
      local u = list(R.choice(50, 50, false))
      table.sort(u)
      for i = 1, 50 do assert.are.equal(i - 1, u[i]) end
      local q = list(R.choice(5, 3, false, { 0.5, 0.2, 0.1, 0.1, 0.1 }))
      assert.are_not.equal(q[1], q[2]); assert.are_not.equal(q[2], q[3]); assert.are_not.equal(q[1], q[3])
    end)
    it("bytes gives a string of n bytes from the stream", function()
      R.seed(9)
      local b = R.bytes(10)
      assert.are.equal(10, #b)
      R.seed(9)
      assert.are.equal(b, R.bytes(10))
    end)
  end)

  describe("bad inputs raise a clear error and allocate nothing", function()
    local cases = {
      { function() R.normal(0, -1, 3) end, "normal: scale < 0" },
      { function() R.normal(0, 0 / 0, 3) end, "normal: scale is NaN" },
      { function() R.normal(0, xp.array({ 1, -1 }), 2) end, "normal: scale < 0" },
      { function() R.exponential(-2, 3) end, "exponential: scale < 0" },
      { function() R.uniform(0, 1, 3, "int32") end, "uniform: dtype must be float32 or float64, got int32" },
      { function() R.random_sample(3, "float16x") end,
        "random_sample: dtype must be float32 or float64, got float16x" },
      { function() R.randint(5, 5, 3) end, "randint: low >= high (5 >= 5)" },
      { function() R.randint(9, 2, 3) end, "randint: low >= high (9 >= 2)" },
      { function() R.randint(0, 300, 3, "int8") end, "randint: high is out of bounds for int8" },
      { function() R.randint(-1, 3, 3, "uint8") end, "randint: low is out of bounds for uint8" },
      { function() R.randint(0, 3, 3, "float32") end, "randint: dtype must be an integer dtype, got float32" },
      { function() R.randint(0.5, 3, 3) end, "randint: low must be an integer, got 0.5" },
      { function() R.choice(3, 5, false) end,
        "choice: cannot take a larger sample than the population when replace is false" },
      { function() R.choice(3, 2, true, { 0.5, 0.6, -0.1 }) end, "choice: probabilities are negative" },
      { function() R.choice(3, 2, true, { 0.5, 0.6, 0.1 }) end, "choice: probabilities do not sum to 1" },
      { function() R.choice(3, 2, true, { 0.5, 0.5 }) end, "choice: p must be a 1-d array of the size of a (3)" },
      { function() R.choice(0, 2) end, "choice: a must be a positive integer" },
      { function() R.rand(1 << 40, 1 << 40) end, "rand: size is too large" },
      { function() R.random_sample({ 3, -1 }) end,
        "random_sample: size must be a non-negative integer or a table of them, got -1" },
      { function() R.seed(1.5) end, "seed: a seed must be an integer, got 1.5" },
      { function() R.seed("x") end, "seed: a seed must be an integer, a table of integers or nil, got string" },
      { function() R.permutation(-1) end, "permutation: n must be a non-negative integer" },
      { function() R.shuffle(3) end, "shuffle: expected an array, got number" },
      { function() R.bytes(-1) end, "bytes: n must be a non-negative integer" },
      { function() R.binomial(10, 1.5, 3) end, "binomial: p > 1" },
      { function() R.binomial(2.5, 0.5, 3) end, "binomial: n must be an integer, got 2.5" },
      { function() R.binomial(-1, 0.5, 3) end, "binomial: n < 0" },
      { function() R.binomial(10, 0 / 0, 3) end, "binomial: p is NaN" },
      { function() R.binomial(xp.array({ 3, 4 }), 0.5, 3) end,
        "binomial: a parameter of shape {2} does not broadcast to size {3}" },
      { function() R.negative_binomial(5, 0, 3) end, "negative_binomial: p must be > 0" },
      { function() R.negative_binomial(0, 0.5, 3) end, "negative_binomial: n must be > 0" },
      { function() R.hypergeometric(5, 5, 11, 3) end, "hypergeometric: ngood + nbad < nsample" },
      { function() R.hypergeometric(-1, 5, 1, 3) end, "hypergeometric: ngood < 0" },
      { function() R.hypergeometric(5, 5.5, 1, 3) end, "hypergeometric: nbad must be an integer, got 5.5" },
      { function() R.hypergeometric(xp.array({ 5, 1 }), 5, xp.array({ 3, 7 }), 2) end,
        "hypergeometric: ngood + nbad < nsample" },
      { function() R.logseries(1, 3) end, "logseries: p >= 1" },
      { function() R.zipf(1, 3) end, "zipf: a must be > 1" },
      { function() R.vonmises(0, -1, 3) end, "vonmises: kappa < 0" },
      { function() R.poisson(1e16, 3) end, "poisson: lam value too large" },
      { function() R.gamma(1 / 0, 1, 3) end, "gamma: shape is infinite" },
      { function() R.multinomial(10, { 0.7, 0.6, 0.1 }, 3) end, "multinomial: sum(pvals[1:k-1]) > 1" },
      { function() R.multinomial(10, { 0.5, -0.1 }, 3) end, "multinomial: pvals[2] must be a probability in [0, 1]" },
      { function() R.multivariate_normal({ 0, 0 }, { { 1, 2 }, { 2, 1 } }, 3, "raise") end,
        "multivariate_normal: covariance is not symmetric positive-semidefinite" },
      { function() R.multivariate_normal({ 0, 0 }, { { 1 }, { 0, 1 } }, 3) end,
        "multivariate_normal: cov must be a square 2-d table or array" },
      { function() R.multivariate_normal({ 0 }, { { 1 } }, 3, "ignore", 1e-8, "qr") end,
        "multivariate_normal: method must be 'cholesky', 'eigh' or 'svd'" },
      { function() R.default_rng(1):permuted(xp.zeros({ 2, 2 }), 3) end,
        "permuted: axis 3 is out of bounds for a 2-d array" },
      { function() R.standard_gamma(-1, 3) end, "standard_gamma: shape < 0" },
      { function() R.gamma(2, 0 / 0, 3) end, "gamma: scale is NaN" },
      { function() R.poisson(-1, 3) end, "poisson: lam < 0" },
      { function() R.poisson(1e300, 3) end, "poisson: lam value too large" },
      { function() R.beta(0, 1, 3) end, "beta: a must be > 0" },
      { function() R.geometric(1.5, 3) end, "geometric: p > 1" },
      { function() R.geometric(xp.array({ 0.5, 0 }), 2) end, "geometric: p must be > 0" },
      { function() R.triangular(xp.array({ 0, 3 }), 2, 4, 2) end, "triangular: left > mode" },
      { function() R.triangular(2, 1, 3, 3) end, "triangular: left > mode" },
      { function() R.triangular(1, 1, 1, 3) end, "triangular: left == right" },
      { function() R.wald(-1, 1, 3) end, "wald: mean must be > 0" },
      { function() R.dirichlet({ 1, 0 }, 3) end, "dirichlet: alpha[2] must be > 0" },
      { function() R.dirichlet({}, 3) end, "dirichlet: alpha must be a non-empty table of numbers" },
      { function() R.chisquare(2, 3, "int64") end, "chisquare: dtype must be float32 or float64, got int64" },
    }
    for i, c in ipairs(cases) do
      it("case " .. i .. ": " .. c[2], function()
        collectgarbage()
        local pool = dev.name == "cpu" and nil or ga.get_default_memory_pool()
        local before = pool and pool:used_bytes()
        local ok, err = pcall(c[1])
        assert.is_false(ok)
        assert.is_truthy(tostring(err):find(c[2], 1, true), tostring(err))
        collectgarbage()
        if pool then assert.are.equal(before, pool:used_bytes()) end
      end)
    end
  end)
end)

describe("host == GPU", function()
  if not helper.has_gpu() then
    pending("needs a GPU")
    return
  end
  local sizes = { 1, 3, 4, 5, 17, 1000, 4099 }
  local function both(f, skip)
    local out = {}
    for _, R in ipairs { ga.random, ga.host.random } do
      R.seed(123)
      if skip then R.get_random_state():advance(skip) end
      out[#out + 1] = f(R)
    end
    return out[1], out[2]
  end
  for _, c in ipairs {
    { "rand float32", function(R, n) return R.random_sample(n, "float32") end },
    { "rand float64", function(R, n) return R.random_sample(n) end },
    { "uniform float32", function(R, n) return R.uniform(-3, 5, n, "float32") end },
    { "uniform float64", function(R, n) return R.uniform(-3, 5.5, n) end },
    -- normals and exponentials: our own log and sin/cos, one IEEE operation
    -- at a time (kernels/ga_philox.cuh), so the same bits
    { "normal float32", function(R, n) return R.standard_normal(n, "float32") end },
    { "normal(loc, scale) float32", function(R, n) return R.normal(1.5, 3.25, n, "float32") end },
    { "exponential float32", function(R, n) return R.exponential(2.5, n, "float32") end },
    { "normal float64", function(R, n) return R.standard_normal(n) end },
    { "normal(loc, scale) float64", function(R, n) return R.normal(-2, 0.75, n) end },
    { "exponential float64", function(R, n) return R.exponential(0.5, n) end },
    { "randint int64", function(R, n) return R.randint(-7, 1000, n) end },
    { "randint wide", function(R, n) return R.randint(-(1 << 50), 1 << 50, n) end },
    { "randint int8", function(R, n) return R.randint(-128, 128, n, "int8") end },
    { "randint uint32", function(R, n) return R.randint(0, 4294967295, n, "uint32") end },
    { "bytes", function(R, n) return R.bytes(n) end },
  } do
    it(c[1] .. " is bit for bit the host's, any size, starting mid-block", function()
      for _, skip in ipairs { 0, 1, 2, 3 } do
        for _, n in ipairs(sizes) do
          local d, h = both(function(R) return c[2](R, n) end, skip)
          if type(d) == "string" then assert.are.equal(h, d)
          else assert.are.same(h:tolist(), d:get():tolist()) end
        end
      end
    end)
  end
  it("long draws that start mid-block are the host's bit for bit (a warp's lanes share blocks)", function()
    for _, c in ipairs { { "float32", function(R, n) return R.random_sample(n, "float32") end, "uint32" },
                         { "float32", function(R, n) return R.standard_normal(n, "float32") end, "uint32", 2 },
                         { "float32", function(R, n) return R.exponential(2, n, "float32") end, "uint32" },
                         { "float64", function(R, n) return R.random_sample(n) end, "uint64", 2 } } do
      for skip = 1, 3 do
        if not c[4] or skip % c[4] == 0 then
          for _, n in ipairs { (1 << 20) + 3, 200005 } do
            local d, h = both(function(R) return c[2](R, n) end, skip)
            local differ = ga.host.not_equal(d:get():view(c[3]), h:view(c[3])):sum():item()
            assert.are.equal(0, differ, c[1] .. " skip " .. skip)
          end
        end
      end
    end
  end)
  it("rejection draws: the GPU's values are the host's (but for acceptance tests within an ulp)", function()
    for _, c in ipairs { { function(R) return R.standard_gamma(0.7, 20000) end },
                         { function(R) return R.standard_gamma(4, 20000, "float32") end },
                         { function(R) return R.poisson(3, 20000) end },
                         { function(R) return R.poisson(400, 20000) end },
                         { function(R) return R.binomial(20, 0.3, 20000) end },
                         { function(R) return R.binomial(1000000, 0.6, 20000) end },
                         { function(R) return R.binomial(R == ga.random and ga.array({ 5, 500 }) or
                                                          ga.host.array({ 5, 500 }), 0.5, { 10000, 2 }):ravel() end },
                         { function(R) return R.hypergeometric(8, 9, 7, 20000) end },
                         { function(R) return R.hypergeometric(800, 900, 700, 20000) end },
                         { function(R) return R.logseries(0.9, 20000) end },
                         { function(R) return R.zipf(2.5, 20000) end },
                         { function(R) return R.vonmises(1, 3, 20000) end } } do
      local d, h = both(c[1])
      local dl, hl, same = d:get():tolist(), h:tolist(), 0
      for i = 1, #hl do
        if dl[i] == hl[i] or math.abs(dl[i] - hl[i]) <= 1e-6 * math.abs(hl[i]) then same = same + 1 end
      end
      assert.is_true(same >= 0.999 * #hl, same .. " of " .. #hl)
    end
  end)
end)

describe("cuRAND's bit generators (XORWOW, MRG32k3a)", function()
  it("are GPU only: ga.host.random says so", function()
    local ok, err = pcall(ga.host.random.XORWOW, 1)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("XORWOW: cuRAND generators run on a GPU", 1, true), tostring(err))
  end)
  if not helper.has_gpu() then
    pending("needs a GPU")
    return
  end
  local N = 1000000
  for _, kind in ipairs { "XORWOW", "MRG32k3a" } do
    local R = ga.random
    it(kind .. ": a seed gives its stream again; state/set_state and advance replay it", function()
      local a, b = R[kind](5), R[kind](5)
      assert.are.same(a:random_raw(1000):get():tolist(), b:random_raw(1000):get():tolist())
      assert.are_not.same(R[kind](6):random_raw(8):get():tolist(), R[kind](5):random_raw(8):get():tolist())
      for _, draw in ipairs {
        function(g) return g:random_raw(37) end,
        function(g) return g:random_sample(33, "float32") end,
        function(g) return g:random_sample(31) end,
        function(g) return g:standard_normal(20, "float32") end,
        function(g) return g:standard_normal(22) end,
      } do
        draw(a)   -- somewhere into the stream
        local s = a:state()
        local x = draw(a):get():tolist()
        a:set_state(s)
        assert.are.same(x, draw(a):get():tolist())
      end
      local c = R[kind](9)
      c:random_raw(100)
      local want = c:random_raw(10):get():tolist()
      assert.are.same(want, R[kind](9):advance(100):random_raw(10):get():tolist())
      a:close(); a:close()
      local ok, err = pcall(a.random_raw, a, 3)
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find("random_raw: the generator is closed", 1, true), tostring(err))
    end)
    it(kind .. " through Generator: uniform and normal moments, odd counts, a clear error for the rest", function()
      local rng = R.Generator(R[kind](3))
      local function mv(x)
        local h = ga.asnumpy(x):astype("float64")
        local m = h:mean():item()
        return m, ((h - m) ^ 2):mean():item()
      end
      local m, v = mv(rng:random(N, "float32"))
      assert.is_true(math.abs(m - 0.5) < 6 * math.sqrt(1 / 12 / N) and math.abs(v - 1 / 12) < 0.002)
      local u = ga.asnumpy(rng:random(N))
      assert.is_true(u:min():item() >= 0 and u:max():item() < 1)
      m, v = mv(rng:normal(2, 3, N + 1))
      assert.is_true(math.abs(m - 2) < 6 * 3 / math.sqrt(N), tostring(m))
      assert.is_true(math.abs(v - 9) < 6 * 9 * math.sqrt(2 / N), tostring(v))
      m, v = mv(rng:standard_normal(7, "float32"))
      assert.is_true(m == m and v == v)
      m = mv(rng:exponential(2, N))
      assert.is_true(math.abs(m - 2) < 6 * 2 / math.sqrt(N))
      local ok, err = pcall(rng.integers, rng, 0, 10, 3)
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find("not available on the " .. kind .. " bit generator", 1, true), tostring(err))
      local kids = rng:spawn(2)
      assert.are_not.same(kids[1]:random(4):get():tolist(), kids[2]:random(4):get():tolist())
    end)
  end
end)
