use std::fmt;

pub struct Counter {
    n: u32,
}

impl Counter {
    pub fn new() -> Self {
        let inc = |x: u32| x + 1;
        Counter { n: inc(0) }
    }
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.n)
    }
}

impl<T> Stack<T> {
    fn push(&mut self, v: T) {}
}

pub trait Greet {
    fn name(&self) -> String;
    fn greet(&self) -> String {
        format!("hi {}", self.name())
    }
}

mod inner {
    pub fn util() -> u8 { 0 }
}

#[test]
fn it_works() {
    fn helper() -> u32 { 1 }
    assert_eq!(helper(), 1);
}
