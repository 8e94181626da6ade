//! What can be wrong with annotations, and a dataset's tally of them:
//! the problems (`tfr validate`) and the boxes per image and per class
//! (`tfr stats`, `tfr report`).

use super::Annotations;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A kind of broken annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProblemKind {
    /// A corner outside the picture (`[0, 1]` normalised, or the image's
    /// size in pixels); also NaN.
    OutOfRange,
    /// `xmin > xmax`.
    XminOverXmax,
    /// `ymin > ymax`.
    YminOverYmax,
    /// `xmin == xmax` or `ymin == ymax`.
    ZeroArea,
    /// The coordinate lists (or keypoint x and y) of different lengths; a
    /// flat `bbox` list not 4 values per box.
    LengthsDiffer,
    /// A class list whose length is not the number of boxes.
    ClassCount,
    /// A class id not in the label map (or the ClassLabel's names), or
    /// not an integer.
    UnknownClass,
    /// Coordinates stored as bytes, not numbers.
    NotNumbers,
}

impl ProblemKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [ProblemKind; 8] = [
        ProblemKind::OutOfRange,
        ProblemKind::XminOverXmax,
        ProblemKind::YminOverYmax,
        ProblemKind::ZeroArea,
        ProblemKind::LengthsDiffer,
        ProblemKind::ClassCount,
        ProblemKind::UnknownClass,
        ProblemKind::NotNumbers,
    ];

    /// The kind's name in `--json` (in the manner of TFDV's anomaly types).
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::OutOfRange => "BBOX_OUT_OF_RANGE",
            ProblemKind::XminOverXmax => "BBOX_XMIN_GREATER_THAN_XMAX",
            ProblemKind::YminOverYmax => "BBOX_YMIN_GREATER_THAN_YMAX",
            ProblemKind::ZeroArea => "BBOX_ZERO_AREA",
            ProblemKind::LengthsDiffer => "BBOX_LENGTHS_DIFFER",
            ProblemKind::ClassCount => "BBOX_CLASS_COUNT_MISMATCH",
            ProblemKind::UnknownClass => "CLASS_NOT_IN_LABEL_MAP",
            ProblemKind::NotNumbers => "BBOX_NOT_NUMBERS",
        }
    }

    /// The kind of a [`Self::name`].
    pub fn from_name(name: &str) -> Option<ProblemKind> {
        ProblemKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A short description (the table's column).
    pub fn short(self) -> &'static str {
        match self {
            ProblemKind::OutOfRange => "box outside the image",
            ProblemKind::XminOverXmax => "xmin > xmax",
            ProblemKind::YminOverYmax => "ymin > ymax",
            ProblemKind::ZeroArea => "zero-area box",
            ProblemKind::LengthsDiffer => "coordinate lists of different lengths",
            ProblemKind::ClassCount => "classes not one per box",
            ProblemKind::UnknownClass => "class id not in the label map",
            ProblemKind::NotNumbers => "coordinates that are not numbers",
        }
    }
}

/// One thing wrong with a record's annotations.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// Its kind.
    pub kind: ProblemKind,
    /// The feature (or the boxes' prefix) it is about.
    pub feature: String,
    /// What exactly (box number, values, lengths).
    pub detail: String,
}

impl Problem {
    /// A problem of this kind with `feature`.
    pub fn new(kind: ProblemKind, feature: impl Into<String>, detail: String) -> Problem {
        Problem {
            kind,
            feature: feature.into(),
            detail,
        }
    }
}

/// Distinct classes counted per dataset at most (then "other classes").
pub const MAX_CLASSES: usize = 10_000;

/// Boxes per image counted exactly up to this; more are one bucket.
pub const MAX_BOXES_BUCKET: usize = 100;

/// The records that have one kind of problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// How many records have it.
    pub records: u64,
    /// The first: (input, record number).
    pub first: (u64, u64),
    /// The feature it is about in the first record.
    pub feature: String,
    /// The first record's detail.
    pub detail: String,
}

/// A dataset's annotations, summed over its records (merged from the
/// workers' tallies in record order, so the first record of each problem
/// is the first in the data).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Records read.
    pub records: u64,
    /// Records with annotations.
    pub annotated: u64,
    /// Records with boxes features.
    pub with_boxes_features: u64,
    /// Boxes in all.
    pub boxes: u64,
    /// Records by their number of boxes (the last bucket: that many or
    /// more), counting only records whose layout has boxes.
    pub boxes_per_image: BTreeMap<usize, u64>,
    /// Boxes by class (its text; `?` when a box has none).
    pub per_class: BTreeMap<String, u64>,
    /// Boxes whose class was not counted by name (past [`MAX_CLASSES`]).
    pub other_classes: u64,
    /// Images by their class (classification).
    pub image_classes: BTreeMap<String, u64>,
    /// Records with keypoints, with masks.
    pub with_keypoints: u64,
    /// Records with a segmentation mask.
    pub with_masks: u64,
    /// Records with at least one problem.
    pub with_problems: u64,
    /// The problems found, by kind (a record counts once per kind).
    pub problems: BTreeMap<ProblemKind, Found>,
}

impl Tally {
    /// Counts one record (`at`: its input and number).
    pub fn add(&mut self, a: Option<&Annotations>, at: (u64, u64)) {
        self.records += 1;
        let Some(a) = a else { return };
        self.annotated += 1;
        if a.boxes_from.is_some() {
            self.with_boxes_features += 1;
            let bucket = a.boxes.len().min(MAX_BOXES_BUCKET);
            *self.boxes_per_image.entry(bucket).or_default() += 1;
        }
        self.boxes += a.boxes.len() as u64;
        // One name written per box, allocated only for a class first seen.
        let mut name = String::new();
        for b in &a.boxes {
            name.clear();
            match &b.class {
                Some(c) => {
                    let _ = write!(name, "{c}");
                }
                None => name.push('?'),
            }
            count_class(&mut self.per_class, &mut self.other_classes, &name);
        }
        if let Some(c) = &a.class {
            let mut dropped = 0;
            name.clear();
            let _ = write!(name, "{c}");
            count_class(&mut self.image_classes, &mut dropped, &name);
        }
        self.with_keypoints += u64::from(!a.keypoints.is_empty());
        self.with_masks += u64::from(a.mask.is_some());
        self.with_problems += u64::from(!a.problems.is_empty());
        for (i, p) in a.problems.iter().enumerate() {
            // A record counts once per kind (two class lists of the wrong
            // length are one record).
            if a.problems[..i].iter().any(|q| q.kind == p.kind) {
                continue;
            }
            self.problems
                .entry(p.kind)
                .and_modify(|f| f.records += 1)
                .or_insert_with(|| Found {
                    records: 1,
                    first: at,
                    feature: p.feature.clone(),
                    detail: p.detail.clone(),
                });
        }
    }

    /// Adds a tally of later records.
    pub fn merge(&mut self, later: Tally) {
        self.records += later.records;
        self.annotated += later.annotated;
        self.with_boxes_features += later.with_boxes_features;
        self.boxes += later.boxes;
        for (k, v) in later.boxes_per_image {
            *self.boxes_per_image.entry(k).or_default() += v;
        }
        for (k, v) in later.per_class {
            if self.per_class.len() < MAX_CLASSES || self.per_class.contains_key(&k) {
                *self.per_class.entry(k).or_default() += v;
            } else {
                self.other_classes += v;
            }
        }
        self.other_classes += later.other_classes;
        for (k, v) in later.image_classes {
            if self.image_classes.len() < MAX_CLASSES || self.image_classes.contains_key(&k) {
                *self.image_classes.entry(k).or_default() += v;
            }
        }
        self.with_keypoints += later.with_keypoints;
        self.with_masks += later.with_masks;
        self.with_problems += later.with_problems;
        for (k, f) in later.problems {
            self.problems
                .entry(k)
                .and_modify(|mine| mine.records += f.records)
                .or_insert(f);
        }
    }

    /// Renumbers the inputs of the problems' first records by `by` (a
    /// tally of inputs numbered from 0 merged after `by` others).
    pub fn shift_inputs(&mut self, by: u64) {
        for f in self.problems.values_mut() {
            f.first.0 += by;
        }
    }

    /// Whether any record had annotations.
    pub fn any(&self) -> bool {
        self.annotated > 0
    }

    /// The mean number of boxes per image (over records whose layout has
    /// boxes).
    pub fn mean_boxes(&self) -> f64 {
        if self.with_boxes_features == 0 {
            0.0
        } else {
            self.boxes as f64 / self.with_boxes_features as f64
        }
    }
}

fn count_class(map: &mut BTreeMap<String, u64>, dropped: &mut u64, name: &str) {
    if let Some(n) = map.get_mut(name) {
        *n += 1;
    } else if map.len() < MAX_CLASSES {
        map.insert(name.to_string(), 1);
    } else {
        *dropped += 1;
    }
}
