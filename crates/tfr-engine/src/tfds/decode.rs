//! `--decode` (`cat`, `head`, `to-jsonl`): records written as their
//! authors' tools decode them, one JSON object a line, for reading (not
//! for `from-jsonl`).
//! - Of a TFDS dataset folder, as TFDS decodes them ([`super::json`]).
//! - Of plain inputs, in the natural JSON mapping, with every bytes value
//!   that is a tensor serialized by `tf.io.serialize_tensor` (a
//!   TensorProto, [`super::tensorproto`]) written as its values: nested
//!   arrays by its shape (a scalar bare), as `tf.io.parse_tensor` gives
//!   them.

use super::features::FeatureTree;
use super::json::write_tensor;
use super::TfdsError;
use crate::example::{self, Decoder, Format, Look, MessageType, Out};
use crate::{Error, Result};

/// How `--decode` writes records.
pub enum Decoding {
    /// By the feature tree of a TFDS folder.
    Tfds(FeatureTree),
    /// Plain inputs: serialized tensors decoded.
    Tensors,
}

impl Decoding {
    /// The decoding of the arguments: by features.json when a TFDS folder
    /// is among them, else of serialized tensors.
    pub fn of(files: &[std::ffi::OsString]) -> Result<Decoding> {
        let is_folder = |arg: &&std::ffi::OsString| {
            super::Place::of_arg(arg).is_some_and(|p| matches!(super::Folder::open(&p), Ok(Some(_))))
        };
        let folders = files.iter().filter(is_folder).count();
        if folders > 0 && folders < files.len() {
            // One decoding per run: a plain file's records would be read by
            // the folder's features.json, their own features lost.
            return Err(super::TfdsError::NotAFolder(
                "--decode: a TFDS folder and other inputs together (each is decoded its own way): decode them apart"
                    .into(),
            )
            .into());
        }
        Ok(match folders > 0 {
            true => Decoding::Tfds(super::inputs::feature_tree(files, "--decode")?),
            false => Decoding::Tensors,
        })
    }

    /// Whether records are decoded by a TFDS folder's features (which
    /// `--features`/`--exclude` do not apply to).
    pub fn is_tfds(&self) -> bool {
        matches!(self, Decoding::Tfds(_))
    }

    /// Appends one record and a newline to `out`; `look` selects the
    /// features of plain inputs. An error names the record (`name`, its
    /// index and offset).
    #[allow(clippy::too_many_arguments)]
    pub fn line(
        &self,
        decoder: &mut Decoder,
        look: &Look<'_>,
        (ty, strict): (MessageType, bool),
        payload: &[u8],
        (name, index, offset): (&str, u64, u64),
        out: &mut Out<'_>,
    ) -> Result<()> {
        let failed = |e: String| {
            Error::Tfds(TfdsError::Decode(format!(
                "{name}: record {index} at byte {offset}: --decode: {e}"
            )))
        };
        match self {
            Decoding::Tfds(tree) => {
                let example = decoder.example(payload, strict).map_err(|e| failed(e.to_string()))?;
                let mut line = Vec::new();
                super::json::record(tree, &example, &mut line).map_err(failed)?;
                out.extend_from_slice(&line);
                out.push(b'\n');
            }
            Decoding::Tensors => {
                if matches!(ty, MessageType::Raw) {
                    return Err(failed("a raw payload has no features to decode".into()));
                }
                let hook = |v: &[u8], out: &mut Vec<u8>| tensor_json(v, out);
                let look = Look {
                    bytes: Some(&hook),
                    ..*look
                };
                example::render_out(decoder, Format::Json, &look, ty, strict, payload, out)
                    .map_err(|e| failed(e.to_string()))?;
            }
        }
        Ok(())
    }
}

/// The values of a serialized TensorProto of numbers (or bools) as nested
/// JSON arrays (a 0-d tensor: its one value), when it is one of at most
/// `max` elements (see [`super::tensorproto::parse_summary`]).
pub fn tensor_values(v: &[u8], max: usize) -> Option<Vec<u8>> {
    let (t, dtype) = super::tensorproto::parse_summary(v)?;
    if dtype == super::tensor::DType::String || t.values.len() > max {
        return None;
    }
    let mut out = Vec::new();
    write_tensor(&t.values, &t.shape, 0, (dtype, false), &mut out);
    Some(out)
}

/// Appends `v` as the values of the tensor it serializes, when it is one
/// (see [`super::tensorproto::parse`]); false, writing nothing, when not.
pub fn tensor_json(v: &[u8], out: &mut Vec<u8>) -> bool {
    match super::tensorproto::parse(v) {
        Some((t, dtype)) => {
            write_tensor(&t.values, &t.shape, 0, (dtype, false), out);
            true
        }
        None => false,
    }
}
