//! A sample's `.json` as features, when it is not already the JSONL
//! mapping (`tfr to-jsonl`'s natural form) that from-jsonl reads: the
//! metadata img2dataset, `webdataset`'s writers and COCO-style tools put
//! there. Only a `.json` the encoder refuses is mapped here; one it takes
//! is written exactly as before.
//!
//! The mapping, key by key ([`flatten`]):
//! - a nested object becomes features `a/b` (recursively; `{}` none);
//! - an empty list `[]` takes its kind from `--schema`, else is `null` (a
//!   feature without values, which TensorFlow reads as missing);
//! - a value no Example kind holds (a list of lists, a list of objects, a
//!   list mixing strings and numbers or holding `null`) is kept whole as
//!   its JSON text, one bytes value ([`Kept`] says which features, and
//!   from-wds warns once per feature);
//! - scalars, flat lists and the typed forms (`{"int64_list": [...]}`,
//!   `{"base64": ...}`) stay as they are.
//!
//! A mapped `.json` is written with its features in name order.

use crate::example::json::Schema;
use crate::example::Kind;
use serde_json::{Map, Value};

/// The typed forms the JSONL mapping reads as one feature.
const TYPED: [&str; 4] = ["int64_list", "float_list", "bytes_list", "base64"];

/// The features a mapping kept as JSON text.
pub(super) type Kept = Vec<String>;

/// `line` (a `.json` the encoder refused) mapped into the natural JSONL
/// form, and the features kept as JSON text; `Ok(None)` when it is not a
/// JSON object (the encoder's error then says why); an error when two
/// keys give one name (`{"a/b": 1, "a": {"b": 2}}`).
pub(super) fn map_line(line: &[u8], schema: Option<&Schema>) -> Result<Option<(Vec<u8>, Kept)>, String> {
    let Ok(Value::Object(doc)) = serde_json::from_slice::<Value>(line) else {
        return Ok(None);
    };
    let mut out = Map::new();
    let mut kept = Vec::new();
    for (key, value) in doc {
        flatten(key, value, schema, &mut out, &mut kept)?;
    }
    let text = serde_json::to_vec(&Value::Object(out)).map_err(|e| e.to_string())?;
    Ok(Some((text, kept)))
}

/// Adds `value` as the feature `name`, which must be new.
fn put(out: &mut Map<String, Value>, name: String, value: Value) -> Result<(), String> {
    if out.contains_key(&name) {
        let shown = crate::io::input::escape_name(name.as_bytes());
        return Err(format!(
            "two keys give the feature '{shown}' (a key with a '/' and a nested object's)"
        ));
    }
    out.insert(name, value);
    Ok(())
}

/// Adds the feature(s) of `value`, named `name`, to `out`.
fn flatten(
    name: String,
    value: Value,
    schema: Option<&Schema>,
    out: &mut Map<String, Value>,
    kept: &mut Kept,
) -> Result<(), String> {
    match value {
        Value::Object(fields) if is_typed(&fields) => put(out, name, Value::Object(fields)),
        Value::Object(fields) => {
            for (key, inner) in fields {
                flatten(format!("{name}/{key}"), inner, schema, out, kept)?;
            }
            Ok(())
        }
        Value::Array(items) if items.is_empty() => {
            let kind = schema.and_then(|s| s.features.get(&name));
            let typed = match kind {
                Some(Kind::Int64) => Some("int64_list"),
                Some(Kind::Float) => Some("float_list"),
                Some(Kind::Bytes) => Some("bytes_list"),
                _ => None,
            };
            let value = match typed {
                Some(list) => Value::Object(Map::from_iter([(list.to_string(), Value::Array(Vec::new()))])),
                None => Value::Null,
            };
            put(out, name, value)
        }
        Value::Array(items) if flat(&items) => put(out, name, Value::Array(items)),
        Value::Array(items) => {
            let text = Value::Array(items).to_string();
            kept.push(name.clone());
            put(out, name, Value::String(text))
        }
        scalar => put(out, name, scalar),
    }
}

/// Whether `fields` is one of the typed forms.
fn is_typed(fields: &Map<String, Value>) -> bool {
    fields.len() == 1 && fields.keys().all(|k| TYPED.contains(&k.as_str()))
}

/// Whether `items` is a list one Example feature holds: numbers and
/// booleans, or strings and `{"base64": ...}` values.
fn flat(items: &[Value]) -> bool {
    let numeric = |v: &Value| matches!(v, Value::Number(_) | Value::Bool(_));
    let bytes = |v: &Value| match v {
        Value::String(_) => true,
        Value::Object(fields) => fields.len() == 1 && fields.contains_key("base64"),
        _ => false,
    };
    items.iter().all(numeric) || items.iter().all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(line: &str) -> (String, Kept) {
        let (text, kept) = map_line(line.as_bytes(), None).unwrap().expect("an object");
        (String::from_utf8(text).unwrap(), kept)
    }

    #[test]
    fn nested_objects_become_slashed_names() {
        let (text, kept) = mapped(r#"{"exif": {"Make": "Canon", "lens": {"mm": 50}}, "w": 3, "e": {}}"#);
        assert_eq!(text, r#"{"exif/Make":"Canon","exif/lens/mm":50,"w":3}"#);
        assert!(kept.is_empty());
    }

    #[test]
    fn what_no_kind_holds_is_kept_as_json_text() {
        let (text, kept) = mapped(r#"{"boxes": [[1, 2.5], [3, 4]], "tags": [], "m": [1, "a"], "n": [1, null]}"#);
        assert_eq!(
            text,
            r#"{"boxes":"[[1,2.5],[3,4]]","m":"[1,\"a\"]","n":"[1,null]","tags":null}"#
        );
        assert_eq!(kept, ["boxes", "m", "n"]);
    }

    #[test]
    fn typed_forms_and_flat_lists_stay() {
        let line = r#"{"a": {"float_list": [1]}, "b": [{"base64": "AA=="}, "x"], "c": [true, 2]}"#;
        let (text, kept) = mapped(line);
        assert_eq!(
            text,
            r#"{"a":{"float_list":[1]},"b":[{"base64":"AA=="},"x"],"c":[true,2]}"#
        );
        assert!(kept.is_empty());
    }

    #[test]
    fn an_empty_list_takes_the_schema_kind() {
        let mut schema = Schema::default();
        schema.features.insert("tags".into(), Kind::Bytes);
        let (text, _) = map_line(br#"{"tags": [], "x": []}"#, Some(&schema)).unwrap().unwrap();
        assert_eq!(text, br#"{"tags":{"bytes_list":[]},"x":null}"#);
    }

    #[test]
    fn not_an_object_is_left_to_the_encoder() {
        assert!(map_line(b"[1]", None).unwrap().is_none());
        assert!(map_line(b"{", None).unwrap().is_none());
    }

    #[test]
    fn two_keys_giving_one_name_are_an_error() {
        for line in [r#"{"a/b": 1, "a": {"b": 2}}"#, r#"{"a": {"b": 2}, "a/b": 1}"#] {
            let e = map_line(line.as_bytes(), None).unwrap_err();
            assert!(e.contains("two keys give the feature 'a/b'"), "{e}");
        }
    }
}
