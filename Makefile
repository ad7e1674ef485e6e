# Build tools/perf/perf and its tests.  `make`, `make test`, `make demo`,
# `make format`.  A plain `make` never installs anything: it checks the
# libraries with pkg-config and names the Debian package of a missing one.
# `make deps` installs the build packages (scripts/install-deps.sh); the
# targets that run something (test, demo, bench, fuzz, check-format,
# shellcheck) install what they need themselves, build packages included.
# `make install [PREFIX=/usr/local] [DESTDIR=]` installs the binary, the man
# pages (made with asciidoctor, which it installs), the bash completion and
# the docs; `make uninstall` removes exactly what it installed.

CC ?= gcc
PKG_CONFIG ?= pkg-config
# The pkg-config module and the Debian package of each library.
BUILD_LIBS := libelf:libelf-dev libdw:libdw-dev libdebuginfod:libdebuginfod-dev \
	libtraceevent:libtraceevent-dev zlib:zlib1g-dev capstone:libcapstone-dev \
	libbpf:libbpf-dev liblzma:liblzma-dev libzstd:libzstd-dev libisal:libisal-dev
PKGS := $(foreach l,$(BUILD_LIBS),$(firstword $(subst :, ,$(l))))
O := build

# Recursively expanded: pkg-config runs only once the packages are there.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
# libiberty (the demangler) has no pkg-config module: a static library.
# capstone, libbpf and libtraceevent are not linked: insn.c, btf.c and
# builtin-trace.c dlopen() them by the SONAME of the installed library when
# a command first needs them, so the commands that never decode code, read
# BTF or print trace events do not load them at start-up.
# libisal (ISA-L, which inflates twice as fast as zlib) likewise: only a
# command opening compressed DWARF loads it (lazy-section.c).
DLOPEN_PKGS := capstone libbpf libtraceevent libdebuginfod libisal
# libdw, libelf and the compression libraries under them are linked
# statically when their archives are installed (libdw-dev, libelf-dev,
# zlib1g-dev and liblzma-dev ship them; libbz2-dev for libbz2.a): the
# loader then maps libc only, and a cached add starts in 1.5-1.8 ms
# instead of 2.1-2.3 ms (an empty C program: 1.0-1.1 ms; bench/README.md).
# `make STATIC_ELFUTILS=0` links them as shared objects.  liblzma is also
# ours: minidebuginfo.c decompresses MiniDebugInfo (.gnu_debugdata) with it.
STATIC_ELFUTILS ?= 1
have_archive = $(filter /%,$(shell $(CC) -print-file-name=lib$(1).a 2>/dev/null))
ELFUTILS_STATIC = $(and $(filter 1,$(STATIC_ELFUTILS)),$(call have_archive,dw),\
	$(call have_archive,elf),$(call have_archive,z),$(call have_archive,lzma),\
	$(call have_archive,zstd))
# --wrap=elf_compress: libdw's inflation of a compressed section comes to
# lazy-section.c, which inflates a large one a page at a time.
ELFUTILS_STATIC_LIBS = -Wl,--wrap=elf_compress -Wl,-Bstatic -ldw -lelf $(if $(call have_archive,bz2),-lbz2) -llzma -lz -lzstd \
	-Wl,-Bdynamic $(if $(call have_archive,bz2),,-lbz2)
ELFUTILS_LIBS = $(if $(ELFUTILS_STATIC),$(ELFUTILS_STATIC_LIBS),\
	$(shell $(PKG_CONFIG) --libs libdw libelf zlib liblzma libzstd))
LINKED_PKGS = $(filter-out $(DLOPEN_PKGS) libdw libelf zlib liblzma libzstd,$(PKGS))
PKG_LIBS = $(ELFUTILS_LIBS) $(if $(LINKED_PKGS),$(shell $(PKG_CONFIG) --libs $(LINKED_PKGS))) \
	-liberty -ldl
# The unit tests and fuzz targets call some of them directly
# (test-trace-fields, fuzz-trace-fields: libtraceevent).
TEST_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS)) -liberty -ldl
# The SONAME of lib$(2).so in pkg-config module $(1)'s libdir, or empty.
soname = $(shell objdump -p "$$($(PKG_CONFIG) --variable=libdir $(1))/lib$(2).so" 2>/dev/null | \
	sed -n 's/^ *SONAME *//p')
SONAME_FLAGS = $(foreach d,LIBBPF:libbpf:bpf CAPSTONE:capstone:capstone TRACEEVENT:libtraceevent:traceevent \
	ISAL:libisal:isal,$(call soname_flag,$(subst :, ,$(d))))
soname_flag = $(if $(call soname,$(word 2,$(1)),$(word 3,$(1))),\
	-D$(word 1,$(1))_SONAME='"$(call soname,$(word 2,$(1)),$(word 3,$(1)))"')

CFLAGS ?= -O2 -g
# `make WERROR=0`: warnings stay warnings (a newer compiler finds new ones).
WERROR ?= 1
WARNINGS := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wno-unused-parameter -Wshadow \
	-Wformat=2
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARNINGS) $(CFLAGS) $(PKG_CFLAGS) -Itools/perf -MMD -MP
$(O)/tools/perf/util/btf.o $(O)/tools/perf/util/insn.o $(O)/tools/perf/builtin-trace.o \
	$(O)/tools/perf/util/lazy-section.o: \
	ALL_CFLAGS += $(SONAME_FLAGS)
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
# Writes UBSan's reports where UBSAN_OPTIONS' log_path says (GCC's UBSan
# beside ASan ignores it), so tests/run.sh sees them.
SAN_OBJS := $(O)/tools/perf/tests/sanitizer-report.o
endif

UTIL_SRCS := $(sort $(wildcard tools/perf/util/*.c))
BUILTIN_SRCS := tools/perf/perf.c $(sort $(wildcard tools/perf/builtin-*.c))
UNIT_SRCS := $(sort $(wildcard tools/perf/tests/unit/test-*.c))

UTIL_OBJS := $(UTIL_SRCS:%.c=$(O)/%.o)
BUILTIN_OBJS := $(BUILTIN_SRCS:%.c=$(O)/%.o)
UNIT_BINS := $(UNIT_SRCS:tools/perf/tests/unit/%.c=$(O)/tests/%)

.PHONY: all deps build-deps test unit-tests demo format check-format shellcheck clean fuzz bench \
	man install uninstall
all: $(PERF)

# Every compile waits for build-deps.  For a plain `make` it only checks, and
# stops with one line naming what to install; the goals that set a machine
# up (test, demo, bench, fuzz) install their packages, build ones included,
# before the first compile.
INSTALL_FOR := $(filter test demo bench fuzz install man,$(MAKECMDGOALS))
build-deps:
ifneq ($(INSTALL_FOR),)
	@sh scripts/install-deps.sh $(patsubst --man,--install,$(INSTALL_FOR:%=--%))
else
	@command -v $(firstword $(CC)) >/dev/null || \
		{ echo "make: no C compiler '$(CC)': apt-get install build-essential, or run \`make deps\`" >&2; exit 1; }
	@command -v $(PKG_CONFIG) >/dev/null || \
		{ echo "make: no $(PKG_CONFIG): apt-get install pkg-config, or run \`make deps\`" >&2; exit 1; }
	@missing=; for l in $(BUILD_LIBS); do \
		$(PKG_CONFIG) --exists $${l%%:*} || missing="$$missing $${l#*:}"; \
	done; \
	[ -f /usr/include/libiberty/demangle.h ] || missing="$$missing libiberty-dev"; \
	[ -z "$$missing" ] || { echo "make: missing libraries: apt-get install$$missing, or run \`make deps\`" >&2; exit 1; }
endif

deps:
	@sh scripts/install-deps.sh

$(O)/%.o: %.c | build-deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/libperf-util.a: $(UTIL_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(PERF): $(BUILTIN_OBJS) $(O)/libperf-util.a $(SAN_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(O)/tests/%: tools/perf/tests/unit/%.c $(O)/libperf-util.a $(SAN_OBJS) | build-deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(O)/libperf-util.a $(SAN_OBJS) $(TEST_LIBS)

unit-tests: $(UNIT_BINS)

# build-deps installs the test packages (install-deps --test) even when
# everything is built already.
test: build-deps $(PERF) $(UNIT_BINS)
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
	bundle \
	embed \
	elf \
	sdt-note \
	dwarf \
	kallsyms \
	trace-fields \
	tracepoint \
	kprobe-blacklist \
	mounts \
	tracefs \
	parse-options \
	inflate

FUZZ_SECONDS ?= 20
FUZZ_CC ?= clang-14
FUZZ_O := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARNINGS) -O1 -g $(FUZZ_SAN) $(PKG_CFLAGS) \
	-Itools/perf -MMD -MP
FUZZ_UTIL_OBJS := $(UTIL_SRCS:%.c=$(FUZZ_O)/%.o)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_O)/fuzz-%)

$(FUZZ_O)/%.o: %.c | build-deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_O)/libperf-util.a: $(FUZZ_UTIL_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_O)/fuzz-%: tools/perf/tests/fuzz/fuzz-%.c $(FUZZ_O)/libperf-util.a | build-deps
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_O)/libperf-util.a $(TEST_LIBS)

fuzz: build-deps $(FUZZ_BINS)
	@sh tools/perf/tests/fuzz/run.sh $(FUZZ_O) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The man pages: one per Documentation/*.txt, by asciidoctor (any warning
# fails), with perf's linkperf:NAME[N] links as NAME(N).
PREFIX ?= /usr/local
PERF_VERSION = $(shell sed -n 's/^\#define PERF_VERSION "\(.*\)"/\1/p' tools/perf/perf.c)
MAN_TXT := $(sort $(wildcard Documentation/*.txt))
MAN_PAGES := $(MAN_TXT:Documentation/%.txt=$(O)/Documentation/%.1)

$(O)/Documentation/%.1: Documentation/%.txt tools/perf/perf.c | build-deps
	@mkdir -p $(@D)
	@command -v asciidoctor >/dev/null || \
		{ echo "make: no asciidoctor: apt-get install asciidoctor, or run \`make install\` as root" >&2; exit 1; }
	sed 's/linkperf:\([a-z0-9-]*\)\[\([0-9]*\)\]/*\1*(\2)/g' $< | \
		asciidoctor -b manpage -d manpage --failure-level WARN -a mansource=perf \
		-a manversion=$(PERF_VERSION) -a 'manmanual=perf Manual' -o $@.tmp - && mv $@.tmp $@

man: $(MAN_PAGES)

# The file list and the rules (never over a perf that is not ours) are
# scripts/install.sh's.
install: $(PERF) $(MAN_PAGES)
	@DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' sh scripts/install.sh install $(PERF) $(MAN_PAGES)

uninstall:
	@DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' sh scripts/install.sh uninstall

demo: build-deps $(PERF)
	@sh examples/demo.sh

# The files `make format` formats and `make check-format` checks.
FORMAT_FILES = $(UTIL_SRCS) $(BUILTIN_SRCS) $(UNIT_SRCS) $(wildcard tools/perf/tests/*.c) \
	$(wildcard tools/perf/tests/fuzz/*.[ch]) \
	$(wildcard tools/perf/*.h tools/perf/util/*.h tools/perf/tests/unit/*.h)

format:
	@command -v clang-format >/dev/null || \
		{ echo "make: no clang-format: apt-get install clang-format, or run \`make deps\`" >&2; exit 1; }
	clang-format -i $(FORMAT_FILES)

# Fails listing the files that `make format` would change.
check-format:
	@sh scripts/install-deps.sh --check
	@bad=; for f in $(FORMAT_FILES); do \
		clang-format --dry-run --Werror "$$f" >/dev/null 2>&1 || bad="$$bad $$f"; \
	done; \
	[ -z "$$bad" ] || { echo "check-format: these files need \`make format\`:"; \
		for f in $$bad; do echo "  $$f"; done; exit 1; }
	@echo "check-format: $(words $(FORMAT_FILES)) files formatted"

# The test scripts and those of scripts/, examples/, bench/ and CI, as POSIX sh.
SHELL_SCRIPTS = $(wildcard tools/perf/tests/shell/*.sh) tools/perf/tests/run.sh \
	tools/perf/tests/fuzz/run.sh $(wildcard tools/perf/tests/guest/*.sh) tools/perf/tests/guest/init \
	$(wildcard scripts/*.sh examples/*.sh bench/*.sh) .ci/run

shellcheck:
	@sh scripts/install-deps.sh --check
	shellcheck -s sh $(SHELL_SCRIPTS)
	shellcheck -s bash tools/perf/perf-completion.bash tools/perf/tests/gdb-oracle.sh

clean:
	rm -rf build build-san build-fuzz tools/perf/perf

-include $(shell find $(O) $(FUZZ_O) -name '*.d' 2>/dev/null)

# build-deps installed the benchmark packages (install-deps --bench).
bench: build-deps $(PERF)
	@sh bench/run.sh
