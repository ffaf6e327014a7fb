use std::cmp::Ordering;
use std::fmt;

use crate::error::Error;
use crate::version::number;

/// Identifier is one dot-separated part of a pre-release: a number
/// ("1") or alphanumeric ("alpha", "rc-2").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Identifier {
    Numeric(u64),
    Alpha(String),
}

impl Identifier {
    /// Parse reads one identifier. Digits only make a number, which may
    /// not have a leading zero; anything else must be ASCII letters,
    /// digits and '-'.
    pub fn parse(s: &str) -> Result<Identifier, Error> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return Err(Error::BadIdentifier(s.to_string()));
        }
        if s.bytes().all(|b| b.is_ascii_digit()) {
            return number(s).map(Identifier::Numeric);
        }
        Ok(Identifier::Alpha(s.to_string()))
    }

    /// is_numeric reports a numeric identifier.
    pub fn is_numeric(&self) -> bool {
        matches!(self, Identifier::Numeric(_))
    }
}

/// Numeric identifiers compare as numbers and sort before alphanumeric
/// ones, which compare in ASCII order (VRFC-2, "Precedence").
impl Ord for Identifier {
    fn cmp(&self, other: &Identifier) -> Ordering {
        match (self, other) {
            (Identifier::Numeric(a), Identifier::Numeric(b)) => a.cmp(b),
            (Identifier::Numeric(_), Identifier::Alpha(_)) => Ordering::Less,
            (Identifier::Alpha(_), Identifier::Numeric(_)) => Ordering::Greater,
            (Identifier::Alpha(a), Identifier::Alpha(b)) => a.as_bytes().cmp(b.as_bytes()),
        }
    }
}

impl PartialOrd for Identifier {
    fn partial_cmp(&self, other: &Identifier) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Identifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Identifier::Numeric(n) => write!(f, "{}", n),
            Identifier::Alpha(s) => f.write_str(s),
        }
    }
}

/// parse_list reads a dot-separated list of identifiers.
pub(crate) fn parse_list(s: &str) -> Result<Vec<Identifier>, Error> {
    crate::version::split_dots(s).into_iter().map(Identifier::parse).collect()
}

#[cfg(test)]
mod tests;
