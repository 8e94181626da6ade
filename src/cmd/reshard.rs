//! `tfr reshard`: the records of the inputs, in order, into N shards
//! balanced by records (`--shards`) or shards of at most a size
//! (`--shard-size`), byte for byte, named as Beam and TFDS name shards;
//! also how files are merged and recompressed. The writing is
//! [`crate::formats::tfrecord_out::reshape`] (shared with `tfr split`).

use crate::args::InputArgs;
use crate::exit::Exit;
use crate::formats::tfrecord_out::{untouched_unless, Sharding};
use crate::output::Ctx;
use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(mut_arg("output_compression", |a| crate::args::beside_input_compression(a, "output")))]
pub(crate) struct ReshardArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// The output: without --shards or --shard-size, exactly this file
    /// (merged, recompressed as its name says, filtered with --where);
    /// with them, DIR/NAME.tfrecord[.gz] writes
    /// DIR/NAME-00000-of-0000N.tfrecord[.gz] (5 digits, more from 100000
    /// shards). Missing local directories are created (and removed again
    /// if the run fails); an object-store URL works the same.
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) reshape: crate::args::ReshapeArgs,
}

pub(crate) fn run(args: &ReshardArgs, ctx: &Ctx) -> Result<Exit> {
    let sharding = args.reshape.sharding.sharding();
    let inputs = args.input.expand()?;
    let types = untouched_unless(args.reshape.filter.get().is_some());
    let outputs = vec![args.output.clone()];
    let done = args
        .reshape
        .reshape(&args.input, &inputs, types, None, outputs, &|total| {
            ctx.progress_pass(total)
        })?;
    let (records, shards) = done.outputs.first().copied().unwrap_or_default();
    let mut out = crate::output::stdout();
    let what = match sharding {
        Sharding::One => crate::io::input::escape_name(args.output.as_os_str().as_encoded_bytes()),
        _ => format!("{shards} shards"),
    };
    writeln!(out, "{records} records into {what}")?;
    out.flush()?;
    Ok(Exit::Success)
}
