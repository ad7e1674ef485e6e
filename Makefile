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

.PHONY: all deps test unit-tests demo format clean
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

demo: $(PERF)
	@sh examples/demo.sh

format:
	clang-format -i $(UTIL_SRCS) $(BUILTIN_SRCS) $(UNIT_SRCS) \
		$(wildcard tools/perf/*.h tools/perf/util/*.h tools/perf/tests/unit/*.h)

clean:
	rm -rf build build-san $(PERF)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
