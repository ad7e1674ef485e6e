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

int sdt_arg__to_fetcharg(const char *arg, struct strbuf *out)
{
	const char *at = strchr(arg, '@'), *op = at ? at + 1 : arg, *type = NULL;
	size_t len = out->len;

	if (at && size_type(arg, at - arg, &type))
		return -EINVAL;
	if (!convert_operand(op, out)) {
		strbuf_setlen(out, len);
		return 0;
	}
	if (type)
		strbuf_addf(out, ":%s", type);
	return 1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

int sdt_args__synthesize(const char *args, struct strbuf *out, char **bad)
{
	struct strbuf word = STRBUF_INIT, conv = STRBUF_INIT;
	const char *p = args;
	size_t len = out->len;
	int n = 0, ret = 0;

	while (*p) {
		const char *end;

		while (is_space(*p))
			p++;
		if (!*p)
			break;
		for (end = p; *end && !is_space(*end); end++)
			;
		strbuf_reset(&word);
		strbuf_add(&word, p, end - p);
		p = end;
		n++;
		ret = sdt_arg__to_fetcharg(word.buf, &conv);
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

int sdt_note__synthesize(const struct sdt_note *note, const char *path, struct strbuf *out,
			 char **bad)
{
	size_t len = out->len;
	int ret;

	strbuf_addf(out, "p:sdt_%s/%s %s:0x%" PRIx64, note->provider, note->name, path,
		    note->offset);
	if (note->sem_offset)
		strbuf_addf(out, "(0x%" PRIx64 ")", note->sem_offset);
	ret = sdt_args__synthesize(note->args, out, bad);
	if (ret)
		strbuf_setlen(out, len);
	return ret;
}
