//! `--bbox`, `--label-map`, `--highlight`: what to draw over pictures
//! (`tfr report`, `tfr view`) and what the annotation checks read
//! (`tfr validate`), as [`tfr_engine::annotate::Options`].

use clap::Args;
use std::collections::HashMap;

/// The annotation flags.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct AnnotateArgs {
    /// The boxes are PREFIX/{xmin,ymin,xmax,ymax} (normalised, or pixels
    /// with image/width and image/height), or PREFIX is one float list of
    /// [ymin, xmin, ymax, xmax] per box (TFDS's objects/bbox). Default: the
    /// Object Detection API's image/object/bbox, else any */xmin with its
    /// siblings, else a */bbox float list.
    #[arg(long, value_name = "PREFIX", help_heading = "Annotations")]
    pub(crate) bbox: Option<String>,

    /// Class ids → names from this label map (the Object Detection API's
    /// StringIntLabelMap, label_map.pbtxt); a TFDS folder's ClassLabel
    /// names are used without it.
    #[arg(long, value_name = "FILE", help_heading = "Annotations")]
    pub(crate) label_map: Option<std::path::PathBuf>,

    /// Draw these classes highlighted and the others dimmed (names or
    /// ids, comma-separated: --highlight car,bus,3).
    #[arg(long, value_name = "CLASSES", value_delimiter = ',', help_heading = "Annotations")]
    pub(crate) highlight: Vec<String>,
}

impl AnnotateArgs {
    /// The options these flags say, with a TFDS folder's class names
    /// (`tfds::inputs::class_names`); a label map that does not load is an
    /// error.
    pub(crate) fn options(
        &self,
        classes: Option<HashMap<String, Vec<String>>>,
    ) -> anyhow::Result<tfr_engine::annotate::Options> {
        let label_map = self
            .label_map
            .as_deref()
            .map(tfr_engine::annotate::LabelMap::load)
            .transpose()?;
        Ok(tfr_engine::annotate::Options {
            bbox: self.bbox.clone(),
            label_map,
            classes: classes.unwrap_or_default(),
            highlight: self
                .highlight
                .iter()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .collect(),
        })
    }
}
