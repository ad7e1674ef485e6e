// SPDX-License-Identifier: GPL-2.0
/*
 * perf trace -e: watch tracefs events (probes, SDT events, tracepoints) as
 * they fire, one line each, in the words of the system perf trace:
 *
 *	     0.000 prog/1234 grp:ev(__probe_ip: 94729693655353, arg1: 5, arg2: "text")
 *
 * One perf_event_open fd per event, per CPU and per traced task (or one
 * per event and CPU system wide); all fds of a CPU write into that CPU's
 * ring.  The rings are read in passes, merged by time, and each record is
 * printed as it is read: memory stays that of the rings.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <unistd.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/perf-ring.h"
#include "util/strbuf.h"
#include "util/trace-fields.h"
#include "util/trace-output.h"
#include "util/target.h"
#include "util/tracepoint.h"
#include "util/util.h"
#include "util/workload.h"

#ifndef TRACEEVENT_SONAME
#define TRACEEVENT_SONAME "libtraceevent.so.1"
#endif

/*
 * libtraceevent's entry points, loaded when perf trace parses its formats:
 * the other commands do not map it at start-up.
 */
static struct {
	void *handle;
	struct tep_handle *(*alloc)(void);
	void (*free)(struct tep_handle *);
	void (*set_long_size)(struct tep_handle *, int);
	void (*set_page_size)(struct tep_handle *, int);
	enum tep_errno (*parse_event)(struct tep_handle *, const char *, unsigned long,
				      const char *);
	int (*strerror)(struct tep_handle *, enum tep_errno, char *, size_t);
	struct tep_event *(*find_event)(struct tep_handle *, int);
	void (*print_event)(struct tep_handle *, struct trace_seq *, struct tep_record *,
			    const char *, ...);
	void (*seq_init)(struct trace_seq *);
	void (*seq_reset)(struct trace_seq *);
	void (*seq_destroy)(struct trace_seq *);
	void (*seq_terminate)(struct trace_seq *);
} tep_lib;

static int load_traceevent(void)
{
	static const char *const names[] = {
		"tep_alloc",	   "tep_free",	      "tep_set_long_size", "tep_set_page_size",
		"tep_parse_event", "tep_strerror",    "tep_find_event",	   "tep_print_event",
		"trace_seq_init",  "trace_seq_reset", "trace_seq_destroy", "trace_seq_terminate",
	};
	void **fn = (void **)&tep_lib.alloc;
	void *h;

	if (tep_lib.handle)
		return 0;
	h = dlopen(TRACEEVENT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		pr_err("perf trace: cannot load libtraceevent: %s\n", dlerror());
		return -ENOSYS;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fn[i] = dlsym(h, names[i]);
		if (!fn[i]) {
			pr_err("perf trace: %s has no %s\n", TRACEEVENT_SONAME, names[i]);
			dlclose(h);
			return -ENOSYS;
		}
	}
	tep_lib.handle = h;
	return 0;
}

#define tep_alloc tep_lib.alloc
#define tep_free tep_lib.free
#define tep_set_long_size tep_lib.set_long_size
#define tep_set_page_size tep_lib.set_page_size
#define tep_parse_event tep_lib.parse_event
#define tep_strerror tep_lib.strerror
#define tep_find_event tep_lib.find_event
#define tep_print_event tep_lib.print_event
#define trace_seq_init tep_lib.seq_init
#define trace_seq_reset tep_lib.seq_reset
#define trace_seq_destroy tep_lib.seq_destroy
#define trace_seq_terminate tep_lib.seq_terminate

static const char *const trace_usage[] = {
	"perf trace -e <event> [<options>] [<command>]",
	"perf trace -e <event> [<options>] -- <command> [<options>]",
	NULL,
};

/* Records newer than this (ns) stay in the ring for the next pass, to keep time order. */
#define ORDER_SLACK_NS 2000000ULL
#define POLL_MS 100

struct comm_entry {
	int tid;
	bool used;
	char comm[17];
};

/* The command name of each thread seen: from COMM/FORK records, else /proc. */
struct comm_table {
	struct comm_entry *entries;
	size_t size, nr; /* size: a power of two */
};

struct trace {
	/* options */
	struct str_list event_specs;
	const char *pid_list, *tid_list, *output_name, *duration;
	int system_wide, full_time, no_inherit, show_comm, tep_print, mmap_pages;

	struct tracepoint_list tps;
	struct tep_handle *tep;
	struct trace_output out;
	bool out_said; /* its write error was reported */

	struct target target; /* tasks (or the one -1 of system wide) and CPUs */
	int *fds;	      /* [task][cpu][event], -1 when not open */
	int nr_fds;
	struct perf_ring *rings; /* one per CPU */
	bool show_thread;

	struct workload workload; /* the command, pid 0 when none */

	bool have_base;
	uint64_t base_time;
	uint64_t lost_records; /* the sum of the PERF_RECORD_LOST counts */
	struct comm_table comms;
	struct strbuf line;
	struct trace_seq seq;
};

static volatile sig_atomic_t got_sigint, got_sigchld;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		got_sigchld = 1;
	else
		got_sigint = 1;
}

/* --- thread names ------------------------------------------------------ */

static struct comm_entry *comm_table__slot(struct comm_table *t, int tid)
{
	size_t mask, i;

	if ((t->nr + 1) * 2 > t->size) {
		struct comm_table bigger = { 0 };

		bigger.size = t->size ? t->size * 2 : 256;
		bigger.entries = xzalloc(bigger.size * sizeof(*bigger.entries));
		for (size_t j = 0; j < t->size; j++) {
			if (t->entries[j].used)
				*comm_table__slot(&bigger, t->entries[j].tid) = t->entries[j];
		}
		bigger.nr = t->nr;
		free(t->entries);
		*t = bigger;
	}
	mask = t->size - 1;
	for (i = (unsigned int)tid * 2654435761u & mask; t->entries[i].used; i = (i + 1) & mask)
		if (t->entries[i].tid == tid)
			return &t->entries[i];
	return &t->entries[i];
}

static void comm_table__set(struct comm_table *t, int tid, const char *comm)
{
	struct comm_entry *e = comm_table__slot(t, tid);

	if (!e->used) {
		e->used = true;
		e->tid = tid;
		t->nr++;
	}
	snprintf(e->comm, sizeof(e->comm), "%s", comm);
}

/* The name of @tid, from the table or else /proc; NULL when unknown. */
static const char *comm_table__find(struct comm_table *t, int tid)
{
	struct comm_entry *e = comm_table__slot(t, tid);
	struct strbuf path = STRBUF_INIT, comm = STRBUF_INIT;

	if (e->used)
		return e->comm[0] ? e->comm : NULL;
	strbuf_addf(&path, "/proc/%d/comm", tid);
	if (!strbuf_read_file(&comm, path.buf) && comm.len)
		strbuf_setlen(&comm, strcspn(comm.buf, "\n"));
	/* Remember failures too: an empty name, looked up once. */
	comm_table__set(t, tid, comm.buf);
	strbuf_release(&path);
	strbuf_release(&comm);
	return comm_table__find(t, tid);
}

static void comm_table__exit(struct comm_table *t)
{
	free(t->entries);
	memset(t, 0, sizeof(*t));
}

static const char *pid_comm(int pid, void *priv)
{
	struct trace *trace = priv;

	return comm_table__find(&trace->comms, pid);
}

/* --- events ------------------------------------------------------------ */

static int parse_formats(struct trace *trace)
{
	if (load_traceevent())
		return -ENOSYS;
	trace->tep = tep_alloc();
	if (!trace->tep)
		return -ENOMEM;
	tep_set_long_size(trace->tep, sizeof(long));
	tep_set_page_size(trace->tep, sysconf(_SC_PAGESIZE));
	for (int i = 0; i < trace->tps.nr; i++) {
		struct tracepoint *tp = &trace->tps.tps[i];
		enum tep_errno err;

		err = tep_parse_event(trace->tep, tp->format, tp->format_len, tp->group);
		if (err) {
			char msg[128];

			tep_strerror(trace->tep, err, msg, sizeof(msg));
			pr_err("perf trace: cannot parse the format of %s:%s: %s\n", tp->group,
			       tp->name, msg);
			return -EINVAL;
		}
	}
	return 0;
}

static int *fd_slot(struct trace *trace, int target, int cpu, int event)
{
	return &trace->fds[(target * trace->target.nr_cpus + cpu) * trace->tps.nr + event];
}

static void init_attr(struct trace *trace, struct perf_event_attr *attr, int event, pid_t pid,
		      bool sideband)
{
	bool command = trace->workload.pid && pid == trace->workload.pid;

	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->size = sizeof(*attr);
	attr->config = trace->tps.tps[event].id;
	attr->sample_period = 1;
	attr->sample_type = PERF_RING_SAMPLE_TYPE;
	attr->read_format = PERF_FORMAT_LOST;
	attr->disabled = 1;
	/* The command's events start at its exec and follow its children. */
	attr->inherit = command && !trace->no_inherit;
	attr->enable_on_exec = command;
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	/* Wake the reader at a quarter full; the poll timeout covers quiet times. */
	attr->watermark = 1;
	attr->wakeup_watermark = trace->mmap_pages * sysconf(_SC_PAGESIZE) / 4;
	/* One event per task and CPU reports the names and forks. */
	attr->comm = attr->comm_exec = attr->task = sideband;
}

static void open_error(struct trace *trace, int event, pid_t pid, int err)
{
	const struct tracepoint *tp = &trace->tps.tps[event];

	switch (err) {
	case EACCES:
	case EPERM:
		if (geteuid() == 0) {
			/* Some events are never given to perf, whoever asks. */
			pr_err("perf trace: the kernel refuses to open %s:%s: %s\n", tp->group,
			       tp->name, strerror(err));
			break;
		}
		pr_err("perf trace: no permission to open %s:%s (see "
		       "/proc/sys/kernel/perf_event_paranoid; run as root)\n",
		       tp->group, tp->name);
		break;
	case ESRCH:
		pr_err("perf trace: task %d is gone\n", pid);
		break;
	case EMFILE:
		pr_err("perf trace: too many open files (%d events x %d CPUs x %d tasks)\n",
		       trace->tps.nr, trace->target.nr_cpus, trace->target.nr_tasks);
		break;
	default:
		pr_err("perf trace: cannot open %s:%s: %s\n", tp->group, tp->name, strerror(err));
	}
}

static int open_events(struct trace *trace)
{
	trace->nr_fds = trace->target.nr_tasks * trace->target.nr_cpus * trace->tps.nr;
	trace->fds = xmalloc(trace->nr_fds * sizeof(int));
	for (int i = 0; i < trace->nr_fds; i++)
		trace->fds[i] = -1;
	trace->rings = xzalloc(trace->target.nr_cpus * sizeof(*trace->rings));
	for (int c = 0; c < trace->target.nr_cpus; c++)
		trace->rings[c].fd = -1;

	for (int t = 0; t < trace->target.nr_tasks; t++) {
		for (int c = 0; c < trace->target.nr_cpus; c++) {
			for (int e = 0; e < trace->tps.nr; e++) {
				struct perf_ring *ring = &trace->rings[c];
				struct perf_event_attr attr;
				int fd, err;

				init_attr(trace, &attr, e, trace->target.tasks[t], e == 0);
				fd = sys_perf_event_open(&attr, trace->target.tasks[t],
							 trace->target.cpus[c], -1,
							 PERF_FLAG_FD_CLOEXEC);
				if (fd < 0 && errno == EINVAL) {
					/* A kernel before 6.0 has no PERF_FORMAT_LOST. */
					attr.read_format = 0;
					fd = sys_perf_event_open(&attr, trace->target.tasks[t],
								 trace->target.cpus[c], -1,
								 PERF_FLAG_FD_CLOEXEC);
				}
				if (fd < 0) {
					err = errno;
					open_error(trace, e, trace->target.tasks[t], err);
					return -err;
				}
				*fd_slot(trace, t, c, e) = fd;
				if (ring->fd < 0) {
					err = perf_ring__mmap(ring, fd, trace->mmap_pages);
					if (err) {
						pr_err("perf trace: cannot map %d pages of ring buffer: "
						       "%s\n",
						       trace->mmap_pages, strerror(-err));
						return err;
					}
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd)) {
					err = -errno;
					pr_err("perf trace: cannot share the ring of CPU %d: %s\n",
					       trace->target.cpus[c], strerror(errno));
					return err;
				}
			}
		}
	}
	return 0;
}

static void ioctl_all(struct trace *trace, unsigned long request)
{
	for (int i = 0; i < trace->nr_fds; i++)
		if (trace->fds[i] >= 0)
			ioctl(trace->fds[i], request, 0);
}

/* The losses the kernel counted per event (PERF_FORMAT_LOST). */
static uint64_t read_lost(struct trace *trace)
{
	uint64_t total = 0;

	for (int i = 0; i < trace->nr_fds; i++) {
		uint64_t values[2];

		if (trace->fds[i] >= 0 &&
		    read(trace->fds[i], values, sizeof(values)) == (ssize_t)sizeof(values))
			total += values[1];
	}
	return total;
}

static void close_events(struct trace *trace)
{
	for (int c = 0; trace->rings && c < trace->target.nr_cpus; c++)
		perf_ring__exit(&trace->rings[c]);
	for (int i = 0; i < trace->nr_fds; i++)
		if (trace->fds[i] >= 0)
			close(trace->fds[i]);
	free(trace->rings);
	free(trace->fds);
	trace->rings = NULL;
	trace->fds = NULL;
	trace->nr_fds = 0;
}

/* --- printing ---------------------------------------------------------- */

static const char *output_name(const struct trace *trace)
{
	return trace->output_name ? trace->output_name : "standard error";
}

/* Say the output's first write error, once; later events are only counted. */
static void output_check(struct trace *trace)
{
	if (trace->out.err && !trace->out_said) {
		trace->out_said = true;
		pr_err("perf trace: cannot write %s: %s\n", output_name(trace),
		       strerror(-trace->out.err));
	}
}

static void print_sample(struct trace *trace, const struct perf_ring_sample *sample)
{
	struct strbuf *line = &trace->line;
	struct tep_event *event;
	uint16_t type;

	if (sample->raw_size < sizeof(type))
		return;
	memcpy(&type, sample->raw, sizeof(type));
	event = tep_find_event(trace->tep, type);
	if (!event)
		return;
	if (!trace->have_base) {
		trace->have_base = true;
		trace->base_time = sample->time;
	}
	strbuf_reset(line);
	trace_fields__add_msecs(line, sample->time - (trace->full_time ? 0 : trace->base_time));
	strbuf_addch(line, ' ');
	if (trace->show_thread) {
		if (trace->show_comm) {
			const char *comm = comm_table__find(&trace->comms, sample->tid);

			/* perf shows 14 characters of the name, ":TID" for an unknown one. */
			if (comm)
				strbuf_addf(line, "%.14s/", comm);
			else
				strbuf_addf(line, ":%u/", sample->tid);
		}
		strbuf_addf(line, "%u ", sample->tid);
	}
	strbuf_addstr(line, event->system);
	strbuf_addch(line, ':');
	strbuf_addstr(line, event->name);
	strbuf_addch(line, '(');
	if (trace->tep_print) {
		struct tep_record record = {
			.ts = sample->time,
			.cpu = sample->cpu,
			.size = sample->raw_size,
			.data = (void *)sample->raw,
		};

		trace_seq_reset(&trace->seq);
		tep_print_event(trace->tep, &trace->seq, &record, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&trace->seq);
		strbuf_add(line, trace->seq.buffer, trace->seq.len);
	} else {
		trace_fields__format(line, event, sample->raw, sample->raw_size, pid_comm, trace);
	}
	strbuf_addstr(line, ")\n");
	trace_output__add_event(&trace->out, line->buf, line->len);
}

static void process_record(struct trace *trace, const struct perf_event_header *hdr,
			   const struct perf_ring_sample *sample)
{
	const unsigned char *body = (const unsigned char *)(hdr + 1);
	size_t len = hdr->size - sizeof(*hdr);
	uint32_t ids[4];
	uint64_t lost;

	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		if (sample->raw)
			print_sample(trace, sample);
		break;
	case PERF_RECORD_LOST:
		if (len < 16)
			break;
		memcpy(&lost, body + 8, sizeof(lost));
		trace->lost_records += lost;
		{
			char note[64];
			int n = snprintf(note, sizeof(note), "LOST %" PRIu64 " events!\n", lost);

			trace_output__add_note(&trace->out, note, n);
		}
		break;
	case PERF_RECORD_COMM:
		/* pid, tid, then the name, NUL-padded to 8 bytes. */
		if (len < 8 + 8) {
			break;
		} else {
			char comm[17] = "";

			memcpy(ids, body, 8);
			memcpy(comm, body + 8, len - 8 < 16 ? len - 8 : 16);
			comm_table__set(&trace->comms, ids[1], comm);
		}
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: the new thread starts with its parent's name. */
		if (len < 16)
			break;
		memcpy(ids, body, 16);
		if (comm_table__slot(&trace->comms, ids[3])->used) {
			char comm[17];

			memcpy(comm, comm_table__slot(&trace->comms, ids[3])->comm, sizeof(comm));
			comm_table__set(&trace->comms, ids[2], comm);
		}
		break;
	default:
		break;
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Print what the rings hold, oldest first across CPUs.  Unless @final,
 * records of the last ORDER_SLACK_NS stay for the next pass: a CPU may
 * still be writing one older than them.
 */
static void drain(struct trace *trace, bool final)
{
	uint64_t horizon = final ? UINT64_MAX : now_ns() - ORDER_SLACK_NS;

	for (int c = 0; c < trace->target.nr_cpus; c++)
		perf_ring__snapshot(&trace->rings[c]);
	for (;;) {
		const struct perf_event_header *best = NULL;
		struct perf_ring_sample best_sample = { 0 };
		int best_cpu = -1;

		for (int c = 0; c < trace->target.nr_cpus; c++) {
			const struct perf_event_header *hdr = perf_ring__peek(&trace->rings[c]);
			struct perf_ring_sample sample;

			if (!hdr)
				continue;
			if (perf_ring__parse(hdr, &sample)) {
				/* Malformed: skip it rather than stall the ring. */
				perf_ring__consume(&trace->rings[c]);
				c--;
				continue;
			}
			if (!best || sample.time < best_sample.time) {
				best = hdr;
				best_sample = sample;
				best_cpu = c;
			}
		}
		if (!best || best_sample.time > horizon)
			break;
		process_record(trace, best, &best_sample);
		perf_ring__consume(&trace->rings[best_cpu]);
	}
	for (int c = 0; c < trace->target.nr_cpus; c++)
		perf_ring__release(&trace->rings[c]);
	trace_output__flush(&trace->out);
	output_check(trace);
}

/* --- the command line -------------------------------------------------- */

static int resolve_events(struct trace *trace)
{
	for (int i = 0; i < trace->event_specs.nr; i++) {
		const char *spec = trace->event_specs.items[i];
		struct strbuf why = STRBUF_INIT;
		int err = tracepoint_list__add(&trace->tps, spec, &why);

		if (err < 0) {
			pr_err("perf trace: event '%s': %s\n", spec, why.buf);
			strbuf_release(&why);
			return err;
		}
		strbuf_release(&why);
	}
	return 0;
}

static int check_options(struct trace *trace, int argc)
{
	int targets = !!trace->pid_list + !!trace->tid_list + !!trace->system_wide + (argc > 0);

	if (!trace->event_specs.nr) {
		pr_err("perf trace: no event given: use -e GROUP:EVENT "
		       "(system call tracing is not supported)\n");
		return -EINVAL;
	}
	if (targets > 1 && !(trace->system_wide && argc > 0 && targets == 2)) {
		pr_err("perf trace: -p, -t, -a and a command exclude one another "
		       "(but -a with a command)\n");
		return -EINVAL;
	}
	if (trace->mmap_pages <= 0 || trace->mmap_pages > (1 << 20) ||
	    (trace->mmap_pages & (trace->mmap_pages - 1))) {
		pr_err("perf trace: -m wants a power of two of pages, not %d\n", trace->mmap_pages);
		return -EINVAL;
	}
	if (trace->duration) {
		char *end;

		errno = 0;
		strtod(trace->duration, &end);
		if (errno || end == trace->duration || *end) {
			pr_err("perf trace: --duration wants a number of ms, not '%s'\n",
			       trace->duration);
			return -EINVAL;
		}
	}
	return 0;
}

static int open_output(struct trace *trace)
{
	/* perf trace writes to stderr: a copy of it, buffered. */
	int err = trace_output__open(&trace->out, trace->output_name);

	if (err && trace->output_name) {
		pr_err("perf trace: cannot open %s: %s\n", trace->output_name, strerror(-err));
		return err;
	}
	if (err)
		trace->out.fd = dup(STDERR_FILENO);
	return 0;
}

static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void trace_loop(struct trace *trace, const sigset_t *wait_mask)
{
	struct pollfd *pfds = xzalloc(trace->target.nr_cpus * sizeof(*pfds));
	uint64_t last_check = 0;

	for (int c = 0; c < trace->target.nr_cpus; c++) {
		pfds[c].fd = trace->rings[c].fd;
		pfds[c].events = POLLIN;
	}
	while (!got_sigint) {
		struct timespec timeout = { 0, POLL_MS * 1000000L };
		bool stop = false;

		if (ppoll(pfds, trace->target.nr_cpus, &timeout, wait_mask) > 0) {
			/* A task event of a task that exited stays readable: stop polling it. */
			for (int c = 0; c < trace->target.nr_cpus; c++)
				if (pfds[c].revents & (POLLHUP | POLLERR | POLLNVAL))
					pfds[c].fd = -1;
		}
		if (trace->workload.pid) {
			got_sigchld = 0;
			stop = workload__reap(&trace->workload, false);
		} else if (trace->target.tasks[0] != -1 &&
			   now_ns() - last_check > POLL_MS * 1000000ULL) {
			last_check = now_ns();
			stop = target__tasks_gone(&trace->target);
		}
		drain(trace, false);
		if (stop)
			break;
	}
	free(pfds);
}

/* -p, -t: say what is wrong with a list; 0 or -errno. */
static int add_task_targets(struct trace *trace, const char *list, bool threads)
{
	struct strbuf why = STRBUF_INIT;
	int err = target__add_tasks(&trace->target, list, threads, &why);

	if (err)
		pr_err("perf trace: %s\n", why.buf);
	strbuf_release(&why);
	return err;
}

static int run_trace(struct trace *trace, const char **argv, int argc)
{
	struct workload *workload = &trace->workload;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, orig;
	uint64_t lost;
	int ret = 0, err;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);

	if (argc > 0) {
		struct strbuf why = STRBUF_INIT;

		if (workload__start(workload, argv, &orig, &why)) {
			pr_err("perf trace: %s\n", why.buf);
			strbuf_release(&why);
			ret = 1;
			goto out;
		}
		strbuf_release(&why);
		if (!trace->system_wide)
			target__add_task(&trace->target, workload->pid);
	}
	if (trace->pid_list && add_task_targets(trace, trace->pid_list, false))
		ret = 1;
	if (trace->tid_list && add_task_targets(trace, trace->tid_list, true))
		ret = 1;
	if (!trace->target.nr_tasks)
		target__add_task(&trace->target, -1);
	trace->show_thread = trace->target.tasks[0] == -1 || trace->target.nr_tasks > 1 ||
			     (workload->pid && !trace->no_inherit);
	if (!ret && open_events(trace))
		ret = 1;
	if (ret) {
		workload__abort(workload);
		goto out;
	}
	if (!workload->pid || trace->system_wide)
		ioctl_all(trace, PERF_EVENT_IOC_ENABLE);
	if (workload->pid) {
		err = workload__release(workload);
		if (err) {
			pr_err("perf trace: cannot run '%s': %s\n", argv[0], strerror(err));
			ioctl_all(trace, PERF_EVENT_IOC_DISABLE);
			workload__reap(workload, true);
			ret = workload__exit_code(workload);
			goto out;
		}
	}

	sigdelset(&orig, SIGINT);
	sigdelset(&orig, SIGTERM);
	sigdelset(&orig, SIGCHLD);
	trace_loop(trace, &orig);

	ioctl_all(trace, PERF_EVENT_IOC_DISABLE);
	drain(trace, true);
	lost = read_lost(trace);
	pr_debug("perf trace: lost events: %" PRIu64 " in LOST records, %" PRIu64
		 " counted by the events\n",
		 trace->lost_records, lost);
	if (lost < trace->lost_records)
		lost = trace->lost_records;
	if (lost)
		pr_warning("perf trace: LOST %" PRIu64 " events in total! "
			   "(the ring buffer was full: try a bigger -m)\n",
			   lost);
	if (trace->out.unwritten)
		pr_err("perf trace: %" PRIu64 " of %" PRIu64 " events not written to %s\n",
		       trace->out.unwritten, trace->out.written + trace->out.unwritten,
		       output_name(trace));
	if (verbose) {
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		pr_debug("perf trace: %" PRIu64 " events printed, %" PRIu64 " not written, %" PRIu64
			 " lost, max RSS %ld kB\n",
			 trace->out.written, trace->out.unwritten, lost, ru.ru_maxrss);
	}
	if (workload->pid) {
		if (got_sigint)
			workload__end(workload);
		workload__reap(workload, true);
		ret = workload__exit_code(workload);
	}
	/* What was traced did not all reach the output: not a success. */
	if (trace->out.err && !ret)
		ret = 1;
out:
	close_events(trace);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return ret;
}

int cmd_trace(int argc, const char **argv)
{
	struct trace trace = {
		.show_comm = 1,
		.mmap_pages = 128,
		.line = STRBUF_INIT,
		.target = TARGET_INIT,
		.workload = WORKLOAD_INIT,
		.out = { .fd = -1 },
	};
	const struct option options[] = {
		OPT_STRING_LIST('e', "event", &trace.event_specs, "event",
				"event selector: GROUP:EVENT, globs allowed",
				PARSE_OPT_SPLIT_COMMA),
		OPT_BOOLEAN('a', "all-cpus", &trace.system_wide,
			    "system-wide collection from all CPUs"),
		OPT_STRING('p', "pid", &trace.pid_list, "pid",
			   "trace events on existing process id"),
		OPT_STRING('t', "tid", &trace.tid_list, "tid",
			   "trace events on existing thread id"),
		OPT_STRING('o', "output", &trace.output_name, "file", "output file name"),
		OPT_BOOLEAN('T', "time", &trace.full_time,
			    "Show full timestamp, not time relative to first start"),
		OPT_INTEGER('m', "mmap-pages", &trace.mmap_pages, "pages",
			    "number of mmap data pages (a power of two)"),
		OPT_BOOLEAN(0, "comm", &trace.show_comm, "show the thread COMM next to its id"),
		OPT_STRING(0, "duration", &trace.duration, "float",
			   "show only events with duration > N.M ms"),
		OPT_BOOLEAN(0, "no-inherit", &trace.no_inherit,
			    "child tasks do not inherit counters"),
		OPT_BOOLEAN(0, "libtraceevent_print", &trace.tep_print,
			    "Use libtraceevent to print the tracepoint arguments."),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END(),
	};
	int ret = 0;

	argc = parse_options(argc, argv, options, trace_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc == -2)
		return 0;
	if (argc < 0)
		return 129;
	if (check_options(&trace, argc)) {
		ret = 129;
		goto out;
	}
	if (resolve_events(&trace)) {
		ret = 129;
		goto out;
	}
	raise_fd_limit();
	if (parse_formats(&trace) || target__read_cpus(&trace.target) || open_output(&trace)) {
		ret = 1;
		goto out;
	}
	trace_seq_init(&trace.seq);
	ret = run_trace(&trace, argv, argc);
	trace_seq_destroy(&trace.seq);
out:
	if (trace_output__close(&trace.out)) {
		output_check(&trace);
		if (!ret)
			ret = 1;
	}
	if (trace.tep)
		tep_free(trace.tep);
	tracepoint_list__clear(&trace.tps);
	str_list_clear(&trace.event_specs);
	comm_table__exit(&trace.comms);
	strbuf_release(&trace.line);
	target__exit(&trace.target);
	return ret;
}
