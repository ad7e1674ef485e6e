#!/bin/sh
test_description='kernel probes from BTF: the running kernel, -k vmlinux, the same lines as DWARF'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

test_lazy_prereq BTF '[ -r /sys/kernel/btf/vmlinux ]'

test_expect_success 'setup: a stand-in tracefs with a kprobe blacklist' '
	mkdir -p fs/tracing fs/kprobes &&
	: >fs/tracing/kprobe_events && : >fs/tracing/uprobe_events &&
	printf "0x0-0x0\tvfs_fsync\n" >fs/kprobes/blacklist
'
export PERF_TRACEFS_DIR="$TEST_TMP/fs/tracing"

# The running kernel's places are _text-relative, as perf writes those of
# DWARF and the symbol table (with -k VMLINUX: FUNC+OFF, as perf does).
test_expect_success BTF 'parameters by name on the running kernel, without DWARF' '
	"$PERF" probe -D "vfs_read file count" >out &&
	"$PERF" probe -D vfs_read >bare &&
	echo "$(cat bare) file=%di:x64 count=%dx:x64" >expect &&
	grep -q "^p:probe/vfs_read _text+[0-9]* " out &&
	test_cmp_file expect out
'

test_expect_success BTF 'a member chain through pointers and embedded structs, as a string' '
	"$PERF" probe -D "vfs_read file->f_path.dentry->d_name.name:string" >out &&
	grep -q "^p:probe/vfs_read _text+[0-9]* name=+0(+[0-9]*(+[0-9]*(%di))):string$" out
'

test_expect_success BTF '%return types a bare $retval as the function returns' '
	"$PERF" probe -D "vfs_read%return \$retval" -D "try_to_wake_up%return \$retval" >out &&
	cat >expect <<-\EOF &&
	r:probe/vfs_read__return vfs_read+0 $retval:s64
	r:probe/try_to_wake_up__return try_to_wake_up+0 $retval:s32
	EOF
	test_cmp_file expect out
'

test_expect_success BTF 'a return probe is _text-relative where the README takes a kretprobe at an offset' '
	mkdir -p kret/tracing && : >kret/tracing/kprobe_events &&
	printf "place (kretprobe): [<module>:]<symbol>[+<offset>]%%return|<memaddr>\n" \
		>kret/tracing/README &&
	PERF_TRACEFS_DIR=$TEST_TMP/kret/tracing "$PERF" probe -D vfs_read \
		-D "vfs_read%return \$retval" >out &&
	off=$(sed -n "s/^p:probe\/vfs_read _text+\([0-9]*\)$/\1/p" out) &&
	test -n "$off" &&
	grep -qx "r:probe/vfs_read__return _text+$off \$retval:s64" out
'

test_expect_success BTF '-V lists the parameters and their types from BTF' '
	"$PERF" probe -V vfs_read >out &&
	cat >expect <<-\EOF &&
	Available variables at vfs_read
	Z@<vfs_read+0>
	ZZchar*Zbuf
	ZZloff_t*Zpos
	ZZsize_tZcount
	ZZstruct file*Zfile
	EOF
	tr Z "\t" <expect >expect.tab &&
	test_cmp_file expect.tab out
'

test_expect_success BTF '-a writes the stand-in kprobe_events, -d removes it' '
	"$PERF" probe -a "vfs_read file count" 2>err &&
	grep -q "^p:probe/vfs_read _text+[0-9]* file=%di:x64 count=%dx:x64$" fs/tracing/kprobe_events &&
	grep -q "(on vfs_read with file count)" err &&
	"$PERF" probe -d "probe:vfs_read" 2>err &&
	! grep -q . fs/tracing/kprobe_events
'

test_expect_success BTF '--cache -a keeps the BTF result under the kernel build-id' '
	"$PERF" probe --cache -a "vfs_write file count" 2>err &&
	"$PERF" probe -d "probe:vfs_write" 2>err &&
	grep -rq "^p:probe/vfs_write _text+[0-9]* file=%di:x64 count=%dx:x64$" "$HOME/.debug/[kernel.kallsyms]"
'

test_expect_success BTF 'a cached add needs no BTF and no vmlinux' '
	PERF_BTF_DIR=$TEST_TMP/none "$PERF" probe -a "vfs_write file count" 2>err &&
	grep -q "^p:probe/vfs_write _text+[0-9]* file=%di:x64 count=%dx:x64$" fs/tracing/kprobe_events &&
	"$PERF" probe -d "probe:vfs_write" 2>err &&
	PERF_BTF_DIR=$TEST_TMP/none test_refuses --tracefs "$PERF" probe -a "vfs_read file" &&
	grep -q "nor BTF" err
'

test_expect_success BTF 'a blacklisted function is refused from BTF too' '
	test_refuses --tracefs "$PERF" probe -a "vfs_fsync file" &&
	grep -q blacklist err
'

test_expect_success BTF 'bad input: one line, nothing written' '
	test_refuses --tracefs "$PERF" probe -a "no_such_function_xyz a" &&
	grep -q "Failed to find no_such_function_xyz in the BTF of the kernel" err &&
	test_refuses --tracefs "$PERF" probe -a "vfs_read nosuch" &&
	grep -q "parameter .nosuch. of vfs_read" err &&
	test_refuses --tracefs "$PERF" probe -a "vfs_read count->x" &&
	grep -q "count is not a data structure" err &&
	test_refuses --tracefs "$PERF" probe -a "vfs_read file->nosuch" &&
	grep -q "has no member nosuch" err &&
	test_refuses --tracefs "$PERF" probe -a "vfs_read:3 file" &&
	grep -q "needs debuginfo" err &&
	test_refuses --tracefs "$PERF" probe -a "vfs_read+4 file" &&
	grep -q "needs debuginfo" err &&
	test_refuses --tracefs "$PERF" probe -a "vfs_read count:string" &&
	grep -q "Failed to cast into string" err
'

test_expect_success BTF 'a truncated or corrupt BTF file is refused' '
	head -c 4096 /sys/kernel/btf/vmlinux >trunc.btf &&
	test_refuses --tracefs "$PERF" probe --btf -k trunc.btf -a "vfs_read file" &&
	grep -q "corrupt or truncated" err &&
	printf "garbage garbage garbage" >bad.btf &&
	test_refuses --tracefs "$PERF" probe --btf -k bad.btf -a "vfs_read file" &&
	grep -q "corrupt or truncated" err
'

test_expect_success BTF '-k a raw BTF file' '
	cp /sys/kernel/btf/vmlinux raw.btf &&
	"$PERF" probe -k raw.btf -D "vfs_read file count" >out &&
	echo "p:probe/vfs_read vfs_read+0 file=%di:x64 count=%dx:x64" >expect &&
	test_cmp_file expect out
'

test_expect_success BTF,KALLSYMS '-F --btf lists the functions of BTF that kallsyms has' '
	"$PERF" probe --btf -F "vfs_read*" >out &&
	grep -qx vfs_read out &&
	"$PERF" probe -F "vfs_read*" >syms &&
	! grep -v -x -F -f syms out
'

test_expect_success BTF '-F --btf of a raw BTF file, and of a corrupt one' '
	"$PERF" probe --btf -k raw.btf -F vfs_read >out &&
	echo vfs_read >expect &&
	test_cmp_file expect out &&
	test_refuses "$PERF" probe --btf -k trunc.btf -F vfs_read &&
	grep -q "corrupt or truncated" err
'

test_expect_success BTF 'a module from PERF_BTF_DIR/NAME or a BTF file, split from vmlinux' '
	${CC:-gcc} -o btf-module "$WORKLOADS/btf-module.c" -lbpf &&
	mkdir btfdir && cp /sys/kernel/btf/vmlinux btfdir/ &&
	./btf-module btfdir/vmlinux btfdir/fakemod &&
	PERF_BTF_DIR=$TEST_TMP/btfdir "$PERF" probe -m fakemod -D "fakemod_open f->f_flags flags" >out &&
	grep -q "^p:probe/fakemod_open fakemod:fakemod_open+0 f_flags=+[0-9]*(%di):x32 flags=%si:s32$" out &&
	PERF_BTF_DIR=$TEST_TMP/btfdir "$PERF" probe -m "$TEST_TMP/btfdir/fakemod" \
		-D "fakemod_open f->f_flags flags" >out2 &&
	test_cmp_file out out2 &&
	PERF_BTF_DIR=$TEST_TMP/btfdir "$PERF" probe -m fakemod -V fakemod_open >vars &&
	grep -q "struct file\*	f$" vars &&
	PERF_BTF_DIR=$TEST_TMP/btfdir "$PERF" probe -m fakemod --btf -F >funcs &&
	echo fakemod_open >expect &&
	test_cmp_file expect funcs &&
	PERF_BTF_DIR=$TEST_TMP/btfdir test_refuses --tracefs "$PERF" probe -m fakemod -a "vfs_read file" &&
	grep -q "Failed to find vfs_read in the BTF of fakemod" err
'

# The corpus: common VFS, scheduler, networking and memory functions of the
# Debian 6.1 vmlinux that are not inlined anywhere (DWARF then has one
# place, as BTF does), each as "F $params" and "F%return $retval", and
# member chains.
cat >funcs <<'EOF'
vfs_read vfs_write vfs_statx vfs_unlink vfs_mkdir vfs_rmdir vfs_create vfs_link
vfs_readlink vfs_truncate vfs_fallocate vfs_iter_read vfs_copy_file_range vfs_setxattr
vfs_getxattr vfs_listxattr do_sys_openat2 do_filp_open do_dentry_open filp_close
path_openat path_lookupat filename_lookup putname do_renameat2 do_mkdirat do_rmdir
do_readlinkat do_fchmodat chmod_common chown_common do_faccessat d_alloc d_delete d_add
d_make_root ihold iget_locked new_inode inode_init_once __mark_inode_dirty
generic_file_read_iter generic_file_write_iter generic_perform_write filemap_fault
filemap_write_and_wait_range file_write_and_wait_range security_file_permission fput fget
fd_install alloc_fd ksys_write try_to_wake_up schedule_timeout sched_fork do_exit
do_group_exit copy_process kernel_clone __set_task_comm do_send_sig_info exit_files
release_task tcp_recvmsg tcp_v4_connect tcp_close tcp_rcv_established tcp_connect
tcp_set_state tcp_fin tcp_shutdown inet_bind inet_listen inet_accept inet_sendmsg
udp_sendmsg udp_recvmsg ip_rcv ip_output __sock_create sock_sendmsg sock_recvmsg
sock_alloc_file kfree_skb_reason consume_skb skb_clone skb_copy netif_receive_skb
napi_gro_receive kmem_cache_alloc kmem_cache_free __kmalloc kfree vmalloc vfree do_mmap
do_munmap vm_mmap_pgoff mprotect_fixup __handle_mm_fault copy_page_range unmap_page_range
zap_page_range_single try_to_free_pages folio_mark_dirty set_page_dirty
get_user_pages_fast bprm_execve begin_new_exec setup_new_exec
EOF
cat >members <<'EOF'
vfs_read file->f_path.dentry->d_name.name:string
vfs_read file->f_mode file->f_flags file->f_pos
vfs_read file->f_inode->i_ino file->f_inode->i_sb->s_dev
try_to_wake_up p->pid p->comm:string p->comm[1] p->__state
tcp_sendmsg sk->__sk_common.skc_dport sk->__sk_common.skc_family size
do_mmap file pgoff populate uf
vfs_read file->f_ra.ra_pages
inet_bind sock->sk->__sk_common.skc_num uaddr->sa_family
security_file_permission file->f_mode mask
do_filp_open pathname->name:string dfd
filp_close filp->f_count.counter
d_alloc parent->d_name.name:string name->name:string
tcp_set_state sk->__sk_common.skc_state state
__alloc_skb size gfp_mask flags node
kfree_skb_reason skb->len skb->dev->name:string reason
sk_alloc family priority prot->name:string kern
wake_up_new_task p->pid p->prio
handle_mm_fault vma->vm_start vma->vm_flags address flags
bprm_execve bprm->filename:string fd
tcp_v4_connect sk->__sk_common.skc_daddr uaddr
vfs_write file->f_path.mnt->mnt_flags buf:string
ip_rcv skb->protocol dev->ifindex
EOF

# specs FILE: the -D options of every line of FILE, for "eval set --".
specs() {
	while IFS= read -r l; do
		printf -- "-D '%s' " "$l"
	done <"$1"
}

test_expect_success VMLINUX_DWARF 'setup: the corpus of specs' '
	for f in $(cat funcs); do
		printf "%s \$params\n%s%%return \$retval\n" "$f" "$f"
	done >corpus &&
	cat members >>corpus &&
	test_line_count -ge 200 corpus
'

test_expect_success VMLINUX_DWARF 'the corpus from BTF is our DWARF output, $retval typed' '
	eval "set -- $(specs corpus)" &&
	"$PERF" probe -k "$VMLINUX" "$@" >dwarf 2>dwarf.err &&
	"$PERF" probe --btf -k "$VMLINUX" "$@" >btf 2>btf.err &&
	test_line_count = "$(wc -l <corpus)" dwarf &&
	sed "s/\\\$retval:[sx][0-9]*\$/\$retval/" btf >btf.untyped &&
	test_cmp_file dwarf btf.untyped &&
	grep -c . btf >/dev/null &&
	say "$(wc -l <corpus) specs: $(grep -vc "\\\$retval:" btf) byte-identical, the rest with a typed \$retval"
'

# perf 6.1 fails on the bitfield and writes "$params" of a return probe
# as it is; our DWARF path does neither.
test_expect_success VMLINUX_DWARF 'a bitfield, and $params of a return probe, from BTF as from DWARF' '
	set -- -D "tcp_v4_connect sk->sk_userlocks" -D "vfs_read%return \$params" &&
	"$PERF" probe -k "$VMLINUX" "$@" >bf.dwarf &&
	"$PERF" probe --btf -k "$VMLINUX" "$@" >bf.btf &&
	grep -q "^r:probe/vfs_read__return vfs_read+0 file=%di:x64 buf=" bf.btf &&
	grep -q "sk_userlocks=+[0-9]*(%di):b4@4/8$" bf.btf &&
	test_cmp_file bf.dwarf bf.btf
'

test_expect_success VMLINUX_DWARF 'a probe cache made from DWARF is the one made from BTF' '
	mkdir h1 h2 &&
	set -- -a "vfs_read file count" -a "tcp_sendmsg sk->__sk_common.skc_dport size" &&
	HOME=$TEST_TMP/h1 "$PERF" probe --cache -n -q -k "$VMLINUX" "$@" &&
	HOME=$TEST_TMP/h2 "$PERF" probe --btf --cache -n -q -k "$VMLINUX" "$@" &&
	bid=$("$PERF" buildid-list -i "$VMLINUX") &&
	grep -q "^p:probe/tcp_sendmsg tcp_sendmsg+0 skc_dport=" "h2/.debug/[kernel.kallsyms]/$bid/probes" &&
	test_cmp_file "h1/.debug/[kernel.kallsyms]/$bid/probes" "h2/.debug/[kernel.kallsyms]/$bid/probes"
'

# perf 6.1 takes about a second a spec on this vmlinux: a sample of the
# corpus, in one command.
test_expect_success VMLINUX_DWARF,SYSTEM_PERF 'a sample of the corpus from BTF is the system perf output' '
	awk "NR % 20 == 1" corpus >sample &&
	eval "set -- $(specs sample)" &&
	"$SYSTEM_PERF" probe -k "$VMLINUX" "$@" >theirs 2>/dev/null &&
	"$PERF" probe --btf -k "$VMLINUX" "$@" >ours &&
	sed "s/\\\$retval:[sx][0-9]*\$/\$retval/" ours >ours.untyped &&
	test_line_count = "$(wc -l <sample)" theirs &&
	test_cmp_file theirs ours.untyped
'

test_expect_success VMLINUX_DWARF '-V from BTF is -V from DWARF' '
	"$PERF" probe -k "$VMLINUX" -V vfs_read >v.dwarf &&
	"$PERF" probe --btf -k "$VMLINUX" -V vfs_read >v.btf &&
	test_cmp_file v.dwarf v.btf
'

test_done
