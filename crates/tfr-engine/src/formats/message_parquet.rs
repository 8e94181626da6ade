//! `tfr to-parquet` of any protobuf message (`--message`, event files):
//! the payloads as rows of the message's columns ([`crate::proto::arrow`]),
//! into one Parquet file or several cut by rows (counted first, in a pass
//! of their own), as the Example path writes them
//! ([`super::columnar_out`]'s row groups, names and output set).

use super::columnar_out::{cut, ParquetFiles, ParquetOptions, Progress};
use crate::columnar::build::Rows;
use crate::error::Result;
use crate::example::{Decoder, MessageType};
use crate::io::{Input, OutputSet};
use crate::pipeline::batches::{self, Reading, Record, Work};
use crate::proto::arrow::{Layout, MessageWork};
use crate::proto::Message;
use parquet::file::properties::WriterProperties;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Writes the payloads of `inputs` (read as `how` says) as the rows of
/// `layout` into the file(s) `opts` names (`aux`: the files an output may
/// not be); they appear at the end, or none. Returns the pass's warning,
/// if any.
#[allow(clippy::too_many_arguments)]
pub fn write(
    inputs: &[Input],
    aux: &[&Path],
    message: &Message,
    layout: &Layout,
    how: &Reading<'_>,
    workers: usize,
    opts: &ParquetOptions<'_>,
    progress: Progress<'_>,
) -> Result<Option<String>> {
    if let Some(stream) = inputs.iter().find(|i| i.is_stream()).filter(|_| opts.sharded()) {
        crate::error::bail!(
            "{}: --shards/--rows-per-file count the records first, and a stream cannot be read twice",
            stream.display()
        );
    }
    let total = match opts.sharded() {
        true => Some(count(inputs, how, workers, progress)?),
        false => None,
    };
    let split = cut(opts.output, opts.shards, opts.rows_per_file, total)?;
    let props = WriterProperties::builder()
        .set_compression(opts.compression)
        .set_max_row_group_row_count(Some(group_rows(layout.leaves())))
        // (a dictionary encoder per leaf costs more than it saves on a
        // message of thousands of mostly null leaves)
        .set_dictionary_enabled(layout.leaves() <= WIDE)
        .set_max_row_group_bytes(Some(opts.row_group_size.clamp(1, usize::MAX as u64) as usize))
        .set_created_by(format!("tfr {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut set = OutputSet::new(inputs, aux, "-o");
    let mut files = ParquetFiles::new(layout.schema(), props, split, &mut set);
    // The first file is created now: an unwritable target fails before any work.
    files.open(0)?;
    let work = MessageWork::new(message, layout);
    let mut failed = None;
    let sink = |rows: &Rows| -> std::io::Result<()> {
        for batch in &rows.batches {
            if let Err(e) = files.write_batch(batch) {
                let line = format!("{e:#}");
                failed = Some(e);
                return Err(std::io::Error::other(line));
            }
        }
        Ok(())
    };
    let bar = progress(crate::io::input::total_size(inputs));
    let (_, result) = batches::run(inputs, how, workers, &work, sink, &*bar);
    drop(bar);
    if let Some(e) = failed {
        return Err(e);
    }
    result?;
    files.finish()?;
    drop(files);
    set.commit()?;
    Ok(work.warning())
}

/// Counts the records `how` selects (the rows, to cut them into files).
struct Counting(AtomicU64);

impl Work for Counting {
    type Out = Rows;

    fn record(&self, _: &mut Decoder, _: &Record<'_>, _: &mut Rows) -> Result<()> {
        self.0.fetch_add(1, Relaxed);
        Ok(())
    }

    fn resolve(&self, _: &Record<'_>) -> Result<MessageType> {
        Ok(MessageType::Raw)
    }
}

fn count(inputs: &[Input], how: &Reading<'_>, workers: usize, progress: Progress<'_>) -> Result<u64> {
    let work = Counting(AtomicU64::new(0));
    let bar = progress(crate::io::input::total_size(inputs));
    let (_, result) = batches::run(inputs, how, workers, &work, |_: &Rows| Ok(()), &*bar);
    drop(bar);
    result?;
    Ok(work.0.load(Relaxed))
}

/// Leaves past which a message is wide: no dictionary encoding.
const WIDE: usize = 512;

/// The most rows of a row group: 1,048,576, fewer for a wide message. A
/// row group's levels are held uncompressed until it is written (about 4
/// bytes a leaf a row, present or null), which for a PredictionLog's 2,832
/// leaves would be 11 KiB a row, past the byte limit's notice: at most 32
/// MiB of them.
fn group_rows(leaves: usize) -> usize {
    ((32 << 20) / (4 * leaves.max(1))).clamp(1024, 1 << 20)
}
