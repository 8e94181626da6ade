//! `tfr cat` and `tfr head`: print records (head is cat with a limit).

use crate::args::{InputArgs, JobsArg, PayloadType};
use crate::example::{self, Decoder, Format, MessageType, Out};
use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::pipeline::batches::{self, decode_error, Batch};
use crate::pipeline::{self, Sender};
use crate::record;
use anyhow::{Context, Result};
use clap::Args;
use std::io::{IsTerminal, Write};

/// Options shared by cat and head.
#[derive(Args, Debug, Clone)]
pub(crate) struct PrintArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,

    /// Payload type.
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,
}

#[derive(Args, Debug, Clone)]
pub(crate) struct CatArgs {
    #[command(flatten)]
    pub(crate) print: PrintArgs,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

#[derive(Args, Debug, Clone)]
pub(crate) struct HeadArgs {
    /// Number of records to print (over all inputs together).
    #[arg(short = 'n', long = "lines", default_value_t = 10, value_name = "N")]
    pub(crate) count: u64,

    #[command(flatten)]
    pub(crate) print: PrintArgs,
}

/// `cat`: inputs read (and inflated) up to `--jobs` at once, records
/// rendered by workers, written in input order ([`pipeline::run`]).
pub(crate) fn run_cat(args: &CatArgs, ctx: &Ctx) -> Result<Exit> {
    let print = &args.print;
    let inputs = print.input.expand()?;
    let several = inputs.len() > 1;
    let progress = print_progress(ctx);
    let color = ctx.color;
    let format = print.format;
    let render_one = |decoder: &mut Decoder, r: &batches::Record<'_>, out: &mut Out<'_>| -> Result<()> {
        let label = Label {
            name: r.name,
            several,
            color,
            index: r.index,
        };
        render(decoder, format, r.ty, r.strict, &label, r.payload, out)
            .map_err(|e| decode_error(r.name, r.index, r.offset, e))
    };
    let work = |batch: &mut Batch, out: &mut Vec<u8>| batch.render(&render_one, out);
    let jobs = args.jobs.get();
    let mut stdout = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout());
    let out = &mut stdout;
    // Flushed whenever the writer waits: a slow stream's records show at once.
    let write = |bytes: &Vec<u8>| {
        if bytes.is_empty() {
            out.flush()
        } else {
            out.write_all(bytes)
        }
    };
    let produce = |tx: &mut Sender<Batch>| {
        let open = print.input.options();
        let update = |bytes, records| progress.update(bytes, records);
        batches::produce(&inputs, &open, print.payload.fixed(), jobs, &update, &render_one, tx)
    };
    let result = pipeline::run(pipeline::workers(jobs), produce, work, write);
    // Emit everything before the damage, then report it.
    let flushed = stdout.flush().context("writing output");
    result.and(flushed).map(|_| Exit::Success)
}

/// The comment line before a record in text format.
struct Label<'a> {
    name: &'a str,
    /// Several inputs: the line names the input.
    several: bool,
    color: bool,
    index: u64,
}

/// Appends one record as printed by cat and head (text: a comment line
/// naming it, then the message). On error `out` is left as it was.
fn render(
    decoder: &mut Decoder,
    format: Format,
    ty: MessageType,
    strict: bool,
    label: &Label,
    payload: &[u8],
    out: &mut Out<'_>,
) -> Result<(), example::DecodeError> {
    match format {
        Format::Text => {
            let start = out.len();
            let line = if label.several {
                format!("# {} record {}", label.name, label.index)
            } else {
                format!("# record {}", label.index)
            };
            out.extend_from_slice(output::dim(&line, label.color).as_bytes());
            out.push(b'\n');
            example::render_out(decoder, format, ty, strict, payload, out).inspect_err(|_| out.truncate(start))
        }
        _ => example::render_out(decoder, format, ty, strict, payload, out),
    }
}

/// Progress of cat and head: never over records printed to a terminal.
fn print_progress(ctx: &Ctx) -> output::Progress {
    if std::io::stdout().is_terminal() {
        ctx.progress_hidden()
    } else {
        ctx.progress(None)
    }
}

/// `head`: sequential, stopping as soon as N records are printed.
pub(crate) fn run_head(args: &HeadArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.print.input.expand()?;
    let mut out = output::stdout();
    let result = print_first(&mut out, &inputs, &args.print, ctx, args.count);
    // Emit everything before the damage, then report it.
    let flushed = out.flush().context("writing output");
    result.and(flushed.map(|_| Exit::Success))
}

/// Prints the first `limit` records of the inputs taken together.
fn print_first(
    out: &mut dyn Write,
    inputs: &[crate::io::Input],
    args: &PrintArgs,
    ctx: &Ctx,
    limit: u64,
) -> Result<Exit> {
    if limit == 0 {
        return Ok(Exit::Success);
    }
    let several = inputs.len() > 1;
    let progress = print_progress(ctx);
    let mut printed = 0u64;
    let mut buf = Vec::with_capacity(64 * 1024);
    // A long rendering goes out as it is made (a megabyte at a time).
    let mut sink = |bytes: &[u8]| out.write_all(bytes);
    let mut decoder = Decoder::default();
    for input in inputs {
        let mut reader = args.input.open(input)?;
        let name = input.display();
        let strict = args.payload == PayloadType::Auto;
        let mut ty = args.payload.fixed();
        while let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? {
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
            let label = Label {
                name: &name,
                several,
                color: ctx.color,
                index: rec.index,
            };
            let mut spilling = Out::spilling(&mut buf, &mut sink);
            let rendered = render(&mut decoder, args.format, t, strict, &label, rec.data, &mut spilling);
            spilling.finish().context("writing output")?;
            rendered.map_err(|e| decode_error(&name, rec.index, rec.offset, e))?;
            sink(&buf).context("writing output")?;
            printed += 1;
            if printed & 0xfff == 0 {
                progress.update(reader.offset(), printed);
            }
            if printed == limit {
                return Ok(Exit::Success);
            }
        }
    }
    Ok(Exit::Success)
}
