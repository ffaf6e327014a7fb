use std::fmt;

/// Error says why a string is not a version or a requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The string was empty.
    Empty,
    /// A part that must be a number was not one.
    BadNumber(String),
    /// A number had a leading zero, which semantic versions forbid.
    LeadingZero(String),
    /// There were not exactly three numbers.
    WrongParts(usize),
    /// A pre-release or build identifier was empty or held a character
    /// other than ASCII letters, digits and '-'.
    BadIdentifier(String),
    /// A comparator started with an operator verso does not know.
    BadOperator(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Empty => write!(f, "empty version"),
            Error::BadNumber(s) => write!(f, "{:?} is not a number", s),
            Error::LeadingZero(s) => write!(f, "{:?} has a leading zero", s),
            Error::WrongParts(n) => write!(f, "a version has 3 numbers, not {}", n),
            Error::BadIdentifier(s) => write!(f, "{:?} is not an identifier", s),
            Error::BadOperator(s) => write!(f, "unknown operator {:?}", s),
        }
    }
}

impl std::error::Error for Error {}
