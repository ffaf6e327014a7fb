use super::*;

#[test]
fn longest_operator_wins() {
    assert_eq!(split_op(">=1.0.0").unwrap(), (Op::GreaterEq, "1.0.0"));
    assert_eq!(split_op("1.0.0").unwrap(), (Op::Caret, "1.0.0"));
    assert_eq!(split_op("=>1.0.0"), Ok((Op::Exact, ">1.0.0")));
    assert_eq!(split_op("!1.0.0"), Err(Error::BadOperator("!".into())));
}

#[test]
fn caret_and_tilde_upper_bounds() {
    let upper = |s: &str| Comparator::parse(s).unwrap().upper().to_string();
    assert_eq!(upper("^1.2.3"), "2.0.0");
    assert_eq!(upper("^0.2.3"), "0.3.0");
    assert_eq!(upper("^0.0.3"), "0.0.4");
    assert_eq!(upper("~1.2.3"), "1.3.0");
}
