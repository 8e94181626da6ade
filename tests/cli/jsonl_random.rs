//! Random Examples and SequenceExamples through the JSONL mapping both
//! ways (jsonl.rs has the fixtures' round trips), and the generator
//! jsonl_kinds.rs uses too.

use crate::jsonl::inflate;
use crate::proto::{
    Example, Feature, FeatureEntry, FeatureList, FeatureListEntry, FeatureLists, Features, SequenceExample,
};
use crate::util::*;
use prost::Message;
use serde_json::Value;
use tfr::example::json::{render_json, Encoder, JsonFormat};
use tfr::example::MessageType;

// ---------------------------------------------------------------------------
// Random messages
// ---------------------------------------------------------------------------

/// SplitMix64: a small deterministic generator.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    pub fn key(&mut self) -> String {
        const KEYS: &[&str] = &[
            "",
            "a",
            "label",
            "image/encoded",
            "ключ",
            "😀",
            "q\"uote",
            "back\\slash",
            "ctl\u{1}\u{1f}\u{7f}",
            "new\nline",
            "tab\t",
            "context",
            "feature_lists",
            "int64_list",
            "base64",
            "NaN",
            "é\u{2028}",
        ];
        match self.below(3) {
            0 => (*self.pick(KEYS)).to_string(),
            1 => (0..self.below(6))
                .map(|_| (b'a' + self.below(26) as u8) as char)
                .collect(),
            _ => (0..self.below(4))
                .map(|_| char::from_u32(self.below(0x11_0000) as u32).unwrap_or('\u{fffd}'))
                .collect(),
        }
    }

    pub fn float(&mut self) -> f32 {
        const SPECIAL: &[u32] = &[
            0,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x0080_0000,
            0x7f7f_ffff,
            0xff7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x3f80_0000,
            0x3dcc_cccd,
            0x15ae_43fd,
            0x95ae_43fd,
            0x4b80_0001,
        ];
        let bits = if self.below(3) == 0 {
            *self.pick(SPECIAL)
        } else {
            self.next() as u32
        };
        let v = f32::from_bits(bits);
        // Only the canonical NaN round-trips (see nan_payload_bits_become_canonical).
        if v.is_nan() {
            f32::NAN
        } else {
            v
        }
    }

    pub fn bytes(&mut self) -> Vec<u8> {
        const TEXTS: &[&str] = &[
            "",
            "NaN",
            "Infinity",
            "cat",
            "héllo",
            "😀",
            "\"quoted\"\n",
            "{\"base64\": \"x\"}",
            "\u{0}",
        ];
        match self.below(3) {
            0 => self.pick(TEXTS).as_bytes().to_vec(),
            1 => (0..self.below(12)).map(|_| self.next() as u8).collect(),
            _ => self.key().into_bytes(),
        }
    }

    pub fn feature(&mut self) -> Feature {
        let n = if self.below(6) == 0 { 0 } else { 1 + self.below(5) } as usize;
        match self.below(10) {
            0 => Feature::default(),
            1..=3 => Feature::int64s(
                (0..n)
                    .map(|_| match self.below(4) {
                        0 => *self.pick(&[i64::MIN, i64::MAX, 0, -1, 1]),
                        1 => self.next() as i64,
                        _ => self.below(1000) as i64 - 500,
                    })
                    .collect(),
            ),
            4..=6 => Feature::floats((0..n).map(|_| self.float()).collect()),
            _ => Feature::bytes((0..n).map(|_| self.bytes()).collect()),
        }
    }

    pub fn features(&mut self) -> Features {
        Features {
            feature: (0..self.below(6))
                .map(|_| FeatureEntry::new(self.key(), self.feature()))
                .collect(),
        }
    }

    pub fn example(&mut self) -> Example {
        Example {
            features: (self.below(10) != 0).then(|| self.features()),
        }
    }

    pub fn sequence(&mut self) -> SequenceExample {
        SequenceExample {
            context: (self.below(4) != 0).then(|| self.features()),
            feature_lists: (self.below(4) != 0).then(|| FeatureLists {
                feature_list: (0..self.below(4))
                    .map(|_| {
                        let steps = (0..self.below(4)).map(|_| self.feature()).collect();
                        FeatureListEntry::new(self.key(), FeatureList { feature: steps })
                    })
                    .collect(),
            }),
        }
    }
}

/// Leaves out the entries of a name whose last entry has no kind.
pub(crate) fn drop_shadowed_by_empty(f: &mut Features) {
    let last: std::collections::HashMap<Option<String>, bool> = f
        .feature
        .iter()
        .map(|e| (e.key.clone(), e.value.as_ref().is_none_or(|v| v.kind.is_none())))
        .collect();
    let mut seen_last = std::collections::HashSet::new();
    let mut keep: Vec<bool> = f
        .feature
        .iter()
        .rev()
        .map(|e| seen_last.insert(e.key.clone()) || !last[&e.key])
        .collect();
    keep.reverse();
    let mut i = 0;
    f.feature.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

/// `payloads` framed as in.tfrecord in a scratch directory, and to-jsonl
/// `--type name` of it as x.jsonl there: the directory and the file's bytes.
pub(crate) fn to_jsonl(payloads: &[Vec<u8>], name: &str) -> (Dir, Vec<u8>) {
    let dir = Dir::new();
    let file = records(&payloads.iter().map(Vec::as_slice).collect::<Vec<_>>());
    dir.write("in.tfrecord", &file);
    dir.tfr(&["to-jsonl", "--type", name, "in.tfrecord", "-o", "x.jsonl"])
        .run()
        .ok();
    (dir, file)
}

/// from-jsonl writes no name TensorFlow's parser reads other than protobuf:
/// `{"x": [5], "x": null}` becomes one `x` without a kind.
#[test]
fn a_name_whose_last_value_is_null_is_written_once() {
    let dir = Dir::new();
    let line = "{\"x\":[5],\"y\":[1],\"x\":null,\"y\":[2]}\n";
    dir.tfr(&["from-jsonl", "-o", "n.tfrecord"])
        .stdin(line.as_bytes())
        .run()
        .ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "n.tfrecord"]).run().ok(),
        "{\"y\":[1],\"x\":null,\"y\":[2]}\n"
    );
    assert_eq!(dir.tfr(&["verify-crc", "--payloads", "n.tfrecord"]).run().code, 0);
}

/// Random Examples and SequenceExamples (every kind, empty lists, unset
/// features, extreme and non-finite floats, invalid UTF-8, unicode and
/// empty keys, repeated keys) come back byte for byte, through the library
/// and through the command line.
#[test]
fn random_messages_round_trip_byte_identical() {
    let mut rng = Rng(0x7f4a_7c15);
    let mut encoder = Encoder::new(JsonFormat::Natural, None);
    for (ty, name) in [
        (MessageType::Example, "example"),
        (MessageType::SequenceExample, "sequence"),
    ] {
        let mut payloads = Vec::new();
        for _ in 0..3000 {
            let payload = match ty {
                MessageType::Example => {
                    let mut example = rng.example();
                    if let Some(f) = example.features.as_mut() {
                        // from-jsonl writes only the last entry of a name
                        // whose last value is null (see keep_last_if_empty).
                        drop_shadowed_by_empty(f);
                    }
                    example.encode_to_vec()
                }
                _ => rng.sequence().encode_to_vec(),
            };
            let mut line = Vec::new();
            render_json(ty, false, &payload, &mut line).unwrap();
            let mut back = Vec::new();
            encoder
                .encode(ty, &line[..line.len() - 1], &mut back)
                .unwrap_or_else(|e| panic!("{e} in {}", String::from_utf8_lossy(&line)));
            assert!(back == payload, "{name}: {}", String::from_utf8_lossy(&line));
            // Every line is JSON that serde_json reads.
            serde_json::from_slice::<Value>(&line).unwrap();
            payloads.push(payload);
        }
        let (dir, file) = to_jsonl(&payloads, name);
        dir.tfr(&[
            "from-jsonl",
            "--type",
            name,
            "x.jsonl",
            "-o",
            "out.tfrecord",
            "--compression",
            "gzip",
            "--on-kind-change",
            "keep",
        ])
        .run()
        .warns();
        let out = inflate(&std::fs::read(dir.path("out.tfrecord")).unwrap(), true);
        assert!(out == file, "{name}: the command line round trip differs");
        // What from-jsonl writes, TensorFlow's parsers read as protobuf
        // does; only content no dtype parses (a feature list whose steps
        // change kind, which from-jsonl warned about) is flagged.
        let ran = dir.tfr(&["verify-crc", "--payloads", "out.tfrecord"]).run();
        for line in ran.stderr.lines() {
            assert!(line.ends_with(tfr::example::tf_parser::MIXED_KINDS), "{name}: {line}");
        }
    }
}

/// protojson round-trips random messages too.
#[test]
fn random_messages_round_trip_through_protojson() {
    let mut rng = Rng(0x1234);
    let mut encoder = Encoder::new(JsonFormat::Protojson, None);
    for ty in [MessageType::Example, MessageType::SequenceExample] {
        for _ in 0..2000 {
            let msg = match ty {
                MessageType::Example => rng.example().encode_to_vec(),
                _ => rng.sequence().encode_to_vec(),
            };
            // protojson keeps the last of repeated keys (as protobuf does):
            // compare with the message re-encoded after that merge.
            let mut line = Vec::new();
            tfr::example::json::render_protojson(ty, false, &msg, &mut line).unwrap();
            let mut back = Vec::new();
            encoder
                .encode(ty, &line[..line.len() - 1], &mut back)
                .unwrap_or_else(|e| panic!("{e} in {}", String::from_utf8_lossy(&line)));
            let mut again = Vec::new();
            tfr::example::json::render_protojson(ty, false, &back, &mut again).unwrap();
            assert_eq!(String::from_utf8_lossy(&again), String::from_utf8_lossy(&line));
            serde_json::from_slice::<Value>(&line).unwrap();
        }
    }
}
