//! `tfr split`: each record of the inputs into one of several splits
//! (train / eval / test), chosen by a stable hash, byte for byte, every
//! split's records in input order; optionally each split into shards.
//!
//! The hash (xxh3 with `--seed`) is of the whole payload, or with `--by
//! FEATURE` of that feature's values (only it is decoded), so every record
//! of one user, session or group lands in the same split. The hash's top
//! 53 bits, as a fraction of 1, fall into one split's share of the
//! cumulative ratios: a split gets its ratio's share of the records on
//! average (of the distinct values with --by), the same records on every
//! run, machine and `-j`. Writing is `reshard`'s
//! ([`crate::formats::tfrecord_out::reshape`]):
//! all the outputs appear together, or none.

use crate::args::InputArgs;
use crate::exit::Exit;
use crate::formats::tfrecord_out::{untouched_unless, Done};
use crate::output::Ctx;
use crate::pipeline::reshape::{Route, MAX_KEYS};
use anyhow::{bail, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(mut_arg("output_compression", |a| crate::args::beside_input_compression(a, "output")))]
pub(crate) struct SplitArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// The splits and their ratios: NAME=WEIGHT,... (weights are relative:
    /// train=8,eval=1,test=1 and train=0.8,eval=0.1,test=0.1 are the same).
    /// Names: letters, digits, '_', '-', '.'.
    #[arg(long, value_name = "NAME=W,...", required = true, value_parser = parse_ratio, value_delimiter = ',')]
    pub(crate) ratio: Vec<(String, f64)>,

    /// The output of each split: a name holding {split}, replaced by the
    /// split's name ('data/{split}.tfrecord.gz'); with --shards or
    /// --shard-size each split is sharded ('{split}-00000-of-00004...').
    /// Missing local directories are created (and removed again if the run
    /// fails).
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: String,

    /// Hash this feature's values instead of the whole record (an Example's
    /// feature, a SequenceExample's context feature): records with equal
    /// values go to the same split. Records without it all go to one split.
    #[arg(long, value_name = "FEATURE")]
    pub(crate) by: Option<String>,

    /// Seed of the hash: another seed, another (equally stable) split.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    pub(crate) seed: u64,

    #[command(flatten)]
    pub(crate) reshape: crate::args::ReshapeArgs,
}

/// One `NAME=WEIGHT`.
fn parse_ratio(s: &str) -> Result<(String, f64), String> {
    let Some((name, weight)) = s.split_once('=') else {
        return Err(format!("'{s}': write NAME=WEIGHT (train=8)"));
    };
    let name = name.trim();
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        || name.starts_with('.')
    {
        return Err(format!(
            "'{name}': a split's name is letters, digits, '_', '-' and '.' (not first)"
        ));
    }
    match weight.trim().parse::<f64>() {
        Ok(w) if w.is_finite() && w > 0.0 => Ok((name.to_string(), w)),
        _ => Err(format!("'{s}': the weight must be a positive number")),
    }
}

pub(crate) fn run(args: &SplitArgs, ctx: &Ctx) -> Result<Exit> {
    if !args.output.contains("{split}") {
        bail!(
            "-o {}: needs {{split}} where each split's name goes ('data/{{split}}.tfrecord')",
            args.output
        );
    }
    for (i, (name, _)) in args.ratio.iter().enumerate() {
        if args.ratio[..i].iter().any(|(n, _)| n == name) {
            bail!("--ratio: the split '{name}' is named twice");
        }
    }
    if args.ratio.len() < 2 {
        bail!("--ratio: name at least two splits (train=8,eval=2)");
    }
    let weights: Vec<f64> = args.ratio.iter().map(|(_, w)| *w).collect();
    let route = Route::new(&weights, args.seed, args.by.clone())?;
    let outputs: Vec<PathBuf> = args
        .ratio
        .iter()
        .map(|(name, _)| PathBuf::from(args.output.replace("{split}", name)))
        .collect();
    let inputs = args.input.expand()?;
    // --by decodes the feature: the dataset's first record decides the
    // type (Example or SequenceExample); without it nothing is decoded.
    let types = untouched_unless(args.by.is_some() || args.reshape.filter.get().is_some());
    let done = args
        .reshape
        .reshape(&args.input, &inputs, types, Some(&route), outputs, &|total| {
            ctx.progress_pass(total)
        })?;
    let mut out = crate::output::stdout();
    report(&mut out, args, &route, &done)?;
    out.flush()?;
    Ok(Exit::Success)
}

/// How far (in points of percent) a split's share of the records may stray
/// from its ratio with `--by` before a warning says so.
const STRAY: f64 = 5.0;

/// The lines split prints: per split its records (and with `--by` its
/// distinct values), the heaviest value, and warnings.
fn report(out: &mut impl Write, args: &SplitArgs, route: &Route, done: &Done) -> Result<()> {
    let total: u64 = done.outputs.iter().map(|(records, _)| records).sum();
    let percent = |n: u64, of: u64| if of == 0 { 0.0 } else { n as f64 * 100.0 / of as f64 };
    let keys = done.keys.per_group(done.outputs.len());
    let all_keys: u64 = keys.iter().sum();
    for (i, ((name, _), (records, shards))) in args.ratio.iter().zip(&done.outputs).enumerate() {
        let files = match shards {
            1 => String::new(),
            n => format!(" in {n} shards"),
        };
        let share = percent(*records, total);
        match &args.by {
            None => writeln!(out, "{name}: {records} records ({share:.1}%){files}")?,
            Some(_) => writeln!(
                out,
                "{name}: {records} records ({share:.1}%), {} values ({:.1}%){files}",
                keys[i],
                percent(keys[i], all_keys)
            )?,
        }
    }
    let Some(by) = &args.by else {
        return Ok(());
    };
    let by_shown = crate::output::escape_controls(by);
    if let Some((value, n, group)) = done.keys.heaviest() {
        let split = args.ratio.get(group as usize).map_or("", |(name, _)| name.as_str());
        writeln!(
            out,
            "heaviest value: {by_shown} = {}, {n} records ({:.1}%), in {split}",
            crate::output::escape_controls(&value),
            percent(n, total)
        )?;
    }
    out.flush()?;
    if done.keys.capped {
        crate::output::error_line(format_args!(
            "warning: --by {by_shown}: over {MAX_KEYS} distinct values: values are counted for the first {MAX_KEYS}"
        ));
    }
    for u in route.unmatched() {
        crate::output::error_line(format_args!("warning: --by: {u}: every record went to one split"));
    }
    // Heavy values, not chance: the records' share strays from --ratio and
    // from the split's share of the values (with few values, or all
    // distinct, the two stray together and no value is to blame).
    let strays: Vec<String> = args
        .ratio
        .iter()
        .zip(&done.outputs)
        .zip(route.shares())
        .zip(&keys)
        .filter_map(|((((name, _), (records, _)), asked), values)| {
            let got = percent(*records, total);
            let of_values = percent(*values, all_keys);
            ((got - asked * 100.0).abs() > STRAY && (got - of_values).abs() > STRAY)
                .then(|| format!("{name} {got:.1}% for {:.1}%", asked * 100.0))
        })
        .collect();
    if total > 0 && !strays.is_empty() && route.unmatched().is_empty() {
        crate::output::error_line(format_args!(
            "warning: --by {by_shown}: the records' shares stray from --ratio ({}): --ratio shares the distinct \
             values, and a few values hold many records",
            strays.join(", ")
        ));
    }
    Ok(())
}
