//! `tfr to-parquet` of any protobuf message (`--message`, `--type event`,
//! event files): one column per field of the message
//! ([`crate::proto::arrow`]), written by [`crate::formats::message_parquet`].

use super::ToParquetArgs;
use crate::exit::Exit;
use crate::output::{self, Ctx};
use anyhow::{bail, Result};
use std::path::Path;

/// Converts the payloads as a message; `None` when they are not one.
pub(crate) fn run(args: &ToParquetArgs, ctx: &Ctx) -> Result<Option<Exit>> {
    let payload = args.columns.payload;
    if !args.proto.wanted(payload, &args.input.files) {
        return Ok(None);
    }
    let inputs = args.input.expand()?;
    let Some(message) = args.proto.message(payload, &inputs)? else {
        return Ok(None);
    };
    let name = message.desc.full_name();
    if let Some(flag) = [(args.explode.is_some(), "--explode")].iter().find(|(on, _)| *on) {
        bail!("{}: reads a TFDS folder, not payloads of {name}", flag.1);
    }
    if args.output.as_os_str() == "-" {
        bail!("-o -: a Parquet file is written to a file or an object, not to stdout (its footer points back into it); to stream, use to-arrow -o -");
    }
    let (layout, warnings) = args.columns.message_layout(&message)?;
    for w in warnings {
        output::error_line(format_args!("{w}"));
    }
    crate::io::same_file::refuse_input_as_output(&inputs, &[], &args.output, "-o")?;
    let jobs = args.jobs.get();
    let open = args.input.options();
    let filter = args.columns.filter.for_message(Some(&message))?;
    let mut how = args.range.reading(&open, Some(crate::example::MessageType::Raw), jobs);
    how.filter = filter.as_ref();
    let opts = args.parquet_options(how.range, how.sample);
    let aux: [&Path; 0] = [];
    let warning = crate::formats::message_parquet::write(
        &inputs,
        &aux,
        &message,
        &layout,
        &how,
        crate::pipeline::workers(jobs),
        &opts,
        &|total| ctx.progress_pass(total),
    )?;
    if let Some(w) = warning {
        output::error_line(format_args!("{w}"));
    }
    Ok(Some(Exit::Success))
}
