//! verso: semantic version numbers.
//!
//! A [`Version`] is `MAJOR.MINOR.PATCH`, with an optional pre-release
//! (`-alpha.1`) and build metadata (`+build.5`); it parses from a string,
//! prints back to the same string and orders by semantic version
//! precedence. A [`VersionReq`] says which versions a dependent accepts
//! (VRFC-2).

mod error;
mod identifier;
mod req;
mod version;

pub use error::Error;
pub use identifier::Identifier;
pub use req::{max_satisfying, Comparator, Matches, Op, VersionReq};
pub use version::Version;

/// Parses a version, as `Version::parse` does.
pub fn parse(s: &str) -> Result<Version, Error> {
    Version::parse(s)
}
