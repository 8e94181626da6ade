//! Records as columns and back (feature `parquet`): Arrow record batches
//! for `to-parquet` / `to-arrow`, and Arrow or Parquet rows as
//! `tf.train.Example`s for `from-parquet` / `from-arrow`.
//!
//! # The mapping, records → columns ([`Plan`])
//!
//! The column types come from a schema (`tfr schema --format json`, or the
//! same scan run first): one column per feature, named as the feature is.
//! - int64 → `int64`, float → `float` (float32), bytes → `string` when
//!   every value seen is UTF-8, else `binary`;
//! - a feature with exactly one value in every record that has it is a
//!   plain column; with exactly N (two or more) a `fixed_size_list<…, N>`;
//!   any other a `list<…>` column (an empty list is `[]`);
//! - a record without the feature: null;
//! - SequenceExample: the context features as above, each feature list a
//!   `list<list<…>>` column (a step per inner list; `list<fixed_size_list<…,
//!   N>>` when every step holds N values, and `list<…>` of the values when
//!   every step holds one, which the metadata marks);
//! - a feature whose kind differs between records cannot be one column:
//!   refused, naming it (`--exclude` leaves it out); one that never holds
//!   a kind (`Feature {}` only) has no type: left out with a warning.
//!
//! The schema also goes into the file as key-value metadata under
//! [`METADATA_KEY`]: the message type and each column's section and kind
//! (see [`Plan::metadata`]), so `from-parquet` gives back the same records.
//!
//! # Columns → records ([`encode`])
//!
//! Integer and boolean columns → int64_list (bool as 0/1), float and
//! double → float_list (double narrowed to float32), string and binary →
//! bytes_list, a list column → a list, null → the feature absent, a struct
//! column → one feature per field named `column/field`, timestamps, dates,
//! times and durations → int64 in their unit. `list<list<…>>` columns are
//! feature lists of SequenceExamples (the other columns their context).

pub mod build;
pub mod chunk;
pub mod encode;
pub mod size;

use crate::error::{bail, Result};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// The key of the key-value metadata that holds tfr's schema of a file.
pub const METADATA_KEY: &str = "tfr.schema";

/// The value type of a column (of its values, inside any lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    /// int64 values.
    Int64,
    /// float32 values.
    Float,
    /// Bytes that were all UTF-8.
    Utf8,
    /// Bytes, some not UTF-8.
    Binary,
}

impl ValueType {
    fn data_type(self) -> DataType {
        match self {
            ValueType::Int64 => DataType::Int64,
            ValueType::Float => DataType::Float32,
            ValueType::Utf8 => DataType::Utf8,
            ValueType::Binary => DataType::Binary,
        }
    }

    /// The feature kind it holds.
    pub fn kind(self) -> crate::example::Kind {
        match self {
            ValueType::Int64 => crate::example::Kind::Int64,
            ValueType::Float => crate::example::Kind::Float,
            ValueType::Utf8 | ValueType::Binary => crate::example::Kind::Bytes,
        }
    }

    /// The feature kind's name (`int64`, `float`, `bytes`).
    pub fn kind_name(self) -> &'static str {
        match self {
            ValueType::Int64 => "int64",
            ValueType::Float => "float",
            ValueType::Utf8 | ValueType::Binary => "bytes",
        }
    }
}

/// How a column holds a record's feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Exactly one value wherever present.
    One,
    /// A list of values.
    List,
    /// The same number of values (two or more) in every record that has
    /// the feature: `fixed_size_list<…, N>`.
    Fixed(i32),
    /// A feature list: a list of steps, each as [`Step`] says.
    Steps(Step),
}

/// The values of a feature list's step, as a column holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A list: `list<list<…>>`.
    List,
    /// One value in every step: `list<…>` (the metadata says it is a
    /// feature list).
    One,
    /// N values (two or more) in every step: `list<fixed_size_list<…, N>>`.
    Fixed(i32),
}

/// The most values a `fixed_size_list` column is made for (more is a
/// `list`).
const MAX_FIXED: u64 = 1 << 16;

/// Which map of the message a column's feature is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    /// An Example's features, or a SequenceExample's context.
    Features,
    /// A SequenceExample's feature lists.
    FeatureLists,
}

/// One column: a feature's name, type and shape.
#[derive(Clone, Debug)]
pub struct Column {
    /// The feature's name (the column's).
    pub name: String,
    /// Its values' type.
    pub value: ValueType,
    /// Scalar, list, or list of lists.
    pub shape: Shape,
    /// Which map of the record it is in.
    pub section: Section,
}

impl Column {
    /// Its Arrow field (nullable: a missing feature is null).
    pub fn field(&self) -> Field {
        let item = self.value.data_type();
        let data_type = match self.shape {
            Shape::One => item,
            Shape::List => DataType::List(Arc::new(Field::new_list_field(item, true))),
            Shape::Fixed(n) => DataType::FixedSizeList(Arc::new(Field::new_list_field(item, true)), n),
            Shape::Steps(Step::One) => DataType::List(Arc::new(Field::new_list_field(item, true))),
            Shape::Steps(step) => {
                let field = Arc::new(Field::new_list_field(item, true));
                let inner = match step {
                    Step::Fixed(n) => DataType::FixedSizeList(field, n),
                    _ => DataType::List(field),
                };
                DataType::List(Arc::new(Field::new_list_field(inner, true)))
            }
        };
        Field::new(&self.name, data_type, true)
    }
}

/// The columns of a dataset, from its schema.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Examples, or SequenceExamples.
    pub sequence: bool,
    /// The columns, in order.
    pub columns: Vec<Column>,
    /// Features without a column, each with a one-line reason (warnings).
    pub left_out: Vec<String>,
    /// Their names.
    pub left_out_names: Vec<String>,
}

impl Plan {
    /// The plan from a schema document (`tfr schema --format json`, see
    /// [`crate::schema`]); `keep` says which features are wanted. An error
    /// is one line (a feature of several kinds names them).
    pub fn from_schema(doc: &Value, keep: &dyn Fn(&str) -> bool) -> Result<Plan, String> {
        let obj = doc.as_object().ok_or("not a JSON object")?;
        let sequence = match obj.get("type").and_then(Value::as_str) {
            Some("example") | None => false,
            Some("sequence") | Some("sequence_example") => true,
            Some("elwc") => {
                return Err(
                    "ExampleListWithContext records have no column mapping (their examples are \
                            a list of Examples each): convert them with to-jsonl"
                        .into(),
                )
            }
            Some(other) => return Err(format!("unknown \"type\": {other:?}")),
        };
        if let Some(u) = obj.get("untracked") {
            let count = u
                .as_object()
                .into_iter()
                .flat_map(|m| m.values())
                .filter_map(|v| v.get("count").and_then(Value::as_u64))
                .sum::<u64>();
            return Err(format!(
                "more distinct feature names than the schema tracks ({count} past the first {}): \
                 choose the columns with --features",
                u.get("limit").and_then(Value::as_u64).unwrap_or(0)
            ));
        }
        let mut plan = Plan {
            sequence,
            columns: Vec::new(),
            left_out: Vec::new(),
            left_out_names: Vec::new(),
        };
        let sections: &[(&str, Section)] = if sequence {
            &[("context", Section::Features), ("feature_lists", Section::FeatureLists)]
        } else {
            &[("features", Section::Features)]
        };
        let mut seen: HashMap<String, Section> = HashMap::new();
        for &(key, section) in sections {
            let Some(table) = obj.get(key) else { continue };
            let table = table.as_object().ok_or_else(|| format!("\"{key}\" is not an object"))?;
            for (name, info) in table {
                if !keep(name) {
                    continue;
                }
                let shown = crate::io::input::escape_name(name.as_bytes());
                let kind = info.get("kind").and_then(Value::as_str).unwrap_or("none");
                let value = match kind {
                    "int64" => ValueType::Int64,
                    "float" => ValueType::Float,
                    "bytes" => {
                        let bytes = info.get("bytes");
                        let count = bytes.and_then(|b| b.get("count")).and_then(Value::as_u64).unwrap_or(0);
                        let utf8 = bytes.and_then(|b| b.get("utf8")).and_then(Value::as_f64).unwrap_or(1.0);
                        match count == 0 || utf8 >= 1.0 {
                            true => ValueType::Utf8,
                            false => ValueType::Binary,
                        }
                    }
                    "conflict" => {
                        let kinds: Vec<&str> = info
                            .get("kinds")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .collect();
                        return Err(format!(
                            "feature {shown} is {} in different records: a column holds one type \
                             (leave it out with --exclude '{shown}')",
                            kinds.join(" and ")
                        ));
                    }
                    _ => {
                        plan.left_out.push(format!(
                            "warning: feature {shown} never holds a value kind (only empty Feature {{}}): \
                             it has no column type and is left out"
                        ));
                        plan.left_out_names.push(name.clone());
                        continue;
                    }
                };
                let values = info.get("values");
                let bound = |k: &str| values.and_then(|v| v.get(k)).and_then(Value::as_u64);
                let fixed = match (bound("min"), bound("max")) {
                    (Some(a), Some(b)) if a == b && a <= MAX_FIXED => Some(a),
                    _ => None,
                };
                let shape = match section {
                    Section::FeatureLists => Shape::Steps(match fixed {
                        Some(1) => Step::One,
                        Some(n) if n > 1 => Step::Fixed(n as i32),
                        _ => Step::List,
                    }),
                    Section::Features if bound("min") == Some(1) && bound("max") == Some(1) => Shape::One,
                    Section::Features => match fixed {
                        Some(n) if n > 1 => Shape::Fixed(n as i32),
                        _ => Shape::List,
                    },
                };
                if let Some(other) = seen.insert(name.clone(), section) {
                    if other != section {
                        return Err(format!(
                            "{shown} is both a context feature and a feature list: one column name \
                             cannot hold both (leave one out with --exclude)"
                        ));
                    }
                }
                plan.columns.push(Column {
                    name: name.clone(),
                    value,
                    shape,
                    section,
                });
            }
        }
        Ok(plan)
    }

    /// The Arrow schema of the columns, with tfr's schema as metadata.
    pub fn schema(&self) -> SchemaRef {
        let fields: Vec<Field> = self.columns.iter().map(Column::field).collect();
        let metadata = HashMap::from([(METADATA_KEY.to_string(), self.metadata())]);
        Arc::new(Schema::new_with_metadata(fields, metadata))
    }

    /// The metadata value: `{"version": 1, "type": "example"|"sequence",
    /// "columns": [{"name", "section": "features"|"context"|"feature_lists",
    /// "kind": "int64"|"float"|"bytes", "shape": "one"|"list"|"fixed"|"steps"|"fixed_steps"|"step_values"}]}`;
    /// a `step_values` column is a `list<…>` of a feature list's steps,
    /// one value each.
    pub fn metadata(&self) -> String {
        let columns: Vec<Value> = self
            .columns
            .iter()
            .map(|c| {
                let section = match (c.section, self.sequence) {
                    (Section::FeatureLists, _) => "feature_lists",
                    (Section::Features, true) => "context",
                    (Section::Features, false) => "features",
                };
                let shape = match c.shape {
                    Shape::One => "one",
                    Shape::List => "list",
                    Shape::Fixed(_) => "fixed",
                    Shape::Steps(Step::List) => "steps",
                    Shape::Steps(Step::One) => "step_values",
                    Shape::Steps(Step::Fixed(_)) => "fixed_steps",
                };
                json!({"name": c.name, "section": section, "kind": c.value.kind_name(), "shape": shape})
            })
            .collect();
        let ty = if self.sequence { "sequence" } else { "example" };
        json!({"version": 1, "type": ty, "columns": columns}).to_string()
    }
}

/// Checks that a plan has something to write.
pub fn check_columns(plan: &Plan) -> Result<()> {
    if plan.columns.is_empty() {
        bail!("no feature to write as a column (the records have none, or --features/--exclude left none)");
    }
    Ok(())
}

#[cfg(test)]
mod tests;
