//! `features.json`: TFDS's feature tree (protobuf's JSON form of its
//! `Feature` message), typed. A `FeaturesDict` is a [`Kind::Dict`] whose
//! leaves are stored as Example features named by their path joined with
//! `/` (`meta/id`); a `Sequence` or `Dataset` of a dict likewise
//! (`steps/observation/image`). Class names come from the
//! `<feature>.labels.txt` files beside it.

use super::refuse;
use super::Place;
use crate::error::Result;
use serde_json::Value;

/// A feature of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// What it is.
    pub kind: Kind,
    /// TFDS's Python class (`tensorflow_datasets.core.features.image_feature.Image`).
    pub class: String,
    /// Its description, if TFDS has one.
    pub description: String,
    /// A BBoxFeature's `bboxFormat` (`REL_YXYX`, `XYWH`, …).
    pub bbox_format: Option<String>,
}

/// The kinds of TFDS features tfr knows.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A `FeaturesDict`: its features by name, in name order.
    Dict(Vec<(String, Node)>),
    /// A `Tensor` (also `Scalar`, a 0-d tensor): shape (`None` for an
    /// unknown dimension), dtype, and how it is stored (`none`: as an
    /// int64/float list or bytes; `bytes`: raw little-endian; `zlib`).
    Tensor {
        /// Dimensions; `None` where TFDS wrote -1.
        shape: Vec<Option<u64>>,
        /// `float32`, `int64`, `uint8`, `bool`, `string`, ...
        dtype: String,
        /// `none`, `bytes`, `zlib`.
        encoding: String,
    },
    /// A `ClassLabel`: an int64 class index.
    ClassLabel {
        /// How many classes.
        num_classes: u64,
        /// Their names, when a labels file gives them.
        names: Option<Vec<String>>,
    },
    /// An `Image`: encoded bytes.
    Image {
        /// `[height, width, channels]`, `None` where variable.
        shape: Vec<Option<u64>>,
        /// `uint8`, `uint16`, `float32`.
        dtype: String,
        /// `png`, `jpeg`, or empty (either).
        format: String,
    },
    /// `Text`: UTF-8 bytes.
    Text,
    /// A `Sequence` of a feature: its values stored as one longer list
    /// per leaf.
    Sequence {
        /// The feature repeated.
        feature: Box<Node>,
        /// The fixed length, when there is one.
        length: Option<u64>,
    },
    /// A `Dataset` (RLDS `steps`): a nested dataset stored as a sequence.
    Dataset {
        /// A step's features.
        feature: Box<Node>,
    },
    /// Anything else (Video, Audio, BBox, Translation...): its content as
    /// TFDS wrote it.
    Other(String),
}

/// The tree of `features.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureTree {
    /// The top `FeaturesDict` (or a single feature).
    pub root: Node,
}

/// A dimension as TFDS writes it: `"28"`, `28`, `"-1"`.
fn dimension(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn shape(v: Option<&Value>) -> Vec<Option<u64>> {
    v.and_then(|s| s.get("dimensions"))
        .and_then(Value::as_array)
        .map(|d| d.iter().map(dimension).collect())
        .unwrap_or_default()
}

fn text(v: Option<&Value>, key: &str) -> String {
    v.and_then(|x| x.get(key))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

impl Node {
    /// A node from its JSON.
    fn read(v: &Value, depth: usize) -> Result<Node> {
        if depth > 64 {
            refuse!(Metadata, "features nested more than 64 deep");
        }
        let Some(obj) = v.as_object() else {
            refuse!(Metadata, "a feature is not a JSON object");
        };
        let class = text(Some(v), "pythonClassName");
        let description = text(Some(v), "description");
        let short = class.rsplit('.').next().unwrap_or("");
        let sub = |key: &str| obj.get(key);
        let kind = if let Some(dict) = sub("featuresDict") {
            let features = dict.get("features").and_then(Value::as_object);
            let mut items = Vec::new();
            for (name, f) in features.into_iter().flatten() {
                items.push((name.clone(), Node::read(f, depth + 1)?));
            }
            items.sort_by(|a, b| a.0.cmp(&b.0));
            Kind::Dict(items)
        } else if let Some(seq) = sub("sequence") {
            let Some(inner) = seq.get("feature") else {
                refuse!(Metadata, "a Sequence without its feature");
            };
            let feature = Box::new(Node::read(inner, depth + 1)?);
            let length = seq.get("length").and_then(dimension);
            match short {
                "Dataset" => Kind::Dataset { feature },
                _ => Kind::Sequence { feature, length },
            }
        } else if let Some(c) = sub("classLabel") {
            Kind::ClassLabel {
                num_classes: c.get("numClasses").and_then(dimension).unwrap_or(0),
                names: None,
            }
        } else if let Some(i) = sub("image") {
            Kind::Image {
                shape: shape(i.get("shape")),
                dtype: text(Some(i), "dtype"),
                format: text(Some(i), "encodingFormat"),
            }
        } else if sub("text").is_some() {
            Kind::Text
        } else if let Some(b) = sub("boundingBox") {
            // A BBoxFeature is stored as a float tensor of 4 values (in
            // its `bboxFormat`'s order: REL_YXYX by default).
            let dtype = match text(Some(b), "dtype") {
                d if d.is_empty() => "float32".to_string(),
                d => d,
            };
            let dims = shape(b.get("shape"));
            Kind::Tensor {
                shape: if dims.is_empty() { vec![Some(4)] } else { dims },
                dtype,
                encoding: "none".to_string(),
            }
        } else if let Some(t) = sub("tensor") {
            let encoding = match text(Some(t), "encoding") {
                e if e.is_empty() => "none".to_string(),
                e => e,
            };
            Kind::Tensor {
                shape: shape(t.get("shape")),
                dtype: text(Some(t), "dtype"),
                encoding,
            }
        } else {
            let content = obj
                .keys()
                .find(|k| !matches!(k.as_str(), "pythonClassName" | "description"));
            Kind::Other(content.cloned().unwrap_or_default())
        };
        let bbox_format = sub("boundingBox").map(|b| match text(Some(b), "bboxFormat") {
            f if f.is_empty() => "REL_YXYX".to_string(),
            f => f,
        });
        Ok(Node {
            kind,
            class,
            description,
            bbox_format,
        })
    }

    /// The short name of its TFDS class (`Image`, `ClassLabel`, ...).
    pub fn type_name(&self) -> &str {
        match self.class.rsplit('.').next() {
            Some(s) if !s.is_empty() => s,
            _ => match &self.kind {
                Kind::Dict(_) => "FeaturesDict",
                Kind::Tensor { .. } => "Tensor",
                Kind::ClassLabel { .. } => "ClassLabel",
                Kind::Image { .. } => "Image",
                Kind::Text => "Text",
                Kind::Sequence { .. } => "Sequence",
                Kind::Dataset { .. } => "Dataset",
                Kind::Other(_) => "?",
            },
        }
    }
}

/// A leaf of the tree: the Example feature it is stored as.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf<'a> {
    /// The feature's name in the records (`meta/id`, `steps/action`).
    pub name: String,
    /// The leaf.
    pub node: &'a Node,
    /// The sequences and datasets around it, outermost first (each adds a
    /// leading dimension to the stored values).
    pub within: Vec<&'a Node>,
}

impl FeatureTree {
    /// Reads `features.json`; class names from the labels files in `place`.
    pub fn read(bytes: &[u8], place: &Place) -> Result<FeatureTree> {
        let v: Value = serde_json::from_slice(bytes)?;
        let mut tree = FeatureTree {
            root: Node::read(&v, 0)?,
        };
        let labels: Vec<String> = tree
            .leaves()
            .into_iter()
            .filter(|l| matches!(l.node.kind, Kind::ClassLabel { .. }))
            .map(|l| l.name)
            .collect();
        for name in labels {
            let file = format!("{}.labels.txt", name.replace('/', "-"));
            let Some(bytes) = place.read(&file)? else { continue };
            // As TFDS reads it: each line stripped, blank lines dropped.
            let names: Vec<String> = String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            if let Some(Kind::ClassLabel {
                names: slot,
                num_classes,
            }) = tree.leaf_mut(&name).map(|n| &mut n.kind)
            {
                if *num_classes != names.len() as u64 {
                    refuse!(
                        Metadata,
                        "{file}: {} class names, where features.json says {num_classes} classes",
                        names.len()
                    );
                }
                *slot = Some(names);
            }
        }
        Ok(tree)
    }

    /// Every leaf, with the Example feature it is stored as, in name order.
    pub fn leaves(&self) -> Vec<Leaf<'_>> {
        let mut out = Vec::new();
        walk(&self.root, String::new(), Vec::new(), &mut out);
        out
    }

    /// The leaf stored as feature `name`.
    pub fn leaf(&self, name: &str) -> Option<Leaf<'_>> {
        self.leaves().into_iter().find(|l| l.name == name)
    }

    fn leaf_mut(&mut self, name: &str) -> Option<&mut Node> {
        fn descend<'a>(node: &'a mut Node, parts: &[&str]) -> Option<&'a mut Node> {
            let inner = matches!(node.kind, Kind::Dict(_) | Kind::Sequence { .. } | Kind::Dataset { .. });
            if !inner {
                return parts.is_empty().then_some(node);
            }
            match &mut node.kind {
                Kind::Sequence { feature, .. } | Kind::Dataset { feature } => descend(feature, parts),
                Kind::Dict(items) => {
                    let (first, rest) = parts.split_first()?;
                    descend(&mut items.iter_mut().find(|(n, _)| n == first)?.1, rest)
                }
                _ => None,
            }
        }
        let parts: Vec<&str> = name.split('/').collect();
        descend(&mut self.root, &parts)
    }

    /// The paths of the `Dataset` features (`steps`), outermost first.
    pub fn dataset_paths(&self) -> Vec<String> {
        fn walk(node: &Node, path: &str, out: &mut Vec<String>) {
            match &node.kind {
                Kind::Dict(items) => {
                    for (name, child) in items {
                        walk(child, &join_path(path, name), out);
                    }
                }
                Kind::Dataset { feature } => {
                    out.push(path.to_string());
                    walk(feature, path, out);
                }
                Kind::Sequence { feature, .. } => walk(feature, path, out),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(&self.root, "", &mut out);
        out
    }

    /// The class names of the ClassLabel stored as feature `name`.
    pub fn class_names(&self, name: &str) -> Option<&[String]> {
        match &self.leaf(name)?.node.kind {
            Kind::ClassLabel { names: Some(n), .. } => Some(n),
            _ => None,
        }
    }
}

/// `path/name` (`name` at the top).
pub fn join_path(path: &str, name: &str) -> String {
    match path.is_empty() {
        true => name.to_string(),
        false => format!("{path}/{name}"),
    }
}

fn walk<'a>(node: &'a Node, path: String, within: Vec<&'a Node>, out: &mut Vec<Leaf<'a>>) {
    match &node.kind {
        Kind::Dict(items) => {
            for (name, child) in items {
                walk(child, join_path(&path, name), within.clone(), out);
            }
        }
        Kind::Sequence { feature, .. } | Kind::Dataset { feature } => {
            let mut w = within;
            w.push(node);
            walk(feature, path, w, out);
        }
        _ => out.push(Leaf {
            name: path,
            node,
            within,
        }),
    }
}
