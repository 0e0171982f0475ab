# animrt — build, test, demo, bench, install.
#   make demo     build libanimrt.so and run the C demo in the terminal: the four shipped machines,
#                 then the example plugin's like button
#   make test     run every test suite: Swift core, C ABI (also against a library
#                 built with ASan, and a minute of fuzzing), Python binding
#   make fuzz     fuzz the C ABI for FUZZ_SECONDS (default 600) with libFuzzer
#   make tsan     four threads, 240 000 calls on one runtime (animations, machines, plugins), and the C tests,
#                 under ThreadSanitizer
#   make bench    benchmarks: batch tick vs a hand-written C loop, ABI, plugin and Python costs
#   make curves   redraw docs/curves.svg (timing functions and springs) from the library
#   make coverage line and region coverage of the library from every suite (tools/coverage.py)
#   make mutate   mutation testing: break the code on purpose, count what the tests catch (tools/mutate.py)
#   make install PREFIX=/usr/local
#
# Needs the Swift toolchain (its clang builds the sanitized programs), a C
# compiler, python3 and libffi (libffi-dev, found with pkg-config; installed
# with apt-get when run as root); pytest, mypy and numpy are installed with
# pip when missing.

SHELL      := bash
SWIFT      ?= swift
CC         ?= cc
CXX        ?= c++
PYTHON     ?= python3
PREFIX     ?= /usr/local
VERSION    := $(shell sed -n 's/^\#define ANIMRT_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)/\2/p' include/animrt.h | paste -sd.)
BUILD      := .build
SWIFTFLAGS := -c release
LIBDIR     := $(BUILD)/release
LIB        := $(LIBDIR)/libanimrt.so
OUT        := $(BUILD)/c
CWARN      := -std=c99 -Wall -Wextra -Werror -pedantic
CLINK      := -L$(LIBDIR) -lanimrt -Wl,-rpath,$(abspath $(LIBDIR)) -lm
# The C test programs in bindings/c/tests: test-c runs each against the
# library, test-asan each (and the chaos test) against the library built with ASan.
C_TESTS    := test_abi test_functions test_bad_input test_settling_transactions test_reliability test_machines \
              test_shipped_machines test_timing test_traces test_bulk

# Sanitized builds. The library itself is instrumented: ASan (with libFuzzer's
# coverage, so one build serves the tests and the fuzzer) or TSan. Swift has
# no UBSan; its own overflow and bounds checks trap instead, and the C
# programs are built with -fsanitize=undefined. The programs use the Swift
# toolchain's clang, whose sanitizer runtimes match the library's.
SANCC      ?= $(dir $(shell command -v $(SWIFT) 2>/dev/null))clang
ASANDIR    := $(BUILD)/asan/release
ASANLIB    := $(ASANDIR)/libanimrt.so
TSANDIR    := $(BUILD)/tsan/release
# The toolchain's TSan runtime intercepts libdispatch, so TSan programs link it.
SWIFTRT    := $(abspath $(dir $(shell command -v $(SWIFT) 2>/dev/null))../lib/swift/linux)
TSANLINK   := -L$(TSANDIR) -lanimrt -Wl,-rpath,$(abspath $(TSANDIR)) -L$(SWIFTRT) -ldispatch -lBlocksRuntime \
              -Wl,-rpath,$(SWIFTRT) -lm -lpthread
SANFLAGS   := -std=c99 -g -fno-omit-frame-pointer -fno-sanitize-recover=all -fuse-ld=lld -D_POSIX_C_SOURCE=200809L -Iinclude -Ibindings/c/tests
ASANLINK   := -L$(ASANDIR) -lanimrt -Wl,-rpath,$(abspath $(ASANDIR)) -lm -lpthread
ASANRUN    := ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 SWIFT_BACKTRACE=enable=no
FUZZ_SECONDS ?= 600
FUZZ_TEST_SECONDS ?= 60
FUZZ       := $(BUILD)/fuzz

.PHONY: all lib lib-asan test test-swift test-c test-asan test-fuzz test-python demo bench install clean tools python-deps fuzz tsan \
        machine-docs curves plugins coverage mutate

# Machine definitions whose pages, diagrams and tables live in docs/machines/.
MACHINE_DEFS := examples/machines/download_button.json $(wildcard Sources/StateMachines/Library/*.json)

all: lib

tools:
	@command -v $(SWIFT) >/dev/null || { echo "animrt needs the Swift toolchain: put swift on PATH (it is in /opt/swift/usr/bin here)"; exit 1; }
	@command -v $(CC) >/dev/null || { echo "animrt needs a C compiler: apt-get install -y gcc"; exit 1; }
	@command -v $(PYTHON) >/dev/null || { echo "animrt needs python3: apt-get install -y python3"; exit 1; }
	@pkg-config --exists libffi 2>/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	    && apt-get install -y -q pkg-config libffi-dev >/dev/null && pkg-config --exists libffi; } \
	    || { echo "animrt needs libffi and pkg-config: apt-get install -y pkg-config libffi-dev"; exit 1; }

lib: tools $(BUILD)/header.stamp
	$(SWIFT) build $(SWIFTFLAGS) --product animrt

# Swift does not see a change to the header its CAnimrt module maps (the
# macros the exports and plugins read, the version among them): a newer
# header touches the sources that import it, so that they are compiled again.
$(BUILD)/header.stamp: include/animrt.h
	@mkdir -p $(BUILD)
	@touch $$(grep -rl "import CAnimrt" Sources) && touch $@

# ---- plugins ----------------------------------------------------------------

# The example plugin, and the faulty variants the error tests load.
FAULTY := old:-DABI=0 new:-DABI=2 init:-DFAIL_INIT duplicate:-DDUPLICATE='"easeIn"' again:-DDUPLICATE='"halfway"' clash:-DDUPLICATE='"bounce"' againfunction:-DDUPLICATE_FUNCTION duplicate_block:-DDUPLICATE_BLOCK='"easeOut"' \
          definition:-DBAD_DEFINITION noentry:-DNO_ENTRY empty:-DEMPTY keep:-DKEEP_REGISTRAR function:-DENTRY_FUNCTION \
          threaded:-DTHREADED_INIT nameless:-DNAME_NULL longname:-DNAME_LONG badname:-DNAME_NOT_UTF8 \
          emptyname:-DNAME_EMPTY versionless:-DVERSION_NULL longversion:-DVERSION_LONG badversion:-DVERSION_NOT_UTF8 \
          emptyversion:-DVERSION_EMPTY short:-DSHORT_ENTRY longest:-DLONGEST definitionname:-DDEFINITION_NAME uses:-DUSES_EXAMPLES \
          ignores:-DIGNORES_FAILURES api:-DHOST_API undefined:-DUNDEFINED callsanimrt:-DCALLS_ANIMRT silent:-DSILENT \
          chdir:-DCHDIR_ON_LOAD noinit:-DNO_INIT nullregistrar:-DNULL_REGISTRAR \
          finiignores:-DFINI_AFTER_FAILURES finifails:-DFINI_AFTER_FAIL_INIT finirefused:-DFINI_AFTER_REFUSAL finiorder:-DFINI_ORDER \
          reentrant:-DREENTRANT
PLUGIN_CFLAGS := $(CWARN) -O2 -shared -fPIC -fvisibility=hidden -Iinclude
# The example plugin as a performance-minded author builds it: -O3 and no
# trapping math let the compiler vectorise its block curves' loops (their
# selects become blends; results are the same to the bit).
EXAMPLE_CFLAGS := $(PLUGIN_CFLAGS) -O3 -fno-trapping-math

plugins: tools
	@mkdir -p $(OUT)
	$(CC) $(EXAMPLE_CFLAGS) examples/plugins/examples.c -o $(OUT)/libexamples.so -lm
	@for v in $(FAULTY); do \
	    $(CC) $(PLUGIN_CFLAGS) "$${v#*:}" bindings/c/tests/plugins/faulty.c -o $(OUT)/libfaulty_$${v%%:*}.so || exit 1; done
	$(CC) $(PLUGIN_CFLAGS) -DNO_ENTRY -DDEPENDS_ON_EXAMPLES bindings/c/tests/plugins/faulty.c -o $(OUT)/libfaulty_dependent.so \
	    -L$(OUT) -Wl,--no-as-needed -lexamples -Wl,-rpath,'$$ORIGIN'
	@echo "plugins: $(OUT)/libexamples.so (the example plugin) and $(words $(FAULTY) dependent) faulty variants for the error tests"

# ---- tests ------------------------------------------------------------------

test: test-swift test-c test-asan test-fuzz test-python
	$(PYTHON) tools/mutate.py --check
	@echo "all suites passed"

test-swift: tools $(BUILD)/header.stamp
	$(SWIFT) test

test-c: lib plugins
	@mkdir -p $(OUT)
	$(CC) $(CWARN) -Iinclude -c bindings/c/tests/header_c99.c -o $(OUT)/header_c99.o
	$(CXX) -std=c++17 -Wall -Wextra -Wpedantic -Werror -Iinclude bindings/c/tests/header_cpp.cpp $(CLINK) -o $(OUT)/header_cpp && $(OUT)/header_cpp
	bindings/c/tests/check_symbols.sh $(LIB) include/animrt.h
	bindings/c/tests/check_headless.sh $(LIB)
	$(PYTHON) bindings/c/tests/check_calls.py include/animrt.h bindings/c/tests
	@for t in $(C_TESTS); do \
	    echo "$$t"; \
	    $(CC) $(CWARN) -D_POSIX_C_SOURCE=200809L -Iinclude -Ibindings/c/tests bindings/c/tests/$$t.c $(CLINK) -lpthread \
	        -o $(OUT)/$$t && $(OUT)/$$t || exit 1; \
	done
	$(CC) $(CWARN) -D_POSIX_C_SOURCE=200809L -Iinclude -Ibindings/c/tests bindings/c/tests/test_plugins.c $(CLINK) -o $(OUT)/test_plugins
	$(OUT)/test_plugins $(OUT)
	@echo "stress_threads: four threads on one runtime, recorded as a trace and replayed (make tsan runs more, under TSan)"
	$(CC) $(CWARN) -D_POSIX_C_SOURCE=200809L -Iinclude bindings/c/tests/stress_threads.c $(CLINK) -lpthread -ldl -o $(OUT)/stress_threads
	$(OUT)/stress_threads 10000 $(OUT) $(OUT)/stress.trace
	$(PYTHON) tools/readme_examples.py c $(OUT) "$(CC) $(CWARN) -Iinclude" "$(CLINK)"
	$(PYTHON) tools/readme_examples.py plugin $(OUT) "$(CC) $(CWARN) -Iinclude" "$(CLINK)"
	@echo "demo (R5.3): the shipped machines driven from C"
	$(CC) $(CWARN) -D_DEFAULT_SOURCE -Iinclude bindings/c/demo.c $(CLINK) -o $(OUT)/demo
	$(OUT)/demo --plugin $(OUT)/libexamples.so > $(OUT)/demo.txt && tail -n 1 $(OUT)/demo.txt | grep -q "finished after" \
	    && grep -q "locked" $(OUT)/demo.txt && $(OUT)/demo --svg $(OUT)/demo.svg \
	    && $(PYTHON) -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); n = len(r.findall('{http://www.w3.org/2000/svg}g')); assert n >= 10, n; print(f'demo: ran, and its SVG filmstrip parses ({n} frames)'); print('1 passed, 0 failed')" $(OUT)/demo.svg
	$(CC) $(CWARN) -Iinclude tools/machine_docs.c $(CLINK) -o $(OUT)/machine_docs
	$(OUT)/machine_docs --check docs/machines $(MACHINE_DEFS)
	$(PYTHON) tools/check_trace_calls.py
	rm -rf $(OUT)/prefix && $(MAKE) --no-print-directory install PREFIX=$(abspath $(OUT)/prefix) >/dev/null
	$(CC) $(CWARN) bindings/c/tests/header_c99.c -o $(OUT)/pkgconfig_check \
	    $$(PKG_CONFIG_PATH=$(abspath $(OUT)/prefix)/lib/pkgconfig pkg-config --cflags --libs animrt) && $(OUT)/pkgconfig_check
	@echo "installed copy: a program built with pkg-config --cflags --libs animrt runs"
	$(CC) $(CWARN) -D_DEFAULT_SOURCE bindings/c/demo.c -o $(OUT)/demo_installed \
	    $$(PKG_CONFIG_PATH=$(abspath $(OUT)/prefix)/lib/pkgconfig pkg-config --cflags --libs animrt) -lm
	cd /tmp && $(abspath $(OUT))/demo_installed | tail -n 1 | grep -q "finished after"
	@echo "installed copy: the demo runs from another folder, its four machines loaded by name from the library alone"

# The library built with ASan and libFuzzer's coverage (release optimisation).
lib-asan: tools $(BUILD)/header.stamp
	$(SWIFT) build $(SWIFTFLAGS) --product animrt --sanitize=address --scratch-path $(BUILD)/asan \
	    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp

# The C ABI, chaos and reliability tests against the instrumented library.
# The first check proves the library really is instrumented.
test-asan: lib-asan plugins
	@mkdir -p $(OUT)
	@nm -D $(ASANLIB) | grep -q __asan_report_store8 \
	    || { echo "$(ASANLIB) is not instrumented by ASan"; exit 1; }
	@echo "libanimrt.so under test is built with -sanitize=address"
	@for t in $(C_TESTS) test_chaos; do \
	    echo "$$t against the ASan library"; \
	    $(SANCC) $(SANFLAGS) -fsanitize=address,undefined bindings/c/tests/$$t.c $(ASANLINK) -o $(OUT)/$${t}_asan \
	        && $(ASANRUN) $(OUT)/$${t}_asan || exit 1; \
	done
	$(SANCC) $(SANFLAGS) -fsanitize=address,undefined bindings/c/tests/test_plugins.c $(ASANLINK) -o $(OUT)/test_plugins_asan
	$(ASANRUN) $(OUT)/test_plugins_asan $(OUT)

$(FUZZ)/fuzz_abi: bindings/c/fuzz/fuzz_abi.c include/animrt.h lib-asan
	@mkdir -p $(FUZZ)/corpus
	$(SANCC) $(SANFLAGS) -fsanitize=fuzzer,address,undefined bindings/c/fuzz/fuzz_abi.c $(ASANLINK) -o $@

# libFuzzer over programs of ABI calls; new inputs go to .build/fuzz/corpus,
# the seeds in bindings/c/fuzz/corpus are read, never written.
FUZZRUN = $(ASANRUN) $(FUZZ)/fuzz_abi -timeout=20 -rss_limit_mb=3072 -max_len=4096 -print_final_stats=1 \
	    $(FUZZ)/corpus bindings/c/fuzz/corpus

test-fuzz: $(FUZZ)/fuzz_abi
	$(FUZZRUN) -max_total_time=$(FUZZ_TEST_SECONDS) 2>&1 | grep -E "^(fuzz_abi|stat::|Done|INFO: (Seed|Loaded))|ERROR|broken promise|SUMMARY" ; \
	    test $${PIPESTATUS[0]} -eq 0
	@echo "1 passed, 0 failed"

fuzz: $(FUZZ)/fuzz_abi
	$(FUZZRUN) -max_total_time=$(FUZZ_SECONDS)

# A batch split across evaluation threads (bit-identical to one thread), then
# four threads, 240 000 calls, one runtime, callbacks on: animations and
# machines, host functions and plugins together (TSAN_CALLS: calls per
# thread). Then a shorter run recorded as a trace, which must replay into a
# fresh runtime. Then every C test program (the delivery rules with real
# threads, batch workers calling the host's curves, a plugin registering
# from its own threads) against the same library. The lock is a pthread mutex TSan sees; nothing is suppressed.
tsan: tools plugins
	$(SWIFT) build $(SWIFTFLAGS) --product animrt --sanitize=thread --scratch-path $(BUILD)/tsan
	@nm -D $(TSANDIR)/libanimrt.so | grep -q __tsan_write8 || { echo "the library is not instrumented by TSan"; exit 1; }
	@mkdir -p $(OUT)
	$(SANCC) $(SANFLAGS) -fsanitize=thread bindings/c/tests/stress_threads.c $(TSANLINK) -o $(OUT)/stress_tsan
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 $(OUT)/stress_tsan $(or $(TSAN_CALLS),60000) $(OUT)
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 $(OUT)/stress_tsan 4000 $(OUT) $(OUT)/stress.trace
	@for t in $(C_TESTS) test_chaos test_plugins; do \
	    echo "$$t against the TSan library"; \
	    $(SANCC) $(SANFLAGS) -fsanitize=thread bindings/c/tests/$$t.c $(TSANLINK) -o $(OUT)/$${t}_tsan \
	        && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 $(OUT)/$${t}_tsan $(OUT) || exit 1; \
	done

# The other CPython versions test-python runs the binding's tests under (all but the wheel builds
# of test_install.py; see tools/python_versions.py), each found as pythonX.Y on PATH or in pyenv.
# A version that is not there, or whose packages pip cannot install, is named and passed over. PYTHON_VERSIONS= leaves them all out.
PYTHON_VERSIONS ?= 3.9 3.10 3.11 3.12 3.13 3.14

python-deps:
	@$(PYTHON) -c "import pytest, mypy, numpy" 2>/dev/null || $(PYTHON) -m pip install -q pytest mypy numpy \
	    || { echo "the Python tests need pytest, mypy and numpy: $(PYTHON) -m pip install pytest mypy numpy"; exit 1; }

test-python: lib plugins python-deps
	ANIMRT_LIBRARY=$(abspath $(LIB)) ANIMRT_PLUGIN_DIR=$(abspath $(OUT)) $(PYTHON) -m pytest -q bindings/python/tests
	ANIMRT_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python/src $(PYTHON) tools/readme_examples.py python
	ANIMRT_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python/src $(PYTHON) tools/readme_examples.py python bindings/python/README.md
	@mkdir -p $(OUT)
	ANIMRT_LIBRARY=$(abspath $(LIB)) $(PYTHON) tools/tutorial.py $(OUT) "$(CC) $(CWARN) -Iinclude" "$(CLINK)"
	ANIMRT_LIBRARY=$(abspath $(LIB)) $(PYTHON) tools/plot_curves.py --check docs/curves.svg
	ANIMRT_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python/src $(PYTHON) examples/progress_card.py --svg $(OUT)/progress_card.svg
	$(PYTHON) -c "import sys, xml.etree.ElementTree as E; n = len(E.parse(sys.argv[1]).getroot().findall('{http://www.w3.org/2000/svg}g')); assert n >= 10, n; print(f'examples/progress_card.py: ran, and its SVG filmstrip parses ({n} frames)')" $(OUT)/progress_card.svg
	PYTHONPATH=bindings/python/src $(PYTHON) -m mypy --strict examples/progress_card.py
	ANIMRT_LIBRARY=$(abspath $(LIB)) ANIMRT_PLUGIN_DIR=$(abspath $(OUT)) $(PYTHON) tools/python_versions.py $(PYTHON_VERSIONS)

curves: lib
	ANIMRT_LIBRARY=$(abspath $(LIB)) $(PYTHON) tools/plot_curves.py docs/curves.svg

# ---- measuring the tests ----------------------------------------------------

coverage: tools python-deps
	$(PYTHON) tools/coverage.py

# MUTATE_ARGS: e.g. --only core-fill-raw-values, --list, --jobs 1
mutate: tools python-deps
	$(PYTHON) tools/mutate.py $(MUTATE_ARGS)

# ---- demo, bench, install ---------------------------------------------------

demo: lib plugins
	@mkdir -p $(OUT)
	$(CC) $(CWARN) -D_DEFAULT_SOURCE -Iinclude bindings/c/demo.c $(CLINK) -o $(OUT)/demo
	$(OUT)/demo --plugin $(OUT)/libexamples.so

bench: lib plugins
	@mkdir -p $(BUILD)
	$(CC) -O2 -o $(BUILD)/reference_eval bench/reference_eval.c -lm
	$(CC) -O3 -march=native -o $(BUILD)/reference_eval_native bench/reference_eval.c -lm
	$(CC) -O2 -Iinclude -o $(BUILD)/abi_bench bench/abi_bench.c $(CLINK)
	$(SWIFT) build $(SWIFTFLAGS) --product animrt-bench
	$(LIBDIR)/animrt-bench $(BUILD)/reference_eval $(BUILD)/abi_bench $(BUILD)/reference_eval_native
	$(CC) -O2 -Iinclude -o $(BUILD)/machine_bench bench/machine_bench.c $(CLINK)
	$(BUILD)/machine_bench send
	$(BUILD)/machine_bench idle
	$(BUILD)/machine_bench spin
	$(BUILD)/machine_bench load
	$(CC) -O2 -Iinclude $$(pkg-config --cflags libffi) -o $(BUILD)/plugin_bench bench/plugin_bench.c $(CLINK) \
	    $$(pkg-config --libs libffi) -ldl
	$(BUILD)/plugin_bench $(OUT)/libexamples.so
	@$(PYTHON) -c "import numpy" 2>/dev/null || $(PYTHON) -m pip install -q numpy \
	    || echo "(numpy could not be installed: the numpy comparison is left out)"
	ANIMRT_LIBRARY=$(abspath $(LIB)) $(PYTHON) bench/python_bench.py

machine-docs: lib
	@mkdir -p $(OUT) docs/machines
	$(CC) $(CWARN) -Iinclude tools/machine_docs.c $(CLINK) -o $(OUT)/machine_docs
	$(OUT)/machine_docs docs/machines $(MACHINE_DEFS)
	@if command -v dot >/dev/null; then for f in docs/machines/*.dot; do dot -Tsvg $$f -o $${f%.dot}.svg && echo "rendered $${f%.dot}.svg"; done; \
	else echo "graphviz is not installed (apt-get install -y graphviz): the .svg diagrams were not rendered"; fi

install: lib
	install -d $(PREFIX)/lib/pkgconfig $(PREFIX)/include
	install -m 755 $(LIB) $(PREFIX)/lib/libanimrt.so
	install -m 644 include/animrt.h $(PREFIX)/include/animrt.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' bindings/c/animrt.pc.in > $(PREFIX)/lib/pkgconfig/animrt.pc

clean:
	rm -rf $(BUILD)
