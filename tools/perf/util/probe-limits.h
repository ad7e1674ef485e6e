/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_UTIL_PROBE_LIMITS_H
#define PERF_UTIL_PROBE_LIMITS_H

/*
 * The kernel's limits on probe event names, shared by every layer that
 * checks or makes names (probe-spec's grammars, probe-file's unique
 * names).  Constants only: it includes nothing and anyone may include it.
 */

/* The longest GROUP or EVENT name the kernel takes, in bytes. */
#define MAX_EVENT_NAME_LEN 64

#endif
