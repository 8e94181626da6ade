//! Annotations of images in records: object-detection boxes, class
//! labels, keypoints and segmentation masks, as the layouts people write
//! them name them:
//!
//! - the TF Object Detection API (`image/object/bbox/{xmin,ymin,xmax,ymax}`
//!   normalised, or in pixels when most values exceed 1 and
//!   `image/width`/`image/height` are there; classes from
//!   `image/object/class/text` or `…/class/label` with a [`LabelMap`];
//!   `image/object/keypoint/{x,y}`; `image/segmentation/class/encoded`;
//!   `image/class/{label,text}` for classification);
//! - TensorFlow Datasets (`objects/bbox`, `[ymin, xmin, ymax, xmax]` per
//!   box, with `objects/label` and its ClassLabel names; `label`);
//! - any other prefix given as [`Options::bbox`].
//!
//! [`read`] finds them in one record and says what is broken about them
//! ([`check::Problem`]: what `tfr validate` reports); `report::overlay`
//! draws them over a picture (`tfr report`, `tfr view`).

pub mod check;
mod label_map;
mod read;
mod saved;
pub mod summary;

pub use label_map::LabelMap;
pub use read::read;

use std::collections::HashMap;

/// What the flags say about annotations.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--bbox PREFIX`: the boxes are `PREFIX/{xmin,ymin,xmax,ymax}`, or
    /// `PREFIX` itself holds `[ymin, xmin, ymax, xmax]` per box (TFDS).
    pub bbox: Option<String>,
    /// `--label-map`: class ids → names (and the ids that exist).
    pub label_map: Option<LabelMap>,
    /// Class names of int features (a TFDS folder's ClassLabels).
    pub classes: HashMap<String, Vec<String>>,
    /// The order of a TFDS BBoxFeature's four values, by feature (its
    /// `bboxFormat`: `REL_YXYX`, the default, `REL_XYXY`, `REL_XYWH`, or
    /// the same in pixels without `REL_`).
    pub bbox_formats: HashMap<String, String>,
    /// `--highlight`: the classes (names or ids) drawn highlighted.
    pub highlight: Vec<String>,
}

impl Options {
    /// Whether a class is one of `--highlight`'s.
    pub fn highlights(&self, class: &Class) -> bool {
        self.highlight
            .iter()
            .any(|h| class.name.as_deref() == Some(h.as_str()) || class.id.is_some_and(|id| h.parse::<i64>() == Ok(id)))
    }
}

/// A class: its id, its name, or both.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Class {
    /// The id (an int feature's value).
    pub id: Option<i64>,
    /// The name (a text feature's value, or the label map's or
    /// ClassLabel's name of the id).
    pub name: Option<String>,
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.name, self.id) {
            (Some(n), Some(id)) => write!(f, "{n} ({id})"),
            (Some(n), None) => f.write_str(n),
            (None, Some(id)) => write!(f, "{id}"),
            (None, None) => f.write_str("?"),
        }
    }
}

/// One box, its corners normalised to the picture (`[0, 1]` when sane;
/// as stored, so a broken box stays broken).
#[derive(Clone, Debug, PartialEq)]
pub struct BBox {
    /// Left edge.
    pub xmin: f64,
    /// Top edge.
    pub ymin: f64,
    /// Right edge.
    pub xmax: f64,
    /// Bottom edge.
    pub ymax: f64,
    /// Its class, when the record has one for it.
    pub class: Option<Class>,
}

impl BBox {
    /// Whether a corner lies outside the picture.
    pub fn outside(&self) -> bool {
        [self.xmin, self.ymin, self.xmax, self.ymax]
            .iter()
            .any(|v| !(0.0..=1.0).contains(v))
    }
}

/// The annotations of one record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotations {
    /// The feature the annotations belong to (`image/encoded`, TFDS's
    /// `image`, else the first feature holding a picture).
    pub image: Option<String>,
    /// `image/width` and `image/height`, when the record has them.
    pub size: Option<(i64, i64)>,
    /// The features the boxes were read from (`image/object/bbox`, a
    /// prefix; or `objects/bbox`): what a problem is about.
    pub boxes_from: Option<String>,
    /// Whether the boxes were stored in pixels (converted here).
    pub pixels: bool,
    /// The boxes.
    pub boxes: Vec<BBox>,
    /// Keypoints, normalised (x, y).
    pub keypoints: Vec<(f64, f64)>,
    /// The picture's class (classification).
    pub class: Option<Class>,
    /// The feature holding a segmentation mask (a PNG of class ids).
    pub mask: Option<String>,
    /// What is wrong with them.
    pub problems: Vec<check::Problem>,
}

impl Annotations {
    /// Whether anything is annotated (a box, a keypoint, a class or a
    /// mask).
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty() && self.keypoints.is_empty() && self.class.is_none() && self.mask.is_none()
    }

    /// The annotations as JSON (for `tfr view`'s API).
    pub fn to_json(&self) -> serde_json::Value {
        let class = |c: &Class| serde_json::json!({"id": c.id, "name": c.name, "text": c.to_string()});
        serde_json::json!({
            "image": self.image,
            "boxes_from": self.boxes_from,
            "pixels": self.pixels,
            "boxes": self.boxes.iter().map(|b| serde_json::json!({
                "xmin": finite(b.xmin), "ymin": finite(b.ymin), "xmax": finite(b.xmax), "ymax": finite(b.ymax),
                "class": b.class.as_ref().map(class),
            })).collect::<Vec<_>>(),
            "keypoints": self.keypoints.iter().map(|(x, y)| [finite(*x), finite(*y)]).collect::<Vec<_>>(),
            "class": self.class.as_ref().map(class),
            "mask": self.mask,
            "problems": self.problems.iter().map(|p| serde_json::json!({
                "type": p.kind.name(), "feature": p.feature, "detail": p.detail,
            })).collect::<Vec<_>>(),
        })
    }
}

/// A number for JSON (NaN and infinities as null).
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests;
