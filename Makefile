# Build tools/perf/perf and its tests.  `make`, `make test`, `make demo`,
# `make format`.  Dependencies are installed by scripts/install-deps.sh.

CC ?= gcc
PKG_CONFIG ?= pkg-config
PKGS := libelf libdw libdebuginfod libtraceevent zlib
O := build

# Recursively expanded: pkg-config runs only once the packages are there.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS))

CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wformat=2
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARNINGS) $(CFLAGS) $(PKG_CFLAGS) -Itools/perf -MMD -MP
ALL_LDFLAGS = $(LDFLAGS)

PERF := tools/perf/perf

# `make SANITIZE=1` (and `make test SANITIZE=1`): AddressSanitizer, its leak
# checker and UndefinedBehaviorSanitizer, in build-san/ with its own perf, so
# the normal build is never overwritten by an instrumented one.
ifeq ($(SANITIZE),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
O := build-san
PERF := $(O)/perf
endif

UTIL_SRCS := $(sort $(wildcard tools/perf/util/*.c))
BUILTIN_SRCS := tools/perf/perf.c $(sort $(wildcard tools/perf/builtin-*.c))
UNIT_SRCS := $(sort $(wildcard tools/perf/tests/unit/test-*.c))

UTIL_OBJS := $(UTIL_SRCS:%.c=$(O)/%.o)
BUILTIN_OBJS := $(BUILTIN_SRCS:%.c=$(O)/%.o)
UNIT_BINS := $(UNIT_SRCS:tools/perf/tests/unit/%.c=$(O)/tests/%)

DEPS_STAMP := $(O)/.deps-ok

.PHONY: all deps test unit-tests demo format clean fuzz bench
all: $(PERF)

$(DEPS_STAMP): scripts/install-deps.sh
	@sh scripts/install-deps.sh
	@mkdir -p $(@D) && touch $@

deps: $(DEPS_STAMP)

$(O)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/libperf-util.a: $(UTIL_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(PERF): $(BUILTIN_OBJS) $(O)/libperf-util.a
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(O)/tests/%: tools/perf/tests/unit/%.c $(O)/libperf-util.a | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(O)/libperf-util.a $(PKG_LIBS)

unit-tests: $(UNIT_BINS)

test: $(PERF) $(UNIT_BINS)
	@sh scripts/install-deps.sh --test
	@O=$(O) PERF_BIN=$(abspath $(PERF)) SANITIZE=$(SANITIZE) sh tools/perf/tests/run.sh

# libFuzzer targets: `make fuzz [FUZZ_SECONDS=N]` runs each N seconds.
# The table of targets: NAME is tools/perf/tests/fuzz/fuzz-NAME.c with its
# seeds in tools/perf/tests/fuzz/corpus/NAME/.  Add new ones here.
FUZZ_TARGETS := \
	probe-spec \
	probe-trace \
	probe-cache \
	build-id \
	config \
	strfilter \
	sdt-arg \
	bundle

FUZZ_SECONDS ?= 20
FUZZ_CC ?= clang-14
FUZZ_O := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARNINGS) -O1 -g $(FUZZ_SAN) $(PKG_CFLAGS) \
	-Itools/perf -MMD -MP
FUZZ_UTIL_OBJS := $(UTIL_SRCS:%.c=$(FUZZ_O)/%.o)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_O)/fuzz-%)

$(FUZZ_O)/.deps-ok: scripts/install-deps.sh
	@sh scripts/install-deps.sh --fuzz
	@mkdir -p $(@D) && touch $@

$(FUZZ_O)/%.o: %.c | $(FUZZ_O)/.deps-ok
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_O)/libperf-util.a: $(FUZZ_UTIL_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_O)/fuzz-%: tools/perf/tests/fuzz/fuzz-%.c $(FUZZ_O)/libperf-util.a | $(FUZZ_O)/.deps-ok
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_O)/libperf-util.a $(PKG_LIBS)

fuzz: $(FUZZ_BINS)
	@sh tools/perf/tests/fuzz/run.sh $(FUZZ_O) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

demo: $(PERF)
	@sh examples/demo.sh

format:
	clang-format -i $(UTIL_SRCS) $(BUILTIN_SRCS) $(UNIT_SRCS) \
		$(wildcard tools/perf/tests/fuzz/*.[ch]) \
		$(wildcard tools/perf/*.h tools/perf/util/*.h tools/perf/tests/unit/*.h)

clean:
	rm -rf build build-san build-fuzz tools/perf/perf

-include $(shell find $(O) $(FUZZ_O) -name '*.d' 2>/dev/null)

bench: $(PERF)
	@sh scripts/install-deps.sh --bench
	@sh bench/run.sh
