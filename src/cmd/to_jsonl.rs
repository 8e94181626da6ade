//! `tfr to-jsonl`: records as JSON lines, one compact object per record (the
//! JSONL mapping of [`crate::example::json`], or protojson).
//!
//! One thread reads records in batches, workers (one per core) render them,
//! one thread writes the lines in order ([`jsonl_pipeline`]). With `-o OUT`
//! the file appears only when every record converted; on stdout the lines
//! before a damaged record are written, then the error.

use crate::cli::InputArgs;
use crate::cmd::cat::PayloadType;
use crate::cmd::jsonl_pipeline;
use crate::example::{self, Decoder, MessageType};
use crate::exit::Exit;
use crate::output::Ctx;
use crate::output_file::AtomicOutput;
use crate::record::Compression;
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// `--format` of JSON lines (to-jsonl output, from-jsonl input).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum JsonFormatArg {
    /// The natural JSONL mapping: {"name": [v, ...], ...}.
    #[default]
    Json,
    /// Protobuf's JSON mapping (json_format.MessageToJson, one line).
    Protojson,
}

impl JsonFormatArg {
    pub fn format(self) -> example::json_read::JsonFormat {
        match self {
            JsonFormatArg::Json => example::json_read::JsonFormat::Natural,
            JsonFormatArg::Protojson => example::json_read::JsonFormat::Protojson,
        }
    }
}

#[derive(Args, Debug, Clone)]
pub struct ToJsonlArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Payload type.
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub payload: PayloadType,

    /// Output form.
    #[arg(long, short = 'f', value_enum, default_value_t = JsonFormatArg::Json)]
    pub format: JsonFormatArg,

    /// Write to OUT (through a temporary file renamed on success, so a failed
    /// run leaves nothing) instead of stdout.
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Payload bytes per batch handed to a worker.
const BATCH: usize = 256 * 1024;

/// Records of one input for a worker to render.
struct Batch {
    data: Vec<u8>,
    /// Per record: end of its payload in `data`, index, byte offset.
    records: Vec<(usize, u64, u64)>,
    ty: MessageType,
    strict: bool,
    name: Arc<str>,
}

pub fn run(args: &ToJsonlArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = super::inputs(&args.input)?;
    // Open the output first: an unwritable target fails before any work.
    let mut atomic = match &args.output {
        Some(path) if path.as_os_str() != "-" => Some(AtomicOutput::create(path, Compression::None)?),
        _ => None,
    };
    let render = match args.format {
        JsonFormatArg::Json => example::json::render_json_with,
        JsonFormatArg::Protojson => example::json::render_protojson_with,
    };
    let work = |batch: Batch, out: &mut Vec<u8>| -> Result<()> {
        thread_local! {
            static DECODER: std::cell::RefCell<Decoder> = std::cell::RefCell::default();
        }
        DECODER.with_borrow_mut(|decoder| {
            let mut start = 0;
            for &(end, index, offset) in &batch.records {
                render(decoder, batch.ty, batch.strict, &batch.data[start..end], out)
                    .map_err(|e| super::cat::decode_error(&batch.name, index, offset, e))?;
                start = end;
            }
            Ok(())
        })
    };
    {
        let mut stdout;
        let out: &mut (dyn Write + Send) = match &mut atomic {
            Some(a) => a,
            None => {
                stdout = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout());
                &mut stdout
            }
        };
        let write = |bytes: &[u8]| out.write_all(bytes);
        let produce = |tx: &mut jsonl_pipeline::Sender<Batch>| produce(&inputs, args, ctx, tx);
        let result = jsonl_pipeline::run(jsonl_pipeline::workers(), produce, work, write);
        let flushed = out.flush().context("writing output");
        result?;
        flushed?;
    }
    if let Some(a) = atomic {
        a.commit()?;
    }
    Ok(Exit::Success)
}

/// Reads the records of every input into batches.
fn produce(
    inputs: &[crate::input::Input],
    args: &ToJsonlArgs,
    ctx: &Ctx,
    tx: &mut jsonl_pipeline::Sender<Batch>,
) -> Result<()> {
    let progress = ctx.progress(None);
    let mut records = 0u64;
    let strict = args.payload == PayloadType::Auto;
    for input in inputs {
        let mut reader = super::open_input(input, &args.input)?;
        let name: Arc<str> = input.display().into();
        let mut ty: Option<MessageType> = args.payload.fixed();
        let mut batch: Option<Batch> = None;
        let result = (|| -> Result<()> {
            while let Some(rec) = reader.next_record().map_err(|e| super::read_error(input, e))? {
                let t = match ty {
                    Some(t) => t,
                    None => *ty.insert(
                        example::resolve_auto(rec.data)
                            .map_err(|e| super::cat::decode_error(&name, rec.index, rec.offset, e))?,
                    ),
                };
                let b = batch.get_or_insert_with(|| Batch {
                    data: Vec::with_capacity(BATCH + BATCH / 4),
                    records: Vec::with_capacity(4096),
                    ty: t,
                    strict,
                    name: name.clone(),
                });
                b.data.extend_from_slice(rec.data);
                b.records.push((b.data.len(), rec.index, rec.offset));
                records += 1;
                if b.data.len() >= BATCH || b.records.len() >= 8192 {
                    tx.send(batch.take().expect("a batch"))?;
                    progress.update(reader.offset(), records);
                }
            }
            Ok(())
        })();
        // Everything before the damage goes out, then the error.
        if let Some(b) = batch.take() {
            tx.send(b)?;
        }
        result?;
    }
    Ok(())
}
