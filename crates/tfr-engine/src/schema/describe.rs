//! Short human forms of statistics, shared by the table, the JSON and the
//! parse spec: numbers, percentages, byte sizes, feature names, where a
//! kind was first seen.

use super::stats::{self, FeatureStats};
use super::Scan;
use crate::example::MessageType;

/// The inputs (0-based) that had records but no record holding the feature.
pub fn absent_in(f: &FeatureStats, scan: &Scan) -> Vec<usize> {
    if scan.files.len() < 2 {
        return Vec::new();
    }
    (0..scan.files.len())
        .filter(|i| scan.records_of(*i) > 0 && f.inputs.binary_search(&(*i as u32)).is_err())
        .collect()
}

/// Where a kind was first seen, as `FILE record N`.
pub fn seen_at(scan: &Scan, seen: stats::Seen) -> String {
    let file = scan.files.get(seen.input as usize).map_or("?", |f| f.name.as_str());
    format!("{file} record {}", seen.record)
}

/// The kinds of a feature with where each was first seen.
pub fn kinds_first_seen(scan: &Scan, f: &FeatureStats) -> String {
    f.kinds()
        .into_iter()
        .map(|k| {
            let seen = f.first_seen[stats::kind_index(k).expect("a kind")].expect("seen");
            format!("{} (first in {})", k.name(), seen_at(scan, seen))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A float32 as its shortest round-trip decimal (`1.0`, `0.1`, `1e-45`, `inf`, `NaN`).
pub fn shortest(v: f32) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        ryu::Buffer::new().format_finite(v).to_string()
    }
}

/// A float32 in at most 6 significant digits, for tables.
pub fn short_float(v: f32) -> String {
    let s = shortest(v);
    if !v.is_finite() {
        return s;
    }
    let rounded = round_sig(f64::from(v), 6);
    // The shortest form already has at most 6 digits when rounding loses nothing.
    if rounded.parse::<f32>() == Ok(v) {
        s
    } else {
        rounded
    }
}

/// `v` rounded to `digits` significant digits, trailing zeros dropped;
/// exponent form outside 1e-4 ..= 1e6.
pub fn round_sig(v: f64, digits: usize) -> String {
    let sci = format!("{v:.*e}", digits - 1);
    let (mantissa, exp) = sci.split_once('e').expect("exponent");
    let exp: i32 = exp.parse().expect("exponent");
    if (-4..digits as i32).contains(&exp) {
        let s = format!("{v:.*}", (digits as i32 - 1 - exp) as usize);
        let s = if s.contains('.') { s.trim_end_matches('0') } else { &s };
        s.strip_suffix('.').unwrap_or(s).to_string()
    } else {
        let m = mantissa.trim_end_matches('0');
        format!("{}e{exp}", m.strip_suffix('.').unwrap_or(m))
    }
}

/// An int64 for tables: exact up to 12 digits, else 4 significant digits.
pub fn short_int(v: i64) -> String {
    if v.unsigned_abs() < 1_000_000_000_000 {
        v.to_string()
    } else {
        round_sig(v as f64, 4)
    }
}

/// `lo .. hi`, or just `lo` when both are the same.
pub fn span_str(lo: String, hi: String) -> String {
    if lo == hi {
        lo
    } else {
        format!("{lo} .. {hi}")
    }
}

/// `part` of `whole` as a percentage that is never rounded to 0% or 100%.
pub fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".to_string();
    }
    let p = part as f64 * 100.0 / whole as f64;
    if part == whole {
        "100%".to_string()
    } else if part == 0 {
        "0%".to_string()
    } else if p < 1.0 {
        "<1%".to_string()
    } else if p > 99.0 {
        ">99%".to_string()
    } else {
        format!("{p:.0}%")
    }
}

/// A count range: `3` when fixed, `0-3` otherwise, `-` when empty.
pub fn count_range(c: &stats::Counts) -> String {
    match c.range() {
        None => "-".to_string(),
        Some((a, b)) if a == b => a.to_string(),
        Some((a, b)) => format!("{a}-{b}"),
    }
}

/// A byte count, abbreviated: `512`, `3.9 KiB`, `1.2 MiB`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return n.to_string();
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// A feature name for tables and messages: control characters escaped.
pub fn display_name(name: &str) -> String {
    if name.is_empty() {
        return "\"\"".to_string();
    }
    let mut s = String::with_capacity(name.len());
    for c in name.chars() {
        if needs_escape(c) {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// Characters that would break a line or a table cell.
pub fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The message type as tables name it (`tf.train.Example`, ...).
pub fn type_name(ty: MessageType) -> &'static str {
    match ty {
        MessageType::SequenceExample => "tf.train.SequenceExample",
        MessageType::Elwc => "tensorflow.serving.ExampleListWithContext",
        _ => "tf.train.Example",
    }
}

/// Summary line: what was scanned.
pub fn summary(scan: &Scan) -> String {
    let records = scan.stats.records;
    let what = match scan.files.as_slice() {
        [one] => one.name.clone(),
        files => format!("{} files", files.len()),
    };
    let mut s = format!(
        "{what}: {records} record{} of {}",
        if records == 1 { "" } else { "s" },
        type_name(scan.ty)
    );
    if scan.ty == MessageType::Elwc {
        let n = scan.stats.example_count;
        s.push_str(&format!(
            ", {n} example{} in their lists",
            if n == 1 { "" } else { "s" }
        ));
    }
    if scan.limited {
        s.push_str(" (--limit reached, not all records scanned)");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::stats::Media;

    #[test]
    fn floats_are_short_in_tables() {
        assert_eq!(short_float(1.0), "1.0");
        assert_eq!(short_float(-2.5529897), "-2.55299");
        assert_eq!(short_float(0.33333334), "0.333333");
        assert_eq!(short_float(3.4028235e38), "3.40282e38");
        assert_eq!(short_float(1e-45), "1e-45");
        assert_eq!(short_float(f32::NEG_INFINITY), "-inf");
        assert_eq!(short_float(123456790.0), "1.23457e8");
    }

    #[test]
    fn percentages_never_round_to_the_ends() {
        assert_eq!(pct(199, 200), ">99%");
        assert_eq!(pct(1, 200), "<1%");
        assert_eq!(pct(50, 200), "25%");
        assert_eq!(pct(0, 0), "-");
    }

    #[test]
    fn media_names_are_stable() {
        let names: Vec<&str> = Media::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(
            names,
            ["jpeg", "png", "gif", "webp", "tensor_proto", "json", "text", "binary"]
        );
    }
}
