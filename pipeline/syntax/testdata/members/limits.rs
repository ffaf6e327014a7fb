pub const MAX: usize = 10;
const HIDDEN: u8 = 1;
pub(crate) static COUNT: u32 = 0;

pub struct Config {
    pub name: String,
    retries: u8,
}

pub enum Mode {
    Fast,
    Slow { delay: u32 },
}

impl Config {
    pub const DEFAULT_RETRIES: u8 = 3;
    const SECRET: u8 = 4;

    pub fn new() -> Self {
        const LOCAL: u8 = 5;
        Config { name: String::new(), retries: LOCAL }
    }
}

pub trait Limits {
    const LIMIT: usize;
}

mod inner {
    pub const NESTED: u8 = 6;
}
