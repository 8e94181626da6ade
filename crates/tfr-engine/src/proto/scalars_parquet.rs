//! `tfr scalars -f parquet`: the table as one Parquet file (columns run,
//! tag: string; step: int64; wall_time, value: double), written in row
//! groups of 1M rows through a temporary file renamed when complete.

use super::scalars::Point;
use crate::io::{AtomicOutput, Compression};
use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use std::sync::Arc;

/// Rows per row group.
const ROWS: usize = 1 << 20;

/// Writes the series (as [`Table::sorted`] gives them) to `path`.
pub fn write(series: &[(&str, &str, &[Point])], path: &std::path::Path) -> crate::Result<()> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("run", DataType::Utf8, false),
        Field::new("tag", DataType::Utf8, false),
        Field::new("step", DataType::Int64, false),
        Field::new("wall_time", DataType::Float64, false),
        Field::new("value", DataType::Float64, false),
    ]));
    let props = WriterProperties::builder()
        .set_compression(parquet::basic::Compression::ZSTD(Default::default()))
        .set_max_row_group_row_count(Some(ROWS))
        .build();
    let out = AtomicOutput::create(path, Compression::None)?;
    let mut writer = ArrowWriter::try_new(out, schema.clone(), Some(props))?;
    // Rows a batch at a time: (run, tag, point).
    let rows = series
        .iter()
        .flat_map(|(run, tag, points)| points.iter().map(move |p| (*run, *tag, *p)));
    let mut batch: Vec<(&str, &str, Point)> = Vec::with_capacity(ROWS.min(1 << 16));
    let mut flush = |batch: &mut Vec<(&str, &str, Point)>| -> crate::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let columns: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from_iter_values(batch.iter().map(|r| r.0))),
            Arc::new(StringArray::from_iter_values(batch.iter().map(|r| r.1))),
            Arc::new(Int64Array::from_iter_values(batch.iter().map(|r| r.2.step))),
            Arc::new(Float64Array::from_iter_values(batch.iter().map(|r| r.2.wall_time))),
            Arc::new(Float64Array::from_iter_values(batch.iter().map(|r| r.2.value))),
        ];
        writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
        batch.clear();
        Ok(())
    };
    for row in rows {
        batch.push(row);
        if batch.len() == 1 << 16 {
            flush(&mut batch)?;
        }
    }
    flush(&mut batch)?;
    let out = writer.into_inner()?;
    out.commit()?;
    Ok(())
}
