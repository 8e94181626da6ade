//! What a bytes value holds, from its first bytes: [`sniff`] names the
//! media type (used by `schema` and the statistics), [`describe`] says it
//! in a few words for shortened output (`JPEG 640x480, 102,400 bytes`),
//! with image dimensions read from the header bytes (no decoding).

use super::wire::Reader;

/// What a bytes value looks like, from its first bytes (and UTF-8 validity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Media {
    /// A JPEG image (`FF D8 FF`).
    Jpeg,
    /// A PNG image.
    Png,
    /// A GIF image.
    Gif,
    /// A WebP image (`RIFF…WEBP`).
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
    /// Every kind, in the order tables list them.
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
        if let Some((name, width, height)) = image_size(v) {
            return format!("{name} {width}x{height}, {size}");
        }
    }
    match media {
        Media::Jpeg => format!("JPEG, {size}"),
        Media::Png => format!("PNG, {size}"),
        Media::Gif => format!("GIF, {size}"),
        Media::Webp => format!("WebP, {size}"),
        Media::TensorProto => format!("TensorProto, {size}"),
        Media::Json => format!("JSON, {size}"),
        Media::Text => format!("text, {size}"),
        Media::Binary => format!("binary, {size}"),
    }
}

/// An image's type and dimensions from its header, only where the header
/// the dimensions come from is really there (a PNG's IHDR chunk, a WebP's
/// VP8/VP8L/VP8X chunk with its signature, a BMP's info header of a known
/// size) and they are not zero: random bytes after a magic number are not
/// given made-up dimensions.
fn image_size(v: &[u8]) -> Option<(&'static str, u64, u64)> {
    use imagesize::ImageType as T;
    let ty = imagesize::image_type(v).ok()?;
    let plausible = match ty {
        T::Png => v.get(12..16) == Some(b"IHDR"),
        T::Webp => match v.get(12..16)? {
            b"VP8 " => v.get(23..26) == Some(&[0x9d, 0x01, 0x2a]),
            b"VP8L" => v.get(20) == Some(&0x2f),
            b"VP8X" => true,
            _ => false,
        },
        T::Bmp => return bmp_size(v),
        // The bare codestream's 2-byte magic (FF 0A) is too weak a sign:
        // only the container's 12-byte signature counts.
        T::Jxl => v.starts_with(b"\0\0\0\x0cJXL \r\n\x87\n"),
        _ => true,
    };
    let dim = imagesize::blob_size(v).ok().filter(|_| plausible)?;
    (dim.width > 0 && dim.height > 0).then(|| (image_name(ty), dim.width as u64, dim.height as u64))
}

/// A BMP's dimensions: the OS/2 core header (12 bytes, 16-bit sizes) or a
/// Windows info header (32-bit sizes; a negative height is a top-down
/// bitmap).
fn bmp_size(v: &[u8]) -> Option<(&'static str, u64, u64)> {
    let u16_at = |i: usize| Some(i64::from(u16::from_le_bytes(v.get(i..i + 2)?.try_into().ok()?)));
    let i32_at = |i: usize| Some(i64::from(i32::from_le_bytes(v.get(i..i + 4)?.try_into().ok()?)));
    let (width, height) = match u32::from_le_bytes(v.get(14..18)?.try_into().ok()?) {
        12 => (u16_at(18)?, u16_at(20)?),
        40 | 52 | 56 | 64 | 108 | 124 => (i32_at(18)?, i32_at(22)?),
        _ => return None,
    };
    (width > 0 && height != 0).then(|| ("BMP", width as u64, height.unsigned_abs()))
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

/// The file extension of a media file, from its first bytes (magic
/// numbers; never from UTF-8 text): images `jpg`, `png`, `gif`, `webp`,
/// `bmp` (with a known info header size), `tif`, `jxl`, `avif`, `heic`;
/// audio `wav`, `flac`, `mp3` (an ID3 tag or an MPEG audio frame header),
/// `ogg`, `m4a`; video `mp4`, `mov`, `avi`, `webm`, `mkv`; documents `pdf`;
/// NumPy's `npy`. `None` for anything else (text, JSON, protobuf, other
/// binary). Used by `to-wds` (which values become members) and `extract`
/// (file names).
pub fn extension(v: &[u8]) -> Option<&'static str> {
    let at = |i: usize, magic: &[u8]| v.get(i..i + magic.len()) == Some(magic);
    let ext = match v {
        [0xff, 0xd8, 0xff, ..] => "jpg",
        [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, ..] => "png",
        [b'G', b'I', b'F', b'8', b'7' | b'9', b'a', ..] => "gif",
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => "webp",
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'A', b'V', b'E', ..] => "wav",
        [b'R', b'I', b'F', b'F', _, _, _, _, b'A', b'V', b'I', b' ', ..] => "avi",
        [b'B', b'M', ..] if bmp_size(v).is_some() => "bmp",
        [b'I', b'I', 0x2a, 0x00, ..] | [b'M', b'M', 0x00, 0x2a, ..] => "tif",
        _ if v.starts_with(b"\0\0\0\x0cJXL \r\n\x87\n") => "jxl",
        [b'f', b'L', b'a', b'C', ..] => "flac",
        [b'I', b'D', b'3', 2..=4, ..] => "mp3",
        [0xff, 0xfb | 0xfa | 0xf3 | 0xf2 | 0xe3, ..] => "mp3",
        [b'O', b'g', b'g', b'S', 0, ..] => "ogg",
        [b'%', b'P', b'D', b'F', b'-', ..] => "pdf",
        [0x93, b'N', b'U', b'M', b'P', b'Y', ..] => "npy",
        [0x1a, 0x45, 0xdf, 0xa3, ..] => {
            let head = &v[..v.len().min(64)];
            match head.windows(4).any(|w| w == b"webm") {
                true => "webm",
                false => "mkv",
            }
        }
        _ if at(4, b"ftyp") => match v.get(8..12).unwrap_or_default() {
            b"qt  " => "mov",
            b"M4A " | b"M4B " => "m4a",
            b"avif" | b"avis" => "avif",
            b"heic" | b"heix" | b"mif1" | b"msf1" | b"hevc" => "heic",
            _ => "mp4",
        },
        _ => return None,
    };
    Some(ext)
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
    fn extensions_come_from_magic_numbers() {
        let cases: [(&[u8], Option<&str>); 14] = [
            (b"\xff\xd8\xff\xe0\0\x10JFIF", Some("jpg")),
            (b"\x89PNG\r\n\x1a\n\0\0", Some("png")),
            (b"GIF89a\x01\0", Some("gif")),
            (b"RIFF\x24\0\0\0WAVEfmt ", Some("wav")),
            (b"RIFF\x24\0\0\0WEBPVP8 ", Some("webp")),
            (b"fLaC\0\0\0\x22", Some("flac")),
            (b"ID3\x04\0\0", Some("mp3")),
            (b"OggS\0\x02", Some("ogg")),
            (b"\0\0\0\x20ftypisom\0\0\x02\0", Some("mp4")),
            (b"\0\0\0\x14ftypqt  ", Some("mov")),
            (b"%PDF-1.7\n", Some("pdf")),
            (b"\x93NUMPY\x01\0", Some("npy")),
            // Text that starts like a magic number is not media.
            (b"BM is text", None),
            (b"{\"a\": 1}", None),
        ];
        for (bytes, want) in cases {
            assert_eq!(extension(bytes), want, "{bytes:?}");
        }
        assert_eq!(extension(b""), None);
        assert_eq!(extension(b"ftyp"), None);
    }

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
        assert_eq!(describe(b"\xff\xd8\xff\xe0 cut"), "JPEG, 8 bytes");
        // Top-down BMP (negative height), OS/2 BMP, and headers that are
        // not there.
        let mut top_down = bmp.clone();
        top_down[22..26].copy_from_slice(&(-5i32).to_le_bytes());
        assert_eq!(describe(&top_down), "BMP 7x5, 70 bytes");
        let mut os2 = b"BM".to_vec();
        os2.resize(14, 0);
        os2.extend_from_slice(&12u32.to_le_bytes());
        os2.extend_from_slice(&[7, 0, 5, 0, 1, 0, 24, 0]);
        assert_eq!(describe(&os2), "BMP 7x5, 26 bytes");
        let mut no_ihdr = b"\x89PNG\r\n\x1a\n".to_vec();
        no_ihdr.resize(108, 0xff);
        assert_eq!(describe(&no_ihdr), "PNG, 108 bytes");
        let mut webp = b"RIFF\0\0\0\0WEBPJUNK".to_vec();
        webp.resize(64, 0xff);
        assert_eq!(describe(&webp), "WebP, 64 bytes");
        let mut bogus_bmp = b"BM".to_vec();
        bogus_bmp.resize(64, 0xff);
        assert_eq!(describe(&bogus_bmp), "binary, 64 bytes");
        assert_eq!(describe(&[0, 1, 2, 0xff]), "binary, 4 bytes");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}
