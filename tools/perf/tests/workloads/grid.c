struct board { int id; int cell[2][3]; };
__attribute__((noinline)) int peek(struct board *b) { return b->cell[1][2]; }
int main(void) { struct board b = { 0 }; return peek(&b); }
