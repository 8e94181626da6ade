//! The scan behind `tfr schema`: every record of every input (shards are
//! one dataset) decoded once. The reader of records
//! ([`crate::pipeline::batches`]) reads them into batches, workers decode
//! them into per-batch statistics ([`Collect`]), and those are merged in
//! record order: the result is the same whatever the number of threads,
//! and a payload that does not decode stops the scan with exactly the
//! records before it counted.

use super::stats::Collector;
use super::{FileScan, Scan};
use crate::error::Result;
use crate::example::{self, DecodeErrorKind, Decoder, Keep, MessageType};
use crate::io::Input;
use crate::pipeline::batches::{self, Batch, Range, Reading, Record, Types, Work};
use crate::pipeline::{self, Stopped};
use crate::record;

/// What to scan, and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// How inputs are opened (compression, record size limit).
    pub open: record::OpenOptions,
    /// The payload type (`None`: auto, decided by the first record; every
    /// other record must then match, see [`crate::example`]).
    pub ty: Option<MessageType>,
    /// Scan at most this many records (over all inputs together).
    pub limit: Option<u64>,
    /// Threads decoding records (besides the reader and the merger).
    pub workers: usize,
    /// Which features are counted (`None`: all).
    pub keep: Option<KeepShared>,
    /// Keep the full statistics of every feature ([`super::deep`]).
    pub deep: bool,
    /// Count only what a column plan needs ([`Collector::keep_light`];
    /// not with `deep`).
    pub light: bool,
    /// Only the records that match (`--where`; the limit counts matches).
    pub filter: Option<std::sync::Arc<example::Where>>,
    /// Read the records' annotations too ([`crate::annotate`]: boxes,
    /// classes) into the statistics' [`Collector::annotations`], with these
    /// options (Examples, and SequenceExamples' context).
    pub annotate: Option<std::sync::Arc<crate::annotate::Options>>,
}

/// A feature-name filter shared by the scan's threads.
#[derive(Clone)]
pub struct KeepShared(pub std::sync::Arc<dyn Fn(&str) -> bool + Send + Sync>);

impl std::fmt::Debug for KeepShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeepShared(..)")
    }
}

/// Scans the inputs. Returns the statistics of every record read and the
/// error that stopped the scan early, if any (a damaged input, a payload
/// that does not decode): the records before it are in the scan, whose
/// `error` then says what stopped it. Inputs are read on up to
/// `workers` threads at once ([`pipeline::batches`]); `progress(bytes,
/// records)` is called from the reading threads now and then.
pub fn scan(inputs: &[Input], opts: &Options, progress: &(dyn Fn(u64, u64) + Sync)) -> (Scan, Option<crate::Error>) {
    let mut stats = collector(opts.deep, opts.light);
    let all = |_: &str| true;
    let collect = Collect {
        how: How {
            strict: opts.ty.is_none(),
            keep: opts.keep.as_ref().map_or(&all, |k| &*k.0),
            annotate: opts.annotate.as_deref(),
        },
        deep: opts.deep,
        light: opts.light && !opts.deep,
    };
    let merge = |batch: &Collector| {
        stats.merge(batch);
        Ok(())
    };
    let reading = Reading {
        open: &opts.open,
        types: Types::given(opts.ty, Types::Dataset),
        jobs: opts.workers.max(1),
        range: Range {
            skip: 0,
            limit: opts.limit,
        },
        sample: None,
        probe_limit: true,
        filter: opts.filter.as_deref(),
    };
    let (read, result) = batches::run(inputs, &reading, opts.workers, &collect, merge, progress);
    let error = result.err();
    let scan = Scan {
        ty: opts.ty.or(read.ty).unwrap_or(MessageType::Example),
        stats,
        files: read
            .files
            .iter()
            .map(|&(i, compression)| FileScan {
                name: inputs[i].display(),
                compression,
            })
            .collect(),
        limited: read.limited,
        error: error.as_ref().map(|e| format!("{e:#}")),
    };
    (scan, error)
}

/// The scan's consumer: each batch's records counted into a [`Collector`]
/// (merged in order by [`scan`], on one thread: a batch's merge costs about
/// what a few of its 8,192 records at most do, so it keeps up with the
/// workers).
struct Collect<'k> {
    how: How<'k>,
    deep: bool,
    light: bool,
}

/// An empty collector keeping full statistics (`deep`), or only what a
/// column plan needs (`light`), or the schema's.
fn collector(deep: bool, light: bool) -> Collector {
    let mut c = Collector::new();
    if deep {
        c.keep_deep();
    } else if light {
        c.keep_light();
    }
    c
}

impl Work for Collect<'_> {
    type Out = Collector;

    fn record(&self, decoder: &mut Decoder, r: &Record<'_>, out: &mut Collector) -> Result<()> {
        add(decoder, &self.how, r, out)
    }

    fn batch(&self, batch: &Batch<Collector>, out: &mut Collector) -> Result<()> {
        if self.deep && !out.is_deep() {
            out.keep_deep();
        }
        if self.light && !out.is_light() {
            out.keep_light();
        }
        let done = batches::each_record(self, batch, out);
        out.seal();
        done
    }

    fn huge(&self, r: &Record<'_>, emit: &mut dyn FnMut(Collector) -> Result<(), Stopped>) -> Result<()> {
        let mut out = collector(self.deep, self.light);
        example::with_decoder(|d| add(d, &self.how, r, &mut out))?;
        out.seal();
        emit(out)?;
        Ok(())
    }

    fn resolve(&self, r: &Record<'_>) -> Result<MessageType> {
        example::resolve_auto(r.payload).map_err(|e| decode_error(r, not_for_schema(e)))
    }
}

/// How records are decoded and counted.
struct How<'k> {
    strict: bool,
    keep: Keep<'k>,
    annotate: Option<&'k crate::annotate::Options>,
}

/// Decodes one record into `out`. Full statistics (TFDV's) read its maps
/// as C++ protobuf does (TFDV's reading: a map entry with an unknown field
/// keeps its feature); `tfr schema` as Python protobuf (upb) does.
fn add(decoder: &mut Decoder, how: &How<'_>, r: &Record<'_>, out: &mut Collector) -> Result<()> {
    decoder.set_cpp_map_entries(out.is_deep());
    let added = add_read(decoder, how, r, out);
    decoder.set_cpp_map_entries(false);
    added
}

fn add_read(decoder: &mut Decoder, how: &How<'_>, r: &Record<'_>, out: &mut Collector) -> Result<()> {
    let failed = |e| decode_error(r, e);
    let payload = r.payload;
    match r.ty {
        MessageType::SequenceExample => {
            let se = decoder.sequence_example(payload, how.strict).map_err(failed)?;
            out.add_sequence_where(&se, r.input, r.index, how.keep);
            annotations(how, se.context(), r, out);
        }
        MessageType::Elwc => {
            let parts = example::elwc::checked(decoder, payload, how.strict).map_err(failed)?;
            out.add_elwc_where(decoder, payload, &parts, (r.input, r.index), how.keep);
        }
        _ => {
            let ex = decoder.example(payload, how.strict).map_err(failed)?;
            out.add_example_where(&ex, r.input, r.index, how.keep);
            annotations(how, ex.features(), r, out);
        }
    }
    Ok(())
}

/// The annotations of a record's features counted, when the scan reads them.
fn annotations(how: &How<'_>, features: Option<example::FeaturesView<'_>>, r: &Record<'_>, out: &mut Collector) {
    if let Some(opts) = how.annotate {
        let found = features.and_then(|f| crate::annotate::read(&f, opts));
        out.annotations.add(found.as_ref(), (u64::from(r.input), r.index));
    }
}

impl pipeline::Output for Collector {
    fn is_empty(&self) -> bool {
        self.records == 0
    }

    fn clear(&mut self) {
        *self = Collector::default();
    }
}

/// A payload that does not decode, named by file, record and offset.
fn decode_error(r: &Record<'_>, e: example::DecodeError) -> crate::Error {
    // schema has no --type raw: the message goes without that advice.
    let message = e.without_raw_hint().to_string();
    crate::error::err!(message).context(format!("{}: record {} at byte {}", r.name, r.index, r.offset))
}

/// The auto-mode error without its `--type raw` hint, which schema lacks.
fn not_for_schema(e: example::DecodeError) -> example::DecodeError {
    match e.kind() {
        DecodeErrorKind::NotAnExample { reason } => {
            let reason = format!("{reason}; `tfr schema`, `stats` and `report` read only Examples, SequenceExamples and ExampleListWithContexts, `tfr cat --type raw` shows the payloads");
            example::DecodeError::new(DecodeErrorKind::NotAnExample { reason }, e.offset())
        }
        _ => e,
    }
}
