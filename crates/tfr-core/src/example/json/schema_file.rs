//! `from-jsonl --schema`: the kinds a `tfr schema --format json` file forces.

use crate::example::view::Kind;
use crate::example::MessageType;
use std::collections::HashMap;

/// Feature kinds forced by `--schema` (the output of `tfr schema --format
/// json`). Only the `kind` of each feature is read; a kind that is absent,
/// `"conflict"`, a list or anything else leaves the feature to inference.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    /// The schema's `type`, when given.
    pub message: Option<MessageType>,
    /// Example features (an ExampleListWithContext's examples).
    pub features: HashMap<String, Kind>,
    /// SequenceExample / ExampleListWithContext context features.
    pub context: HashMap<String, Kind>,
    /// SequenceExample feature lists.
    pub feature_lists: HashMap<String, Kind>,
}

impl Schema {
    /// Reads the JSON document written by `tfr schema --format json`.
    pub fn parse(text: &str) -> Result<Schema, String> {
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let obj = doc.as_object().ok_or("not a JSON object")?;
        let message = match obj.get("type").and_then(|t| t.as_str()) {
            Some("example") => Some(MessageType::Example),
            Some("sequence") | Some("sequence_example") => Some(MessageType::SequenceExample),
            Some("elwc") => Some(MessageType::Elwc),
            _ => None,
        };
        let kinds = |name: &str| -> Result<HashMap<String, Kind>, String> {
            let mut map = HashMap::new();
            let Some(section) = obj.get(name) else {
                return Ok(map);
            };
            let section = section
                .as_object()
                .ok_or_else(|| format!("\"{name}\" is not an object"))?;
            for (key, info) in section {
                let kind = match info.get("kind").and_then(|k| k.as_str()) {
                    Some("int64") => Kind::Int64,
                    Some("float") => Kind::Float,
                    Some("bytes") => Kind::Bytes,
                    None | Some("none" | "conflict") => continue,
                    Some(other) => {
                        return Err(format!(
                            "\"{name}\".\"{key}\": kind \"{other}\" is none of int64, float, bytes (or none, conflict)"
                        ))
                    }
                };
                map.insert(key.clone(), kind);
            }
            Ok(map)
        };
        // An ExampleListWithContext's examples are read as Examples.
        let features = match message {
            Some(MessageType::Elwc) => "examples",
            _ => "features",
        };
        Ok(Schema {
            message,
            features: kinds(features)?,
            context: kinds("context")?,
            feature_lists: kinds("feature_lists")?,
        })
    }
}

// ---------------------------------------------------------------------------
// The index of one line
// ---------------------------------------------------------------------------
