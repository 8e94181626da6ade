//! `tfr scalars -f parquet`: the table as one Parquet file (columns run,
//! tag: string; step: int64; wall_time, value: double), written in row
//! groups of 1M rows through a temporary file renamed when complete.

use super::scalars::Table;
use crate::io::{AtomicOutput, Compression};
use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use std::sync::Arc;

/// Rows per row group (and per batch built at once).
const ROWS: usize = 1 << 20;

/// Writes `table` to `path`.
pub fn write(table: &Table, path: &std::path::Path) -> crate::Result<()> {
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
    for rows in table.rows.chunks(ROWS) {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from_iter_values(
                rows.iter().map(|r| table.runs[r.run as usize].as_str()),
            )),
            Arc::new(StringArray::from_iter_values(
                rows.iter().map(|r| table.tags[r.tag as usize].as_str()),
            )),
            Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.step))),
            Arc::new(Float64Array::from_iter_values(rows.iter().map(|r| r.wall_time))),
            Arc::new(Float64Array::from_iter_values(rows.iter().map(|r| r.value))),
        ];
        writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
    }
    let out = writer.into_inner()?;
    out.commit()?;
    Ok(())
}
