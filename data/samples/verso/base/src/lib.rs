//! verso: semantic version numbers.
//!
//! A [`Version`] is `MAJOR.MINOR.PATCH`; it parses from a string, prints
//! back to the same string and orders numerically.

mod error;
mod version;

pub use error::Error;
pub use version::Version;

/// Parses a version, as `Version::parse` does.
pub fn parse(s: &str) -> Result<Version, Error> {
    Version::parse(s)
}
