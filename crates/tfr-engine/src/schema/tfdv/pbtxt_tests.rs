use super::*;

#[test]
fn parses_fields_messages_lists_and_comments() {
    let doc = "# c\nfeature {\n  name: \"a\\n\\101\\x41'\"  # tail\n  type: INT\n  shape < dim { size: 3 } >\n}\nv: [1, -2, 0x10, 010]\nm: { x: 1.5e-3f } ; s: 'x' \"y\"\n[ext.x] { }\n";
    let f = parse(doc).unwrap();
    assert_eq!(f.len(), 8);
    assert_eq!(f[0].name, "feature");
    let inner = f[0].message().unwrap();
    assert_eq!(inner[0].value, Value::Scalar(Scalar::Str(b"a\nAA'".to_vec())));
    assert_eq!(inner[1].value, Value::Scalar(Scalar::Ident("INT".into())));
    assert_eq!((inner[1].line, inner[1].col), (4, 3));
    let ints: Vec<i64> = f[1..5].iter().map(|f| f.int().unwrap()).collect();
    assert_eq!(ints, vec![1, -2, 16, 8]);
    assert_eq!(f[5].message().unwrap()[0].float().unwrap(), 1.5e-3);
    assert_eq!(f[6].string().unwrap(), "xy");
    assert_eq!(f[7].name, "[ext.x]");
}

#[test]
fn errors_have_line_and_column() {
    let e = parse("feature {\n  name \"a\"\n}").unwrap_err();
    assert_eq!((e.line, e.col), (2, 8), "{e}");
    let e = parse("feature {\n  name: \"a\"\n").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    let e = parse("a: \"x\n\"").unwrap_err();
    assert_eq!((e.line, e.col), (1, 6), "{e}");
    let e = parse("a: }").unwrap_err();
    assert_eq!((e.line, e.col), (1, 4), "{e}");
    let e = parse("a: \"\\q\"").unwrap_err();
    assert!(e.message.contains("escape"), "{e}");
    assert!(parse("ü: 1").is_err());
    assert!(parse("a: 1 }").is_err());
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = "a {".repeat(100_000);
    let e = parse(&deep).unwrap_err();
    assert!(e.message.contains("nested"), "{e}");
    let ok = format!("{}{}", "a {".repeat(MAX_DEPTH), "}".repeat(MAX_DEPTH));
    assert!(parse(&ok).is_ok());
}

#[test]
fn typed_values() {
    let f = parse(
        "a: 9223372036854775807 b: -9223372036854775808 c: 9223372036854775808 d: -inf e: nan f: true g: 0 h: 1e5 i: 7",
    )
    .unwrap();
    assert_eq!(f[0].int().unwrap(), i64::MAX);
    assert_eq!(f[1].int().unwrap(), i64::MIN);
    assert!(f[2].int().is_err());
    assert_eq!(f[3].float().unwrap(), f64::NEG_INFINITY);
    assert!(f[4].float().unwrap().is_nan());
    assert!(f[5].boolean().unwrap());
    assert!(!f[6].boolean().unwrap());
    assert!(f[7].int().is_err());
    assert_eq!(f[7].float().unwrap(), 1e5);
    assert_eq!(f[8].float().unwrap(), 7.0);
    assert!(f[5].int().is_err());
}

#[test]
fn doubles_print_as_python_repr() {
    for (v, s) in [
        (1.0, "1.0"),
        (0.9999, "0.9999"),
        (1e-5, "1e-05"),
        (0.0001, "0.0001"),
        (1e16, "1e+16"),
        (123456789012345.6, "123456789012345.6"),
        (1.5e300, "1.5e+300"),
        (-2.5, "-2.5"),
        (100.0, "100.0"),
        (0.1, "0.1"),
    ] {
        assert_eq!(python_repr(v), s);
    }
}

#[test]
fn writer_indents_and_escapes() {
    let mut w = Writer::new();
    w.open("feature");
    w.string("name", "клю\"\n".as_bytes());
    w.enum_name("type", "INT");
    w.empty("bool_domain");
    w.double("min_fraction", 1.0);
    w.float("min", 0.1);
    w.close();
    assert_eq!(
        w.finish(),
        "feature {\n  name: \"\\320\\272\\320\\273\\321\\216\\\"\\n\"\n  type: INT\n  bool_domain {\n  }\n  min_fraction: 1.0\n  min: 0.1\n}\n"
    );
}
