//! Decoded messages appended to Arrow arrays of a [`Layout`]: a builder
//! per column, nested as the columns are (a struct's children, a list's
//! items, a map's keys and values), finished into one record batch.

use super::{Col, Layout, Shape, Ty};
use crate::error::Result;
use crate::proto::decode::{default_of, Msg, Slot, Val};
use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Float32Builder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
    UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, ListArray, MapArray, RecordBatch, RecordBatchOptions, StructArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, SchemaRef};
use prost_reflect::DescriptorPool;
use std::sync::Arc;

/// What appending needs besides the values.
pub(super) struct Cx<'a> {
    /// Resolves the types an Any names (a recursive message's JSON).
    pub(super) pool: &'a DescriptorPool,
    /// Strings that were not UTF-8, written lossily.
    pub(super) lossy: u64,
}

/// The values of one type.
enum B {
    I32(Int32Builder),
    I64(Int64Builder),
    U32(UInt32Builder),
    U64(UInt64Builder),
    F32(Float32Builder),
    F64(Float64Builder),
    Bool(BooleanBuilder),
    /// Strings, enum names, JSON.
    Str(StringBuilder),
    Bin(BinaryBuilder),
    /// A struct: its columns' values and its nulls.
    Struct(Vec<C>, NullBufferBuilder),
}

/// The values of one column.
enum C {
    One(B),
    /// Offsets into the items.
    List(Vec<i32>, B),
    /// Offsets into the entries, their keys and values.
    Map(Vec<i32>, B, B),
}

fn new_b(ty: &Ty) -> B {
    match ty {
        // (no capacity up front: a wide message's thousands of leaves
        // would take kilobytes each in every batch, mostly for nulls)
        Ty::I32 => B::I32(Int32Builder::with_capacity(0)),
        Ty::I64 => B::I64(Int64Builder::with_capacity(0)),
        Ty::U32 => B::U32(UInt32Builder::with_capacity(0)),
        Ty::U64 => B::U64(UInt64Builder::with_capacity(0)),
        Ty::F32 => B::F32(Float32Builder::with_capacity(0)),
        Ty::F64 => B::F64(Float64Builder::with_capacity(0)),
        Ty::Bool => B::Bool(BooleanBuilder::with_capacity(0)),
        Ty::Str | Ty::Enum(_) | Ty::Json => B::Str(StringBuilder::with_capacity(0, 0)),
        Ty::Bin => B::Bin(BinaryBuilder::with_capacity(0, 0)),
        Ty::Msg(cols, _) => B::Struct(cols.iter().map(new_c).collect(), NullBufferBuilder::new(0)),
    }
}

fn new_c(col: &Col) -> C {
    match &col.shape {
        Shape::One { .. } => C::One(new_b(&col.ty)),
        Shape::List(_) => C::List(vec![0], new_b(&col.ty)),
        Shape::Map(key, _) => C::Map(vec![0], new_b(key), new_b(&col.ty)),
    }
}

/// Offsets grow by `n` items; an error past i32's range.
fn advance(offsets: &mut Vec<i32>, n: usize) -> Result<(), String> {
    let last = *offsets.last().unwrap_or(&0) as i64;
    let next = i32::try_from(last + n as i64).map_err(|_| "more than 2^31 list items in one batch".to_string())?;
    offsets.push(next);
    Ok(())
}

/// Appends one value of type `ty`.
fn append(b: &mut B, ty: &Ty, v: &Val, cx: &mut Cx<'_>) -> Result<(), String> {
    match (b, v) {
        (B::I32(b), Val::I32(x)) => b.append_value(*x),
        (B::I64(b), Val::I64(x)) => b.append_value(*x),
        (B::U32(b), Val::U32(x)) => b.append_value(*x),
        (B::U64(b), Val::U64(x)) => b.append_value(*x),
        (B::F32(b), Val::F32(x)) => b.append_value(*x),
        (B::F64(b), Val::F64(x)) => b.append_value(*x),
        (B::Bool(b), Val::Bool(x)) => b.append_value(*x),
        (B::Bin(b), Val::Bytes(x)) => b.append_value(x),
        (B::Str(b), Val::Bytes(x)) => match std::str::from_utf8(x) {
            Ok(s) => b.append_value(s),
            Err(_) => {
                cx.lossy += 1;
                b.append_value(String::from_utf8_lossy(x));
            }
        },
        (B::Str(b), Val::Enum(n)) => match ty {
            Ty::Enum(e) => match e.get_value(*n) {
                Some(value) => b.append_value(value.name()),
                None => b.append_value(n.to_string()),
            },
            _ => b.append_value(n.to_string()),
        },
        (B::Str(b), Val::Msg(m)) => {
            let mut json = Vec::new();
            crate::proto::json::message(m, cx.pool, &mut json)?;
            b.append_value(String::from_utf8_lossy(&json));
        }
        (B::Struct(cols, nulls), Val::Msg(m)) => {
            let Ty::Msg(layout, _) = ty else {
                return Err("a struct column of a type that is not a message".into());
            };
            append_fields(cols, layout, m, cx)?;
            nulls.append_non_null();
        }
        _ => return Err("a value of another type than its column's".into()),
    }
    Ok(())
}

/// Appends a null of type `ty` (a struct's children get their empty values).
fn append_null(b: &mut B, ty: &Ty) {
    match b {
        B::I32(b) => b.append_null(),
        B::I64(b) => b.append_null(),
        B::U32(b) => b.append_null(),
        B::U64(b) => b.append_null(),
        B::F32(b) => b.append_null(),
        B::F64(b) => b.append_null(),
        B::Bool(b) => b.append_null(),
        B::Str(b) => b.append_null(),
        B::Bin(b) => b.append_null(),
        B::Struct(cols, nulls) => {
            if let Ty::Msg(layout, _) = ty {
                for (c, col) in cols.iter_mut().zip(layout) {
                    // (a default value is always the column's type)
                    let _ = append_slot(c, col, None, None);
                }
            }
            nulls.append_null();
        }
    }
}

/// The fields of `m` appended to its struct's columns.
fn append_fields(cols: &mut [C], layout: &[Col], m: &Msg, cx: &mut Cx<'_>) -> Result<(), String> {
    for (c, col) in cols.iter_mut().zip(layout) {
        let slot = m.fields.get(&col.field.number()).map(|(_, s)| s);
        append_slot(c, col, slot, Some(cx))?;
    }
    Ok(())
}

/// Appends a field's slot (`None`: absent) to its column; `cx` is `None`
/// only where nothing is present (a null struct's children).
fn append_slot(c: &mut C, col: &Col, slot: Option<&Slot>, cx: Option<&mut Cx<'_>>) -> Result<(), String> {
    let mut spare = Cx {
        pool: empty_pool(),
        lossy: 0,
    };
    let cx = cx.unwrap_or(&mut spare);
    match (c, slot) {
        (C::One(b), Some(Slot::One(v))) => append(b, &col.ty, v, cx)?,
        (C::One(b), _) => match col.shape {
            Shape::One { nullable: false } => append(b, &col.ty, &default_of(&col.field), cx)?,
            _ => append_null(b, &col.ty),
        },
        (C::List(offsets, b), Some(Slot::List(values))) => {
            for v in values {
                append(b, &col.ty, v, cx)?;
            }
            advance(offsets, values.len())?;
        }
        (C::List(offsets, _), _) => advance(offsets, 0)?,
        (C::Map(offsets, keys, values), Some(Slot::Map(entries))) => {
            let Shape::Map(key_ty, _) = &col.shape else {
                return Err("a map column without its key type".into());
            };
            for (k, v) in entries {
                append(keys, key_ty, k, cx)?;
                append(values, &col.ty, v, cx)?;
            }
            advance(offsets, entries.len())?;
        }
        (C::Map(offsets, _, _), _) => advance(offsets, 0)?,
    }
    Ok(())
}

/// A pool for appending where no message is present.
fn empty_pool() -> &'static DescriptorPool {
    static POOL: std::sync::OnceLock<DescriptorPool> = std::sync::OnceLock::new();
    POOL.get_or_init(DescriptorPool::new)
}

fn finish_b(b: &mut B, ty: &Ty) -> Result<ArrayRef> {
    Ok(match b {
        B::I32(b) => Arc::new(b.finish()),
        B::I64(b) => Arc::new(b.finish()),
        B::U32(b) => Arc::new(b.finish()),
        B::U64(b) => Arc::new(b.finish()),
        B::F32(b) => Arc::new(b.finish()),
        B::F64(b) => Arc::new(b.finish()),
        B::Bool(b) => Arc::new(b.finish()),
        B::Str(b) => Arc::new(b.finish()),
        B::Bin(b) => Arc::new(b.finish()),
        B::Struct(cols, nulls) => {
            let Ty::Msg(layout, fields) = ty else {
                crate::error::bail!("a struct column of a type that is not a message");
            };
            let arrays = finish_cols(cols, layout)?;
            Arc::new(StructArray::try_new(fields.clone(), arrays, nulls.finish())?)
        }
    })
}

fn finish_c(c: &mut C, col: &Col) -> Result<ArrayRef> {
    Ok(match (c, &col.shape) {
        (C::One(b), _) => finish_b(b, &col.ty)?,
        (C::List(offsets, b), Shape::List(item)) => {
            let offsets = OffsetBuffer::new(ScalarBuffer::from(std::mem::replace(offsets, vec![0])));
            Arc::new(ListArray::try_new(item.clone(), offsets, finish_b(b, &col.ty)?, None)?)
        }
        (C::Map(offsets, keys, values), Shape::Map(key_ty, entries)) => {
            let offsets = OffsetBuffer::new(ScalarBuffer::from(std::mem::replace(offsets, vec![0])));
            let DataType::Struct(fields) = entries.data_type() else {
                crate::error::bail!("a map's entries that are not a struct");
            };
            let kv = vec![finish_b(keys, key_ty)?, finish_b(values, &col.ty)?];
            let entries_array = StructArray::try_new(fields.clone(), kv, None)?;
            Arc::new(MapArray::try_new(entries.clone(), offsets, entries_array, None, false)?)
        }
        _ => crate::error::bail!("a column whose values do not fit its shape"),
    })
}

fn finish_cols(cols: &mut [C], layout: &[Col]) -> Result<Vec<ArrayRef>> {
    cols.iter_mut().zip(layout).map(|(c, col)| finish_c(c, col)).collect()
}

/// The rows of a batch being built.
pub(super) struct Rows<'a> {
    layout: &'a Layout,
    cols: Vec<C>,
    rows: usize,
}

impl<'a> Rows<'a> {
    /// No rows yet, of `layout`'s columns.
    pub(super) fn new(layout: &'a Layout) -> Rows<'a> {
        Rows {
            layout,
            cols: layout.cols.iter().map(new_c).collect(),
            rows: 0,
        }
    }

    /// Appends `msg` as a row (an error leaves the rows inconsistent:
    /// drop them).
    pub(super) fn append(&mut self, msg: &Msg, cx: &mut Cx<'_>) -> Result<(), String> {
        append_fields(&mut self.cols, &self.layout.cols, msg, cx)?;
        self.rows += 1;
        Ok(())
    }

    /// The rows as one record batch (`None`: no row).
    pub(super) fn finish(mut self, schema: &SchemaRef) -> Result<Option<RecordBatch>> {
        if self.rows == 0 {
            return Ok(None);
        }
        let arrays = finish_cols(&mut self.cols, &self.layout.cols)?;
        let options = RecordBatchOptions::new().with_row_count(Some(self.rows));
        Ok(Some(RecordBatch::try_new_with_options(
            schema.clone(),
            arrays,
            &options,
        )?))
    }
}
