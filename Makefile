# gpuarray: `make` builds build/gpuarray/core.so; `make test` checks the
# Debian packages it needs (installing them when it can), builds, and runs the
# specs; `make demo` runs examples/first_program.lua.  Every variable below is
# overridable (LuaRocks passes its own).
LUA         ?= lua5.4
LUA_INCDIR  ?= /usr/include/lua5.4
CUDA_DIR    ?= /usr/local/cuda
CC          ?= cc
CFLAGS      ?= -O2 -g
LIBFLAG     ?= -shared
INST_PREFIX ?= /usr/local
INST_LIBDIR ?= $(INST_PREFIX)/lib/lua/5.4
INST_LUADIR ?= $(INST_PREFIX)/share/lua/5.4
INST_INCDIR ?= $(INST_PREFIX)/include
BLAS_LIBS   ?= -lopenblas
LUA_LIB     ?= -llua5.4
BUSTED      ?= $(shell command -v busted 2>/dev/null || echo /usr/bin/busted)
BUILD       ?= build

CUDA_LIBDIR := $(CUDA_DIR)/lib64
GA_CFLAGS := -std=gnu99 -fPIC -fvisibility=hidden -fwrapv -ffp-contract=off -Wall -Wextra -pthread \
             -I$(LUA_INCDIR) -I$(CUDA_DIR)/include -Isrc -Iinclude -I$(BUILD)
GA_LIBS := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -Wl,-z,nodelete \
           -lcudart -lnvrtc -lcublas -lcurand -lcufft $(BLAS_LIBS) -lz -lm -pthread

# -z nodelete: the module keeps process-wide state (pools, kernel caches,
# per-thread caches with exit destructors, CUDA handles), so lua_close must
# not unmap it while other states or threads may still use it.
SRCS := $(sort $(wildcard src/*/*.c))
HDRS := $(wildcard src/*/*.h src/*/*.def include/*.h)
OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(SRCS)) $(BUILD)/obj/ga_kernels_embed.o
KERNELS := $(sort $(wildcard kernels/*.cuh kernels/*.cu))
LUAFILES := $(wildcard lua/gpuarray/*.lua)
MODULE := $(BUILD)/gpuarray/core.so

.PHONY: all deps test test-asan test-embed examples test-capi test-host test-c test-host-c demo install clean lint fuzz bench crossover fuzz-files \
        check-cudnn-api

all: $(MODULE)

$(BUILD)/obj/%.o: src/%.c $(HDRS) | $(BUILD)/obj
	@mkdir -p $(dir $@)
	$(CC) $(GA_CFLAGS) $(CFLAGS) -c $< -o $@

# the host generator and the draw's plan compile the kernels' Philox text as C
$(BUILD)/obj/host/ga_host_rand.o $(BUILD)/obj/core/ga_rand.o $(BUILD)/obj/cuda/ga_cuda_rand.o: kernels/ga_philox.cuh

# Kernel templates become C strings (ga_kernel_<file>) in the module.
$(BUILD)/ga_kernels_embed.c: $(KERNELS) tools/embed.sh | $(BUILD)/obj
	sh tools/embed.sh $(KERNELS) > $@

$(BUILD)/obj/ga_kernels_embed.o: $(BUILD)/ga_kernels_embed.c
	$(CC) $(GA_CFLAGS) $(CFLAGS) -c $< -o $@

$(MODULE): $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LIBFLAG) $(CFLAGS) -o $@ $(OBJS) $(GA_LIBS)

$(BUILD)/obj:
	mkdir -p $@

deps:
	@sh tools/deps.sh

# The specs: on the host backend always, on every GPU when there is one;
# each spec file in its own process, JOBS (default: every core) at a time.
# The C tests (one long ASan compile) run beside the spec files, their
# output printed after the specs'; either failing fails the target.
test: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory test-c test-embed >$(BUILD)/test-c.log 2>&1 & ctests=$$!; \
	 LUA=$(LUA) BUSTED=$(BUSTED) BUILD=$(BUILD) sh tools/run_specs.sh; specs=$$?; \
	 wait $$ctests; c=$$?; echo "---- make test-c test-embed ($(BUILD)/test-c.log)"; cat $(BUILD)/test-c.log; \
	 [ $$c -eq 0 ] || echo "make test: the C tests failed (exit $$c)"; \
	 [ $$specs -eq 0 ] && [ $$c -eq 0 ]

# C unit tests of the pieces that need no Lua (caching allocator, kernel
# disk cache, the random draws' float32 log and sin/cos, .npy header and zip
# archives, the chunked device I/O over a model stream, host backend), under
# AddressSanitizer and UBSan.
test-c: test-host-c | $(BUILD)/obj
	$(CC) -std=gnu99 -g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	  -Wall -Wextra -Isrc spec/c/test_pool.c src/base/ga_pool.c -o $(BUILD)/test_pool -pthread
	$(BUILD)/test_pool
	$(CC) -std=gnu99 -g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	  -Wall -Wextra -Isrc spec/c/test_diskcache.c src/base/ga_diskcache.c -o $(BUILD)/test_diskcache -pthread
	$(BUILD)/test_diskcache
	$(CC) -std=gnu99 -g -O1 -ffp-contract=off -fsanitize=address,undefined -fno-sanitize-recover=all \
	  -fno-omit-frame-pointer -Wall -Wextra spec/c/test_rng_poly.c -o $(BUILD)/test_rng_poly -lm
	$(BUILD)/test_rng_poly
	$(CC) -std=gnu99 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	  -Wall -Wextra -Isrc spec/c/test_files.c src/base/ga_npy.c src/base/ga_zip_read.c src/base/ga_zip_write.c \
	  src/base/ga_dtype.c src/base/ga_error.c -lz -lm -o $(BUILD)/test_files
	$(BUILD)/test_files $(BUILD)
	$(CC) -std=gnu99 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	  -Wall -Wextra -Isrc spec/c/test_chunkio.c src/core/ga_chunkio.c src/base/ga_npy.c src/base/ga_dtype.c \
	  src/base/ga_error.c -lm -o $(BUILD)/test_chunkio
	$(BUILD)/test_chunkio

# Several lua_States on several threads, each using the module.
test-embed: $(MODULE)
	$(CC) -std=gnu99 -g -O1 -Wall -Wextra -I$(LUA_INCDIR) spec/c/test_embed.c -o $(BUILD)/test_embed \
	  $(LUA_LIB) -pthread -ldl -lm
	GPUARRAY_BUILD=$(BUILD) $(BUILD)/test_embed
	@$(MAKE) --no-print-directory test-capi

# The C API (include/gpuarray.h): examples/embed hosts Lua 5.4 and hands
# the script a buffer of its own (cudaMalloc'ed on a GPU, host memory
# without one); spec/c/test_capi.c checks the API's edges.  Both are built
# with ASan+UBSan (the module itself is not: ASan runs in the host) and
# run by test-embed; spec/capi_spec.lua runs the example too.
EMBED_CFLAGS := -std=gnu99 -g -O1 -Wall -Wextra -I$(LUA_INCDIR) -Iinclude -I$(CUDA_DIR)/include
EMBED_LIBS := $(LUA_LIB) -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcudart -pthread -ldl -lm
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
examples: $(MODULE) $(BUILD)/embed

$(BUILD)/embed: examples/embed/embed.c include/gpuarray.h | $(BUILD)/obj
	$(CC) $(EMBED_CFLAGS) examples/embed/embed.c -o $@ $(EMBED_LIBS)

test-capi: $(MODULE) | $(BUILD)/obj
	$(CC) $(EMBED_CFLAGS) $(SAN) examples/embed/embed.c -o $(BUILD)/embed_asan $(EMBED_LIBS)
	$(CC) $(EMBED_CFLAGS) $(SAN) spec/c/test_capi.c -o $(BUILD)/test_capi $(EMBED_LIBS)
	ASAN_OPTIONS=detect_leaks=0:protect_shadow_gap=0 GPUARRAY_BUILD=$(BUILD) $(BUILD)/embed_asan
	ASAN_OPTIONS=detect_leaks=0:protect_shadow_gap=0 GPUARRAY_BUILD=$(BUILD) $(BUILD)/test_capi

# (the host's ElementwiseKernel needs the string buffer, the disk cache and
# the kernel texts it compiles as C++)
test-host-c: $(BUILD)/ga_kernels_embed.c | $(BUILD)/obj
	$(CC) -std=gnu99 -fwrapv -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	  -fno-omit-frame-pointer -Wall -Wextra -Isrc spec/c/test_host.c $(wildcard src/host/ga_host_*.c) src/base/ga_sort_key.c src/base/ga_pool.c \
	  src/base/ga_dtype.c src/base/ga_ops.c src/base/ga_error.c src/base/ga_strbuf.c src/base/ga_diskcache.c \
	  $(BUILD)/ga_kernels_embed.c $(BLAS_LIBS) -ldl -lm -pthread -o $(BUILD)/test_host
	$(BUILD)/test_host
	$(CC) -std=gnu99 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	  -Wall -Wextra -Isrc spec/c/test_fft.c src/host/ga_host_fft.c src/base/ga_error.c src/base/ga_dtype.c \
	  -lm -pthread -o $(BUILD)/test_fft
	$(BUILD)/test_fft

# The whole busted suite against a module built with AddressSanitizer and
# UBSan (host backend; the CUDA runtime's own allocations are not checked
# for leaks).
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
test-asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="$(ASAN_CFLAGS)" all
	LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  ASAN_OPTIONS=detect_leaks=0:protect_shadow_gap=0 GPUARRAY_MEM_DEBUG=1 \
	  $(LUA) $(BUSTED) --lua=$(LUA) --cpath="./build-asan/?.so" --exclude-tags=slow

# A Lua 5.4 interpreter with Lua's API checks and assertions on
# (LUA_USE_APICHECK, LUAI_ASSERT) and ASan+UBSan, from Debian's lua5.4
# source package (tools/fuzz/build_lua.sh fetches it with apt-get into
# $(BUILD)/lua-src; no root needed).
$(BUILD)/lua-checked: tools/fuzz/build_lua.sh
	sh tools/fuzz/build_lua.sh $@ $(CC)

# The Lua-level fuzzer (tools/fuzz/fuzz.lua) against the ASan+UBSan module,
# run by the checked interpreter, for FUZZ_SECONDS; SEED (default: the
# time) reproduces a run, FUZZ_SKIP lists families to leave out (comma
# separated; default: those of known bugs being fixed), FUZZ_ONLY runs only
# the listed families.  A crash prints the seed and the case.  Without the
# Debian source package it falls back to the stock lua5.4 with the sanitizer
# runtimes preloaded (no API checks), and says so.  ASan's hard_rss_limit_mb
# stops a case that eats memory (a report, not the machine's OOM killer).
FUZZ_SECONDS ?= 120
SEED ?=
FUZZ_SKIP ?= default
FUZZ_ONLY ?=
FUZZ_CASE ?=
fuzz: deps
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="$(ASAN_CFLAGS)" all
	@$(MAKE) --no-print-directory BUILD=build-asan build-asan/lua-checked || \
	  echo "fuzz: no checked interpreter (see above): stock $(LUA) with the sanitizers preloaded"
	@if [ -x build-asan/lua-checked ]; then interp=build-asan/lua-checked; pre=; \
	 else interp=$(LUA); pre="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)"; fi; \
	 LD_PRELOAD="$$pre" ASAN_OPTIONS=detect_leaks=0:protect_shadow_gap=0:hard_rss_limit_mb=4096 \
	   UBSAN_OPTIONS=print_stacktrace=1 GPUARRAY_MEM_DEBUG=1 \
	   LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="build-asan/?.so" \
	   FUZZ_SECONDS="$(FUZZ_SECONDS)" SEED="$(SEED)" FUZZ_SKIP="$(FUZZ_SKIP)" \
	   FUZZ_ONLY="$(FUZZ_ONLY)" FUZZ_CASE="$(FUZZ_CASE)" FUZZ_LOG=build-asan/fuzz.log \
	   sh tools/fuzz/run.sh $$interp
	@$(MAKE) --no-print-directory fuzz-files

# The file formats' parsers under libFuzzer (tools/fuzz/fuzz_npy_header.c,
# fuzz_zip_read.c), FUZZ_FILES_SECONDS each, seeded with the NumPy-written
# files of spec/data/npy.  Where clang's libFuzzer cannot build a harness
# (none installed, or clang < 15 without _Float16), gcc with ASan+UBSan and
# a random-mutation driver (tools/fuzz/fuzz_standalone.c; SEED replays).
FUZZ_FILES_SECONDS ?= 20
FUZZ_npy_header := src/base/ga_npy.c src/base/ga_dtype.c src/base/ga_error.c -lm
FUZZ_zip_read := src/base/ga_zip_read.c src/base/ga_error.c -lz
fuzz-files: | $(BUILD)/obj
	@for h in npy_header zip_read; do \
	  case $$h in npy_header) src="$(FUZZ_npy_header)"; seeds="spec/data/npy/*.npy";; \
	              *) src="$(FUZZ_zip_read)"; seeds="spec/data/npy/*.npz";; esac; \
	  if clang -std=gnu99 -g -O1 -fsanitize=fuzzer,address,undefined -Isrc tools/fuzz/fuzz_$$h.c $$src \
	       -o $(BUILD)/fuzz_$$h >/dev/null 2>&1; then \
	    rm -rf $(BUILD)/corpus_$$h && mkdir -p $(BUILD)/corpus_$$h && cp $$seeds $(BUILD)/corpus_$$h/ && \
	    echo "fuzz-files: $$h under libFuzzer for $(FUZZ_FILES_SECONDS) s" && \
	    $(BUILD)/fuzz_$$h -max_total_time=$(FUZZ_FILES_SECONDS) -rss_limit_mb=2048 -print_final_stats=0 \
	      $(BUILD)/corpus_$$h 2>$(BUILD)/fuzz_$$h.log || { tail -50 $(BUILD)/fuzz_$$h.log; exit 1; }; \
	  else \
	    $(CC) -std=gnu99 -g -O1 -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=all \
	      -fno-omit-frame-pointer -Isrc tools/fuzz/fuzz_standalone.c tools/fuzz/fuzz_$$h.c $$src \
	      -o $(BUILD)/fuzz_$$h || exit 1; \
	    echo "fuzz-files: $$h with the standalone driver (no libFuzzer)"; \
	    FUZZ_SECONDS=$(FUZZ_FILES_SECONDS) SEED="$(SEED)" $(BUILD)/fuzz_$$h $$seeds || exit 1; \
	  fi; \
	done

# bench/run.lua's JSON (compare with ../shared/bench/cupy_reference.py on
# the same machine); crossover: the CPU-vs-GPU sizes and crossover.svg
bench: all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) bench/run.lua

crossover: all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) bench/crossover.lua

demo: deps
	@$(MAKE) --no-print-directory all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) examples/first_program.lua

install: $(MODULE)
	mkdir -p $(INST_LIBDIR)/gpuarray $(INST_LUADIR)/gpuarray
	cp $(MODULE) $(INST_LIBDIR)/gpuarray/
	cp $(LUAFILES) $(INST_LUADIR)/gpuarray/
	mkdir -p $(INST_INCDIR)
	cp include/gpuarray.h $(INST_INCDIR)/

lint: check-cudnn-api
	luacheck lua spec examples bench
	sh tools/lint_layers.sh

# our cuDNN declarations (src/cuda/ga_cudnn_api.h) against cudnn.h, when installed
check-cudnn-api: | $(BUILD)/obj
	@if [ -f $(CUDA_DIR)/include/cudnn.h ]; then \
	  $(CC) -std=gnu99 -Wall -Wextra -Werror -Wno-deprecated-declarations -Isrc -I$(CUDA_DIR)/include \
	    tools/check_cudnn_api.c -o $(BUILD)/check_cudnn_api && $(BUILD)/check_cudnn_api; \
	else echo "check-cudnn-api: no $(CUDA_DIR)/include/cudnn.h, skipped"; fi

clean:
	rm -rf $(BUILD) build-asan
