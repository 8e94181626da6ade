//! The flags that say where a dataset's annotations are and how to show
//! them (`tfr report`, `tfr view`, `tfr validate`, `tfr stats`), turned
//! into the engine's [`crate::annotate::Options`].

use clap::Args;
use std::collections::HashMap;

/// Where the boxes are and what their class ids mean.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct AnnotateArgs {
    /// The boxes' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object
    /// Detection API's image/object/bbox), or PREFIX itself holding
    /// [ymin, xmin, ymax, xmax] per box (as TFDS's objects/bbox). Without
    /// it both layouts are found by their names.
    #[arg(long, value_name = "PREFIX")]
    pub(crate) bbox: Option<String>,

    /// A label map (the Object Detection API's StringIntLabelMap in text
    /// format, label_map.pbtxt): class ids are shown by its names, and an
    /// id it lacks is an annotation problem.
    #[arg(long, value_name = "FILE")]
    pub(crate) label_map: Option<std::path::PathBuf>,
}

/// Which classes are drawn highlighted.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct HighlightArg {
    /// Draw the boxes of these classes highlighted and the others dimmed
    /// (names or ids, comma-separated: --highlight person,car).
    #[arg(long, value_name = "CLASSES", value_delimiter = ',')]
    pub(crate) highlight: Vec<String>,
}

impl AnnotateArgs {
    /// The engine's options: the label map read, with `classes` (a TFDS
    /// folder's ClassLabel names by feature) and `highlight`.
    pub(crate) fn options(
        &self,
        files: &[std::ffi::OsString],
        classes: Option<&HashMap<String, Vec<String>>>,
        highlight: &[String],
    ) -> anyhow::Result<crate::annotate::Options> {
        let label_map = self
            .label_map
            .as_deref()
            .map(crate::annotate::LabelMap::load)
            .transpose()?;
        Ok(crate::annotate::Options {
            bbox: self.bbox.clone(),
            label_map,
            classes: classes.cloned().unwrap_or_default(),
            bbox_formats: crate::tfds::inputs::bbox_formats(files),
            highlight: highlight
                .iter()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .collect(),
        })
    }
}
