__attribute__((noinline)) int handle(int x) { return x + 1; }
int main(int argc, char **argv) { return handle(argc) == 0; }
