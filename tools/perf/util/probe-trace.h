/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_TRACE_H
#define PERF_UTIL_PROBE_TRACE_H

/*
 * The k/uprobe_events line grammar: one line of uprobe_events,
 * kprobe_events or a probe cache into a probe_trace_event (probe-spec.h)
 * and back.  Numbers that do not fit their field, and signs where the
 * kernel takes none, are refused rather than clamped or wrapped.
 *
 * Owns: parsing and synthesizing those lines.
 * May call: probe-spec (the structures, words and identifiers), strbuf,
 * alloc, debug.
 */

#include "util/probe-spec.h"

/*
 * Parse one line of uprobe_events/kprobe_events or of a probe cache
 * ("p:grp/ev /bin/prog:0x1139 len=+8(%di):u32") into @tev (zeroed by the
 * caller).  0 or -EINVAL (a message is printed with pr_debug only).
 * Accepts the kernel's form (zero-padded offsets, "arg1=" names, "rN:"
 * maxactive) and perf's.  A point word with a '/' is a uprobe
 * (tev->uprobes, point.module = PATH, point.offset, ref_ctr_offset);
 * otherwise a kprobe ([MOD:]SYM[+OFF] into module/symbol/offset, or
 * 0xADDR into address).  point.realname and point.address of uprobes are
 * not in the text and stay 0.
 */
int parse_probe_trace_command(const char *cmd, struct probe_trace_event *tev);

/*
 * "p:GROUP/EVENT POINT ARGS" as perf -D prints it: uprobes "PATH:0xOFF"
 * (lowercase hex, no padding) with "(0xREF)" for a semaphore; kprobes
 * "[MOD:]SYM+OFF" (always with +OFF, decimal) or "0xADDR" when symbol is
 * NULL.  A NULL group is written as PERFPROBE_GROUP.
 */
char *synthesize_probe_trace_command(const struct probe_trace_event *tev);
/* The POINT part of that line alone. */
char *synthesize_probe_trace_point(const struct probe_trace_event *tev);
/* One fetcharg: "name=+8(+0(%di)):u32". */
char *synthesize_probe_trace_arg(const struct probe_trace_arg *arg);

#endif
