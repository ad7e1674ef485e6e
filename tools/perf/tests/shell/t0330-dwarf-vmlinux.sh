#!/bin/sh
test_description='perf probe -k on the Debian vmlinux with DWARF prints what the system perf prints'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# $VMLINUX (lib.sh): the vmlinux of linux-image-*-dbg; CI does not have it.
test_have_prereq VMLINUX_DWARF ||
	test_skip_all 'no vmlinux with DWARF in /usr/lib/debug/boot (linux-image-*-dbg)'

# Each spec perf 6.1 resolves on the Debian 6.1 cloud vmlinux: inlined
# instances (do_sys_open in the syscall wrappers), lines, members, strings,
# return probes, $vars/$params, a function split in hot and cold parts,
# static functions of headers inlined everywhere (put_page: too many, the
# symbol table then).
cat >specs <<'EOF'
do_sys_open filename:string
do_sys_open
put_page
fdget
vfs_read file count buf
vfs_read:0
vfs_read:6
vfs_read:8
vfs_write%return $retval
do_sys_openat2 how->flags
tcp_sendmsg sk->__sk_common.skc_dport size
kmem_cache_alloc s->name:string
filemap_read iocb->ki_pos iocb->ki_flags
do_filp_open pathname->name:string
vfs_read $params
vfs_read file->f_path.dentry->d_name.name:string
vfs_read file->f_cred->uid
vfs_read file->f_path
security_file_permission file->f_mode
tcp_v4_connect sk->__sk_common.skc_daddr
try_to_wake_up p->pid p->comm:string
do_exit code
bprm_execve bprm->filename:string
EOF

test_expect_success SYSTEM_PERF_PROBE 'every -D spec is byte-identical to the system perf' '
	: >differ &&
	while IFS= read -r spec; do
		"$SYSTEM_PERF" probe -k "$VMLINUX" -D "$spec" >exp 2>/dev/null || continue
		"$PERF" probe -k "$VMLINUX" -D "$spec" >got 2>err &&
		cmp -s exp got || { echo "== $spec"; diff exp got; cat err; } >>differ
	done <specs &&
	cat differ && test ! -s differ
'

test_expect_success SYSTEM_PERF_PROBE '-V, also with --externs and --range, is byte-identical' '
	: >differ &&
	for spec in vfs_read do_sys_open schedule copy_process; do
		for opt in "" --externs "--externs --range"; do
			"$SYSTEM_PERF" probe -k "$VMLINUX" -V $spec $opt >exp 2>/dev/null || continue
			"$PERF" probe -k "$VMLINUX" -V $spec $opt 2>err | vars_as_perf61 >got &&
			# the lines only: perf 6.1 sorts them by its own type names
			sort exp >exp.s && sort got >got.s &&
			cmp -s exp.s got.s || { echo "== -V $spec $opt"; diff exp got; cat err; } >>differ
		done
	done &&
	cat differ && test ! -s differ
'

test_expect_success 'a function is found without reading every CU' '
	/usr/bin/time -f "%e %M" "$PERF" probe -k "$VMLINUX" -D "vfs_read file count" \
		>out 2>time &&
	grep -q "^p:probe/vfs_read vfs_read+0 file=%di:x64 count=%dx:x64$" out &&
	read secs kb <time &&
	say "vfs_read file count: $secs s, $kb KB" &&
	test "$kb" -lt 100000
'

# perf 6.1 and 6.12 on a kernel with kprobes (the guest of t0231): with -k
# an entry stays FUNC+OFF, a return is _text-relative when the README takes
# a kretprobe at an offset.
test_expect_success 'with -k, a return probe is _text-relative where the README allows, an entry not' '
	mkdir -p fs/tracing &&
	printf "place (kretprobe): [<module>:]<symbol>[+<offset>]%%return|<memaddr>\n" \
		>fs/tracing/README &&
	PERF_TRACEFS_DIR=$TEST_TMP/fs/tracing "$PERF" probe -k "$VMLINUX" \
		-D "vfs_read count" -D "vfs_read%return \$retval" >out &&
	addr=$(nm "$VMLINUX" | awk "\$3 == \"vfs_read\" { print \$1 }") &&
	text=$(nm "$VMLINUX" | awk "\$3 == \"_text\" { print \$1 }") &&
	# (the low 32 bits: sh arithmetic is signed)
	cat >expect <<-EOF &&
	p:probe/vfs_read vfs_read+0 count=%dx:x64
	r:probe/vfs_read__return _text+$((0x${addr#ffffffff} - 0x${text#ffffffff})) \$retval
	EOF
	test_cmp_file expect out
'

test_expect_success 'a masked register is read as the register (perf 6.1 dereferences it) and no parameter twice' '
	"$PERF" probe -k "$VMLINUX" -D "do_sys_open \$params" >out &&
	grep -q "^p:probe/do_sys_open __ia32_sys_openat+[0-9]* mode=%ax:x16 filename=%si:x64$" out &&
	! grep -q "+0(%ax)" out
'

test_expect_success 'without the sources -L fails as perf does, nothing on stdout' '
	test_must_fail "$PERF" probe -k "$VMLINUX" -L vfs_read >out 2>err &&
	test ! -s out && grep -q "Failed to find source file path" err
'

test_done
