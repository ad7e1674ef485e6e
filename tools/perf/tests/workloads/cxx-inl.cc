/* A method inlined into others, starting with another inlined method (t0311). */
#include <cstdio>

volatile long sink;

struct Thread {
	int id;
	long spins;
	inline int ident() const
	{
		return id * 3 + (int)spins;
	}
};

class Mutex {
public:
	long owner;
	long count;
	inline void lock(Thread *t)
	{
		owner = t->ident();
		count++;
		sink += count;
	}
};

__attribute__((noinline)) void first(Mutex *m, Thread *t)
{
	m->lock(t);
	sink++;
}

__attribute__((noinline)) void second(Mutex *m, Thread *t)
{
	sink--;
	m->lock(t);
}

__attribute__((noinline)) void both(Mutex *m, Thread *t)
{
	m->lock(t);
	m->lock(t + 1);
}

int main(int argc, char **argv)
{
	Mutex m = { 0, argc + 10 };
	Thread t[2] = { { argc + 41, 5 }, { argc + 50, 6 } };

	first(&m, t);
	second(&m, t);
	both(&m, t);
	printf("%ld %ld\n", m.owner, m.count);
	return argv[0] == nullptr;
}
