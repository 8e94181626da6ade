//! A record's features as they are stored, without a spec (the reader's
//! `spec=None`): each feature's values of its own kind, in the record's
//! wire order; of several entries of one key the last (protobuf's
//! reading), in the place of the first.

use super::{DType, Values};
use crate::error::Result;
use crate::example::{Decoder, FeatureView, FeaturesView, MessageType};

/// Features by name, in order; `None` for a Feature with no kind set.
pub type Features = Vec<(String, Option<Values>)>;

/// One record as stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Stored {
    /// A tf.train.Example's features.
    Example(Features),
    /// A tf.train.SequenceExample: its context, and per feature list the
    /// steps' values.
    Sequence {
        /// The context features.
        context: Features,
        /// The feature lists: each step's values.
        feature_lists: Vec<(String, Vec<Option<Values>>)>,
    },
}

/// The values of one Feature (`None`: no kind set).
pub fn values(feature: &FeatureView<'_>) -> Option<Values> {
    Some(match DType::of_kind(feature.kind())? {
        DType::Int64 => Values::Int64(feature.int64s().collect()),
        DType::Float32 => Values::Float32(feature.floats().collect()),
        DType::Bytes => Values::Bytes(feature.bytes().map(<[u8]>::to_vec).collect()),
    })
}

/// Entries by name: the last of a name in the place of its first.
struct Unique<T> {
    out: Vec<(String, T)>,
    /// Name → place, once there are many (a few are found by a look).
    places: Option<std::collections::HashMap<String, usize>>,
}

impl<T> Unique<T> {
    fn new() -> Self {
        Unique {
            out: Vec::new(),
            places: None,
        }
    }

    fn set(&mut self, name: &str, value: T) {
        let found = match &self.places {
            Some(places) => places.get(name).copied(),
            None => self.out.iter().position(|(n, _)| n == name),
        };
        if let Some(i) = found {
            self.out[i].1 = value;
            return;
        }
        self.out.push((name.to_string(), value));
        if let Some(places) = &mut self.places {
            places.insert(name.to_string(), self.out.len() - 1);
        } else if self.out.len() >= 16 {
            let places = self.out.iter().enumerate().map(|(i, (n, _))| (n.clone(), i)).collect();
            self.places = Some(places);
        }
    }
}

/// The features `keep` says yes to.
fn features(map: Option<FeaturesView<'_>>, keep: &dyn Fn(&str) -> bool) -> Features {
    let mut out = Unique::new();
    for (name, feature) in map.iter().flat_map(|m| m.entries()) {
        if keep(name) {
            out.set(name, values(&feature));
        }
    }
    out.out
}

/// Decodes `payload`, a record of type `ty` (Example or SequenceExample),
/// keeping the features (and feature lists) `keep` says yes to.
pub fn decode(decoder: &mut Decoder, payload: &[u8], ty: MessageType, keep: &dyn Fn(&str) -> bool) -> Result<Stored> {
    match ty {
        MessageType::SequenceExample => {
            let seq = decoder.sequence_example(payload, false)?;
            let context = features(seq.context(), keep);
            let mut lists = Unique::new();
            for (name, list) in seq.feature_lists().iter().flat_map(|m| m.entries()) {
                if keep(name) {
                    lists.set(name, list.features().map(|f| values(&f)).collect());
                }
            }
            Ok(Stored::Sequence {
                context,
                feature_lists: lists.out,
            })
        }
        MessageType::Example => {
            let example = decoder.example(payload, false)?;
            Ok(Stored::Example(features(example.features(), keep)))
        }
        other => crate::error::bail!(
            "records of type {} are not decoded into features (read them with raw=True)",
            crate::schema::describe::type_name(other)
        ),
    }
}
