//! `tfr validate`: the records checked against a TFDV schema (or tfr's
//! schema JSON) and their annotations (boxes, classes: [`crate::annotate`])
//! checked, as a CI data gate. The checks and their TFDV semantics are in
//! [`crate::schema::tfdv::validate`]; this file reads the schema file (when
//! one is given), runs the pass with a progress bar, and prints one line
//! per anomaly or annotation problem on stderr and the summary (a table,
//! or `--json`) on stdout.

use crate::annotate::check::{Found, ProblemKind, Tally};
use crate::args::{AnnotateArgs, InputArgs, JobsArg, PayloadType};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::schema::tfdv::validate::{self as check, quoted, Anomaly, AnomalyKind, Checker, Checks, Report};
use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;
use std::io::Write;

/// `--type` of `tfr validate`: three of [`PayloadType`]'s values, each
/// with its help here.
fn validate_types() -> impl clap::builder::TypedValueParser<Value = PayloadType> {
    crate::args::payload_types(&[
        (
            PayloadType::Auto,
            "The first record decides: a SequenceExample when it has feature_lists, else an Example; every \
             other record must match",
        ),
        (PayloadType::Example, "tf.train.Example"),
        (
            PayloadType::Sequence,
            "tf.train.SequenceExample: its context features are checked",
        ),
    ])
}

#[derive(Args, Debug, Clone)]
pub(crate) struct ValidateArgs {
    /// The schema: a schema.pbtxt (TFDV's tensorflow_metadata Schema in
    /// text format, from tfdv.write_schema_text or `tfr schema -f
    /// tfdv-schema`), or tfr's schema JSON (`tfr schema -f json`). Without
    /// it only the annotations are checked.
    #[arg(long, short = 's', value_name = "SCHEMA")]
    pub(crate) schema: Option<std::path::PathBuf>,

    /// Validate in this environment of the schema (TFDV's
    /// validate_statistics(environment=NAME)): a feature is in it by its
    /// in_environment, else not by its not_in_environment, else by the
    /// schema's default_environment. A feature not in it need not be
    /// present, and is SCHEMA_NEW_COLUMN when it is. The name must be one
    /// of the schema's default_environment (as TFDV requires).
    #[arg(long, value_name = "NAME", requires = "schema")]
    pub(crate) environment: Option<String>,

    /// Drift: the previous span, to compare with by the schema's
    /// drift_comparator and num_examples_drift_comparator (TFDV's
    /// previous_statistics). A statistics file (TFDV's, binary or text,
    /// or `tfr stats -f tfdv-stats[-text]`; local, within --max-aux-size)
    /// or records (a file, folder, glob or URL: their statistics are
    /// computed as `tfr stats` computes them).
    #[arg(long, value_name = "PREV", requires = "schema", help_heading = "Drift and skew")]
    pub(crate) previous: Option<std::ffi::OsString>,

    /// Skew: serving data, to compare with by the schema's skew_comparator
    /// (TFDV's serving_statistics); a statistics file or records, as
    /// --previous.
    #[arg(long, value_name = "SERVING", requires = "schema", help_heading = "Drift and skew")]
    pub(crate) serving: Option<std::ffi::OsString>,

    /// The previous version of this dataset, to compare the number of
    /// examples with by the schema's num_examples_version_comparator
    /// (TFDV's previous_version_statistics); a statistics file or records.
    #[arg(long, value_name = "PREV", requires = "schema", help_heading = "Drift and skew")]
    pub(crate) previous_version: Option<std::ffi::OsString>,

    #[command(flatten)]
    pub(crate) annotate: AnnotateArgs,

    #[command(flatten)]
    pub(crate) aux: crate::args::AuxSizeArg,

    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Print one JSON document (anomalies with TFDV's AnomalyInfo.Type
    /// names, annotation problems with BBOX_* / CLASS_NOT_IN_LABEL_MAP, and
    /// an "annotations" summary) instead of the table.
    #[arg(long)]
    pub(crate) json: bool,

    /// Payload type (all inputs are one dataset of one type).
    #[arg(long = "type", short = 't', value_parser = validate_types(), default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// What was checked, for the summary: the schema's name and the inputs'.
struct Checked<'a> {
    names: &'a [String],
    /// The schema file's name (`None`: no schema).
    schema: Option<&'a str>,
    stopped: bool,
    /// Controls were given (`drift_skew_info` is in the JSON, maybe empty).
    compared: bool,
}

pub(crate) fn run(args: &ValidateArgs, ctx: &Ctx) -> Result<Exit> {
    let schema = args
        .schema
        .as_deref()
        .map(|p| super::load_schema(p, &args.aux))
        .transpose()?;
    let checker = schema
        .as_ref()
        .map(|s| Checker::with_environment(s, args.environment.as_deref()))
        .transpose()?;
    // A TFDS folder's ClassLabel names: the class ids its boxes and labels may have.
    let classes = crate::tfds::inputs::class_names(&args.input.files);
    let annotate = args.annotate.options(&args.input.files, classes.as_ref(), &[])?;
    let inputs = args.input.expand()?;
    let opts = check::Options {
        open: args.input.options(),
        ty: args.payload.fixed(),
        workers: pipeline::workers(args.jobs.get()),
    };
    let checks = Checks {
        schema: checker.as_ref(),
        annotations: Some(&annotate),
    };
    let controls = load_controls(args, &inputs, ctx)?; // (a bad one told before the long pass)
    let bar = output::LazyProgress::new(ctx, crate::io::input::total_size(&inputs));
    let progress = |bytes, records| bar.update(bytes, records);
    let (mut report, error) = check::validate_checks(&checks, &inputs, &opts, &progress);
    let error = error.map(anyhow::Error::from);
    bar.finish();
    if let (Some(schema), None) = (&schema, &error) {
        compare(args, schema, &inputs, controls.as_ref(), &mut report, ctx)?;
    }
    let names: Vec<String> = inputs.iter().map(|i| i.display()).collect();
    let schema_name = args
        .schema
        .as_ref()
        .map(|p| crate::io::input::escape_name(p.as_os_str().as_encoded_bytes()));
    // The records' anomalies even when reading stopped early; dataset-wide ones when all were read.
    let anomalies: Vec<&Anomaly> = report
        .anomalies
        .iter()
        .filter(|a| error.is_none() || a.first.is_some() && !is_dataset_wide(a.kind))
        .collect();
    let problems = &report.annotations.problems;
    for a in &anomalies {
        output::error_line(format_args!("{}", super::anomaly_line(a, &names)));
    }
    for (kind, found) in problems {
        output::error_line(format_args!("{}", problem_line(*kind, found, &names)));
    }
    notes(&report);
    let checked = Checked {
        names: &names,
        schema: schema_name.as_deref(),
        stopped: error.is_some(),
        compared: controls.is_some(),
    };
    let text = if args.json {
        let mut t =
            serde_json::to_string_pretty(&to_json(&report, &anomalies, &checked, error.as_ref())).unwrap_or_default();
        t.push('\n');
        t
    } else {
        summary(&report, &anomalies, &checked)
    };
    let exit = if anomalies.is_empty() && problems.is_empty() {
        Exit::Success
    } else {
        Exit::DamageFound
    };
    let written = (|| -> Result<()> {
        let mut out = output::stdout();
        out.write_all(text.as_bytes()).context("writing output")?;
        out.flush().context("writing output")
    })();
    if let Some(e) = error {
        return Err(e);
    }
    output::keep_verdict(written, exit)
}

/// The comparators the schema sets that have no control given: notes
/// (TFDV says nothing then).
fn uncompared_notes(args: &ValidateArgs, schema: &crate::schema::tfdv::model::Schema, report: &mut Report) {
    let given = [
        (&args.previous, "--previous", "drift_comparator"),
        (&args.serving, "--serving", "skew_comparator"),
    ];
    for (path, flag, field) in given {
        let set: Vec<String> = schema
            .features
            .iter()
            .filter(|f| {
                if field == "drift_comparator" {
                    f.drift.is_some()
                } else {
                    f.skew.is_some()
                }
            })
            .map(|f| quoted(&f.name))
            .collect();
        if path.is_none() && !set.is_empty() {
            let more = if set.len() > 5 {
                format!(" and {} more", set.len() - 5)
            } else {
                String::new()
            };
            report.not_checked.push(format!(
                "{field} (no {flag} to compare with) (feature {}{more})",
                set[..set.len().min(5)].join(", ")
            ));
        }
    }
    let dc = schema.dataset_constraints.unwrap_or_default();
    for (set, path, flag, field) in [
        (
            dc.num_examples_drift_comparator.is_some(),
            &args.previous,
            "--previous",
            "num_examples_drift_comparator",
        ),
        (
            dc.num_examples_version_comparator.is_some(),
            &args.previous_version,
            "--previous-version",
            "num_examples_version_comparator",
        ),
    ] {
        if set && path.is_none() {
            report
                .not_checked
                .push(format!("dataset_constraints.{field} (no {flag} to compare with)"));
        }
    }
}

/// The controls' statistics (`--previous`, `--serving`,
/// `--previous-version`; `None` when none is given), read before the
/// records are: the records are read twice with them (checks, then
/// statistics), so not from stdin.
fn load_controls(args: &ValidateArgs, inputs: &[crate::io::Input], ctx: &Ctx) -> Result<Option<Controls>> {
    if args.previous.is_none() && args.serving.is_none() && args.previous_version.is_none() {
        return Ok(None);
    }
    if inputs.iter().any(|i| matches!(i, crate::io::Input::Stdin)) {
        anyhow::bail!(
            "--previous/--serving/--previous-version read the records twice (their checks, then their statistics): give them as files, not on stdin"
        );
    }
    for (path, flag) in [
        (&args.previous, "--previous"),
        (&args.serving, "--serving"),
        (&args.previous_version, "--previous-version"),
    ] {
        if path.as_deref().is_some_and(|p| p == "-") {
            anyhow::bail!("{flag} -: a control is a statistics file or records given by name, not stdin");
        }
    }
    let open = args.input.options();
    let workers = pipeline::workers(args.jobs.get());
    let control = |path: &Option<std::ffi::OsString>, what: &str| -> Result<_> {
        let Some(p) = path.as_deref() else { return Ok(None) };
        let stats = super::statistics_of(p, what, &open, &args.aux, workers, ctx)?;
        if stats.num_examples == 0 && stats.features.is_empty() {
            // TFDV passes empty statistics on as no control at all.
            let shown = crate::io::input::escape_name(p.as_encoded_bytes());
            output::error_line(format_args!(
                "warning: {what} {shown}: no examples: nothing compared with it"
            ));
            return Ok(None);
        }
        Ok(Some(stats))
    };
    Ok(Some(Controls {
        previous: control(&args.previous, "--previous")?,
        serving: control(&args.serving, "--serving")?,
        previous_version: control(&args.previous_version, "--previous-version")?,
    }))
}

/// The controls' statistics, each optional.
struct Controls {
    previous: Option<crate::schema::tfdv::statistics::DatasetStats>,
    serving: Option<crate::schema::tfdv::statistics::DatasetStats>,
    previous_version: Option<crate::schema::tfdv::statistics::DatasetStats>,
}

/// Drift and skew: notes for comparators without a control; with
/// controls, the inputs' statistics (a second pass) compared with the
/// controls' as the schema's comparators say; their anomalies join
/// the report's (each feature's together, in schema order), their figures
/// are [`Report::drift_skew`].
fn compare(
    args: &ValidateArgs,
    schema: &crate::schema::tfdv::model::Schema,
    inputs: &[crate::io::Input],
    controls: Option<&Controls>,
    report: &mut Report,
    ctx: &Ctx,
) -> Result<()> {
    use crate::schema::tfdv::drift;
    uncompared_notes(args, schema, report);
    let Some(controls) = controls else { return Ok(()) };
    let open = args.input.options();
    let workers = pipeline::workers(args.jobs.get());
    let current = super::records_statistics(inputs, "the inputs", &open, workers, ctx)?;
    let controls = drift::Controls {
        previous: controls.previous.as_ref(),
        serving: controls.serving.as_ref(),
        previous_version: controls.previous_version.as_ref(),
    };
    if current.num_examples == 0 {
        // TFDV reports its data missing and compares nothing.
        output::error_line(format_args!("note: no records: nothing compared with the controls"));
        return Ok(());
    }
    let found = drift::compare(schema, &current, &controls);
    for w in &found.warnings {
        output::error_line(format_args!("warning: {w}"));
    }
    report.anomalies.extend(found.anomalies);
    // Each feature's anomalies together, in schema order (features not in
    // the schema after them, as found), the dataset's last.
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, f) in schema.features.iter().enumerate() {
        at.entry(f.name.as_str()).or_insert(i);
    }
    let order = |a: &Anomaly| match &a.feature {
        Some(name) => at.get(name.as_str()).copied().unwrap_or(schema.features.len()),
        None => usize::MAX,
    };
    report.anomalies.sort_by_key(order);
    report.drift_skew = found.drift_skew;
    Ok(())
}

/// The figures of the comparisons, as TFDV's `Anomalies.drift_skew_info`
/// (proto field names).
fn drift_skew_json(infos: &[crate::schema::tfdv::drift::DriftSkewInfo]) -> serde_json::Value {
    let measurements = |ms: &[crate::schema::tfdv::drift::Measurement]| -> Vec<serde_json::Value> {
        ms.iter()
            .map(|m| json!({"type": m.kind.name(), "value": m.value, "threshold": m.threshold}))
            .collect()
    };
    infos
        .iter()
        .map(|i| {
            json!({
                "path": {"step": [i.path]},
                "drift_measurements": measurements(&i.drift),
                "skew_measurements": measurements(&i.skew),
            })
        })
        .collect()
}

/// The notes on stderr: new features not named, constraints not checked.
fn notes(report: &Report) {
    if report.new_untracked {
        output::error_line(format_args!(
            "note: more than {} features are not in the schema; only the first {} are named",
            check::MAX_NEW,
            check::MAX_NEW
        ));
    }
    for n in &report.not_checked {
        output::error_line(format_args!("note: not checked: {n}"));
    }
}

/// The one line on stderr of an annotation problem (as an anomaly's).
fn problem_line(kind: ProblemKind, found: &Found, names: &[String]) -> String {
    let (input, record) = found.first;
    let file = names.get(input as usize).map_or("-", String::as_str);
    let more = match found.records {
        n if n > 1 => format!(" (and {} more records)", n - 1),
        _ => String::new(),
    };
    format!(
        "{file}: feature {}: {} in record {record}{more} [{}]",
        quoted(&found.feature),
        found.detail,
        kind.name()
    )
}

/// Anomalies decided over the whole dataset (not meaningful on part of it).
fn is_dataset_wide(kind: AnomalyKind) -> bool {
    matches!(
        kind,
        AnomalyKind::SchemaMissingColumn
            | AnomalyKind::LowFractionPresent
            | AnomalyKind::LowNumberPresent
            | AnomalyKind::EnumUnexpectedString
            | AnomalyKind::DatasetLowNumExamples
            | AnomalyKind::DatasetHighNumExamples
    ) || is_comparison(kind)
}

/// Anomalies of a comparison with a control dataset (no record shows them).
fn is_comparison(kind: AnomalyKind) -> bool {
    matches!(
        kind,
        AnomalyKind::ComparatorLInftyHigh
            | AnomalyKind::ComparatorNormalizedAbsDifferenceHigh
            | AnomalyKind::ComparatorJensenShannonDivergenceHigh
            | AnomalyKind::ComparatorControlDataMissing
            | AnomalyKind::ComparatorLowNumExamples
            | AnomalyKind::ComparatorHighNumExamples
    )
}

fn first_text(first: Option<(u64, u64)>, names: &[String]) -> String {
    match first {
        Some((input, record)) => {
            let file = names.get(input as usize).map_or("-", String::as_str);
            format!("{file} record {record}")
        }
        None => "-".into(),
    }
}

/// What the annotations held, in words (`None`: nothing annotated).
fn annotated_text(t: &Tally) -> Option<String> {
    let mut parts = Vec::new();
    if t.with_boxes_features > 0 {
        parts.push(format!("{} boxes in {} records", t.boxes, t.with_boxes_features));
    }
    let classified: u64 = t.image_classes.values().sum();
    if classified > 0 {
        parts.push(format!("{classified} records with a class label"));
    }
    (t.any() || !t.problems.is_empty()).then(|| {
        if parts.is_empty() {
            format!("{} annotated records", t.annotated)
        } else {
            parts.join(", ")
        }
    })
}

/// The summary's first words: what was checked against what.
fn checked_text(report: &Report, checked: &Checked<'_>) -> String {
    let files = match report.per_input.len().max(1) {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    let records = format!("{} records in {files}", report.records);
    let annotations = annotated_text(&report.annotations);
    match (checked.schema, annotations) {
        (Some(schema), None) => format!("{records} checked against {schema} ({} features)", report.checked),
        (Some(schema), Some(a)) => format!(
            "{records} checked against {schema} ({} features) and for annotation problems ({a})",
            report.checked
        ),
        (None, Some(a)) => format!("{records} checked for annotation problems ({a})"),
        (None, None) => {
            format!("{records} checked for annotation problems (no boxes, classes or masks found; no --schema)")
        }
    }
}

/// The table (or the one line saying the data conforms).
fn summary(report: &Report, anomalies: &[&Anomaly], checked: &Checked<'_>) -> String {
    let names = checked.names;
    let what = checked_text(report, checked);
    let problems = &report.annotations.problems;
    if anomalies.is_empty() && problems.is_empty() {
        let verdict = match (checked.stopped, checked.schema.is_some()) {
            (true, _) => "no anomaly before the error",
            (false, true) => "no anomalies",
            (false, false) => "no problems",
        };
        return format!("{what}: {verdict}\n");
    }
    let mut table = output::table();
    table.set_header(vec!["feature", "anomaly", "type", "records", "first seen"]);
    for a in anomalies {
        // Dataset-wide and the schema's own: no count of records.
        let records = match a.kind {
            AnomalyKind::SchemaMissingColumn
            | AnomalyKind::DatasetLowNumExamples
            | AnomalyKind::DatasetHighNumExamples => "-".to_string(),
            _ if a.records == 0 && a.first.is_none() => "-".to_string(),
            _ => a.records.to_string(),
        };
        let first = a.first.map(|(i, r)| (u64::from(i), r));
        table.add_row(vec![
            a.feature.as_deref().map_or("(dataset)".to_string(), quoted),
            a.kind.short().to_string(),
            a.kind.tfdv_name().to_string(),
            records,
            first_text(first, names),
        ]);
    }
    for (kind, found) in problems {
        table.add_row(vec![
            quoted(&found.feature),
            kind.short().to_string(),
            kind.name().to_string(),
            found.records.to_string(),
            first_text(Some(found.first), names),
        ]);
    }
    let features: std::collections::BTreeSet<Option<&str>> = anomalies
        .iter()
        .map(|a| a.feature.as_deref())
        .chain(problems.values().map(|f| Some(f.feature.as_str())))
        .collect();
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let found = match (anomalies.len(), problems.len()) {
        (n, 0) => plural(n, "anomaly", "anomalies"),
        (0, p) => plural(p, "annotation problem", "annotation problems"),
        (n, p) => format!(
            "{} and {}",
            plural(n, "anomaly", "anomalies"),
            plural(p, "annotation problem", "annotation problems")
        ),
    };
    format!(
        "{table}\n{what}: {found} in {}\n",
        plural(features.len(), "feature", "features")
    )
}

fn to_json(
    report: &Report,
    anomalies: &[&Anomaly],
    checked: &Checked<'_>,
    error: Option<&anyhow::Error>,
) -> serde_json::Value {
    let names = checked.names;
    let first = |first: Option<(u64, u64)>| {
        first.map(|(input, record)| {
            json!({
                "file": names.get(input as usize),
                "record": record,
            })
        })
    };
    let tally = &report.annotations;
    let list: Vec<serde_json::Value> = anomalies
        .iter()
        .map(|a| {
            json!({
                "feature": a.feature,
                "type": a.kind.tfdv_name(),
                "short_description": a.kind.short(),
                "description": a.detail,
                "records": a.records,
                "first": first(a.first.map(|(i, r)| (u64::from(i), r))),
            })
        })
        .chain(tally.problems.iter().map(|(kind, found)| {
            json!({
                "feature": found.feature,
                "type": kind.name(),
                "short_description": kind.short(),
                "description": found.detail,
                "records": found.records,
                "first": first(Some(found.first)),
            })
        }))
        .collect();
    let inputs: Vec<serde_json::Value> = names
        .iter()
        .enumerate()
        .take(report.per_input.len())
        .map(|(i, n)| json!({"file": n, "records": report.per_input.get(i).copied().unwrap_or(0)}))
        .collect();
    let mut doc = json!({
        "schema": checked.schema,
        "type": report.ty.map(|t| match t {
            MessageType::SequenceExample => "sequence",
            _ => "example",
        }),
        "records": report.records,
        "inputs": inputs,
        "features_checked": report.checked,
        "conforms": list.is_empty() && error.is_none(),
        "anomalies": list,
        "annotations": {
            "records": tally.records,
            "annotated": tally.annotated,
            "records_with_boxes": tally.with_boxes_features,
            "boxes": tally.boxes,
            "records_with_problems": tally.with_problems,
        },
        "not_checked": report.not_checked,
    });
    if checked.compared {
        doc["drift_skew_info"] = drift_skew_json(&report.drift_skew);
    }
    if let Some(e) = error {
        doc["error"] = json!(format!("{e:#}"));
    }
    doc
}
