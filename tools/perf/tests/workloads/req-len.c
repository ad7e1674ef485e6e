struct req { int len; };
__attribute__((noinline)) int handle(struct req *r, int seq) { return r->len + seq; }
int main(int argc, char **argv) { struct req r = { argc }; return handle(&r, 1) == 0; }
