-- Stepped copies (issue 20), beside run.lua's strided_copy_GBps
-- (M[::2, ::2]:copy() of the 16384^2 float32 M): the general gather of a
-- view stepping along its innermost axis only, counted as
-- strided_copy_GBps counts (the kept elements read and written once):
--   strided_copy_step3_GBps     M[{{}, {1, -1, 3}}]:copy()   (CuPy: M[:, ::3].copy())
--   strided_copy_u8_step4_GBps  the same bytes as uint8, M8[{{}, {2, -1, 4}}]:copy()
--                               (CuPy: M8[:, 1::4].copy(); rows start 1 byte off
--                               a 16-byte boundary)
return function(b)
  local ga, put, section, gpu_ms = b.ga, b.put, b.section, b.gpu_ms
  local side = b.QUICK and 1024 or 16384

  section({ "strided_copy_step3_GBps", "strided_copy_u8_step4_GBps" }, function()
    local M = ga.ones({ side, side }, "float32")
    local V = M[{ {}, { 1, -1, 3 } }]
    local bytes = V.size * 4 / 1e9
    put("strided_copy_step3_GBps", 2 * bytes / gpu_ms(function() V:copy():free() end) * 1e3)
    local M8 = M:view("uint8"):reshape({ side, side * 4 })
    local V8 = M8[{ {}, { 2, -1, 4 } }]
    bytes = V8.size / 1e9
    put("strided_copy_u8_step4_GBps", 2 * bytes / gpu_ms(function() V8:copy():free() end) * 1e3)
    M:free()
  end)
end
