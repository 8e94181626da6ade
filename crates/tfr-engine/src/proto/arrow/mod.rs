//! Any protobuf message as Arrow columns (`tfr to-parquet` and `tfr
//! to-arrow` with `--message`, or of event files): the Arrow schema of a
//! message descriptor ([`Layout`]) and the workers' side of the write pass
//! ([`MessageWork`]: each batch of records decoded ([`super::decode`]) and
//! appended to Arrow arrays ([`build`]), one record batch per batch).
//!
//! The mapping, as Python reads `msg.field`:
//!
//! - one top-level column per field of the message, in declaration order,
//!   named by the proto field name (a group by its field's lower-case
//!   name); then the extensions of the message known to the descriptors,
//!   by number, named `[pkg.ext]` (text format's name);
//! - int32/sint32/sfixed32 → int32, int64/sint64/sfixed64 → int64,
//!   uint32/fixed32 → uint32, uint64/fixed64 → uint64, float → float32,
//!   double → float64, bool → bool, string → utf8 (a proto2 string that is
//!   not UTF-8: its invalid bytes as U+FFFD, counted for a warning), bytes
//!   → binary, an enum → utf8 of the value's name (a number the enum does
//!   not name: its decimal digits);
//! - a message (or group) → struct of its fields (well-known types too:
//!   Any is struct<type_url, value>, Timestamp struct<seconds, nanos>);
//!   a message type that already occurs on the path from the root (a
//!   recursive type: Struct/Value, TensorProto in VariantTensorDataProto)
//!   → utf8 holding that sub-message's protobuf JSON, as `tfr to-jsonl`
//!   prints it; a message type with no fields (Empty) has no column
//!   (Parquet cannot hold a struct without children);
//! - repeated → list (empty when absent, never null), items not null;
//! - map → map<key, value> with the entries in the order the payload
//!   first names their keys (a repeated key replaces its value there);
//! - presence: a field that tracks it (a message, a oneof member, a proto2
//!   field, a proto3 `optional`, an extension) is null when absent and
//!   nullable; a proto3 scalar without presence holds its default when
//!   absent and is not nullable.

mod build;

use super::decode::Msg;
use super::field::Field;
use super::Message;
use crate::columnar::build::Rows;
use crate::error::{bail, Result};
use crate::example::error::{DecodeError, DecodeErrorKind};
use crate::example::Decoder;
use crate::pipeline::batches::{decode_error, Batch, Record, Work};
use arrow_schema::{DataType, Fields, Schema, SchemaRef};
use prost_reflect::{Cardinality, EnumDescriptor, Kind, MessageDescriptor};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// The most leaf columns one message's layout may have (a descriptor
/// whose types fan out is refused rather than laid out).
pub const MAX_COLUMNS: usize = 100_000;

/// The type of one value of a column.
#[derive(Clone, Debug)]
enum Ty {
    I32,
    I64,
    U32,
    U64,
    F32,
    F64,
    Bool,
    /// A string (utf8).
    Str,
    /// Bytes (binary).
    Bin,
    /// An enum, by its value's name (utf8).
    Enum(EnumDescriptor),
    /// A message: a struct of these columns.
    Msg(Vec<Col>, Fields),
    /// A message of a type on the path from the root: its JSON (utf8).
    Json,
}

impl Ty {
    fn data_type(&self) -> DataType {
        match self {
            Ty::I32 => DataType::Int32,
            Ty::I64 => DataType::Int64,
            Ty::U32 => DataType::UInt32,
            Ty::U64 => DataType::UInt64,
            Ty::F32 => DataType::Float32,
            Ty::F64 => DataType::Float64,
            Ty::Bool => DataType::Boolean,
            Ty::Str | Ty::Enum(_) | Ty::Json => DataType::Utf8,
            Ty::Bin => DataType::Binary,
            Ty::Msg(_, fields) => DataType::Struct(fields.clone()),
        }
    }
}

/// How many values a column holds per row.
#[derive(Clone, Debug)]
enum Shape {
    /// One, or null when absent (`nullable`), else the default.
    One { nullable: bool },
    /// A list (its item field).
    List(arrow_schema::FieldRef),
    /// A map: the key's type (the value's is the column's), its entries
    /// field.
    Map(Ty, arrow_schema::FieldRef),
}

/// One column: a field of a message.
#[derive(Clone, Debug)]
struct Col {
    field: Field,
    shape: Shape,
    /// Its values' type (a map's: the value's).
    ty: Ty,
}

/// The columns of a message type.
#[derive(Clone, Debug)]
pub struct Layout {
    cols: Vec<Col>,
    schema: SchemaRef,
    /// Leaf columns (every row holds a value or null in each).
    leaves: usize,
}

impl Layout {
    /// The columns of `desc`; `keep` says which top-level fields have one
    /// (by the column's name).
    pub fn new(desc: &MessageDescriptor, keep: &dyn Fn(&str) -> bool) -> Result<Layout> {
        let mut path = vec![desc.full_name().to_string()];
        let mut leaves = 0;
        let mut cols = Vec::new();
        for field in fields_of(desc) {
            if keep(&column_name(&field)) {
                cols.extend(column(field, &mut path, &mut leaves)?);
            }
        }
        if cols.is_empty() {
            bail!(
                "{}: no field to write as a column (the message has none{})",
                desc.full_name(),
                ", or --features/--exclude left out all"
            );
        }
        let schema = Arc::new(Schema::new(arrow_fields(&cols)));
        Ok(Layout { cols, schema, leaves })
    }

    /// Its leaf columns (every row holds a value or a null in each).
    pub fn leaves(&self) -> usize {
        self.leaves
    }

    /// The Arrow schema of the rows.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// The fields of `desc` in declaration order, then its extensions by
/// number.
fn fields_of(desc: &MessageDescriptor) -> Vec<Field> {
    let mut fields: Vec<Field> = (desc.descriptor_proto().field.iter())
        .filter_map(|f| desc.get_field(f.number() as u32))
        .map(Field::Plain)
        .collect();
    let mut exts: Vec<_> = desc.extensions().collect();
    exts.sort_by_key(|e| e.number());
    fields.extend(exts.into_iter().map(Field::Ext));
    fields
}

/// A field's column name: the proto field name, `[full.name]` for an
/// extension.
fn column_name(field: &Field) -> String {
    field.printed_name()
}

/// The Arrow fields of `cols`.
fn arrow_fields(cols: &[Col]) -> Fields {
    cols.iter()
        .map(|c| {
            let name = column_name(&c.field);
            match &c.shape {
                Shape::One { nullable } => arrow_schema::Field::new(name, c.ty.data_type(), *nullable),
                Shape::List(item) => arrow_schema::Field::new(name, DataType::List(item.clone()), false),
                Shape::Map(_, entries) => arrow_schema::Field::new(name, DataType::Map(entries.clone(), false), false),
            }
        })
        .collect()
}

/// The column of `field` (`None`: an empty message's, which has none);
/// `path` holds the message types from the root, `leaves` counts the leaf
/// columns laid out.
fn column(field: Field, path: &mut Vec<String>, leaves: &mut usize) -> Result<Option<Col>> {
    if field.is_map() {
        let Kind::Message(entry) = field.kind() else {
            return Ok(None);
        };
        let key = value_ty(&entry.map_entry_key_field().kind(), path, leaves)?;
        let value = value_ty(&entry.map_entry_value_field().kind(), path, leaves)?;
        let (Some(key), Some(ty)) = (key, value) else {
            return Ok(None);
        };
        let entries = Fields::from(vec![
            arrow_schema::Field::new("key", key.data_type(), false),
            arrow_schema::Field::new("value", ty.data_type(), false),
        ]);
        let entries = Arc::new(arrow_schema::Field::new("entries", DataType::Struct(entries), false));
        return Ok(Some(Col {
            field,
            shape: Shape::Map(key, entries),
            ty,
        }));
    }
    let Some(ty) = value_ty(&field.kind(), path, leaves)? else {
        return Ok(None);
    };
    let shape = match field.cardinality() {
        Cardinality::Repeated => Shape::List(Arc::new(arrow_schema::Field::new("item", ty.data_type(), false))),
        _ => Shape::One {
            nullable: field.supports_presence(),
        },
    };
    Ok(Some(Col { field, shape, ty }))
}

/// The type of a value of `kind` (`None`: a message type without fields).
fn value_ty(kind: &Kind, path: &mut Vec<String>, leaves: &mut usize) -> Result<Option<Ty>> {
    let ty = match kind {
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Ty::I32,
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => Ty::I64,
        Kind::Uint32 | Kind::Fixed32 => Ty::U32,
        Kind::Uint64 | Kind::Fixed64 => Ty::U64,
        Kind::Float => Ty::F32,
        Kind::Double => Ty::F64,
        Kind::Bool => Ty::Bool,
        Kind::String => Ty::Str,
        Kind::Bytes => Ty::Bin,
        Kind::Enum(e) => Ty::Enum(e.clone()),
        Kind::Message(m) if path.iter().any(|p| p == m.full_name()) => Ty::Json,
        Kind::Message(m) => {
            path.push(m.full_name().to_string());
            let mut cols = Vec::new();
            for field in fields_of(m) {
                match column(field, path, leaves) {
                    Ok(c) => cols.extend(c),
                    Err(e) => {
                        path.pop();
                        return Err(e);
                    }
                }
            }
            path.pop();
            if cols.is_empty() {
                return Ok(None);
            }
            let fields = arrow_fields(&cols);
            return Ok(Some(Ty::Msg(cols, fields)));
        }
    };
    *leaves += 1;
    if *leaves > MAX_COLUMNS {
        bail!(
            "{}: more than {MAX_COLUMNS} columns (its message types nest too widely to lay out)",
            path.first().map_or("the message", String::as_str)
        );
    }
    Ok(Some(ty))
}

/// The workers' side of the write pass: each batch's records decoded as
/// the message and appended to arrays, one record batch per batch.
pub struct MessageWork<'a> {
    message: &'a Message,
    layout: &'a Layout,
    /// Strings that were not UTF-8 (proto2), written with U+FFFD.
    lossy: AtomicU64,
}

impl<'a> MessageWork<'a> {
    /// The work of writing `message`'s payloads as `layout`'s rows.
    pub fn new(message: &'a Message, layout: &'a Layout) -> MessageWork<'a> {
        MessageWork {
            message,
            layout,
            lossy: AtomicU64::new(0),
        }
    }

    /// The warning of the pass, if any: strings written with U+FFFD.
    pub fn warning(&self) -> Option<String> {
        match self.lossy.load(Relaxed) {
            0 => None,
            n => Some(format!(
                "warning: {n} strings of {} were not UTF-8 (proto2 does not check): written with U+FFFD for their invalid bytes",
                self.message.desc.full_name()
            )),
        }
    }

    /// Appends the records of `records` as rows; an error names the record.
    fn append<'r>(&self, records: impl Iterator<Item = Record<'r>>, out: &mut Rows) -> Result<()> {
        let mut rows = build::Rows::new(self.layout);
        let mut lossy = 0;
        for record in records {
            let at = |e: DecodeError| decode_error(record.name, record.index, record.offset, e);
            let msg = Msg::decode(&self.message.desc, record.payload).map_err(at)?;
            let mut cx = build::Cx {
                pool: &self.message.pool,
                lossy: 0,
            };
            rows.append(&msg, &mut cx)
                .map_err(|reason| at(DecodeError::new(DecodeErrorKind::Unprintable { reason }, 0)))?;
            lossy += cx.lossy;
        }
        self.lossy.fetch_add(lossy, Relaxed);
        if let Some(batch) = rows.finish(&self.layout.schema)? {
            out.batches.push(batch);
        }
        Ok(())
    }
}

impl Work for MessageWork<'_> {
    type Out = Rows;

    fn record(&self, _: &mut Decoder, record: &Record<'_>, out: &mut Rows) -> Result<()> {
        let one = Record { ..*record };
        self.append(std::iter::once(one), out)
    }

    /// A batch's rows, all or (on an error) none: a record that fails
    /// half-appended leaves no row behind.
    fn batch(&self, batch: &Batch<Rows>, out: &mut Rows) -> Result<()> {
        self.append(batch.records(), out)
    }

    /// Every row holds a value or a null in each leaf column, present or
    /// not: a wide message (thousands of leaves: a PredictionLog's
    /// RunMetadata) takes smaller batches, so that a batch's arrays stay
    /// within a few MB.
    fn window(&self) -> usize {
        let shrink = (self.layout.leaves / 64).max(1).next_power_of_two();
        (crate::pipeline::batches::BATCH / shrink).max(16 << 10)
    }

    /// Every record is decoded as the message, whatever its first bytes.
    fn resolve(&self, _: &Record<'_>) -> Result<crate::example::MessageType> {
        Ok(crate::example::MessageType::Raw)
    }
}

#[cfg(test)]
mod tests;
