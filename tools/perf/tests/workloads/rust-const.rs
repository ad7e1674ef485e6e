#[inline(never)]
fn scale(v: u64, k: u64) -> u64 {
    v.wrapping_mul(k) + 1
}
#[inline(never)]
fn run(v: u64) -> u64 {
    scale(v, 5)
}
fn main() {
    let n = std::env::args().count() as u64;
    let r = run(n + 40);
    println!("r={}", r);
}
