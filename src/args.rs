//! Command-line types shared by several commands (clap derive): inputs,
//! `-j`, `--compression`, `--type`. Each command's own `Args` struct lives
//! in its file under `cmd/` and flattens these.

use crate::example::MessageType;
use crate::formats::tfrecord_out::Sharding;
use crate::io::Compression;
use clap::Args;

mod annotate;
mod compare;
mod features;
mod payload;
pub(crate) use annotate::AnnotateArgs;
#[cfg(feature = "report")]
pub(crate) use annotate::HighlightArg;
pub(crate) use compare::CompareArgs;
pub(crate) use features::{FeatureArgs, Projection};
pub(crate) use payload::{payload_types, record_types, schema_types, DatasetTypeArg, PayloadType, ProtoArgs, TypeArg};

/// Input options shared by the commands that read records.
#[derive(Args, Debug, Clone)]
pub(crate) struct InputArgs {
    /// Input files: paths, quoted globs, directories (their TFRecord
    /// files, see `tfr --help`), or '-' for stdin (the default when piped).
    #[arg(value_name = "FILES")]
    pub(crate) files: Vec<std::ffi::OsString>,

    /// Input compression (auto, none, gzip, zlib, snappy: TensorFlow's
    /// SNAPPY): detected from the first bytes unless forced.
    #[arg(long, value_enum, default_value_t = CompressionArg::Auto, value_name = "KIND", hide_possible_values = true, help_heading = "Input options")]
    pub(crate) compression: CompressionArg,

    /// The longest record held in memory (K, M, G: binary units); a record
    /// announcing more is an error, not a memory hog.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size, help_heading = "Input options")]
    pub(crate) max_record_size: u64,

    /// Only the K-th of N disjoint parts of the inputs (0 <= K < N): N
    /// workers cover them exactly once (see `tfr --help`).
    #[arg(long, value_name = "K/N", help_heading = "Input options")]
    pub(crate) part: Option<crate::record::part::Part>,

    /// Of a TFDS dataset folder (its dataset_info.json names the splits),
    /// read this split's shards in order: train, test, all, or TFDS's
    /// slices by record or percent (train[:10%], test[-500:],
    /// train[1000:2000]+test). Without it a folder's every split is read,
    /// and a note says which.
    #[arg(long, value_name = "SPLIT", help_heading = "Input options")]
    pub(crate) split: Option<String>,
}

/// A size in bytes: digits with an optional K, M, G or T suffix (binary
/// units; `KiB`, `MB` and the like are read the same way).
pub(crate) fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("not a size: '{s}' (e.g. 1048576, 512M, 2G)"))?;
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches('B')
        .trim_end_matches('I')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("not a size: '{s}' (e.g. 1048576, 512M, 2G)")),
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("size too large: '{s}'"))
}

impl InputArgs {
    /// The inputs named (globs expanded; stdin when none and it is piped),
    /// or with `--part` those of the part.
    pub(crate) fn expand(&self) -> anyhow::Result<Vec<crate::io::Input>> {
        let inputs = match &self.split {
            Some(spec) => crate::tfds::inputs::split_inputs(&self.files, spec)?,
            None => crate::tfds::inputs::expand_with_folders(&self.files)?,
        };
        match self.part {
            Some(part) => Ok(crate::record::part::select(inputs, part, self.compression.forced())?),
            None => Ok(inputs),
        }
    }

    /// How inputs are opened: compression, record size limit.
    pub(crate) fn options(&self) -> crate::record::OpenOptions {
        crate::record::OpenOptions {
            compression: self.compression.forced(),
            max_record: self.max_record_size,
        }
    }

    /// Opens one input for reading records, with the file named in any error.
    pub(crate) fn open(&self, input: &crate::io::Input) -> anyhow::Result<crate::record::RecordReader> {
        Ok(self.options().open(input)?)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_parse_with_binary_units() {
        use super::parse_size;
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("64kb"), Ok(64 << 10));
        assert!(parse_size("1.5G").is_err());
        assert!(parse_size("G").is_err());
        assert!(parse_size("99999999999T").is_err());
    }
}

/// The most threads `-j` starts.
pub(crate) const MAX_JOBS: usize = 64;

/// `--max-aux-size`: the largest schema or statistics file read.
#[derive(Args, Debug, Clone, Copy)]
pub(crate) struct AuxSizeArg {
    /// The largest --schema or --merge file read (bytes; K, M, G suffixes):
    /// such a file is read whole, and its parsed form takes a few times its
    /// size in memory; a larger one is refused.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
    pub(crate) max_aux_size: u64,
}

impl AuxSizeArg {
    /// The bytes of a schema or statistics file, within the limit.
    pub(crate) fn read(&self, path: &std::path::Path) -> anyhow::Result<Vec<u8>> {
        Ok(crate::io::aux_file::read_bounded(path, self.max_aux_size)?)
    }

    /// A `--schema` file of `tfr schema --format json` (from-jsonl,
    /// from-wds): the kinds it forces.
    pub(crate) fn read_kinds(&self, path: &std::path::Path) -> anyhow::Result<crate::example::json::Schema> {
        let name = crate::io::input::show_path(path);
        let text = String::from_utf8(self.read(path)?)
            .map_err(|_| anyhow::anyhow!("{name}: not a tfr schema: not UTF-8 text"))?;
        crate::example::json::Schema::parse(&text).map_err(|e| anyhow::anyhow!("{name}: not a tfr schema: {e}"))
    }
}

/// `-j/--jobs`: how many threads a command may keep busy.
#[derive(Args, Debug, Clone, Copy, Default)]
pub(crate) struct JobsArg {
    /// Threads to use [default: the cores; at most 64]; the output is the
    /// same for any N (see `tfr --help`).
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Global options")]
    pub(crate) jobs: Option<u16>,
}

impl JobsArg {
    /// The thread budget: `--jobs`, else the cores available; at most
    /// [`MAX_JOBS`] (each thread may hold a few batches: `-j 20000` would
    /// start twenty thousand of them).
    pub(crate) fn get(self) -> usize {
        let jobs = match self.jobs {
            Some(n) => usize::from(n),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        jobs.min(MAX_JOBS)
    }

    /// [`Self::get`] for reading `inputs` at once: without `--jobs`, at
    /// least [`REMOTE_JOBS`] when any is a URL (the threads wait on the
    /// network, not on the cores).
    pub(crate) fn for_inputs(self, inputs: &[crate::io::Input]) -> usize {
        let remote = inputs.iter().any(|i| matches!(i.whole(), crate::io::Input::Url(_)));
        match self.jobs {
            None if remote => self.get().max(REMOTE_JOBS),
            _ => self.get(),
        }
    }
}

/// Objects read at once by count and verify-crc when `-j` is not given
/// (below [`MAX_JOBS`]).
const REMOTE_JOBS: usize = 16;

/// `--compression` of an input: detected, or forced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum CompressionArg {
    /// Detect from the first bytes (gzip magic, zlib header, a first
    /// SNAPPY block holding a record header, else plain).
    #[default]
    Auto,
    None,
    Gzip,
    Zlib,
    /// TensorFlow's SNAPPY stream (tf.data's compression_type="SNAPPY").
    Snappy,
}

impl CompressionArg {
    /// The forced compression, or `None` for auto.
    pub(crate) fn forced(self) -> Option<Compression> {
        match self {
            CompressionArg::Auto => None,
            CompressionArg::None => Some(Compression::None),
            CompressionArg::Gzip => Some(Compression::Gzip),
            CompressionArg::Zlib => Some(Compression::Zlib),
            CompressionArg::Snappy => Some(Compression::Snappy),
        }
    }
}

/// `--output-compression`: the one flag of every command that writes
/// TFRecords (from-jsonl, from-parquet/from-arrow, from-wds, reshard,
/// split, shuffle). `--compression` is a hidden alias of it where a
/// command reads no TFRecords (from-jsonl, from-parquet/from-arrow, whose
/// flag it was): `#[command(mut_arg("output_compression", alias_compression))]`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct OutputCompressionArg {
    /// Compression of the output [default: from OUT's name: .gz gzip, .zz
    /// or .zlib zlib, .snappy SNAPPY, else none].
    #[arg(long, value_enum, value_name = "KIND")]
    pub(crate) output_compression: Option<CompressionKind>,
}

impl OutputCompressionArg {
    /// The compression of the output `path`: as forced, else from its name.
    pub(crate) fn of(&self, path: &std::path::Path) -> Compression {
        Compression::for_output(path, self.forced())
    }

    /// The compression forced by the flag, if given.
    pub(crate) fn forced(&self) -> Option<Compression> {
        self.output_compression.map(Compression::from)
    }
}

/// A compression the command line names for an output (`--output-compression`,
/// `--salvage-compression`): tfr-core's [`Compression`], as a flag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CompressionKind {
    /// Plain, not compressed.
    None,
    /// gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream.
    Gzip,
    /// zlib (TensorFlow: compression_type="ZLIB").
    Zlib,
    /// TensorFlow's SNAPPY stream (tf.data: compression_type="SNAPPY"):
    /// blocks of raw snappy, each after its 4-byte big-endian length.
    Snappy,
}

impl From<CompressionKind> for Compression {
    fn from(k: CompressionKind) -> Compression {
        match k {
            CompressionKind::None => Compression::None,
            CompressionKind::Gzip => Compression::Gzip,
            CompressionKind::Zlib => Compression::Zlib,
            CompressionKind::Snappy => Compression::Snappy,
        }
    }
}

/// `--format` of to-jsonl and from-jsonl: which JSON mapping (tfr-core's
/// [`JsonFormat`](crate::example::json::JsonFormat), as a flag value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum JsonFormatArg {
    /// The natural JSONL mapping: {"name": [v, ...], ...}.
    #[default]
    #[value(name = "json")]
    Natural,
    /// Protobuf's JSON mapping (json_format.MessageToJson, one line).
    Protojson,
}

impl From<JsonFormatArg> for crate::example::json::JsonFormat {
    fn from(f: JsonFormatArg) -> Self {
        match f {
            JsonFormatArg::Natural => Self::Natural,
            JsonFormatArg::Protojson => Self::Protojson,
        }
    }
}

/// `--format` of cat and head: how a record is written (tfr-core's
/// [`Format`](crate::example::Format), as a flag value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum FormatArg {
    /// protobuf text format, as Python's text_format.MessageToString prints it.
    #[default]
    Text,
    /// The JSONL mapping (as to-jsonl), one line per record, no comment lines.
    Json,
    /// Protobuf's JSON mapping (json_format.MessageToJson), one line per record.
    Protojson,
}

impl From<FormatArg> for crate::example::Format {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Text => Self::Text,
            FormatArg::Json => Self::Json,
            FormatArg::Protojson => Self::Protojson,
        }
    }
}

/// `--compression` as a hidden alias of `--output-compression` (the
/// commands whose flag it was).
pub(crate) fn alias_compression(arg: clap::Arg) -> clap::Arg {
    arg.alias("compression")
}

/// `--output-compression`'s help where the command reads TFRecords too
/// (reshard, split: "output"; shuffle: "output(s)"): `--compression` is
/// then the inputs'.
pub(crate) fn beside_input_compression(arg: clap::Arg, outputs: &str) -> clap::Arg {
    arg.help(format!(
        "Compression of the {outputs} [default: from OUT's name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none] (--compression is the inputs')"
    ))
}

/// `-o OUT` of a command that writes text to stdout.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct TextOutputArg {
    /// Write to OUT (through a temporary file renamed on success, so a failed
    /// run leaves nothing) instead of stdout.
    #[arg(short = 'o', long, value_name = "OUT")]
    pub(crate) output: Option<std::path::PathBuf>,
}

/// `--skip`, `--limit`, `--sample`, `--seed` (cat, to-jsonl).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct RangeArgs {
    /// Skip the first N records of the inputs taken together (on plain
    /// files they are hopped over header by header, as `count` does).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) skip: u64,

    /// Stop after N records (over the inputs taken together).
    #[arg(short = 'n', long, value_name = "N")]
    pub(crate) limit: Option<u64>,

    /// A uniform random sample of N records of the inputs taken together
    /// (reservoir sampling: one pass, holding N records), in input order.
    #[arg(long, value_name = "N", conflicts_with_all = ["skip", "limit"])]
    pub(crate) sample: Option<u64>,

    /// Seed for --sample (the same seed picks the same records; default:
    /// a new sample each run).
    #[arg(long, value_name = "SEED", requires = "sample")]
    pub(crate) seed: Option<u64>,
}

impl RangeArgs {
    /// The range and sample to read.
    pub(crate) fn reading<'a>(
        &self,
        open: &'a crate::record::OpenOptions,
        ty: Option<MessageType>,
        jobs: usize,
    ) -> crate::pipeline::batches::Reading<'a> {
        let seed = self.seed.unwrap_or_else(|| {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            t ^ (u64::from(std::process::id()) << 32)
        });
        crate::pipeline::batches::Reading {
            open,
            types: crate::pipeline::batches::Types::given(ty, crate::pipeline::batches::Types::PerInput),
            jobs,
            range: crate::pipeline::batches::Range {
                skip: self.skip,
                limit: self.limit,
            },
            sample: self.sample.map(|n| (n, seed)),
            probe_limit: false,
            filter: None,
        }
    }
}

/// `--where EXPR` (cat, head, count, to-jsonl, schema, stats): a command
/// gets it by flattening this struct and handing `filter` to the reader
/// ([`crate::pipeline::batches::Reading::filter`]).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct WhereArg {
    /// Only the records whose features match EXPR ('label == 1 &&
    /// country == "US"', 'has(image/encoded)'; the language: `tfr --help`).
    #[arg(long = "where", value_name = "EXPR", value_parser = WhereParser, help_heading = "Selection")]
    pub(crate) filter: Option<crate::example::Where>,

    /// A feature named in --where (or count/split --by) that no record read
    /// has is an error (exit 2; outputs written together are not written),
    /// not a warning.
    #[arg(long, help_heading = "Selection")]
    pub(crate) strict: bool,
}

/// Parses a `--where` expression (an error names the column). Not a plain
/// `fn(&str)` parser: clap would echo the expression as written, and a
/// line break in it would cut the one-line error (`usage_error` keeps the
/// first line).
#[derive(Clone)]
struct WhereParser;

impl clap::builder::TypedValueParser for WhereParser {
    type Value = crate::example::Where;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let text = clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)?;
        crate::example::Where::parse(&text).map_err(|e| {
            let line = format!("invalid value '{text}' for '--where <EXPR>': {e}");
            let line = line.replace('\r', "\\r").replace('\n', "\\n");
            clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{line}\n"))
        })
    }
}

impl WhereArg {
    /// The filter, if given.
    pub(crate) fn get(&self) -> Option<&crate::example::Where> {
        self.filter.as_ref().inspect(|w| w.set_strict(self.strict))
    }

    /// The filter over payloads of `message` (its names resolved as paths
    /// of the message's fields: one no field has is an error now), else
    /// the filter as given.
    pub(crate) fn for_message(
        &self,
        message: Option<&crate::proto::Message>,
    ) -> anyhow::Result<Option<crate::example::Where>> {
        let (Some(w), Some(m)) = (self.get(), message) else {
            return Ok(self.get().cloned());
        };
        let fields = crate::proto::paths::MessageFields::new(m, w.names(), &w.compared_names(), "--where")?;
        Ok(Some(w.bind(std::sync::Arc::new(fields))))
    }

    /// The warnings for the names of --where that no record read has.
    pub(crate) fn warnings(&self) -> Vec<String> {
        match &self.filter {
            Some(w) => w.unmatched().iter().map(|u| format!("warning: --where: {u}")).collect(),
            None => Vec::new(),
        }
    }

    /// With --strict, the error for the names of --where that no record
    /// read has.
    pub(crate) fn strict_error(&self) -> Option<crate::example::filter::UnmatchedNames> {
        self.get().and_then(crate::example::Where::strict_error)
    }
}

/// `--max-bytes`, `--max-values`, `--full` (cat, head).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct ShortArgs {
    /// On a terminal, bytes values longer than N are cut (text to N bytes,
    /// binary data to its first 8) and described (`# JPEG 640x480, 102,400
    /// bytes`). Given, bytes values are shortened on a pipe too.
    #[arg(long, value_name = "N")]
    pub(crate) max_bytes: Option<usize>,

    /// On a terminal, lists longer than N show their first N values and a
    /// summary (`# ... 504 more (512 floats, min -2.3, max 2.1)`). Given,
    /// lists (only) are shortened on a pipe too.
    #[arg(long, value_name = "N")]
    pub(crate) max_values: Option<usize>,

    /// Print every value in full, on a terminal too.
    #[arg(long, conflicts_with_all = ["max_bytes", "max_values"])]
    pub(crate) full: bool,
}

/// Defaults of shortened terminal output.
const MAX_BYTES: usize = 64;
const MAX_VALUES: usize = 8;

impl ShortArgs {
    /// The limits: set when stdout is a terminal (unless `--full`) or when
    /// a limit is given. Piped output is byte-exact by default; on a pipe
    /// a given limit shortens only its own kind (`--max-values` lists,
    /// `--max-bytes` bytes values).
    pub(crate) fn shorten(&self) -> Option<crate::example::Shorten> {
        use std::io::IsTerminal;
        let terminal = std::io::stdout().is_terminal();
        let asked = self.max_bytes.is_some() || self.max_values.is_some();
        let default =
            |given: Option<usize>, on_terminal: usize| given.unwrap_or(if terminal { on_terminal } else { usize::MAX });
        (!self.full && (asked || terminal)).then(|| crate::example::Shorten {
            max_bytes: default(self.max_bytes, MAX_BYTES),
            max_values: default(self.max_values, MAX_VALUES),
        })
    }
}

/// `--decode` (cat, head, to-jsonl).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct DecodeArg {
    /// Records as their tools decode them, one JSON object a line, for
    /// reading (not for from-jsonl). Of a TFDS dataset folder: as TFDS
    /// decodes them (tfds.as_numpy): nested features as objects, tensors
    /// as nested arrays by their shape (bytes- and zlib-encoded ones
    /// decoded), bools as true/false, an RLDS Dataset (steps) as a list of
    /// step objects; images stay their encoded bytes ({"base64": ...}).
    /// Of other inputs: the JSONL mapping, with each bytes value that is a
    /// tensor written by tf.io.serialize_tensor replaced by its values
    /// (nested arrays by its shape, a scalar bare), as tf.io.parse_tensor
    /// gives them.
    #[arg(long)]
    pub(crate) decode: bool,
}

impl DecodeArg {
    /// How records are decoded, when `--decode` is given; `projected`:
    /// `--features`/`--exclude` were given (which select the features of
    /// plain inputs, not a TFDS record's).
    pub(crate) fn get(
        &self,
        files: &[std::ffi::OsString],
        projected: bool,
    ) -> anyhow::Result<Option<crate::tfds::decode::Decoding>> {
        if !self.decode {
            return Ok(None);
        }
        let decoding = crate::tfds::decode::Decoding::of(files)?;
        if decoding.is_tfds() && projected {
            anyhow::bail!("--decode writes whole records as TFDS decodes them: --features/--exclude do not apply");
        }
        Ok(Some(decoding))
    }
}

/// Which features of which records a conversion takes (to-jsonl, to-csv):
/// `--features`/`--exclude`, the record range, `--where`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct PickArgs {
    #[command(flatten)]
    pub(crate) select: FeatureArgs,

    #[command(flatten)]
    pub(crate) range: RangeArgs,

    #[command(flatten)]
    pub(crate) filter: WhereArg,
}

/// How reshard and split write their shards: the sharding flags,
/// `--where`, `--jobs`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ReshapeArgs {
    #[command(flatten)]
    pub(crate) sharding: ShardingArgs,

    #[command(flatten)]
    pub(crate) filter: WhereArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

impl ReshapeArgs {
    /// The whole of reshard's or split's work: every record of `inputs`
    /// (decoded as `types` says) to its group's output of `outputs`, by
    /// `route` (split), in the shards and compression the flags ask for.
    pub(crate) fn reshape(
        &self,
        input: &InputArgs,
        inputs: &[crate::io::Input],
        types: crate::pipeline::batches::Types,
        route: Option<&crate::pipeline::reshape::Route>,
        outputs: Vec<std::path::PathBuf>,
        progress: crate::formats::tfrecord_out::Progress<'_>,
    ) -> anyhow::Result<crate::formats::tfrecord_out::Done> {
        let reading = crate::pipeline::batches::Reading {
            open: &input.options(),
            types,
            jobs: self.jobs.for_inputs(inputs),
            range: crate::pipeline::batches::Range::default(),
            sample: None,
            probe_limit: false,
            filter: self.filter.get(),
        };
        let plan = crate::formats::tfrecord_out::Plan {
            inputs,
            reading: &reading,
            jobs: self.jobs.get(),
            route,
            outputs,
            sharding: self.sharding.sharding(),
            compression: self.sharding.output.forced(),
            strict: self.filter.strict,
        };
        Ok(crate::formats::tfrecord_out::reshape(&plan, progress)?)
    }
}

/// `--shards` / `--shard-size` / `--output-compression` (reshard, split).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct ShardingArgs {
    /// N shards, balanced by records (their counts differ by at most one;
    /// with more shards than records, some are empty). The records are
    /// counted in a first pass: the inputs are read twice (not stdin).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "shard_size")]
    pub(crate) shards: Option<u32>,

    /// Shards of at most SIZE bytes as written (compressed, for a
    /// compressed output; K, M, G: binary units, 100M = 104857600 bytes):
    /// a new shard starts when the next record could go over it; a record
    /// larger than SIZE alone has a shard of its own. One pass; local
    /// outputs only (the count is known at the end).
    #[arg(long, value_name = "SIZE", value_parser = crate::args::parse_size)]
    pub(crate) shard_size: Option<u64>,

    #[command(flatten)]
    pub(crate) output: OutputCompressionArg,
}

impl ShardingArgs {
    /// How each output is cut.
    pub(crate) fn sharding(&self) -> Sharding {
        match (self.shards, self.shard_size) {
            (Some(n), _) => Sharding::Shards(n as usize),
            (None, Some(max)) => Sharding::Size(max),
            (None, None) => Sharding::One,
        }
    }
}

/// What to-parquet and to-arrow share: which records, which features,
/// which schema.
#[cfg(feature = "parquet")]
#[derive(Args, Debug, Clone)]
pub(crate) struct ColumnArgs {
    /// Payload type: auto (the first record decides), example or sequence
    /// (SequenceExample: context features as columns, each feature list a
    /// list<list<…>> column), or event (tf.Event: a column per field, as
    /// with --message).
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    /// The column types from this schema (`tfr schema --format json`)
    /// instead of a first pass over the inputs (needed for stdin, which
    /// cannot be read twice). Features of the records that it does not
    /// name are left out (with a warning); when no record has a feature it
    /// names but records hold others, that is an error (a schema of other
    /// data).
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub(crate) select: FeatureArgs,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,

    #[command(flatten)]
    pub(crate) aux: AuxSizeArg,
}

#[cfg(feature = "parquet")]
impl ColumnArgs {
    /// The columns' options (`--type` checked, `--schema` read), the
    /// inputs opened as `input` says, on `jobs` threads.
    pub(crate) fn columns(
        &self,
        input: &InputArgs,
        jobs: usize,
    ) -> anyhow::Result<crate::formats::columnar_out::Columns<'_>> {
        if matches!(self.payload, PayloadType::Raw | PayloadType::Elwc) {
            anyhow::bail!(
                "--type {}: only Examples and SequenceExamples have a column mapping",
                self.payload.fixed().map_or("", |t| t.name())
            );
        }
        let select = self
            .select
            .projection()
            .map(|p| std::sync::Arc::new(p) as std::sync::Arc<dyn crate::formats::columnar_out::Select>);
        let schema = match &self.schema {
            Some(path) => Some((crate::io::input::show_path(path), self.aux.read(path)?)),
            None => None,
        };
        Ok(crate::formats::columnar_out::Columns {
            ty: self.payload.fixed(),
            schema,
            select,
            filter: self.filter.get(),
            open: input.options(),
            jobs,
        })
    }
}

#[cfg(feature = "parquet")]
impl ColumnArgs {
    /// The columns of `message` (`--message`, event files): its fields
    /// kept by `--features/--exclude`, with a warning line per pattern
    /// that matched no field; the flags that read Examples refused.
    pub(crate) fn message_layout(
        &self,
        message: &crate::proto::Message,
    ) -> anyhow::Result<(crate::proto::arrow::Layout, Vec<String>)> {
        let name = message.desc.full_name();
        if self.schema.is_some() {
            anyhow::bail!("--schema: the columns of {name} come from its descriptor, not from a tfr schema");
        }
        let projection = self.select.projection();
        let keep = |field: &str| projection.as_ref().is_none_or(|p| p.keeps(field));
        let layout = crate::proto::arrow::Layout::new(&message.desc, &keep)?;
        let warnings = projection.iter().flat_map(|p| p.unmatched()).collect();
        Ok((layout, warnings))
    }
}

#[cfg(feature = "parquet")]
impl crate::formats::columnar_out::Select for Projection {
    fn keeps(&self, name: &str) -> bool {
        Projection::keeps(self, name)
    }

    fn verdict(&self, name: &str) -> (bool, bool) {
        Projection::verdict(self, name)
    }

    fn unmatched(&self) -> Vec<String> {
        Projection::unmatched(self)
    }
}

/// The flags of a scan, shared by `schema`, `stats` and `report`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ScanFlags {
    /// Payload type (all inputs are one dataset of one type).
    #[arg(long = "type", short = 't', value_parser = schema_types(), default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    /// Scan only the first N records (over all inputs together).
    #[arg(long, short = 'n', value_name = "N")]
    pub(crate) limit: Option<u64>,

    #[command(flatten)]
    pub(crate) select: FeatureArgs,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// `--rename OLD=NEW`: both names given, and different.
pub(crate) fn parse_rename(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((old, new)) if !old.is_empty() && !new.is_empty() && old != new => Ok((old.to_string(), new.to_string())),
        _ => Err("write OLD=NEW, two different feature names (--rename image/bytes=image/encoded)".into()),
    }
}

/// The `--rename OLD=NEW`s, each OLD once.
pub(crate) fn check_renames(renames: &[(String, String)]) -> anyhow::Result<()> {
    for (k, (old, _)) in renames.iter().enumerate() {
        if renames[..k].iter().any(|(o, _)| o == old) {
            let shown = crate::io::input::escape_name(old.as_bytes());
            anyhow::bail!("--rename {shown}=…: {shown} is renamed twice");
        }
    }
    Ok(())
}

/// `--records LIST` (cat, head, to-jsonl): record numbers and inclusive
/// ranges, 0-based over the inputs taken together (`17,1000-1010`).
#[derive(Debug, Clone)]
pub(crate) struct RecordList(pub(crate) Vec<std::ops::RangeInclusive<u64>>);

/// Parses `--records`.
pub(crate) fn parse_records(text: &str) -> Result<RecordList, String> {
    tfr_engine::access::parse_list(text).map(RecordList)
}
