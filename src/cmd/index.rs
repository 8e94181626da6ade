//! `tfr index`: an index file per input, in the format of DALI's
//! `tfrecord2idx` and of the `tfrecord` Python package (one line per
//! record: the byte offset of its header, a space, its framed size
//! `16 + payload length`); `--check` compares existing ones with their
//! files. Inputs are indexed on up to `-j` threads at once
//! ([`pipeline::in_input_order`]); every record's CRCs are checked, and an
//! index is written through an [`AtomicOutput`] (a damaged input leaves
//! none).

use crate::args::{InputArgs, JobsArg};
use crate::exit::Exit;
use crate::io::{AtomicOutput, Compression, Input};
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::record::{self, RecordReader};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub(crate) struct IndexArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Write the index files into DIR (named after each input: DIR/NAME.idx)
    /// instead of beside the inputs.
    #[arg(long, value_name = "DIR")]
    pub(crate) out_dir: Option<PathBuf>,

    /// Write nothing: say for each input whether its index file still
    /// matches it (exit 1 when one does not, or is missing).
    #[arg(long)]
    pub(crate) check: bool,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// The longest line of an index file read by `--check` (two 20-digit
/// numbers, a space, a newline, with room to spare).
const MAX_LINE: u64 = 64;

/// What became of one input.
enum Done {
    /// Written: the index file and its number of records.
    Written(String, u64),
    /// `--check`: matches (records), or not (why).
    Matches(String, u64),
    Stale(String, String),
}

pub(crate) fn run(args: &IndexArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.input.expand()?;
    if inputs.contains(&Input::Stdin) {
        bail!("index: standard input has no file to write an index beside (name the files)");
    }
    if let Some(part) = inputs.iter().find(|i| matches!(i, Input::Part { .. })) {
        bail!(
            "index: {} is a byte range of a file (from --part, or a --split slice), whose offsets are not the file's; index whole files (--part with at least N files deals them whole; --split NAME without a slice)",
            part.display()
        );
    }
    // A missing --out-dir is made, as every writer makes its directories
    // (removed again if no index is written); a file there is refused.
    let mut made = None;
    if let Some(dir) = &args.out_dir {
        if crate::io::remote::parse(dir.as_os_str().as_encoded_bytes()).is_none() {
            if dir.exists() && !dir.is_dir() {
                bail!("{}: --out-dir is not a directory", crate::io::input::show_path(dir));
            }
            if !args.check {
                made = Some(crate::io::made_dirs::MadeDirs::at(dir, "--out-dir")?);
            }
        }
    }
    let targets = targets(&inputs, args)?;
    let progress = ctx.progress(crate::io::input::total_size(&inputs));
    let jobs = args.jobs.for_inputs(&inputs).min(inputs.len()).max(1);
    let mut results = Vec::with_capacity(inputs.len());
    let read = |i: usize, emit: &mut dyn FnMut(Result<Done>) -> Result<(), pipeline::Stopped>| {
        let done = if args.check {
            check_one(&inputs[i], &targets[i], args, &progress)
        } else {
            index_one(&inputs[i], &targets[i], args, &progress)
        };
        emit(done)?;
        Ok(())
    };
    pipeline::in_input_order(inputs.len(), jobs, read, |d| {
        results.push(d);
        Ok(())
    })
    .expect("indexing reports errors per input");
    progress.finish();
    if let Some(made) = made.filter(|_| results.iter().any(|r| r.is_ok())) {
        made.keep();
    }
    let mut exit = Exit::Success;
    let written = print_results(results, &mut exit);
    output::keep_verdict(written, exit)
}

/// The index file of each input, none of them twice, none (unless
/// `--check`) an input.
fn targets(inputs: &[Input], args: &IndexArgs) -> Result<Vec<PathBuf>> {
    let targets = inputs
        .iter()
        .map(|i| index_path(i, args.out_dir.as_deref()))
        .collect::<Result<Vec<_>>>()?;
    let mut seen = std::collections::HashSet::new();
    for t in &targets {
        if !seen.insert(t) {
            bail!(
                "two inputs have the same index file {} (name them apart, or leave out --out-dir)",
                crate::io::input::show_path(t)
            );
        }
    }
    if !args.check {
        for t in &targets {
            crate::io::same_file::refuse_input_as_output(inputs, &[], t, "the index")?;
        }
    }
    Ok(targets)
}

/// A line per input on stdout (its error on stderr); `exit` raised to the
/// worst of them.
fn print_results(results: Vec<Result<Done>>, exit: &mut Exit) -> Result<()> {
    let mut out = output::stdout();
    for done in results {
        match done {
            Ok(Done::Written(name, n)) => writeln!(out, "{name}: {n} records")?,
            Ok(Done::Matches(name, n)) => writeln!(out, "{name}: ok ({n} records)")?,
            Ok(Done::Stale(name, why)) => {
                writeln!(out, "{name}: does not match: {why}")?;
                *exit = (*exit).max(Exit::DamageFound);
            }
            Err(e) => {
                output::error_line(format_args!("{e:#}"));
                *exit = (*exit).max(Exit::Error);
            }
        }
    }
    out.flush().context("writing output")
}

/// Where the index of `input` goes: `INPUT.idx`, or `DIR/NAME.idx`.
fn index_path(input: &Input, out_dir: Option<&Path>) -> Result<PathBuf> {
    let full: std::ffi::OsString = match input {
        Input::Path(p) => p.as_os_str().to_owned(),
        Input::Url(u) => u.into(),
        Input::Stdin | Input::Part { .. } => unreachable!("refused above"),
    };
    let Some(dir) = out_dir else {
        let mut s = full;
        s.push(".idx");
        return Ok(PathBuf::from(s));
    };
    let bytes = full.as_encoded_bytes();
    let base = bytes.rsplit(|&b| b == b'/').next().unwrap_or(bytes);
    if base.is_empty() {
        bail!("{}: no file name to name its index after", input.display());
    }
    let mut name = std::ffi::OsString::from(String::from_utf8_lossy(base).into_owned());
    if let Input::Path(p) = input {
        if let Some(n) = p.file_name() {
            name = n.to_owned();
        }
    }
    name.push(".idx");
    let d = dir.as_os_str().to_string_lossy();
    if crate::io::remote::parse(dir.as_os_str().as_encoded_bytes()).is_some() {
        return Ok(PathBuf::from(format!(
            "{}/{}",
            d.trim_end_matches('/'),
            name.to_string_lossy()
        )));
    }
    Ok(dir.join(name))
}

/// Opens an input for indexing: compressed input is refused (offsets in
/// it mean nothing to the readers of an index).
fn open(input: &Input, args: &IndexArgs) -> Result<RecordReader> {
    let reader = args.input.open(input)?;
    let c = reader.compression();
    if c != Compression::None {
        let name = input.display();
        let mut plain = [".gz", ".zz", ".zlib", ".snappy"]
            .iter()
            .find_map(|ext| name.strip_suffix(ext))
            .map_or_else(|| format!("{name}.plain"), str::to_owned);
        // Never a name that exists (reshard would replace it).
        while crate::io::remote::parse(plain.as_bytes()).is_none() && Path::new(&plain).exists() {
            plain.push_str(".plain");
        }
        let (name, plain) = (shell_word(&name), shell_word(&plain));
        bail!(
            "{name}: {}-compressed: an index holds offsets in the file as stored, which DALI and the tfrecord \
             package read uncompressed (decompress it first: tfr reshard {name} -o {plain}, then tfr index \
             {plain})",
            c.name()
        );
    }
    Ok(reader)
}

/// The index line of each record, in order (CRCs checked); `line` gets
/// each as it is read.
fn each_line(
    input: &Input,
    reader: &mut RecordReader,
    progress: &output::Progress,
    mut line: impl FnMut(&[u8]) -> Result<bool>,
) -> Result<u64> {
    let mut text = Vec::with_capacity(48);
    let mut shown = 0u64;
    while let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? {
        text.clear();
        let mut buf = itoa::Buffer::new();
        text.extend_from_slice(buf.format(rec.offset).as_bytes());
        text.push(b' ');
        text.extend_from_slice(buf.format(16 + rec.data.len() as u64).as_bytes());
        text.push(b'\n');
        if !line(&text)? {
            break;
        }
        if rec.index & 0xffff == 0xffff {
            let now = reader.offset();
            progress.add((now - shown) as i64, 0x10000);
            shown = now;
        }
    }
    Ok(reader.index())
}

fn index_one(input: &Input, target: &Path, args: &IndexArgs, progress: &output::Progress) -> Result<Done> {
    let mut reader = open(input, args)?;
    // A name tfr makes: a FIFO or a device there is refused, not opened.
    let mut out = AtomicOutput::create_file(target, Compression::None)?;
    let name = out.display();
    let n = each_line(input, &mut reader, progress, |line| {
        out.write_all(line).with_context(|| format!("{name}: write failed"))?;
        Ok(true)
    })?;
    out.commit()?;
    Ok(Done::Written(name, n))
}

fn check_one(input: &Input, target: &Path, args: &IndexArgs, progress: &output::Progress) -> Result<Done> {
    let shown = crate::io::input::show_path(target);
    let index_input = if crate::io::remote::parse(target.as_os_str().as_encoded_bytes()).is_some() {
        Input::Url(target.to_string_lossy().into_owned())
    } else {
        if !target.exists() {
            return Ok(Done::Stale(shown, "no index file".into()));
        }
        Input::Path(target.to_path_buf())
    };
    let mut reader = open(input, args)?;
    let opened = match index_input.open_decompressed() {
        Ok(r) => r,
        // An object store says so of a missing index.
        Err(e) if crate::io::remote::is_not_found(&e) => {
            return Ok(Done::Stale(shown, "no index file".into()));
        }
        Err(e) => return Err(e.into()),
    };
    let mut index = BufReader::new(opened);
    let mut have = Vec::with_capacity(MAX_LINE as usize);
    let mut why: Option<String> = None;
    let mut lineno = 0u64;
    let mut read_line = |have: &mut Vec<u8>| -> Result<()> {
        have.clear();
        (&mut index)
            .take(MAX_LINE)
            .read_until(b'\n', have)
            .with_context(|| format!("{shown}: read failed"))?;
        Ok(())
    };
    let walked = each_line(input, &mut reader, progress, |want| {
        lineno += 1;
        read_line(&mut have)?;
        if have.as_slice() != want {
            why = Some(if have.is_empty() {
                format!("it ends at line {lineno}, the file has more records")
            } else {
                format!(
                    "line {lineno} is '{}', the file has '{}'",
                    have.trim_ascii_end().escape_ascii(),
                    want.trim_ascii_end().escape_ascii()
                )
            });
            return Ok(false);
        }
        Ok(true)
    });
    let n = match walked {
        Ok(n) => n,
        // A damaged or truncated file does not match its index.
        Err(e) => return Ok(Done::Stale(shown, format!("{e:#}"))),
    };
    if let Some(why) = why {
        return Ok(Done::Stale(shown, why));
    }
    read_line(&mut have)?;
    if !have.is_empty() {
        return Ok(Done::Stale(
            shown,
            format!("the file has {n} records, the index more lines"),
        ));
    }
    Ok(Done::Matches(shown, n))
}

/// A word as a POSIX shell reads it back: as it is when it holds only safe
/// characters, else in single quotes.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:@%+=,".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
