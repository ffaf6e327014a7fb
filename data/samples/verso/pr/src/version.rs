use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use crate::error::Error;
use crate::identifier::{parse_list, Identifier};

/// Version is a semantic version number, MAJOR.MINOR.PATCH, with an
/// optional pre-release and build metadata. Versions order by semantic
/// version precedence (VRFC-2): the numbers, then the pre-release; build
/// metadata takes no part.
#[derive(Debug, Clone)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<Identifier>,
    pub build: Vec<String>,
}

impl Version {
    /// New returns the release major.minor.patch.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version { major, minor, patch, pre: Vec::new(), build: Vec::new() }
    }

    /// Parse reads "MAJOR.MINOR.PATCH[-PRE][+BUILD]", surrounding spaces
    /// allowed.
    pub fn parse(s: &str) -> Result<Version, Error> {
        let s = s.trim();
        if s.is_empty() {
            return Err(Error::Empty);
        }
        let (s, build) = match memchr::memchr(b'+', s.as_bytes()) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let (core, pre) = match memchr::memchr(b'-', s.as_bytes()) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let parts: Vec<&str> = split_dots(core);
        if parts.len() != 3 {
            return Err(Error::WrongParts(parts.len()));
        }
        let mut v = Version::new(number(parts[0])?, number(parts[1])?, number(parts[2])?);
        if let Some(pre) = pre {
            v.pre = parse_list(pre)?;
        }
        if let Some(build) = build {
            for b in split_dots(build) {
                if b.is_empty() || !b.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-') {
                    return Err(Error::BadIdentifier(b.to_string()));
                }
                v.build.push(b.to_string());
            }
        }
        Ok(v)
    }

    /// is_prerelease reports a version with a pre-release.
    pub fn is_prerelease(&self) -> bool {
        !self.pre.is_empty()
    }

    /// Bumps return the next release of each kind. A pre-release bumps to
    /// its own release when that is the next one: 2.0.0-rc.1 to 2.0.0.
    pub fn bump_major(&self) -> Version {
        if self.is_prerelease() && self.minor == 0 && self.patch == 0 {
            return Version::new(self.major, 0, 0);
        }
        Version::new(self.major + 1, 0, 0)
    }

    pub fn bump_minor(&self) -> Version {
        if self.is_prerelease() && self.patch == 0 {
            return Version::new(self.major, self.minor, 0);
        }
        Version::new(self.major, self.minor + 1, 0)
    }

    pub fn bump_patch(&self) -> Version {
        if self.is_prerelease() {
            return Version::new(self.major, self.minor, self.patch);
        }
        Version::new(self.major, self.minor, self.patch + 1)
    }

    /// same_release reports whether two versions have the same numbers.
    pub(crate) fn same_release(&self, other: &Version) -> bool {
        (self.major, self.minor, self.patch) == (other.major, other.minor, other.patch)
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

/// Precedence (VRFC-2): the numbers first; a pre-release sorts before its
/// release; two pre-releases compare identifier by identifier, and a
/// shorter list that is a prefix of the other sorts first. Build metadata
/// is ignored, so equality ignores it too.
impl Ord for Version {
    fn cmp(&self, other: &Version) -> Ordering {
        let nums = (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if nums != Ordering::Equal {
            return nums;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => self.pre.cmp(&other.pre),
        }
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Version) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Version {}

/// Hash agrees with equality: build metadata is left out.
impl Hash for Version {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.major, self.minor, self.patch).hash(state);
        self.pre.hash(state);
    }
}

impl FromStr for Version {
    type Err = Error;

    fn from_str(s: &str) -> Result<Version, Error> {
        Version::parse(s)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            let pre: Vec<String> = self.pre.iter().map(|i| i.to_string()).collect();
            write!(f, "-{}", pre.join("."))?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
