//! Finding the annotations of one record in its features.

use super::check::{Problem, ProblemKind};
use super::{Annotations, BBox, Class, Options};
use crate::example::media::{sniff, Media};
use crate::example::{FeatureView, FeaturesView, Kind};
/// A record's features by name: sorted, each name once (its last entry),
/// looked up by binary search (a record has a few dozen features at most:
/// no hash map to build).
struct Map<'a>(Vec<(&'a str, FeatureView<'a>)>);

impl<'a> Map<'a> {
    fn get(&self, name: &str) -> Option<&FeatureView<'a>> {
        let i = self.0.binary_search_by(|(k, _)| (*k).cmp(name)).ok()?;
        self.0.get(i).map(|(_, f)| f)
    }

    fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The names, sorted.
    fn keys(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.0.iter().map(|(k, _)| *k)
    }
}

impl<'a> std::ops::Index<&str> for Map<'a> {
    type Output = FeatureView<'a>;

    /// Only for a name [`Map::keys`] gave or [`Map::get`] found.
    fn index(&self, name: &str) -> &FeatureView<'a> {
        self.get(name).expect("a name of the map")
    }
}

/// Where a record's boxes are.
enum Source {
    /// `PREFIX/{xmin,ymin,xmax,ymax}`: four lists.
    Corners(String),
    /// One float list, `[ymin, xmin, ymax, xmax]` per box (TFDS's
    /// BBoxFeature in a Sequence).
    Flat(String),
}

/// The annotations of a record's features; `None` when it has none
/// (no boxes, keypoints, class or mask).
pub fn read(features: &FeaturesView<'_>, opts: &Options) -> Option<Annotations> {
    // Most records of most datasets have none: their names say so before
    // any map is built.
    if !may_have(features, opts) {
        return None;
    }
    let map = Map(features.sorted());
    let mut a = Annotations {
        size: size(&map),
        ..Annotations::default()
    };
    let parent = match find_boxes(&map, opts) {
        Some(Source::Corners(prefix)) => {
            corners(&map, &prefix, &mut a);
            a.boxes_from = Some(prefix.clone());
            Some(parent_of(&prefix))
        }
        Some(Source::Flat(name)) => {
            flat(&map, &name, opts.bbox_formats.get(&name).map(String::as_str), &mut a);
            let parent = parent_of(&name);
            a.boxes_from = Some(name);
            Some(parent)
        }
        None => None,
    };
    if let Some(parent) = parent {
        box_classes(&map, &parent, opts, &mut a);
        box_problems(&mut a);
        keypoints(&map, &parent, &mut a);
    }
    a.class = image_class(&map, opts, &mut a.problems);
    a.mask = ["image/segmentation/class/encoded", "segmentation_mask"]
        .into_iter()
        .find(|n| map.get(n).is_some_and(|f| f.kind() == Kind::Bytes && f.count() > 0))
        .map(str::to_string);
    a.problems = one_per_kind(std::mem::take(&mut a.problems));
    if a.is_empty() && a.problems.is_empty() && a.boxes_from.is_none() {
        return None;
    }
    a.image = image_feature(&map, a.mask.as_deref());
    Some(a)
}

/// A record's problems with one of each kind (the details of several
/// joined), so that a record counts once per kind.
fn one_per_kind(problems: Vec<Problem>) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::with_capacity(problems.len());
    for p in problems {
        match out.iter_mut().find(|o| o.kind == p.kind) {
            Some(o) => {
                o.detail.push_str("; ");
                if o.feature != p.feature {
                    o.detail.push_str(&p.feature);
                    o.detail.push_str(": ");
                }
                o.detail.push_str(&p.detail);
            }
            None => out.push(p),
        }
    }
    out
}

/// Features whose names [`read`] looks at, besides the boxes'.
const NAMED: [&[u8]; 5] = [
    b"label",
    b"image/class/label",
    b"image/class/text",
    b"image/segmentation/class/encoded",
    b"segmentation_mask",
];

/// Whether a record has a feature [`read`] could find annotations in: a
/// class or mask feature by its name, a corner (`…/xmin`, `…/ymax`, …) or
/// a `bbox` list, or with `--bbox` a name under its prefix. A cheap look
/// at the names (no map, no values).
fn may_have(features: &FeaturesView<'_>, opts: &Options) -> bool {
    match opts.bbox.as_deref().map(|p| p.trim_end_matches('/').as_bytes()) {
        Some(p) => features
            .raw_entries()
            .any(|(key, _)| key.starts_with(p) || NAMED.contains(&key)),
        None => features.raw_entries().any(|(key, _)| known_name(key)),
    }
}

/// Whether a name is one [`read`] looks at without `--bbox`: by its last
/// byte first (most names are none of these).
#[inline]
fn known_name(key: &[u8]) -> bool {
    match key.last() {
        Some(b'l' | b't' | b'd' | b'k') => NAMED.contains(&key),
        Some(b'n' | b'x') => {
            key == b"bbox"
                || [b"/bbox", b"/xmin", b"/ymin", b"/xmax", b"/ymax"]
                    .iter()
                    .any(|c| key.ends_with(*c))
        }
        _ => false,
    }
}

/// `a/b/c` → `a/b`; a name without `/` → "".
fn parent_of(name: &str) -> String {
    name.rsplit_once('/').map_or(String::new(), |(p, _)| p.to_string())
}

/// `parent/leaf`, or `leaf` when there is no parent.
fn child(parent: &str, leaf: &str) -> String {
    if parent.is_empty() {
        return leaf.to_string();
    }
    let mut name = String::with_capacity(parent.len() + 1 + leaf.len());
    name.push_str(parent);
    name.push('/');
    name.push_str(leaf);
    name
}

const CORNERS: [&str; 4] = ["xmin", "ymin", "xmax", "ymax"];

fn find_boxes(map: &Map<'_>, opts: &Options) -> Option<Source> {
    let has_corners = |p: &str| CORNERS.iter().any(|c| map.contains_key(child(p, c).as_str()));
    if let Some(p) = &opts.bbox {
        let p = p.trim_end_matches('/');
        if has_corners(p) {
            return Some(Source::Corners(p.to_string()));
        }
        return map.contains_key(p).then(|| Source::Flat(p.to_string()));
    }
    if has_corners("image/object/bbox") {
        return Some(Source::Corners("image/object/bbox".into()));
    }
    // Any other `…/xmin` with its siblings; then a TFDS-style `…/bbox`
    // float list. Sorted, so the choice does not depend on wire order.
    let names: Vec<&str> = map.keys().collect();
    let corner = names.iter().find_map(|n| {
        let prefix = n.strip_suffix("/xmin")?;
        CORNERS[1..]
            .iter()
            .all(|c| map.contains_key(child(prefix, c).as_str()))
            .then(|| Source::Corners(prefix.to_string()))
    });
    corner.or_else(|| {
        names
            .iter()
            .find(|n| (**n == "bbox" || n.ends_with("/bbox")) && map[n].kind() == Kind::Float)
            .map(|n| Source::Flat(n.to_string()))
    })
}

/// A feature's values as numbers (floats or ints; none for bytes).
fn numbers(map: &Map<'_>, name: &str) -> Option<Vec<f64>> {
    let f = map.get(name)?;
    // As many numbers as the record holds values: no growing.
    let mut out = Vec::new();
    match f.kind() {
        Kind::Float => {
            out.reserve_exact(f.count());
            out.extend(f.floats().map(f64::from));
        }
        Kind::Int64 => {
            out.reserve_exact(f.count());
            out.extend(f.int64s().map(|v| v as f64));
        }
        _ => {}
    }
    Some(out)
}

/// A class list's ids: int64 values exactly, float ones when integral
/// (`Err` holds one that is not).
fn class_ids(map: &Map<'_>, name: &str) -> Option<Vec<Result<i64, f32>>> {
    let f = map.get(name)?;
    Some(match f.kind() {
        Kind::Int64 => f.int64s().map(Ok).collect(),
        Kind::Float => f
            .floats()
            .map(|v| {
                if v.fract() == 0.0 && v.abs() < 9.0e15 {
                    Ok(v as i64)
                } else {
                    Err(v)
                }
            })
            .collect(),
        _ => Vec::new(),
    })
}

fn size(map: &Map<'_>) -> Option<(i64, i64)> {
    let one = |n: &str| {
        let f = map.get(n)?;
        (f.kind() == Kind::Int64).then(|| f.int64s().next()).flatten()
    };
    let (w, h) = (one("image/width")?, one("image/height")?);
    (w > 0 && h > 0).then_some((w, h))
}

fn corners(map: &Map<'_>, prefix: &str, a: &mut Annotations) {
    let lists: Vec<Vec<f64>> = CORNERS
        .iter()
        .map(|c| numbers(map, &child(prefix, c)).unwrap_or_default())
        .collect();
    let bytes: Vec<&str> = CORNERS
        .iter()
        .copied()
        .filter(|c| map.get(&child(prefix, c)).is_some_and(|f| f.kind() == Kind::Bytes))
        .collect();
    if !bytes.is_empty() {
        a.problems.push(Problem::new(
            ProblemKind::NotNumbers,
            prefix,
            format!("{} stored as bytes, not floats", bytes.join(", ")),
        ));
    }
    let n = lists.iter().map(Vec::len).min().unwrap_or(0);
    if bytes.is_empty() && lists.iter().any(|l| l.len() != n) {
        let lens: Vec<String> = CORNERS
            .iter()
            .zip(&lists)
            .map(|(c, l)| format!("{c} {}", l.len()))
            .collect();
        a.problems.push(Problem::new(
            ProblemKind::LengthsDiffer,
            prefix,
            format!("coordinate lists of different lengths ({})", lens.join(", ")),
        ));
    }
    // Pixels when the record says its size and more of its values exceed
    // 1 than lie in (0, 1] (a normalised box with one corner past the edge
    // stays normalised, and is reported as outside; zeros, a box at the
    // top or left edge, count for neither).
    let values = || lists.iter().flat_map(|l| &l[..n]);
    let over = values().filter(|v| **v > 1.0).count();
    let under = values().filter(|v| **v > 0.0 && **v <= 1.0).count();
    let scale = match a.size {
        Some((w, h)) if over > under => {
            a.pixels = true;
            (w as f64, h as f64)
        }
        _ => (1.0, 1.0),
    };
    a.boxes = (0..n)
        .map(|i| BBox {
            xmin: lists[0][i] / scale.0,
            ymin: lists[1][i] / scale.1,
            xmax: lists[2][i] / scale.0,
            ymax: lists[3][i] / scale.1,
            class: None,
        })
        .collect();
}

fn flat(map: &Map<'_>, name: &str, format: Option<&str>, a: &mut Annotations) {
    let format = format.unwrap_or("REL_YXYX");
    let values = numbers(map, name).unwrap_or_default();
    if values.len() % 4 != 0 {
        a.problems.push(Problem::new(
            ProblemKind::LengthsDiffer,
            name,
            format!("{} values, not 4 per box ({format})", values.len()),
        ));
    }
    // Absolute formats are in the picture's pixels: its size from the
    // record, else from the picture's header.
    let scale = match format.starts_with("REL_") {
        true => (1.0, 1.0),
        false => match a.size.or_else(|| picture_size(map)) {
            Some((w, h)) => {
                a.pixels = true;
                a.size = Some((w, h));
                (w as f64, h as f64)
            }
            None => (1.0, 1.0),
        },
    };
    a.boxes = values
        .chunks_exact(4)
        .map(|c| {
            let (xmin, ymin, xmax, ymax) = match format.trim_start_matches("REL_") {
                "XYXY" => (c[0], c[1], c[2], c[3]),
                "XYWH" => (c[0], c[1], c[0] + c[2], c[1] + c[3]),
                _ => (c[1], c[0], c[3], c[2]),
            };
            BBox {
                xmin: xmin / scale.0,
                ymin: ymin / scale.1,
                xmax: xmax / scale.0,
                ymax: ymax / scale.1,
                class: None,
            }
        })
        .collect();
}

/// The size of the record's picture, from its header.
fn picture_size(map: &Map<'_>) -> Option<(i64, i64)> {
    let name = image_feature(map, None)?;
    let bytes = map.get(&name)?.bytes().next()?;
    let size = imagesize::blob_size(bytes).ok()?;
    Some((size.width as i64, size.height as i64)).filter(|(w, h)| *w > 0 && *h > 0)
}

fn keypoints(map: &Map<'_>, parent: &str, a: &mut Annotations) {
    let (xs, ys) = (
        numbers(map, &child(parent, "keypoint/x")),
        numbers(map, &child(parent, "keypoint/y")),
    );
    let (xs, ys) = match (xs, ys) {
        (None, None) => return,
        (xs, ys) => (xs.unwrap_or_default(), ys.unwrap_or_default()),
    };
    if xs.len() != ys.len() {
        a.problems.push(Problem::new(
            ProblemKind::LengthsDiffer,
            child(parent, "keypoint"),
            format!("x has {} values, y {}", xs.len(), ys.len()),
        ));
    }
    let scale = match (a.pixels, a.size) {
        (true, Some((w, h))) => (w as f64, h as f64),
        _ => (1.0, 1.0),
    };
    a.keypoints = xs
        .iter()
        .zip(&ys)
        // Keypoints not visible are written as NaN or -1 by some tools.
        .filter(|(x, y)| x.is_finite() && y.is_finite() && **x >= 0.0 && **y >= 0.0)
        .map(|(x, y)| (x / scale.0, y / scale.1))
        .collect();
}

/// The name of class `id` of the int feature `feature`: the label map's,
/// else its ClassLabel names.
fn class_name(opts: &Options, feature: &str, id: i64) -> Option<String> {
    if let Some(map) = &opts.label_map {
        return map.name(id).map(str::to_string);
    }
    let names = opts.classes.get(feature)?;
    names.get(usize::try_from(id).ok()?).cloned()
}

/// Whether class `id` of `feature` is one the label map (or the
/// ClassLabel) has; `None` when there is nothing to check against.
fn known(opts: &Options, feature: &str, id: i64) -> Option<bool> {
    if let Some(map) = &opts.label_map {
        return Some(map.contains(id));
    }
    let names = opts.classes.get(feature)?;
    Some(usize::try_from(id).is_ok_and(|i| i < names.len()))
}

fn texts(map: &Map<'_>, name: &str) -> Option<Vec<String>> {
    let f = map.get(name)?;
    (f.kind() == Kind::Bytes).then(|| f.bytes().map(|b| String::from_utf8_lossy(b).into_owned()).collect())
}

fn box_classes(map: &Map<'_>, parent: &str, opts: &Options, a: &mut Annotations) {
    let pick = |leaves: &[&str]| {
        leaves
            .iter()
            .map(|l| child(parent, l))
            .find(|n| map.contains_key(n.as_str()))
    };
    let text_name = pick(&["class/text", "text"]);
    let label_name = pick(&["class/label", "label"]);
    let text = text_name.as_deref().and_then(|n| texts(map, n));
    let label = label_name.as_deref().and_then(|n| class_ids(map, n));
    let n = a.boxes.len();
    // Coordinate lists of different lengths say how many boxes there are
    // no more than the class lists do: that one problem is reported.
    let uneven = a
        .problems
        .iter()
        .any(|p| p.kind == ProblemKind::LengthsDiffer && a.boxes_from.as_deref() == Some(p.feature.as_str()));
    for (name, len) in [
        (&text_name, text.as_ref().map(Vec::len)),
        (&label_name, label.as_ref().map(Vec::len)),
    ] {
        if let (Some(name), Some(len)) = (name, len) {
            if len != n && !uneven {
                a.problems.push(Problem::new(
                    ProblemKind::ClassCount,
                    name.as_str(),
                    format!("{len} classes for {n} boxes"),
                ));
            }
        }
    }
    let mut unknown = None;
    let feature = label_name.as_deref().unwrap_or_default();
    for (i, b) in a.boxes.iter_mut().enumerate() {
        let stored = label.as_ref().and_then(|l| l.get(i));
        let id = stored.and_then(|v| v.ok());
        if unknown.is_none() {
            match stored {
                Some(Err(v)) => unknown = Some(format!("box {i} has class {v}, not an integer id")),
                Some(Ok(id)) if known(opts, feature, *id) == Some(false) => {
                    unknown = Some(format!("box {i} has class {id}, not in the {}", known_from(opts)));
                }
                _ => {}
            }
        }
        let name = text
            .as_ref()
            .and_then(|t| t.get(i).cloned())
            .or_else(|| id.and_then(|id| class_name(opts, feature, id)));
        if id.is_some() || name.is_some() {
            b.class = Some(Class { id, name });
        }
    }
    if let Some(detail) = unknown {
        a.problems
            .push(Problem::new(ProblemKind::UnknownClass, feature, detail));
    }
}

fn known_from(opts: &Options) -> &'static str {
    if opts.label_map.is_some() {
        "label map"
    } else {
        "ClassLabel's names"
    }
}

/// Problems of the boxes themselves, one of each kind per record (the
/// first box that has it).
fn box_problems(a: &mut Annotations) {
    let unit = if a.pixels { "pixels" } else { "normalised" };
    let shown = |v: f64, scale: i64| value_text(if a.pixels { v * scale as f64 } else { v });
    let (w, h) = a.size.unwrap_or((1, 1));
    let mut seen = [false; 4];
    for (i, b) in a.boxes.iter().enumerate() {
        let found = [
            b.outside().then(|| {
                let bound = if a.pixels {
                    format!("[0, {w}] × [0, {h}]")
                } else {
                    "[0, 1]".into()
                };
                format!(
                    "box {i} (xmin {}, ymin {}, xmax {}, ymax {}, {unit}) is not within {bound}",
                    shown(b.xmin, w),
                    shown(b.ymin, h),
                    shown(b.xmax, w),
                    shown(b.ymax, h)
                )
            }),
            (b.xmin > b.xmax).then(|| format!("box {i}: xmin {} > xmax {}", shown(b.xmin, w), shown(b.xmax, w))),
            (b.ymin > b.ymax).then(|| format!("box {i}: ymin {} > ymax {}", shown(b.ymin, h), shown(b.ymax, h))),
            (b.xmin == b.xmax || b.ymin == b.ymax).then(|| format!("box {i} has zero area")),
        ];
        for (k, detail) in found.into_iter().enumerate() {
            if let Some(detail) = detail {
                if !std::mem::replace(&mut seen[k], true) {
                    let kind = [
                        ProblemKind::OutOfRange,
                        ProblemKind::XminOverXmax,
                        ProblemKind::YminOverYmax,
                        ProblemKind::ZeroArea,
                    ][k];
                    let from = a.boxes_from.as_deref().unwrap_or("boxes");
                    a.problems.push(Problem::new(kind, from, detail));
                }
            }
        }
    }
}

/// A coordinate as written: a float feature's value (an f32) in its
/// shortest form (0.35416666, not 0.3541666567325592).
fn value_text(v: f64) -> String {
    let f = v as f32;
    if f64::from(f) == v {
        f.to_string()
    } else {
        v.to_string()
    }
}

/// The picture's own class: `image/class/{label,text}` (OD API), or a
/// `label` int feature (TFDS).
fn image_class(map: &Map<'_>, opts: &Options, problems: &mut Vec<Problem>) -> Option<Class> {
    let label_name = ["image/class/label", "label"]
        .into_iter()
        .find(|n| map.get(n).is_some_and(|f| f.kind() == Kind::Int64));
    let id = label_name.and_then(|n| map[n].int64s().next());
    let text = map
        .get("image/class/text")
        .filter(|f| f.kind() == Kind::Bytes)
        .and_then(|f| f.bytes().next())
        .map(|b| String::from_utf8_lossy(b).into_owned());
    if let (Some(feature), Some(id)) = (label_name, id) {
        if known(opts, feature, id) == Some(false) {
            problems.push(Problem::new(
                ProblemKind::UnknownClass,
                feature,
                format!("class {id}, not in the {}", known_from(opts)),
            ));
        }
    }
    let name = text.or_else(|| class_name(opts, label_name?, id?));
    (id.is_some() || name.is_some()).then_some(Class { id, name })
}

/// The feature the annotations are drawn on.
fn image_feature(map: &Map<'_>, mask: Option<&str>) -> Option<String> {
    for n in ["image/encoded", "image"] {
        if map.get(n).is_some_and(|f| f.kind() == Kind::Bytes) {
            return Some(n.to_string());
        }
    }
    map.0
        .iter()
        .filter(|(n, _)| Some(*n) != mask)
        .find(|(_, f)| {
            f.kind() == Kind::Bytes
                && f.bytes()
                    .next()
                    .is_some_and(|v| matches!(sniff(v, false), Media::Jpeg | Media::Png | Media::Gif | Media::Webp))
        })
        .map(|(n, _)| n.to_string())
}
