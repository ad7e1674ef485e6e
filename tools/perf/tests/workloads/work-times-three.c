__attribute__((noinline)) int work(int n) { return n * 3; }
volatile int sink;
int main(void) { sink += work(1); return 0; }
