//! One module per subcommand: its `Args` struct (the `///` comments are the
//! help text) and a `run()`. Nothing outside `cmd/` and `cli.rs` imports
//! from here; shared machinery lives in the layers below (see ARCHITECTURE.md).

pub(crate) mod cat;
pub(crate) mod count;
pub(crate) mod extract;
pub(crate) mod from_jsonl;
#[cfg(feature = "parquet")]
pub(crate) mod from_parquet;
#[cfg(feature = "wds")]
pub(crate) mod from_wds;
pub(crate) mod index;
pub(crate) mod info;
#[cfg(feature = "report")]
pub(crate) mod report;
pub(crate) mod reshard;
pub(crate) mod scalars;
pub(crate) mod schema;
pub(crate) mod shuffle;
pub(crate) mod split;
pub(crate) mod stats;
#[cfg(feature = "parquet")]
pub(crate) mod to_arrow;
#[cfg(feature = "csv")]
pub(crate) mod to_csv;
pub(crate) mod to_jsonl;
#[cfg(feature = "parquet")]
pub(crate) mod to_parquet;
#[cfg(feature = "wds")]
pub(crate) mod to_wds;
pub(crate) mod validate;
pub(crate) mod verify_crc;
#[cfg(feature = "view")]
pub(crate) mod view;

// What several commands share (a command module imports from here, never
// from another command's module).

use crate::args::{InputArgs, ScanFlags};
use crate::output::{self, Ctx};
use crate::schema::tfdv::model::Schema;
use crate::schema::tfdv::validate::{quoted, Anomaly, AnomalyKind};
use crate::schema::Scan;
use anyhow::Result;

/// What a scan reads.
pub(crate) struct ScanArgs<'a> {
    pub(crate) input: &'a InputArgs,
    pub(crate) flags: &'a ScanFlags,
    /// Full statistics ([`crate::schema::deep`]).
    pub(crate) deep: bool,
    /// `--where`: only the records that match.
    pub(crate) filter: Option<&'a crate::example::Where>,
}

/// Scans the inputs with a progress bar (on a terminal, after 300 ms).
/// Returns the scan and the error that ended it early (an error with no
/// record scanned is returned as the error).
pub(crate) fn scan(args: &ScanArgs<'_>, ctx: &Ctx) -> Result<(Scan, Option<anyhow::Error>)> {
    let inputs = args.input.expand()?;
    scan_inputs(&inputs, args, ctx)
}

/// [`scan`] of inputs already expanded. A scan with full statistics
/// (`deep`: stats, report) reads the records' annotations too, with the
/// default options (boxes and classes found by their names); see
/// [`scan_annotated`].
pub(crate) fn scan_inputs(
    inputs: &[crate::io::Input],
    args: &ScanArgs<'_>,
    ctx: &Ctx,
) -> Result<(Scan, Option<anyhow::Error>)> {
    let annotate = args.deep.then(crate::annotate::Options::default);
    scan_annotated(inputs, args, annotate, ctx)
}

/// [`scan_inputs`] reading the records' annotations with these options
/// (`--bbox`, `--label-map`, a TFDS folder's class names) into
/// `scan.stats.annotations`, or not at all (`None`).
pub(crate) fn scan_annotated(
    inputs: &[crate::io::Input],
    args: &ScanArgs<'_>,
    annotate: Option<crate::annotate::Options>,
    ctx: &Ctx,
) -> Result<(Scan, Option<anyhow::Error>)> {
    let flags = args.flags;
    let projection = flags.select.projection().map(std::sync::Arc::new);
    let opts = crate::schema::Options {
        deep: args.deep,
        light: false,
        open: args.input.options(),
        ty: flags.payload.fixed(),
        limit: flags.limit,
        workers: crate::pipeline::workers(flags.jobs.get()),
        keep: projection
            .clone()
            .map(|p| crate::schema::KeepShared(std::sync::Arc::new(move |key: &str| p.keeps(key)))),
        filter: args.filter.cloned().map(std::sync::Arc::new),
        annotate: annotate.map(std::sync::Arc::new),
    };
    let bar = output::LazyProgress::new(ctx, crate::io::input::total_size(inputs));
    let progress = |bytes, records| bar.update(bytes, records);
    let (scan, error) = crate::schema::scan(inputs, &opts, &progress);
    let error = error.map(anyhow::Error::from);
    bar.finish();
    for warning in projection.iter().flat_map(|p| p.unmatched()) {
        output::error_line(format_args!("{warning}"));
    }
    if let Some(e) = error.as_ref().filter(|_| scan.stats.records == 0) {
        return Err(anyhow::anyhow!("{e:#}"));
    }
    Ok((scan, error))
}

/// What the statistics leave out, one line: the distinct feature names
/// past [`crate::schema::stats::MAX_FEATURES`] of each section (they have no statistics).
pub(crate) fn untracked_note(scan: &Scan) -> Option<String> {
    let sections = [
        ("feature", &scan.stats.features),
        ("feature list", &scan.stats.feature_lists),
        ("example feature", &scan.stats.examples),
    ];
    let parts: Vec<String> = sections
        .iter()
        .filter_map(|(what, t)| {
            let (n, lower_bound) = t.untracked();
            (n > 0).then(|| format!("{}{n} {what} names", if lower_bound { "at least " } else { "" }))
        })
        .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "{} past the first {} have no statistics (use --features/--exclude to choose which are counted)",
            parts.join(", "),
            crate::schema::stats::MAX_FEATURES
        )
    })
}

/// The features seen with several kinds, one line (statistics are of the
/// first kind seen).
pub(crate) fn conflicts_note(scan: &Scan) -> Option<String> {
    let names: Vec<String> = [&scan.stats.features, &scan.stats.feature_lists, &scan.stats.examples]
        .iter()
        .flat_map(|t| t.sorted())
        .filter(|f| f.is_conflict())
        .map(|f| format!("{:?}", &*f.name))
        .collect();
    (!names.is_empty()).then(|| {
        let shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
        let more = if names.len() > 5 { format!(" and {} more", names.len() - 5) } else { String::new() };
        format!(
            "feature{} {}{more} seen with several kinds: statistics are of the first kind seen (`tfr schema` shows where each appears)",
            if names.len() == 1 { "" } else { "s" },
            shown.join(", ")
        )
    })
}

/// Reads and parses the schema file; errors name it with line:column.
pub(crate) fn load_schema(path: &std::path::Path, aux: &crate::args::AuxSizeArg) -> Result<Schema> {
    let shown = crate::io::input::escape_name(path.as_os_str().as_encoded_bytes());
    let bytes = aux.read(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{shown}: not a schema: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    // A byte-order mark (some editors write one) is not part of the text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Schema::from_text(text).map_err(|e| anyhow::anyhow!("{shown}:{e}"))
}

/// A dataset's statistics, to compare with another's: a local statistics
/// file (TFDV's binary or text `DatasetFeatureStatisticsList`, or `tfr
/// stats -f tfdv-stats[-text]`; at most `--max-aux-size`) read as it is,
/// else records (a file, folder, glob or URL) whose statistics are
/// computed as `tfr stats` computes them. `what` names it in errors.
pub(crate) fn statistics_of(
    path: &std::ffi::OsStr,
    what: &str,
    open: &crate::record::OpenOptions,
    aux: &crate::args::AuxSizeArg,
    workers: usize,
    ctx: &Ctx,
) -> Result<crate::schema::tfdv::statistics::DatasetStats> {
    let shown = crate::io::input::escape_name(path.as_encoded_bytes());
    match statistics_at(std::path::Path::new(path), aux).map_err(|e| e.context(what.to_string()))? {
        Some(stats) => Ok(stats),
        None => {
            let inputs = crate::tfds::inputs::expand_with_folders(&[path.to_os_string()])?;
            let stats = records_statistics(&inputs, &format!("{what} {shown}"), open, workers, ctx)?;
            if stats.num_examples == 1 && stats.features.is_empty() {
                output::error_line(format_args!(
                    "warning: {what} {shown}: one record with no features: if it is a statistics file, it is over --max-aux-size ({} bytes) and was read as records",
                    aux.max_aux_size
                ));
            }
            Ok(stats)
        }
    }
}

/// The statistics of records, computed as `tfr stats` computes them (its
/// one dataset). `what` names them in errors.
pub(crate) fn records_statistics(
    inputs: &[crate::io::Input],
    what: &str,
    open: &crate::record::OpenOptions,
    workers: usize,
    ctx: &Ctx,
) -> Result<crate::schema::tfdv::statistics::DatasetStats> {
    let opts = crate::schema::Options {
        deep: true,
        light: false,
        open: *open,
        ty: None,
        limit: None,
        workers,
        keep: None,
        filter: None,
        annotate: None,
    };
    let bar = output::LazyProgress::new(ctx, crate::io::input::total_size(inputs));
    let progress = |bytes, records| bar.update(bytes, records);
    let (scan, error) = crate::schema::scan(inputs, &opts, &progress);
    bar.finish();
    if let Some(e) = error {
        return Err(anyhow::Error::from(e).context(what.to_string()));
    }
    scan_statistics(&scan, what)
}

/// A scan's statistics as the one dataset a comparison uses (refused for
/// ExampleListWithContext records: theirs are two datasets). `what` names
/// the records in errors.
fn scan_statistics(scan: &Scan, what: &str) -> Result<crate::schema::tfdv::statistics::DatasetStats> {
    use crate::schema::tfdv::{compare, statistics};
    if scan.ty == crate::example::MessageType::Elwc {
        anyhow::bail!(
            "{what}: comparisons take tf.Example or SequenceExample records (or statistics files), not ExampleListWithContext"
        );
    }
    statistics::from_scan(scan)
        .and_then(compare::dataset_of)
        .map_err(|e| anyhow::anyhow!("{what}: {e}"))
}

/// Presence anomalies: their location is the first record missing the feature.
pub(crate) fn is_presence(kind: AnomalyKind) -> bool {
    matches!(kind, AnomalyKind::LowFractionPresent | AnomalyKind::LowNumberPresent)
}

/// The one line on stderr of an anomaly.
pub(crate) fn anomaly_line(a: &Anomaly, names: &[String]) -> String {
    let what = match &a.feature {
        Some(f) => format!("feature {}", quoted(f)),
        None => "dataset".to_string(),
    };
    let ty = a.kind.tfdv_name();
    match a.first {
        Some((input, record)) => {
            let file = names.get(input as usize).map_or("-", String::as_str);
            let more = match a.records {
                n if n > 1 && !is_presence(a.kind) => format!(" (and {} more records)", n - 1),
                _ => String::new(),
            };
            let at = match a.kind {
                k if is_presence(k) => "; first missing in record",
                AnomalyKind::SchemaNewColumn => "; first in record",
                _ => " in record",
            };
            format!("{file}: {what}: {}{at} {record}{more} [{ty}]", a.detail)
        }
        None => format!("{what}: {} [{ty}]", a.detail),
    }
}

/// Where a text conversion goes (`-o OUT`, else stdout): a file through
/// an [`crate::io::AtomicOutput`] (renamed into place by [`Self::commit`]),
/// or stdout, buffered and flushed whenever the writer waits (a slow
/// stream's records show at once).
pub(crate) enum TextTarget {
    /// `-o OUT`.
    File(Box<crate::io::AtomicOutput>),
    /// No `-o`, or `-o -`.
    Stdout(std::io::BufWriter<std::io::Stdout>),
}

impl TextTarget {
    /// OUT refused among the inputs and the `aux` files read, then created:
    /// an unwritable target fails before any work.
    pub(crate) fn open(
        arg: &crate::args::TextOutputArg,
        inputs: &[crate::io::Input],
        aux: &[&std::path::Path],
    ) -> Result<TextTarget> {
        let Some(path) = arg.output.as_ref().filter(|p| p.as_os_str() != "-") else {
            return Ok(TextTarget::Stdout(std::io::BufWriter::with_capacity(
                256 * 1024,
                std::io::stdout(),
            )));
        };
        crate::io::same_file::refuse_input_as_output(inputs, aux, path, "-o")?;
        let file = crate::io::AtomicOutput::create(path, crate::io::Compression::None)?;
        Ok(TextTarget::File(Box::new(file)))
    }

    /// Whether to flush whenever the writer waits (stdout; a file is
    /// written in large blocks).
    pub(crate) fn flush_idle(&self) -> bool {
        matches!(self, TextTarget::Stdout(_))
    }

    /// The writer.
    pub(crate) fn writer(&mut self) -> &mut (dyn std::io::Write + Send) {
        match self {
            TextTarget::File(f) => &mut **f,
            TextTarget::Stdout(s) => s,
        }
    }

    /// The end of a conversion: the file committed (stdout flushed), then
    /// the `--features` names that matched nothing said.
    pub(crate) fn commit(self, projection: Option<&crate::args::Projection>) -> Result<crate::exit::Exit> {
        match self {
            TextTarget::File(f) => f.commit()?,
            TextTarget::Stdout(mut s) => std::io::Write::flush(&mut s)?,
        }
        for warning in projection.iter().flat_map(|p| p.unmatched()) {
            output::error_line(format_args!("{warning}"));
        }
        Ok(crate::exit::Exit::Success)
    }
}

/// A page's title without `--title` (`tfr report`, `tfr view`), and a
/// dataset's name in `--compare`: the inputs' names (the first two and a
/// count beyond three).
pub(crate) fn default_title(inputs: &[crate::io::Input]) -> String {
    let names: Vec<String> = inputs.iter().map(|i| i.display()).collect();
    match names.len() {
        0 => "no input".to_string(),
        1..=3 => names.join(", "),
        n => format!("{}, … ({n} files)", names[..2].join(", ")),
    }
}

/// `--records LIST` (cat, head, to-jsonl): the listed records of `inputs`,
/// read by number through `access::Records` (each input's `tfr index` file
/// when it matches, else an index built by walking it), handed to `each`
/// in the order listed, `--where` applied to each. `each`'s error comes
/// back as it was.
pub(crate) fn each_listed(
    inputs: &[crate::io::Input],
    list: &crate::args::RecordList,
    open: &crate::record::OpenOptions,
    (ty, filter): (Option<crate::example::MessageType>, Option<&crate::example::Where>),
    each: &mut dyn FnMut(&mut crate::example::Decoder, &crate::pipeline::batches::Record<'_>) -> Result<()>,
) -> Result<()> {
    use tfr_engine::access::{Options, Records};
    let opts = Options {
        open: *open,
        ..Options::default()
    };
    let records = Records::open(inputs.to_vec(), opts)?;
    let mut failed = None;
    let done = records.each_listed(&list.0, ty, filter, &mut |decoder, r| {
        each(decoder, r).map_err(|e| {
            failed = Some(e);
            tfr_engine::Error::Stopped("output stopped")
        })
    });
    match (failed, done) {
        (Some(e), _) => Err(e),
        (None, done) => Ok(done?),
    }
}

/// One dataset of `--compare` (report, stats): what it is called, where
/// its statistics come from, the statistics.
pub(crate) struct CompareSide {
    /// The inputs, or the statistics file, as named.
    pub(crate) name: String,
    /// `records` or `statistics file`.
    pub(crate) source: String,
    /// Its statistics (tfr's of the records, or the file's).
    pub(crate) stats: crate::schema::tfdv::statistics::DatasetStats,
    /// The inputs read (none for a statistics file).
    #[cfg_attr(not(feature = "report"), allow(dead_code))]
    pub(crate) inputs: Vec<crate::io::Input>,
    /// The statistics file read.
    pub(crate) file: Option<std::path::PathBuf>,
}

/// The statistics of one dataset of a comparison: those of a statistics
/// file when the inputs are one local file that reads as one, else the
/// full statistics of the records (as `tfr stats`). The error that ended
/// a damaged input's scan early comes back with them.
pub(crate) fn compare_side(
    scan_args: &ScanArgs<'_>,
    aux: &crate::args::AuxSizeArg,
    ctx: &Ctx,
) -> Result<(CompareSide, Option<anyhow::Error>)> {
    let input = scan_args.input;
    if let Some((path, stats)) = statistics_file(input, aux)? {
        let side = CompareSide {
            name: crate::io::input::show_path(&path),
            source: if stats.name.is_empty() {
                "statistics file".to_string()
            } else {
                format!("statistics file (dataset {:?})", stats.name)
            },
            stats,
            inputs: Vec::new(),
            file: Some(path),
        };
        return Ok((side, None));
    }
    let inputs = input.expand()?;
    let (scan, error) = scan_inputs(&inputs, scan_args, ctx)?;
    let name = default_title(&inputs);
    let stats = scan_statistics(&scan, &name)?;
    for note in [untracked_note(&scan), conflicts_note(&scan)].into_iter().flatten() {
        output::error_line(format_args!("warning: {note}"));
    }
    let files = scan.files.len();
    let side = CompareSide {
        name,
        source: format!("records ({files} file{})", if files == 1 { "" } else { "s" }),
        stats,
        inputs,
        file: None,
    };
    Ok((side, error))
}

/// The dataset of a statistics file, when the inputs are one local file
/// that is one ([`statistics_at`]).
fn statistics_file(
    input: &InputArgs,
    aux: &crate::args::AuxSizeArg,
) -> Result<Option<(std::path::PathBuf, crate::schema::tfdv::statistics::DatasetStats)>> {
    let [one] = input.files.as_slice() else {
        return Ok(None);
    };
    if one == "-" || input.split.is_some() || input.part.is_some() {
        return Ok(None);
    }
    let path = std::path::PathBuf::from(one);
    Ok(statistics_at(&path, aux)?.map(|d| (path, d)))
}

/// The dataset of the statistics file at `path` when it is one
/// ([`crate::schema::tfdv::compare::sniff`]): a local file within
/// `--max-aux-size`; a file of records is not read whole to find out.
/// Folders, globs, URLs and missing files are not (they are records).
fn statistics_at(
    path: &std::path::Path,
    aux: &crate::args::AuxSizeArg,
) -> Result<Option<crate::schema::tfdv::statistics::DatasetStats>> {
    use crate::schema::tfdv::compare::{looks, sniff, Looks};
    use std::io::Read;
    let Some(size) = std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len()) else {
        return Ok(None);
    };
    if size > aux.max_aux_size {
        return Ok(None);
    }
    let mut head = Vec::with_capacity(12);
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(12).read_to_end(&mut head);
    }
    if looks(&head, size) == Looks::NotStatistics {
        return Ok(None);
    }
    let shown = crate::io::input::show_path(path);
    let bytes = aux.read(path)?;
    sniff(&bytes).map_err(|e| anyhow::anyhow!("{shown}: {e}"))
}
