// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the raw BTF of a stand-in module "fakemod" split from the BTF of
 * argv[1] (a vmlinux BTF): one function fakemod_open(struct file *f,
 * int flags) whose struct file is the base's.  argv[2]: the output file.
 */
#include <stdio.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	struct btf *base, *mod;
	const void *data;
	unsigned int size;
	int file, ptr, i32, proto, fn;
	FILE *out;

	if (argc != 3)
		return 2;
	base = btf__parse(argv[1], NULL);
	if (!base)
		return 1;
	file = btf__find_by_name_kind(base, "file", BTF_KIND_STRUCT);
	mod = btf__new_empty_split(base);
	if (file < 0 || !mod)
		return 1;
	ptr = btf__add_ptr(mod, file);
	i32 = btf__add_int(mod, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(mod, i32);
	if (btf__add_func_param(mod, "f", ptr) || btf__add_func_param(mod, "flags", i32))
		return 1;
	fn = btf__add_func(mod, "fakemod_open", BTF_FUNC_GLOBAL, proto);
	data = btf__raw_data(mod, &size);
	out = fopen(argv[2], "w");
	if (fn < 0 || !data || !out || fwrite(data, 1, size, out) != size || fclose(out))
		return 1;
	return 0;
}
