//! What a bytes value holds, from its first bytes: [`sniff`] names the
//! media type (used by `schema` and the statistics), [`describe`] says it
//! in a few words for shortened output (`JPEG 640x480, 102,400 bytes`),
//! with image dimensions read from the header bytes (no decoding).

use super::wire::Reader;

/// What a bytes value looks like, from its first bytes (and UTF-8 validity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Media {
    Jpeg,
    Png,
    Gif,
    Webp,
    /// Looks like a serialized `tensorflow.TensorProto` (`tf.io.serialize_tensor`):
    /// a valid DataType in field 1, then only TensorProto fields. A guess.
    TensorProto,
    /// Valid UTF-8 that parses as a JSON object or array.
    Json,
    /// Valid UTF-8 without control characters other than tab, CR, LF.
    Text,
    /// Anything else.
    Binary,
}

impl Media {
    pub const ALL: [Media; 8] = [
        Media::Jpeg,
        Media::Png,
        Media::Gif,
        Media::Webp,
        Media::TensorProto,
        Media::Json,
        Media::Text,
        Media::Binary,
    ];

    /// The schema name: `jpeg`, `png`, `gif`, `webp`, `tensor_proto`, `json`, `text`, `binary`.
    pub fn name(self) -> &'static str {
        match self {
            Media::Jpeg => "jpeg",
            Media::Png => "png",
            Media::Gif => "gif",
            Media::Webp => "webp",
            Media::TensorProto => "tensor_proto",
            Media::Json => "json",
            Media::Text => "text",
            Media::Binary => "binary",
        }
    }

    /// The MIME type, where there is one.
    pub fn mime(self) -> Option<&'static str> {
        match self {
            Media::Jpeg => Some("image/jpeg"),
            Media::Png => Some("image/png"),
            Media::Gif => Some("image/gif"),
            Media::Webp => Some("image/webp"),
            Media::Json => Some("application/json"),
            Media::Text => Some("text/plain"),
            Media::TensorProto | Media::Binary => None,
        }
    }
}

/// Sniffs the media type of a non-empty bytes value; `utf8` says whether it
/// is valid UTF-8.
pub fn sniff(v: &[u8], utf8: bool) -> Media {
    match v {
        [0xff, 0xd8, 0xff, ..] => return Media::Jpeg,
        [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, ..] => return Media::Png,
        [b'G', b'I', b'F', b'8', b'7' | b'9', b'a', ..] => return Media::Gif,
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => return Media::Webp,
        [0x08, ..] if looks_like_tensor_proto(v) => return Media::TensorProto,
        _ => {}
    }
    if !utf8 {
        return Media::Binary;
    }
    if v.iter()
        .any(|&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f)
    {
        return Media::Binary;
    }
    if looks_like_json(v) {
        return Media::Json;
    }
    Media::Text
}

/// A JSON object or array (brackets first, then a full parse).
fn looks_like_json(v: &[u8]) -> bool {
    let t = v.trim_ascii();
    matches!(
        (t.first(), t.last()),
        (Some(b'{'), Some(b'}')) | (Some(b'['), Some(b']'))
    ) && serde_json::from_slice::<serde_json::Value>(t).is_ok()
}

/// field 1 (dtype) a varint in 1..=30 (the non-reference DataTypes) first,
/// a tensor_shape (field 2, as `tf.io.serialize_tensor` always writes), and
/// every field a TensorProto field (1..=17) with its right wire type.
fn looks_like_tensor_proto(v: &[u8]) -> bool {
    let mut r = Reader::new(v);
    let (mut first, mut shape) = (true, false);
    while !r.is_empty() {
        let Ok((number, wire)) = r.tag() else { return false };
        let ok = match (number, wire) {
            (1, 0) => match r.varint() {
                Ok(dtype) => !first || (1..=30).contains(&dtype),
                Err(_) => false,
            },
            _ if first => false,
            (2, 2) => {
                shape = true;
                r.len_delimited().is_ok()
            }
            (3, 0) => r.varint().is_ok(),
            (4..=17, 2) => r.len_delimited().is_ok(),
            // Unpacked numeric values.
            (5 | 7 | 9 | 11 | 13 | 16, 5 | 0) | (6 | 10 | 12 | 17, 1 | 0) => {
                let at = r.offset();
                r.value(number, wire, at).is_ok()
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        first = false;
    }
    shape
}

/// A few words on a bytes value for shortened output: `JPEG 640x480,
/// 102,400 bytes`, `text, 5,120 bytes`, `binary, 300 bytes`.
pub fn describe(v: &[u8]) -> String {
    let size = format!("{} bytes", thousands(v.len() as u64));
    let utf8 = std::str::from_utf8(v).is_ok();
    let media = sniff(v, utf8);
    if !matches!(media, Media::Text | Media::Json) {
        if let (Ok(ty), Ok(dim)) = (imagesize::image_type(v), imagesize::blob_size(v)) {
            return format!("{} {}x{}, {size}", image_name(ty), dim.width, dim.height);
        }
    }
    match media {
        Media::TensorProto => format!("TensorProto, {size}"),
        Media::Json => format!("JSON, {size}"),
        Media::Text => format!("text, {size}"),
        m => match m.mime() {
            Some(mime) => format!("{mime}, {size}"),
            None => format!("binary, {size}"),
        },
    }
}

fn image_name(ty: imagesize::ImageType) -> &'static str {
    use imagesize::ImageType as T;
    match ty {
        T::Jpeg => "JPEG",
        T::Png => "PNG",
        T::Gif => "GIF",
        T::Webp => "WebP",
        T::Bmp => "BMP",
        T::Tiff => "TIFF",
        T::Heif(_) => "HEIF/AVIF",
        T::Jxl => "JPEG XL",
        T::Exr => "OpenEXR",
        T::Qoi => "QOI",
        T::Psd => "PSD",
        _ => "image",
    }
}

/// `102400` as `102,400`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_images_by_their_headers() {
        // A PNG header: signature, IHDR length and type, width 640, height 480.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x02\x80\0\0\x01\xe0\x08\x02\0\0\0".to_vec();
        png.resize(1234, 0);
        assert_eq!(describe(&png), "PNG 640x480, 1,234 bytes");
        let gif = b"GIF89a\x20\x00\x10\x00\x80\x00\x00";
        assert_eq!(describe(gif), "GIF 32x16, 13 bytes");
        let mut bmp = b"BM".to_vec();
        bmp.resize(14, 0);
        bmp.extend_from_slice(&40u32.to_le_bytes());
        bmp.extend_from_slice(&7i32.to_le_bytes());
        bmp.extend_from_slice(&5i32.to_le_bytes());
        bmp.resize(70, 0xff);
        assert_eq!(describe(&bmp), "BMP 7x5, 70 bytes");
        assert_eq!(describe(b"hello world"), "text, 11 bytes");
        assert_eq!(describe(b"BM is text"), "text, 10 bytes");
        assert_eq!(describe(b"{\"a\": 1}"), "JSON, 8 bytes");
        assert_eq!(describe(b"\xff\xd8\xff\xe0 cut"), "image/jpeg, 8 bytes");
        assert_eq!(describe(&[0, 1, 2, 0xff]), "binary, 4 bytes");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}
