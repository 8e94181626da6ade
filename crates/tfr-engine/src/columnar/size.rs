//! How many bytes of records a record batch's rows become (from-parquet,
//! from-arrow), so that a batch is cut into runs of rows of about a
//! megabyte of output each, whatever its columns hold.
//!
//! An Arrow array's memory is not its rows' size: a dictionary-encoded
//! column stores each distinct value once, so one value of 1 MiB that
//! 8,000 rows point at is 1 MiB of memory and 8 GB of records. The size of
//! a row here is the sum of its values' sizes (a dictionary key counts as
//! the value it points at), plus each feature's name and a few bytes of
//! framing: about the size of its encoded record, never far below it.

use arrow_array::cast::AsArray;
use arrow_array::{downcast_integer_array, Array, RecordBatch};
use arrow_buffer::ArrowNativeType;
use arrow_schema::{DataType, Field};
use std::ops::Range;

/// A record's bytes besides its features: the framing's length and two
/// CRCs (16), the Example's and Features' tags and lengths.
const RECORD: u64 = 24;
/// A feature's bytes besides its name and values: the map entry's tags
/// and lengths, the Feature's and its list's.
const FEATURE: u64 = 12;
/// Rows whose sizes are worked out at a time.
const WINDOW: usize = 4096;

/// Cuts `batch` into runs of consecutive rows, each of at most `limit`
/// bytes of records (a row larger than `limit` is a run alone). Takes
/// time in proportion to the rows and their dictionary or view values,
/// and memory for [`WINDOW`] row sizes.
pub fn runs(batch: &RecordBatch, limit: u64) -> Vec<Range<usize>> {
    let n = batch.num_rows();
    let overhead = RECORD + batch.schema().fields().iter().map(|f| names(f, 0)).sum::<u64>();
    let columns: Vec<Sizer<'_>> = batch.columns().iter().map(|c| Sizer::new(c.as_ref())).collect();
    let mut cuts = Vec::new();
    let mut sizes = vec![0u64; WINDOW.min(n)];
    let (mut start, mut held) = (0usize, 0u64);
    for at in (0..n).step_by(WINDOW) {
        let sizes = &mut sizes[..WINDOW.min(n - at)];
        sizes.fill(overhead);
        for column in &columns {
            for (i, s) in sizes.iter_mut().enumerate() {
                *s = s.saturating_add(column.one(at + i));
            }
        }
        for (i, &size) in sizes.iter().enumerate() {
            let row = at + i;
            if row > start && held.saturating_add(size) > limit {
                cuts.push(start..row);
                (start, held) = (row, 0);
            }
            held = held.saturating_add(size);
        }
    }
    if start < n {
        cuts.push(start..n);
    }
    cuts
}

/// The bytes of the feature names a column gives: its own, or its struct
/// fields' (`column/field`), each with [`FEATURE`].
fn names(field: &Field, prefix: usize) -> u64 {
    let len = prefix + field.name().len();
    match field.data_type() {
        DataType::Struct(fields) => fields.iter().map(|f| names(f, len + 1)).sum(),
        _ => len as u64 + FEATURE,
    }
}

/// The sizes of an array's elements as they are encoded.
enum Sizer<'a> {
    /// Each element the same size.
    Fixed(u64),
    /// Bytes by their offsets (each with a tag and a length).
    Offsets32(&'a [i32]),
    Offsets64(&'a [i64]),
    /// Bytes by their views (the length is the low 32 bits).
    Views(&'a [u128]),
    /// Each element the value its key points at.
    Dictionary(Box<dyn Fn(usize) -> usize + 'a>, usize, Box<Sizer<'a>>),
    /// Each element a run of the child's elements.
    List32(&'a [i32], Box<Sizer<'a>>),
    List64(&'a [i64], Box<Sizer<'a>>),
    FixedList(usize, Box<Sizer<'a>>),
    /// Each element its fields'.
    Struct(Vec<Sizer<'a>>),
}

impl<'a> Sizer<'a> {
    fn new(a: &'a dyn Array) -> Sizer<'a> {
        let ty = a.data_type();
        match ty {
            DataType::Null => Sizer::Fixed(0),
            DataType::Boolean => Sizer::Fixed(1),
            // Floats are written as float32.
            DataType::Float16 | DataType::Float32 | DataType::Float64 => Sizer::Fixed(4),
            DataType::Utf8 => Sizer::Offsets32(a.as_string::<i32>().value_offsets()),
            DataType::Binary => Sizer::Offsets32(a.as_binary::<i32>().value_offsets()),
            DataType::LargeUtf8 => Sizer::Offsets64(a.as_string::<i64>().value_offsets()),
            DataType::LargeBinary => Sizer::Offsets64(a.as_binary::<i64>().value_offsets()),
            DataType::Utf8View => Sizer::Views(a.as_string_view().views()),
            DataType::BinaryView => Sizer::Views(a.as_binary_view().views()),
            DataType::FixedSizeBinary(n) => Sizer::Fixed(*n as u64 + 2),
            DataType::Dictionary(_, _) => {
                let d = a.as_any_dictionary();
                let keys = d.keys();
                let key: Box<dyn Fn(usize) -> usize + 'a> = downcast_integer_array!(
                    keys => Box::new(move |i| keys.values().get(i).map_or(usize::MAX, |k| k.as_usize())),
                    _ => Box::new(|_| usize::MAX)
                );
                let values = d.values();
                Sizer::Dictionary(key, values.len(), Box::new(Sizer::new(values.as_ref())))
            }
            DataType::List(_) => {
                let l = a.as_list::<i32>();
                Sizer::List32(l.value_offsets(), Box::new(Sizer::new(l.values().as_ref())))
            }
            DataType::LargeList(_) => {
                let l = a.as_list::<i64>();
                Sizer::List64(l.value_offsets(), Box::new(Sizer::new(l.values().as_ref())))
            }
            DataType::FixedSizeList(_, n) => {
                let l = a.as_fixed_size_list();
                Sizer::FixedList((*n).max(0) as usize, Box::new(Sizer::new(l.values().as_ref())))
            }
            DataType::Struct(_) => {
                Sizer::Struct(a.as_struct().columns().iter().map(|c| Sizer::new(c.as_ref())).collect())
            }
            // Integers (as varints of at most 10 bytes, mostly fewer),
            // dates and times; types no feature holds are refused before
            // any batch is read.
            other => Sizer::Fixed(other.primitive_width().unwrap_or(8) as u64),
        }
    }

    /// Element `i`'s size.
    fn one(&self, i: usize) -> u64 {
        self.span(i, i + 1)
    }

    /// The sizes of elements `a..z` together (0 past the end: arrays read
    /// from a damaged file are not trusted to be consistent here).
    fn span(&self, a: usize, z: usize) -> u64 {
        let count = z.saturating_sub(a) as u64;
        match self {
            Sizer::Fixed(w) => w.saturating_mul(count),
            Sizer::Offsets32(o) => between(o.get(a).map(|&v| v as i64), o.get(z).map(|&v| v as i64), count),
            Sizer::Offsets64(o) => between(o.get(a).copied(), o.get(z).copied(), count),
            Sizer::Views(v) => v.get(a..z).unwrap_or(&[]).iter().map(|&v| (v as u32) as u64 + 2).sum(),
            Sizer::Dictionary(key, len, values) => (a..z)
                .map(|i| match key(i) {
                    k if k < *len => values.one(k),
                    _ => 0,
                })
                .fold(0u64, u64::saturating_add),
            Sizer::List32(o, child) => match (o.get(a), o.get(z)) {
                (Some(&s), Some(&e)) => child
                    .span(s.max(0) as usize, e.max(0) as usize)
                    .saturating_add(2 * count),
                _ => 0,
            },
            Sizer::List64(o, child) => match (o.get(a), o.get(z)) {
                (Some(&s), Some(&e)) => child
                    .span(s.max(0) as usize, e.max(0) as usize)
                    .saturating_add(2 * count),
                _ => 0,
            },
            Sizer::FixedList(n, child) => child.span(a.saturating_mul(*n), z.saturating_mul(*n)),
            Sizer::Struct(fields) => fields.iter().map(|f| f.span(a, z)).fold(0u64, u64::saturating_add),
        }
    }
}

/// Bytes between two offsets, each value with a tag and a length.
fn between(a: Option<i64>, z: Option<i64>, count: u64) -> u64 {
    match (a, z) {
        (Some(a), Some(z)) if z >= a => (z - a) as u64 + 2 * count,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::types::Int32Type;
    use arrow_array::{ArrayRef, BinaryArray, DictionaryArray, Int32Array, Int64Array, ListArray, StringArray};
    use std::sync::Arc;

    fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
        RecordBatch::try_from_iter(columns).unwrap()
    }

    #[test]
    fn a_dictionary_row_is_as_large_as_the_value_it_points_at() {
        // One 1 MiB value, 100 rows pointing at it: 100 runs of one row.
        let values: ArrayRef = Arc::new(BinaryArray::from_vec(vec![&[7u8; 1 << 20][..]]));
        let keys = Int32Array::from(vec![0; 100]);
        let d: ArrayRef = Arc::new(DictionaryArray::<Int32Type>::try_new(keys, values).unwrap());
        let b = batch(vec![("s", d)]);
        assert!(b.get_array_memory_size() < 2 << 20);
        let cuts = runs(&b, 1 << 20);
        assert_eq!(cuts.len(), 100);
        assert!(cuts.iter().enumerate().all(|(i, r)| *r == (i..i + 1)));
        // Sliced, the same.
        assert_eq!(runs(&b.slice(10, 20), 1 << 20).len(), 20);
    }

    #[test]
    fn small_rows_make_runs_of_about_the_limit() {
        let ids: ArrayRef = Arc::new(Int64Array::from((0..100_000).collect::<Vec<i64>>()));
        let names: ArrayRef = Arc::new(StringArray::from_iter_values((0..100_000).map(|i| format!("n{i:05}"))));
        let b = batch(vec![("id", ids), ("name", names)]);
        // A row: 24 + (2 + 12 + 8) + (4 + 12 + 6 + 2) = 70 bytes.
        let cuts = runs(&b, 7_000);
        assert_eq!(cuts.len(), 1000);
        assert!(cuts.iter().all(|r| r.len() == 100), "{:?}", &cuts[..3]);
        assert_eq!(cuts.last().unwrap().end, 100_000);
    }

    #[test]
    fn a_list_row_counts_its_items_and_a_large_row_is_a_run_alone() {
        let mut lists = vec![Some(vec![Some(1i64); 3]); 10];
        lists[5] = Some(vec![Some(1); 100_000]);
        let l: ArrayRef = Arc::new(ListArray::from_iter_primitive::<arrow_array::types::Int64Type, _, _>(
            lists,
        ));
        let b = batch(vec![("l", l)]);
        let cuts = runs(&b, 1000);
        assert_eq!(cuts, vec![0..5, 5..6, 6..10]);
    }
}
