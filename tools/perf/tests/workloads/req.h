struct flags { unsigned urgent:1; unsigned prio:3; int rest:12; };
struct req {
	int id;
	long len;
	char name[16];
	const char *peer;
	struct flags fl;
	struct { unsigned a:2; unsigned b:5; } anon;
	union { int i; float f; } u;
	struct req *next;
	short arr[4];
	unsigned char uc;
	enum { RED, GREEN } color;
	double ratio;
	_Bool done;
};
int handle(struct req *req, int n);
int consume(const char *s, unsigned long ul, char c);
