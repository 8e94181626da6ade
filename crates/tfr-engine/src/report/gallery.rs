//! The records gallery: one card per record, image features as thumbnails
//! (decoded and downscaled with the `image` crate as the records stream
//! past; only the cards are kept), the other features as short values.

use super::escape;
use crate::example::media::{describe, sniff, Media};
use crate::example::{elwc, Decoder, ExampleView, FeatureView, FeaturesView, Kind, MessageType};
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use std::fmt::Write as _;
use std::io::Cursor;

/// Longest side of a thumbnail, in pixels.
pub const THUMB: u32 = 160;
/// Images larger than this (either side) are not decoded.
const MAX_SIDE: u32 = 16_384;
/// Memory an image decoder may use: the pixels of [`MAX_PIXELS`] at four
/// bytes each, and some room for the decoder's own state.
const MAX_ALLOC: u64 = 40 << 20;
/// Pixels of one image decoded at most (a 633-byte JPEG can announce
/// 9000x9000, a GIF a 1x1 screen and a 6000x6000 frame: the header, and a
/// GIF's first frame, are read first).
const MAX_PIXELS: u64 = 8_000_000;
/// Pixels decoded for one page at most, shared out evenly between its
/// cards (then images are described, not drawn): bounds the time a page of
/// hostile images takes, and each card's share does not depend on the
/// order in which the workers reach the cards (the page is the same for
/// any `-j`).
pub const PAGE_PIXELS: u64 = 500_000_000;
/// Time spent decoding for one page at most (then images are described).
const PAGE_DECODE_TIME: std::time::Duration = std::time::Duration::from_secs(20);
/// Values of a list shown on a card.
const LIST_SHOWN: usize = 6;
/// Characters of a text value shown on a card.
const TEXT_SHOWN: usize = 48;

/// Which features are pictures.
#[derive(Debug, Default)]
pub struct Images {
    /// Features forced to be images (`--image-feature`); others are
    /// pictures when their bytes are JPEG, PNG, GIF or WebP.
    pub forced: Vec<String>,
    /// Class names of int features (a TFDS folder's ClassLabels), shown
    /// after each value: `2 (bird)`.
    pub classes: Option<std::collections::HashMap<String, Vec<String>>>,
    /// Where annotations are and how they are drawn over the pictures.
    pub annotate: crate::annotate::Options,
    /// Pixels one card may decode (its share of [`PAGE_PIXELS`]).
    per_card: u64,
    /// Microseconds spent decoding so far (see [`PAGE_DECODE_TIME`]).
    spent_us: std::sync::atomic::AtomicU64,
}

impl Images {
    /// Images of the features `forced` and the recognised ones, for a page
    /// of `cards` cards: each may decode `PAGE_PIXELS / cards` pixels, and
    /// at least one image of the largest size drawn ([`MAX_PIXELS`]), so a
    /// page of many cards still shows one picture on each (its time is
    /// then bounded by [`PAGE_DECODE_TIME`]).
    pub fn new(forced: Vec<String>, cards: u64) -> Self {
        Images {
            forced,
            classes: None,
            annotate: crate::annotate::Options::default(),
            per_card: (PAGE_PIXELS / cards.max(1)).max(MAX_PIXELS),
            spent_us: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Whether the page's decoding time is spent.
    fn out_of_time(&self) -> bool {
        self.spent_us.load(std::sync::atomic::Ordering::Relaxed) >= PAGE_DECODE_TIME.as_micros() as u64
    }
}

/// A thumbnail of an encoded image as a `data:` URL, with the image's own
/// size; `Err` says why it could not be decoded. `left`: the pixels the
/// card may still decode.
pub fn thumbnail(bytes: &[u8], images: &Images, left: &mut u64) -> Result<(String, u32, u32), String> {
    if images.out_of_time() {
        return Err(format!(
            "the page's decoding time ({} s) is spent",
            PAGE_DECODE_TIME.as_secs()
        ));
    }
    // The size its header announces (for a GIF, also its first frame's),
    // before any decoding.
    let announced = imagesize::blob_size(bytes).ok().map(|size| {
        let (w, h) = (size.width as u64, size.height as u64);
        match gif_first_frame(bytes) {
            Some((fw, fh)) => (w.max(fw), h.max(fh)),
            None => (w, h),
        }
    });
    if let Some((w, h)) = announced {
        let pixels = w * h;
        if pixels > MAX_PIXELS {
            return Err(format!("{w}x{h} is over {} megapixels", MAX_PIXELS / 1_000_000));
        }
        match left.checked_sub(pixels) {
            Some(rest) => *left = rest,
            None => {
                return Err(format!(
                    "the card's share of the page's decoding budget ({:.1} megapixels) is spent",
                    images.per_card as f64 / 1e6
                ))
            }
        }
    }
    let (made, took_us) = decode_on_one_thread(bytes);
    images.spent_us.fetch_add(took_us, std::sync::atomic::Ordering::Relaxed);
    made
}

/// The end (left + width, top + height) of a GIF's first frame, which may
/// lie outside the logical screen its header announces; `None` when the
/// bytes are not a GIF or hold no frame.
fn gif_first_frame(b: &[u8]) -> Option<(u64, u64)> {
    if !(b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a")) || b.len() < 13 {
        return None;
    }
    let le = |i: usize| -> Option<u64> { Some(u16::from_le_bytes([*b.get(i)?, *b.get(i + 1)?]) as u64) };
    let mut at = 13;
    if b[10] & 0x80 != 0 {
        at += 3 << ((b[10] & 7) + 1);
    }
    loop {
        match *b.get(at)? {
            // An image descriptor: left, top, width, height.
            0x2c => return Some((le(at + 1)? + le(at + 5)?, le(at + 3)? + le(at + 7)?)),
            // An extension: its label, then sub-blocks up to an empty one.
            0x21 => {
                at += 2;
                loop {
                    let len = *b.get(at)? as usize;
                    at += 1 + len;
                    if len == 0 {
                        break;
                    }
                }
            }
            _ => return None,
        }
    }
}

/// An image to decode, and where its thumbnail goes.
type DecodeJob = (Vec<u8>, std::sync::mpsc::SyncSender<(Thumbnail, u64)>);
/// A thumbnail (`data:` URL, width, height) or why there is none.
type Thumbnail = Result<(String, u32, u32), String>;

/// [`decode_small`] on the one thread that decodes every image of the
/// process, one at a time. Each thread that frees a large buffer keeps it
/// in its own allocator arena: decoded on every worker, a page of large
/// images held a 32 MB buffer per worker (over 700 MB at `-j 16`); on one
/// thread, memory is that of one image whatever `-j` is. Also returns the
/// microseconds the decoding took (not counting the wait for the thread).
fn decode_on_one_thread(bytes: &[u8]) -> (Thumbnail, u64) {
    use std::sync::mpsc::sync_channel;
    static DECODER: std::sync::OnceLock<Option<std::sync::mpsc::SyncSender<DecodeJob>>> = std::sync::OnceLock::new();
    let decoder = DECODER.get_or_init(|| {
        let (tx, rx) = sync_channel::<DecodeJob>(0);
        std::thread::Builder::new()
            .name("tfr-images".into())
            .spawn(move || {
                for (bytes, reply) in rx {
                    let start = std::time::Instant::now();
                    let made = decode_small(&bytes);
                    let _ = reply.send((made, start.elapsed().as_micros() as u64));
                }
            })
            .ok()
            .map(|_| tx)
    });
    let stopped = || (Err("the image decoder stopped".to_string()), 0);
    let Some(decoder) = decoder else {
        return stopped();
    };
    let (reply, answer) = sync_channel(1);
    if decoder.send((bytes.to_vec(), reply)).is_err() {
        return stopped();
    }
    answer.recv().unwrap_or_else(|_| stopped())
}

/// Decodes an image (within [`MAX_ALLOC`] and [`MAX_SIDE`]) and encodes
/// its thumbnail.
fn decode_small(bytes: &[u8]) -> Result<(String, u32, u32), String> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let img = reader.decode().map_err(|e| e.to_string())?;
    let (w, h) = (img.width(), img.height());
    let small = if w > THUMB || h > THUMB {
        img.thumbnail(THUMB, THUMB)
    } else {
        img
    };
    let mut out = Vec::new();
    let (mime, result) = if small.color().has_alpha() {
        (
            "image/png",
            small.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png),
        )
    } else {
        let rgb = image::DynamicImage::ImageRgb8(small.to_rgb8());
        let mut enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 82);
        ("image/jpeg", enc.encode_image(&rgb))
    };
    result.map_err(|e| e.to_string())?;
    Ok((format!("data:{mime};base64,{}", B64.encode(&out)), w, h))
}

fn is_picture(v: &[u8]) -> bool {
    matches!(sniff(v, false), Media::Jpeg | Media::Png | Media::Gif | Media::Webp)
}

/// The short form of a feature's values.
fn short_values(f: &FeatureView<'_>, classes: Option<&Vec<String>>) -> String {
    let mut s = String::new();
    let mut n = 0usize;
    let push = |s: &mut String, n: &mut usize, v: String| {
        if *n < LIST_SHOWN {
            if *n > 0 {
                s.push_str(", ");
            }
            s.push_str(&v);
        }
        *n += 1;
    };
    match f.kind() {
        Kind::Int64 => f.int64s().for_each(|v| {
            let class = classes.and_then(|c| c.get(usize::try_from(v).ok()?));
            let shown = match class {
                Some(c) => format!("{v} ({c})"),
                None => v.to_string(),
            };
            push(&mut s, &mut n, shown)
        }),
        Kind::Float => f.floats().for_each(|v| push(&mut s, &mut n, format!("{v}"))),
        Kind::Bytes => f.bytes().for_each(|v| {
            let shown = match std::str::from_utf8(v) {
                Ok(t) if t.chars().count() <= TEXT_SHOWN => format!("{t:?}"),
                Ok(t) => format!("{:?}…", t.chars().take(TEXT_SHOWN).collect::<String>()),
                Err(_) => describe(v),
            };
            push(&mut s, &mut n, shown)
        }),
        Kind::None => return "(no kind)".into(),
    }
    if n > LIST_SHOWN {
        let _ = write!(s, " … {} more", n - LIST_SHOWN);
    }
    if n == 0 {
        s.push_str("[]");
    }
    s
}

/// The pictures and the other features of a features map, as HTML; the
/// picture the annotations belong to with them drawn over it.
fn features_html(out: &mut String, features: &FeaturesView<'_>, images: &Images, left: &mut u64) {
    let ann = crate::annotate::read(features, &images.annotate);
    let mut pictures = String::new();
    let mut fields = String::new();
    for (name, f) in features.sorted() {
        let forced = images.forced.iter().any(|n| n == name);
        let pics: Vec<&[u8]> = if f.kind() == Kind::Bytes {
            f.bytes().filter(|v| forced || is_picture(v)).collect()
        } else {
            Vec::new()
        };
        if pics.is_empty() {
            let _ = write!(
                fields,
                "<dt>{}</dt><dd>{}</dd>",
                escape(name),
                escape(&short_values(&f, images.classes.as_ref().and_then(|c| c.get(name))))
            );
            continue;
        }
        let annotated = ann.as_ref().filter(|a| a.image.as_deref() == Some(name));
        for (i, v) in pics.iter().take(LIST_SHOWN).enumerate() {
            match thumbnail(v, images, left) {
                Ok((url, w, h)) => {
                    let over = annotated
                        .filter(|_| i == 0)
                        .map(|a| overlay(a, features, images, (w, h)));
                    let (overlay_svg, more) = over.unwrap_or_default();
                    // An annotated picture is shown at the thumbnail's
                    // size even when smaller, so its boxes can be read.
                    let (cls, size) = if overlay_svg.is_empty() {
                        ("", String::new())
                    } else {
                        let (sw, sh) = shown_size(w, h);
                        (
                            r#" class="annotated""#,
                            format!(r#" style="width:{sw}px;height:{sh}px""#),
                        )
                    };
                    let _ = write!(
                        pictures,
                        r#"<figure{cls}><div class="frame"><img src="{url}"{size} alt="{name}" title="{name}: {what}">{overlay_svg}</div><figcaption>{name} · {w}×{h}{more}</figcaption></figure>"#,
                        name = escape(name),
                        what = escape(&describe(v)),
                    );
                }
                Err(e) => {
                    let _ = write!(
                        pictures,
                        r#"<figure class="broken"><div>{}</div><figcaption>{}: not decoded ({})</figcaption></figure>"#,
                        escape(&describe(v)),
                        escape(name),
                        escape(&e)
                    );
                }
            }
        }
    }
    if !pictures.is_empty() {
        let _ = write!(out, r#"<div class="pics">{pictures}</div>"#);
    }
    if let Some(a) = &ann {
        for p in &a.problems {
            let _ = write!(
                out,
                r#"<p class="problem" title="{}">⚠ {}</p>"#,
                p.kind.name(),
                escape(&p.detail)
            );
        }
    }
    if !fields.is_empty() {
        let _ = write!(out, "<dl>{fields}</dl>");
    }
}

/// The size an annotated `w` × `h` picture is shown at: its longer side
/// [`THUMB`] pixels.
fn shown_size(w: u32, h: u32) -> (u32, u32) {
    let scale = THUMB as f64 / w.max(h).max(1) as f64;
    (
        ((w as f64 * scale).round() as u32).max(1),
        ((h as f64 * scale).round() as u32).max(1),
    )
}

/// The annotations drawn over a `w` × `h` picture shown as a thumbnail:
/// the SVG, and what the caption adds (the number of boxes, the class).
fn overlay(
    a: &crate::annotate::Annotations,
    features: &FeaturesView<'_>,
    images: &Images,
    (w, h): (u32, u32),
) -> (String, String) {
    use super::overlay as svg;
    let shown = shown_size(w, h);
    let mask = a.mask.as_deref().and_then(|m| {
        let (_, f) = features.sorted().into_iter().find(|(n, _)| *n == m)?;
        let png = f.bytes().next()?;
        Some(svg::mask_overlay(png, THUMB, Some((w, h))))
    });
    let mut more = String::new();
    let mask = match mask {
        Some(Err(why)) => {
            let _ = write!(
                more,
                r#" · <span class="problem">{} not drawn: {}</span>"#,
                escape(a.mask.as_deref().unwrap_or("mask")),
                escape(&why)
            );
            None
        }
        Some(Ok(url)) => Some(url),
        None => None,
    };
    if let Some(c) = svg::boxes_caption(a) {
        let _ = write!(more, " · {c}");
    }
    if let Some(c) = svg::class_caption(a, &images.annotate) {
        let _ = write!(more, " · {c}");
    }
    if a.boxes.is_empty() && a.keypoints.is_empty() && mask.is_none() {
        return (String::new(), more);
    }
    (svg::overlay(a, &images.annotate, shown, mask.as_deref()), more)
}

/// Appends the card of one record (`name`: its input, `index`: its
/// number there).
pub fn card(
    decoder: &mut Decoder,
    ty: MessageType,
    strict: bool,
    payload: &[u8],
    (name, index): (&str, u64),
    images: &Images,
    out: &mut Vec<u8>,
) -> Result<(), crate::example::DecodeError> {
    let mut html = String::new();
    let mut card_pixels = images.per_card;
    let left = &mut card_pixels;
    let _ = write!(
        html,
        r#"<article class="card"><header>{} <b>#{index}</b></header>"#,
        super::breakable(name)
    );
    match ty {
        MessageType::SequenceExample => {
            let se = decoder.sequence_example(payload, strict)?;
            if let Some(c) = se.context() {
                features_html(&mut html, &c, images, left);
            }
            if let Some(lists) = se.feature_lists() {
                let mut fields = String::new();
                for (list_name, list) in lists.sorted() {
                    let first = list
                        .features()
                        .next()
                        .map(|f| short_values(&f, None))
                        .unwrap_or_default();
                    let _ = write!(
                        fields,
                        "<dt>{}</dt><dd>{} steps; first: {}</dd>",
                        escape(list_name),
                        list.len(),
                        escape(&first)
                    );
                }
                if !fields.is_empty() {
                    let _ = write!(html, r#"<dl class="lists">{fields}</dl>"#);
                }
            }
        }
        MessageType::Elwc => {
            let parts = elwc::checked(decoder, payload, strict)?;
            let mut context = String::new();
            elwc::with_context(decoder, payload, &parts, |view: &ExampleView<'_>| {
                if let Some(f) = view.features() {
                    features_html(&mut context, &f, images, left);
                }
            });
            let mut examples = String::new();
            let mut count = 0usize;
            elwc::each_example(decoder, payload, &parts, |view: &ExampleView<'_>| {
                count += 1;
                if count == 1 {
                    if let Some(f) = view.features() {
                        features_html(&mut examples, &f, images, left);
                    }
                }
            });
            let _ = write!(
                html,
                r#"{context}<p class="sub">{count} examples; the first:</p>{examples}"#
            );
        }
        _ => {
            let ex = decoder.example(payload, strict)?;
            if let Some(f) = ex.features() {
                features_html(&mut html, &f, images, left);
            }
        }
    }
    html.push_str("</article>\n");
    out.extend_from_slice(html.as_bytes());
    Ok(())
}
