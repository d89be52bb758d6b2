-- Issue 15, hostile files: every malformed .npy header, lying size and
-- broken or lying zip archive is a Lua error naming the function, never a
-- crash, an endless loop or an allocation the file's own bytes do not
-- justify.  Each case is a row: the bytes (or how to break a good file)
-- and the fragments the message must hold.
local helper = require "spec.helper"
local ga = helper.ga

local function u16(v) return string.pack("<I2", v) end
local function u32(v) return string.pack("<I4", v) end

-- a .npy 1.0 file with the header dict `dict` (padded to 64) and data
local function npy(dict, data, major)
  major = major or 1
  local prefix = major == 1 and 10 or 12
  local total = (prefix + #dict + 1 + 63) // 64 * 64
  local hl = total - prefix
  local body = dict .. (" "):rep(hl - #dict - 1) .. "\n"
  return "\147NUMPY" .. string.char(major, 0) .. (major == 1 and u16(hl) or u32(hl)) .. body .. (data or "")
end
local function hdr(descr, fortran, shape)
  return string.format("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr, fortran, shape)
end

local ROWS = {
  { "empty string", "", "truncated" },
  { "bad magic", "\147NUMPX\1\0\0\0", "bad magic" },
  { "only the magic", "\147NUMPY", "truncated" },
  { "version 4.0", "\147NUMPY\4\0\10\0{}", "version 4.0" },
  { "version 1.1", "\147NUMPY\1\1\10\0{}", "version 1.1" },
  { "header length past the end", "\147NUMPY\1\0\200\0{'descr'", "truncated" },
  { "header over 10000 bytes", "\147NUMPY\2\0" .. u32(20000) .. "{", "max_header_size" },
  { "header of 4 GiB", "\147NUMPY\2\0" .. u32(0xffffffff) .. "{", "over the limit" },
  { "object arrays", npy(hdr("|O", "False", "(2,)"), ("\0"):rep(16)), "object arrays are not supported" },
  { "unicode strings", npy(hdr("<U5", "False", "(2,)"), ("\0"):rep(40)), "unsupported dtype descr '<U5'" },
  { "long double", npy(hdr("<f16", "False", "(1,)"), ("\0"):rep(16)), "unsupported dtype descr" },
  { "structured dtype", npy("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }", "\0\0\0\0"),
    "structured dtypes" },
  { "not a dict", npy("['descr']"), "not a dict" },
  { "missing shape", npy("{'descr': '<f8', 'fortran_order': False}"), "missing key 'shape'" },
  { "unknown key", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (), 'x': 1}"), "unexpected key 'x'" },
  { "code instead of a value", npy("{'descr': '<f8', 'fortran_order': __import__('os'), 'shape': ()}"),
    "not True or False" },
  { "duplicate key", npy("{'descr': '<f8', 'descr': '<f4', 'fortran_order': False, 'shape': ()}"), "twice" },
  { "shape not a tuple", npy(hdr("<f8", "False", "(3)"), ("\0"):rep(24)), "not a tuple" },
  { "shape a list", npy(hdr("<f8", "False", "[3]"), ("\0"):rep(24)), "not a tuple" },
  { "negative dimension", npy(hdr("<f8", "False", "(-1,)")), "negative dimension" },
  { "float dimension", npy(hdr("<f8", "False", "(2.5,)")), "malformed" },
  { "dimension past int64", npy(hdr("<f8", "False", "(99999999999999999999,)")), "overflows int64" },
  { "size overflow", npy(hdr("<f8", "False", "(4294967296, 4294967296)")), "too big" },
  { "33 dimensions", npy(hdr("<f8", "False", "(" .. ("1, "):rep(33) .. ")"), ("\0"):rep(8)), "more than 32" },
  { "text after the dict", npy(hdr("<f8", "False", "()") .. " x", ("\0"):rep(8)), "text after the dict" },
  { "huge shape, no data (no allocation)", npy(hdr("<f8", "False", "(1000000000000,)")),
    "does not match the header", "8000000000000 bytes" },
  { "truncated data", npy(hdr("<i4", "False", "(3,)"), ("\0"):rep(11)), "does not match", "only 11" },
  { "extra data", npy(hdr("<i4", "False", "(3,)"), ("\0"):rep(13)), "does not match", "there are 13" },
  { "fortran_order lowercase", npy(hdr("<f8", "false", "()"), ("\0"):rep(8)), "not True or False" },
  { "escaped descr", npy("{'descr': '<f\\x38', 'fortran_order': False, 'shape': ()}"), "not a short string" },
}

describe("hostile .npy", function()
  for _, row in ipairs(ROWS) do
    it(row[1] .. " (loads)", function()
      helper.assert_error(function() return ga.loads(row[2]) end, "loads: ", table.unpack(row, 3))
    end)
    it(row[1] .. " (load)", function()
      local p = os.tmpname()
      local f = io.open(p, "wb")
      f:write(row[2])
      f:close()
      local frags = { table.unpack(row, 3) }
      if row[2] == "" then frags = { "bad magic" } end
      helper.assert_error(function() return ga.host.load(p) end, "load: ", table.unpack(frags))
      os.remove(p)
    end)
  end
  it("max_header_size allows a longer header", function()
    local dict = hdr("<i2", "False", "(1,)") .. (" "):rep(12000)
    local s = npy(dict, "\7\0", 2)
    helper.assert_error(function() return ga.loads(s) end, "max_header_size")
    assert.are.same({ 7 }, ga.loads(s, { max_header_size = 20000 }):totable())
  end)
  it("pickles are refused, and so is allow_pickle", function()
    local p = os.tmpname()
    local f = io.open(p, "wb")
    f:write("\128\4\149\0\0\0\0\0\0\0\0}\148.")
    f:close()
    helper.assert_error(function() return ga.load(p) end, "load: ", "pickled data is not supported")
    helper.assert_error(function() return ga.load(p, { allow_pickle = true }) end, "allow_pickle")
    os.remove(p)
  end)
  it("bad arguments", function()
    helper.assert_error(function() return ga.load(nil) end, "bad argument")
    helper.assert_error(function() return ga.loads("x", { bogus = 1 }) end, "unknown option")
    helper.assert_error(function() return ga.loads("x", { max_header_size = -1 }) end, "max_header_size")
    helper.assert_error(function() return ga.frombuffer("abc", "int16") end, "multiple of element size")
    helper.assert_error(function() return ga.frombuffer("abcd", "int16", { count = 3 }) end, "smaller than requested")
    helper.assert_error(function() return ga.frombuffer("abcd", "int16", { offset = 5 }) end, "offset")
    helper.assert_error(function() return ga.fromfile("/nonexistent/x") end, "fromfile: ", "cannot open")
    helper.assert_error(function() return ga.fromfile("/", "int8") end, "fromfile: ", "not a regular file")
    helper.assert_error(function() return ga.zeros(2):tobytes("X") end, "tobytes: ", "order")
    helper.assert_error(function() return ga.save("/nonexistent/dir/x.npy", ga.zeros(1)) end, "save: ", "cannot open")
  end)
end)

-- A good archive to break: two stored members.
local function good_zip(compressed)
  local p = os.tmpname() .. ".npz"
  ga[compressed and "savez_compressed" or "savez"](p, ga.host.arange(100, "int32"), { b = ga.host.ones(3) })
  local f = io.open(p, "rb")
  local s = f:read("a")
  f:close()
  os.remove(p)
  return s
end

-- the central directory's offset, and its first entry's field at `at`
local function cd_of(s) return string.unpack("<I4", s, #s - 22 + 17) end
local function patch(s, pos, bytes) return s:sub(1, pos - 1) .. bytes .. s:sub(pos + #bytes) end
local function patch_cd(s, field, bytes) return patch(s, cd_of(s) + 1 + field, bytes) end

local ZROWS = {
  { "not a zip (truncated end record)", function(s) return s:sub(1, #s - 10) end, "no end of central directory" },
  { "directory outside the file", function(s) return patch(s, #s - 22 + 17, u32(#s + 100)) end,
    "outside the file" },
  { "more entries than the directory holds", function(s) return patch(s, #s - 22 + 11, u16(60000)) end,
    "fewer entries" },
  { "local header outside the file", function(s) return patch_cd(s, 42, u32(#s + 1000)) end, "outside the file" },
  { "local header elsewhere", function(s) return patch_cd(s, 42, u32(5)) end, "bad local header" },
  { "stored sizes that differ", function(s) return patch_cd(s, 20, u32(10)) end, "sizes differ" },
  { "data past the end", function(s)
      s = patch_cd(s, 20, u32(0x7fffffff))
      return patch_cd(s, 24, u32(0x7fffffff))
    end, "past the end of the file" },
  { "a lying size (member shorter than its header)", function(s)
      s = patch_cd(s, 20, u32(200))
      return patch_cd(s, 24, u32(200))
    end, "does not match the header" },
  { "CRC mismatch", function(s) return patch(s, 200, "\255") end, "CRC-32 mismatch" },
  { "encrypted", function(s) return patch_cd(s, 8, u16(1)) end, "encrypted" },
  { "bzip2", function(s) return patch_cd(s, 10, u16(12)) end, "compression method 12" },
}

describe("hostile .npz", function()
  local function load_broken(s, key)
    local p = os.tmpname()
    local f = io.open(p, "wb")
    f:write(s)
    f:close()
    local ok, err = pcall(function()
      local z <close> = ga.host.load(p)
      return z[key or "arr_0"]
    end)
    os.remove(p)
    return ok, err
  end
  for _, row in ipairs(ZROWS) do
    it(row[1], function()
      local ok, err = load_broken(row[2](good_zip(false)))
      assert.is_false(ok)
      for i = 3, #row do
        assert.truthy(tostring(err):find(row[i], 1, true), tostring(err) .. " lacks " .. row[i])
      end
      assert.truthy(tostring(err):find("load: ", 1, true), err)
    end)
  end
  it("a zip bomb: sizes past deflate's ratio are refused before inflating", function()
    local s = good_zip(true)
    local ok, err = load_broken(patch_cd(s, 24, u32(0xfffffff0)))
    assert.is_false(ok)
    assert.truthy(err:find("more than deflate can produce", 1, true), err)
  end)
  it("a deflate member that holds more than its entry says", function()
    local s = good_zip(true)
    -- claim 100 bytes fewer: the .npy header then disagrees with the member size
    local usize = string.unpack("<I4", s, cd_of(s) + 1 + 24)
    local ok, err = load_broken(patch_cd(s, 24, u32(usize - 100)))
    assert.is_false(ok)
    assert.truthy(err:find("does not match the header", 1, true), err)
  end)
  it("corrupt deflate data", function()
    local s = good_zip(true)
    local ok, err = load_broken(patch(s, 120, ("\255"):rep(40)))
    assert.is_false(ok)
    assert.truthy(err:find("load: ", 1, true), err)
  end)
  it("every byte of a small archive, truncated or flipped, is an error or a good load", function()
    local s = good_zip(true)
    for i = 1, #s, 7 do
      load_broken(s:sub(1, i))
      load_broken(patch(s, i, string.char((s:byte(i) + 37) % 256)))
      load_broken(patch(s, i, string.char((s:byte(i) + 37) % 256)), "b")
    end
  end)
  it("a closed NpzFile says so", function()
    local p = os.tmpname() .. ".npz"
    ga.savez(p, ga.host.zeros(1))
    local z = ga.host.load(p)
    z:close()
    helper.assert_error(function() return z.arr_0 end, "closed")
    helper.assert_error(function() return z:keys() end, "closed")
    assert.are.equal("NpzFile (closed)", tostring(z))
    os.remove(p)
  end)
end)
