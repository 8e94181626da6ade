//! `tfr report`: one self-contained HTML page about a dataset
//! ([`crate::report`]): the statistics of `tfr stats` with charts, and a
//! gallery of records with image thumbnails.

use super::{conflicts_note, scan_annotated, untracked_note, ScanArgs};
use crate::args::{InputArgs, ScanFlags};
use crate::example::{Decoder, MessageType};
use crate::exit::Exit;
use crate::io::{AtomicOutput, Compression};
use crate::output::Ctx;
use crate::pipeline::{self, batches};
use crate::report::{self, gallery};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::{IsTerminal, Write};

/// Class names by feature.
type ClassNames = std::collections::HashMap<String, Vec<String>>;

/// Records a gallery shows at most (its cards are held until the page is
/// written).
const MAX_CARDS: u64 = 10_000;

#[derive(Args, Debug, Clone)]
pub(crate) struct ReportArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Write the page to FILE (replaced only once complete); without it
    /// the page goes to stdout, which must not be a terminal.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub(crate) output: Option<std::path::PathBuf>,

    /// Records shown in the gallery: the first N (at most 10,000).
    #[arg(long, value_name = "N", default_value_t = 24, value_parser = clap::value_parser!(u64).range(0..=MAX_CARDS), conflicts_with = "compare")]
    pub(crate) records: u64,

    /// Show N records sampled uniformly at random instead of the first
    /// (at most 10,000).
    #[arg(long, value_name = "N", conflicts_with_all = ["records", "compare"], value_parser = clap::value_parser!(u64).range(0..=MAX_CARDS))]
    pub(crate) sample: Option<u64>,

    /// Seed for --sample (the same seed picks the same records).
    #[arg(long, value_name = "SEED", requires = "sample")]
    pub(crate) seed: Option<u64>,

    /// Show this bytes feature as pictures even when its values are not
    /// recognised as JPEG, PNG, GIF or WebP (repeatable).
    #[arg(long, value_name = "NAME", conflicts_with = "compare")]
    pub(crate) image_feature: Vec<String>,

    /// Check the data against this schema (a schema.pbtxt from TFDV or
    /// `tfr schema -f tfdv-schema`, or tfr's schema JSON) and show the
    /// anomalies `tfr validate` reports, the features marked.
    #[arg(long, value_name = "SCHEMA", conflicts_with = "compare")]
    pub(crate) schema: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub(crate) aux: crate::args::AuxSizeArg,

    /// The page's title (default: the inputs).
    #[arg(long, value_name = "TEXT")]
    pub(crate) title: Option<String>,

    #[command(flatten)]
    pub(crate) annotate: crate::args::AnnotateArgs,

    #[command(flatten)]
    pub(crate) highlight: crate::args::HighlightArg,

    #[command(flatten)]
    pub(crate) scan: ScanFlags,

    #[command(flatten)]
    pub(crate) compare: crate::args::CompareArgs,
}

pub(crate) fn run(args: &ReportArgs, ctx: &Ctx) -> Result<Exit> {
    if args.output.is_none() && std::io::stdout().is_terminal() {
        bail!("tfr report writes an HTML page: give -o report.html (or redirect stdout)");
    }
    if !args.compare.compare.is_empty() {
        return run_compare(args, ctx);
    }
    // A schema that does not load fails before any reading.
    let schema = args
        .schema
        .as_deref()
        .map(|p| super::load_schema(p, &args.aux))
        .transpose()?;
    // A TFDS folder's class names: a table of classes, and on the cards.
    let classes = crate::tfds::inputs::class_names(&args.input.files);
    // A label map that does not load fails before any reading too.
    let annotate = args
        .annotate
        .options(&args.input.files, classes.as_ref(), &args.highlight.highlight)?;
    let inputs = args.input.expand()?;
    if let Some(out) = &args.output {
        let aux: Vec<&std::path::Path> = args
            .schema
            .iter()
            .chain(&args.annotate.label_map)
            .map(|p| p.as_path())
            .collect();
        crate::io::same_file::refuse_input_as_output(&inputs, &aux, out, "-o")?;
    }
    // The statistics and the gallery each read the inputs: a stream can
    // be read only once.
    if let Some(input) = inputs.iter().find(|i| i.is_stream()) {
        bail!(
            "{}: tfr report reads its inputs twice (statistics, then the gallery) and cannot read a stream twice: save it to a file first",
            input.display()
        );
    }
    let scan_args = ScanArgs {
        input: &args.input,
        flags: &args.scan,
        deep: true,
        filter: None,
    };
    // A damaged input: the page shows the statistics before the damage
    // and says where it is.
    let (scan, damage) = scan_annotated(&inputs, &scan_args, Some(annotate.clone()), ctx)?;
    let notes: Vec<String> = [untracked_note(&scan), conflicts_note(&scan)]
        .into_iter()
        .flatten()
        .collect();
    for note in &notes {
        crate::output::error_line(format_args!("warning: {note}"));
    }
    let (cards, cards_title) = gallery_cards(args, &inputs, scan.ty, classes.clone(), annotate)?;
    let anomalies = schema.as_ref().map(|s| anomalies(s, &inputs, args, scan.ty));
    let schema_name = args
        .schema
        .as_ref()
        .map(|p| crate::io::input::escape_name(p.as_os_str().as_encoded_bytes()));
    let title = args.title.clone().unwrap_or_else(|| super::default_title(&inputs));
    let page = report::html(&report::Page {
        title: &title,
        scan: &scan,
        cards: &cards,
        cards_title: &cards_title,
        anomalies: schema_name.as_deref().zip(anomalies.as_deref()),
        notes: &notes,
        classes: classes.as_ref(),
    });
    write_page(args.output.as_deref(), &page)?;
    // The page shows the records before the damage and says where it is;
    // the damage is still an error.
    match damage {
        Some(e) => Err(e),
        None => Ok(Exit::Success),
    }
}

/// `--compare`: two datasets' statistics side by side
/// ([`report::compare`]), no gallery.
fn run_compare(args: &ReportArgs, ctx: &Ctx) -> Result<Exit> {
    use crate::schema::tfdv::compare;
    let second = args.compare.input(&args.input);
    let scan_of = |input| ScanArgs {
        input,
        flags: &args.scan,
        deep: true,
        filter: None,
    };
    let (a, damage_a) = super::compare_side(&scan_of(&args.input), &args.aux, ctx)?;
    let (b, damage_b) = super::compare_side(&scan_of(&second), &args.aux, ctx)?;
    if let Some(out) = &args.output {
        let inputs: Vec<crate::io::Input> = a.inputs.iter().chain(&b.inputs).cloned().collect();
        let files: Vec<&std::path::Path> = a.file.iter().chain(&b.file).map(|p| p.as_path()).collect();
        crate::io::same_file::refuse_input_as_output(&inputs, &files, out, "-o")?;
    }
    let comparison = compare::compare(&a.stats, &b.stats);
    let title = args
        .title
        .clone()
        .unwrap_or_else(|| format!("{} vs {}", a.name, b.name));
    let notes: Vec<String> = [(&damage_a, "A"), (&damage_b, "B")]
        .iter()
        .filter_map(|(e, side)| {
            e.as_ref()
                .map(|e| format!("{side}: damaged input, statistics of the records before it: {e:#}"))
        })
        .collect();
    let page = report::compare::html(&report::compare::Page {
        title: &title,
        datasets: [
            report::compare::Dataset {
                name: &a.name,
                source: &a.source,
            },
            report::compare::Dataset {
                name: &b.name,
                source: &b.source,
            },
        ],
        comparison: &comparison,
        notes: &notes,
    });
    write_page(args.output.as_deref(), &page)?;
    match damage_a.or(damage_b) {
        Some(e) => Err(e),
        None => Ok(Exit::Success),
    }
}

/// The page into `-o FILE` (replaced only once complete) or stdout.
fn write_page(output: Option<&std::path::Path>, page: &str) -> Result<()> {
    match output {
        Some(path) if path.as_os_str() != "-" => {
            let mut out = AtomicOutput::create(path, Compression::None)?;
            out.write_all(page.as_bytes()).context("writing the report")?;
            out.commit()?;
        }
        _ => crate::output::write_stdout(page.as_bytes())?,
    }
    Ok(())
}

/// The anomalies `tfr validate --schema` reports on the inputs.
fn anomalies(
    schema: &crate::schema::tfdv::model::Schema,
    inputs: &[crate::io::Input],
    args: &ReportArgs,
    ty: MessageType,
) -> Vec<report::Anomaly> {
    use crate::schema::tfdv::validate as check;
    let checker = check::Checker::new(schema);
    let opts = check::Options {
        open: args.input.options(),
        ty: Some(ty),
        workers: pipeline::workers(args.scan.jobs.get()),
    };
    let (found, error) = check::validate(&checker, inputs, &opts, &|_, _| {});
    let names: Vec<String> = inputs.iter().map(|i| i.display()).collect();
    let out: Vec<report::Anomaly> = found
        .anomalies
        .iter()
        .filter(|a| error.is_none() || a.first.is_some())
        .map(|a| report::Anomaly {
            feature: a.feature.clone().unwrap_or_else(|| "(dataset)".into()),
            kind: a.kind.tfdv_name().to_string(),
            text: super::anomaly_line(a, &names),
        })
        .collect();
    out
}

/// The gallery's cards, rendered by the workers as the records stream
/// past (thumbnails included), and what they show.
fn gallery_cards(
    args: &ReportArgs,
    inputs: &[crate::io::Input],
    ty: MessageType,
    classes: Option<ClassNames>,
    annotate: crate::annotate::Options,
) -> Result<(String, String)> {
    let mut images = gallery::Images::new(args.image_feature.clone(), args.sample.unwrap_or(args.records));
    images.classes = classes;
    images.annotate = annotate;
    let open = args.input.options();
    let range = crate::args::RangeArgs {
        skip: 0,
        limit: Some(args.records),
        sample: args.sample,
        seed: args.seed,
    };
    let jobs = args.scan.jobs.get();
    let how = range.reading(&open, Some(ty), jobs);
    let render =
        |decoder: &mut Decoder, r: &batches::Record<'_>, out: &mut crate::example::Out<'_>| -> tfr_engine::Result<()> {
            gallery::card(decoder, r.ty, false, r.payload, (r.name, r.index), &images, out)
                .map_err(|e| batches::decode_error(r.name, r.index, r.offset, e))
        };
    let mut html = Vec::new();
    let write = |r: &batches::Rendered| {
        html.extend_from_slice(&r.bytes);
        Ok(())
    };
    let (_, shown) = batches::run(
        inputs,
        &how,
        pipeline::workers(jobs),
        &batches::Render::new(render),
        write,
        &|_, _| {},
    );
    let shown_n = html.windows(9).filter(|w| w == b"<article ").count();
    let plural = if shown_n == 1 { "" } else { "s" };
    let title = match (args.sample, args.seed) {
        (Some(_), Some(seed)) => format!("{shown_n} record{plural} sampled uniformly at random (seed {seed})"),
        (Some(_), None) => format!("{shown_n} record{plural} sampled uniformly at random"),
        (None, _) if (shown_n as u64) < args.records => format!("All {shown_n} record{plural}"),
        (None, _) => format!("The first {shown_n} record{plural}"),
    };
    // Damage past the records shown is the overview's business.
    if let Err(e) = shown {
        if html.is_empty() {
            return Ok((String::new(), format!("No record could be shown: {e:#}")));
        }
    }
    Ok((String::from_utf8_lossy(&html).into_owned(), title))
}
