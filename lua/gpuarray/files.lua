--- Arrays in files and strings: NumPy's `.npy` and `.npz` formats
-- (`save load savez savez_compressed dumps loads`), raw bytes (`tobytes
-- frombuffer tofile fromfile`) and simple delimited text (`loadtxt
-- savetxt`).  Both `ga` and `ga.host` have them; what `ga.load` reads lives
-- on the current device, what `ga.host.load` reads on the host.
--
-- Files are hostile input: a bad magic string, a truncated header or data,
-- a header over 10000 bytes (NumPy's limit, `{max_header_size = n}` allows
-- more), a dtype we do not have, object arrays and pickles (nothing is ever
-- executed), a shape whose size overflows or does not match the data, zip
-- members whose sizes lie: each is an error naming the function, never a
-- crash or a huge allocation.  A device array is saved and loaded through
-- pinned host chunks, never as one whole host copy.
-- @module gpuarray.files
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local format = require "gpuarray.format"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local M = core.ndarray_methods

-- The shortest "%.Ng" that reads back as v (Python's repr of a float).
local function shortest(v)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" elseif v == -math.huge then return "-inf" end
  for p = 1, 17 do
    local s = string.format("%." .. p .. "g", v)
    if tonumber(s) == v then return s end
  end
  return string.format("%.17g", v)
end

-- One value as text: `fmt` (a string.format pattern) or NumPy's str().
local function item_text(v, fmt)
  if type(v) == "table" then   -- complex: {re, im}
    if fmt then return string.format(fmt, v[1]) .. string.format("%+" .. fmt:sub(2), v[2]) .. "j" end
    local im = shortest(v[2])
    return "(" .. shortest(v[1]) .. (im:sub(1, 1) == "-" and "" or "+") .. im .. "j)"
  end
  if fmt then
    if type(v) == "boolean" then v = v and 1 or 0 end
    return string.format(fmt, v)
  end
  if type(v) == "boolean" then return v and "True" or "False" end
  if math.type(v) == "integer" then return string.format("%d", v) end
  local s = shortest(v)
  return s:find("[%.eni]") and s or s .. ".0"
end

-- The values of x in C order, as Lua values (a flat list).
local function flat_values(x)
  local t = x:reshape(-1):totable()
  return t
end

-- Split text into numbers: `sep` with any whitespace around it (NumPy's
-- fromfile/fromstring rule; a whitespace sep is any run of whitespace).
local function parse_numbers(fname, text, sep)
  local out = {}
  local blank = sep:match("^%s*$") ~= nil
  local pos, n = 1, #text
  while true do
    pos = text:match("^%s*()", pos)
    if pos > n then break end
    local tok, nxt = text:match("^([^%s" .. (blank and "" or sep:gsub("%p", "%%%0")) .. "]+)()", pos)
    if not tok then fail(fname, "cannot parse the text near %q", text:sub(pos, pos + 15)) end
    local v = tonumber(tok)
    if v == nil then
      local l = tok:lower()
      v = (l == "nan" or l == "+nan" or l == "-nan") and 0 / 0 or (l == "inf" or l == "+inf") and math.huge
          or l == "-inf" and -math.huge or nil
      if v == nil then fail(fname, "cannot parse %q as a number", tok) end
    end
    out[#out + 1] = v
    pos = text:match("^%s*()", nxt)
    if pos > n then break end
    if not blank then
      local e = text:find(sep, pos, true)
      if e ~= pos then fail(fname, "expected the separator %q near %q", sep, text:sub(pos, pos + 15)) end
      pos = pos + #sep
    end
  end
  return out
end

local function read_all(fname, path)
  if type(path) ~= "string" then fail(fname, "path must be a string, got %s", typename(path)) end
  local f, err = io.open(path, "rb")
  if not f then fail(fname, "cannot open %s", err) end
  local s = f:read("a")
  f:close()
  return s
end

local function write_all(fname, path, s)
  if type(path) ~= "string" then fail(fname, "path must be a string, got %s", typename(path)) end
  local f, err = io.open(path, "wb")
  if not f then fail(fname, "cannot open %s", err) end
  local ok, werr = f:write(s)
  local cok, cerr = f:close()
  if not ok or not cok then fail(fname, "%s: write error: %s", path, tostring(werr or cerr)) end
end

--- Methods of ndarray.
-- @section methods

--- Write the array's elements to a file, in C order: raw bytes (the
-- default), or text with `sep` between the items and each item formatted
-- with `format` (a `string.format` pattern such as `"%.3f"`; by default
-- NumPy's `str` of the value).  No header: read it back with
-- `ga.fromfile(path, dtype)`.
-- @function ndarray:tofile
-- @tparam string path
-- @tparam[opt] table opts `{sep = "", format = nil}`
-- @usage
-- local path = os.tmpname()
-- ga.arange(4, "int32"):tofile(path)
-- print(ga.fromfile(path, "int32"))   --> array([0, 1, 2, 3], dtype=int32)
-- ga.array({1.5, 2}):tofile(path, {sep = ","})
-- print(io.open(path):read("a"))      --> 1.5,2
-- os.remove(path)
function M.tofile(x, path, opts)
  if not is_array(x) then fail("tofile", "expected an ndarray, got %s", typename(x)) end
  if opts ~= nil then C.options("tofile", opts, { sep = true, format = true }) else opts = {} end
  local sep, fmt = opts.sep or "", opts.format
  if type(sep) ~= "string" then fail("tofile", "sep must be a string, got %s", typename(sep)) end
  if fmt ~= nil and type(fmt) ~= "string" then fail("tofile", "format must be a string, got %s", typename(fmt)) end
  if sep == "" then
    if type(path) ~= "string" then fail("tofile", "path must be a string, got %s", typename(path)) end
    return core._files.tofile(x, path)
  end
  local parts = {}
  for i, v in ipairs(flat_values(x)) do parts[i] = item_text(v, fmt) end
  write_all("tofile", path, table.concat(parts, sep))
end

--- The raw bytes of the elements as a Lua string, in C order (`"C"`, the
-- default) or Fortran order (`"F"`; `"A"` and `"K"`: Fortran order only for
-- a Fortran-contiguous array).  `ga.frombuffer` reads them back.
-- @function ndarray:tobytes
-- @tparam[opt="C"] string order
-- @treturn string
-- @usage
-- local s = ga.array({1, 2}, "int16"):tobytes()
-- print(#s, s:byte(1), s:byte(3))     --> 4	1	2
M.tobytes = core._files.tobytes

--- The array as the bytes of a `.npy` file (a Lua string); `ga.loads`
-- reads it back.  (NumPy's `dumps` pickles; this is the pickle-free form.)
-- @function ndarray:dumps
-- @treturn string
-- @usage
-- local s = ga.arange(3):dumps()
-- print(s:sub(2, 6), ga.loads(s))     --> NUMPY	array([0, 1, 2])
M.dumps = core._files.dumps

--- Write the array to `path` as a `.npy` file, exactly at that path (NumPy's
-- `dump` pickles; this writes what `ga.load` reads).
-- @function ndarray:dump
-- @tparam string path
-- @usage
-- local path = os.tmpname()
-- ga.arange(3):dump(path)
-- print(ga.load(path))                --> array([0, 1, 2])
-- os.remove(path)
function M.dump(x, path)
  if not is_array(x) then fail("dump", "expected an ndarray, got %s", typename(x)) end
  write_all("dump", path, core._files.dumps(x))
end

--- CuPy's (and NumPy's) `__reduce__` in pickle-free form: a function and
-- a table of its arguments that rebuild the array, `f(table.unpack(args))`
-- (the array's `.npy` bytes and the `loads` of its kind: a host array comes
-- back on the host, a GPU array on the current device, as CuPy's does).
-- What a Lua serialiser that stores (function name, arguments) pairs needs.
-- @function ndarray:__reduce
-- @treturn function the rebuilding function (`ga.loads` or `ga.host.loads`)
-- @treturn table its arguments
-- @usage
-- local f, args = ga.arange(3):__reduce()
-- print(f(table.unpack(args)))        --> array([0, 1, 2])
function M.__reduce(x)
  if not is_array(x) then fail("__reduce", "expected an ndarray, got %s", typename(x)) end
  local host = x.device.id == -1
  return host and core._files_host.loads or core._files.loads, { core._files.dumps(x) }
end

local function build(F, host)
  local mod = host and core.host or core
  local G = {}

  --- Files.
  -- @section files

  --- Save one array to a `.npy` file (NumPy format 1.0, or 2.0 when the
  -- header needs it); ".npy" is added to a path without it.  Any layout: a
  -- Fortran-contiguous array is written with `fortran_order` True, any
  -- other non-contiguous one as a C-ordered copy.  NumPy's `np.load` reads
  -- the file.  A Lua table is saved as `ga.host.array(t)` would make it.
  -- @function ga.save
  -- @tparam string path
  -- @tparam ndarray x
  -- @usage
  -- local path = os.tmpname() .. ".npy"
  -- ga.save(path, ga.arange(6, "float32"):reshape({2, 3}))
  -- print(ga.load(path))
  -- --> array([[0., 1., 2.],
  -- -->        [3., 4., 5.]], dtype=float32)
  -- os.remove(path)
  G.save = F.save

  --- Load a `.npy` file (an array, on the current device for `ga.load`, on
  -- the host for `ga.host.load`) or a `.npz` archive (an `NpzFile`).
  -- `.npy` versions 1.0, 2.0 and 3.0, every dtype of ours in either byte
  -- order (big-endian data is swapped), `fortran_order` both ways.
  -- An `NpzFile` reads its members lazily, one by one: `f:keys()` lists
  -- the names (sorted), `f.name` or `f["arr_0"]` reads that member,
  -- `f:close()` (or `local f <close> = ...`, or the garbage collector)
  -- closes the file, once.
  -- `mmap_mode` (NumPy's) maps a `.npy` instead of reading it: on the host
  -- (`ga.host.load`, or `ga.load` while the host is current) the array lies
  -- over the mapped file: `"r"` read-only (`x.flags.writeable` false, every
  -- write is an error), `"r+"` writes go through to the file, `"c"`
  -- copy-on-write (writes stay in memory, the file is unchanged); the file
  -- is unmapped when the last array or view over it is freed (`x:free()` or
  -- the collector).  Big-endian files cannot be mapped on the host.  For a
  -- GPU array the data is copied to the device straight from the mapping
  -- (no staging buffer of ours); the result is an ordinary device array in
  -- every mode (writes do not reach the file), as CuPy's.  `.npz` archives
  -- ignore `mmap_mode`, as NumPy does.  A mapped file must not shrink while
  -- mapped (reading its lost pages is a bus error, as in NumPy).
  -- @function ga.load
  -- @tparam string path
  -- @tparam[opt] table opts `{max_header_size = 10000}`: a longer header
  --   is refused (NumPy's limit); `allow_pickle = true` is refused;
  --   `mmap_mode = "r" | "r+" | "c"` (or `"readonly"`, `"readwrite"`,
  --   `"copyonwrite"`)
  -- @treturn ndarray|NpzFile
  -- @usage
  -- local path = os.tmpname() .. ".npz"
  -- ga.savez(path, ga.arange(3), {w = ga.ones(2)})
  -- do
  --   local f <close> = ga.load(path)
  --   print(table.concat(f:keys(), " "))   --> arr_0 w
  --   print(f.w)                           --> array([1., 1.])
  -- end
  -- os.remove(path)
  -- local p = os.tmpname() .. ".npy"
  -- ga.host.save(p, ga.host.arange(4, "float32"))
  -- local m = ga.host.load(p, {mmap_mode = "r"})   -- over the file, read-only
  -- print(m:sum(), m.flags.writeable)               --> array(6., dtype=float32)  false
  -- m:free()
  -- os.remove(p)
  G.load = F.load

  --- The array of a `.npy` string (as `x:dumps()` gives).
  -- @function ga.loads
  -- @tparam string s
  -- @tparam[opt] table opts `{max_header_size = 10000}`
  -- @treturn ndarray
  -- @usage print(ga.loads(ga.array({true, false}):dumps()))   --> array([ True, False])
  G.loads = F.loads

  --- A 1-D array made from the raw bytes of a string (NumPy's
  -- `frombuffer`; the bytes are copied): `count` items (-1: all, which must
  -- be whole items) after `offset` bytes.
  -- @function ga.frombuffer
  -- @tparam string s
  -- @tparam[opt="float64"] string dtype
  -- @tparam[opt] table opts `{count = -1, offset = 0}`
  -- @treturn ndarray
  -- @usage
  -- print(ga.frombuffer("\1\0\2\0", "int16"))                  --> array([1, 2], dtype=int16)
  -- print(ga.frombuffer("xx\7", "uint8", {offset = 2}))       --> array([7], dtype=uint8)
  G.frombuffer = F.frombuffer

  --- A 1-D array from a file written by `x:tofile`: raw bytes (the
  -- default: `count` items, -1 for all whole items, after `offset` bytes),
  -- or text when `sep` is given (numbers separated by `sep`, whitespace
  -- around it allowed; a blank `sep` is any whitespace).
  -- @function ga.fromfile
  -- @tparam string path
  -- @tparam[opt="float64"] string dtype
  -- @tparam[opt] table opts `{count = -1, sep = "", offset = 0}`
  -- @treturn ndarray
  -- @usage
  -- local path = os.tmpname()
  -- local f = io.open(path, "w"); f:write("1 2\n3"); f:close()
  -- print(ga.fromfile(path, "int32", {sep = " "}))   --> array([1, 2, 3], dtype=int32)
  -- os.remove(path)
  function G.fromfile(path, dtype, opts)
    if type(dtype) == "table" and opts == nil then dtype, opts = nil, dtype end
    if opts ~= nil then C.options("fromfile", opts, { count = true, sep = true, offset = true }) else opts = {} end
    local sep = opts.sep or ""
    if type(sep) ~= "string" then fail("fromfile", "sep must be a string, got %s", typename(sep)) end
    local count = opts.count == nil and -1 or opts.count
    if math.type(count) ~= "integer" or count < -1 then
      fail("fromfile", "count must be an integer >= -1, got %s", tostring(count))
    end
    local offset = opts.offset == nil and 0 or opts.offset
    if math.type(offset) ~= "integer" or offset < 0 then
      fail("fromfile", "offset must be an integer >= 0, got %s", tostring(offset))
    end
    if type(path) ~= "string" then fail("fromfile", "path must be a string, got %s", typename(path)) end
    if sep == "" then return F.fromfile(path, dtype, count, offset) end
    if offset ~= 0 then fail("fromfile", "offset is only allowed for binary files") end
    local vals = parse_numbers("fromfile", read_all("fromfile", path), sep)
    if count >= 0 then
      if count > #vals then fail("fromfile", "the file holds %d items, count asks for %d", #vals, count) end
      for i = #vals, count + 1, -1 do vals[i] = nil end
    end
    if #vals == 0 then return mod.zeros({ 0 }, dtype or "float64") end
    return mod.array(vals, dtype or "float64")
  end

  --- Save several arrays to one uncompressed `.npz` archive (a zip of
  -- `.npy` members; ZIP64 when it needs it).  Positional arrays (or nested
  -- tables of values) are named `arr_0`, `arr_1` ...; a trailing table with
  -- string keys names the others (`{weights = w}`).  ".npz" is added to a path without it.
  -- `ga.load(path)` gives an `NpzFile`; NumPy's `np.load` reads it.
  -- @function ga.savez
  -- @tparam string path
  -- @param ... arrays, then optionally a table of named arrays
  -- @usage
  -- local path = os.tmpname() .. ".npz"
  -- ga.savez(path, ga.arange(2), {b = ga.zeros(1)})
  -- local f = ga.load(path)
  -- print(f.arr_0, f.b)                 --> array([0, 1])	array([0.])
  -- f:close()
  -- os.remove(path)

  --- As `ga.savez`, with the members compressed by deflate (zlib).  On
  -- load, each member's sizes are checked against its header before it is
  -- inflated (a zip bomb is refused, not expanded).
  -- @function ga.savez_compressed
  -- @tparam string path
  -- @param ... arrays, then optionally a table of named arrays
  -- @usage
  -- local path = os.tmpname() .. ".npz"
  -- ga.savez_compressed(path, {z = ga.zeros(10000)})
  -- local f <close> = ga.load(path)
  -- print(f.z:sum())                    --> array(0.)
  -- os.remove(path)
  for _, name in ipairs { "savez", "savez_compressed" } do
    G[name] = function(path, ...)
      if type(path) ~= "string" then fail(name, "path must be a string, got %s", typename(path)) end
      if not path:match("%.npz$") then path = path .. ".npz" end
      local n = select("#", ...)
      local names, arrays = {}, {}
      local named
      if n > 0 then
        local last = select(n, ...)
        -- a table of names (not a list of values, which is an array-like)
        if type(last) == "table" and not is_array(last) and rawlen(last) == 0 then named, n = last, n - 1 end
      end
      for i = 1, n do
        local x = select(i, ...)
        if x == nil then fail(name, "argument #%d is nil", i + 1) end
        names[#names + 1], arrays[#arrays + 1] = "arr_" .. (i - 1), x
      end
      if named then
        local keys = {}
        for k in pairs(named) do
          if type(k) ~= "string" then fail(name, "array names must be strings, got %s", typename(k)) end
          keys[#keys + 1] = k
        end
        table.sort(keys)
        for _, k in ipairs(keys) do
          for _, used in ipairs(names) do
            if used == k then fail(name, "cannot use un-named variables and keyword %s", k) end
          end
          names[#names + 1], arrays[#arrays + 1] = k, named[k]
        end
      end
      return F[name](path, names, arrays)
    end
  end

  --- Load a table of numbers from a text file: one row a line, values
  -- separated by `delimiter` (default: any whitespace), text after
  -- `comments` ignored, blank lines skipped.  A 2-D array (1-D for a single
  -- row or column, as NumPy; `ndmin` raises that).
  -- @function ga.loadtxt
  -- @tparam string path
  -- @tparam[opt] table opts `{dtype = "float64", delimiter = nil, comments = "#",
  --   skiprows = 0, usecols = nil (1-based list), max_rows = nil, ndmin = 0}`
  -- @treturn ndarray
  -- @usage
  -- local path = os.tmpname()
  -- local f = io.open(path, "w"); f:write("# x y\n1 2\n3 4\n"); f:close()
  -- print(ga.loadtxt(path))
  -- --> array([[1., 2.],
  -- -->        [3., 4.]])
  -- os.remove(path)
  function G.loadtxt(path, opts)
    if opts ~= nil then
      C.options("loadtxt", opts, { dtype = true, delimiter = true, comments = true, skiprows = true,
                                    usecols = true, max_rows = true, ndmin = true })
    else
      opts = {}
    end
    local delim, comments = opts.delimiter, opts.comments == nil and "#" or opts.comments
    local skip, maxr, ndmin = opts.skiprows or 0, opts.max_rows, opts.ndmin or 0
    if delim ~= nil and (type(delim) ~= "string" or delim == "") then
      fail("loadtxt", "delimiter must be a non-empty string, got %s", typename(delim))
    end
    if comments ~= false and type(comments) ~= "string" then
      fail("loadtxt", "comments must be a string, got %s", typename(comments))
    end
    if math.type(skip) ~= "integer" or skip < 0 then fail("loadtxt", "skiprows must be an integer >= 0") end
    if maxr ~= nil and (math.type(maxr) ~= "integer" or maxr < 0) then
      fail("loadtxt", "max_rows must be an integer >= 0")
    end
    if ndmin ~= 0 and ndmin ~= 1 and ndmin ~= 2 then
      fail("loadtxt", "Illegal value of ndmin keyword: %s", tostring(ndmin))
    end
    local text = read_all("loadtxt", path)
    local rows, ncol = {}, nil
    local lineno = 0
    for line in (text .. (text:sub(-1) == "\n" and "" or "\n")):gmatch("([^\n]*)\n") do
      lineno = lineno + 1
      if lineno > skip and (maxr == nil or #rows < maxr) then
        line = line:gsub("\r$", "")
        if comments and comments ~= "" then
          local c = line:find(comments, 1, true)
          if c then line = line:sub(1, c - 1) end
        end
        if line:match("%S") then
          local vals = parse_numbers("loadtxt", line, delim or " ")
          if opts.usecols then
            local picked = {}
            for i, c in ipairs(opts.usecols) do
              if math.type(c) ~= "integer" then fail("loadtxt", "usecols must be integers") end
              local j = c < 0 and #vals + 1 + c or c
              if j < 1 or j > #vals then fail("loadtxt", "line %d: column %d does not exist", lineno, c) end
              picked[i] = vals[j]
            end
            vals = picked
          end
          if ncol and #vals ~= ncol then
            fail("loadtxt", "the number of columns changed from %d to %d at line %d", ncol, #vals, lineno)
          end
          ncol = #vals
          rows[#rows + 1] = vals
        end
      end
    end
    local dtype = opts.dtype or "float64"
    local a
    if #rows == 0 then a = mod.zeros({ 0 }, dtype) else a = mod.array(rows, dtype) end
    -- NumPy squeezes a single row or column unless ndmin says otherwise
    if a.ndim == 2 and ndmin < 2 then
      if a.shape[1] == 1 or a.shape[2] == 1 then a = a:reshape(-1) end
    end
    if ndmin == 2 and a.ndim == 1 then
      if #rows == 0 then a = a:reshape({ 0, 0 })
      elseif ncol == 1 then a = a:reshape({ #rows, 1 })
      else a = a:reshape({ 1, ncol }) end
    end
    return a
  end

  --- Save a 1-D or 2-D array to a text file, one row a line.
  -- @function ga.savetxt
  -- @tparam string path
  -- @tparam ndarray x
  -- @tparam[opt] table opts `{fmt = "%.18e", delimiter = " ", newline = "\n",
  --   header = "", footer = "", comments = "# "}`
  -- @usage
  -- local path = os.tmpname()
  -- ga.savetxt(path, ga.array({{1, 2}, {3, 4}}), {fmt = "%d", delimiter = ","})
  -- print(io.open(path):read("a"))
  -- --> 1,2
  -- --> 3,4
  -- os.remove(path)
  function G.savetxt(path, x, opts)
    if opts ~= nil then
      C.options("savetxt", opts, { fmt = true, delimiter = true, newline = true, header = true, footer = true,
                                    comments = true })
    else
      opts = {}
    end
    if not is_array(x) then x = mod.array(x) end
    if x.ndim == 0 or x.ndim > 2 then fail("savetxt", "expected a 1-D or 2-D array, got %d-D", x.ndim) end
    local fmt, delim, nl = opts.fmt or "%.18e", opts.delimiter or " ", opts.newline or "\n"
    local comments = opts.comments or "# "
    for k, v in pairs { fmt = fmt, delimiter = delim, newline = nl, comments = comments } do
      if type(v) ~= "string" then fail("savetxt", "%s must be a string, got %s", k, typename(v)) end
    end
    local out = {}
    if opts.header and opts.header ~= "" then
      out[#out + 1] = comments .. tostring(opts.header):gsub("\n", "\n" .. comments) .. nl
    end
    local t = x:totable()
    if x.ndim == 1 then
      for i, v in ipairs(t) do t[i] = { v } end
    end
    for _, row in ipairs(t) do
      local cells = {}
      for j, v in ipairs(row) do
        local ok, s = pcall(item_text, v, fmt)
        if not ok then fail("savetxt", "fmt %q does not format a %s value", fmt, x.dtype) end
        cells[j] = s
      end
      out[#out + 1] = table.concat(cells, delim) .. nl
    end
    if opts.footer and opts.footer ~= "" then
      out[#out + 1] = comments .. tostring(opts.footer):gsub("\n", "\n" .. comments) .. nl
    end
    write_all("savetxt", path, table.concat(out))
  end

  --- Printing.
  -- @section printing

  local KINDS = { bool = "b", int8 = "i", int16 = "i", int32 = "i", int64 = "i", uint8 = "u", uint16 = "u",
                  uint32 = "u", uint64 = "u", complex64 = "c", complex128 = "c" }
  local function print_args(fname, x, opts)
    if not is_array(x) then fail(fname, "expected an ndarray, got %s", typename(x)) end
    local over = {}
    if opts ~= nil then
      C.options(fname, opts, { max_line_width = true, precision = true, suppress_small = true })
      over.linewidth, over.precision, over.suppress = opts.max_line_width, opts.precision, opts.suppress_small
      for k, v in pairs(over) do
        if k == "suppress" then
          if type(v) ~= "boolean" then fail(fname, "suppress_small must be a boolean, got %s", typename(v)) end
        elseif math.type(v) ~= "integer" or v < (k == "linewidth" and 1 or 0) or (k == "precision" and v > 99) then
          fail(fname, "%s must be a non-negative integer%s, got %s", k == "linewidth" and "max_line_width" or k,
               k == "precision" and " up to 99" or "", tostring(v))
        end
      end
    end
    local po = format.get_printoptions()
    local t = core.repr_table(x, po.threshold, po.edgeitems)
    if t == nil then fail(fname, "array has been freed") end
    return t, { dtype = x.dtype, shape = x.shape, kind = KINDS[x.dtype] or "f" }, over
  end

  --- NumPy's `repr` of an array under the print options (what `tostring`
  -- gives), with some overridden for this call.
  -- @function ga.array_repr
  -- @tparam ndarray x
  -- @tparam[opt] table opts `{max_line_width =, precision =, suppress_small =}`
  -- @treturn string
  -- @usage
  -- print(ga.array_repr(ga.array({1 / 3, 2}), {precision = 2}))   --> array([0.33, 2.  ])
  function G.array_repr(x, opts)
    local t, info, over = print_args("array_repr", x, opts)
    return format.repr(t, info, over)
  end

  --- NumPy's `str` of an array: `[0.5 1. ]`, no `array(...)` and no dtype.
  -- @function ga.array_str
  -- @tparam ndarray x
  -- @tparam[opt] table opts `{max_line_width =, precision =, suppress_small =}`
  -- @treturn string
  -- @usage
  -- print(ga.array_str(ga.array({{1, 2}, {3, 4}})))
  -- --> [[1 2]
  -- -->  [3 4]]
  function G.array_str(x, opts)
    local t, info, over = print_args("array_str", x, opts)
    return format.str(t, info, over)
  end

  --- Set the print options of `tostring(x)`, `array_repr` and `array_str`
  -- (NumPy's `set_printoptions`): `precision` (8), `threshold` (1000),
  -- `edgeitems` (3), `linewidth` (75), `suppress` (false).  Options not
  -- given keep their value; no table restores the defaults.
  -- @function ga.set_printoptions
  -- @tparam[opt] table opts
  -- @usage
  -- ga.set_printoptions{threshold = 5, edgeitems = 2}
  -- print(ga.arange(10))                --> array([0, 1, ..., 8, 9], shape=(10,))
  -- ga.set_printoptions()
  G.set_printoptions = format.set_printoptions

  --- The current print options as a new table.
  -- @function ga.get_printoptions
  -- @treturn table `{precision=, threshold=, edgeitems=, linewidth=, suppress=}`
  -- @usage print(ga.get_printoptions().precision)   --> 8
  G.get_printoptions = format.get_printoptions

  return G
end

return { ga = build(core._files, false), host = build(core._files_host, true) }
