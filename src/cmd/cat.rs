//! `tfr cat` and `tfr head`: print records (head is cat with a limit).

use crate::cli::InputArgs;
use crate::example::{self, MessageType};
use crate::exit::Exit;
use crate::output::{self, Ctx};
use anyhow::{Context, Result};
use clap::Args;
use std::io::{IsTerminal, Write};

/// `--type`: what the payloads are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PayloadType {
    /// The first record of each input decides: a SequenceExample when it has
    /// feature_lists, else an Example.
    #[default]
    Auto,
    /// tf.train.Example.
    Example,
    /// tf.train.SequenceExample.
    Sequence,
    /// Any bytes, printed escaped.
    Raw,
}

impl PayloadType {
    /// The fixed message type, or `None` for auto.
    pub fn fixed(self) -> Option<MessageType> {
        match self {
            PayloadType::Auto => None,
            PayloadType::Example => Some(MessageType::Example),
            PayloadType::Sequence => Some(MessageType::SequenceExample),
            PayloadType::Raw => Some(MessageType::Raw),
        }
    }
}

/// `--format` of printed records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// protobuf text format, as Python's text_format.MessageToString prints it.
    #[default]
    Text,
    /// The JSONL mapping (as to-jsonl), one line per record, no comment lines.
    Json,
    /// Protobuf's JSON mapping (json_format.MessageToJson), one line per record.
    Protojson,
}

/// Options shared by cat and head.
#[derive(Args, Debug, Clone)]
pub struct PrintArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Payload type.
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub payload: PayloadType,
}

#[derive(Args, Debug, Clone)]
pub struct CatArgs {
    #[command(flatten)]
    pub print: PrintArgs,
}

#[derive(Args, Debug, Clone)]
pub struct HeadArgs {
    /// Number of records to print (over all inputs together).
    #[arg(short = 'n', long = "lines", default_value_t = 10, value_name = "N")]
    pub count: u64,

    #[command(flatten)]
    pub print: PrintArgs,
}

pub fn run_cat(args: &CatArgs, ctx: &Ctx) -> Result<Exit> {
    print_records(&args.print, ctx, None)
}

pub fn run_head(args: &HeadArgs, ctx: &Ctx) -> Result<Exit> {
    print_records(&args.print, ctx, Some(args.count))
}

/// Prints the records of every input, at most `limit` in all.
fn print_records(args: &PrintArgs, ctx: &Ctx, limit: Option<u64>) -> Result<Exit> {
    let inputs = super::inputs(&args.input)?;
    let mut out = output::stdout();
    let result = print_into(&mut out, &inputs, args, ctx, limit);
    // Emit everything before the damage, then report it.
    let flushed = out.flush().context("writing output");
    result.and(flushed.map(|_| Exit::Success))
}

fn print_into(
    out: &mut dyn Write,
    inputs: &[crate::input::Input],
    args: &PrintArgs,
    ctx: &Ctx,
    limit: Option<u64>,
) -> Result<Exit> {
    if limit == Some(0) {
        return Ok(Exit::Success);
    }
    let several = inputs.len() > 1;
    let progress = if std::io::stdout().is_terminal() {
        ctx.progress_hidden()
    } else {
        ctx.progress(None)
    };
    let mut printed = 0u64;
    let mut buf = Vec::with_capacity(64 * 1024);
    for input in inputs {
        let mut reader = super::open_input(input, &args.input)?;
        let name = input.display();
        let strict = args.payload == PayloadType::Auto;
        let mut ty = args.payload.fixed();
        while let Some(rec) = reader.next_record().map_err(|e| super::read_error(input, e))? {
            let t = match ty {
                Some(t) => t,
                None => {
                    let t =
                        example::resolve_auto(rec.data).map_err(|e| decode_error(&name, rec.index, rec.offset, e))?;
                    ty = Some(t);
                    t
                }
            };
            buf.clear();
            let rendered = match args.format {
                Format::Text => {
                    let label = if several {
                        format!("# {name} record {}", rec.index)
                    } else {
                        format!("# record {}", rec.index)
                    };
                    buf.extend_from_slice(output::dim(&label, ctx.color).as_bytes());
                    buf.push(b'\n');
                    example::render_text(t, strict, rec.data, &mut buf)
                }
                Format::Json => example::json::render_json(t, strict, rec.data, &mut buf),
                Format::Protojson => example::json::render_protojson(t, strict, rec.data, &mut buf),
            };
            rendered.map_err(|e| decode_error(&name, rec.index, rec.offset, e))?;
            out.write_all(&buf).context("writing output")?;
            printed += 1;
            if printed & 0xfff == 0 {
                progress.update(reader.offset(), printed);
            }
            if Some(printed) == limit {
                return Ok(Exit::Success);
            }
        }
    }
    Ok(Exit::Success)
}

/// A payload that is not the expected message, named by file, record and offset.
pub fn decode_error(name: &str, index: u64, offset: u64, e: example::DecodeError) -> anyhow::Error {
    anyhow::Error::new(e).context(format!("{name}: record {index} at byte {offset}"))
}
