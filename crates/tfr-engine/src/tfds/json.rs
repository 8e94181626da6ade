//! A record as TFDS decodes it, as one JSON object (`to-jsonl --decode`):
//! the feature tree's dicts as objects, tensors as nested arrays by their
//! shape, bools as `true`/`false`, text as strings, a `Dataset` (RLDS
//! `steps`) as a list of step objects; images stay their encoded bytes
//! (`{"base64": ...}`). `tfds.as_numpy` gives the same values (images
//! decoded to pixels).

use super::features::{join_path, FeatureTree, Kind, Node};
use super::tensor::{decode, DType, Tensor, Values};
use crate::example::ExampleView;
use base64::Engine as _;
use std::collections::HashMap;

/// The decoded leaves of a record by feature name: the tensor, its element
/// type, and whether it is an image (written as base64 whatever its bytes).
type Decoded = HashMap<String, (Tensor, DType, bool)>;

/// Appends the object of one Example to `out` (no newline). An error says
/// which feature does not decode.
pub fn record(tree: &FeatureTree, example: &ExampleView<'_>, out: &mut Vec<u8>) -> Result<(), String> {
    let mut stored = HashMap::new();
    for (name, v) in example.features().iter().flat_map(|f| f.entries()) {
        stored.insert(name, v);
    }
    let mut tensors: Decoded = HashMap::new();
    for leaf in tree.leaves() {
        let Some(v) = stored.get(leaf.name.as_str()) else {
            continue;
        };
        let t = decode(&leaf, v).map_err(|e| format!("feature {}: {e}", leaf.name))?;
        let image = matches!(leaf.node.kind, Kind::Image { .. });
        tensors.insert(leaf.name.clone(), (t, dtype_of(&leaf.node.kind), image));
    }
    // A Dataset's features all hold its number of steps (as TFDS requires).
    for path in tree.dataset_paths() {
        let prefix = format!("{path}/");
        let mut steps: Option<(usize, &str)> = None;
        for (name, (t, _, _)) in tensors.iter().filter(|(n, _)| n.starts_with(&prefix)) {
            let n = t.shape.first().copied().unwrap_or(0);
            match steps {
                Some((m, other)) if m != n => {
                    return Err(format!("{path}: feature {name} has {n} steps where {other} has {m}"));
                }
                _ => steps = Some((n, name)),
            }
        }
    }
    write_node(&tree.root, "", None, &tensors, out);
    Ok(())
}

/// The element type a leaf's values are written as.
fn dtype_of(kind: &Kind) -> DType {
    match kind {
        Kind::Tensor { dtype, .. } => DType::parse(dtype).unwrap_or(DType::String),
        Kind::ClassLabel { .. } => DType::Int(8),
        _ => DType::String,
    }
}

/// Writes `node` at `path`; `step`: the index of the step being written
/// inside a Dataset (each leaf then gives its slice along the first axis).
fn write_node(node: &Node, path: &str, step: Option<usize>, tensors: &Decoded, out: &mut Vec<u8>) {
    match &node.kind {
        Kind::Dict(items) => {
            out.push(b'{');
            for (i, (name, child)) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(serde_json::to_string(name).unwrap_or_default().as_bytes());
                out.push(b':');
                write_node(child, &join_path(path, name), step, tensors, out);
            }
            out.push(b'}');
        }
        Kind::Sequence { feature, .. } => write_node(feature, path, step, tensors, out),
        Kind::Dataset { feature } if step.is_none() => {
            let steps = first_leaf_len(feature, path, tensors).unwrap_or(0);
            out.push(b'[');
            for i in 0..steps {
                if i > 0 {
                    out.push(b',');
                }
                write_node(feature, path, Some(i), tensors, out);
            }
            out.push(b']');
        }
        Kind::Dataset { feature } => write_node(feature, path, step, tensors, out),
        _ => match tensors.get(path) {
            None => out.extend_from_slice(b"null"),
            Some((t, dtype, image)) => match step {
                None => write_tensor(&t.values, &t.shape, 0, (*dtype, *image), out),
                Some(i) => {
                    let inner: usize = t.shape.iter().skip(1).product();
                    match t.shape.first() {
                        Some(&n) if i < n => write_tensor(&t.values, &t.shape[1..], i * inner, (*dtype, *image), out),
                        _ => out.extend_from_slice(b"null"),
                    }
                }
            },
        },
    }
}

/// The length of the first leaf under `node` (a Dataset's steps).
fn first_leaf_len(node: &Node, path: &str, tensors: &Decoded) -> Option<usize> {
    match &node.kind {
        Kind::Dict(items) => items
            .iter()
            .find_map(|(name, child)| first_leaf_len(child, &join_path(path, name), tensors)),
        Kind::Sequence { feature, .. } | Kind::Dataset { feature } => first_leaf_len(feature, path, tensors),
        _ => tensors.get(path).and_then(|(t, _, _)| t.shape.first().copied()),
    }
}

/// Nested arrays of `shape` from the values at `start`.
pub(super) fn write_tensor(values: &Values, shape: &[usize], start: usize, dtype: (DType, bool), out: &mut Vec<u8>) {
    let Some((&n, rest)) = shape.split_first() else {
        return write_value(values, start, dtype, out);
    };
    let inner: usize = rest.iter().product();
    out.push(b'[');
    for i in 0..n {
        if i > 0 {
            out.push(b',');
        }
        write_tensor(values, rest, start + i * inner, dtype, out);
    }
    out.push(b']');
}

fn write_value(values: &Values, i: usize, (dtype, image): (DType, bool), out: &mut Vec<u8>) {
    match values {
        Values::Int(v) => out.extend_from_slice(itoa::Buffer::new().format(v[i]).as_bytes()),
        Values::UInt(v) => out.extend_from_slice(itoa::Buffer::new().format(v[i]).as_bytes()),
        Values::Bool(v) => out.extend_from_slice(if v[i] { b"true" } else { b"false" }),
        Values::Float(v) => {
            let x = v[i];
            match (x.is_finite(), dtype) {
                (false, _) if x.is_nan() => out.extend_from_slice(b"\"NaN\""),
                (false, _) => out.extend_from_slice(if x > 0.0 { b"\"Infinity\"" } else { b"\"-Infinity\"" }),
                // float64, and float16/bfloat16 exactly (their values are
                // doubles' with few digits: numpy's tolist() gives the same).
                (true, DType::Float(8) | DType::Float(2) | DType::BFloat16) => {
                    out.extend_from_slice(ryu::Buffer::new().format(x).as_bytes())
                }
                (true, _) => out.extend_from_slice(ryu::Buffer::new().format(x as f32).as_bytes()),
            }
        }
        Values::Bytes(v) => match std::str::from_utf8(&v[i]).ok().filter(|_| !image) {
            Some(s) => out.extend_from_slice(serde_json::to_string(s).unwrap_or_default().as_bytes()),
            None => {
                out.extend_from_slice(b"{\"base64\":\"");
                out.extend_from_slice(base64::engine::general_purpose::STANDARD.encode(&v[i]).as_bytes());
                out.extend_from_slice(b"\"}");
            }
        },
    }
}
