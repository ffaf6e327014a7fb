use verso::{max_satisfying, Version, VersionReq};

fn versions(list: &[&str]) -> Vec<Version> {
    list.iter().map(|s| Version::parse(s).unwrap()).collect()
}

#[test]
fn picks_the_highest_match() {
    let vs = versions(&["1.2.0", "1.9.3", "2.0.0", "1.10.1"]);
    let req = VersionReq::parse("^1.2.0").unwrap();
    assert_eq!(max_satisfying(&vs, &req).map(|v| v.to_string()), Some("1.10.1".into()));
}

#[test]
fn none_when_nothing_matches() {
    let vs = versions(&["0.9.0", "3.0.0"]);
    assert_eq!(max_satisfying(&vs, &VersionReq::parse("^1.0.0").unwrap()), None);
}

#[test]
fn skips_pre_releases_unless_asked() {
    let vs = versions(&["1.4.0", "1.5.0-rc.1"]);
    let stable = VersionReq::parse(">=1.0.0").unwrap();
    assert_eq!(max_satisfying(&vs, &stable).unwrap().to_string(), "1.4.0");
    let pre = VersionReq::parse(">=1.5.0-alpha").unwrap();
    assert_eq!(max_satisfying(&vs, &pre).unwrap().to_string(), "1.5.0-rc.1");
}
