struct s { int a; };
int arr[4];
int f(struct s *p, int n)
{
	int k = n + 1;

	return p->a + k;
}
int main(void) { struct s v = { 1 }; return f(&v, 2); }
