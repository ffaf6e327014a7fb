use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::version::Version;

/// Op is a comparator's operator (VRFC-2, "Requirements").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Exact,
    Greater,
    GreaterEq,
    Less,
    LessEq,
    Tilde,
    Caret,
}

/// Comparator is one operator and the version it compares with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparator {
    pub op: Op,
    pub version: Version,
}

/// VersionReq is a comma-separated list of comparators; a version meets
/// it when it meets every one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionReq {
    pub comparators: Vec<Comparator>,
}

/// Matches is what can accept or refuse a version.
pub trait Matches {
    fn matches(&self, v: &Version) -> bool;
}

/// OPERATORS, longest first so that ">=" is not read as ">".
const OPERATORS: [(&str, Op); 7] = [
    (">=", Op::GreaterEq),
    ("<=", Op::LessEq),
    (">", Op::Greater),
    ("<", Op::Less),
    ("=", Op::Exact),
    ("~", Op::Tilde),
    ("^", Op::Caret),
];

impl Comparator {
    /// Parse reads one comparator: an operator, then a full version. A
    /// bare version means caret, as in Cargo.
    pub fn parse(s: &str) -> Result<Comparator, Error> {
        let s = s.trim();
        if s.is_empty() {
            return Err(Error::Empty);
        }
        let (op, rest) = split_op(s)?;
        Ok(Comparator { op, version: Version::parse(rest)? })
    }

    /// upper returns the first version a tilde or caret comparator
    /// refuses above its own.
    fn upper(&self) -> Version {
        let v = &self.version;
        match self.op {
            Op::Tilde => Version::new(v.major, v.minor + 1, 0),
            Op::Caret if v.major > 0 => Version::new(v.major + 1, 0, 0),
            Op::Caret if v.minor > 0 => Version::new(0, v.minor + 1, 0),
            _ => Version::new(0, 0, v.patch + 1),
        }
    }
}

fn split_op(s: &str) -> Result<(Op, &str), Error> {
    for (text, op) in OPERATORS.iter() {
        if let Some(rest) = s.strip_prefix(text) {
            return Ok((*op, rest));
        }
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        return Ok((Op::Caret, s));
    }
    let end = s.find(|c: char| c.is_ascii_digit() || c.is_whitespace()).unwrap_or(s.len());
    Err(Error::BadOperator(s[..end].to_string()))
}

impl Matches for Comparator {
    /// A pre-release matches only a comparator on the same release that
    /// has a pre-release itself (VRFC-2, "Pre-releases in requirements").
    fn matches(&self, v: &Version) -> bool {
        if v.is_prerelease() && !(self.version.is_prerelease() && self.version.same_release(v)) {
            return false;
        }
        let c = &self.version;
        match self.op {
            Op::Exact => v == c,
            Op::Greater => v > c,
            Op::GreaterEq => v >= c,
            Op::Less => v < c,
            Op::LessEq => v <= c,
            Op::Tilde | Op::Caret => v >= c && *v < self.upper(),
        }
    }
}

impl VersionReq {
    /// Parse reads comparators separated by commas.
    pub fn parse(s: &str) -> Result<VersionReq, Error> {
        if s.trim().is_empty() {
            return Err(Error::Empty);
        }
        let comparators = s.split(',').map(Comparator::parse).collect::<Result<Vec<_>, _>>()?;
        Ok(VersionReq { comparators })
    }
}

impl Matches for VersionReq {
    fn matches(&self, v: &Version) -> bool {
        self.comparators.iter().all(|c| c.matches(v))
    }
}

impl FromStr for VersionReq {
    type Err = Error;

    fn from_str(s: &str) -> Result<VersionReq, Error> {
        VersionReq::parse(s)
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = OPERATORS.iter().find(|(_, op)| op == self).map(|(t, _)| *t).unwrap_or("");
        f.write_str(text)
    }
}

impl fmt::Display for VersionReq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.comparators.iter().map(|c| format!("{}{}", c.op, c.version)).collect();
        f.write_str(&parts.join(", "))
    }
}

/// max_satisfying returns the highest version that meets req, if any
/// (VRFC-2, "Selecting a version").
pub fn max_satisfying<'a>(versions: &'a [Version], req: &VersionReq) -> Option<&'a Version> {
    versions.iter().filter(|v| req.matches(v)).max()
}

#[cfg(test)]
mod tests;
