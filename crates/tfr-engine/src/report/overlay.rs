//! Annotations drawn in SVG over a picture, never into it: each box a
//! `<rect>` with a `<title>` naming its class (a tooltip, and what tests
//! and screen readers find), keypoints as circles, a segmentation mask as
//! a coloured, half-transparent `<image>`. The SVG's coordinates are the
//! picture's pixels (`width` × `height`), laid over the `<img>` by CSS.

use super::escape;
use crate::annotate::{Annotations, Class, Options};
use std::fmt::Write as _;

/// Colours of classes (a class keeps its colour on every page).
const PALETTE: [&str; 12] = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45", "#fabed4",
    "#469990", "#dcbeff",
];

/// The colour of a class (by its text).
pub fn colour(class: Option<&Class>) -> &'static str {
    let Some(c) = class else { return "#ffffff" };
    let key = c.name.clone().unwrap_or_else(|| c.to_string());
    // FNV-1a: the same on every run and platform.
    let mut h: u32 = 0x811c_9dc5;
    for b in key.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    PALETTE[h as usize % PALETTE.len()]
}

/// The style sheet the overlays need (`.frame` holds the `<img>` and the
/// `<svg class="ov">`).
pub const CSS: &str = ".frame{position:relative;display:inline-block;line-height:0}\
.frame>svg.ov{position:absolute;left:0;top:0;width:100%;height:100%;overflow:hidden;pointer-events:none}\
.frame>img{max-width:none;max-height:none}svg.ov image{image-rendering:pixelated}\
svg.ov rect{fill:none;stroke-width:2px;vector-effect:non-scaling-stroke;pointer-events:all}\
svg.ov rect.broken{stroke-dasharray:4 2}\
svg.ov g.hl rect{stroke-width:4px}\
svg.ov g.dim{opacity:.35}\
svg.ov text{font:bold 11px sans-serif;paint-order:stroke;stroke:#000;stroke-width:3px}\
svg.ov circle{stroke:#000;stroke-width:1px;vector-effect:non-scaling-stroke}\
.cls{font-weight:bold;padding-left:3px}.cls.hl{background:#ff0;color:#000}\
.problem{color:#b3261e;font-size:11px;margin:2px 0}";

/// The SVG of a record's annotations over a `width` × `height` picture
/// (`mask`: a `data:` URL of the coloured mask, see [`mask_overlay`]).
pub fn overlay(a: &Annotations, opts: &Options, (width, height): (u32, u32), mask: Option<&str>) -> String {
    let (w, h) = (width.max(1) as f64, height.max(1) as f64);
    let mut s = format!(r#"<svg class="ov" viewBox="0 0 {width} {height}" preserveAspectRatio="none">"#);
    if let Some(url) = mask {
        let _ = write!(
            s,
            r#"<image class="mask" href="{}" x="0" y="0" width="{width}" height="{height}" preserveAspectRatio="none" opacity="0.5"/>"#,
            escape(url)
        );
    }
    let any_highlighted = !opts.highlight.is_empty();
    for (i, b) in a.boxes.iter().enumerate().take(MAX_BOXES) {
        let hl = b.class.as_ref().is_some_and(|c| opts.highlights(c));
        let group = match (any_highlighted, hl) {
            (true, true) => "box hl",
            (true, false) => "box dim",
            _ => "box",
        };
        // A broken box is drawn between its smaller and larger corners,
        // dashed; its title says what is wrong.
        let broken = b.outside()
            || b.xmin.partial_cmp(&b.xmax) != Some(std::cmp::Ordering::Less)
            || b.ymin.partial_cmp(&b.ymax) != Some(std::cmp::Ordering::Less);
        let ((x0, x1), (y0, y1)) = (drawn(b.xmin, b.xmax), drawn(b.ymin, b.ymax));
        let (x, y) = (x0 * w, y0 * h);
        let (bw, bh) = ((x1 - x0) * w, (y1 - y0) * h);
        let class_text = b
            .class
            .as_ref()
            .map_or_else(|| format!("box {i}"), |c| short(&c.to_string()));
        let title = if broken {
            format!("{class_text} (broken box)")
        } else {
            class_text.clone()
        };
        let label = b
            .class
            .as_ref()
            .map(|c| short(&c.name.clone().unwrap_or_else(|| c.to_string())));
        let _ = write!(
            s,
            r#"<g class="{group}"><rect{cls} x="{x:.2}" y="{y:.2}" width="{bw:.2}" height="{bh:.2}" stroke="{c}"><title>{t}</title></rect>"#,
            cls = if broken { r#" class="broken""# } else { "" },
            c = colour(b.class.as_ref()),
            t = escape(&title),
        );
        if let Some(label) = label {
            let ty = if y > 12.0 { y - 3.0 } else { y + 11.0 };
            let _ = write!(
                s,
                r#"<text x="{:.2}" y="{ty:.2}" fill="{}">{}</text>"#,
                x + 2.0,
                colour(b.class.as_ref()),
                escape(&label)
            );
        }
        s.push_str("</g>");
    }
    for (i, (x, y)) in a.keypoints.iter().enumerate().take(MAX_KEYPOINTS) {
        let _ = write!(
            s,
            r##"<circle class="kp" cx="{:.2}" cy="{:.2}" r="{:.1}" fill="#00ff7f"><title>keypoint {i}</title></circle>"##,
            x * w,
            y * h,
            (w.min(h) / 60.0).max(2.0)
        );
    }
    s.push_str("</svg>");
    s
}

/// Boxes drawn over one picture at most (the caption says how many there
/// are): a record of a million boxes stays a page a browser opens.
pub const MAX_BOXES: usize = 500;
/// Keypoints drawn over one picture at most.
pub const MAX_KEYPOINTS: usize = 2_000;
/// Characters of a class name drawn (then `…`).
const NAME_SHOWN: usize = 48;

/// A class name cut to [`NAME_SHOWN`] characters.
fn short(name: &str) -> String {
    match name.char_indices().nth(NAME_SHOWN) {
        Some((at, _)) => format!("{}…", &name[..at]),
        None => name.to_string(),
    }
}

/// A box's edges as drawn: the smaller and the larger, a NaN at the
/// picture's edge, all within a picture's size of it (so the SVG stays
/// valid and small).
fn drawn(a: f64, b: f64) -> (f64, f64) {
    let at_edge = |v: f64, nan: f64| if v.is_nan() { nan } else { v.clamp(-1.0, 2.0) };
    let (a, b) = (at_edge(a, 0.0), at_edge(b, 1.0));
    (a.min(b), a.max(b))
}

/// The caption of an annotated picture: how many boxes (and how many of
/// them drawn, past [`MAX_BOXES`]).
pub fn boxes_caption(a: &Annotations) -> Option<String> {
    a.boxes_from.as_ref()?;
    let n = a.boxes.len();
    let plural = if n == 1 { "" } else { "es" };
    Some(if n > MAX_BOXES {
        format!("{n} box{plural} ({MAX_BOXES} drawn)")
    } else {
        format!("{n} box{plural}")
    })
}

/// The classification caption (`cat (2)`), marked when highlighted.
pub fn class_caption(a: &Annotations, opts: &Options) -> Option<String> {
    let c = a.class.as_ref()?;
    let hl = if opts.highlights(c) { " hl" } else { "" };
    Some(format!(
        r#"<span class="cls{hl}" style="border-left:4px solid {}">{}</span>"#,
        colour(Some(c)),
        escape(&short(&c.to_string()))
    ))
}

/// Pixels of a mask decoded at most.
const MASK_PIXELS: u64 = 8_000_000;

/// A segmentation mask (a PNG of class ids: grey levels or palette
/// indices, 1 to 16 bits; 0, and 255 of 8-bit masks, are the background
/// and "ignore") coloured by class, scaled to fit `max` pixels on its
/// longer side, as a `data:` URL of a PNG; `picture` is the size of the
/// picture it lies over, which it must have. `Err` says why it is not
/// drawn. A colour PNG is drawn in its own colours, black left clear.
pub fn mask_overlay(png: &[u8], max: u32, picture: Option<(u32, u32)>) -> Result<String, String> {
    use base64::Engine as _;
    if !png.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err("the mask is not a PNG".into());
    }
    let size = imagesize::blob_size(png).map_err(|e| format!("the mask's header: {e}"))?;
    let (mw, mh) = (size.width as u32, size.height as u32);
    if (mw as u64) * (mh as u64) > MASK_PIXELS {
        return Err(format!(
            "the mask is {mw}×{mh}, over {} megapixels",
            MASK_PIXELS / 1_000_000
        ));
    }
    if let Some((w, h)) = picture {
        if (w, h) != (mw, mh) {
            return Err(format!("the mask is {mw}×{mh}, the picture {w}×{h}"));
        }
    }
    let coloured = match class_ids(png).map_err(|e| format!("the mask: {e}"))? {
        Some(ids) => ids,
        None => {
            let img = image::load_from_memory(png).map_err(|e| format!("the mask: {e}"))?;
            let mut rgba = img.to_rgba8();
            for p in rgba.pixels_mut() {
                if p.0[..3] == [0, 0, 0] {
                    p.0[3] = 0;
                }
            }
            rgba
        }
    };
    let small = if coloured.width() > max || coloured.height() > max {
        let scale = max as f64 / coloured.width().max(coloured.height()) as f64;
        let (w, h) = (
            ((coloured.width() as f64 * scale).round() as u32).max(1),
            ((coloured.height() as f64 * scale).round() as u32).max(1),
        );
        image::imageops::resize(&coloured, w, h, image::imageops::FilterType::Nearest)
    } else {
        coloured
    };
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgba8(small)
        .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    ))
}

/// A grey or palette PNG's class ids (the stored values, not colours),
/// each coloured; `None` for a colour PNG.
fn class_ids(png: &[u8]) -> Result<Option<image::RgbaImage>, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let info = reader.info();
    if !matches!(info.color_type, png::ColorType::Grayscale | png::ColorType::Indexed) {
        return Ok(None);
    }
    let bits = info.bit_depth as usize;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("too large")?];
    let out = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let mut img = image::RgbaImage::new(out.width, out.height);
    let ignore = if bits == 8 { Some(255) } else { None };
    for (y, row) in buf.chunks(out.line_size).take(out.height as usize).enumerate() {
        for x in 0..out.width as usize {
            let id = match bits {
                16 => u16::from_be_bytes([row[2 * x], row[2 * x + 1]]) as u32,
                8 => row[x] as u32,
                _ => {
                    let per = 8 / bits;
                    let shift = 8 - bits * (x % per + 1);
                    ((row[x / per] >> shift) as u32) & ((1 << bits) - 1)
                }
            };
            if id == 0 || Some(id) == ignore {
                continue;
            }
            let c = PALETTE[id as usize % PALETTE.len()];
            let hex = |i: usize| u8::from_str_radix(&c[i..i + 2], 16).unwrap_or(0);
            img.put_pixel(x as u32, y as u32, image::Rgba([hex(1), hex(3), hex(5), 255]));
        }
    }
    Ok(Some(img))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    fn png(
        w: u32,
        h: u32,
        colour: png::ColorType,
        depth: png::BitDepth,
        palette: Option<Vec<u8>>,
        data: &[u8],
    ) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(colour);
        enc.set_depth(depth);
        if let Some(p) = palette {
            enc.set_palette(p);
        }
        enc.write_header().unwrap().write_image_data(data).unwrap();
        out
    }

    fn pixels(url: &str) -> Vec<[u8; 4]> {
        let b64 = url.strip_prefix("data:image/png;base64,").unwrap();
        let bytes = base64::engine::general_purpose::STANDARD.decode(b64).unwrap();
        let img = image::load_from_memory(&bytes).unwrap().to_rgba8();
        img.pixels().map(|p| p.0).collect()
    }

    fn colour_of(id: usize) -> [u8; 4] {
        let c = PALETTE[id % PALETTE.len()];
        let hex = |i: usize| u8::from_str_radix(&c[i..i + 2], 16).unwrap();
        [hex(1), hex(3), hex(5), 255]
    }

    #[test]
    fn masks_are_read_as_class_ids_not_colours() {
        // A palette PNG (PASCAL VOC's masks): the indices are the ids,
        // whatever colours the palette gives them; 255 is "ignore".
        let voc = png(
            3,
            1,
            png::ColorType::Indexed,
            png::BitDepth::Eight,
            Some(vec![9; 768]),
            &[1, 255, 0],
        );
        let got = pixels(&mask_overlay(&voc, 160, Some((3, 1))).unwrap());
        assert_eq!(got[0], colour_of(1));
        assert_eq!(got[1][3], 0);
        assert_eq!(got[2][3], 0);
        // 16-bit grey ids 2 and 1.
        let deep = png(
            2,
            1,
            png::ColorType::Grayscale,
            png::BitDepth::Sixteen,
            None,
            &[0, 2, 0, 1],
        );
        let got = pixels(&mask_overlay(&deep, 160, None).unwrap());
        assert_eq!(got, [colour_of(2), colour_of(1)]);
        // 2-bit grey, packed.
        let packed = png(
            4,
            1,
            png::ColorType::Grayscale,
            png::BitDepth::Two,
            None,
            &[0b00_01_10_11],
        );
        let got = pixels(&mask_overlay(&packed, 160, None).unwrap());
        assert_eq!(got, [[0, 0, 0, 0], colour_of(1), colour_of(2), colour_of(3)]);
    }

    #[test]
    fn masks_that_cannot_be_drawn_say_why() {
        let grey = png(2, 1, png::ColorType::Grayscale, png::BitDepth::Eight, None, &[1, 1]);
        let e = mask_overlay(&grey, 160, Some((64, 48))).unwrap_err();
        assert_eq!(e, "the mask is 2×1, the picture 64×48");
        assert_eq!(
            mask_overlay(b"\xff\xd8\xff\xe0 a JPEG", 160, None).unwrap_err(),
            "the mask is not a PNG"
        );
        let mut cut = grey.clone();
        cut.truncate(cut.len() - 20);
        assert!(mask_overlay(&cut, 160, None).unwrap_err().starts_with("the mask: "));
    }

    #[test]
    fn broken_and_endless_boxes_stay_on_the_page() {
        assert_eq!(drawn(f64::NAN, f64::INFINITY), (0.0, 2.0));
        assert_eq!(drawn(0.8, 0.2), (0.2, 0.8));
        assert_eq!(drawn(f64::NEG_INFINITY, f64::NAN), (-1.0, 1.0));
        assert_eq!(short(&"é".repeat(60)), format!("{}…", "é".repeat(48)));
    }
}
