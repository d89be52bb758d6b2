-- luacheck configuration: `make lint`.  spec/data holds generated tables
-- (tools/gen_ufunc_ref.py), not code.
exclude_files = { "spec/data/*" }
