//! A [`Tally`] in tfr's saved statistics (`tfr stats --format json`, its
//! `"annotations"`), and read back from one (`tfr stats --merge`):
//!
//! ```jsonc
//! {"records": 30, "annotated": 30, "with_boxes": 28, "boxes": 90,
//!  "boxes_per_image": [[0, 3], [1, 5], ...],     // [boxes, records]; the last bucket: that many or more
//!  "per_class": {"person (1)": 19, ...}, "other_classes": 0,
//!  "image_classes": {"cat (17)": 4, ...},
//!  "with_keypoints": 3, "with_masks": 4, "with_problems": 0,
//!  "problems": [{"type": "BBOX_ZERO_AREA", "records": 1, "first": [input, record],
//!                "feature": "image/object/bbox", "detail": "box 0 has zero area"}]}
//! ```

use super::check::{Found, ProblemKind, Tally, MAX_BOXES_BUCKET, MAX_CLASSES};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

impl Tally {
    /// The tally as saved.
    pub fn to_json(&self) -> Value {
        let problems: Vec<Value> = self
            .problems
            .iter()
            .map(|(k, f)| {
                json!({
                    "type": k.name(), "records": f.records, "first": [f.first.0, f.first.1],
                    "feature": f.feature, "detail": f.detail,
                })
            })
            .collect();
        json!({
            "records": self.records,
            "annotated": self.annotated,
            "with_boxes": self.with_boxes_features,
            "boxes": self.boxes,
            "boxes_per_image": self.boxes_per_image.iter().map(|(n, r)| [*n as u64, *r]).collect::<Vec<_>>(),
            "per_class": self.per_class,
            "other_classes": self.other_classes,
            "image_classes": self.image_classes,
            "with_keypoints": self.with_keypoints,
            "with_masks": self.with_masks,
            "with_problems": self.with_problems,
            "problems": problems,
        })
    }

    /// A saved tally read back, its problems' inputs renumbered from
    /// `first_input` (`inputs`: how many the saved file lists). An error
    /// says what is wrong, in a sentence.
    pub fn from_json(v: &Value, first_input: u64, inputs: u64) -> Result<Tally, String> {
        let what = |w: &str| format!("\"annotations\": {w}");
        let n = |key: &str| {
            v.get(key)
                .and_then(Value::as_u64)
                .ok_or_else(|| what(&format!("no \"{key}\" count")))
        };
        let mut t = Tally {
            records: n("records")?,
            annotated: n("annotated")?,
            with_boxes_features: n("with_boxes")?,
            boxes: n("boxes")?,
            other_classes: n("other_classes")?,
            with_keypoints: n("with_keypoints")?,
            with_masks: n("with_masks")?,
            with_problems: n("with_problems")?,
            ..Tally::default()
        };
        let pairs = v
            .get("boxes_per_image")
            .and_then(Value::as_array)
            .ok_or_else(|| what("no \"boxes_per_image\" list"))?;
        for p in pairs {
            let pair = p.as_array().filter(|a| a.len() == 2);
            let (Some(boxes), Some(records)) = (
                pair.and_then(|a| a[0].as_u64())
                    .filter(|b| *b <= MAX_BOXES_BUCKET as u64),
                pair.and_then(|a| a[1].as_u64()),
            ) else {
                return Err(what(
                    "a \"boxes_per_image\" entry is not [boxes (at most 100), records]",
                ));
            };
            t.boxes_per_image.insert(boxes as usize, records);
        }
        t.per_class = counts(v.get("per_class"), "per_class")?;
        t.image_classes = counts(v.get("image_classes"), "image_classes")?;
        let problems = v
            .get("problems")
            .and_then(Value::as_array)
            .ok_or_else(|| what("no \"problems\" list"))?;
        for p in problems {
            let (kind, found) = problem(p, first_input, inputs).map_err(|e| what(&e))?;
            t.problems.insert(kind, found);
        }
        let with_boxes: u64 = t
            .boxes_per_image
            .values()
            .try_fold(0u64, |a, b| a.checked_add(*b))
            .unwrap_or(u64::MAX);
        let consistent = t.annotated <= t.records
            && t.with_boxes_features <= t.annotated
            && with_boxes == t.with_boxes_features
            && t.with_problems <= t.records
            && t.problems.values().all(|f| f.records <= t.with_problems);
        if !consistent {
            return Err(what("its counts do not add up"));
        }
        Ok(t)
    }
}

/// Class names and their counts (at most [`MAX_CLASSES`]).
fn counts(v: Option<&Value>, key: &str) -> Result<BTreeMap<String, u64>, String> {
    let bad = || format!("\"annotations\": \"{key}\" is not an object of at most {MAX_CLASSES} counts");
    let map: &Map<String, Value> = v.and_then(Value::as_object).ok_or_else(bad)?;
    if map.len() > MAX_CLASSES {
        return Err(bad());
    }
    map.iter()
        .map(|(k, n)| n.as_u64().map(|n| (k.clone(), n)).ok_or_else(bad))
        .collect()
}

/// One saved problem kind.
fn problem(p: &Value, first_input: u64, inputs: u64) -> Result<(ProblemKind, Found), String> {
    let kind = p
        .get("type")
        .and_then(Value::as_str)
        .and_then(ProblemKind::from_name)
        .ok_or("a problem of no known \"type\"")?;
    let records = p
        .get("records")
        .and_then(Value::as_u64)
        .ok_or("a problem without \"records\"")?;
    let first = p.get("first").and_then(Value::as_array).filter(|a| a.len() == 2);
    let (Some(input), Some(record)) = (
        first.and_then(|a| a[0].as_u64()).filter(|i| *i < inputs),
        first.and_then(|a| a[1].as_u64()),
    ) else {
        return Err(format!(
            "a problem's \"first\" is not [input (one of the {inputs} listed), record]"
        ));
    };
    let text = |key: &str| p.get(key).and_then(Value::as_str).map(str::to_string);
    let (Some(feature), Some(detail)) = (text("feature"), text("detail")) else {
        return Err("a problem without \"feature\" and \"detail\"".into());
    };
    let found = Found {
        records,
        first: (first_input + input, record),
        feature,
        detail,
    };
    Ok((kind, found))
}
