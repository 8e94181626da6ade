//! TensorFlow Datasets (TFDS) version folders, as TFDS writes them:
//! `<data_dir>/<name>[/<config>]/<version>/` holds `dataset_info.json`
//! (the splits, each with its shards' record counts), `features.json` (the
//! feature tree, [`features`]), `<feature>.labels.txt` (class names) and
//! the shards, named by the split's `filepathTemplate`
//! (`mnist-train.tfrecord-00000-of-00001`).
//!
//! [`Folder::open`] reads the metadata (never the shards); [`split`] turns
//! a split and TFDS's slice syntax (`train[:10%]`) into the inputs to read.

pub mod decode;
pub mod features;
pub mod inputs;
pub mod json;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod split;
pub mod tensor;
pub mod tensorproto;

use crate::error::{Context, Result};
use crate::io::input::{escape_name, show_path};
use crate::io::Input;
use serde::Deserialize;
use std::path::PathBuf;

/// What is wrong with a TFDS folder or with how it is asked for: the
/// engine's [`crate::Error::Tfds`], told apart by its variant; each holds
/// the whole message (naming the folder or file, the split spec, the
/// record and feature).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TfdsError {
    /// `dataset_info.json`, `features.json`, a labels file or a shard that
    /// is not as TFDS writes it, or that tfr refuses (forged sizes, shard
    /// names leaving the folder, non-TFRecord shards).
    Metadata(String),
    /// A `--split` spec TFDS's parser refuses, or one that selects records
    /// the split does not have.
    Split(String),
    /// An argument that must be a TFDS folder and is not one.
    NotAFolder(String),
    /// A record's feature that does not decode as `features.json` says.
    Decode(String),
}

impl std::fmt::Display for TfdsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TfdsError::Metadata(m) | TfdsError::Split(m) | TfdsError::NotAFolder(m) | TfdsError::Decode(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for TfdsError {}

/// Returns a [`TfdsError`] of that variant with a formatted message.
macro_rules! refuse {
    ($variant:ident, $($arg:tt)*) => {
        return Err(crate::tfds::TfdsError::$variant(format!($($arg)*)).into())
    };
}
pub(crate) use refuse;

/// The most shards a split may list (TFDS's largest datasets have tens
/// of thousands).
const MAX_SHARDS: usize = 1 << 20;

/// The largest metadata file read (`dataset_info.json` of a dataset with
/// thousands of shards is a few hundred KB).
const MAX_METADATA: u64 = 64 << 20;

/// Where a folder is: a local directory or an object-store prefix
/// (`gs://bucket/mnist/3.0.1/`, with the `/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A local directory.
    Dir(PathBuf),
    /// A URL prefix ending with `/`.
    Prefix(String),
}

impl Place {
    /// The input of a file of the folder.
    pub fn file(&self, name: &str) -> Input {
        match self {
            Place::Dir(d) => Input::Path(d.join(name)),
            Place::Prefix(p) => Input::Url(format!("{p}{name}")),
        }
    }

    /// How the folder is named in messages.
    pub fn shown(&self) -> String {
        match self {
            Place::Dir(d) => show_path(d),
            // A signed URL's query (a credential) is not shown.
            Place::Prefix(p) => escape_name(crate::io::remote::redact_text(p).as_bytes()),
        }
    }

    /// The bytes of a file of the folder, `None` when there is no such file.
    pub fn read(&self, name: &str) -> Result<Option<Vec<u8>>> {
        let input = self.file(name);
        let shown = input.display();
        let reader = match self {
            Place::Dir(d) => match std::fs::File::open(d.join(name)) {
                Ok(f) => Box::new(f) as Box<dyn std::io::Read + Send>,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(crate::Error::from(e)).with_context(|| format!("{shown}: cannot read")),
            },
            Place::Prefix(_) => match input.open_decompressed() {
                Ok(r) => r,
                Err(e) if crate::io::remote::is_not_found(&e) => return Ok(None),
                Err(e) => return Err(e.into()),
            },
        };
        let bytes = crate::io::aux_file::read_at_most(reader, MAX_METADATA, 0)
            .with_context(|| format!("{shown}: cannot read"))?;
        match bytes {
            Some(b) => Ok(Some(b)),
            None => refuse!(
                Metadata,
                "{shown}: over {MAX_METADATA} bytes, too large for TFDS metadata"
            ),
        }
    }

    /// The place an argument names when it is a directory or a URL prefix
    /// (a URL ending with `/`); `None` for anything else.
    pub fn of_arg(arg: &std::ffi::OsStr) -> Option<Place> {
        let bytes = arg.as_encoded_bytes();
        if crate::io::remote::parse(bytes).is_some() {
            let s = arg.to_str()?;
            return s.ends_with('/').then(|| Place::Prefix(s.to_string()));
        }
        let path = std::path::Path::new(arg);
        path.is_dir().then(|| Place::Dir(path.to_path_buf()))
    }
}

/// A number that TFDS's JSON writes as a string (`"10000"`, protobuf's
/// JSON form of int64) or, in older files, as a number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count(pub u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Count, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Number(u64),
            Text(String),
        }
        match Either::deserialize(d)? {
            Either::Number(n) => Ok(Count(n)),
            Either::Text(s) => s
                .parse()
                .map(Count)
                .map_err(|_| serde::de::Error::custom(format!("not a count: {s:?}"))),
        }
    }
}

/// `dataset_info.json`: what tfr reads of it (protobuf's JSON form of
/// TFDS's `DatasetInfo`; unknown keys are ignored).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[non_exhaustive]
pub struct DatasetInfo {
    /// The dataset's name (`mnist`).
    pub name: String,
    /// The builder config's name, if any.
    pub config_name: String,
    /// The config's description.
    pub config_description: String,
    /// `3.0.1`.
    pub version: String,
    /// What it is.
    pub description: String,
    /// How to cite it (BibTeX).
    pub citation: String,
    /// Where its homepage is.
    pub location: Location,
    /// `tfrecord` (the default), `array_record`, `parquet`, ...
    pub file_format: String,
    /// The splits, in the order TFDS wrote them.
    pub splits: Vec<SplitInfo>,
    /// `(input, label)` feature names, if the dataset is supervised.
    pub supervised_keys: Option<serde_json::Value>,
}

/// The `location` of a dataset: its homepage.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Location {
    /// Homepage URLs.
    pub urls: Vec<String>,
}

/// A split of `dataset_info.json`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SplitInfo {
    /// `train`, `test`, ...
    pub name: String,
    /// Records in each shard, in shard order.
    pub shard_lengths: Vec<Count>,
    /// Bytes of all its shards.
    pub num_bytes: Count,
    /// How its shards are named (`{DATASET}-{SPLIT}.{FILEFORMAT}-{SHARD_X_OF_Y}`).
    pub filepath_template: String,
}

impl SplitInfo {
    /// Records in the split.
    pub fn records(&self) -> u64 {
        self.shard_lengths.iter().map(|c| c.0).sum()
    }
}

/// The template TFDS uses when `dataset_info.json` names none.
const DEFAULT_TEMPLATE: &str = "{DATASET}-{SPLIT}.{FILEFORMAT}-{SHARD_X_OF_Y}";

/// A TFDS version folder: its metadata, read once.
#[derive(Clone, Debug)]
pub struct Folder {
    /// Where it is.
    pub place: Place,
    /// `dataset_info.json`.
    pub info: DatasetInfo,
    /// `features.json`, if there is one.
    pub features: Option<features::FeatureTree>,
}

impl Folder {
    /// The folder at `place` if it holds a `dataset_info.json` (`None`
    /// when it does not: a plain directory of TFRecord files). A
    /// `dataset_info.json` or `features.json` that does not read is an
    /// error naming the file.
    pub fn open(place: &Place) -> Result<Option<Folder>> {
        let Some(bytes) = place.read("dataset_info.json")? else {
            return Ok(None);
        };
        let shown = place.file("dataset_info.json").display();
        let info: DatasetInfo = serde_json::from_slice(&bytes)
            .map_err(|e| crate::Error::msg(format!("{shown}: not a TFDS dataset_info.json ({e})")))?;
        if info.splits.is_empty() {
            refuse!(
                Metadata,
                "{shown}: no splits (the dataset was not prepared, or not by TFDS)"
            );
        }
        let mut names = std::collections::HashSet::new();
        for s in &info.splits {
            if !names.insert(s.name.as_str()) {
                refuse!(Metadata, "{shown}: the split {:?} is listed twice", s.name);
            }
            if s.shard_lengths.len() > MAX_SHARDS {
                refuse!(
                    Metadata,
                    "{shown}: split {:?} lists {} shards, more than tfr takes ({MAX_SHARDS})",
                    s.name,
                    s.shard_lengths.len()
                );
            }
            if s.shard_lengths
                .iter()
                .try_fold(0u64, |t, c| t.checked_add(c.0))
                .is_none()
            {
                refuse!(
                    Metadata,
                    "{shown}: split {:?}: its shards' record counts add up to more than 2^64",
                    s.name
                );
            }
        }
        let features = match place.read("features.json")? {
            None => None,
            Some(bytes) => Some(
                features::FeatureTree::read(&bytes, place)
                    .with_context(|| format!("{}: not a TFDS features.json", place.file("features.json").display()))?,
            ),
        };
        Ok(Some(Folder {
            place: place.clone(),
            info,
            features,
        }))
    }

    /// The split named `name`.
    pub fn split(&self, name: &str) -> Result<&SplitInfo> {
        self.info.splits.iter().find(|s| s.name == name).with_context(|| {
            format!(
                "--split {name}: {} has no such split (it has {})",
                self.title(),
                self.split_names().join(", ")
            )
        })
    }

    /// The splits' names, in order.
    pub fn split_names(&self) -> Vec<&str> {
        self.info.splits.iter().map(|s| s.name.as_str()).collect()
    }

    /// `mnist 3.0.1` (with the config: `glue/cola 2.0.0`).
    pub fn title(&self) -> String {
        let i = &self.info;
        match i.config_name.is_empty() {
            true => format!("{} {}", i.name, i.version),
            false => format!("{}/{} {}", i.name, i.config_name, i.version),
        }
    }

    /// The file format of the shards: only TFRecord shards are read.
    pub fn check_format(&self) -> Result<()> {
        match self.info.file_format.as_str() {
            "" | "tfrecord" => Ok(()),
            other => refuse!(Metadata,
                "{}: the shards are {other}, not TFRecord (`fileFormat` in dataset_info.json); tfr reads TFRecord shards",
                self.place.shown()
            ),
        }
    }

    /// The names of a split's shard files, in order.
    pub fn shard_names(&self, split: &SplitInfo) -> Result<Vec<String>> {
        let template = match split.filepath_template.as_str() {
            "" => DEFAULT_TEMPLATE,
            t => t,
        };
        let n = split.shard_lengths.len();
        let format = match self.info.file_format.as_str() {
            "" => "tfrecord",
            f => f,
        };
        (0..n)
            .map(|k| {
                shard_name(template, &self.info.name, &split.name, format, k, n).with_context(|| {
                    format!(
                        "{}: split {}: filepathTemplate {template:?}",
                        self.place.shown(),
                        split.name
                    )
                })
            })
            .collect()
    }
}

/// A shard's file name from TFDS's template: `{DATASET}`, `{SPLIT}`,
/// `{FILEFORMAT}`, `{SHARD_INDEX}` (5 digits), `{NUM_SHARDS}` (5 digits),
/// `{SHARD_X_OF_Y}` (`00003-of-00010`).
pub fn shard_name(template: &str, dataset: &str, split: &str, format: &str, k: usize, n: usize) -> Result<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            refuse!(Metadata, "an unclosed '{{'");
        };
        let key = &rest[open + 1..open + close];
        match key {
            "DATASET" => out.push_str(dataset),
            "SPLIT" => out.push_str(split),
            "FILEFORMAT" => out.push_str(format),
            "SHARD_INDEX" => out.push_str(&format!("{k:05}")),
            "NUM_SHARDS" => out.push_str(&format!("{n:05}")),
            "SHARD_X_OF_Y" => out.push_str(&format!("{k:05}-of-{n:05}")),
            other => refuse!(Metadata, "an unknown placeholder {{{other}}}"),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    // A shard is a file of the folder (or below it), never outside it.
    if out.starts_with('/') || out.split(['/', '\\']).any(|part| part == ".." || part.is_empty()) {
        refuse!(Metadata, "the shard name {out:?} leaves the folder");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_names_follow_the_template() {
        let t = DEFAULT_TEMPLATE;
        assert_eq!(
            shard_name(t, "mnist", "train", "tfrecord", 3, 10).unwrap(),
            "mnist-train.tfrecord-00003-of-00010"
        );
        let t = "{SPLIT}/{SHARD_INDEX}-{NUM_SHARDS}.{FILEFORMAT}";
        assert_eq!(
            shard_name(t, "x", "test", "tfrecord", 1, 2).unwrap(),
            "test/00001-00002.tfrecord"
        );
        assert!(shard_name("{NOPE}", "x", "t", "f", 0, 1).is_err());
        assert!(shard_name("{DATASET", "x", "t", "f", 0, 1).is_err());
    }

    #[test]
    fn counts_read_as_strings_or_numbers() {
        let s: SplitInfo =
            serde_json::from_str(r#"{"name": "a", "shardLengths": ["3", 4], "numBytes": "10"}"#).unwrap();
        assert_eq!(s.records(), 7);
        assert_eq!(s.num_bytes, Count(10));
        assert!(serde_json::from_str::<SplitInfo>(r#"{"shardLengths": ["x"]}"#).is_err());
    }
}
