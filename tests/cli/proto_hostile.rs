//! What a hostile review of `--proto`/`--descriptor-set`, event files and
//! `tfr scalars` found, kept fixed. The fixtures in tests/data/proto/hostile
//! and tests/data/events/hostile were forged with Python protobuf and
//! TensorFlow's writer; the expected outputs beside them are Python's
//! (tests/oracle/proto_ref.py) and tbparse's (tests/oracle/tbparse_scalars.py
//! --tfr).

use crate::util::*;

fn hostile(name: &str) -> String {
    data(&format!("proto/hostile/{name}"))
}

/// Forged descriptor sets are refused in one line, never a panic: a
/// default value's octal escape that overflows, a map entry type without
/// its key and value.
#[test]
fn forged_descriptor_sets_are_one_line_errors() {
    let records = hostile("p.tfrecord");
    for (set, says) in [
        ("octal.pb", "not a descriptor set"),
        ("mapempty.pb", "map entry type without its key or value"),
    ] {
        for cmd in ["cat", "to-jsonl"] {
            let e = tfr(&[cmd, "--descriptor-set", &hostile(set), "--message", "p.M", &records])
                .run()
                .fails(2);
            assert!(e.contains(says) && !e.contains("internal error"), "{set} {cmd}: {e}");
        }
    }
}

/// A proto2 enum's value the enum does not define is an unknown field, as
/// upb keeps it: a oneof member holding one leaves its sibling set, a map
/// entry holding one is dropped (hostile/closed_enum.*: payloads forged
/// byte by byte, written by TensorFlow, read by Python protobuf into
/// closed_enum.json).
#[test]
fn a_closed_enums_unknown_value_touches_no_oneof_and_no_map() {
    let flags = ["--descriptor-set", &hostile("closed_enum.pb"), "--message", "w2.P"];
    let input = hostile("closed_enum.tfrecord");
    let want = std::fs::read_to_string(hostile("closed_enum.json")).unwrap();
    let got = tfr(&[&["to-jsonl"][..], &flags, &[&input]].concat()).run().ok();
    assert_eq!(got, want);
    let count = |expr: &str| {
        tfr(&[&["count"][..], &flags, &["--where", expr, &input]].concat())
            .run()
            .ok()
    };
    assert_eq!(count("has(oi)").trim(), "1");
    assert_eq!(count("mk.value == \"KZ\"").trim(), "0");
}

/// Editions (`edition = "2023"`), as a .proto file or compiled by protoc
/// (grpcio-tools 1.85) into a descriptor set: refused in one line saying so.
#[test]
fn protobuf_editions_are_refused_saying_so() {
    let records = hostile("p.tfrecord");
    for (flag, file, says) in [
        ("--proto", "editions.proto", "editions.proto:2:1: expected"),
        (
            "--descriptor-set",
            "editions.pb",
            "editions.pb: editions.proto uses protobuf editions",
        ),
    ] {
        let e = tfr(&["cat", flag, &hostile(file), "--message", "p.M", &records])
            .run()
            .fails(2);
        assert!(e.contains(says) && e.contains("editions"), "{file}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

/// A value of another wire type than its field's is an unknown field (as
/// upb reads it), not damage: what Python prints.
#[test]
fn values_of_the_wrong_wire_type_are_unknown_fields_as_python_reads_them() {
    let flags = ["--proto", &hostile("c1w.proto"), "--message", "h.M"];
    let file = hostile("c1w.tfrecord");
    let text = tfr(&[&["cat"][..], &flags, &[file.as_str()]].concat()).run().ok();
    assert_eq!(text, std::fs::read_to_string(hostile("c1w.txt")).unwrap());
    let json = tfr(&[&["to-jsonl"][..], &flags, &[file.as_str()]].concat()).run().ok();
    assert_eq!(json, std::fs::read_to_string(hostile("c1w.json")).unwrap());
}

/// A record of 9M packed enum values (9 MB) is refused at tfr's bound of
/// 8,388,608 values, in bounded memory; 1M of them print.
#[test]
fn repeated_values_are_bounded_per_record() {
    let dir = Dir::new();
    let packed = |n: usize| {
        // h3.M field 22: repeated E re (packed), each value 1.
        let mut p = vec![0xb2, 0x01];
        let mut len = n as u64;
        while len >= 0x80 {
            p.push((len as u8) | 0x80);
            len >>= 7;
        }
        p.push(len as u8);
        p.extend(std::iter::repeat_n(1u8, n));
        p
    };
    let flags = ["--proto", &hostile("c2.proto"), "--message", "h3.M"];
    let big = dir.write("big.tfrecord", &crate::reshard::framed(&[packed(9_000_000)]));
    let e = tfr(&[&["to-jsonl"][..], &flags, &[big.as_str()]].concat())
        .run()
        .fails(2);
    assert!(e.contains("more than 8388608 repeated values"), "{e}");
    let ok = dir.write("ok.tfrecord", &crate::reshard::framed(&[packed(1_000_000)]));
    let out = tfr(&[&["to-jsonl"][..], &flags, &[ok.as_str()]].concat()).run().ok();
    assert_eq!(out.matches("\"ONE\"").count(), 1_000_000, "{}", &out[..100]);
}

/// tfr scalars: 0-d tensors as TensorFlow reads them (no shape, values in
/// typed fields, content before values, none at all), and the scalars
/// plugin named on a later value or in another file of the run.
#[test]
fn scalars_read_lenient_tensors_and_late_plugin_metadata_as_tbparse() {
    for name in ["tensors", "late"] {
        let dir = data(&format!("events/hostile/{name}"));
        let out = tfr(&["scalars", &dir, "-f", "csv"]).run().ok();
        let want = std::fs::read_to_string(data(&format!("events/hostile/{name}.csv"))).unwrap();
        assert_eq!(out, want, "{name}");
    }
}

/// A symbolic link back up the log directory is followed once, with a
/// warning: the run's rows come once.
#[test]
fn a_symlink_loop_in_a_log_directory_is_read_once() {
    let dir = Dir::new();
    let run = dir.path("logs/run");
    std::fs::create_dir_all(&run).unwrap();
    let event = data("events/restart");
    for entry in std::fs::read_dir(&event).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, run.join(p.file_name().unwrap())).unwrap();
    }
    std::os::unix::fs::symlink("..", run.join("up")).unwrap();
    let logs = dir.path("logs").to_string_lossy().into_owned();
    let ran = tfr(&["scalars", &logs, "-f", "csv"]).run();
    let out = ran.warns();
    ran.stderr_has("already read");
    let want = tfr(&["scalars", &event, "-f", "csv"]).run().ok();
    let want: String = want
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 0 { format!("{l}\n") } else { format!("run{l}\n") })
        .collect();
    assert_eq!(out, want);
}
