/* The values gdb prints at optimized places (t0311): see README. */
#include <stdio.h>
#include <stdlib.h>

struct point { int x; int y; };
struct pair { long a; long b; };
struct small { short s; char c; unsigned char u; int w; };
struct rec { int id; long len; struct rec *next; };

static int hits;
volatile int sink;

__attribute__((noinline)) void use(long v)
{
	sink += (int)v;
}

__attribute__((noinline)) int byval(struct point p, int k)
{
	use(p.x);
	return p.y * k;
}

__attribute__((noinline)) long bypair(struct pair q)
{
	use(q.a);
	return q.b;
}

__attribute__((noinline)) int bysmall(struct small m)
{
	use(m.c);
	return m.s + m.u + m.w;
}

__attribute__((noinline)) int spent(int a, int b)
{
	use(b);
	use(b + 1);
	return b;
}

__attribute__((noinline)) int late(int a, int b)
{
	use(b);
	return a * 2;
}

__attribute__((noinline)) long sum(const int *arr, int n)
{
	long total = 0;
	int i;

	for (i = 0; i < n; i++) {
		total += arr[i] * 3;
		use(total);
	}
	return total + n;
}

__attribute__((noinline)) long scan(const long *p, long n)
{
	long t = 0;

	for (long j = 0; j < n; j++)
		t += p[j];
	sink = (int)t;
	return t;
}

__attribute__((noinline)) int walk(struct rec *r)
{
	int count = 0;

	while (r) {
		hits++;
		use(r->id);
		count += r->len;
		r = r->next;
	}
	return count + hits;
}

static inline int scaled(const struct rec *r, int f)
{
	use(r->len);
	return r->id * f + (int)r->len;
}

__attribute__((noinline)) int twice(struct rec *r, int f)
{
	struct rec local = { f + 7, f + 70, NULL };
	int a = scaled(r, f);

	use(a);
	a += scaled(&local, f);
	return a + scaled(r->next, f + 1);
}

int main(int argc, char **argv)
{
	struct point p = { argc + 6, argc * 9 };
	struct pair q = { argc + 40, argc + 50 };
	struct small m = { (short)(argc + 300), (char)(argc + 20), (unsigned char)(argc + 200), argc + 70000 };
	struct rec c = { 3, 30, NULL }, b = { 2, 20, &c }, a = { 1, 10, &b };
	int arr[4] = { argc, 2 * argc, 3, 4 };
	long big[3] = { argc + 100, 200, 300 };
	long t = 0;

	for (int round = 0; round < 2; round++) {
		t += byval(p, 2 + round);
		t += bypair(q);
		t += bysmall(m);
		t += spent(argc + 4, argc + 5);
		t += late(argc + 8, argc + 9);
		t += sum(arr, 4);
		t += scan(big, 3);
		t += walk(&a);
		t += twice(&a, 2 + round);
	}
	printf("t=%ld hits=%d\n", t, hits);
	return argv[0] == NULL;
}
