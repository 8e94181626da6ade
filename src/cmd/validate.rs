//! `tfr validate`: the records checked against a TFDV schema (or tfr's
//! schema JSON), as a CI data gate. The checks and their TFDV semantics
//! are in [`crate::schema::tfdv::validate`]; this file reads the schema
//! file, runs the pass with a progress bar, and prints one line per
//! anomaly on stderr and the summary (a table, or `--json`) on stdout.

use crate::args::{InputArgs, JobsArg, PayloadType};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::schema::tfdv::validate::{self as check, quoted, Anomaly, AnomalyKind, Checker, Report};
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
    /// tfdv-schema`), or tfr's schema JSON (`tfr schema -f json`).
    #[arg(long, short = 's', value_name = "SCHEMA")]
    pub(crate) schema: std::path::PathBuf,

    #[command(flatten)]
    pub(crate) aux: crate::args::AuxSizeArg,

    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Print one JSON document (anomalies with TFDV's AnomalyInfo.Type
    /// names) instead of the table.
    #[arg(long)]
    pub(crate) json: bool,

    /// Payload type (all inputs are one dataset of one type).
    #[arg(long = "type", short = 't', value_parser = validate_types(), default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &ValidateArgs, ctx: &Ctx) -> Result<Exit> {
    let schema = super::load_schema(&args.schema, &args.aux)?;
    let checker = Checker::new(&schema);
    let inputs = args.input.expand()?;
    let opts = check::Options {
        open: args.input.options(),
        ty: args.payload.fixed(),
        workers: pipeline::workers(args.jobs.get()),
    };
    let bar = output::LazyProgress::new(ctx, crate::io::input::total_size(&inputs));
    let progress = |bytes, records| bar.update(bytes, records);
    let (report, error) = check::validate(&checker, &inputs, &opts, &progress);
    let error = error.map(anyhow::Error::from);
    bar.finish();
    let names: Vec<String> = inputs.iter().map(|i| i.display()).collect();
    let schema_name = crate::io::input::escape_name(args.schema.as_os_str().as_encoded_bytes());
    // Anomalies of the records read, even when reading stopped early; the
    // dataset-wide ones only when every record was read.
    let anomalies: Vec<&Anomaly> = report
        .anomalies
        .iter()
        .filter(|a| error.is_none() || a.first.is_some() && !is_dataset_wide(a.kind))
        .collect();
    for a in &anomalies {
        output::error_line(format_args!("{}", super::anomaly_line(a, &names)));
    }
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
    let text = if args.json {
        let mut t = serde_json::to_string_pretty(&to_json(&report, &anomalies, &names, &schema_name, error.as_ref()))
            .unwrap_or_default();
        t.push('\n');
        t
    } else {
        summary(&report, &anomalies, &names, &schema_name, error.is_some())
    };
    let exit = if anomalies.is_empty() {
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
    )
}

fn first_text(a: &Anomaly, names: &[String]) -> String {
    match a.first {
        Some((input, record)) => {
            let file = names.get(input as usize).map_or("-", String::as_str);
            format!("{file} record {record}")
        }
        None => "-".into(),
    }
}

/// The table (or the one line saying the data conforms).
fn summary(report: &Report, anomalies: &[&Anomaly], names: &[String], schema: &str, stopped: bool) -> String {
    let files = match report.per_input.len().max(1) {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    let checked = format!(
        "{} records in {files} checked against {schema} ({} features)",
        report.records, report.checked
    );
    if anomalies.is_empty() {
        let verdict = if stopped {
            "no anomaly before the error"
        } else {
            "no anomalies"
        };
        return format!("{checked}: {verdict}\n");
    }
    let mut table = output::table();
    table.set_header(vec!["feature", "anomaly", "TFDV type", "records", "first seen"]);
    for a in anomalies {
        let records = match a.kind {
            AnomalyKind::SchemaMissingColumn
            | AnomalyKind::DatasetLowNumExamples
            | AnomalyKind::DatasetHighNumExamples => "-".to_string(),
            _ => a.records.to_string(),
        };
        table.add_row(vec![
            a.feature.as_deref().map_or("(dataset)".to_string(), quoted),
            a.kind.short().to_string(),
            a.kind.tfdv_name().to_string(),
            records,
            first_text(a, names),
        ]);
    }
    let features: std::collections::BTreeSet<Option<&str>> = anomalies.iter().map(|a| a.feature.as_deref()).collect();
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    format!(
        "{table}\n{checked}: {} in {}\n",
        plural(anomalies.len(), "anomaly", "anomalies"),
        plural(features.len(), "feature", "features")
    )
}

fn to_json(
    report: &Report,
    anomalies: &[&Anomaly],
    names: &[String],
    schema: &str,
    error: Option<&anyhow::Error>,
) -> serde_json::Value {
    let list: Vec<serde_json::Value> = anomalies
        .iter()
        .map(|a| {
            json!({
                "feature": a.feature,
                "type": a.kind.tfdv_name(),
                "short_description": a.kind.short(),
                "description": a.detail,
                "records": a.records,
                "first": a.first.map(|(input, record)| json!({
                    "file": names.get(input as usize),
                    "record": record,
                })),
            })
        })
        .collect();
    let inputs: Vec<serde_json::Value> = names
        .iter()
        .enumerate()
        .take(report.per_input.len())
        .map(|(i, n)| json!({"file": n, "records": report.per_input.get(i).copied().unwrap_or(0)}))
        .collect();
    let mut doc = json!({
        "schema": schema,
        "type": report.ty.map(|t| match t {
            MessageType::SequenceExample => "sequence",
            _ => "example",
        }),
        "records": report.records,
        "inputs": inputs,
        "features_checked": report.checked,
        "conforms": anomalies.is_empty() && error.is_none(),
        "anomalies": list,
        "not_checked": report.not_checked,
    });
    if let Some(e) = error {
        doc["error"] = json!(format!("{e:#}"));
    }
    doc
}
