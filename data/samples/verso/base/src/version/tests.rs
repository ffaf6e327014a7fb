use super::*;

#[test]
fn splits_at_dots() {
    assert_eq!(split_dots("1.22.333"), vec!["1", "22", "333"]);
    assert_eq!(split_dots("7"), vec!["7"]);
}

#[test]
fn numbers_refuse_leading_zeros() {
    assert_eq!(number("0"), Ok(0));
    assert_eq!(number("010"), Err(Error::LeadingZero("010".into())));
    assert_eq!(number("x"), Err(Error::BadNumber("x".into())));
}

#[test]
fn bumps_reset_lower_parts() {
    let v = Version::new(1, 2, 3);
    assert_eq!(v.bump_major(), Version::new(2, 0, 0));
    assert_eq!(v.bump_minor(), Version::new(1, 3, 0));
    assert_eq!(v.bump_patch(), Version::new(1, 2, 4));
}
