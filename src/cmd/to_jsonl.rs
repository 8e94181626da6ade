//! `tfr to-jsonl`: records as JSON lines, one compact object per record (the
//! JSONL mapping of [`crate::example::json`], or protojson).
//!
//! Inputs are read in batches (up to `--jobs` inputs at once), workers (one
//! per core) render them, one thread writes the lines in input order
//! ([`pipeline::run`]). With `-o OUT`
//! the file appears only when every record converted; on stdout the lines
//! before a damaged record are written, then the error.

use crate::args::{InputArgs, JobsArg, JsonFormatArg};
use crate::example::json::render::{KindFix, KindTable, Tracking};
use crate::example::Format;
use crate::example::{self, Decoder, Keep, Look, Out};
use crate::exit::Exit;
use crate::output::Ctx;
use crate::pipeline;
use crate::pipeline::batches::{self, decode_error, Render, Rendered};
use crate::pipeline::Output as _;
use anyhow::{Context, Result};
use clap::Args;

#[derive(Args, Debug, Clone)]
pub(crate) struct ToJsonlArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    #[command(flatten)]
    pub(crate) payload: crate::args::TypeArg,

    /// Output form.
    #[arg(long, short = 'f', value_enum, default_value_t = JsonFormatArg::Natural)]
    pub(crate) format: JsonFormatArg,

    #[command(flatten)]
    pub(crate) output: crate::args::TextOutputArg,

    #[command(flatten)]
    pub(crate) pick: crate::args::PickArgs,

    #[command(flatten)]
    pub(crate) decode: crate::args::DecodeArg,

    #[command(flatten)]
    pub(crate) proto: crate::args::ProtoArgs,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,

    /// Only these records, in the order given: 0-based numbers over the
    /// inputs taken together and inclusive ranges (17,1000-1010), read by
    /// number as `tfr cat --records` reads them. With --where: the listed
    /// records that match. A number past the end is an error.
    #[arg(long, value_name = "LIST", value_parser = crate::args::parse_records, conflicts_with_all = ["skip", "limit", "sample", "part"], help_heading = "Selection")]
    pub(crate) records: Option<crate::args::RecordList>,
}

/// How the payloads are read: `--decode`'s decoding, or a message
/// (`--message`, event files); the flags that do not go together refused.
fn payloads(
    args: &ToJsonlArgs,
    inputs: &[crate::io::Input],
    format: Format,
    projected: bool,
) -> Result<(Option<crate::tfds::decode::Decoding>, Option<crate::proto::Message>)> {
    let decoding = args.decode.get(&args.input.files, projected)?;
    if decoding.is_some() && matches!(format, Format::Protojson) {
        anyhow::bail!("--decode writes the JSONL mapping: it does not go with --format protojson");
    }
    let message = args.proto.message(args.payload.payload, inputs)?;
    if message.is_some() && decoding.is_some() {
        anyhow::bail!("--decode reads Examples: not with --message or event files");
    }
    if message.is_some() && projected {
        anyhow::bail!(
            "--features/--exclude pick Example features: not with --message or event files (--where reads fields)"
        );
    }
    Ok((decoding, message))
}

/// A record rendered as a JSON line.
type RenderFn<'a> = dyn Fn(&mut Decoder, &batches::Record<'_>, &mut Out<'_>) -> tfr_engine::Result<()> + 'a;

/// `--records`: the listed records rendered one by one, in the order given.
struct Listed<'a> {
    render: &'a RenderFn<'a>,
    table: &'a KindTable,
    /// Whether kinds are tracked (a value whose name had another kind
    /// before is written typed).
    track: bool,
}

impl Listed<'_> {
    fn write(
        &self,
        inputs: &[crate::io::Input],
        list: &crate::args::RecordList,
        open: &crate::record::OpenOptions,
        sel: (Option<crate::example::MessageType>, Option<&crate::example::Where>),
        fix: &mut KindFix<'_>,
        out: &mut (dyn std::io::Write + Send),
    ) -> Result<()> {
        let mut buf = Vec::new();
        let mut each = |decoder: &mut Decoder, r: &batches::Record<'_>| -> Result<()> {
            buf.clear();
            let mut tracking = Tracking::new(self.table, Vec::new(), true);
            let mut o = Out::new(&mut buf);
            if self.track {
                o = o.tracking_kinds(&mut tracking);
            }
            (self.render)(decoder, r, &mut o)?;
            drop(o);
            out.write_all(fix.fix(&buf, &tracking.notes)).context("writing output")
        };
        super::each_listed(inputs, list, open, sel, &mut each)?;
        out.flush().context("writing output")
    }
}

pub(crate) fn run(args: &ToJsonlArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.input.expand()?;
    // Opened first: an unwritable target fails before any work.
    let mut target = super::TextTarget::open(&args.output, &inputs, &[])?;
    let format = crate::example::json::JsonFormat::from(args.format).into();
    let projection = args.pick.select.projection();
    let keep = |key: &str| projection.as_ref().is_none_or(|p| p.keeps(key));
    let look = Look {
        short: None,
        keep: projection.is_some().then_some(&keep as Keep<'_>),
        scalars: None,
        names: None,
        bytes: None,
    };
    let (decoding, message) = payloads(args, &inputs, format, projection.is_some())?;
    let render = |decoder: &mut Decoder, r: &batches::Record<'_>, out: &mut Out<'_>| -> tfr_engine::Result<()> {
        if let Some(m) = &message {
            m.render(r.payload, crate::proto::Form::Json, out)
                .map_err(|e| decode_error(r.name, r.index, r.offset, e))?;
            out.push(b'\n');
            return Ok(());
        }
        match &decoding {
            Some(d) => d.line(
                decoder,
                &look,
                (r.ty, r.strict),
                r.payload,
                (r.name, r.index, r.offset),
                out,
            ),
            None => example::render_out(decoder, format, &look, r.ty, r.strict, r.payload, out)
                .map_err(|e| decode_error(r.name, r.index, r.offset, e)),
        }
    };
    let jobs = args.jobs.get();
    let progress = ctx.progress(None);
    {
        let flush_idle = target.flush_idle();
        let out = target.writer();
        // A value whose name had another kind in an earlier record is
        // written typed (the workers cannot know the earlier records).
        let table = KindTable::new();
        let track = matches!(format, Format::Json) && decoding.is_none() && message.is_none();
        let mut fix = KindFix::new(&table);
        let write = |r: &Rendered| match r.is_empty() {
            true if flush_idle => out.flush(),
            _ => out.write_all(fix.fix(&r.bytes, &r.notes)),
        };
        let open = args.input.options();
        let update = |bytes, records| progress.update(bytes, records);
        let ty = match message {
            Some(_) => Some(crate::example::MessageType::Raw),
            None => args.payload.fixed(),
        };
        let filter = args.pick.filter.for_message(message.as_ref())?;
        if let Some(list) = &args.records {
            let listed = Listed {
                render: &render,
                table: &table,
                track,
            };
            listed.write(&inputs, list, &open, (ty, filter.as_ref()), &mut fix, out)?;
            return target.commit(projection.as_ref());
        }
        let mut how = args.pick.range.reading(&open, ty, jobs);
        how.filter = filter.as_ref();
        let (_, result) = batches::run(
            &inputs,
            &how,
            pipeline::workers(jobs),
            &Render::new(render).tracking_kinds(track.then_some(&table)),
            write,
            &update,
        );
        let flushed = out.flush().context("writing output");
        result?;
        flushed?;
    }
    target.commit(projection.as_ref())
}
