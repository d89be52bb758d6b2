-- bench/svg_plot.lua: a small SVG writer for bench/crossover.lua — log-log
-- panels side by side, each with decade ticks, labelled axes, a title,
-- lines with point markers, a legend and marked points.  Plain SVG 1.1
-- text, no dependencies.
--
--   local plot = require "svg_plot"     (package.path with bench/?.lua)
--   local fig = plot.figure(2)          -- two panels
--   fig:panel(1, {title =, xlabel =, ylabel =})
--   fig:line(1, {label =, color =, dash =}, xs, ys)
--   fig:mark(1, x, y, "text")
--   io.open("f.svg", "w"):write(fig:svg())
local M = {}

local W, H = 520, 400                     -- one panel
local L, R, T, B = 70, 20, 40, 55         -- margins inside a panel

local function esc(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }))
end

local Fig = {}
Fig.__index = Fig

function M.figure(npanels)
  return setmetatable({ n = npanels, panels = {} }, Fig)
end

local function panel_of(self, i)
  local p = self.panels[i]
  if not p then
    p = { lines = {}, marks = {}, opts = {} }
    self.panels[i] = p
  end
  return p
end

function Fig:panel(i, opts) panel_of(self, i).opts = opts end

-- a series: xs and ys (positive numbers; others are skipped)
function Fig:line(i, style, xs, ys)
  local p = panel_of(self, i)
  p.lines[#p.lines + 1] = { style = style, xs = xs, ys = ys }
end

function Fig:mark(i, x, y, text) local p = panel_of(self, i); p.marks[#p.marks + 1] = { x = x, y = y, text = text } end

-- the decades [lo, hi] that cover a panel's values
local function range(p, key)
  local lo, hi = math.huge, -math.huge
  for _, l in ipairs(p.lines) do
    for _, v in ipairs(l[key]) do
      if v > 0 and v < math.huge then lo, hi = math.min(lo, v), math.max(hi, v) end
    end
  end
  if lo > hi then return 0, 1 end
  lo, hi = math.floor(math.log(lo, 10)), math.ceil(math.log(hi, 10))
  if hi == lo then hi = lo + 1 end
  return lo, hi
end

local function panel_svg(p, ox, out)
  local x0, x1 = range(p, "xs")
  local y0, y1 = range(p, "ys")
  local pw, ph = W - L - R, H - T - B
  local function X(v) return ox + L + (math.log(v, 10) - x0) / (x1 - x0) * pw end
  local function Y(v) return T + ph - (math.log(v, 10) - y0) / (y1 - y0) * ph end
  local o = p.opts
  out[#out + 1] = ('<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#444"/>'):format(ox + L, T, pw, ph)
  for d = x0, x1 do
    local x = ox + L + (d - x0) / (x1 - x0) * pw
    out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#ddd"/>'):format(x, T, x, T + ph)
    out[#out + 1] = ('<text x="%g" y="%g" font-size="11" text-anchor="middle">1e%d</text>'):format(x, T + ph + 16, d)
  end
  for d = y0, y1 do
    local y = T + ph - (d - y0) / (y1 - y0) * ph
    out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#ddd"/>'):format(ox + L, y, ox + L + pw, y)
    out[#out + 1] = ('<text x="%g" y="%g" font-size="11" text-anchor="end">1e%d</text>'):format(ox + L - 6, y + 4, d)
  end
  out[#out + 1] = ('<text x="%g" y="22" font-size="14" text-anchor="middle" font-weight="bold">%s</text>')
    :format(ox + L + pw / 2, esc(o.title or ""))
  out[#out + 1] = ('<text x="%g" y="%g" font-size="12" text-anchor="middle">%s</text>')
    :format(ox + L + pw / 2, H - 14, esc(o.xlabel or ""))
  out[#out + 1] = ('<text x="%g" y="%g" font-size="12" text-anchor="middle" transform="rotate(-90 %g %g)">%s</text>')
    :format(ox + 16, T + ph / 2, ox + 16, T + ph / 2, esc(o.ylabel or ""))
  for k, l in ipairs(p.lines) do
    local pts = {}
    for j = 1, #l.xs do
      local x, y = l.xs[j], l.ys[j]
      if x and y and x > 0 and y > 0 and y < math.huge then pts[#pts + 1] = ("%.1f,%.1f"):format(X(x), Y(y)) end
    end
    local c = l.style.color or "#000"
    out[#out + 1] = ('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>')
      :format(table.concat(pts, " "), c, l.style.dash and ' stroke-dasharray="6,4"' or "")
    for _, pt in ipairs(pts) do
      local px, py = pt:match("([^,]+),(.+)")
      out[#out + 1] = ('<circle cx="%s" cy="%s" r="2.5" fill="%s"/>'):format(px, py, c)
    end
    local ly = T + 14 + (k - 1) * 16   -- the legend, top left inside the panel
    out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="2"%s/>')
      :format(ox + L + 8, ly - 4, ox + L + 30, ly - 4, c, l.style.dash and ' stroke-dasharray="6,4"' or "")
    out[#out + 1] = ('<text x="%g" y="%g" font-size="11">%s</text>'):format(ox + L + 34, ly, esc(l.style.label or ""))
  end
  for _, m in ipairs(p.marks) do
    local mx, my = X(m.x), Y(m.y)
    out[#out + 1] = ('<circle cx="%.1f" cy="%.1f" r="6" fill="none" stroke="#c00" stroke-width="2"/>'):format(mx, my)
    out[#out + 1] = ('<text x="%.1f" y="%.1f" font-size="11" fill="#c00">%s</text>'):format(mx + 8, my - 8, esc(m.text))
  end
end

function Fig:svg()
  local out = { ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">')
    :format(W * self.n, H), ('<rect width="%d" height="%d" fill="white"/>'):format(W * self.n, H) }
  for i = 1, self.n do panel_svg(panel_of(self, i), (i - 1) * W, out) end
  out[#out + 1] = "</svg>\n"
  return table.concat(out, "\n")
end

return M
