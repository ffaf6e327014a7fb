use verso::{Error, Identifier, Version};

#[test]
fn parses_pre_release_and_build() {
    let v = Version::parse("1.0.0-alpha.1+build.5").unwrap();
    assert_eq!(v.pre, vec![Identifier::Alpha("alpha".into()), Identifier::Numeric(1)]);
    assert_eq!(v.build, vec!["build".to_string(), "5".to_string()]);
    assert!(v.is_prerelease());
    assert_eq!(v.to_string(), "1.0.0-alpha.1+build.5");
}

#[test]
fn refuses_bad_pre_releases() {
    assert_eq!(Version::parse("1.0.0-"), Err(Error::BadIdentifier("".into())));
    assert_eq!(Version::parse("1.0.0-a..b"), Err(Error::BadIdentifier("".into())));
    assert_eq!(Version::parse("1.0.0-01"), Err(Error::LeadingZero("01".into())));
    assert_eq!(Version::parse("1.0.0+a_b").unwrap_err().to_string(), "\"a_b\" is not an identifier");
}

#[test]
fn precedence_follows_the_specification() {
    let order = [
        "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
        "1.0.0-rc.1", "1.0.0",
    ];
    for w in order.windows(2) {
        let (a, b) = (Version::parse(w[0]).unwrap(), Version::parse(w[1]).unwrap());
        assert!(a < b, "{} < {}", a, b);
    }
}

#[test]
fn build_metadata_is_ignored_in_precedence() {
    assert_eq!(Version::parse("1.0.0+a").unwrap(), Version::parse("1.0.0+b").unwrap());
    assert!(Version::parse("1.0.0-rc.1+z").unwrap() < Version::parse("1.0.0+a").unwrap());
}

#[test]
fn pre_releases_bump_to_their_release() {
    let v = Version::parse("2.0.0-rc.1").unwrap();
    assert_eq!(v.bump_major().to_string(), "2.0.0");
    assert_eq!(Version::parse("1.3.0-beta").unwrap().bump_minor().to_string(), "1.3.0");
    assert_eq!(Version::parse("1.3.4-beta").unwrap().bump_patch().to_string(), "1.3.4");
    assert_eq!(Version::parse("1.3.4-beta").unwrap().bump_minor().to_string(), "1.4.0");
}
