int foo_v1(int x) { return x; }
int foo_v2(int x) { return x + 1; }
int bar(int x) { return x * 3; }
__asm__(".symver foo_v1,foo@V1");
__asm__(".symver foo_v2,foo@@V2");
