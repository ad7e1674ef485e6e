int work(int a) { return a + 1; }
int main(void) { return work(0); }
