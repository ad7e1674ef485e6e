// Rust structs, references, &str and closures (t0370).
struct Item {
    price: u64,
    qty: u32,
}

struct Cart<'a> {
    total: u64,
    count: u32,
    owner: &'a str,
}

#[inline(never)]
fn add(cart: &mut Cart, it: &Item, n: u32) -> u64 {
    cart.total += it.price * n as u64;
    cart.count += n;
    cart.total
}

#[inline(never)]
fn greet(name: &str, times: u64) -> u64 {
    name.len() as u64 * times
}

#[inline(never)]
fn apply<F: Fn(u64) -> u64>(f: F, v: u64) -> u64 {
    f(v)
}

fn main() {
    let extra = std::env::args().count() as u64;
    let mut cart = Cart { total: 0, count: 0, owner: "ann" };
    let items = [Item { price: 100, qty: 1 }, Item { price: 250, qty: 2 }, Item { price: 75, qty: 3 }];
    let mut r = 0;
    for (i, it) in items.iter().enumerate() {
        r += add(&mut cart, it, i as u32 + 1);
    }
    r += greet(cart.owner, extra) + greet("rustacean", items[1].qty as u64);
    for k in [21, 4] {
        r += apply(|x| x * 2 + extra, k);
    }
    println!("r={} total={} count={}", r, cart.total, cart.count);
}
