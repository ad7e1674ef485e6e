// Rust names for perf probe (t0360): modules, generics, a trait, a closure.
mod server {
    pub trait Greeter {
        fn greet(&self, n: u32) -> u32;
    }

    pub struct Plain {
        pub base: u32,
    }

    impl Greeter for Plain {
        #[inline(never)]
        fn greet(&self, n: u32) -> u32 {
            self.base + n
        }
    }

    #[inline(never)]
    pub fn handle(code: u32) -> u32 {
        code * 2 + 1
    }

    #[inline(never)]
    pub fn largest<T: PartialOrd + Copy>(a: T, b: T) -> T {
        if a > b {
            a
        } else {
            b
        }
    }
}

use server::Greeter;

fn main() {
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let p = server::Plain { base: 10 };
    let mut sum: u64 = 0;
    let add = |x: u32| -> u64 { x as u64 + 1 };
    for i in 0..rounds {
        sum += server::handle(20 + i) as u64;
        sum += server::largest(i, 3) as u64;
        sum += server::largest(1.5f64, i as f64) as u64;
        sum += p.greet(i) as u64;
        sum += add(i);
    }
    println!("{}", sum);
}
