int other(int x) { return x * 7; }
int main(void) { return other(1) == 0; }
