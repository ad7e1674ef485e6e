// C++ names for perf probe (t0360): namespaces, a class with overloads,
// a template, a nested namespace and an anonymous namespace.
#include <cstdio>
#include <cstdlib>

namespace shop {

class Cart {
public:
	Cart() : total(0) {}
	__attribute__((noinline)) long add(int price);
	__attribute__((noinline)) long add(int price, int count);
	template <typename T> __attribute__((noinline)) T scale(T v)
	{
		return v * (T)(total + 1);
	}
	long total;
};

long Cart::add(int price)
{
	total += price;
	return total;
}

long Cart::add(int price, int count)
{
	total += (long)price * count;
	return total;
}

namespace deep {
namespace inner {
__attribute__((noinline)) int depth(int level)
{
	return level * 3;
}
} // namespace inner
} // namespace deep

} // namespace shop

// A name longer than an event name may be (64 characters).
namespace a_rather_long_namespace_name {
struct AnotherRatherLongClassName {
	__attribute__((noinline)) static int a_long_method_name(int v)
	{
		return v - 1;
	}
};
} // namespace a_rather_long_namespace_name

namespace {
__attribute__((noinline)) int helper(int x)
{
	return x + 7;
}
} // namespace

int main(int argc, char **argv)
{
	shop::Cart cart;
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	long sum = 0;

	for (int i = 0; i < rounds; i++) {
		sum += cart.add(41 + i);
		sum += cart.add(5, 3);
		sum += cart.scale<long>(2);
		sum += (long)cart.scale<double>(1.5);
		sum += shop::deep::inner::depth(i);
		sum += helper(i);
		sum += a_rather_long_namespace_name::AnotherRatherLongClassName::a_long_method_name(i);
	}
	printf("%ld\n", sum);
	return 0;
}
