//! Regressions: what follows the end of a zlib or gzip stream (another
//! stream, or trailing data), and invisible characters in `--type raw` text.

use crate::util::*;

#[test]
fn concatenated_zlib_streams_are_read_whole() {
    let dir = Dir::new();
    let one = records(&[b"a", b"bb"]);
    let two = records(&[b"ccc"]);
    let path = dir.write("two.zlib", &[zlib(&one), zlib(&two)].concat());
    assert_eq!(tfr(&["count", &path]).run().ok(), "3\n");
    let fixture = std::fs::read(data("notebook.zlib.tfrecord")).unwrap();
    let twice = [fixture.clone(), fixture].concat();
    let once: usize = tfr(&["count", &data("notebook.zlib.tfrecord")])
        .run()
        .ok()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(tfr(&["count"]).stdin(&twice).run().ok(), format!("{}\n", 2 * once));
    let ran = tfr(&["verify-crc", &path]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
}

#[test]
fn data_after_a_zlib_stream_is_damage() {
    let dir = Dir::new();
    let plain = records(&[b"a", b"bb"]);
    for (name, tail) in [
        ("tfrecord", plain.clone()),
        ("text", b"hello\n".to_vec()),
        ("zeros", vec![0; 5]),
    ] {
        let bytes = [zlib(&plain), tail.clone()].concat();
        let path = dir.write(&format!("{name}.zlib"), &bytes);
        let want = format!("{} bytes of trailing data after the end of the zlib stream", tail.len());
        let err = tfr(&["count", &path]).run().fails(2);
        assert!(err.contains(&want), "{name}: {err}");
        let ran = tfr(&["verify-crc", &path]).run();
        assert_eq!(ran.code, 1, "{name}: {}", ran.stderr);
        assert!(ran.stderr.contains(&want), "{name}: {}", ran.stderr);
        assert!(
            ran.stdout_str().contains("2 records intact, 1 fault"),
            "{name}: {}",
            ran.stdout_str()
        );
    }
}

#[test]
fn zero_padding_after_gzip_is_trailing_data_not_a_cut() {
    let dir = Dir::new();
    let bytes = [gzip(&records(&[b"a", b"bb"])), vec![0; 5]].concat();
    let path = dir.write("padded.gz", &bytes);
    let err = tfr(&["count", &path]).run().fails(2);
    assert!(err.contains("5 bytes of trailing data after the gzip stream"), "{err}");
    assert!(!err.contains("cut short"), "{err}");
}

#[test]
fn raw_text_escapes_terminal_and_bidi_controls() {
    let dir = Dir::new();
    let payloads: [&[u8]; 4] = [
        "a\u{9b}31mb".as_bytes(),
        "x\u{202e}y\u{2066}z".as_bytes(),
        "\u{feff}zero\u{200b}width\u{2028}".as_bytes(),
        "é 日本 €".as_bytes(),
    ];
    let path = dir.write("raw.tfrecord", &records(&payloads));
    let out = tfr(&["cat", "--type", "raw", &path]).run().ok();
    let text: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        text,
        [
            r#""a\302\23331mb""#,
            r#""x\342\200\256y\342\201\246z""#,
            r#""\357\273\277zero\342\200\213width\342\200\250""#,
            "\"é 日本 €\"",
        ]
    );
}
