//! `tfr cat` and `tfr head`: print records (head is cat with a limit).

use crate::args::{FeatureArgs, FormatArg, InputArgs, JobsArg, PayloadType, RangeArgs, ShortArgs, WhereArg};
use crate::example::json::render::{KindFix, KindTable, Tracking};
use crate::example::{self, Decoder, Format, Keep, Look, MessageType, Out};
use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::pipeline::batches::{self, decode_error, Render, Rendered};
use crate::pipeline::Output as _;
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
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Text)]
    pub(crate) format: FormatArg,

    #[command(flatten)]
    pub(crate) payload: crate::args::TypeArg,

    #[command(flatten)]
    pub(crate) short: ShortArgs,

    #[command(flatten)]
    pub(crate) select: FeatureArgs,

    #[command(flatten)]
    pub(crate) decode: crate::args::DecodeArg,

    #[command(flatten)]
    pub(crate) proto: crate::args::ProtoArgs,
}

impl PrintArgs {
    /// Runs `f` with how records are printed; then warns about feature
    /// patterns that matched nothing.
    fn with_style(
        &self,
        inputs: &[crate::io::Input],
        color: bool,
        f: impl FnOnce(&Style<'_>) -> Result<Exit>,
    ) -> Result<Exit> {
        let several = inputs.len() > 1;
        let message = self.proto.message(self.payload.payload, inputs)?;
        if message.is_some() && self.decode.decode {
            anyhow::bail!("--decode reads Examples: not with --message or event files");
        }
        let projection = self.select.projection();
        if message.is_some() && projection.is_some() {
            anyhow::bail!(
                "--features/--exclude pick Example features: not with --message or event files (--where reads fields)"
            );
        }
        let keep = |key: &str| projection.as_ref().is_none_or(|p| p.keeps(key));
        let names = crate::tfds::inputs::class_names(&self.input.files);
        let decode = self.decode.get(&self.input.files, projection.is_some())?;
        let format = match (decode.is_some(), self.format) {
            (true, FormatArg::Protojson) => {
                anyhow::bail!("--decode writes the JSONL mapping: it does not go with -f protojson")
            }
            (true, _) => Format::Json,
            (false, f) => f.into(),
        };
        let style = Style {
            format,
            decode: decode.as_ref(),
            message: message.as_ref(),
            look: Look {
                short: self.short.shorten(),
                keep: projection.is_some().then_some(&keep as Keep<'_>),
                scalars: None,
                names: names.as_ref().map(|n| n as &dyn crate::example::ClassNames),
                bytes: None,
            },
            several,
            color,
        };
        let result = f(&style);
        if let Some(p) = &projection {
            for warning in p.unmatched() {
                output::error_line(format_args!("{warning}"));
            }
        }
        result
    }
}

/// What `--records` does not go with.
const CONFLICTS: [&str; 4] = ["skip", "limit", "sample", "part"];

#[derive(Args, Debug, Clone)]
pub(crate) struct CatArgs {
    #[command(flatten)]
    pub(crate) print: PrintArgs,

    /// Only these records, in the order given: 0-based numbers over the
    /// inputs taken together and inclusive ranges (17,1000-1010). Read by
    /// number: through each input's `tfr index` file when it still matches
    /// (milliseconds on a million records), else an index built by reading
    /// the headers (gzip and zlib: a seek index built as they are
    /// inflated; SNAPPY is not read by number). With --where: the listed
    /// records that match. A number past the end is an error.
    #[arg(long, value_name = "LIST", value_parser = crate::args::parse_records, conflicts_with_all = CONFLICTS, help_heading = "Selection")]
    pub(crate) records: Option<crate::args::RecordList>,

    #[command(flatten)]
    pub(crate) range: RangeArgs,

    #[command(flatten)]
    pub(crate) filter: WhereArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

#[derive(Args, Debug, Clone)]
pub(crate) struct HeadArgs {
    /// Number of records to print (over all inputs together).
    #[arg(short = 'n', long = "lines", default_value_t = 10, value_name = "N")]
    pub(crate) count: u64,

    /// Only these records, in the order given: 0-based numbers over the
    /// inputs taken together and inclusive ranges (17,1000-1010). Read by
    /// number: through each input's `tfr index` file when it still matches
    /// (milliseconds on a million records), else an index built by reading
    /// the headers (gzip and zlib: a seek index built as they are
    /// inflated; SNAPPY is not read by number). With --where: the listed
    /// records that match. A number past the end is an error.
    #[arg(long, value_name = "LIST", value_parser = crate::args::parse_records, conflicts_with_all = ["skip", "count", "part"], help_heading = "Selection")]
    pub(crate) records: Option<crate::args::RecordList>,

    /// Skip the first N records of the inputs taken together (hopped over
    /// header by header on plain files).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) skip: u64,

    #[command(flatten)]
    pub(crate) print: PrintArgs,

    #[command(flatten)]
    pub(crate) filter: WhereArg,
}

/// `cat`: inputs read (and inflated) up to `--jobs` at once, records
/// rendered by workers, written in input order ([`pipeline::run`]).
pub(crate) fn run_cat(args: &CatArgs, ctx: &Ctx) -> Result<Exit> {
    let print = &args.print;
    let inputs = print.input.expand()?;
    let progress = print_progress(ctx);
    if let Some(list) = &args.records {
        return print_listed(&inputs, list, print, &args.filter, ctx);
    }
    print.with_style(&inputs, ctx.color, |style| cat_styled(args, &inputs, style, &progress))
}

fn cat_styled(
    args: &CatArgs,
    inputs: &[crate::io::Input],
    style: &Style<'_>,
    progress: &output::Progress,
) -> Result<Exit> {
    let print = &args.print;
    let render_one = |decoder: &mut Decoder, r: &batches::Record<'_>, out: &mut Out<'_>| -> tfr_engine::Result<()> {
        if let Some(d) = style.decode {
            return d.line(
                decoder,
                &style.look,
                (r.ty, r.strict),
                r.payload,
                (r.name, r.index, r.offset),
                out,
            );
        }
        let label = Label {
            name: r.name,
            index: r.index,
        };
        render(decoder, style, r.ty, r.strict, &label, r.payload, out)
            .map_err(|e| decode_error(r.name, r.index, r.offset, e))
    };
    let jobs = args.jobs.get();
    let mut stdout = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout());
    let out = &mut stdout;
    // Flushed whenever the writer waits: a slow stream's records show at once.
    // The JSONL mapping: a value whose name had another kind in an earlier
    // record is written typed, as to-jsonl does.
    let table = KindTable::new();
    let track = matches!(style.format, Format::Json) && style.decode.is_none();
    let mut fix = KindFix::new(&table);
    let write = |r: &Rendered| {
        if r.is_empty() {
            out.flush()
        } else {
            out.write_all(fix.fix(&r.bytes, &r.notes))
        }
    };
    let open = print.input.options();
    let update = |bytes, records| progress.update(bytes, records);
    let ty = match style.message {
        Some(_) => Some(MessageType::Raw),
        None => print.payload.fixed(),
    };
    let filter = args.filter.for_message(style.message)?;
    let mut how = args.range.reading(&open, ty, jobs);
    how.filter = filter.as_ref();
    let (_, result) = batches::run(
        inputs,
        &how,
        pipeline::workers(jobs),
        &Render::expanding(render_one).tracking_kinds(track.then_some(&table)),
        write,
        &update,
    );
    // Emit everything before the damage, then report it.
    let flushed = stdout.flush().context("writing output");
    result?;
    flushed.map(|_| Exit::Success)
}

/// How cat and head print records.
struct Style<'a> {
    format: Format,
    /// `--decode`: records as their tools decode them (JSON lines).
    decode: Option<&'a crate::tfds::decode::Decoding>,
    /// Payloads of this message (`--message`, event files).
    message: Option<&'a crate::proto::Message>,
    look: Look<'a>,
    /// Several inputs: the comment line names the input.
    several: bool,
    color: bool,
}

/// The comment line before a record in text format.
struct Label<'a> {
    name: &'a str,
    index: u64,
}

/// Appends one record as printed by cat and head (text: a comment line
/// naming it, then the message). On error `out` is left as it was.
fn render(
    decoder: &mut Decoder,
    style: &Style<'_>,
    ty: MessageType,
    strict: bool,
    label: &Label,
    payload: &[u8],
    out: &mut Out<'_>,
) -> Result<(), example::DecodeError> {
    let (format, look) = (style.format, &style.look);
    if let Some(m) = style.message {
        return message_out(m, style, label, payload, out);
    }
    match format {
        Format::Text => {
            let start = out.len();
            let line = if style.several {
                format!("# {} record {}", label.name, label.index)
            } else {
                format!("# record {}", label.index)
            };
            out.extend_from_slice(output::dim(&line, style.color).as_bytes());
            out.push(b'\n');
            example::render_out(decoder, format, look, ty, strict, payload, out).inspect_err(|_| out.truncate(start))
        }
        _ => example::render_out(decoder, format, look, ty, strict, payload, out),
    }
}

/// A payload of `m`: text format after its comment line, or one JSON line.
/// On error `out` is left as it was.
fn message_out(
    m: &crate::proto::Message,
    style: &Style<'_>,
    label: &Label,
    payload: &[u8],
    out: &mut Out<'_>,
) -> Result<(), example::DecodeError> {
    let start = out.len();
    let form = match style.format {
        Format::Text => {
            let line = match style.several {
                true => format!("# {} record {}", label.name, label.index),
                false => format!("# record {}", label.index),
            };
            out.extend_from_slice(output::dim(&line, style.color).as_bytes());
            out.push(b'\n');
            crate::proto::Form::Text
        }
        _ => crate::proto::Form::Json,
    };
    m.render(payload, form, out).inspect_err(|_| out.truncate(start))?;
    if form == crate::proto::Form::Json {
        out.push(b'\n');
    }
    Ok(())
}

/// Progress of cat and head: never over records printed to a terminal.
fn print_progress(ctx: &Ctx) -> output::Progress {
    if std::io::stdout().is_terminal() {
        ctx.progress_hidden()
    } else {
        ctx.progress(None)
    }
}

/// Records up to this size are rendered whole by `head` (so that their
/// JSON lines can be fixed, see [`KindFix`]); larger ones go out as made,
/// as cat's do.
const WHOLE: usize = batches::HUGE;

/// `head`: sequential, stopping as soon as N records are printed.
pub(crate) fn run_head(args: &HeadArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.print.input.expand()?;
    if let Some(list) = &args.records {
        return print_listed(&inputs, list, &args.print, &args.filter, ctx);
    }
    let mut out = output::stdout();
    let result = args.print.with_style(&inputs, ctx.color, |style| {
        print_first(&mut out, &inputs, args, style, ctx)
    });
    // Emit everything before the damage, then report it.
    let flushed = out.flush().context("writing output");
    result.and(flushed.map(|_| Exit::Success))
}

/// Prints the first `limit` records of the inputs taken together.
fn print_first(
    out: &mut dyn Write,
    inputs: &[crate::io::Input],
    head: &HeadArgs,
    style: &Style<'_>,
    ctx: &Ctx,
) -> Result<Exit> {
    let (args, limit) = (&head.print, head.count);
    if limit == 0 {
        return Ok(Exit::Success);
    }
    let mut to_skip = head.skip;
    // `--where`: the skip and the limit count matching records, so each
    // record is read and evaluated.
    let filter = head.filter.for_message(style.message)?;
    let filter = filter.as_ref();
    let progress = print_progress(ctx);
    let mut printed = 0u64;
    let table = KindTable::new();
    let mut printer = Printer {
        out,
        buf: Vec::with_capacity(64 * 1024),
        decoder: Decoder::default(),
        track: matches!(style.format, Format::Json) && style.decode.is_none(),
        table: &table,
        fix: KindFix::new(&table),
    };
    for input in inputs {
        let mut reader = args.input.open(input)?;
        let name = input.display();
        let strict = args.payload.payload == PayloadType::Auto;
        let mut ty = style.message.map_or(args.payload.fixed(), |_| Some(MessageType::Raw));
        if filter.is_none() {
            to_skip = skip_records(&mut reader, input, to_skip)?;
            if to_skip > 0 {
                continue;
            }
        }
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
            let record = batches::Record {
                payload: rec.data,
                index: rec.index,
                offset: rec.offset,
                input: 0,
                name: &name,
                ty: t,
                strict,
                crc: rec.crc,
            };
            if let Some(f) = filter {
                if !batches::keeps(f, &mut printer.decoder, &record)? {
                    continue;
                }
                if to_skip > 0 {
                    to_skip -= 1;
                    continue;
                }
            }
            printer.print(style, &record)?;
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

/// `--records`: the listed records, printed as head prints records.
fn print_listed(
    inputs: &[crate::io::Input],
    list: &crate::args::RecordList,
    args: &PrintArgs,
    filter: &WhereArg,
    ctx: &Ctx,
) -> Result<Exit> {
    let mut out = output::stdout();
    let result = args.with_style(inputs, ctx.color, |style| {
        let filter = filter.for_message(style.message)?;
        let table = KindTable::new();
        let mut printer = Printer {
            out: &mut out,
            buf: Vec::with_capacity(64 * 1024),
            decoder: Decoder::default(),
            track: matches!(style.format, Format::Json) && style.decode.is_none(),
            table: &table,
            fix: KindFix::new(&table),
        };
        let ty = style.message.map_or(args.payload.fixed(), |_| Some(MessageType::Raw));
        let open = args.input.options();
        super::each_listed(inputs, list, &open, (ty, filter.as_ref()), &mut |_, r| {
            printer.print(style, r)
        })?;
        Ok(Exit::Success)
    });
    let flushed = out.flush().context("writing output");
    result.and(flushed.map(|_| Exit::Success))
}

/// Skips up to `n` records of `reader`; the number left to skip (after
/// the input's end).
fn skip_records(reader: &mut record::RecordReader, input: &crate::io::Input, mut n: u64) -> Result<u64> {
    while n > 0 {
        if reader
            .skip_record()
            .map_err(|e| record::read_error(input, e))?
            .is_none()
        {
            break;
        }
        n -= 1;
    }
    Ok(n)
}

/// What head keeps from record to record while it prints.
struct Printer<'o, 't> {
    out: &'o mut dyn Write,
    buf: Vec<u8>,
    decoder: Decoder,
    /// The JSONL mapping: kinds tracked across records.
    track: bool,
    table: &'t KindTable,
    fix: KindFix<'t>,
}

impl Printer<'_, '_> {
    /// Prints one record. The JSONL mapping tracks kinds across records
    /// (see cat): a record of up to 4 MiB is rendered whole and its line
    /// fixed; a larger one goes out as it is made (a megabyte at a time),
    /// its values of names not seen before written typed.
    fn print(&mut self, style: &Style<'_>, rec: &batches::Record<'_>) -> Result<()> {
        self.buf.clear();
        if let Some(d) = style.decode {
            let at = (rec.name, rec.index, rec.offset);
            let mut o = Out::new(&mut self.buf);
            d.line(
                &mut self.decoder,
                &style.look,
                (rec.ty, rec.strict),
                rec.payload,
                at,
                &mut o,
            )?;
            return self.out.write_all(&self.buf).context("writing output");
        }
        let label = Label {
            name: rec.name,
            index: rec.index,
        };
        let failed = |e| decode_error(rec.name, rec.index, rec.offset, e);
        let (t, strict, data) = (rec.ty, rec.strict, rec.payload);
        let whole = data.len() <= WHOLE;
        let mut tracking = self.track.then(|| Tracking::new(self.table, Vec::new(), whole));
        let out = &mut *self.out;
        let mut sink = |bytes: &[u8]| out.write_all(bytes);
        match tracking.as_mut() {
            Some(tracking) if whole => {
                let mut o = Out::new(&mut self.buf).tracking_kinds(tracking);
                render(&mut self.decoder, style, t, strict, &label, data, &mut o).map_err(failed)?;
                sink(self.fix.fix(&self.buf, &tracking.notes)).context("writing output")?;
            }
            mut tracking => {
                let mut spilling = Out::spilling(&mut self.buf, &mut sink);
                if let Some(tracking) = tracking.as_deref_mut() {
                    spilling = spilling.tracking_kinds(tracking);
                }
                let rendered = render(&mut self.decoder, style, t, strict, &label, data, &mut spilling);
                spilling.finish().context("writing output")?;
                rendered.map_err(failed)?;
                sink(&self.buf).context("writing output")?;
                if let Some(tracking) = tracking {
                    self.fix.fix(&[], &tracking.notes);
                }
            }
        }
        Ok(())
    }
}
