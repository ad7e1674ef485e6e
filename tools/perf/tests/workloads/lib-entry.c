__attribute__((noinline)) int lib_entry(int x) { return x * 3; }
int lib_other(int y) { return lib_entry(y) + 1; }
