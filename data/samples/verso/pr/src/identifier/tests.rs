use super::*;

#[test]
fn numeric_identifiers_compare_as_numbers() {
    assert!(Identifier::Numeric(2) < Identifier::Numeric(10));
    assert!(Identifier::parse("11").unwrap() > Identifier::parse("9").unwrap());
}

#[test]
fn numbers_sort_before_words() {
    assert!(Identifier::Numeric(99) < Identifier::Alpha("a".into()));
    assert!(Identifier::Alpha("beta".into()) > Identifier::Alpha("alpha".into()));
}

#[test]
fn refuses_bad_identifiers() {
    assert_eq!(Identifier::parse(""), Err(Error::BadIdentifier("".into())));
    assert_eq!(Identifier::parse("a_b"), Err(Error::BadIdentifier("a_b".into())));
    assert_eq!(Identifier::parse("01"), Err(Error::LeadingZero("01".into())));
    assert_eq!(parse_list("rc.1").unwrap(), vec![Identifier::Alpha("rc".into()), Identifier::Numeric(1)]);
}
