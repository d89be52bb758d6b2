-- On a GPU: the small products of our own kernel (kernels/ga_matmul.cuh's
-- tiny and small tiles) against the host, for several shapes, dtypes,
-- transposed operands and a batch; exits 1 on a mismatch.
--   lua5.4 tools/jacobi_check/mm_check.lua
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local ga = require "gpuarray"
local H = ga.host
local bad = 0
local shapes = { { 64, 64, 64 }, { 4, 4, 4 }, { 1, 64, 7 }, { 63, 65, 33 }, { 17, 9, 200 }, { 64, 64, 1000 } }
for _, dt in ipairs { "float32", "float64", "int32", "int64", "int8" } do
  for _, s in ipairs(shapes) do
    local m, n, k = s[1], s[2], s[3]
    for _, tr in ipairs { false, true } do
      local a = H.random.randint(-5, 6, tr and { k, m } or { m, k }):astype(dt)
      local b = H.random.randint(-5, 6, { k, n }):astype(dt)
      if tr then a = a.T end
      local want = H.matmul(a, b)
      local got = ga.matmul(ga.asarray(a), ga.asarray(b)):get()
      local err = H.max(H.absolute(got:astype("float64") - want:astype("float64"))):item()
      if err ~= 0 then
        bad = bad + 1
        print(("MISMATCH %s %dx%dx%d transposed=%s: max error %g"):format(dt, m, n, k, tostring(tr), err))
      end
    end
  end
end
local A, B = H.random.random({ 10, 8, 8 }), H.random.random({ 10, 8, 8 })
local err = H.max(H.absolute(ga.matmul(ga.asarray(A), ga.asarray(B)):get() - H.matmul(A, B))):item()
if err > 1e-12 then bad = bad + 1; print("MISMATCH batched float64: " .. err) end
print("mm_check: " .. (bad == 0 and "all good" or bad .. " mismatches"))
os.exit(bad == 0 and 0 or 1)
