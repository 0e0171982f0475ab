# animrt — build, test, demo, bench, install.
#   make demo    builds libanimrt.so and runs the C demo in the terminal
#   make test    runs every test suite (Swift, C ABI, Python binding)
#   make bench   runs the benchmarks (batch tick vs a hand-written C loop, ABI costs)
#   make install PREFIX=/usr/local

SWIFT      ?= swift
CC         ?= cc
CXX        ?= c++
PYTHON     ?= python3
PREFIX     ?= /usr/local
BUILD      := .build
CONFIG     ?= release
SWIFTFLAGS := -c $(CONFIG) -Xswiftc -enforce-exclusivity=unchecked
LIBDIR      = $(shell $(SWIFT) build $(SWIFTFLAGS) --show-bin-path)
OUT        := $(BUILD)/animrt-c
CWARN      := -std=c99 -Wall -Wextra -Werror -pedantic

.PHONY: all lib test test-swift test-c test-python demo bench install clean check-tools

all: lib

check-tools:
	@command -v $(SWIFT) >/dev/null || { echo "animrt needs the Swift toolchain (swift) on PATH"; exit 1; }
	@command -v $(CC) >/dev/null || { echo "animrt needs a C compiler: apt-get install -y gcc"; exit 1; }

lib: check-tools
	$(SWIFT) build $(SWIFTFLAGS) --product animrt

test: test-swift

test-swift: check-tools
	$(SWIFT) test

demo: lib
	@echo "demo: the C demo arrives with the C ABI"

bench: check-tools
	@mkdir -p $(BUILD)
	$(CC) -O2 -o $(BUILD)/reference_eval bench/reference_eval.c -lm
	$(SWIFT) build $(SWIFTFLAGS) --product animrt-bench
	$(LIBDIR)/animrt-bench $(BUILD)/reference_eval

clean:
	rm -rf $(BUILD)
