//! What the viewer's JSON API says of a record: its features in the JSONL
//! mapping of `tfr to-jsonl` (pictures described, not inlined: their bytes
//! are at their own URL), the URLs of its pictures, its annotations and
//! their SVG overlay (see [`crate::annotate`]).

use super::source::Rec;
use super::View;
use crate::annotate;
use crate::example::filter::{features_or_context, lookup};
use crate::example::media::{describe, sniff, Media};
use crate::example::{Decoder, FeaturesView, Format, Kind, Look, Out};
use serde_json::{json, Map, Value};

/// Longest side of a segmentation mask drawn (pixels).
pub(crate) const MASK_SIDE: u32 = 1024;

/// Whether a bytes value is a picture a browser shows.
pub(crate) fn is_picture(v: &[u8]) -> bool {
    matches!(sniff(v, false), Media::Jpeg | Media::Png | Media::Gif | Media::Webp)
}

/// The content type of a value served as it is stored.
pub(crate) fn content_type(v: &[u8]) -> &'static str {
    match sniff(v, false) {
        Media::Jpeg => "image/jpeg",
        Media::Png => "image/png",
        Media::Gif => "image/gif",
        Media::Webp => "image/webp",
        _ => "application/octet-stream",
    }
}

/// A feature name as one URL path segment: every byte but the unreserved
/// ones (`A-Z a-z 0-9 - . _ ~`) percent-encoded, `/` included.
pub(crate) fn segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The URL of a stored value (`image`) or of a mask drawn from one (`mask`).
pub(crate) fn value_url(kind: &str, n: u64, feature: &str, i: usize) -> String {
    format!("/api/{kind}/{n}/{}/{i}", segment(feature))
}

/// A record as the API gives it.
pub(crate) fn record(view: &View, rec: &Rec) -> Value {
    let mut decoder = Decoder::default();
    let mut out = Map::new();
    out.insert("n".into(), json!(rec.n));
    out.insert("file".into(), json!(view.sources[rec.input].name));
    out.insert("record".into(), json!(rec.record));
    out.insert("type".into(), json!(rec.ty.0.name()));
    match features_json(&mut decoder, rec) {
        Ok(v) => {
            out.insert("features".into(), v);
        }
        Err(e) => {
            out.insert("features".into(), Value::Null);
            out.insert("error".into(), json!(e));
            return Value::Object(out);
        }
    }
    let (images, annotations, overlay, caption) =
        match features_or_context(&mut decoder, rec.ty.0, rec.ty.1, &rec.payload) {
            Some(Ok(Some(features))) => pictures(view, rec, &features),
            _ => (Map::new(), Value::Null, Map::new(), Value::Null),
        };
    out.insert("images".into(), Value::Object(images));
    out.insert("annotations".into(), annotations);
    out.insert("overlay".into(), Value::Object(overlay));
    out.insert("caption".into(), caption);
    Value::Object(out)
}

/// The record in the JSONL mapping, pictures described
/// (`{"image": "JPEG 640x480, 10,240 bytes"}`).
fn features_json(decoder: &mut Decoder, rec: &Rec) -> Result<Value, String> {
    let hook = |v: &[u8], out: &mut Vec<u8>| -> bool {
        if !is_picture(v) {
            return false;
        }
        out.extend_from_slice(json!({ "image": describe(v) }).to_string().as_bytes());
        true
    };
    let look = Look {
        bytes: Some(&hook),
        ..Look::default()
    };
    let mut buf = Vec::new();
    crate::example::render_out(
        decoder,
        Format::Json,
        &look,
        rec.ty.0,
        rec.ty.1,
        &rec.payload,
        &mut Out::new(&mut buf),
    )
    .map_err(|e| format!("record {}: {e}", rec.record))?;
    serde_json::from_slice(buf.trim_ascii_end()).map_err(|e| format!("record {}: {e}", rec.record))
}

type Pictures = (Map<String, Value>, Value, Map<String, Value>, Value);

/// The URLs of a record's pictures, its annotations, their overlay (by
/// the picture's feature) and its class caption.
fn pictures(view: &View, rec: &Rec, features: &FeaturesView<'_>) -> Pictures {
    let mut images = Map::new();
    for (name, f) in features.sorted() {
        if f.kind() != Kind::Bytes {
            continue;
        }
        let urls: Vec<Value> = f
            .bytes()
            .enumerate()
            .filter(|(_, v)| is_picture(v))
            .map(|(i, _)| json!(value_url("image", rec.n, name, i)))
            .collect();
        if !urls.is_empty() {
            images.insert(name.to_string(), Value::Array(urls));
        }
    }
    let opts = &view.opts.annotate;
    let Some(a) = annotate::read(features, opts) else {
        return (images, Value::Null, Map::new(), Value::Null);
    };
    let mut overlay = Map::new();
    if let Some(image) = &a.image {
        let first = lookup(Some(*features), image).and_then(|f| f.bytes().next());
        let size = first
            .and_then(|v| imagesize::blob_size(v).ok())
            .map(|s| (s.width as u32, s.height as u32))
            .or_else(|| {
                a.size
                    .map(|(w, h)| (w.clamp(1, u32::MAX as i64) as u32, h.clamp(1, u32::MAX as i64) as u32))
            })
            .unwrap_or((1000, 1000));
        let mask = a.mask.as_ref().map(|m| value_url("mask", rec.n, m, 0));
        let svg = crate::report::overlay::overlay(&a, opts, size, mask.as_deref());
        overlay.insert(image.clone(), json!(svg));
    }
    let caption = a.class.as_ref().map_or(Value::Null, |c| {
        json!({
            "text": c.to_string(),
            "colour": crate::report::overlay::colour(Some(c)),
            "highlight": opts.highlights(c),
        })
    });
    (images, a.to_json(), overlay, caption)
}

/// Value `i` of bytes feature `feature` of a record, as stored.
pub(crate) fn value(rec: &Rec, feature: &str, i: usize) -> Option<Vec<u8>> {
    let mut decoder = Decoder::default();
    let features = features_or_context(&mut decoder, rec.ty.0, rec.ty.1, &rec.payload)?.ok()??;
    let f = lookup(Some(features), feature)?;
    if f.kind() != Kind::Bytes {
        return None;
    }
    f.bytes().nth(i).map(<[u8]>::to_vec)
}

/// A segmentation mask (a PNG of class ids) coloured as the overlays
/// draw it: PNG bytes, or why it cannot be drawn.
pub(crate) fn mask_png(png: &[u8]) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    let url = crate::report::overlay::mask_overlay(png, MASK_SIDE, None)?;
    let b64 = url.strip_prefix("data:image/png;base64,").ok_or("not a PNG data URL")?;
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_one_segment() {
        assert_eq!(segment("image/encoded"), "image%2Fencoded");
        assert_eq!(segment("a b%c"), "a%20b%25c");
        assert_eq!(segment("é"), "%C3%A9");
        assert_eq!(segment("A-z_0.~"), "A-z_0.~");
        assert_eq!(
            value_url("image", 7, "image/encoded", 2),
            "/api/image/7/image%2Fencoded/2"
        );
    }
}
