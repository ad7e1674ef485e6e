// Classes, a base class at an offset, references and std::string (t0370).
#include <cstdio>
#include <string>

namespace shop {

struct Item {
	long price;
	int qty;
	std::string name;
};

class Tagged {
public:
	long tag = 7;
	virtual ~Tagged() {}
};

class Base {
public:
	long id;
	static long created;
	explicit Base(long i) : id(i) { created++; }
};
long Base::created = 0;

class Cart : public Tagged, public Base {
public:
	long total = 0;
	int count = 0;
	std::string owner;
	Cart(long i, const std::string &o) : Base(i), owner(o) {}
	long add(const Item &it, int n);
	long label(const std::string &s);
};

__attribute__((noinline)) long Cart::add(const Item &it, int n)
{
	total += it.price * n;
	count += n;
	return total;
}

__attribute__((noinline)) long Cart::label(const std::string &s)
{
	owner = s;
	return (long)owner.size();
}

} // namespace shop

__attribute__((noinline)) long sum(shop::Item &&it, const shop::Item *p)
{
	return it.price + p->price + (long)it.name.size();
}

int main(int argc, char **argv)
{
	shop::Cart cart(40 + argc, "ann");
	shop::Item items[3] = { { 100, 1, "apple" }, { 250, 2, "bread" }, { 75, 3, "cheese" } };
	long r = 0;

	for (int i = 0; i < 3; i++)
		r += cart.add(items[i], i + 1);
	cart.label(std::string("bob-") + std::to_string(argc));
	cart.label("carol");
	for (int i = 0; i < 2; i++)
		r += sum(shop::Item{ 5 + i, 1, "x" }, &items[i + 1]);
	printf("r=%ld total=%ld count=%d created=%ld\n", r, cart.total, cart.count,
	       shop::Base::created);
	return 0;
}
