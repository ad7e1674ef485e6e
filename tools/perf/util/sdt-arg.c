// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/arch-regs.h"
#include "util/debug.h"
#include "util/sdt-arg.h"
#include "util/sdt-note.h"
#include "util/util.h"

static bool is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The type of a SIZE: 0 and "no type" (*@type NULL), or -EINVAL. */
static int size_type(const char *size, size_t len, const char **type)
{
	static const char *const types[2][9] = {
		{ NULL, "u8", "u16", NULL, "u32", NULL, NULL, NULL, "u64" },
		{ NULL, "s8", "s16", NULL, "s32", NULL, NULL, NULL, "s64" },
	};
	char buf[32];
	long n;

	/* strtol's reading: leading sign and digits, the rest ignored. */
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, size, len);
	buf[len] = '\0';
	n = strtol(buf, NULL, 10);
	if (n > 8 || n < -8)
		return -EINVAL;
	*type = types[n < 0][n < 0 ? -n : n];
	return 0;
}

/*
 * Does the decimal [+|-]DIGITS from @sign to @end fit the kernel's long?
 * A displacement that does not is no fetcharg (the trace-event parser
 * refuses it): such an operand is skipped, not passed on.
 */
static bool displacement_fits(const char *sign, const char *end)
{
	char buf[32];
	size_t n = end - sign;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, sign, n);
	buf[n] = '\0';
	errno = 0;
	strtoll(buf, NULL, 10);
	return errno != ERANGE;
}

/* OP as [+|-][DIGITS][(]%REG[)], whole; 0 when it is not. */
static int convert_operand(const char *op, struct strbuf *out)
{
	const char *p = op, *sign, *digits, *reg, *kreg;
	size_t sign_len, digits_len, reg_len;
	bool lparen, rparen;

	sign = p;
	if (*p == '+' || *p == '-')
		p++;
	sign_len = p - sign;
	digits = p;
	while (is_digit(*p))
		p++;
	digits_len = p - digits;
	lparen = *p == '(';
	if (lparen)
		p++;
	if (*p++ != '%' || !is_lower(*p))
		return 0;
	reg = p++;
	while (is_lower(*p) || is_digit(*p))
		p++;
	reg_len = p - reg;
	if (reg_len < 2 || reg_len > 5)
		return 0;
	rparen = *p == ')';
	if (rparen)
		p++;
	if (*p)
		return 0;

	if (lparen) {
		/* "-(%rax)" is no operand gas writes; perf 6.1 turns it into
		 * "-(%ax)", which the kernel refuses: skip it instead. */
		if (sign_len && !digits_len)
			return 0;
		/* "010(%rax)" is octal to gas and to the kernel, "08" to neither:
		 * gcc never writes them, and perf's copy could mislead: skip. */
		if (digits_len > 1 && digits[0] == '0')
			return 0;
		if (!displacement_fits(sign, digits + digits_len))
			return 0;
		if (!sign_len && !digits_len)
			strbuf_addstr(out, "+0");
		else if (!sign_len)
			strbuf_addch(out, '+');
		strbuf_add(out, sign, sign_len);
		strbuf_add(out, digits, digits_len);
		strbuf_addch(out, '(');
	} else {
		/* perf drops the sign of a register operand, keeps its digits. */
		strbuf_add(out, digits, digits_len);
	}
	strbuf_addch(out, '%');
	/* x86 operands: the x86-64 names, whatever the host. */
	kreg = arch_regs__from_asm("x86_64", reg, reg_len);
	if (kreg)
		strbuf_addstr(out, kreg);
	else
		strbuf_add(out, reg, reg_len);
	if (rparen)
		strbuf_addch(out, ')');
	return 1;
}

/* [+|-]DIGITS (a decimal displacement) of @p into @out, "+0" when none; its end. */
static const char *displacement(const char *p, struct strbuf *out)
{
	const char *sign = p, *digits;

	if (*p == '+' || *p == '-')
		p++;
	digits = p;
	while (is_digit(*p))
		p++;
	if (p == digits || (p - digits > 1 && *digits == '0') || !displacement_fits(sign, p))
		return NULL;
	if (sign == digits)
		strbuf_addch(out, '+');
	strbuf_add(out, sign, p - sign);
	return p;
}

/* An arm64 register of @reg (its @len bytes): "x0".."x30", "w0".."w30", "sp", "wsp". */
static const char *arm64_reg(const char *reg, size_t len)
{
	if (len == 2 && !strncmp(reg, "sp", 2))
		return "sp";
	if (len == 3 && !strncmp(reg, "wsp", 3))
		return "sp";
	if (len < 2 || len > 3 || (reg[0] != 'x' && reg[0] != 'w') || !is_digit(reg[1]) ||
	    (len == 3 && (!is_digit(reg[2]) || reg[1] == '0')))
		return NULL;
	return arch_regs__from_asm("aarch64", reg, len);
}

/*
 * An arm64 operand as gas writes it: a register "x0", "w3", "sp", or
 * memory "[REG]", "[REG, OFF]", "[REG, #OFF]" (OFF decimal, maybe
 * signed); 0 when it is not one.
 */
static int convert_arm64(const char *op, struct strbuf *out)
{
	const char *p = op, *reg, *kreg;
	size_t len = out->len;

	if (*p != '[') {
		for (reg = p; is_lower(*p) || is_digit(*p); p++)
			;
		kreg = *p ? NULL : arm64_reg(reg, p - reg);
		if (!kreg)
			return 0;
		strbuf_addf(out, "%%%s", kreg);
		return 1;
	}
	for (reg = ++p; is_lower(*p) || is_digit(*p); p++)
		;
	kreg = arm64_reg(reg, p - reg);
	if (!kreg)
		return 0;
	if (*p == ',') {
		p++;
		while (*p == ' ')
			p++;
		if (*p == '#')
			p++;
		p = displacement(p, out);
	} else {
		strbuf_addstr(out, "+0");
	}
	if (!p || p[0] != ']' || p[1]) {
		strbuf_setlen(out, len);
		return 0;
	}
	strbuf_addf(out, "(%%%s)", kreg);
	return 1;
}

/* A riscv operand: a register "a0", "x10", "s0", or memory "OFF(REG)"; 0 when not. */
static int convert_riscv(const char *op, struct strbuf *out)
{
	const char *p = op, *reg, *kreg;
	size_t len = out->len;
	bool mem = !is_lower(*p);

	if (mem) {
		p = displacement(p, out);
		if (!p || *p++ != '(') {
			strbuf_setlen(out, len);
			return 0;
		}
	}
	for (reg = p; is_lower(*p) || is_digit(*p); p++)
		;
	kreg = p > reg ? arch_regs__from_asm("riscv64", reg, p - reg) : NULL;
	/* a whole name only: "s1" is not "s10" */
	if (kreg && (strlen(kreg) != (size_t)(p - reg) || strncmp(kreg, reg, p - reg)) &&
	    !(reg[0] == 'x' && is_digit(reg[1])))
		kreg = NULL;
	if (!kreg || (mem ? (p[0] != ')' || p[1]) : *p)) {
		strbuf_setlen(out, len);
		return 0;
	}
	strbuf_addf(out, mem ? "(%%%s)" : "%%%s", kreg);
	return 1;
}

int sdt_arg__to_fetcharg_arch(const char *arch, const char *arg, struct strbuf *out)
{
	const char *at = strchr(arg, '@'), *op = at ? at + 1 : arg, *type = NULL;
	size_t len = out->len;
	int ok;

	if (at && size_type(arg, at - arg, &type))
		return -EINVAL;
	if (!arch || !strcmp(arch, "x86_64") || !strcmp(arch, "i386"))
		ok = convert_operand(op, out);
	else if (!strcmp(arch, "aarch64"))
		ok = convert_arm64(op, out);
	else if (!strcmp(arch, "riscv64"))
		ok = convert_riscv(op, out);
	else
		ok = 0;
	if (!ok) {
		strbuf_setlen(out, len);
		return 0;
	}
	if (type)
		strbuf_addf(out, ":%s", type);
	return 1;
}

int sdt_arg__to_fetcharg(const char *arg, struct strbuf *out)
{
	return sdt_arg__to_fetcharg_arch(NULL, arg, out);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

int sdt_args__synthesize_arch(const char *arch, const char *args, struct strbuf *out, char **bad)
{
	struct strbuf word = STRBUF_INIT, conv = STRBUF_INIT;
	const char *p = args;
	size_t len = out->len;
	int n = 0, ret = 0;

	while (*p) {
		const char *end;
		int depth = 0;

		while (is_space(*p))
			p++;
		if (!*p)
			break;
		/* gcc writes arm64 memory operands with a space: "-4@[sp, 4]" */
		for (end = p; *end && (depth || !is_space(*end)); end++)
			depth += *end == '[' ? 1 : *end == ']' && depth ? -1 : 0;
		strbuf_reset(&word);
		strbuf_add(&word, p, end - p);
		p = end;
		n++;
		ret = sdt_arg__to_fetcharg_arch(arch, word.buf, &conv);
		if (ret < 0) {
			strbuf_setlen(out, len);
			if (bad)
				*bad = strbuf_detach(&word, NULL);
			goto out;
		}
		if (ret == 0) {
			const char *at = strchr(word.buf, '@');

			pr_debug("Skipping unsupported SDT argument: %s\n", at ? at + 1 : word.buf);
			continue;
		}
		strbuf_addf(out, " arg%d=", n);
		strbuf_add(out, conv.buf, conv.len);
		strbuf_reset(&conv);
	}
	ret = 0;
out:
	strbuf_release(&word);
	strbuf_release(&conv);
	return ret;
}

int sdt_args__synthesize(const char *args, struct strbuf *out, char **bad)
{
	return sdt_args__synthesize_arch(NULL, args, out, bad);
}

int sdt_note__synthesize(const struct sdt_note *note, const char *path, struct strbuf *out,
			 char **bad)
{
	size_t len = out->len;
	int ret;

	strbuf_addf(out, "p:sdt_%s/%s %s:0x%" PRIx64, note->provider, note->name, path,
		    note->offset);
	if (note->sem_offset)
		strbuf_addf(out, "(0x%" PRIx64 ")", note->sem_offset);
	ret = sdt_args__synthesize_arch(note->arch, note->args, out, bad);
	if (ret)
		strbuf_setlen(out, len);
	return ret;
}
