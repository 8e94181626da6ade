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
    for (i, b) in a.boxes.iter().enumerate() {
        let hl = b.class.as_ref().is_some_and(|c| opts.highlights(c));
        let group = match (any_highlighted, hl) {
            (true, true) => "box hl",
            (true, false) => "box dim",
            _ => "box",
        };
        // A broken box is drawn between its smaller and larger corners,
        // dashed; its title says what is wrong.
        let (x0, x1) = (b.xmin.min(b.xmax), b.xmin.max(b.xmax));
        let (y0, y1) = (b.ymin.min(b.ymax), b.ymin.max(b.ymax));
        let broken = b.outside() || b.xmin >= b.xmax || b.ymin >= b.ymax;
        let fin = |v: f64| if v.is_finite() { v } else { 0.0 };
        let (x, y) = (fin(x0) * w, fin(y0) * h);
        let (bw, bh) = ((fin(x1) - fin(x0)) * w, (fin(y1) - fin(y0)) * h);
        let class_text = b.class.as_ref().map_or_else(|| format!("box {i}"), ToString::to_string);
        let title = if broken {
            format!("{class_text} (broken box)")
        } else {
            class_text.clone()
        };
        let label = b
            .class
            .as_ref()
            .map(|c| c.name.clone().unwrap_or_else(|| c.to_string()));
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
    for (i, (x, y)) in a.keypoints.iter().enumerate() {
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

/// The classification caption (`cat (2)`), marked when highlighted.
pub fn class_caption(a: &Annotations, opts: &Options) -> Option<String> {
    let c = a.class.as_ref()?;
    let hl = if opts.highlights(c) { " hl" } else { "" };
    Some(format!(
        r#"<span class="cls{hl}" style="border-left:4px solid {}">{}</span>"#,
        colour(Some(c)),
        escape(&c.to_string())
    ))
}

/// Pixels of a mask decoded at most.
const MASK_PIXELS: u64 = 8_000_000;

/// A segmentation mask (a PNG of class ids; 0 is background) coloured by
/// class, half-transparent, scaled to fit `max` pixels on its longer side,
/// as a `data:` URL of a PNG; `Err` says why it could not be read.
pub fn mask_overlay(png: &[u8], max: u32) -> Result<String, String> {
    use base64::Engine as _;
    let size = imagesize::blob_size(png).map_err(|e| e.to_string())?;
    if (size.width as u64) * (size.height as u64) > MASK_PIXELS {
        return Err(format!("a {}x{} mask is too large to draw", size.width, size.height));
    }
    let img = image::load_from_memory(png).map_err(|e| e.to_string())?;
    let small = if img.width() > max || img.height() > max {
        img.resize(max, max, image::imageops::FilterType::Nearest)
    } else {
        img
    };
    let ids = small.to_luma8();
    let mut out = image::RgbaImage::new(ids.width(), ids.height());
    for (x, y, p) in ids.enumerate_pixels() {
        let id = p.0[0];
        if id == 0 || id == 255 {
            // Background, and the "ignore" label most datasets use.
            continue;
        }
        let c = PALETTE[id as usize % PALETTE.len()];
        let hex = |i: usize| u8::from_str_radix(&c[i..i + 2], 16).unwrap_or(0);
        out.put_pixel(x, y, image::Rgba([hex(1), hex(3), hex(5), 255]));
    }
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgba8(out)
        .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    ))
}
