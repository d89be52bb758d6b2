-- The benchmarks' one timing rule, as ../shared/bench/cupy_reference.py's
-- gpu_ms: CUDA events around `reps` calls of f after `warm` calls, in ms
-- per call.  bench/run.lua and the tuning scripts in tools/ load it:
--   local gpu_ms = dofile("bench/gpu_ms.lua")(ga)
return function(ga)
  local cuda = ga.cuda
  return function(f, reps, warm)
    for _ = 1, warm do f() end
    local s, e = cuda.Event(), cuda.Event()
    s:record()
    for _ = 1, reps do f() end
    e:record()
    e:synchronize()
    return cuda.get_elapsed_time(s, e) / reps
  end
end
