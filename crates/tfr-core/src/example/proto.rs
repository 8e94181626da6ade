//! Owned `tf.train.*` message types (prost derive on hand-written structs).
//!
//! The schema is proto/feature.proto and proto/example.proto. Maps are kept
//! as ordered lists of entry messages (a `map<K, V>` field is wire-identical
//! to `repeated Entry { K key = 1; V value = 2; }`), so decoding keeps wire
//! order and duplicates, and encoding writes entries in the order given.
//!
//! Encoding is byte-identical to Python protobuf (upb) for the same message
//! when entries are built with [`FeatureEntry::new`] / [`FeatureListEntry::new`]:
//! upb writes a map entry's key and value even when empty, which the
//! `Option` fields reproduce, and packs repeated numbers.

/// `tf.train.BytesList`: a list of byte strings.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BytesList {
    /// The values.
    #[prost(bytes = "vec", repeated, tag = "1")]
    pub value: Vec<Vec<u8>>,
}

/// `tf.train.FloatList`: a list of float32 values (packed on the wire).
#[derive(Clone, PartialEq, prost::Message)]
pub struct FloatList {
    /// The values.
    #[prost(float, repeated, tag = "1")]
    pub value: Vec<f32>,
}

/// `tf.train.Int64List`: a list of int64 values (packed on the wire).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Int64List {
    /// The values.
    #[prost(int64, repeated, tag = "1")]
    pub value: Vec<i64>,
}

/// `tf.train.Feature`: one list, or none (`kind` unset).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Feature {
    /// Which list, with its values.
    #[prost(oneof = "feature::Kind", tags = "1, 2, 3")]
    pub kind: Option<feature::Kind>,
}

/// The `kind` oneof of [`Feature`].
pub mod feature {
    /// The list a [`Feature`](super::Feature) holds.
    #[derive(Clone, PartialEq, prost::Oneof)]
    pub enum Kind {
        /// `bytes_list = 1`.
        #[prost(message, tag = "1")]
        BytesList(super::BytesList),
        /// `float_list = 2`.
        #[prost(message, tag = "2")]
        FloatList(super::FloatList),
        /// `int64_list = 3`.
        #[prost(message, tag = "3")]
        Int64List(super::Int64List),
    }
}

impl Feature {
    /// A feature holding byte strings.
    pub fn bytes(value: Vec<Vec<u8>>) -> Self {
        Feature {
            kind: Some(feature::Kind::BytesList(BytesList { value })),
        }
    }

    /// A feature holding float32 values.
    pub fn floats(value: Vec<f32>) -> Self {
        Feature {
            kind: Some(feature::Kind::FloatList(FloatList { value })),
        }
    }

    /// A feature holding int64 values.
    pub fn int64s(value: Vec<i64>) -> Self {
        Feature {
            kind: Some(feature::Kind::Int64List(Int64List { value })),
        }
    }
}

/// One entry of the `Features.feature` map.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FeatureEntry {
    /// The feature name (`Some` even when empty, to be written like upb).
    #[prost(string, optional, tag = "1")]
    pub key: Option<String>,
    /// The feature (`Some` even when empty, to be written like upb).
    #[prost(message, optional, tag = "2")]
    pub value: Option<Feature>,
}

impl FeatureEntry {
    /// An entry encoded as upb encodes map entries (key and value always).
    pub fn new(key: impl Into<String>, value: Feature) -> Self {
        FeatureEntry {
            key: Some(key.into()),
            value: Some(value),
        }
    }
}

/// `tf.train.Features`: a map from feature name to [`Feature`].
#[derive(Clone, PartialEq, prost::Message)]
pub struct Features {
    /// The map entries, in wire order.
    #[prost(message, repeated, tag = "1")]
    pub feature: Vec<FeatureEntry>,
}

/// `tf.train.FeatureList`: a sequence of [`Feature`]s (one per step).
#[derive(Clone, PartialEq, prost::Message)]
pub struct FeatureList {
    /// The features, in order.
    #[prost(message, repeated, tag = "1")]
    pub feature: Vec<Feature>,
}

/// One entry of the `FeatureLists.feature_list` map.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FeatureListEntry {
    /// The feature list name (`Some` even when empty, to be written like upb).
    #[prost(string, optional, tag = "1")]
    pub key: Option<String>,
    /// The feature list (`Some` even when empty, to be written like upb).
    #[prost(message, optional, tag = "2")]
    pub value: Option<FeatureList>,
}

impl FeatureListEntry {
    /// An entry encoded as upb encodes map entries (key and value always).
    pub fn new(key: impl Into<String>, value: FeatureList) -> Self {
        FeatureListEntry {
            key: Some(key.into()),
            value: Some(value),
        }
    }
}

/// `tf.train.FeatureLists`: a map from name to [`FeatureList`].
#[derive(Clone, PartialEq, prost::Message)]
pub struct FeatureLists {
    /// The map entries, in wire order.
    #[prost(message, repeated, tag = "1")]
    pub feature_list: Vec<FeatureListEntry>,
}

/// `tf.train.Example`: one record of named features.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Example {
    /// The features (`None`: field absent, prints as an empty message).
    #[prost(message, optional, tag = "1")]
    pub features: Option<Features>,
}

/// `tf.train.SequenceExample`: context features plus feature lists.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SequenceExample {
    /// Features of the whole sequence.
    #[prost(message, optional, tag = "1")]
    pub context: Option<Features>,
    /// Per-step features, by name.
    #[prost(message, optional, tag = "2")]
    pub feature_lists: Option<FeatureLists>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    /// Bytes produced by Python protobuf 7.36.2 (upb) `SerializeToString()`.
    #[test]
    fn encodes_like_upb() {
        fn hex(m: &impl Message) -> String {
            m.encode_to_vec().iter().map(|b| format!("{b:02x}")).collect()
        }
        let features = |entries: Vec<FeatureEntry>| Example {
            features: Some(Features { feature: entries }),
        };
        // Example(features=Features(feature={"": Feature()}))
        let e = features(vec![FeatureEntry::new("", Feature::default())]);
        assert_eq!(hex(&e), "0a060a040a001200");
        // {"a": Feature(int64_list=Int64List())}
        let e = features(vec![FeatureEntry::new("a", Feature::int64s(vec![]))]);
        assert_eq!(hex(&e), "0a090a070a016112021a00");
        // {"a": Feature(float_list=FloatList(value=[1, 2]))}
        let e = features(vec![FeatureEntry::new("a", Feature::floats(vec![1.0, 2.0]))]);
        assert_eq!(hex(&e), "0a130a110a0161120c120a0a080000803f00000040");
        // Example(features=Features())
        assert_eq!(hex(&features(vec![])), "0a00");
        // SequenceExample(context=Features(), feature_lists={"x": FeatureList()})
        let s = SequenceExample {
            context: Some(Features::default()),
            feature_lists: Some(FeatureLists {
                feature_list: vec![FeatureListEntry::new("x", FeatureList::default())],
            }),
        };
        assert_eq!(hex(&s), "0a0012070a050a01781200");
        // {"": Feature(), "b": Feature(bytes_list=BytesList(value=[b""]))}
        let e = features(vec![
            FeatureEntry::new("", Feature::default()),
            FeatureEntry::new("b", Feature::bytes(vec![vec![]])),
        ]);
        assert_eq!(hex(&e), "0a110a040a0012000a090a016212040a020a00");
    }
}
