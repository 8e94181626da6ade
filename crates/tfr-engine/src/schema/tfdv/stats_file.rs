//! TFDV's statistics file: a `DatasetFeatureStatisticsList`
//! (proto/statistics.proto), as binary protobuf (what
//! `tfdv.generate_statistics_from_tfrecord` writes: one TFRecord holding it,
//! read by `tfdv.load_statistics`) or text format (`tfdv.load_stats_text`).
//!
//! As TFDV writes them: bytes features are STRING (values that are not
//! UTF-8 ranked under the label `__BYTES_VALUE__`, counted in
//! `invalid_utf8_count`), infinities are in the mean; tfr adds a
//! `custom_stats` `media_type` for bytes features.
//!
//! One writer, [`Proto`], emits either encoding from the same calls, with
//! proto3's rule that fields at their default value are left out. The
//! field numbers are statistics.proto's (tests/cli/stats.rs checks each
//! against the vendored file).

use crate::example::MessageType;
use crate::schema::stats::FeatureTable;
use crate::schema::summary::{self, Bucket, StatsType, Summary};
use crate::schema::Scan;

/// A protobuf message being written, as binary or as text format.
pub struct Proto {
    text: bool,
    depth: usize,
    out: Vec<u8>,
}

use crate::example::wire::put_varint as varint;

/// A double as text format writes it (shortest round trip; `inf`, `nan`).
fn text_double(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else if v == v.trunc() && v.abs() < 1e16 {
        format!("{v:.1}")
    } else {
        format!("{v:?}")
    }
}

/// Text format's escaping of a string: `"` `\` and bytes outside printable
/// ASCII as octal (so any bytes survive).
pub fn text_string(v: &[u8]) -> String {
    let mut s = String::with_capacity(v.len() + 2);
    s.push('"');
    for &b in v {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            b'\t' => s.push_str("\\t"),
            b'\'' => s.push_str("\\'"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\{b:03o}")),
        }
    }
    s.push('"');
    s
}

impl Proto {
    /// A writer of protobuf text format (`text`) or of the binary encoding.
    pub fn new(text: bool) -> Self {
        Proto {
            text,
            depth: 0,
            out: Vec::new(),
        }
    }

    /// What was written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    fn line(&mut self, name: &str, value: &str) {
        self.out.extend(std::iter::repeat_n(b' ', self.depth * 2));
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b": ");
        self.out.extend_from_slice(value.as_bytes());
        self.out.push(b'\n');
    }

    fn tag(&mut self, no: u32, wire: u8) {
        varint(&mut self.out, u64::from(no) << 3 | u64::from(wire));
    }

    /// A nested message (written even when empty).
    pub fn message(&mut self, no: u32, name: &str, body: impl FnOnce(&mut Proto)) {
        if self.text {
            self.out.extend(std::iter::repeat_n(b' ', self.depth * 2));
            self.out.extend_from_slice(name.as_bytes());
            self.out.extend_from_slice(b" {\n");
            self.depth += 1;
            body(self);
            self.depth -= 1;
            self.out.extend(std::iter::repeat_n(b' ', self.depth * 2));
            self.out.extend_from_slice(b"}\n");
        } else {
            let mut inner = Proto::new(false);
            body(&mut inner);
            self.tag(no, 2);
            varint(&mut self.out, inner.out.len() as u64);
            self.out.extend_from_slice(&inner.out);
        }
    }

    /// Writes a uint64 field (number `no`, named `name` in text).
    pub fn uint(&mut self, no: u32, name: &str, v: u64) {
        self.varint_field(no, name, v, v);
    }

    /// Writes an int64 field.
    pub fn int(&mut self, no: u32, name: &str, v: i64) {
        // int64 on the wire: two's complement as a 10-byte varint.
        self.varint_field(no, name, v, v as u64);
    }

    /// A varint field (left out when 0): `shown` in text, `wire` in binary.
    fn varint_field(&mut self, no: u32, name: &str, shown: impl std::fmt::Display, wire: u64) {
        if wire == 0 {
            return;
        }
        if self.text {
            self.line(name, &shown.to_string());
        } else {
            self.tag(no, 0);
            varint(&mut self.out, wire);
        }
    }

    /// Writes a double field.
    pub fn double(&mut self, no: u32, name: &str, v: f64) {
        if v == 0.0 && v.is_sign_positive() {
            return;
        }
        if self.text {
            self.line(name, &text_double(v));
        } else {
            self.tag(no, 1);
            self.out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// Writes a float field.
    pub fn float(&mut self, no: u32, name: &str, v: f32) {
        if v == 0.0 && v.is_sign_positive() {
            return;
        }
        if self.text {
            // Shortest digits of the float32 (as Python's text_format).
            let t = if v.is_finite() {
                format!("{v:?}")
            } else {
                text_double(f64::from(v))
            };
            self.line(name, &t);
        } else {
            self.tag(no, 5);
            self.out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// Writes a bytes field.
    pub fn bytes(&mut self, no: u32, name: &str, v: &[u8]) {
        if v.is_empty() {
            return;
        }
        self.bytes_always(no, name, v);
    }

    /// An element of a repeated string (written even when empty).
    pub fn bytes_always(&mut self, no: u32, name: &str, v: &[u8]) {
        if self.text {
            self.line(name, &text_string(v));
        } else {
            self.tag(no, 2);
            varint(&mut self.out, v.len() as u64);
            self.out.extend_from_slice(v);
        }
    }

    /// An enum field: its number (binary) or its name (text).
    pub fn enumeration(&mut self, no: u32, name: &str, number: i32, ident: &str) {
        if number == 0 {
            return;
        }
        if self.text {
            self.line(name, ident);
        } else {
            self.tag(no, 0);
            varint(&mut self.out, number as i64 as u64);
        }
    }
}

/// The statistics of a scan as a `DatasetFeatureStatisticsList`: one
/// dataset (an ExampleListWithContext: one for the contexts, one for the
/// examples; a SequenceExample: context features by name, feature lists
/// too, with their steps' values).
pub fn write(scan: &Scan, text: bool) -> Vec<u8> {
    let mut p = Proto::new(text);
    let records = scan.stats.records;
    let name = scan.files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(",");
    let mut datasets: Vec<(String, u64, Vec<&FeatureTable>)> = Vec::new();
    match scan.ty {
        MessageType::Elwc => {
            datasets.push((format!("{name} (context)"), records, vec![&scan.stats.features]));
            datasets.push((
                format!("{name} (examples)"),
                scan.stats.example_count,
                vec![&scan.stats.examples],
            ));
        }
        MessageType::SequenceExample => {
            datasets.push((name, records, vec![&scan.stats.features, &scan.stats.feature_lists]));
        }
        _ => datasets.push((name, records, vec![&scan.stats.features])),
    }
    for (name, total, tables) in datasets {
        p.message(1, "datasets", |d| {
            d.bytes(1, "name", name.as_bytes());
            d.uint(2, "num_examples", total);
            for table in tables {
                for f in table.sorted() {
                    if let Some(s) = summary::summarize(f, total) {
                        d.message(3, "features", |m| feature(m, &f.name, &s));
                    }
                }
            }
        });
    }
    p.into_bytes()
}

fn histogram(p: &mut Proto, no: u32, name: &str, buckets: &[Bucket], quantiles: bool, nan: u64) {
    p.message(no, name, |h| {
        h.uint(1, "num_nan", nan);
        for &(lo, hi, n) in buckets {
            h.message(3, "buckets", |b| {
                b.double(1, "low_value", lo);
                b.double(2, "high_value", hi);
                b.double(4, "sample_count", n);
            });
        }
        h.enumeration(4, "type", i32::from(quantiles), "QUANTILES");
    });
}

fn common(p: &mut Proto, s: &Summary) {
    p.message(1, "common_stats", |c| {
        c.uint(1, "num_non_missing", s.present);
        c.uint(2, "num_missing", s.missing);
        c.uint(3, "min_num_values", s.min_values);
        c.uint(4, "max_num_values", s.max_values);
        c.float(5, "avg_num_values", s.avg_values as f32);
        // None for a feature never present with a kind (TFDV's).
        if s.present > 0 {
            histogram(c, 6, "num_values_histogram", &s.values_histogram, true, 0);
        }
        c.uint(8, "tot_num_values", s.tot_values);
        if let Some(steps) = &s.steps_histogram {
            histogram(c, 9, "feature_list_length_histogram", steps, true, 0);
        }
    });
}

fn feature(p: &mut Proto, name: &str, s: &Summary) {
    // Bytes are STRING to TFDV, values that are not UTF-8 shown as
    // "__BYTES_VALUE__"; so is a feature never holding a value.
    let ty = match s.ty {
        Some(StatsType::Int) => StatsType::Int,
        Some(StatsType::Float) => StatsType::Float,
        _ => StatsType::String,
    };
    p.enumeration(2, "type", ty.number(), ty.name());
    let label = |v: &[u8]| -> Vec<u8> {
        if std::str::from_utf8(v).is_ok() {
            v.to_vec()
        } else {
            b"__BYTES_VALUE__".to_vec()
        }
    };
    match (&s.num, &s.bytes) {
        (Some(n), _) => p.message(3, "num_stats", |m| {
            common(m, s);
            // Any infinity makes TFDV's mean NaN (its running mean meets
            // 0 * inf when a batch's infinite mean is combined), its
            // deviation 0.
            let mean = if n.pos_inf + n.neg_inf > 0 { f64::NAN } else { n.mean };
            m.double(2, "mean", mean);
            m.double(3, "std_dev", n.std_dev);
            m.uint(4, "num_zeros", n.zeros);
            m.double(5, "min", n.min);
            m.double(6, "median", n.median);
            m.double(7, "max", n.max);
            // Histograms when there is a value: NaN only, they say how many.
            if s.tot_values > 0 {
                histogram(m, 8, "histograms", &n.tfdv_standard, false, n.nan);
                histogram(m, 8, "histograms", &n.quantiles, true, n.nan);
            }
        }),
        (None, Some(b)) => p.message(4, "string_stats", |m| {
            common(m, s);
            m.uint(2, "unique", b.unique);
            for (v, n) in &b.top {
                m.message(3, "top_values", |t| {
                    t.bytes(2, "value", &label(v));
                    t.double(3, "frequency", *n as f64);
                });
            }
            m.float(4, "avg_length", b.avg_len as f32);
            m.message(5, "rank_histogram", |r| {
                for (i, (v, n)) in b.ranked.iter().enumerate() {
                    r.message(1, "buckets", |k| {
                        k.uint(1, "low_rank", i as u64);
                        k.uint(2, "high_rank", i as u64);
                        k.bytes(4, "label", &label(v));
                        k.double(5, "sample_count", *n as f64);
                    });
                }
            });
            m.uint(8, "invalid_utf8_count", b.invalid_utf8);
        }),
        // A feature with no values at all: only its presence.
        (None, None) => p.message(4, "string_stats", |m| common(m, s)),
    }
    if let Some(b) = &s.bytes {
        if let Some((media, _)) = b.media.first() {
            p.message(6, "custom_stats", |c| {
                c.bytes(1, "name", b"media_type");
                c.bytes(3, "str", media.as_bytes());
            });
        }
    }
    p.message(8, "path", |path| path.bytes_always(1, "step", name.as_bytes()));
}

/// `bytes` as the one record of a TFRecord file (what TFDV writes and
/// `tfdv.load_statistics` reads first).
pub fn as_tfrecord(bytes: &[u8]) -> Vec<u8> {
    let mut w = crate::record::RecordWriter::new(Vec::new());
    // Writing to memory cannot fail.
    let _ = w.write_record(bytes);
    w.into_inner()
}
