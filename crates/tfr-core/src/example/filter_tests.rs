//! Tests of `--where`: parsing (precedence, errors with their columns,
//! names as written) and evaluation on encoded records.

use super::*;
use crate::example::proto::{self, Feature, FeatureEntry};
use prost::Message;

fn example(features: Vec<(&str, Feature)>) -> Vec<u8> {
    proto::Example {
        features: Some(proto::Features {
            feature: features.into_iter().map(|(k, v)| FeatureEntry::new(k, v)).collect(),
        }),
    }
    .encode_to_vec()
}

fn record() -> Vec<u8> {
    example(vec![
        ("label", Feature::int64s(vec![1, 2])),
        ("score", Feature::floats(vec![0.1, 0.75])),
        ("country", Feature::bytes(vec![b"US".to_vec()])),
        ("image/filename", Feature::bytes(vec![b"img_0042.jpg".to_vec()])),
        ("a.b", Feature::int64s(vec![7])),
        ("empty", Feature::int64s(vec![])),
        ("big", Feature::int64s(vec![i64::MAX])),
    ])
}

fn eval(expr: &str, payload: &[u8]) -> bool {
    let w = Where::parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
    w.matches_payload(&mut Decoder::new(), MessageType::Example, false, payload)
        .expect("decodes")
}

fn parse_err(expr: &str) -> ParseError {
    match Where::parse(expr) {
        Ok(w) => panic!("{expr} parsed: {w:?}"),
        Err(e) => e,
    }
}

#[test]
fn comparisons_on_each_kind() {
    let r = record();
    for (expr, want) in [
        ("label == 1", true),
        ("label == 3", false),
        ("label >= 2", true),
        ("label > 2", false),
        ("label < 1", false),
        ("label <= 1", true),
        ("label == 1.0", true),
        ("label < 1.5", true),
        ("label > 2.5", false),
        ("score == 0.1", true),
        ("score >= 0.5", true),
        ("score > 0.75", false),
        ("score < 1", true),
        ("country == \"US\"", true),
        ("country != \"US\"", false),
        ("country < \"UT\"", true),
        ("big == 9223372036854775807", true),
        ("big > 9.2e18", true),
        ("label == -1", false),
    ] {
        assert_eq!(eval(expr, &r), want, "{expr}");
    }
}

#[test]
fn a_list_matches_when_any_value_does() {
    let r = record();
    assert!(eval("label == 2", &r));
    assert!(eval("label != 1", &r), "2 is not 1");
    assert!(!eval("!(label == 1)", &r));
    assert!(eval("label in [5, 2]", &r));
    assert!(!eval("label in [5, 6]", &r));
    assert!(eval("country in [\"FR\", \"US\"]", &r));
}

#[test]
fn missing_features_and_other_kinds_are_false() {
    let r = record();
    for expr in [
        "nope == 1",
        "nope != 1",
        "empty == 0",
        "empty != 0",
        "label == \"1\"",
        "country == 1",
        "label ~ \"1\"",
        "nope in [1]",
    ] {
        assert!(!eval(expr, &r), "{expr}");
    }
    assert!(eval("!has(nope)", &r));
    assert!(eval("has(empty)", &r));
    assert!(eval("len(nope) == 0", &r));
    assert!(eval("len(empty) == 0", &r));
    assert!(eval("len(label) == 2 && len(score) > 1", &r));
    assert!(!eval("len(label) > 2", &r));
}

#[test]
fn names_with_slashes_dots_and_backticks() {
    let r = record();
    assert!(eval("image/filename ~ \"^img_00\"", &r));
    assert!(!eval("image/filename ~ \"^img_01\"", &r));
    assert!(eval("image/filename !~ \"\\.png$\"", &r));
    assert!(eval("a.b == 7", &r));
    assert!(eval("has(a.b)", &r));
    let odd = example(vec![("my feature", Feature::int64s(vec![3]))]);
    assert!(eval("`my feature` == 3", &odd));
    assert_eq!(
        Where::parse("has(image/filename) && `x y` > 1")
            .expect("parses")
            .names(),
        ["image/filename", "x y"]
    );
}

#[test]
fn precedence_not_and_or() {
    let r = record();
    // && binds tighter than ||: true || (false && false).
    assert!(eval("label == 1 || label == 9 && country == \"FR\"", &r));
    // Parentheses change it: (true || false) && false.
    assert!(!eval("(label == 1 || label == 9) && country == \"FR\"", &r));
    // ! binds tightest: (!false) && true.
    assert!(eval("!label == 9 && has(label)", &r), "! applies to the comparison");
    assert!(eval("!(label == 9) && has(label)", &r));
    assert!(eval("!!has(label)", &r));
    assert!(!eval("!has(label) || !has(score)", &r));
}

#[test]
fn the_last_entry_of_a_name_wins() {
    let r = example(vec![
        ("label", Feature::int64s(vec![1])),
        ("label", Feature::int64s(vec![5])),
    ]);
    assert!(eval("label == 5", &r));
    assert!(!eval("label == 1", &r));
}

#[test]
fn a_sequence_example_is_read_from_its_context() {
    let r = proto::SequenceExample {
        context: Some(proto::Features {
            feature: vec![FeatureEntry::new("user", Feature::bytes(vec![b"u1".to_vec()]))],
        }),
        feature_lists: Some(proto::FeatureLists {
            feature_list: vec![proto::FeatureListEntry::new(
                "clicks",
                proto::FeatureList {
                    feature: vec![Feature::int64s(vec![1])],
                },
            )],
        }),
    }
    .encode_to_vec();
    let seq = |expr: &str| {
        Where::parse(expr)
            .expect("parses")
            .matches_payload(&mut Decoder::new(), MessageType::SequenceExample, true, &r)
            .expect("decodes")
    };
    assert!(seq("user == \"u1\""));
    assert!(!seq("has(clicks)"), "feature lists are not the context");
}

#[test]
fn a_raw_payload_never_matches_and_a_bad_one_is_an_error() {
    let w = Where::parse("has(x) || !has(x)").expect("parses");
    assert!(!w
        .matches_payload(&mut Decoder::new(), MessageType::Raw, false, b"junk")
        .expect("raw"));
    assert!(w
        .matches_payload(&mut Decoder::new(), MessageType::Example, true, &[0x0a, 0x05])
        .is_err());
}

#[test]
fn errors_name_the_column() {
    for (expr, column, words) in [
        ("label ==", 9, "expected a value after =="),
        ("label = 1", 7, "write '=='"),
        ("label == 1 &&", 14, "expected a feature name"),
        ("label == 1 & x", 12, "write '&&'"),
        ("(label == 1", 12, "expected ')'"),
        ("label == 1)", 11, "unexpected ')'"),
        ("label 1", 7, "expected a comparison"),
        ("country == US", 12, "strings are quoted"),
        ("x ~ \"(\"", 5, "a bad regex"),
        ("x == \"abc", 6, "not closed"),
        ("len(x) > \"a\"", 10, "integer"),
        ("x == 99999999999999999999", 6, "int64 range"),
        ("x in [1 2]", 9, "expected ',' or ']'"),
        ("x == 1 # y", 8, "unexpected character"),
        ("", 1, "expected a feature name"),
    ] {
        let e = parse_err(expr);
        assert_eq!(e.column, column, "{expr}: {e}");
        assert!(e.message.contains(words), "{expr}: {e}");
    }
}

#[test]
fn hostile_expressions_are_bounded() {
    let deep = format!("{}has(x){}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(parse_err(&deep).message.contains("nested"));
    let nots = format!("{}has(x)", "!".repeat(10_000));
    assert!(parse_err(&nots).message.contains("nested"));
    // A regex whose compiled form is far over the limit is refused.
    let e = parse_err("x ~ \"\\w{1000}\\w{1000}\\w{1000}\"");
    assert!(e.message.contains("too large"), "{e}");
}

#[test]
fn nan_compares_unequal_only() {
    let r = example(vec![("s", Feature::floats(vec![f32::NAN]))]);
    assert!(eval("s != 1", &r));
    assert!(!eval("s == 1", &r));
    assert!(!eval("s < 1 || s >= 1", &r));
}

#[test]
fn a_long_chain_of_or_and_and_does_not_overflow_the_stack() {
    // As long as a command line allows (about 128 KiB per argument); the
    // chain used to nest one node per operator, and evaluating it
    // overflowed a worker's stack.
    let r = record();
    let ors = vec!["a.b == 8"; 20_000].join(" || ") + " || a.b == 7";
    assert!(eval(&ors, &r));
    let ands = vec!["has(label)"; 20_000].join(" && ");
    assert!(eval(&ands, &r));
    assert!(!eval(&(ands + " && has(nothing)"), &r));
    let w = Where::parse(&ors).unwrap();
    let names = w.names();
    assert_eq!(names.len(), 20_001);
    assert!(names.iter().all(|&n| n == "a.b"));
}

#[test]
fn int64_extremes_against_float_literals_and_floats_against_integers_are_exact() {
    // i64::MAX as f64 rounds up to 2^63: the literal 9223372036854775807.0
    // is 2^63, above every int64.
    let r = record();
    assert!(!eval("big == 9223372036854775807.0", &r));
    assert!(eval("big < 9223372036854775807.0", &r));
    assert!(eval("big < 1e400", &r));
    assert!(eval("big > -9223372036854775808.0", &r));
    let m = example(vec![("n", Feature::int64s(vec![i64::MIN]))]);
    assert!(eval("n == -9223372036854775808.0", &m));
    assert!(eval("n > -1e400", &m));
    assert!(!eval("n < -9223372036854775808.0", &m));
    // 16777217 is not a float32: a stored 16777216 is below it.
    let f = example(vec![("f", Feature::floats(vec![16_777_216.0]))]);
    assert!(!eval("f == 16777217", &f));
    assert!(eval("f < 16777217", &f));
    assert!(eval("f == 16777216", &f));
    assert!(eval("f > 9223372036854775807 || f >= -9223372036854775808", &f));
}
