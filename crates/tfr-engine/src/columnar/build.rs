//! Records → Arrow record batches, on the workers of
//! [`crate::pipeline::batches::run`]: [`Convert`] is the `Work` of
//! `to-parquet` and `to-arrow`; each batch of records becomes one
//! [`RecordBatch`] of the [`Plan`]'s schema (its rows in record order).

use super::{Plan, Section, Shape, Step, ValueType};
use crate::error::{err, Result};
use crate::example::{self, Decoder, FeatureView, MapEntry, MapView, MessageType};
use crate::pipeline::batches::{decode_error, Batch, Record, Work};
use crate::pipeline::Output;
use arrow_array::{
    Array, ArrayRef, BinaryArray, FixedSizeListArray, Float32Array, Int64Array, ListArray, RecordBatch, StringArray,
};
use arrow_buffer::{Buffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{Field, SchemaRef};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What a batch of records becomes: its rows as record batches (one per
/// batch of records; a huge record's is its own).
#[derive(Default)]
pub struct Rows {
    /// The record batches, in order.
    pub batches: Vec<RecordBatch>,
}

impl Output for Rows {
    fn is_empty(&self) -> bool {
        self.batches.is_empty()
    }

    fn clear(&mut self) {
        self.batches.clear();
    }
}

/// Records → rows of a plan's columns (the `Work` of to-parquet and to-arrow).
pub struct Convert {
    plan: Plan,
    schema: SchemaRef,
    /// Column of each feature name (features), and of each feature list.
    features: HashMap<String, usize>,
    lists: HashMap<String, usize>,
    /// Features of the records that have no column: how many occurrences,
    /// and the first name met.
    unplanned: AtomicU64,
    first_unplanned: Mutex<Option<String>>,
    /// Records converted, and those with at least one feature that has a
    /// column.
    rows: AtomicU64,
    fitting: AtomicU64,
    /// Whether a feature without a column is worth a warning (not when it
    /// was left out on purpose).
    wanted: Wanted,
    /// Whether each value of a string column is checked as it is added
    /// (naming the record): a schema given by the user may be wrong; one
    /// from the scan of these inputs saw every value UTF-8 (a value that
    /// is not, the inputs changed since, fails the batch's check).
    checked_utf8: bool,
    /// The plan is a guess from the first records (to-parquet without a
    /// schema pass): a feature without a column is an error, not a
    /// warning, and string values are checked (the caller then plans from
    /// all the records and starts again).
    guessed: bool,
}

/// Says which feature names were meant to have a column.
pub type Wanted = Box<dyn Fn(&str) -> bool + Send + Sync>;

impl Convert {
    /// A converter to the planned columns (`wanted`: those kept); `checked_utf8`: each value of a string column checked as it is added (a schema the user gave may be wrong).
    pub fn new(plan: Plan, wanted: Wanted, checked_utf8: bool) -> Convert {
        let (mut features, mut lists) = (HashMap::new(), HashMap::new());
        for (i, c) in plan.columns.iter().enumerate() {
            match c.section {
                Section::Features => features.insert(c.name.clone(), i),
                Section::FeatureLists => lists.insert(c.name.clone(), i),
            };
        }
        Convert {
            schema: plan.schema(),
            plan,
            features,
            lists,
            unplanned: AtomicU64::new(0),
            first_unplanned: Mutex::new(None),
            rows: AtomicU64::new(0),
            fitting: AtomicU64::new(0),
            wanted,
            checked_utf8,
            guessed: false,
        }
    }

    /// Marks the plan as a guess from the first records: any record it
    /// does not fit (a feature without a column, another kind or number
    /// of values, a value that is not UTF-8 in a string column) fails the
    /// conversion.
    pub fn guessed(mut self) -> Convert {
        self.guessed = true;
        self.checked_utf8 = true;
        self
    }

    /// The schema of every record batch made.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// A warning when records held features that have no column (a
    /// `--schema` from other data, or inputs changed since the scan).
    pub fn unplanned_warning(&self) -> Option<String> {
        let n = self.unplanned.load(Ordering::Relaxed);
        let first = self.first_unplanned.lock().ok()?.clone()?;
        Some(format!(
            "warning: {n} feature occurrences have no column in the schema and were left out (the first: {})",
            crate::io::input::escape_name(first.as_bytes())
        ))
    }

    /// The error when records held features, but none of them one with a
    /// column: every row would be null (a `--schema` from other data).
    pub fn nothing_planned_error(&self) -> Option<crate::Error> {
        let rows = self.rows.load(Ordering::Relaxed);
        if rows == 0 || self.fitting.load(Ordering::Relaxed) > 0 || self.unplanned.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let first = self.first_unplanned.lock().ok()?.clone()?;
        Some(err!(
            "none of the {rows} records has a feature with a column in the schema (the first feature \
             without one: {}): is the --schema from other data?",
            crate::io::input::escape_name(first.as_bytes())
        ))
    }

    fn note_unplanned(&self, name: &str) {
        if !(self.wanted)(name) {
            return;
        }
        if self.unplanned.fetch_add(1, Ordering::Relaxed) == 0 {
            if let Ok(mut first) = self.first_unplanned.lock() {
                first.get_or_insert_with(|| name.to_string());
            }
        }
    }

    fn builders(&self) -> Vec<ColumnBuilder> {
        self.plan
            .columns
            .iter()
            .map(|c| ColumnBuilder::new(c, self.checked_utf8))
            .collect()
    }

    /// One record into the builders (a row in every column).
    fn add(
        &self,
        decoder: &mut Decoder,
        record: &Record<'_>,
        cols: &mut [ColumnBuilder],
        look: &mut Lookup,
    ) -> Result<()> {
        let at = |e: String| {
            err!(
                "{}: record {} at byte {}: {e}",
                record.name,
                record.index,
                record.offset
            )
        };
        for c in cols.iter_mut() {
            c.filled = false;
        }
        let decoded = |e| decode_error(record.name, record.index, record.offset, e);
        // An Example's features and a SequenceExample's context go to the
        // same columns; a SequenceExample's feature lists to theirs.
        let (features, lists) = match record.ty {
            MessageType::Example => {
                let view = decoder.example(record.payload, record.strict).map_err(decoded)?;
                (view.features(), None)
            }
            MessageType::SequenceExample => {
                let view = decoder
                    .sequence_example(record.payload, record.strict)
                    .map_err(decoded)?;
                (view.context(), view.feature_lists())
            }
            other => {
                return Err(at(format!(
                    "a {} record has no column mapping (only Examples and SequenceExamples)",
                    other.name()
                )))
            }
        };
        if let Some(features) = features {
            self.add_map(
                features,
                &self.features,
                &mut look.features,
                &mut look.hits,
                cols,
                |c, f| c.push(f),
            )
            .map_err(at)?;
        }
        if let Some(lists) = lists {
            self.add_map(lists, &self.lists, &mut look.lists, &mut look.hits, cols, |c, l| {
                c.push_steps(l.features())
            })
            .map_err(at)?;
        }
        look.rows += 1;
        let mut fits = false;
        for c in cols.iter_mut() {
            match c.filled {
                true => fits = true,
                false => c.push_null(),
            }
        }
        look.fitting += u64::from(fits);
        Ok(())
    }

    /// Adds a batch's counts of records (see [`Self::nothing_planned_error`]).
    fn count(&self, look: &Lookup) {
        self.rows.fetch_add(look.rows, Ordering::Relaxed);
        self.fitting.fetch_add(look.fitting, Ordering::Relaxed);
    }

    /// The entries of a map into their columns: for a name given twice,
    /// the last entry (as protobuf's map reads it). Records usually hold
    /// their features in the same order: the column of the entry at the
    /// same place in the record before is tried first (a name compared),
    /// the hash map only when it is not that one.
    fn add_map<'a, E: MapEntry + 'a>(
        &self,
        map: MapView<'a, E>,
        index: &HashMap<String, usize>,
        before: &mut Vec<usize>,
        hits: &mut Vec<usize>,
        cols: &mut [ColumnBuilder],
        mut push: impl FnMut(&mut ColumnBuilder, E::Value<'a>) -> Result<(), String>,
    ) -> Result<(), String> {
        hits.clear();
        for (i, (name, _)) in map.raw_entries().enumerate() {
            let guess = before
                .get(i)
                .copied()
                .filter(|&c| c != NONE && cols[c].name.as_bytes() == name);
            let c = match guess {
                Some(c) => c,
                None => {
                    // Keys were validated as UTF-8 by the decoder.
                    let name = std::str::from_utf8(name).unwrap_or("");
                    match index.get(name) {
                        Some(&c) => c,
                        None if self.guessed => {
                            return Err(format!(
                                "feature {} has no column in the plan from the first records",
                                crate::io::input::escape_name(name.as_bytes())
                            ))
                        }
                        None => {
                            self.note_unplanned(name);
                            NONE
                        }
                    }
                }
            };
            if c != NONE {
                cols[c].last = i + 1;
            }
            hits.push(c);
        }
        before.clear();
        before.extend_from_slice(hits);
        for (i, (_, value)) in map.raw_entries().enumerate() {
            let c = hits[i];
            if c != NONE && cols[c].last == i + 1 {
                cols[c].last = 0;
                push(&mut cols[c], value)?;
            }
        }
        Ok(())
    }

    /// The builders' rows as a record batch.
    fn finish(&self, cols: Vec<ColumnBuilder>) -> Result<RecordBatch> {
        let arrays = cols
            .into_iter()
            .map(ColumnBuilder::finish)
            .collect::<Result<Vec<_>>>()?;
        Ok(RecordBatch::try_new(self.schema.clone(), arrays)?)
    }
}

impl Work for Convert {
    type Out = Rows;

    fn record(&self, decoder: &mut Decoder, record: &Record<'_>, out: &mut Rows) -> Result<()> {
        let mut cols = self.builders();
        let mut look = Lookup::default();
        let added = self.add(decoder, record, &mut cols, &mut look);
        self.count(&look);
        added?;
        out.batches.push(self.finish(cols)?);
        Ok(())
    }

    fn batch(&self, batch: &Batch<Rows>, out: &mut Rows) -> Result<()> {
        let mut cols = self.builders();
        let mut look = Lookup::default();
        let added = example::with_decoder(|decoder| {
            batch
                .records()
                .try_for_each(|record| self.add(decoder, &record, &mut cols, &mut look))
        });
        self.count(&look);
        // The rows before a failing record still go on (a stream shows them).
        if cols.first().is_some_and(|c| c.rows > 0) {
            out.batches.push(self.finish(cols)?);
        }
        added
    }
}

/// No column.
const NONE: usize = usize::MAX;

/// Per map, the column of each entry of the record before (or [`NONE`]),
/// and the current record's.
#[derive(Default)]
struct Lookup {
    features: Vec<usize>,
    lists: Vec<usize>,
    hits: Vec<usize>,
    /// Records added, and those that filled a column.
    rows: u64,
    fitting: u64,
}

/// The values of a column (inside its lists), as Arrow buffers are made.
enum Values {
    Int64(Vec<i64>),
    Float(Vec<f32>),
    Bytes {
        offsets: Vec<i32>,
        data: Vec<u8>,
        utf8: bool,
        /// Each value checked as it is added.
        check: bool,
    },
}

impl Values {
    fn new(value: ValueType) -> Values {
        match value {
            ValueType::Int64 => Values::Int64(Vec::new()),
            ValueType::Float => Values::Float(Vec::new()),
            ValueType::Utf8 | ValueType::Binary => Values::Bytes {
                offsets: vec![0],
                data: Vec::new(),
                utf8: value == ValueType::Utf8,
                check: value == ValueType::Utf8,
            },
        }
    }

    fn len(&self) -> usize {
        match self {
            Values::Int64(v) => v.len(),
            Values::Float(v) => v.len(),
            Values::Bytes { offsets, .. } => offsets.len() - 1,
        }
    }

    /// A feature's values appended; an error for a feature of another kind.
    fn extend(&mut self, f: &FeatureView<'_>, column: ValueType) -> Result<(), String> {
        if f.kind() != example::Kind::None && f.kind() != column.kind() {
            return Err(format!(
                "is {}, but its column is {} (from the schema)",
                f.kind().name(),
                column.kind_name()
            ));
        }
        match self {
            Values::Int64(v) => v.extend(f.int64s()),
            Values::Float(v) => v.extend(f.floats()),
            Values::Bytes {
                offsets, data, check, ..
            } => {
                for b in f.bytes() {
                    if *check && std::str::from_utf8(b).is_err() {
                        return Err(
                            "has a value that is not UTF-8, but its column is string (from the schema: \
                                    give a --schema whose utf8 share is below 1, or none)"
                                .into(),
                        );
                    }
                    data.extend_from_slice(b);
                    offsets.push(offset(data.len())?);
                }
            }
        }
        Ok(())
    }

    /// A placeholder value under a null (plain columns).
    fn push_default(&mut self) {
        match self {
            Values::Int64(v) => v.push(0),
            Values::Float(v) => v.push(0.0),
            Values::Bytes { offsets, .. } => offsets.push(*offsets.last().unwrap_or(&0)),
        }
    }

    fn finish(self, nulls: Option<arrow_buffer::NullBuffer>) -> Result<ArrayRef> {
        Ok(match self {
            Values::Int64(v) => Arc::new(Int64Array::new(ScalarBuffer::from(v), nulls)),
            Values::Float(v) => Arc::new(Float32Array::new(ScalarBuffer::from(v), nulls)),
            Values::Bytes {
                offsets, data, utf8, ..
            } => {
                let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
                match utf8 {
                    true => Arc::new(StringArray::try_new(offsets, Buffer::from_vec(data), nulls).map_err(|e| {
                        err!("a string column got a value that is not UTF-8 (were the inputs changed since the schema pass?): {e}")
                    })?),
                    false => Arc::new(BinaryArray::try_new(offsets, Buffer::from_vec(data), nulls)?),
                }
            }
        })
    }
}

/// An Arrow offset: the values of one column of one batch stay under 2 GiB.
fn offset(n: usize) -> Result<i32, String> {
    i32::try_from(n).map_err(|_| "holds more than 2 GiB in one batch of records (an Arrow column's limit)".into())
}

/// One column being built.
struct ColumnBuilder {
    name: String,
    value: ValueType,
    shape: Shape,
    values: Values,
    /// List columns: the offsets of each row's list in `values` (or in
    /// `steps` for feature lists).
    rows_at: Vec<i32>,
    /// Feature lists: the offsets of each step's values.
    steps: Vec<i32>,
    nulls: NullBufferBuilder,
    rows: usize,
    /// Whether the current record gave this column a row.
    filled: bool,
    /// The number (from 1) of the entry of the current record's map that
    /// fills this column (0: none).
    last: usize,
}

impl ColumnBuilder {
    fn new(c: &super::Column, checked_utf8: bool) -> ColumnBuilder {
        let mut values = Values::new(c.value);
        if let Values::Bytes { utf8, check, .. } = &mut values {
            *check = *utf8 && checked_utf8;
        }
        ColumnBuilder {
            name: c.name.clone(),
            value: c.value,
            shape: c.shape,
            values,
            rows_at: vec![0],
            steps: vec![0],
            nulls: NullBufferBuilder::new(0),
            rows: 0,
            filled: false,
            last: 0,
        }
    }

    fn shown(&self) -> String {
        crate::io::input::escape_name(self.name.as_bytes())
    }

    /// A record's feature.
    fn push(&mut self, f: FeatureView<'_>) -> Result<(), String> {
        let before = self.values.len();
        self.values
            .extend(&f, self.value)
            .map_err(|e| format!("feature {} {e}", self.shown()))?;
        match self.shape {
            Shape::One => {
                let n = self.values.len() - before;
                if n != 1 {
                    return Err(format!(
                        "feature {} has {n} values, but its column holds one (the schema saw one value in \
                         every record; use no --schema, or one from these records)",
                        self.shown()
                    ));
                }
            }
            Shape::List => self.rows_at.push(offset(self.values.len())?),
            Shape::Fixed(want) => {
                let n = self.values.len() - before;
                if n != want as usize {
                    return Err(format!(
                        "feature {} has {n} values, but its column holds {want} (the schema saw {want} values \
                         in every record; use no --schema, or one from these records)",
                        self.shown()
                    ));
                }
            }
            Shape::Steps(_) => {
                return Err(format!("{} is a feature list, not a context feature", self.shown()));
            }
        }
        self.nulls.append_non_null();
        self.rows += 1;
        self.filled = true;
        Ok(())
    }

    /// A record's feature list: its steps.
    fn push_steps<'a>(&mut self, steps: impl Iterator<Item = FeatureView<'a>>) -> Result<(), String> {
        let Shape::Steps(per) = self.shape else {
            return Err(format!("{} is a context feature in the schema", self.shown()));
        };
        let want = match per {
            Step::List => None,
            Step::One => Some(1),
            Step::Fixed(n) => Some(n as usize),
        };
        for step in steps {
            let before = self.values.len();
            self.values
                .extend(&step, self.value)
                .map_err(|e| format!("{} {e}", self.shown()))?;
            let n = self.values.len() - before;
            if want.is_some_and(|w| w != n) {
                return Err(format!(
                    "feature list {} has a step of {n} values, but its column holds {} per step (the schema \
                     saw that many in every step; use no --schema, or one from these records)",
                    self.shown(),
                    want.unwrap_or_default()
                ));
            }
            self.steps.push(offset(self.values.len())?);
        }
        self.rows_at.push(offset(self.steps.len() - 1)?);
        self.nulls.append_non_null();
        self.rows += 1;
        self.filled = true;
        Ok(())
    }

    fn push_null(&mut self) {
        match self.shape {
            Shape::One => self.values.push_default(),
            Shape::Fixed(n) => (0..n).for_each(|_| self.values.push_default()),
            Shape::List => self.rows_at.push(*self.rows_at.last().unwrap_or(&0)),
            Shape::Steps(_) => self.rows_at.push(*self.rows_at.last().unwrap_or(&0)),
        }
        self.nulls.append_null();
        self.rows += 1;
    }

    fn finish(self) -> Result<ArrayRef> {
        let ColumnBuilder {
            value,
            shape,
            values,
            rows_at,
            steps,
            mut nulls,
            ..
        } = self;
        let nulls = nulls.finish();
        let item = Arc::new(Field::new_list_field(value.data_type(), true));
        Ok(match shape {
            Shape::One => values.finish(nulls)?,
            Shape::List => {
                let offsets = OffsetBuffer::new(ScalarBuffer::from(rows_at));
                Arc::new(ListArray::try_new(item, offsets, values.finish(None)?, nulls)?)
            }
            Shape::Fixed(n) => Arc::new(FixedSizeListArray::try_new(item, n, values.finish(None)?, nulls)?),
            // One value a step: the step offsets are the value offsets.
            Shape::Steps(Step::One) => {
                let offsets = OffsetBuffer::new(ScalarBuffer::from(rows_at));
                Arc::new(ListArray::try_new(item, offsets, values.finish(None)?, nulls)?)
            }
            Shape::Steps(per) => {
                let inner: ArrayRef = match per {
                    Step::Fixed(n) => Arc::new(FixedSizeListArray::try_new(item, n, values.finish(None)?, None)?),
                    _ => {
                        let inner_offsets = OffsetBuffer::new(ScalarBuffer::from(steps));
                        Arc::new(ListArray::try_new(item, inner_offsets, values.finish(None)?, None)?)
                    }
                };
                let outer = Arc::new(Field::new_list_field(inner.data_type().clone(), true));
                let offsets = OffsetBuffer::new(ScalarBuffer::from(rows_at));
                Arc::new(ListArray::try_new(outer, offsets, inner, nulls)?)
            }
        })
    }
}
