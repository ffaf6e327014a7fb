use verso::{Comparator, Error, Matches, Op, Version, VersionReq};

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

#[test]
fn parses_comparators() {
    let req: VersionReq = ">=1.2.0, <2.0.0".parse().unwrap();
    assert_eq!(req.comparators.len(), 2);
    assert_eq!(req.comparators[0], Comparator { op: Op::GreaterEq, version: v("1.2.0") });
    assert_eq!(req.to_string(), ">=1.2.0, <2.0.0");
    assert_eq!(VersionReq::parse("1.2.3").unwrap().to_string(), "^1.2.3");
}

#[test]
fn refuses_bad_requirements() {
    assert_eq!(VersionReq::parse(" "), Err(Error::Empty));
    assert_eq!(VersionReq::parse("!=1.0.0"), Err(Error::BadOperator("!=".into())));
    assert_eq!(VersionReq::parse(">=1.0.0,"), Err(Error::Empty));
    assert_eq!(VersionReq::parse("~1.x.0"), Err(Error::BadNumber("x".into())));
}

#[test]
fn comparison_operators() {
    let req = VersionReq::parse(">1.0.0, <=1.4.0").unwrap();
    assert!(!req.matches(&v("1.0.0")));
    assert!(req.matches(&v("1.0.1")));
    assert!(req.matches(&v("1.4.0")));
    assert!(!req.matches(&v("1.4.1")));
    assert!(VersionReq::parse("=1.2.3").unwrap().matches(&v("1.2.3+meta")));
}

#[test]
fn caret_keeps_the_leftmost_non_zero() {
    let m = |r: &str, s: &str| VersionReq::parse(r).unwrap().matches(&v(s));
    assert!(m("^1.2.3", "1.9.0") && !m("^1.2.3", "2.0.0") && !m("^1.2.3", "1.2.2"));
    assert!(m("^0.2.3", "0.2.9") && !m("^0.2.3", "0.3.0"));
    assert!(m("^0.0.3", "0.0.3") && !m("^0.0.3", "0.0.4"));
}

#[test]
fn tilde_allows_patch_updates() {
    let req = VersionReq::parse("~1.2.3").unwrap();
    assert!(req.matches(&v("1.2.9")));
    assert!(!req.matches(&v("1.3.0")));
}

#[test]
fn pre_releases_need_an_opt_in() {
    let plain = VersionReq::parse(">=1.0.0").unwrap();
    assert!(!plain.matches(&v("2.0.0-rc.1")));
    let opt_in = VersionReq::parse(">=2.0.0-beta").unwrap();
    assert!(opt_in.matches(&v("2.0.0-rc.1")));
    assert!(!opt_in.matches(&v("2.1.0-rc.1")));
    assert!(opt_in.matches(&v("2.1.0")));
}
