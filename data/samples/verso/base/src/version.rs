use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// Version is a semantic version number, MAJOR.MINOR.PATCH. Versions order
/// by their numbers, major first.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
}

impl Version {
    /// New returns the version major.minor.patch.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version { major, minor, patch }
    }

    /// Parse reads "MAJOR.MINOR.PATCH", surrounding spaces allowed.
    pub fn parse(s: &str) -> Result<Version, Error> {
        let s = s.trim();
        if s.is_empty() {
            return Err(Error::Empty);
        }
        let parts: Vec<&str> = split_dots(s);
        if parts.len() != 3 {
            return Err(Error::WrongParts(parts.len()));
        }
        Ok(Version {
            major: number(parts[0])?,
            minor: number(parts[1])?,
            patch: number(parts[2])?,
        })
    }

    /// Bumps return the next version of each kind.
    pub fn bump_major(&self) -> Version {
        Version::new(self.major + 1, 0, 0)
    }

    pub fn bump_minor(&self) -> Version {
        Version::new(self.major, self.minor + 1, 0)
    }

    pub fn bump_patch(&self) -> Version {
        Version::new(self.major, self.minor, self.patch + 1)
    }
}

/// split_dots cuts s at every '.', with memchr for the search.
pub(crate) fn split_dots(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = memchr::memchr(b'.', rest.as_bytes()) {
        out.push(&rest[..i]);
        rest = &rest[i + 1..];
    }
    out.push(rest);
    out
}

/// number reads a numeric part: decimal digits without a leading zero.
pub(crate) fn number(s: &str) -> Result<u64, Error> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::BadNumber(s.to_string()));
    }
    if s.len() > 1 && s.starts_with('0') {
        return Err(Error::LeadingZero(s.to_string()));
    }
    s.parse().map_err(|_| Error::BadNumber(s.to_string()))
}

impl FromStr for Version {
    type Err = Error;

    fn from_str(s: &str) -> Result<Version, Error> {
        Version::parse(s)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

#[cfg(test)]
mod tests;
