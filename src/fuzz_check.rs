//! The fuzz targets' bodies (fuzz/ calls them), and the replay of every
//! input they ever crashed on (fuzz/regressions/) as a unit test.
//!
//! Each function panics when an invariant breaks; any input is allowed.

use crate::example::{render_text, resolve_auto, MessageType};
use crate::io::Compression;
use std::io::Write;

/// The `record_reader` target: the first byte picks how the rest is read —
/// as a stream, as a regular file (sniffed by [`crate::record::open`]),
/// gzip-, zlib- or SNAPPY-compressed first (so damaged records inside a
/// valid stream are reached too), or as a SNAPPY stream itself (hostile
/// block framing).
pub fn record_reader(input: &[u8]) {
    let Some((&mode, data)) = input.split_first() else {
        return;
    };
    match mode % 6 {
        0 => stream(data),
        1 => file(data),
        4 => {
            let mut e = crate::io::snappy::SnappyWriter::new(Vec::new());
            e.write_all(data).expect("in memory");
            file(&e.finish().expect("in memory"));
        }
        5 => file_as(data, Some(Compression::Snappy)),
        2 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).expect("in memory");
            file(&e.finish().expect("in memory"));
        }
        _ => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).expect("in memory");
            file(&e.finish().expect("in memory"));
        }
    }
}

/// The `example_text` target: every message type renders or fails cleanly
/// (leaving the output untouched on failure), the model of TensorFlow's
/// parsers takes the bytes, and the type `resolve_auto` picks renders
/// strictly.
pub fn example_text(data: &[u8]) {
    const PREFIX: &[u8] = b"# kept\n";
    for ty in [
        MessageType::Example,
        MessageType::SequenceExample,
        MessageType::Elwc,
        MessageType::Raw,
    ] {
        for strict in [false, true] {
            let mut out = PREFIX.to_vec();
            if render_text(ty, strict, data, &mut out).is_err() {
                assert_eq!(out, PREFIX, "{ty:?} strict={strict}: output changed on error");
            }
            if ty == MessageType::Raw {
                assert!(out.len() > PREFIX.len(), "raw always renders");
            }
        }
    }
    decoders_agree(data);
    tensor_value(data);
    // TensorFlow's parsers' model takes any bytes.
    let mut decoder = crate::example::Decoder::new();
    let _ = crate::example::tf_parser::check_example(&mut decoder, data);
    let _ = crate::example::tf_parser::check_sequence(&mut decoder, data);
    if let Ok(ty) = resolve_auto(data) {
        let mut out = Vec::new();
        if let Err(e) = render_text(ty, true, data, &mut out) {
            panic!("resolve_auto chose {ty:?} but strict rendering fails: {e}");
        }
        looks(ty, data);
    }
}

/// `--decode`'s serialized tensors: any bytes are a tensor or not, never
/// a panic; a tensor holds the values its shape says, bounded, and is
/// written as valid JSON nested by that shape.
fn tensor_value(data: &[u8]) {
    let mut out = Vec::new();
    let written = crate::tfds::decode::tensor_json(data, &mut out);
    match crate::tfds::tensorproto::parse(data) {
        None => assert!(!written && out.is_empty()),
        Some((t, _)) => {
            assert!(written);
            let n: usize = t.shape.iter().product();
            assert_eq!(n, t.values.len());
            assert!(n <= crate::tfds::tensor::MAX_ELEMENTS);
            let v: serde_json::Value = serde_json::from_slice(&out).expect("a tensor is valid JSON");
            let mut depth = 0;
            let mut at = &v;
            while let Some(first) = at.as_array().and_then(|a| a.first()) {
                at = first;
                depth += 1;
            }
            if n > 0 {
                assert_eq!(depth, t.shape.len(), "nested by the shape");
            }
        }
    }
}

/// The decoder's fast path for canonical payloads indexes what the general
/// wire reader does: the same entries, kinds and values (and the same
/// error when there is one), for Examples and SequenceExamples, strict or not.
fn decoders_agree(data: &[u8]) {
    use crate::example::{Decoder, FeatureView, FeaturesView};
    fn feature(f: &FeatureView<'_>) -> String {
        let ints: Vec<i64> = f.int64s().collect();
        let floats: Vec<u32> = f.floats().map(f32::to_bits).collect();
        let bytes: Vec<&[u8]> = f.bytes().collect();
        format!("{:?} {ints:?} {floats:?} {bytes:?} {}", f.kind(), f.is_empty())
    }
    fn features(map: Option<FeaturesView<'_>>) -> Vec<String> {
        map.map_or(vec!["absent".into()], |m| {
            let raw = m.raw_entries().map(|(k, f)| format!("{k:?}={}", feature(&f)));
            m.entries()
                .map(|(k, f)| format!("{k}={}", feature(&f)))
                .chain(raw)
                .collect()
        })
    }
    let (mut fast, mut general) = (Decoder::new(), Decoder::new());
    for strict in [false, true] {
        let a = fast.example(data, strict).map(|v| features(v.features()));
        let b = general.example_general(data, strict).map(|v| features(v.features()));
        assert_eq!(
            a.map_err(|e| e.to_string()),
            b.map_err(|e| e.to_string()),
            "Example strict={strict}"
        );
        let seq = |v: crate::example::SequenceExampleView<'_>| {
            let mut out = features(v.context());
            out.extend(v.feature_lists().map_or(vec!["no lists".into()], |l| {
                l.entries()
                    .map(|(k, steps)| format!("{k}: {:?}", steps.features().map(|f| feature(&f)).collect::<Vec<_>>()))
                    .collect()
            }));
            out
        };
        let a = fast.sequence_example(data, strict).map(seq);
        let b = general.sequence_example_general(data, strict).map(seq);
        assert_eq!(
            a.map_err(|e| e.to_string()),
            b.map_err(|e| e.to_string()),
            "SequenceExample strict={strict}"
        );
    }
}

/// Every format of a payload that renders: spilled in small pieces it is
/// the same bytes as rendered whole; shortened and projected it still
/// renders, and its JSON is still JSON.
fn looks(ty: MessageType, data: &[u8]) {
    use crate::example::{render_out, Decoder, Format, Look, Out, Shorten};
    let seed = data
        .iter()
        .fold(0usize, |h, &b| h.wrapping_mul(31).wrapping_add(b as usize));
    let mut decoder = Decoder::default();
    let odd = |key: &str| key.len() % 2 == 1;
    for format in [Format::Text, Format::Json, Format::Protojson] {
        let mut whole = Vec::new();
        let plain = Look::default();
        render_out(&mut decoder, format, &plain, ty, true, data, &mut Out::new(&mut whole)).expect("rendered once");
        let mut spilled = Vec::new();
        let mut sink = |b: &[u8]| {
            spilled.extend_from_slice(b);
            Ok(())
        };
        let mut rest = Vec::new();
        let mut out = Out::spilling_every(&mut rest, &mut sink, 1 + seed % 7, 4 + seed % 5);
        render_out(&mut decoder, format, &plain, ty, true, data, &mut out).expect("rendered once");
        out.finish().expect("in memory");
        spilled.extend_from_slice(&rest);
        assert!(spilled == whole, "{format:?}: spilled output differs");
        let look = Look {
            short: Some(Shorten {
                max_bytes: seed % 11,
                max_values: seed % 4,
            }),
            keep: (seed % 3 == 0).then_some(&odd as crate::example::Keep<'_>),
            scalars: None,
            names: None,
            bytes: None,
        };
        let mut short = Vec::new();
        render_out(&mut decoder, format, &look, ty, true, data, &mut Out::new(&mut short)).expect("rendered once");
        if format != Format::Text {
            for line in [&whole, &short] {
                if let Err(e) = serde_json::from_slice::<serde_json::Value>(line) {
                    panic!("{format:?} is not JSON ({e}): {}", String::from_utf8_lossy(line));
                }
            }
        }
        if format == Format::Json {
            scalars_read_back(&mut decoder, ty, data, &whole);
        }
    }
}

/// One-value features written bare (to-wds's `.json`) read back as the
/// same message as the natural line `whole` does.
fn scalars_read_back(decoder: &mut crate::example::Decoder, ty: MessageType, data: &[u8], whole: &[u8]) {
    use crate::example::json::{Encoder, JsonFormat};
    use crate::example::{render_out, Format, Look, Out};
    let all = |_: &str, _: bool| true;
    let look = Look {
        scalars: Some(&all),
        ..Look::default()
    };
    let mut bare = Vec::new();
    render_out(decoder, Format::Json, &look, ty, true, data, &mut Out::new(&mut bare)).expect("rendered once");
    let encode = |line: &[u8]| {
        let mut out = Vec::new();
        Encoder::new(JsonFormat::Natural, None)
            .encode(ty, line.strip_suffix(b"\n").unwrap_or(line), &mut out)
            .map(|()| out)
            .ok()
    };
    if let Some(payload) = encode(whole) {
        let shown = String::from_utf8_lossy(&bare);
        assert_eq!(
            encode(&bare),
            Some(payload),
            "bare one-value features read back differently: {shown}"
        );
    }
}

pub use crate::record::resync_check::{file, file_as, stream};

/// The `from_jsonl` target: the first line of `data` through the JSON-lines
/// encoder, in both forms and as every message type. It never panics; on
/// error the output is left as it was; a line it accepts is JSON that
/// serde_json accepts too (the encoder is the stricter of the two: it also
/// rejects what the mapping forbids, integers outside i64 in an int list,
/// numbers beyond float32, and so on), and its payload decodes as the
/// message it was encoded as (an Example one that TensorFlow's C++ parser
/// reads as protobuf does: [`crate::example::tf_parser`]).
pub fn from_jsonl(data: &[u8]) {
    use crate::example::json::{Encoder, JsonFormat};
    let line = data.split(|&b| b == b'\n').next().unwrap_or_default();
    let json = serde_json::from_slice::<serde_json::Value>(line).is_ok();
    for format in [JsonFormat::Natural, JsonFormat::Protojson] {
        for ty in [
            MessageType::Example,
            MessageType::SequenceExample,
            MessageType::Elwc,
            MessageType::Raw,
        ] {
            let mut out = b"kept".to_vec();
            match Encoder::new(format, None).encode(ty, line, &mut out) {
                Err(_) => assert_eq!(out, b"kept", "{format:?} {ty:?}: output changed on error"),
                Ok(()) => {
                    assert!(
                        json,
                        "{format:?} {ty:?} accepted what is not JSON: {:?}",
                        String::from_utf8_lossy(line)
                    );
                    let payload = &out[4..];
                    let mut decoder = crate::example::Decoder::new();
                    match ty {
                        MessageType::Example => {
                            decoder.example(payload, false).expect("an encoded Example decodes");
                            // from-jsonl never writes what TensorFlow's parser reads differently.
                            let verdict = crate::example::tf_parser::check_example(&mut decoder, payload);
                            assert_eq!(verdict, crate::example::tf_parser::Verdict::Same, "{format:?}");
                        }
                        MessageType::SequenceExample => {
                            decoder
                                .sequence_example(payload, false)
                                .expect("an encoded SequenceExample decodes");
                            use crate::example::tf_parser::{check_sequence, Verdict, MIXED_KINDS};
                            match check_sequence(&mut decoder, payload) {
                                Verdict::Same => {}
                                // Content, not encoding: from-jsonl warns of it.
                                Verdict::Rejects(why) if why.ends_with(MIXED_KINDS) => {}
                                other => panic!("{format:?}: {other:?}"),
                            }
                        }
                        MessageType::Elwc => {
                            crate::example::elwc::checked(&mut decoder, payload, false)
                                .expect("an encoded ExampleListWithContext decodes");
                        }
                        MessageType::Raw => {}
                    }
                }
            }
        }
    }
}

/// Fuzzes `from-jsonl --message` ([`crate::proto::from_json`]) with the
/// line read as `tfr.jsonin.Wkt` (tests/data/proto/jsonin.pb: the
/// well-known types, every map key type, tfr.test.Sample inside): never a
/// panic, nothing appended on an error; what it writes decodes, and where
/// it prints as JSON, that JSON reads back to the same bytes (a NullValue
/// holding a number other than 0 aside: it prints as null).
pub fn proto_from_json(data: &[u8]) {
    use crate::proto::{from_json::encode_json, Form, Message};
    static WKT: std::sync::OnceLock<Message> = std::sync::OnceLock::new();
    let msg = WKT.get_or_init(|| {
        let sources = crate::proto::Sources {
            descriptor_sets: vec![concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/proto/jsonin.pb").into()],
            message: Some("tfr.jsonin.Wkt".to_string()),
            ..Default::default()
        };
        Message::load(&sources).expect("jsonin.pb").expect("a message")
    });
    let line = data.split(|&b| b == b'\n').next().unwrap_or_default();
    let mut out = b"kept".to_vec();
    if encode_json(msg, line, &mut out).is_err() {
        assert_eq!(out, b"kept", "output changed on error");
        return;
    }
    let payload = &out[4..];
    let mut json = Vec::new();
    if msg.render(payload, Form::Json, &mut json).is_ok() && !line.windows(4).any(|w| w == b"\"nv\"") {
        let mut again = Vec::new();
        encode_json(msg, &json, &mut again).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&json)));
        assert_eq!(again, payload, "{}", String::from_utf8_lossy(line));
    }
}

/// Fuzzes the readers of TFDV's files and tfr's saved statistics: a
/// schema (protobuf text format or tfr's schema JSON), and a statistics
/// file for `tfr stats --merge`. They never panic; a schema that reads
/// writes a text form that reads back to the same text, and compiles for
/// `tfr validate`; saved statistics that read write the same JSON back.
pub fn tfdv_files(data: &[u8]) {
    use crate::schema::tfdv::model::Schema;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(schema) = Schema::from_text(text) {
        let _ = crate::schema::tfdv::validate::Checker::new(&schema);
        let written = schema.to_pbtxt();
        let again = Schema::from_pbtxt(&written)
            .unwrap_or_else(|e| panic!("tfr's own text does not read back: {e}\n{written}"));
        assert_eq!(again.to_pbtxt(), written, "the text form is not stable");
    }
    if let Ok(scan) = crate::schema::saved::from_json(text, 0) {
        let json = crate::schema::saved::to_json(&scan).to_string();
        let back = crate::schema::saved::from_json(&json, 0)
            .unwrap_or_else(|e| panic!("tfr's own statistics do not read back: {e}"));
        assert_eq!(
            crate::schema::saved::to_json(&back).to_string(),
            json,
            "saved statistics are not stable"
        );
        // Every rendering of them holds too.
        let _ = crate::schema::tfdv::stats_file::write(&scan, true);
        let _ = crate::schema::tfdv::infer::infer(&scan).to_pbtxt();
    }
}

/// The saved statistics `stats_merge` edits: 5,000 records of a float of
/// distinct values (a t-digest), a text of distinct values (a HyperLogLog,
/// Misra-Gries counters), a small int (exact summaries) and a list whose
/// length varies.
fn saved_base() -> &'static (String, Vec<String>) {
    static BASE: std::sync::OnceLock<(String, Vec<String>)> = std::sync::OnceLock::new();
    BASE.get_or_init(|| {
        fn varint(v: u64, out: &mut Vec<u8>) {
            crate::example::wire::put_varint(out, v);
        }
        fn ld(field: u8, payload: &[u8]) -> Vec<u8> {
            let mut out = vec![field << 3 | 2];
            varint(payload.len() as u64, &mut out);
            out.extend_from_slice(payload);
            out
        }
        let entry = |name: &str, feature: Vec<u8>| ld(1, &[ld(1, name.as_bytes()), ld(2, &feature)].concat());
        let mut stats = crate::schema::stats::Collector::deep();
        let mut decoder = crate::example::Decoder::new();
        for r in 0..5000u64 {
            let float = ld(2, &ld(1, &(r as f32 * 0.5).to_le_bytes()));
            let text = ld(1, &ld(1, format!("v{}", r * 7 % 4999).as_bytes()));
            let mut ints = Vec::new();
            for i in 0..r % 4 {
                varint(i * 3, &mut ints);
            }
            let mut small = Vec::new();
            varint(r % 5, &mut small);
            let features = [
                entry("x", float),
                entry("s", text),
                entry("n", ld(3, &ld(1, &small))),
                entry("list", ld(3, &ld(1, &ints))),
            ]
            .concat();
            let payload = ld(1, &features);
            let ex = decoder.example(&payload, false).expect("an Example");
            stats.add_example(&ex, 0, r);
        }
        stats.seal();
        let scan = crate::schema::Scan {
            ty: MessageType::Example,
            stats,
            files: vec![crate::schema::FileScan {
                name: "base.tfrecord".into(),
                compression: Compression::None,
            }],
            limited: false,
            error: None,
        };
        let value = crate::schema::saved::to_json(&scan);
        let mut places = Vec::new();
        fn walk(v: &serde_json::Value, at: String, places: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, x) in m {
                        walk(x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), places);
                    }
                }
                // The first few elements of a list (the rest are alike).
                serde_json::Value::Array(a) => {
                    for (i, x) in a.iter().enumerate().take(4) {
                        walk(x, format!("{at}/{i}"), places);
                    }
                }
                _ => {}
            }
            places.push(at);
        }
        walk(&value, String::new(), &mut places);
        (value.to_string(), places)
    })
}

/// Fuzzes `tfr stats --merge` with forged saved statistics: the saved
/// file of a generated dataset (a t-digest, exact quantiles, a HyperLogLog,
/// Misra-Gries counters, several inputs' worth of numbers) edited by the
/// input — each 3 bytes pick a place in its JSON (two bytes) and a hostile
/// value for it (one byte: 0, 1e-9, -1, 2^44, u64::MAX, infinities as
/// strings, empty lists, a copy of a list's first element appended, one
/// centroid of weight 1e-9...).
/// Reading never panics; what reads merges with the original and renders
/// as every output (the saved JSON, TFDV's statistics, an inferred schema,
/// the report page) without a panic.
pub fn stats_merge(data: &[u8]) {
    use serde_json::Value;
    let (base, places) = saved_base();
    let mut doc: Value = serde_json::from_str(base).expect("base JSON");
    for step in data.chunks_exact(3) {
        let place = &places[u16::from_le_bytes([step[0], step[1]]) as usize % places.len()];
        let Some(slot) = doc.pointer_mut(place) else {
            continue;
        };
        hostile_edit(slot, step[2]);
    }
    let text = doc.to_string();
    let Ok(part) = crate::schema::saved::from_json(&text, 1) else {
        return;
    };
    let mut scan = crate::schema::saved::from_json(base, 0).expect("the base reads");
    scan.stats.merge(&part.stats);
    scan.files.extend(part.files.iter().map(|f| crate::schema::FileScan {
        name: f.name.clone(),
        compression: f.compression,
    }));
    for s in [&part, &scan] {
        let _ = crate::schema::saved::to_json(s).to_string();
        let _ = crate::schema::tfdv::stats_file::write(s, true);
        let _ = crate::schema::tfdv::stats_file::write(s, false);
        let _ = crate::schema::tfdv::infer::infer(s).to_pbtxt();
        #[cfg(feature = "report")]
        {
            // Every feature named as a ClassLabel: the Classes table on
            // any statistics (values outside the names, none, huge).
            let classes: std::collections::HashMap<String, Vec<String>> = s
                .stats
                .features
                .sorted()
                .iter()
                .map(|f| (f.name.to_string(), vec!["a".into(), "<b>".into(), String::new()]))
                .collect();
            let _ = crate::report::html(&crate::report::Page {
                title: "fuzz",
                scan: s,
                cards: "",
                cards_title: "",
                anomalies: None,
                notes: &[],
                classes: Some(&classes),
            });
        }
    }
}

/// Puts the hostile value `pick` chooses in `slot` of the saved JSON (or
/// grows, shrinks or nudges what is there).
fn hostile_edit(slot: &mut serde_json::Value, pick: u8) {
    use serde_json::{json, Value};
    let hostile = match pick % 25 {
        0 => json!(0),
        1 => json!(1),
        2 => json!(-1),
        3 => json!(1e-9),
        4 => json!(0.5),
        5 => json!(u64::MAX),
        6 => json!(1u64 << 44),
        7 => json!((1u64 << 44) + 1),
        8 => json!(i64::MIN),
        9 => json!(1e308),
        10 => json!(-1e308),
        11 => json!("NaN"),
        12 => json!("Infinity"),
        13 => json!("-Infinity"),
        14 => json!("x"),
        15 => Value::Null,
        16 => json!(true),
        17 => json!([]),
        18 => json!({}),
        19 => json!([0, 0, 0]),
        20 => json!("AAAA"),
        // One centroid of almost no weight (a panic in the tdigest crate).
        23 => json!([{"mean": 1.0, "weight": 1e-9}]),
        // A list grows by a copy of its first element; a number
        // doubles; anything else goes.
        21 => match slot {
            Value::Array(a) if !a.is_empty() => {
                let first = a[0].clone();
                a.push(first);
                return;
            }
            Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) * 2.0),
            _ => return,
        },
        22 => match slot {
            Value::Number(n) => json!(n.as_u64().map_or(0, |n| n.wrapping_add(1))),
            _ => return,
        },
        _ => match slot {
            Value::Object(m) => {
                if let Some(k) = m.keys().next().cloned() {
                    m.remove(&k);
                }
                return;
            }
            Value::Array(a) => {
                a.pop();
                return;
            }
            _ => return,
        },
    };
    *slot = hostile;
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Replays every saved input of a target (fuzz/regressions/TARGET/*:
    /// past crashes and hand-picked edge cases; the folder must exist and
    /// hold at least one).
    fn replay(target: &str, run: fn(&[u8])) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/regressions")
            .join(target);
        let entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .collect();
        assert!(!entries.is_empty(), "{}: no inputs to replay", dir.display());
        for entry in entries {
            let path = entry.expect("dir entry").path();
            let bytes = std::fs::read(&path).expect("read regression input");
            let name = path.display().to_string();
            if let Err(e) = std::panic::catch_unwind(|| run(&bytes)) {
                std::panic::resume_unwind(Box::new(format!("{name}: {e:?}")));
            }
        }
    }

    /// The example_text checks on every record of the fixtures (real
    /// Examples and SequenceExamples, which random bytes rarely are).
    #[test]
    fn example_text_holds_on_the_fixtures() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).expect("tests/data") {
            let path = entry.expect("dir entry").path();
            if path.extension().is_none_or(|e| e != "tfrecord") {
                continue;
            }
            let bytes = std::fs::read(&path).expect("fixture");
            let src = crate::record::Source::from_reader(Box::new(std::io::Cursor::new(bytes)));
            let mut reader = crate::record::RecordReader::new(src, crate::io::Compression::None);
            while let Ok(Some(rec)) = reader.next_record() {
                super::example_text(rec.data);
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} records");
    }

    /// The decoder's fast path against the general one on the fixtures'
    /// records with one byte changed at every position (to values that
    /// keep or break the canonical form: tags, lengths, continuation bits).
    #[test]
    fn decoders_agree_on_mutated_records() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut checked = 0;
        for name in [
            "notebook.tfrecord",
            "sequence.tfrecord",
            "edge.tfrecord",
            "base20.tfrecord",
        ] {
            let bytes = std::fs::read(dir.join(name)).expect("fixture");
            let src = crate::record::Source::from_reader(Box::new(std::io::Cursor::new(bytes)));
            let mut reader = crate::record::RecordReader::new(src, crate::io::Compression::None);
            let mut n = 0;
            while let Ok(Some(rec)) = reader.next_record() {
                if rec.data.len() > 300 {
                    continue;
                }
                n += 1;
                if n > 6 {
                    break;
                }
                let mut data = rec.data.to_vec();
                super::decoders_agree(&data);
                for i in 0..data.len() {
                    let was = data[i];
                    for b in [0x00, 0x0a, 0x0d, 0x12, 0x1a, 0x80, 0xff, was ^ 1] {
                        data[i] = b;
                        super::decoders_agree(&data);
                        checked += 1;
                    }
                    data[i] = was;
                }
                data.pop();
                super::decoders_agree(&data);
            }
        }
        assert!(checked > 1000, "{checked} payloads");
    }

    #[test]
    fn record_reader_regressions() {
        replay("record_reader", super::record_reader);
    }

    #[test]
    fn example_text_regressions() {
        replay("example_text", super::example_text);
    }
    #[test]
    fn stats_merge_regressions() {
        replay("stats_merge", super::stats_merge);
    }

    #[test]
    fn from_jsonl_regressions() {
        replay("from_jsonl", super::from_jsonl);
    }

    #[test]
    fn proto_from_json_regressions() {
        replay("proto_from_json", super::proto_from_json);
    }

    #[test]
    fn tfdv_files_regressions() {
        replay("tfdv_files", super::tfdv_files);
    }

    /// The schemas and statistics of the fixtures, through the target.
    #[test]
    fn tfdv_files_hold_on_the_fixtures() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut checked = 0;
        for dir in ["tfdv", "validate"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("fixture folder") {
                let path = entry.expect("dir entry").path();
                if path.extension().is_some_and(|e| e == "pbtxt") {
                    super::tfdv_files(&std::fs::read(&path).expect("fixture"));
                    checked += 1;
                }
            }
        }
        assert!(checked >= 8, "{checked} schemas");
    }

    /// Lines near valid ones (each byte of the samples changed in turn, and
    /// every prefix) keep the target's invariants, without the fuzzer.
    #[test]
    fn from_jsonl_holds_on_mutated_lines() {
        let samples: [&[u8]; 5] = [
            br#"{"a": [1, 2], "b": [0.5, "NaN"], "c": ["x", {"base64": "AAE="}]}"#,
            br#"{"context": {"a": [1]}, "feature_lists": {"f": [[1.5], {"bytes_list": []}]}}"#,
            br#"{"features": {"feature": {"a": {"int64List": {"value": ["1", "-2"]}}}}}"#,
            br#""raw \u00e9 \ud83d\ude00""#,
            br#"{"n": [1e38, -1e-45, 9223372036854775807, true]}"#,
        ];
        for sample in samples {
            super::from_jsonl(sample);
            for i in 0..sample.len() {
                for b in [b'"', b'\\', b'0', b'e', b'-', b'}', b']', b',', b' ', 0xff] {
                    let mut line = sample.to_vec();
                    line[i] = b;
                    super::from_jsonl(&line);
                }
                super::from_jsonl(&sample[..i]);
            }
        }
    }
}
