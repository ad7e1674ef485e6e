/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_GO_RETURN_H
#define PERF_UTIL_GO_RETURN_H

/*
 * Return probes of Go functions.  A uretprobe rewrites the return address
 * on the stack; the Go runtime copies goroutine stacks when they grow and
 * walks them for the GC and tracebacks, and dies on the address it does not
 * know ("unexpected return pc").  So FUNC%return on a Go function becomes
 * plain probes ("p:") on each of FUNC's return instructions, one event
 * for them all, with $retval read from the first result register of Go's
 * register ABI (RAX on x86-64, R0 on AArch64).
 *
 * A direct jump out of the function (a tail call: Go's wrappers end so) is
 * not probed: the result is not computed yet there, and the return that
 * gives it is the callee's.
 *
 * Owns: telling Go binaries, and turning a resolved return probe into
 * those places.  May call: probe-finder (is a function Go, its result's
 * type), symbol-elf (the function's range, file offsets), insn (the
 * decoding), elf-util, arch-regs, probe-spec.
 */

#include <stdbool.h>

struct debuginfo;
struct symbol_elf;
struct probe_trace_event;

/* Is @path built by Go's toolchain (a .note.go.buildid or .go.buildinfo section)? */
bool go_return__is_go_elf(const char *path);

/*
 * Is a return probe of @tevs (@ntevs) on a Go function, by @dbg's DWARF?
 * Asked before go_return__expand() so that a C program's %return does not
 * load a symbol table it does not need (70% of a python3.11d `-D f%return`).
 */
bool go_return__any(struct debuginfo *dbg, const struct probe_trace_event *tevs, int ntevs);

/*
 * Replace each return probe of *@tevs (*@ntevs of them, placed on the
 * entries of functions of the file @syms was loaded from) that is on a Go
 * function by plain probes on its return instructions, in address order;
 * the others stay.  With @dbg a function is Go when its DWARF says so
 * (debuginfo__go_function(), which also types $retval); with @dbg NULL
 * every function is (the caller asked go_return__is_go_elf()).
 * More than @max places in all is -E2BIG (--max-probes).  0, or -errno
 * after one message; on error *@tevs and *@ntevs are as they were.
 */
int go_return__expand(struct debuginfo *dbg, const struct symbol_elf *syms, int max,
		      struct probe_trace_event **tevs, int *ntevs);

#endif
