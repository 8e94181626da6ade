//! Parquet and Arrow IPC in (from-parquet, from-arrow): rows of Parquet files or Arrow
//! IPC files/streams as `tf.train.Example` records (SequenceExamples when
//! there are `list<list<…>>` columns), written atomically.
//!
//! One thread reads each input in turn (Parquet: batches of about
//! [`BATCH_BYTES`] of memory; Arrow: its record batches) and cuts each
//! into runs of rows of about [`BATCH_BYTES`] of records
//! ([`crate::columnar::size::runs`]: a dictionary value counts for each row
//! that points at it), workers encode the runs
//! ([`crate::columnar::encode::Layout`]) into framed records, one thread
//! writes them in order (gzip, zlib or SNAPPY by the output's name).
//! Memory: the reader's batch and the pipeline's window of runs and their
//! records; a Parquet row group's column chunks are read page by page. A stream input (stdin) is
//! checked for a magic first; an Arrow IPC stream is read as it comes, a
//! Parquet or Arrow IPC file is copied to a temporary file first (both end
//! with a footer), anything else is refused after its first 8 bytes.

use crate::columnar::chunk::Source;
use crate::columnar::encode::{Kind, Layout, PathOnly, Selection};
use crate::columnar::Section;
use crate::error::{bail, err, Result};
use crate::io::Input;
use crate::pipeline::{self, Sender};
use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::ArrowError;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// Bytes of records a worker makes of a run of rows at a time (and of
/// memory in a Parquet batch).
pub const BATCH_BYTES: usize = 1 << 20;

/// Which format the inputs are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Parquet files.
    Parquet,
    /// Arrow IPC files or streams.
    Arrow,
}

/// A batch of rows for a worker.
struct Job {
    rows: RecordBatch,
    layout: Arc<Layout>,
    first_row: u64,
    name: Arc<str>,
}

/// Converts the rows of every input, in order, into framed records on
/// `out` (not committed) on `workers` threads; the warnings to give, once
/// each. The first input's message type is the output's: an input whose
/// columns make the other type is refused (a file of Examples and
/// SequenceExamples mixed is read by nothing). A feature has one kind in
/// every record: int64 in some inputs and float in others is float in
/// all (with a warning; [`unify_kinds`] reads every schema first), any
/// other change of kind is refused naming both inputs.
pub fn convert(
    inputs: &[Input],
    format: Format,
    selection: &Selection<'_>,
    workers: usize,
    write: &mut (dyn FnMut(&[u8]) -> Result<()> + Send),
) -> Result<Vec<String>> {
    let (as_float, mut notes) = unify_kinds(inputs, format, selection)?;
    // Media columns holding only paths: per column, the rows and a file.
    let mut path_only: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let mut renamed = vec![false; selection.rename.len()];
    let produce = |tx: &mut Sender<'_, Job>| -> Result<()> {
        let mut seen = HashSet::new();
        let mut first: Option<(bool, String)> = None;
        let mut written = Written::default();
        for input in inputs {
            let promote = |layout: &mut Layout| {
                for (section, name) in &as_float {
                    layout.write_as_float(*section, name);
                }
            };
            let mut media = |found: PathOnly| {
                for (column, rows) in found {
                    let seen = path_only.entry(column).or_insert_with(|| (0, input.display()));
                    seen.0 += rows;
                }
            };
            read_input(
                input,
                format,
                selection,
                tx,
                &promote,
                &mut media,
                &mut |layout: &Layout| {
                    let name = input.display();
                    written.check(layout, &name)?;
                    for &k in &layout.renamed {
                        renamed[k] = true;
                    }
                    match &first {
                        None => first = Some((layout.sequence, name)),
                        Some((sequence, before)) if *sequence != layout.sequence => {
                            let ty = |s: bool| if s { "SequenceExamples" } else { "Examples" };
                            bail!(
                                "its columns make {}, where {before}'s made {}: one output holds one message type \
                             (convert them apart)",
                                ty(layout.sequence),
                                ty(*sequence)
                            );
                        }
                        Some(_) => {}
                    }
                    for note in &layout.notes {
                        if seen.insert(note.clone()) {
                            notes.push(note.clone());
                        }
                    }
                    Ok(())
                },
            )?;
        }
        Ok(())
    };
    let work = |job: &mut Job, bytes: &mut Vec<u8>| -> Result<()> {
        job.layout
            .encode(&job.rows, job.first_row, bytes)
            .map_err(|e| err!("{}: {e}", job.name))
    };
    // The writer's error, kept whole (the pipeline's sink says only that
    // it stopped).
    let mut failed = None;
    let sink = |bytes: &Vec<u8>| {
        write(bytes).map_err(|e| {
            failed = Some(e);
            std::io::Error::other(pipeline::Stopped)
        })
    };
    let result = pipeline::run(workers, produce, work, sink);
    if let Some(e) = failed {
        return Err(e);
    }
    result?;
    for (column, (rows, file)) in path_only {
        notes.push(path_only_warning(&column, rows, &file));
    }
    for ((old, _), _) in selection.rename.iter().zip(&renamed).filter(|(_, found)| !**found) {
        let shown = crate::io::input::escape_name(old.as_bytes());
        notes.push(format!(
            "--rename {shown}=…: no column of the inputs gives a feature {shown}"
        ));
    }
    Ok(notes)
}

/// The rows of every input (not a stream: they are read again to convert
/// them), for `--shards`: a Parquet file's from its footer, an Arrow IPC
/// file's or stream's by reading its batches.
pub fn count_rows(inputs: &[Input], format: Format) -> Result<u64> {
    super::tfrecord_out::refuse_streams_for_count(inputs, "rows")?;
    let mut rows = 0u64;
    for input in inputs {
        let source = Source::open(input)?;
        let name = source.name().to_string();
        let head = source.head(8).map_err(|e| err!("{name}: {e}"))?;
        check_magic(format, &head, &source, &name)?;
        rows += match format {
            Format::Parquet => parquet_metadata(&source, &name)?
                .0
                .metadata()
                .file_metadata()
                .num_rows() as u64,
            Format::Arrow => {
                let (what, reader) = arrow_reader(&source, head.starts_with(b"ARROW1"));
                let bad = |e: &dyn std::fmt::Display| damaged(&name, what, &e.to_string());
                let mut reader = reader.map_err(|e| bad(&e))?.map_err(|e| bad(&e))?;
                let mut n = 0u64;
                while let Some(batch) = catch_panic(|| reader.next()).map_err(|e| bad(&e))? {
                    n += batch.map_err(|e| bad(&e))?.num_rows() as u64;
                }
                n
            }
        };
    }
    Ok(rows)
}

/// Reads one input's batches and sends them on, cut into runs of about
/// [`BATCH_BYTES`] of records.
fn read_input(
    input: &Input,
    format: Format,
    selection: &Selection<'_>,
    tx: &mut Sender<'_, Job>,
    promote: &dyn Fn(&mut Layout),
    media: &mut dyn FnMut(PathOnly),
    note: &mut dyn FnMut(&Layout) -> Result<()>,
) -> Result<()> {
    let source = Source::open(input)?;
    let name: Arc<str> = Arc::from(source.name());
    let fail = |e: &dyn std::fmt::Display| err!("{name}: {e}");
    let head = source.head(8).map_err(|e| fail(&e))?;
    check_magic(format, &head, &source, &name)?;
    let mut first_row = 0u64;
    let mut send = |rows: RecordBatch, layout: &Arc<Layout>| -> Result<()> {
        media(layout.path_only(&rows));
        // Cut by the bytes of records the rows become, not by the batch's
        // memory: a dictionary holds a value once however many rows
        // point at it.
        // With --read-paths a row's size is its files': one row a job,
        // so memory is the jobs in flight times the largest file.
        let runs = match layout.reads_files() {
            true => (0..rows.num_rows()).map(|i| i..i + 1).collect(),
            false => crate::columnar::size::runs(&rows, BATCH_BYTES as u64),
        };
        for run in runs {
            let len = run.len();
            let job = Job {
                rows: rows.slice(run.start, len),
                layout: layout.clone(),
                first_row,
                name: name.clone(),
            };
            tx.send(job)?;
            first_row += len as u64;
        }
        Ok(())
    };
    let mut make_layout = |schema: &arrow_schema::Schema, notes: Vec<String>| -> Result<Arc<Layout>> {
        let mut l = Layout::selected(schema, selection).map_err(|e| fail(&e))?;
        l.notes.extend(notes);
        promote(&mut l);
        let l = Arc::new(l);
        note(&l).map_err(|e| fail(&e))?;
        Ok(l)
    };
    match format {
        Format::Parquet => {
            let (meta, schema, notes) = parquet_metadata(&source, &name)?;
            let l = make_layout(&schema, notes)?;
            read_parquet(&source, meta, &name, &mut |batch| send(batch, &l))?;
        }
        // arrow-ipc panics on some damage (a buffer's offset or length past
        // its message body) instead of returning an error: the reader's
        // calls run under `catch_panic`, a panic is the file's damage.
        Format::Arrow => {
            let (what, reader) = arrow_reader(&source, head.starts_with(b"ARROW1"));
            let bad = |e: &dyn std::fmt::Display| damaged(&name, what, &e.to_string());
            let mut reader = reader.map_err(|e| bad(&e))?.map_err(|e| bad(&e))?;
            let l = make_layout(&reader.schema(), Vec::new())?;
            while let Some(batch) = catch_panic(|| reader.next()).map_err(|e| bad(&e))? {
                send(batch.map_err(|e| bad(&e))?, &l)?;
            }
        }
    }
    Ok(())
}

/// The warning for a media column some of whose rows hold only a path.
fn path_only_warning(column: &str, rows: u64, file: &str) -> String {
    let shown = crate::io::input::escape_name(column.as_bytes());
    format!(
        "column {shown}: {rows} row(s) (first in {file}) hold a path ({shown}/path) but no bytes: \
         their records have no {shown}/bytes, only the name of a file on the machine that wrote them \
         (a Hugging Face dataset of local files saved with to_parquet?); embed the files in the \
         dataset before saving it (as push_to_hub does), or read the files with --read-paths DIR where \
         the paths resolve"
    )
}

/// A feature: its section and name.
type FeatureKey = (Section, String);

/// The kinds of the features of every input that can be read twice (not a
/// stream), read from their schemas before anything is converted: the
/// features that are int64 in some and float in others, to write as float
/// everywhere, with a warning each; a feature that is bytes in one input
/// and a number in another is an error naming both. (An input whose
/// schema cannot be read is skipped here: the conversion says why.)
fn unify_kinds(inputs: &[Input], format: Format, selection: &Selection<'_>) -> Result<(Vec<FeatureKey>, Vec<String>)> {
    let mut kinds: BTreeMap<FeatureKey, Vec<(Kind, String)>> = BTreeMap::new();
    if inputs.len() < 2 {
        return Ok((Vec::new(), Vec::new()));
    }
    for input in inputs.iter().filter(|i| !i.is_stream()) {
        let Some(layout) = schema_layout(input, format, selection) else {
            continue;
        };
        for (section, name, kind) in layout.kinds() {
            let seen = kinds.entry((section, name.to_string())).or_default();
            if !seen.iter().any(|(k, _)| *k == kind) {
                seen.push((kind, input.display()));
            }
        }
    }
    let mut as_float = Vec::new();
    let mut warnings = Vec::new();
    for (key, seen) in kinds.into_iter().filter(|(_, seen)| seen.len() > 1) {
        if seen.iter().any(|(k, _)| *k == Kind::Bytes) {
            bail!("{}", kind_change(&key, &seen, None));
        }
        warnings.push(kind_change(&key, &seen, Some("written as float in every record")));
        as_float.push(key);
    }
    Ok((as_float, warnings))
}

/// A feature's change of kind across inputs, in words.
fn kind_change(key: &FeatureKey, seen: &[(Kind, String)], done: Option<&str>) -> String {
    let (section, name) = key;
    let shown = crate::io::input::escape_name(name.as_bytes());
    let what = match section {
        Section::Features => format!("feature {shown}"),
        Section::FeatureLists => format!("feature list {shown}"),
    };
    let kinds: Vec<String> = seen
        .iter()
        .map(|(k, file)| format!("{} in {file}", crate::example::Kind::from(*k).name()))
        .collect();
    match done {
        Some(done) => format!("{what} changes kind: {}: {done}", kinds.join(", ")),
        None => format!(
            "{what} changes kind: {} (tf.io.parse_example reads one kind per feature: \
             cast the column to one type, or convert these files apart)",
            kinds.join(", ")
        ),
    }
}

/// An input's [`Layout`] from its schema alone, if it can be read.
fn schema_layout(input: &Input, format: Format, selection: &Selection<'_>) -> Option<Layout> {
    let source = Source::open(input).ok()?;
    let name = source.name().to_string();
    let head = source.head(8).ok()?;
    check_magic(format, &head, &source, &name).ok()?;
    let schema = match format {
        Format::Parquet => parquet_metadata(&source, &name).ok()?.1,
        Format::Arrow => {
            let (_, reader) = arrow_reader(&source, head.starts_with(b"ARROW1"));
            reader.ok()?.ok()?.schema().as_ref().clone()
        }
    };
    Layout::selected(&schema, selection).ok()
}

/// The kind each feature was written with, and by which input: an input
/// whose feature has another kind (a stream, read once, that
/// [`unify_kinds`] could not see) is refused.
#[derive(Default)]
struct Written(HashMap<FeatureKey, (Kind, String)>);

impl Written {
    fn check(&mut self, layout: &Layout, input: &str) -> Result<()> {
        for (section, name, kind) in layout.kinds() {
            let key = (section, name.to_string());
            match self.0.get(&key) {
                Some((was, by)) if *was != kind => {
                    let seen = [(*was, by.clone()), (kind, input.to_string())];
                    bail!("{}", kind_change(&key, &seen, None));
                }
                Some(_) => {}
                None => {
                    self.0.insert(key, (kind, input.to_string()));
                }
            }
        }
        Ok(())
    }
}

/// Refuses an input whose magic bytes are not of `format`'s.
fn check_magic(format: Format, head: &[u8], source: &Source, name: &str) -> Result<()> {
    let what = sniff(head, source);
    if what.is_none() && head.starts_with(b"PAR1") {
        bail!("{name}: a damaged Parquet file: it does not end with the PAR1 magic of a footer (truncated?)");
    }
    match (format, what) {
        (Format::Parquet, Some(Format::Parquet)) | (Format::Arrow, Some(Format::Arrow)) => {}
        (Format::Parquet, Some(Format::Arrow)) => bail!("{name}: not a Parquet file: it is Arrow IPC (use from-arrow)"),
        (Format::Arrow, Some(Format::Parquet)) => {
            bail!("{name}: not an Arrow IPC file or stream: it is Parquet (use from-parquet)")
        }
        (Format::Parquet, None) => bail!("{name}: not a Parquet file (no PAR1 magic at its start and end)"),
        (Format::Arrow, None) => bail!("{name}: not an Arrow IPC file or stream"),
    }
    Ok(())
}

/// A Parquet file's metadata, read as the reader will use it: the Arrow
/// schema of its columns, and the notes on what had to be worked around.
fn parquet_metadata(source: &Source, name: &str) -> Result<(ArrowReaderMetadata, arrow_schema::Schema, Vec<String>)> {
    let bad = |e: &dyn std::fmt::Display| damaged_parquet(name, &e.to_string());
    // The Arrow schema that Arrow writers embed (ARROW:schema) is
    // only a hint on the Parquet schema: when the metadata reads
    // without it and not with it (it is damaged, or nested deeper
    // than the flatbuffer reader's limit, which pyarrow writes and
    // reads), the columns are typed from the Parquet schema, with a
    // warning.
    let mut notes = Vec::new();
    let mut options = ArrowReaderOptions::new();
    let mut typed_from_parquet = false;
    let mut meta = match ArrowReaderMetadata::load(source, options.clone()) {
        Ok(meta) => meta,
        Err(e) => {
            options = options.with_skip_arrow_metadata(true);
            typed_from_parquet = true;
            let meta = ArrowReaderMetadata::load(source, options.clone()).map_err(|_| bad(&e))?;
            let reason = short_reason(&e.to_string()).replace("ARROW:schema: ", "");
            notes.push(format!(
                "{name}: its embedded Arrow schema (ARROW:schema) could not be read ({reason}): \
                 the columns were typed from its Parquet schema"
            ));
            meta
        }
    };
    // The footer's row count is a summary of the row groups' that
    // the reader trusts (it caps its batches at it: a count of 0
    // read nothing). The row groups' rows are what pyarrow reads
    // and what is converted; a footer that says otherwise is
    // named in a warning.
    let mut held = 0i64;
    for (i, g) in meta.metadata().row_groups().iter().enumerate() {
        held = match held.checked_add(g.num_rows()) {
            Some(sum) if g.num_rows() >= 0 => sum,
            _ => bail!(
                "{name}: a damaged Parquet file: row group {i} says it holds {} rows",
                g.num_rows()
            ),
        };
    }
    let said = meta.metadata().file_metadata().num_rows();
    if said != held {
        let f = meta.metadata().file_metadata();
        let f = parquet::file::metadata::FileMetaData::new(
            f.version(),
            held,
            f.created_by().map(str::to_string),
            f.key_value_metadata().cloned(),
            f.schema_descr_ptr(),
            f.column_orders().cloned(),
        );
        let fixed = parquet::file::metadata::ParquetMetaData::new(f, meta.metadata().row_groups().to_vec());
        meta = ArrowReaderMetadata::try_new(Arc::new(fixed), options).map_err(|e| bad(&e))?;
        notes.push(format!(
            "{name}: its footer says it holds {said} rows, its row groups hold {held}: \
             the row groups' {held} were read (a damaged or miswritten footer?)"
        ));
    }
    let schema = if !typed_from_parquet {
        meta.schema().as_ref().clone()
    } else {
        // Typed from the Parquet schema: the file's key-value
        // metadata (tfr's own among them) still applies.
        let kv = meta.metadata().file_metadata().key_value_metadata();
        let pairs = kv
            .into_iter()
            .flatten()
            .filter(|kv| kv.key != parquet::arrow::ARROW_SCHEMA_META_KEY);
        let pairs = pairs.filter_map(|kv| Some((kv.key.clone(), kv.value.clone()?)));
        meta.schema()
            .as_ref()
            .clone()
            .with_metadata(pairs.collect::<std::collections::HashMap<_, _>>())
    };
    Ok((meta, schema, notes))
}

/// A Parquet file's rows, in batches sized to about [`BATCH_BYTES`] of
/// memory, to `send`.
fn read_parquet(
    source: &Source,
    meta: ArrowReaderMetadata,
    name: &str,
    send: &mut dyn FnMut(RecordBatch) -> Result<()>,
) -> Result<()> {
    let bad = |e: &dyn std::fmt::Display| damaged_parquet(name, &e.to_string());
    // The row groups' sizes are encoded sizes (compressed, a
    // dictionary counted once): the reader starts with a batch of
    // one row and sizes each next batch from the last one's memory,
    // at most 8 times as many rows at a time up to about
    // BATCH_BYTES, and fewer whenever a batch holds over twice
    // BATCH_BYTES; it starts again where it is to change. (The
    // rows a batch becomes are cut by their size in `send`.)
    let fit = |per_row: usize| (BATCH_BYTES / per_row.max(1)).clamp(1, 65_536);
    let (mut rows, mut done, mut growing) = (1usize, 0usize, true);
    'read: loop {
        let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(source.clone(), meta.clone())
            .with_offset(done)
            .with_batch_size(rows)
            .build()
            .map_err(|e| bad(&e))?;
        for batch in reader {
            let batch = batch.map_err(|e| bad(&e))?;
            let n = batch.num_rows();
            let size = batch.get_array_memory_size();
            done += n;
            send(batch)?;
            if n == 0 {
                continue;
            }
            let want = fit(size / n);
            if growing && want > rows {
                rows = want.min(rows * 8);
                continue 'read;
            }
            growing = false;
            if size > 2 * BATCH_BYTES && want < rows {
                rows = want;
                continue 'read;
            }
        }
        break;
    }
    Ok(())
}

/// An Arrow IPC file's (`file`) or stream's reader, and what it is called.
#[allow(clippy::type_complexity)]
fn arrow_reader(
    source: &Source,
    file: bool,
) -> (
    &'static str,
    Result<Result<Box<dyn RecordBatchReader>, ArrowError>, String>,
) {
    if file {
        let reader = catch_panic(|| {
            arrow_ipc::reader::FileReader::try_new(source.reader(), None)
                .map(|r| Box::new(r) as Box<dyn RecordBatchReader>)
        });
        return ("Arrow IPC file", reader);
    }
    let from: Box<dyn std::io::Read + Send> = match source.take_stream() {
        Some(live) => live,
        None => Box::new(source.reader()),
    };
    let buffered = std::io::BufReader::with_capacity(256 * 1024, from);
    let reader = catch_panic(|| {
        arrow_ipc::reader::StreamReader::try_new(buffered, None).map(|r| Box::new(r) as Box<dyn RecordBatchReader>)
    });
    ("Arrow IPC stream", reader)
}

/// A Parquet reader's error as one line: the file is damaged (or uses
/// something tfr does not read), with the library's reason made short.
fn damaged_parquet(name: &str, error: &str) -> crate::Error {
    damaged(name, "Parquet file", error)
}

/// The same for an Arrow IPC file or stream (`what`).
fn damaged(name: &str, what: &str, error: &str) -> crate::Error {
    let reason = short_reason(error);
    let lower = reason.to_lowercase();
    let unsupported = [
        "not yet implemented",
        "not supported",
        "unsupported",
        "disabled feature",
    ];
    if unsupported.iter().any(|u| lower.contains(u)) {
        err!("{name}: a {what} that tfr cannot read: {reason}")
    } else if lower.starts_with("read failed") {
        err!("{name}: {reason}")
    } else {
        err!("{name}: a damaged {what}: {reason}")
    }
}

/// The library's message without its layers of error-kind prefixes
/// ("Parquet argument error: Parquet error: …"), cut before a Debug dump
/// (`RangeOutOfBounds { range: .., error_trace: … }` keeps its first
/// word), on one line and at most 200 characters.
fn short_reason(error: &str) -> String {
    const PREFIXES: [&str; 12] = [
        "Parquet argument error: ",
        "Parquet error: ",
        "External: ",
        "External error: ",
        "EOF: ",
        "Arrow: ",
        "Arrow error: ",
        "Invalid argument error: ",
        "Parser error: ",
        "Io error: ",
        "IO error: ",
        "Schema error: ",
    ];
    let mut r = error.trim();
    while let Some(rest) = PREFIXES.iter().find_map(|p| r.strip_prefix(p)) {
        r = rest.trim_start();
    }
    if let Some(at) = r.find(" {") {
        r = &r[..at];
    }
    let r = r.replace(
        "Unable to get root as message stored in ARROW:schema: ",
        "ARROW:schema: ",
    );
    let r = match r.as_str() {
        "failed to fill whole buffer" | "Unexpected EOF" => "it ends too early (truncated?)".to_string(),
        _ => r,
    };
    let one: String = r.split_whitespace().collect::<Vec<_>>().join(" ");
    match one.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &one[..at]),
        None => one,
    }
}

/// The format by the magic bytes: Parquet's `PAR1` at both ends, Arrow's
/// `ARROW1` (a file) or a stream's first message (the continuation marker
/// `FF FF FF FF`, or a pre-1.0 stream's length).
fn sniff(head: &[u8], source: &Source) -> Option<Format> {
    if head.starts_with(b"PAR1") {
        let size = source.size();
        let mut tail = [0u8; 4];
        let ok = size >= 12 && source.read_exact_at(&mut tail, size - 4).unwrap_or(false) && &tail == b"PAR1";
        return ok.then_some(Format::Parquet);
    }
    if head.starts_with(b"ARROW1") || head.starts_with(&[0xff, 0xff, 0xff, 0xff]) {
        return Some(Format::Arrow);
    }
    None
}

use crate::error::catch_panic;
pub use crate::error::panic_is_caught;
