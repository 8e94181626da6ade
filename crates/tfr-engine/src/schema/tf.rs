//! `tfr schema --format tf`: a Python `feature_description` for
//! `tf.io.parse_example` that parses every scanned record.

use super::describe::*;
use super::stats::{self, FeatureStats};
use super::Scan;
use crate::example::{Kind, MessageType};
use crate::io::Compression;
use std::fmt::Write as _;

/// A Python string literal (double-quoted, control characters escaped).
fn py_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) && (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn tf_dtype(kind: Kind) -> &'static str {
    match kind {
        Kind::Int64 => "tf.int64",
        Kind::Float => "tf.float32",
        _ => "tf.string",
    }
}

fn tf_zero(kind: Kind) -> &'static str {
    match kind {
        Kind::Int64 => "0",
        Kind::Float => "0.0",
        _ => "b\"\"",
    }
}

/// How a feature is described in a parse spec (the rules of the module
/// docs; also `crate::parse`'s inferred spec).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Described {
    /// The same number of values in every record holding it.
    Fixed {
        /// How many.
        n: u64,
        /// Their kind.
        kind: Kind,
        /// Not in all of the records (a default of zeros then stands in).
        missing: bool,
    },
    /// A varying number of values (or always empty).
    Var {
        /// Their kind.
        kind: Kind,
    },
    /// Kinds differ between records: no single dtype parses them all.
    Conflict,
    /// Never a kind set: no dtype is known.
    NoKind,
}

/// How the feature `f`, seen in `records` records (or steps), is described.
pub fn described(f: &FeatureStats, records: u64) -> Described {
    let Some(kind) = f.kind() else {
        return if f.is_conflict() {
            Described::Conflict
        } else {
            Described::NoKind
        };
    };
    match f.values.range() {
        Some((n, m)) if n == m && n > 0 => Described::Fixed {
            n,
            kind,
            missing: f.present < records,
        },
        _ => Described::Var { kind },
    }
}

/// One line of a spec dict: `"name": tf.io....,  # note` or a comment.
fn spec_line(scan: &Scan, f: &FeatureStats, (records, unit): (u64, &str), lists: bool) -> String {
    let name = py_str(&f.name);
    let mut notes = Vec::new();
    let absent = absent_in(f, scan);
    if !absent.is_empty() {
        let mut names: Vec<String> = absent.iter().take(3).map(|i| py_str(&scan.files[*i].name)).collect();
        if absent.len() > 3 {
            names.push("...".to_string());
        }
        notes.push(format!(
            "absent from {} of {} files: {}",
            absent.len(),
            scan.files.len(),
            names.join(", ")
        ));
    }
    let spec = match described(f, records) {
        Described::Conflict => {
            return format!(
                "    # {name}: LEFT OUT: its kind differs between records ({}); no single dtype parses them all.",
                kinds_first_seen(scan, f)
            );
        }
        Described::NoKind => {
            let what = if lists { "no step ever has" } else { "never has" };
            return format!("    # {name}: LEFT OUT: {what} a kind set, so no dtype is known.");
        }
        Described::Fixed { n, kind, missing } => {
            let dtype = tf_dtype(kind);
            let shape = if n == 1 { "[]".to_string() } else { format!("[{n}]") };
            if lists {
                let allow = if missing { ", allow_missing=True" } else { "" };
                format!("tf.io.FixedLenSequenceFeature({shape}, {dtype}{allow})")
            } else if missing {
                let zero = tf_zero(kind);
                let default = if n == 1 {
                    zero.to_string()
                } else {
                    format!("[{zero}] * {n}")
                };
                notes.push(format!("missing in {} of {records} {unit}", records - f.present));
                format!("tf.io.FixedLenFeature({shape}, {dtype}, default_value={default})")
            } else {
                format!("tf.io.FixedLenFeature({shape}, {dtype})")
            }
        }
        Described::Var { kind } => {
            if f.is_always_empty() {
                notes.push("always empty".to_string());
            }
            format!("tf.io.VarLenFeature({})", tf_dtype(kind))
        }
    };
    let mut line = format!("    {name}: {spec},");
    if !notes.is_empty() {
        let _ = write!(line, "  # {}", notes.join("; "));
    }
    line
}

fn spec_dict(out: &mut String, scan: &Scan, var: &str, table: &stats::FeatureTable, lists: bool) {
    spec_dict_of(out, scan, var, table, lists, (scan.stats.records, "records"));
}

/// [`spec_dict`] with presence counted out of `records` of `unit`.
fn spec_dict_of(
    out: &mut String,
    scan: &Scan,
    var: &str,
    table: &stats::FeatureTable,
    lists: bool,
    records: (u64, &str),
) {
    let _ = writeln!(out, "{var} = {{");
    let mut described = 0;
    for f in table.sorted() {
        let line = spec_line(scan, f, records, lists);
        described += usize::from(!line.trim_start().starts_with('#'));
        let _ = writeln!(out, "{line}");
    }
    let (untracked, lower_bound) = table.untracked();
    if untracked > 0 {
        let more = if lower_bound { "at least " } else { "" };
        let _ = writeln!(
            out,
            "    # {more}{untracked} more names not described: only the first {} distinct names are tracked",
            stats::MAX_FEATURES
        );
    }
    if described == 0 {
        let _ = writeln!(
            out,
            "    # (nothing to describe; TensorFlow refuses to parse with no features at all)"
        );
    }
    let _ = writeln!(out, "}}");
}

/// Writes a Python parse spec for `tf.io.parse_example` (`tfr schema -f tf`).
pub fn write_tf(out: &mut String, scan: &Scan) {
    let records = scan.stats.records;
    let files = match scan.files.as_slice() {
        [one] => py_str(&one.name),
        many => format!("{} files", many.len()),
    };
    let _ = writeln!(
        out,
        "# Parse spec inferred by `tfr schema` from {records} record{} of {files} ({}).",
        if records == 1 { "" } else { "s" },
        type_name(scan.ty)
    );
    if scan.limited {
        let _ = writeln!(out, "# Only the first {records} records were scanned (--limit).");
    }
    if let Some(e) = &scan.error {
        let _ = writeln!(
            out,
            "# INCOMPLETE: the scan stopped at an error: {}",
            e.replace('\n', " ")
        );
    }
    let mut compressions: Vec<Compression> = scan.files.iter().map(|f| f.compression).collect();
    compressions.dedup();
    let compression = match compressions.as_slice() {
        [Compression::Gzip] => ", compression_type=\"GZIP\"",
        [Compression::Zlib] => ", compression_type=\"ZLIB\"",
        [Compression::Snappy] => ", compression_type=\"SNAPPY\"",
        _ => "",
    };
    if compressions.len() > 1 {
        let _ = writeln!(out, "# The files mix compressions: give each its own compression_type.");
    }
    let _ = writeln!(out, "import tensorflow as tf\n");
    match scan.ty {
        MessageType::SequenceExample => {
            spec_dict(out, scan, "context_features", &scan.stats.features, false);
            let _ = writeln!(out);
            spec_dict(out, scan, "sequence_features", &scan.stats.feature_lists, true);
            let _ = writeln!(out);
            let _ = writeln!(out, "def parse(serialized):");
            let _ = writeln!(out, "    return tf.io.parse_single_sequence_example(");
            let _ = writeln!(
                out,
                "        serialized, context_features=context_features, sequence_features=sequence_features)"
            );
        }
        MessageType::Elwc => {
            spec_dict(out, scan, "context_feature_spec", &scan.stats.features, false);
            let _ = writeln!(out);
            let examples = scan.stats.example_count;
            let examples = (examples, "examples");
            spec_dict_of(out, scan, "example_feature_spec", &scan.stats.examples, false, examples);
            let _ = writeln!(out);
            let _ = writeln!(out, "# For TF-Ranking (pip install tensorflow-ranking):");
            let _ = writeln!(out, "# import tensorflow_ranking as tfr");
            let _ = writeln!(out, "# def parse(serialized):");
            let _ = writeln!(out, "#     return tfr.data.parse_from_example_list(");
            let _ = writeln!(
                out,
                "#         serialized, context_feature_spec=context_feature_spec, example_feature_spec=example_feature_spec)"
            );
        }
        _ => {
            spec_dict(out, scan, "feature_description", &scan.stats.features, false);
            let _ = writeln!(out);
            let _ = writeln!(out, "def parse(serialized):");
            let _ = writeln!(
                out,
                "    return tf.io.parse_single_example(serialized, feature_description)"
            );
        }
    }
    let _ = writeln!(
        out,
        "\n# dataset = tf.data.TFRecordDataset(FILES{compression}).map(parse)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_literals_escape_what_python_needs() {
        assert_eq!(py_str("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(py_str("new\nline\ttab\r"), r#""new\nline\ttab\r""#);
        assert_eq!(py_str("ctl\x01\x1f\x7f"), r#""ctl\x01\x1f\x7f""#);
        assert_eq!(py_str("\u{85}\u{a0}\u{2028}ключ"), "\"\\x85\u{a0}\\u2028ключ\"");
        assert_eq!(py_str(""), "\"\"");
    }
}
