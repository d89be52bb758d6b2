"""The writer of NumPy reference data shared by tools/gen_fft_ref.py,
gen_linalg_ref.py, gen_numeric_ref.py and gen_products_ref.py: a case
list, its encoding and the Lua file that spec/helper.lua's decode_ref reads
(gen_diff_ref.py writes its own cases with lua()).

    from refdata import Cases
    ref = Cases()
    ref.case("id", "fn", [args...], want)
    ref.write("spec/data/x_ref.lua", "-- header lines\\n")

A case is {id=, fn=, args={arg...}, want=result}.  An arg or a result is
an array {dtype=, shape=, re={...}, im={...}} (values flat in C order; im
only for complex dtypes; uint64 as their int64 bit patterns; with
values="v" one list v={...}), a number, a boolean, a string, nil
({nil=true}) or {list={...}} (a Lua table, or several results); a dict
is a Lua table given as it is (its lists stay lists; see literal)."""
import math

import numpy as np

LUA_KEYWORDS = {"and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
                "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"}


def encode(v, values="re"):
    """v as a Lua-ready value: arrays as dicts, tuples and lists as {list=}"""
    if v is None:
        return {"nil": True}
    if isinstance(v, dict):
        return {k: literal(x, values) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return {"list": [encode(x, values) for x in v]}
    if isinstance(v, np.ndarray):
        d = {"dtype": str(v.dtype), "shape": list(v.shape)}
        if values == "v":
            d["v"] = v.ravel().tolist()
        elif v.dtype.kind == "c":
            d["re"] = v.real.ravel().tolist()
            d["im"] = v.imag.ravel().tolist()
        elif v.dtype == np.uint64:
            d["re"] = v.view(np.int64).ravel().tolist()
        else:
            d["re"] = v.ravel().tolist()
        return d
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


def literal(x, values="re"):
    """x inside a dict (a Lua table given as it is): its lists and tuples
    are Lua sequences, its arrays and numbers encoded"""
    if isinstance(x, (list, tuple)):
        return [literal(e, values) for e in x]
    return encode(x, values)


def lua(v, sort_keys=True, eq=" = ", huge="math.huge"):
    """v (from encode) as Lua source; a dict's keys sorted unless sort_keys
    is False (then in insertion order), written key<eq>value; infinity as
    huge ("math.huge" or "1/0")"""
    if v is None:
        return "nil"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if v == -2**63:   # the literal would read back as a float
            return "math.mininteger"
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "0/0"
        if math.isinf(v):
            return huge if v > 0 else "-" + huge
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "{" + ", ".join(lua(x, sort_keys, eq, huge) for x in v) + "}"
    if isinstance(v, dict):
        items = []
        for k in (sorted(v) if sort_keys else v):
            key = k if k.isidentifier() and k not in LUA_KEYWORDS else "[%s]" % lua(k)
            items.append(key + eq + lua(v[k], sort_keys, eq, huge))
        return "{" + ", ".join(items) + "}"
    raise TypeError(type(v))


def ax1(a):
    """0-based NumPy axes (an int, a list or tuple of them, or None) ->
    gpuarray's 1-based ones (negative kept)"""
    if a is None:
        return None
    if isinstance(a, (list, tuple)):
        return [ax1(x) for x in a]
    return a + 1 if a >= 0 else a


class Cases:
    """The cases of one reference file, and its writer"""

    def __init__(self, values="re", want=None):
        self.cases = []
        self.values = values   # "re" (re=, im=) or "v" (one list)
        self.want = want       # applied to each expected result before encoding (e.g. np.asarray)

    def case(self, cid, fn, args, want):
        if self.want is not None:
            want = self.want(want)
        self.cases.append({"id": cid, "fn": fn, "args": [encode(a, self.values) for a in args],
                           "want": encode(want, self.values)})

    def write(self, path, head, numpy=True, sort_keys=True, eq=" = "):
        """path: the comment lines head, then `return {numpy = "<version>",
        cases = {...}}`, or with numpy=False the bare list of cases"""
        with open(path, "w") as f:
            f.write(head)
            if numpy:
                f.write("return {\n  numpy = %s,\n  cases = {\n" % lua(np.__version__))
                indent, close = "    ", "  },\n}\n"
            else:
                f.write("return {\n")
                indent, close = "  ", "}\n"
            for c in self.cases:
                f.write(indent + lua(c, sort_keys, eq) + ",\n")
            f.write(close)
        print("%s: %d cases" % (path, len(self.cases)))
