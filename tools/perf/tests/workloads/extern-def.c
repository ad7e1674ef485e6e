struct cfg { int level; const char *name; };
struct cfg conf = { 6, "conf-name" };
long counter = 30;
