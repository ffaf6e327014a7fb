use verso::{Error, Version};

#[test]
fn parses_and_prints() {
    let v: Version = " 1.4.2 ".parse().unwrap();
    assert_eq!(v, Version::new(1, 4, 2));
    assert_eq!(v.to_string(), "1.4.2");
}

#[test]
fn refuses_bad_versions() {
    assert_eq!(Version::parse(""), Err(Error::Empty));
    assert_eq!(Version::parse("1.2"), Err(Error::WrongParts(2)));
    assert_eq!(Version::parse("1.b.3"), Err(Error::BadNumber("b".into())));
    assert_eq!(Version::parse("1.02.3").unwrap_err().to_string(), "\"02\" has a leading zero");
}

#[test]
fn orders_numerically() {
    let mut vs: Vec<Version> = ["1.10.0", "1.2.0", "0.9.9"].iter().map(|s| s.parse().unwrap()).collect();
    vs.sort();
    let got: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
    assert_eq!(got, ["0.9.9", "1.2.0", "1.10.0"]);
}
