//! protojson: protobuf's JSON mapping of Examples and SequenceExamples
//! (the module documentation of [`super`] says exactly which).

use crate::example::out::Out;
use crate::example::short;
use crate::example::text::write_float;
use crate::example::view::{ExampleView, FeatureListsView, FeatureView, FeaturesView, Kind, SequenceExampleView};

use super::{base64_out, joined, non_finite, sequence, shortened, shortened_value, ElwcKeys, Mapping, Seen, HEX};

/// protojson ([`crate::example::render_with`]).
pub(crate) const PROTOJSON: Mapping = Mapping {
    fast: None,
    example: proto_example,
    sequence: proto_sequence,
    elwc: ElwcKeys {
        context: b"\"context\": ",
        examples: b"\"examples\": [",
        sep: b", ",
        context_first: false,
        empty_examples: false,
    },
    raw: base64_out,
};

/// An Example (protojson names every kind: `_seen` is not needed).
fn proto_example(view: &ExampleView<'_>, _seen: &mut Seen, out: &mut Out<'_>) {
    match view.features() {
        Some(features) => {
            out.extend_from_slice(b"{\"features\": ");
            proto_features(&features, out);
            out.push(b'}');
        }
        None => out.extend_from_slice(b"{}"),
    }
}

fn proto_sequence(view: &SequenceExampleView<'_>, out: &mut Out<'_>) {
    let keys = [&b"\"context\": "[..], b", ", b"\"featureLists\": "];
    sequence(view, keys, proto_features, proto_feature_lists, out);
}

fn proto_features(features: &FeaturesView<'_>, out: &mut Out<'_>) {
    if features.is_empty() {
        out.extend_from_slice(b"{}");
        return;
    }
    out.extend_from_slice(b"{\"feature\": {");
    let entries = features.entries().filter(|(key, _)| out.keeps(key)).collect();
    for (i, (key, feature)) in dedup_last(entries).into_iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        ascii_json_string(key, out);
        out.extend_from_slice(b": ");
        proto_feature(&feature, out);
        out.spill_point();
    }
    out.extend_from_slice(b"}}");
}

/// Keeps the last entry of each key, at its wire position.
pub(super) fn dedup_last<T>(mut entries: Vec<(&str, T)>) -> Vec<(&str, T)> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| entries[a].0.cmp(entries[b].0).then(a.cmp(&b)));
    if !order.windows(2).any(|w| entries[w[0]].0 == entries[w[1]].0) {
        return entries;
    }
    let mut keep = vec![false; entries.len()];
    for (i, &e) in order.iter().enumerate() {
        if order.get(i + 1).is_none_or(|&next| entries[next].0 != entries[e].0) {
            keep[e] = true;
        }
    }
    let mut i = 0;
    entries.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    entries
}

fn proto_feature_lists(lists: &FeatureListsView<'_>, out: &mut Out<'_>) {
    if lists.is_empty() {
        out.extend_from_slice(b"{}");
        return;
    }
    out.extend_from_slice(b"{\"featureList\": {");
    let entries = dedup_last(lists.entries().filter(|(key, _)| out.keeps(key)).collect());
    for (i, (key, list)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        ascii_json_string(key, out);
        out.extend_from_slice(b": ");
        if list.is_empty() {
            out.extend_from_slice(b"{}");
            continue;
        }
        out.extend_from_slice(b"{\"feature\": [");
        let shown = out.short().map_or(usize::MAX, |s| s.max_values);
        joined(list.features().take(shown), b", ", out, |f, out| proto_feature(&f, out));
        if list.len() > shown {
            if shown > 0 {
                out.extend_from_slice(b", ");
            }
            shortened(&short::more_steps(list.len(), shown), None, out);
        }
        out.extend_from_slice(b"]}");
    }
    out.extend_from_slice(b"}}");
}

fn proto_feature(feature: &FeatureView<'_>, out: &mut Out<'_>) {
    let name: &[u8] = match feature.kind() {
        Kind::None => {
            out.extend_from_slice(b"{}");
            return;
        }
        Kind::Bytes => b"{\"bytesList\": ",
        Kind::Float => b"{\"floatList\": ",
        Kind::Int64 => b"{\"int64List\": ",
    };
    out.extend_from_slice(name);
    if feature.is_empty() {
        out.extend_from_slice(b"{}}");
        return;
    }
    out.extend_from_slice(b"{\"value\": [");
    let short = out.short();
    let shown = short.map_or(usize::MAX, |s| s.max_values);
    match feature.kind() {
        Kind::Bytes => {
            for (i, v) in feature.bytes().take(shown).enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                match short.and_then(|s| short::cut(v, s.max_bytes)) {
                    Some(start) => shortened_value(v, start, out),
                    None => base64_out(v, out),
                }
                out.spill_point();
            }
        }
        Kind::Float => {
            for (i, v) in feature.floats().take(shown).enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                if v.is_finite() {
                    write_float(v, out);
                } else {
                    out.extend_from_slice(non_finite(v));
                }
                out.spill_point();
            }
        }
        Kind::Int64 => {
            let mut buf = itoa::Buffer::new();
            for (i, v) in feature.int64s().take(shown).enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                out.push(b'"');
                out.extend_from_slice(buf.format(v).as_bytes());
                out.push(b'"');
                out.spill_point();
            }
        }
        Kind::None => {}
    }
    if short::longer_than(feature, shown) {
        if shown > 0 {
            out.extend_from_slice(b", ");
        }
        shortened(&short::more(feature, shown), None, out);
    }
    out.extend_from_slice(b"]}}");
}

/// A JSON string as Python's `json.dumps(ensure_ascii=True)` writes it:
/// `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and `\uXXXX` (lower-case hex,
/// surrogate pairs above U+FFFF) for every other character outside
/// 0x20..=0x7E.
pub fn ascii_json_string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            ' '..='~' => out.push(c as u8),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let u = *unit;
                    out.extend_from_slice(&[
                        b'\\',
                        b'u',
                        HEX[(u >> 12) as usize],
                        HEX[((u >> 8) & 15) as usize],
                        HEX[((u >> 4) & 15) as usize],
                        HEX[(u & 15) as usize],
                    ]);
                }
            }
        }
    }
    out.push(b'"');
}
