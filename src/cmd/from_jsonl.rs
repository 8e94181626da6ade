//! `tfr from-jsonl`: JSON lines to TFRecord records (the reverse of
//! to-jsonl, [`crate::formats::jsonl`]), written atomically, optionally
//! compressed. A bad line stops the run; the output was going to a
//! temporary file, which is then removed, so nothing partial is left and
//! an existing OUT is untouched (with `-o -` the records before the bad
//! line were already sent).

use crate::args::{alias_compression, JobsArg, JsonFormatArg, OutputCompressionArg, PayloadType, ProtoArgs};
use crate::example::json::JsonFormat;
use crate::example::MessageType;
use crate::exit::Exit;
use crate::formats::jsonl::{convert, convert_messages, OnKindChange, Options};
use crate::io::AtomicOutput;
use crate::output::{self, Ctx};
use anyhow::{bail, Result};
use clap::Args;
use std::io::{self, IsTerminal};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(mut_arg("output_compression", alias_compression))]
#[command(mut_arg("message", |a| a.help(MESSAGE_HELP)))]
pub(crate) struct FromJsonlArgs {
    /// Input JSONL files: paths, quoted globs, directories (their .jsonl,
    /// .ndjson and .json files), or '-' for stdin (the default when piped).
    /// gzip or zlib input is detected and inflated.
    #[arg(value_name = "FILES")]
    pub(crate) files: Vec<std::ffi::OsString>,

    /// The TFRecord file to write ('-' for stdout). It appears only when
    /// every line converted. Its directory must exist (as for a shell
    /// redirect; reshard, split and shuffle create theirs).
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) compression: OutputCompressionArg,

    /// Message type of the records. auto: an ExampleListWithContext when the
    /// first line has an "examples" array of Examples (and at most
    /// "context" besides); a SequenceExample when its only keys are
    /// "context" (holding an object of features) and/or "feature_lists"
    /// (protojson: "context" or "featureLists"); else an Example; raw: each
    /// line is the payload, a JSON string or {"base64": "..."}.
    #[arg(long = "type", short = 't', value_parser = crate::args::record_types(), default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    /// Input form.
    #[arg(long, short = 'f', value_enum, default_value_t = JsonFormatArg::Natural)]
    pub(crate) format: JsonFormatArg,

    /// A schema from `tfr schema --format json`: forces the kind (int64,
    /// float, bytes) of each feature it names; others are inferred.
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,

    /// The longest line read (bytes; K, M, G suffixes): a longer one stops
    /// the run with an error instead of filling memory (converting a line
    /// takes a few times its size).
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = crate::args::parse_size)]
    pub(crate) max_line_size: u64,

    /// When a plain value has another kind than its feature's first value
    /// (a typed value, {"int64_list": [...]} etc., is taken as it says).
    /// error: a feature seen as float takes later integers as floats
    /// (exact up to 2^24 in magnitude; a warning names the first line
    /// whose integer float32 holds only rounded), and any other change
    /// (int64 then float, bytes and numbers) stops the run naming both
    /// lines, exit 2, nothing written; keep: each line is written with the
    /// kinds it reads as, and a warning per feature names the lines
    /// (TensorFlow parses a feature as one kind, so such a file fails its
    /// parse spec).
    #[arg(long, value_enum, default_value_t = OnKindChangeArg::Error, value_name = "WHAT")]
    pub(crate) on_kind_change: OnKindChangeArg,

    #[command(flatten)]
    pub(crate) aux: crate::args::AuxSizeArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,

    #[command(flatten)]
    pub(crate) proto: ProtoArgs,
}

/// `--message` as from-jsonl reads it.
const MESSAGE_HELP: &str =
    "Each line is this protobuf message (its full name, pkg.Msg; its definition from --proto or \
     --descriptor-set) in protobuf's JSON mapping, read as Python's json_format.Parse reads it (proto or JSON \
     field names, integers as numbers or strings, enums by name or number, base64 bytes, the well-known types' \
     JSON forms, Any by \"@type\"), and written as SerializeToString(deterministic=True) writes it: the reverse \
     of to-jsonl --message";

pub(crate) fn run(args: &FromJsonlArgs, ctx: &Ctx) -> Result<Exit> {
    if let Some(msg) = args.proto.load()? {
        return run_message(args, ctx, &msg);
    }
    let format: JsonFormat = args.format.into();
    let schema = match &args.schema {
        Some(path) => {
            if format == JsonFormat::Protojson {
                bail!("--schema applies to the natural JSONL form; protojson names every kind");
            }
            Some(args.aux.read_kinds(path)?)
        }
        None => None,
    };
    let ty = args.payload.fixed().or(schema.as_ref().and_then(|s| s.message));
    if let (Some(t), Some(s)) = (ty, schema.as_ref().and_then(|s| s.message)) {
        if t != s && t != MessageType::Raw {
            bail!("--type {} does not match the schema's type", t.name());
        }
    }
    let to_stdout = args.output.as_os_str() == "-";
    if to_stdout && io::stdout().is_terminal() {
        bail!("refusing to write binary records to a terminal (redirect stdout, or use -o FILE)");
    }
    let inputs = crate::io::input::expand_as(&args.files, crate::io::input::Looks::Jsonl)?;
    let aux: Vec<&std::path::Path> = args.schema.iter().map(|p| p.as_path()).collect();
    crate::io::same_file::refuse_input_as_output(&inputs, &aux, &args.output, "-o")?;
    let jobs = args.jobs.get();
    let compression = args.compression.of(&args.output);
    let mut out = AtomicOutput::create_threaded(&args.output, compression, jobs)?;
    let opts = Options {
        format,
        schema,
        ty,
        max_line_size: args.max_line_size,
        on_kind_change: args.on_kind_change.into(),
        workers: crate::pipeline::workers(jobs),
    };
    let progress = ctx.progress(None);
    let converted = convert(&inputs, &opts, &mut out, &|bytes, lines| progress.update(bytes, lines));
    progress.finish();
    let converted = converted?;
    out.commit()?;
    for line in converted.warnings(&inputs) {
        output::error_line(format_args!("{line}"));
    }
    Ok(Exit::Success)
}

/// `from-jsonl --message`: each line one message of any type.
fn run_message(args: &FromJsonlArgs, ctx: &Ctx, msg: &crate::proto::Message) -> Result<Exit> {
    let name = msg.desc.full_name();
    if args.schema.is_some() {
        bail!("--schema: not with --message {name} (a schema is for Examples; the message names every type)");
    }
    if JsonFormat::from(args.format) == JsonFormat::Protojson {
        bail!("--format protojson: not with --message {name} (its lines are protobuf's JSON mapping already)");
    }
    if !matches!(args.payload, PayloadType::Auto | PayloadType::Raw) {
        bail!("--message {name}: not with --type {}", args.payload);
    }
    let to_stdout = args.output.as_os_str() == "-";
    if to_stdout && io::stdout().is_terminal() {
        bail!("refusing to write binary records to a terminal (redirect stdout, or use -o FILE)");
    }
    let inputs = crate::io::input::expand_as(&args.files, crate::io::input::Looks::Jsonl)?;
    let aux: Vec<&std::path::Path> = args
        .proto
        .proto
        .iter()
        .chain(&args.proto.descriptor_set)
        .map(|p| p.as_path())
        .collect();
    crate::io::same_file::refuse_input_as_output(&inputs, &aux, &args.output, "-o")?;
    let jobs = args.jobs.get();
    let compression = args.compression.of(&args.output);
    let mut out = AtomicOutput::create_threaded(&args.output, compression, jobs)?;
    let progress = ctx.progress(None);
    let update = |bytes, lines| progress.update(bytes, lines);
    let workers = crate::pipeline::workers(jobs);
    let converted = convert_messages(&inputs, msg, args.max_line_size, workers, &mut out, &update);
    progress.finish();
    converted?;
    out.commit()?;
    Ok(Exit::Success)
}

/// `--on-kind-change` (the format's [`OnKindChange`], as a flag value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OnKindChangeArg {
    /// Integers after floats become floats; other changes are errors.
    Error,
    /// Every line as it reads; a warning per feature.
    Keep,
}

impl From<OnKindChangeArg> for OnKindChange {
    fn from(o: OnKindChangeArg) -> OnKindChange {
        match o {
            OnKindChangeArg::Error => OnKindChange::Error,
            OnKindChangeArg::Keep => OnKindChange::Keep,
        }
    }
}
