void _text(void) {}
int vfs_read(int *file, int count) { return *file + count; }
int do_sys_open(int a) { return a + 1; }
int blocked_func(int a) { return a * 2; }
void _start(void) {}
