#!/bin/sh
test_description='perf buildid-list: the build-id of ELF files and of the kernel'
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# check_build_id FILE: ours prints exactly the build-id readelf finds.
check_build_id() {
	want=$(build_id_of "$1") &&
	test -n "$want" &&
	"$PERF" buildid-list -i "$1" >out 2>err &&
	echo "$want" >expect &&
	cmp expect out &&
	! test -s err
}

test_lazy_prereq KERNEL_NOTES 'test -r /sys/kernel/notes'


# A minimal ELF file of either class and byte order: a PT_NOTE segment for a
# GNU property note (8-aligned in ELF64, as linkers make it) and one for the
# build-id, and, unless "nosections", the matching SHT_NOTE sections.  The
# notes are written in the file's own byte order, as readelf expects.
cat >mkelf.py <<'SRC'
import struct, sys

out, cls, order, bid = sys.argv[1], int(sys.argv[2]), sys.argv[3], bytes.fromhex(sys.argv[4])
sections = len(sys.argv) < 6 or sys.argv[5] != "nosections"
e = ">" if order == "big" else "<"
wide = cls == 64
addr = "Q" if wide else "I"
ehsize, phentsize, shentsize = (64, 56, 64) if wide else (52, 32, 40)
palign = 8 if wide else 4

def note(ntype, desc, align):
    n = struct.pack(e + "III", 4, len(desc), ntype) + b"GNU\0" + desc
    return n + b"\0" * (-len(n) % align)

prop_desc = struct.pack(e + "III", 0xc0008002, 4, 1) + (b"\0" * 4 if wide else b"")
prop = note(5, prop_desc, palign)
build_id = note(3, bid, 4)
shstrtab = b"\0.note.gnu.property\0.note.gnu.build-id\0.shstrtab\0"

body = b""
off = ehsize + 2 * phentsize
prop_off = (off + palign - 1) & ~(palign - 1)
body += b"\0" * (prop_off - off) + prop
bid_off = prop_off + len(prop)
body += build_id
str_off = bid_off + len(build_id)
body += shstrtab
sh_off = (str_off + len(shstrtab) + 7) & ~7
body += b"\0" * (sh_off - str_off - len(shstrtab))

def phdr(offset, size, align):
    if wide:
        return struct.pack(e + "IIQQQQQQ", 4, 4, offset, offset, offset, size, size, align)
    return struct.pack(e + "IIIIIIII", 4, offset, offset, offset, size, size, 4, align)

def shdr(name, stype, offset, size, align):
    fmt = e + ("IIQQQQIIQQ" if wide else "IIIIIIIIII")
    return struct.pack(fmt, name, stype, 2 if stype == 7 else 0, offset if stype == 7 else 0,
                       offset, size, 0, 0, align, 0)

shdrs = shdr(0, 0, 0, 0, 0)
shdrs += shdr(shstrtab.index(b".note.gnu.property"), 7, prop_off, len(prop), palign)
shdrs += shdr(shstrtab.index(b".note.gnu.build-id"), 7, bid_off, len(build_id), 4)
shdrs += shdr(shstrtab.index(b".shstrtab"), 3, str_off, len(shstrtab), 1)

ident = b"\x7fELF" + bytes([2 if wide else 1, 2 if order == "big" else 1, 1, 0]) + b"\0" * 8
machine = 21 if wide else 20  # EM_PPC64, EM_PPC: big-endian machines
ehdr = ident + struct.pack(e + "HHI" + addr + addr + addr + "IHHHHHH", 2, machine, 1, 0,
                           ehsize, sh_off if sections else 0, 0, ehsize, phentsize, 2,
                           shentsize, 4 if sections else 0, 3 if sections else 0)
phdrs = phdr(prop_off, len(prop), palign) + phdr(bid_off, len(build_id), 4)
data = ehdr + phdrs + body
if sections:
    data += shdrs
open(out, "wb").write(data)
SRC

BID=0123456789abcdeffedcba987654321000c0ffee

test_expect_success GCC,READELF 'a PIE executable: the build-id readelf shows' '
	build_workload true pie -pie -fPIE &&
	check_build_id pie
'

test_expect_success GCC,READELF 'a non-PIE executable: the build-id readelf shows' '
	build_workload true nopie -no-pie &&
	check_build_id nopie
'

test_expect_success GCC,READELF 'a shared library: the build-id readelf shows' '
	build_workload answer-lib lib.so -shared -fPIC &&
	check_build_id lib.so
'

test_expect_success GCC,READELF 'the long option --input works like -i' '
	build_workload true prog &&
	"$PERF" buildid-list -i prog >expect &&
	"$PERF" buildid-list --input=prog >out &&
	cmp expect out &&
	"$PERF" buildid-list --input prog >out &&
	cmp expect out
'

test_expect_success GCC,READELF,M32 'a 32-bit executable (gcc -m32): the build-id readelf shows' '
	build_workload true m32 -m32 &&
	od -An -tx1 -j4 -N1 m32 | grep -q 01 &&
	check_build_id m32
'

test_expect_success READELF,PYTHON3 'a crafted little-endian ELF32 file reads like readelf' '
	python3 mkelf.py el32 32 little $BID &&
	test "$(build_id_of el32)" = $BID &&
	check_build_id el32
'

test_expect_success READELF,PYTHON3 'a big-endian ELF64 file with its notes in big-endian order' '
	python3 mkelf.py be64 64 big $BID &&
	readelf -h be64 | grep -q "big endian" &&
	readelf -n be64 | grep -q NT_GNU_PROPERTY_TYPE_0 &&
	test "$(build_id_of be64)" = $BID &&
	check_build_id be64
'

test_expect_success READELF,PYTHON3 'a big-endian ELF32 file with its notes in big-endian order' '
	python3 mkelf.py be32 32 big $BID &&
	readelf -h be32 | grep -q "ELF32" &&
	test "$(build_id_of be32)" = $BID &&
	check_build_id be32
'

test_expect_success READELF,PYTHON3 'a big-endian file without sections: the build-id of its PT_NOTE' '
	python3 mkelf.py be64-nosec 64 big $BID nosections &&
	readelf -S be64-nosec | grep -q "no sections" &&
	test "$(build_id_of be64-nosec)" = $BID &&
	check_build_id be64-nosec
'

# Zero e_shoff (8 bytes at 0x28), e_shnum (0x3c) and e_shstrndx (0x3e) of an
# ELF64 copy: only the program headers are left to find the notes.
test_expect_success GCC,READELF 'an executable without section headers: the build-id of its PT_NOTE' '
	build_workload true prog &&
	cp prog nosec &&
	printf "\0\0\0\0\0\0\0\0" | dd of=nosec bs=1 seek=40 conv=notrunc 2>/dev/null &&
	printf "\0\0\0\0" | dd of=nosec bs=1 seek=60 conv=notrunc 2>/dev/null &&
	readelf -S nosec | grep -q "no sections" &&
	test "$(build_id_of nosec)" = "$(build_id_of prog)" &&
	check_build_id nosec
'

test_expect_success GCC,READELF 'a file built without a build-id: one clear line and a failure' '
	build_workload true nobid -Wl,--build-id=none &&
	test -z "$(build_id_of nobid)" &&
	test_refuses "$PERF" buildid-list -i nobid &&
	grep -qF nobid err &&
	grep -q "no build-id" err
'

test_expect_success 'a missing file: one line and a failure' '
	test_refuses "$PERF" buildid-list -i does-not-exist &&
	grep -qF does-not-exist err &&
	grep -q "No such file" err
'

test_expect_success 'a directory: one line and a failure' '
	mkdir -p adir &&
	test_refuses "$PERF" buildid-list -i adir &&
	grep -qF adir err &&
	grep -qi "directory" err
'

test_expect_success 'a text file: one line and a failure' '
	echo "not an ELF file" >text &&
	test_refuses "$PERF" buildid-list -i text &&
	grep -qF text err &&
	grep -q "not an ELF" err
'

test_expect_success 'an empty file: one line and a failure' '
	: >empty &&
	test_refuses "$PERF" buildid-list -i empty &&
	grep -qF empty err
'

test_expect_success GCC,READELF 'the first 100 bytes of an executable: one line and a failure' '
	build_workload true prog &&
	head -c 100 prog >cut100 &&
	test_refuses "$PERF" buildid-list -i cut100 &&
	grep -qF cut100 err &&
	grep -q "truncated" err
'

test_expect_success GCC,READELF 'the first 3000 bytes of an executable: one line and a failure' '
	build_workload true prog &&
	head -c 3000 prog >cut3000 &&
	test_refuses "$PERF" buildid-list -i cut3000 &&
	grep -qF cut3000 err &&
	grep -q "truncated" err
'

# The descsz word of the build-id note is 4 bytes into its section.
test_expect_success GCC,READELF 'a build-id note whose size points past its section: one line, a failure' '
	build_workload true prog &&
	cp prog liar &&
	off=$(readelf -SW liar | sed -n "s/.*\.note\.gnu\.build-id *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p") &&
	test -n "$off" &&
	printf "\377\377\0\0" | dd of=liar bs=1 seek=$((0x$off + 4)) conv=notrunc 2>/dev/null &&
	readelf -n liar 2>&1 | grep -q -i "corrupt\|exceeds\|warning" &&
	test_refuses "$PERF" buildid-list -i liar &&
	grep -qF liar err
'

test_expect_success 'without -i, -k or -m: one line and a failure' '
	test_refuses "$PERF" buildid-list
'

test_expect_success 'an unexpected argument exits with 129' '
	"$PERF" buildid-list stray >out 2>err
	test $? -eq 129 &&
	grep -q "stray" err
'

test_expect_success KERNEL_NOTES,SYSTEM_PERF 'perf buildid-list -k equals the system perf' '
	test_same_as_system_perf buildid-list -k &&
	test_line_count = 1 ours
'

test_expect_success KERNEL_NOTES 'perf buildid-list -m starts with the kernel, named [kernel.kallsyms]' '
	"$PERF" buildid-list -k >kernel &&
	"$PERF" buildid-list -m >out &&
	echo "$(cat kernel) [kernel.kallsyms]" >expect &&
	head -n 1 out >first &&
	cmp expect first &&
	! grep -v "^[0-9a-f]\{2,40\} \[.*\]$" out
'

test_done
