-- least_squares.lua — fit a cubic to noisy samples with ga.linalg.lstsq
-- (the Vandermonde matrix, solved through the SVD), and the same fit with
-- ga.polyfit; print the coefficients, the residual and the rank.
--
--   lua5.4 examples/least_squares.lua
local ga = require "gpuarray"

if ga.cuda.is_available() then
  print("arrays on the GPU (" .. ga.cuda.Device().name .. "): lstsq runs on cuSOLVER")
else
  print("No GPU available (ga.cuda.is_available() is false): the same code runs on the host (LAPACK).")
end

-- y = 0.5 x^3 - 2 x^2 + x + 3 plus noise, at 200 points of [-2, 4]
local truth = { 0.5, -2.0, 1.0, 3.0 }
local x = ga.linspace(-2, 4, 200)
local noise = ga.random.default_rng(7):standard_normal(200) * 0.05
local y = ga.polyval(ga.array(truth), x) + noise

-- lstsq on the Vandermonde matrix (columns x^3, x^2, x, 1)
local A = ga.vander(x, 4)
local coef, resid, rank, sv = ga.linalg.lstsq(A, y)
print("lstsq coefficients  ", coef)
print("residual sum of squares", resid, "rank", rank)
print("singular values", sv)

-- ga.polyfit does the same (with NumPy's column scaling)
local p = ga.polyfit(x, y, 3)
print("polyfit coefficients", p)

local err = ga.max(ga.absolute(p - ga.array(truth))):item()
print(string.format("largest coefficient error vs the truth: %.3g", err))
assert(rank == 4 and err < 0.05, "the fit is off")
assert(ga.allclose(coef, p, 1e-6, 1e-8), "lstsq and polyfit disagree")
