//! `tfr count`: records per input, by hopping from header to header; with
//! `--where` or `--by`, records decoded on the workers of the reader of
//! records ([`batches::run`]) and tallied ([`Tally`]).

use crate::args::{InputArgs, JobsArg, PayloadType, WhereArg};
use crate::example::filter::UnmatchedNames;
use crate::example::sought::Sought;
use crate::example::{self, Decoder, Kind};
use crate::exit::Exit;
use crate::io::Input;
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::pipeline::batches::{self, Batch, Record, Types, Work};
use crate::record::{self, Check};
use anyhow::{Context, Result};
use clap::Args;
use comfy_table::CellAlignment;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};

mod keys;
use keys::{class_of, key_json, key_text, Key};

#[derive(Args, Debug, Clone)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Print JSON: {"files": [{"file", "records"[, "error"]}], "total"};
    /// with --by: {"by", "total", "values": [{"value", "records"[, "name":
    /// a TFDS ClassLabel's class]}], "missing", "no_values"[, "other"]}.
    #[arg(long)]
    pub(crate) json: bool,

    /// Records per value of FEATURE, most frequent first (then by value):
    /// a record counts once under each distinct value it has (a list
    /// [1, 2, 2] counts under 1 and 2); records without the feature are
    /// counted as (missing), with an empty list as (no values). At most
    /// 1,000,000 distinct values (or 64 MiB of them) are told apart; the
    /// records of any further value are counted as (other values), with a
    /// warning. The table shows the 1,000 most frequent values and a row
    /// for the rest; --json lists every one. SequenceExamples and ELWC:
    /// their context. Messages (--message, event files): a path of
    /// fields (summary.value.tag), as --where reads it; an enum by name.
    #[arg(long, value_name = "FEATURE")]
    pub(crate) by: Option<String>,

    /// Payload type (for --where and --by; the first record decides when
    /// auto).
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    #[command(flatten)]
    pub(crate) filter: WhereArg,

    #[command(flatten)]
    pub(crate) proto: crate::args::ProtoArgs,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// One row of output.
struct Row {
    name: String,
    records: u64,
    error: Option<String>,
}

/// The count of one input.
struct FileCount {
    name: String,
    records: u64,
    /// Why the input could not be opened or read to the end.
    error: Option<anyhow::Error>,
}

pub(crate) fn run(args: &CountArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.input.expand()?;
    if args.by.is_some() || args.filter.get().is_some() {
        return count_decoded(&inputs, args, ctx);
    }
    let total_bytes = crate::io::input::total_size(&inputs);
    let progress = ctx.progress(total_bytes);
    let jobs = args.jobs.for_inputs(&inputs);
    let counts = if inputs.len() == 1 {
        // One input: its threads hop through parts of it.
        vec![count_input(&inputs[0], args, jobs, &progress)]
    } else {
        count_parallel(&inputs, args, jobs.min(inputs.len()), &progress)
    };
    progress.finish();
    let mut exit = Exit::Success;
    let single = counts.len() == 1 && !args.json;
    let mut rows = Vec::with_capacity(counts.len());
    for c in counts {
        if let Some(e) = c.error {
            if single {
                return Err(e);
            }
            output::error_line(format_args!("{e:#}"));
            exit = Exit::Error;
            rows.push(Row {
                name: c.name,
                records: c.records,
                error: Some(format!("{e:#}")),
            });
        } else {
            rows.push(Row {
                name: c.name,
                records: c.records,
                error: None,
            });
        }
    }
    let mut out = output::stdout();
    let written = (|| -> Result<()> {
        if args.json {
            write_json(&mut out, &rows, false)?;
        } else if rows.len() == 1 {
            // A script reads the bare number; a person is told what was
            // not checked (TensorFlow fails on a damaged payload).
            match std::io::stdout().is_terminal() {
                true => writeln!(out, "{}  ({UNCHECKED})", rows[0].records)?,
                false => writeln!(out, "{}", rows[0].records)?,
            }
        } else {
            write_table(&mut out, &rows)?;
            if std::io::stdout().is_terminal() {
                writeln!(out, "({UNCHECKED})")?;
            }
        }
        out.flush().context("writing output")
    })();
    output::keep_verdict(written, exit)
}

/// Counts inputs on `jobs` threads, each taking the next uncounted input;
/// results come back in input order.
fn count_parallel(inputs: &[Input], args: &CountArgs, jobs: usize, progress: &output::Progress) -> Vec<FileCount> {
    let mut counts = Vec::with_capacity(inputs.len());
    let read = |i: usize, emit: &mut dyn FnMut(FileCount) -> Result<(), pipeline::Stopped>| {
        emit(count_input(&inputs[i], args, 1, progress))?;
        Ok(())
    };
    pipeline::in_input_order(inputs.len(), jobs, read, |c| {
        counts.push(c);
        Ok(())
    })
    .expect("counting reports errors per input");
    counts
}

/// Opens and counts one input on up to `jobs` threads; an error keeps the
/// records counted before it.
fn count_input(input: &Input, args: &CountArgs, jobs: usize, progress: &output::Progress) -> FileCount {
    let name = input.display();
    let mut reader = match args.input.open(input) {
        Ok(r) => r,
        Err(e) => {
            return FileCount {
                name,
                records: 0,
                error: Some(e),
            }
        }
    };
    // A large plain file: threads hop through parts of it, and the count
    // below goes on from where they stopped (at the end, for a clean file).
    if let Some((file, size)) = reader.shared_file() {
        let prefix = record::clean_prefix(&file, size, jobs, Check::Headers, &|b, r| progress.add(b, r));
        if prefix.end > 0 {
            if let Err(e) = reader.seek_to(prefix.end, prefix.records) {
                return FileCount {
                    records: prefix.records,
                    error: Some(anyhow::Error::new(e).context(format!("{name}: seek failed"))),
                    name,
                };
            }
        }
    }
    let (mut shown_at, mut shown) = (reader.offset(), reader.index());
    let result = reader.count_rest(|bytes, records| {
        progress.add((bytes - shown_at) as i64, (records - shown) as i64);
        (shown_at, shown) = (bytes, records);
    });
    match result {
        Ok(records) => FileCount {
            name,
            records,
            error: None,
        },
        Err(e) => FileCount {
            name,
            records: reader.index(),
            error: Some(record::read_error(input, e).into()),
        },
    }
}

/// What a count without --where/--by leaves unchecked.
const UNCHECKED: &str = "record headers checked, payloads not read: tfr verify-crc checks them";

/// `payloads_checked`: whether every payload was read and its checksum
/// checked (a count by headers alone reads none).
fn write_json(out: &mut dyn Write, counts: &[Row], payloads_checked: bool) -> Result<()> {
    let files: Vec<serde_json::Value> = counts
        .iter()
        .map(|c| {
            let mut v = serde_json::json!({"file": c.name, "records": c.records});
            if let Some(e) = &c.error {
                v["error"] = serde_json::Value::String(output::escape_controls(e).into_owned());
            }
            v
        })
        .collect();
    let total: u64 = counts.iter().map(|c| c.records).sum();
    let doc = serde_json::json!({"files": files, "total": total, "payloads_checked": payloads_checked});
    writeln!(out, "{doc}")?;
    Ok(())
}

fn write_table(out: &mut dyn Write, counts: &[Row]) -> Result<()> {
    let mut table = output::table();
    table.set_header(vec!["file", "records"]);
    for c in counts {
        let records = match &c.error {
            Some(_) => format!("{} (error)", c.records),
            None => c.records.to_string(),
        };
        table.add_row(vec![c.name.clone(), records]);
    }
    let total: u64 = counts.iter().map(|c| c.records).sum();
    table.add_row(vec!["total".to_string(), total.to_string()]);
    if let Some(col) = table.column_mut(1) {
        col.set_cell_alignment(CellAlignment::Right);
    }
    writeln!(out, "{table}")?;
    Ok(())
}

/// Distinct values told apart by `--by` (then counted as other values).
const MAX_KEYS: usize = 1_000_000;
/// Bytes of distinct values kept by `--by`.
const MAX_KEY_BYTES: usize = 64 << 20;

/// What `count --where/--by` tallies: per batch (on a worker), then for
/// the run (merged in record order).
#[derive(Debug, Default)]
struct Tally {
    /// Records per input (matching `--where`).
    per_input: Vec<u64>,
    /// `--by`: records per value, records without the feature, records
    /// with no values, records counted past the cap.
    by: HashMap<Key, u64>,
    missing: u64,
    no_values: u64,
    other: u64,
    key_bytes: usize,
}

impl pipeline::Output for Tally {
    fn is_empty(&self) -> bool {
        self.per_input.is_empty() && self.by.is_empty() && self.missing + self.no_values + self.other == 0
    }

    fn clear(&mut self) {
        self.per_input.clear();
        self.by.clear();
        (self.missing, self.no_values, self.other, self.key_bytes) = (0, 0, 0, 0);
    }
}

impl Tally {
    fn add_input(&mut self, input: u32, n: u64) {
        let i = input as usize;
        if self.per_input.len() <= i {
            self.per_input.resize(i + 1, 0);
        }
        self.per_input[i] += n;
    }

    /// Adds one record's count to `key`, within the caps.
    fn bump(&mut self, key: Key, n: u64) {
        if !self.add(key, n) {
            self.other += n;
        }
    }

    /// Adds `n` records to `key`; false when it is past the caps.
    fn add(&mut self, key: Key, n: u64) -> bool {
        if let Some(c) = self.by.get_mut(&key) {
            *c += n;
        } else if self.by.len() < MAX_KEYS && self.key_bytes + key.size() <= MAX_KEY_BYTES {
            self.key_bytes += key.size();
            self.by.insert(key, n);
        } else {
            return false;
        }
        true
    }

    /// Counts one record under each of its distinct values (`keys`, sorted
    /// and deduplicated here); past the caps, once as (other values).
    fn record(&mut self, mut keys: Vec<Key>) {
        keys.sort_unstable();
        keys.dedup();
        let mut over = false;
        for k in keys {
            over |= !self.add(k, 1);
        }
        self.other += u64::from(over);
    }

    /// Adds a batch's tally (the next in record order).
    fn merge(&mut self, other: &Tally) {
        for (i, &n) in other.per_input.iter().enumerate() {
            if n > 0 {
                self.add_input(i as u32, n);
            }
        }
        self.missing += other.missing;
        self.no_values += other.no_values;
        self.other += other.other;
        // Values in record order of first sight would need the batch's
        // order; sorted, the keys that get in past the cap are the same
        // for any -j (the batches are).
        let mut keys: Vec<(&Key, &u64)> = other.by.iter().collect();
        keys.sort_unstable();
        for (k, &n) in keys {
            self.bump(k.clone(), n);
        }
    }
}

/// The worker side of `count --where/--by`.
struct Counting<'a> {
    by: Option<&'a str>,
    /// `--by` over payloads of a message: its path.
    fields: Option<crate::proto::paths::MessageFields>,
    /// Whether any record read has the `--by` feature.
    sought: Sought,
}

impl Work for Counting<'_> {
    type Out = Tally;

    fn record(&self, decoder: &mut Decoder, r: &Record<'_>, out: &mut Tally) -> tfr_engine::Result<()> {
        // (a damaged record counts nowhere, in no total either)
        self.tally(decoder, r, out)?;
        out.add_input(r.input, 1);
        Ok(())
    }

    fn batch(&self, batch: &Batch<Tally>, out: &mut Tally) -> tfr_engine::Result<()> {
        out.add_input(batch.input, 0);
        if self.by.is_none() {
            // --where alone: the batch holds the matching records.
            out.add_input(batch.input, batch.records().count() as u64);
            return Ok(());
        }
        batches::each_record(self, batch, out)
    }
}

impl Counting<'_> {
    /// Tallies one record's `--by` values.
    fn tally(&self, decoder: &mut Decoder, r: &Record<'_>, out: &mut Tally) -> tfr_engine::Result<()> {
        let Some(name) = self.by else {
            return Ok(());
        };
        if let Some(fields) = &self.fields {
            return by_field(fields, name, r, out);
        }
        if r.ty == example::MessageType::Raw {
            return Err(tfr_engine::Error::msg(format_args!(
                "{}: record {} at byte {}: --by reads features, and a --type raw record has none",
                r.name, r.index, r.offset
            )));
        }
        let mut keys: Vec<Key> = Vec::new();
        let found = example::filter::with_features(decoder, r.ty, r.strict, r.payload, |fs| {
            self.sought.note(fs);
            let f = example::filter::lookup(fs, name)?;
            match f.kind() {
                Kind::None => {}
                Kind::Int64 => keys.extend(f.int64s().map(Key::Int)),
                // Every NaN is one value, whatever its bits (numpy's
                // and x86's default NaN differ in the sign bit).
                Kind::Float => keys.extend(
                    f.floats()
                        .map(|v| Key::Float(if v.is_nan() { f32::NAN } else { v }.to_bits())),
                ),
                Kind::Bytes => keys.extend(f.bytes().map(|v| Key::Bytes(v.to_vec()))),
            }
            Some(())
        })
        .map_err(|e| batches::decode_error(r.name, r.index, r.offset, e))?;
        if found.is_none() {
            out.missing += 1;
        } else if keys.is_empty() {
            out.no_values += 1;
        } else {
            out.record(keys);
        }
        Ok(())
    }
}

/// Tallies a message's record by the values of its `--by` path (none: it
/// counts as missing).
fn by_field(
    fields: &crate::proto::paths::MessageFields,
    name: &str,
    r: &Record<'_>,
    out: &mut Tally,
) -> tfr_engine::Result<()> {
    use crate::example::filter::PayloadFields;
    let mut keys: Vec<Key> = Vec::new();
    fields
        .read(r.payload, &mut |fs| {
            fs.any(name, &mut |v| {
                keys.push(Key::of(v));
                false
            })
        })
        .map_err(|e| batches::decode_error(r.name, r.index, r.offset, e))?;
    if keys.is_empty() {
        out.missing += 1;
    }
    out.record(keys);
    Ok(())
}

/// `count --where/--by`: every record read and decoded (one dataset: the
/// first record decides the type), counted per input and per value.
fn count_decoded(inputs: &[Input], args: &CountArgs, ctx: &Ctx) -> Result<Exit> {
    let message = args.proto.message(args.payload, inputs)?;
    // Refused before reading: else a count of nothing is printed first.
    if message.is_none() && args.payload.fixed() == Some(example::MessageType::Raw) {
        let flag = if args.by.is_some() { "--by" } else { "--where" };
        anyhow::bail!("{flag} reads features, and a --type raw record has none");
    }
    let filter = args.filter.for_message(message.as_ref())?;
    let progress = ctx.progress(crate::io::input::total_size(inputs));
    let jobs = args.jobs.for_inputs(inputs);
    let open = args.input.options();
    let how = batches::Reading {
        open: &open,
        types: match message {
            Some(_) => Types::given(Some(example::MessageType::Raw), Types::Dataset),
            None => Types::given(args.payload.fixed(), Types::Dataset),
        },
        jobs,
        range: batches::Range::default(),
        sample: None,
        probe_limit: false,
        filter: filter.as_ref(),
    };
    let mut total = Tally::default();
    let merge = |t: &Tally| {
        total.merge(t);
        Ok(())
    };
    let fields = match (&message, &args.by) {
        (Some(m), Some(by)) => Some(crate::proto::paths::MessageFields::new(
            m,
            [by.as_str()],
            &[by.as_str()],
            "--by",
        )?),
        _ => None,
    };
    let work = Counting {
        by: args.by.as_deref(),
        fields,
        sought: Sought::new(args.by.as_deref()),
    };
    let update = |bytes, records| progress.update(bytes, records);
    let (read, result) = batches::run(inputs, &how, pipeline::workers(jobs), &work, merge, &update);
    progress.finish();
    let error = result.err();
    if let (Some(e), true) = (&error, read.files.is_empty()) {
        return Err(anyhow::anyhow!("{e:#}"));
    }
    // --strict: a misspelt name is not a result to print.
    if let Some(e) = error
        .as_ref()
        .filter(|e| matches!(e.root(), tfr_engine::Error::UnmatchedNames(_)))
    {
        return Err(anyhow::anyhow!("{e:#}"));
    }
    if error.is_none() {
        said_unmatched(args, &work.sought)?;
    }
    let rows: Vec<Row> = read
        .files
        .iter()
        .map(|&(i, _)| Row {
            name: inputs[i].display(),
            records: total.per_input.get(i).copied().unwrap_or(0),
            error: None,
        })
        .collect();
    let written = write_decoded(args, &total, &rows, inputs.len());
    match error {
        // What was counted before the damage, then the error.
        Some(e) => {
            written?;
            Err(e.into())
        }
        None => output::keep_verdict(written, Exit::Success),
    }
}

/// `--by` names no record has: an error with `--strict`, else a warning each.
fn said_unmatched(args: &CountArgs, sought: &Sought) -> Result<()> {
    let unmatched = sought.unmatched();
    if !unmatched.is_empty() {
        if args.filter.strict {
            return Err(UnmatchedNames {
                flag: "--by",
                names: unmatched,
            }
            .into());
        }
        for u in unmatched {
            output::error_line(format_args!("warning: --by: {u}: every record counts as (missing)"));
        }
    }
    Ok(())
}

/// What `count --where/--by` prints: the `--by` table, or the records per
/// input (`rows`) of the `inputs` given.
fn write_decoded(args: &CountArgs, total: &Tally, rows: &[Row], inputs: usize) -> Result<()> {
    let mut out = output::stdout();
    match &args.by {
        Some(name) => {
            if total.other > 0 {
                output::error_line(format_args!(
                    "warning: --by {}: more than {} distinct values (or {} MiB of them): the records of the \
                     rest are counted as (other values)",
                    output::escape_controls(name),
                    MAX_KEYS,
                    MAX_KEY_BYTES >> 20
                ));
            }
            let classes = crate::tfds::inputs::class_names(&args.input.files);
            let names = classes.as_ref().and_then(|c| c.get(name.as_str())).map(Vec::as_slice);
            write_by(&mut out, name, total, args.json, names)?;
        }
        None => {
            if args.json {
                write_json(&mut out, rows, true)?;
            } else if inputs == 1 {
                writeln!(out, "{}", rows.first().map_or(0, |r| r.records))?;
            } else {
                write_table(&mut out, rows)?;
            }
        }
    }
    out.flush().context("writing output")
}

/// The `--by` rows: most records first, then by value.
fn by_rows(total: &Tally) -> Vec<(&Key, u64)> {
    let mut rows: Vec<(&Key, u64)> = total.by.iter().map(|(k, &n)| (k, n)).collect();
    rows.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    rows
}

/// The `--by` JSON document, written row by row.
fn write_by_json(
    out: &mut dyn Write,
    name: &str,
    total: &Tally,
    rows: &[(&Key, u64)],
    names: Option<&[String]>,
) -> Result<()> {
    let records: u64 = total.per_input.iter().sum();
    // Written row by row (keys in the order serde_json sorts them): a
    // document of a million values built first would take a gigabyte.
    let mut out = std::io::BufWriter::new(out);
    write!(
        out,
        "{{\"by\":{},\"missing\":{},\"no_values\":{},",
        serde_json::Value::from(name),
        total.missing,
        total.no_values
    )?;
    if total.other > 0 {
        write!(out, "\"other\":{},", total.other)?;
    }
    write!(out, "\"total\":{records},\"values\":[")?;
    for (i, (k, n)) in rows.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        match class_of(k, names) {
            Some(c) => write!(
                out,
                "{sep}{{\"name\":{},\"records\":{n},\"value\":{}}}",
                serde_json::Value::from(c),
                key_json(k)
            )?,
            None => write!(out, "{sep}{{\"records\":{n},\"value\":{}}}", key_json(k))?,
        }
    }
    writeln!(out, "]}}")?;
    out.flush()?;
    Ok(())
}

/// The `--by` table or JSON; `names`: a TFDS ClassLabel's class names.
fn write_by(out: &mut dyn Write, name: &str, total: &Tally, json: bool, names: Option<&[String]>) -> Result<()> {
    let records: u64 = total.per_input.iter().sum();
    let rows = by_rows(total);
    if json {
        return write_by_json(out, name, total, &rows, names);
    }
    let mut table = output::table();
    table.set_header(vec![
        output::escape_controls(name).into_owned(),
        "records".into(),
        "%".into(),
    ]);
    let share = |n: u64| {
        if records == 0 {
            "-".to_owned()
        } else {
            format!("{:.1}", n as f64 * 100.0 / records as f64)
        }
    };
    let mut extra = vec![("(missing)", total.missing), ("(no values)", total.no_values)];
    if total.other > 0 {
        extra.push(("(other values)", total.other));
    }
    // The most frequent values (a table of a million rows would take a
    // gigabyte and no one reads it: --json lists them all).
    let shown = rows.len().min(TABLE_ROWS);
    let text = |k: &Key| match class_of(k, names) {
        Some(c) => format!("{} ({})", key_text(k), output::escape_controls(c)),
        None => key_text(k),
    };
    let mut all: Vec<(String, u64)> = rows[..shown].iter().map(|(k, n)| (text(k), *n)).collect();
    let rest: u64 = rows[shown..].iter().map(|(_, n)| n).sum();
    all.extend(
        extra
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(|(t, n)| (t.to_owned(), n)),
    );
    // The special rows take their place by count too.
    all.sort_by_key(|row| std::cmp::Reverse(row.1));
    for (text, n) in all {
        table.add_row(vec![text, n.to_string(), share(n)]);
    }
    if shown < rows.len() {
        table.add_row(vec![
            format!(
                "({} more values, fewer records each: --json lists every one)",
                rows.len() - shown
            ),
            rest.to_string(),
            share(rest),
        ]);
    }
    table.add_row(vec!["total records".to_string(), records.to_string(), String::new()]);
    for c in [1, 2] {
        if let Some(col) = table.column_mut(c) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    writeln!(out, "{table}")?;
    Ok(())
}

/// Values `count --by`'s table shows, the most frequent first.
const TABLE_ROWS: usize = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_values_past_the_caps_are_counted_as_other() {
        let mut t = Tally::default();
        // 1 MiB values: 63 fit in 64 MiB with their overhead, the rest are other.
        for i in 0..70u8 {
            t.bump(Key::Bytes(vec![i; 1 << 20]), 1);
        }
        assert_eq!(t.by.len(), 63);
        assert_eq!(t.other, 7);
        // A value already counted is still counted past the cap.
        t.bump(Key::Bytes(vec![0; 1 << 20]), 5);
        assert_eq!(t.by[&Key::Bytes(vec![0; 1 << 20])], 6);
        let mut t = Tally::default();
        for i in 0..MAX_KEYS as i64 + 10 {
            t.bump(Key::Int(i), 1);
        }
        assert_eq!((t.by.len(), t.other), (MAX_KEYS, 10));
        // One record with many values past the caps is one record of other values.
        t.record((0..20).map(|i| Key::Int(-i - 1)).collect());
        assert_eq!(t.other, 11);
    }

    #[test]
    fn merging_batches_keeps_the_first_values_in_record_order() {
        let mut total = Tally::default();
        let mut a = Tally::default();
        a.add_input(0, 3);
        a.bump(Key::Int(2), 2);
        a.bump(Key::Int(1), 1);
        a.missing = 1;
        let mut b = Tally::default();
        b.add_input(1, 2);
        b.bump(Key::Int(2), 1);
        b.no_values = 1;
        total.merge(&a);
        total.merge(&b);
        assert_eq!(total.per_input, [3, 2]);
        assert_eq!(total.by[&Key::Int(2)], 3);
        assert_eq!((total.missing, total.no_values), (1, 1));
        let rows = by_rows(&total);
        assert_eq!(rows, [(&Key::Int(2), 3), (&Key::Int(1), 1)]);
    }
}
