//! The command-line definition (clap derive). The `///` comments are the help text.

use crate::output::ColorChoice;
use clap::{Args, CommandFactory, Parser, Subcommand};

/// The whole command-line definition, for generating completions and man
/// pages (tests/cli/docs.rs).
pub fn command() -> clap::Command {
    Cli::command()
}

/// Inspect and convert TFRecord files without TensorFlow.
///
/// Inputs are paths, `-` for stdin, or nothing (stdin when piped). Quoted
/// globs ('data/train-*') are expanded by tfr, sorted; brace notation as
/// WebDataset writes shard lists ('laion-{000..009}.tar', '{train,valid}')
/// in order, for paths and URLs (a name that exists as written is kept).
/// A directory
/// ('data/mnist/3.0.1/', as TFDS lays datasets out) is the TFRecord files
/// directly in it, sorted: names holding "tfrecord", ending .tfrec or .tfr,
/// or shards NAME-00000-of-00010 (also with .gz, .zz, .zlib, .snappy
/// after), and TensorBoard's events.out.tfevents.*, never hidden ones or
/// _SUCCESS; a '**' glob reaches below it
/// (from-jsonl takes a directory's .jsonl, .ndjson, .json; from-wds its
/// .tar files). An object-store
/// URL ending with '/' is read the same way. Compression (gzip,
/// zlib, TensorFlow's SNAPPY) is detected from the content, never from the
/// file name.
///
/// Exit codes: 0 success, 1 a check found damage (verify-crc), anomalies
/// (validate) or a stale index (index --check), 2 any error (usage, I/O,
/// damaged input).
#[derive(Parser, Debug)]
#[command(name = "tfr", version, propagate_version = true, max_term_width = 100, after_long_help = SHARED_OPTIONS)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: GlobalArgs,

    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The options many commands share, in detail once (`tfr --help`), so
/// each command's help stays short.
const SHARED_OPTIONS: &str = "\
Shared options in detail:

--where EXPR (cat, head, count, to-jsonl, reshard, split, shuffle, schema,
stats, to-parquet, to-arrow, to-csv, to-wds, extract):
  NAME OP VALUE with ==, !=, <, <=, >, >=: a number (1, -2, 0.5, 1e-3) or a
  string in double quotes (\"US\"); NAME in [V, ...]; NAME ~ \"REGEX\" and
  NAME !~ \"REGEX\" on bytes (unanchored; at most 64 regexes); has(NAME);
  len(NAME) OP N (number of values); !, &&, || and parentheses. Names as
  they are (image/encoded, a.b) or in backticks. A feature with several
  values matches when any value does; a missing one makes every comparison
  false (!has(x) finds it); a value of another kind is false.
  SequenceExamples and ELWC: their context. true and false are 1 and 0.
  Messages (--message, event files; cat, head, to-jsonl, count): NAME is
  a path of fields (summary.value.tag), a map's as .key and .value, a
  oneof's name its set member's name; an unset field with presence has no
  value; enums compare by name or number. With --skip/--limit/--sample
  they count matching records. A name no record read has is a warning
  (the likely name suggested); --strict makes it an error.

--part K/N: the K-th of N disjoint parts of the inputs (0 <= K < N), so N
  workers (a job array, Ray tasks, xargs -P) cover them exactly once: with
  at least N files, files dealt out whole; fewer, the inputs cut into N byte
  ranges at record starts (compressed files stay whole). The parts'
  outputs, in K order, are the whole run's; counts add up, and
  `stats --merge` joins statistics.

-j N: threads [default: the cores; for count and verify-crc over URLs at
  least 16; at most 64]. Several inputs are read at once (count and
  verify-crc also share one large plain file), records are rendered or
  encoded on several; the output is the same whatever N is.

--timeout DURATION: off by default, a stalled connection fails after 30 s
  without a byte (retried up to 4 times), but a server sending a byte now
  and then is waited for; with it, the command ends DURATION after it
  started.

--no-sign-request: as the AWS CLI's flag; AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE
  do the same per store.
";

/// Flags accepted by every command.
#[derive(Args, Debug, Clone)]
pub(crate) struct GlobalArgs {
    /// Never show progress bars.
    #[arg(short, long, global = true, help_heading = "Global options")]
    pub(crate) quiet: bool,

    /// When to use colour: auto (terminal and no NO_COLOR), always, never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true, value_name = "WHEN", hide_possible_values = true, help_heading = "Global options")]
    pub(crate) color: ColorChoice,

    /// Object stores (s3://, gs://, az://) without credentials, as for
    /// public data.
    #[arg(long, global = true, help_heading = "Global options")]
    pub(crate) no_sign_request: bool,

    /// Give up on a command reading or writing URLs DURATION after it
    /// started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`).
    #[arg(long, global = true, value_name = "DURATION", value_parser = parse_duration, help_heading = "Global options")]
    pub(crate) timeout: Option<std::time::Duration>,
}

/// A duration: a number with an optional unit, `ms`, `s` (the default),
/// `m` or `h` (`30`, `1.5s`, `5m`).
fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let t = s.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let bad = || format!("not a duration: '{s}' (e.g. 30s, 5m, 1h, 500ms)");
    let n: f64 = num.parse().map_err(|_| bad())?;
    let secs = match unit.trim() {
        "ms" => n / 1000.0,
        "" | "s" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(bad()),
    };
    if secs == 0.0 {
        return Err(format!("'{s}': the timeout must be more than 0"));
    }
    std::time::Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(bad)
}

#[cfg(test)]
mod duration_tests {
    #[test]
    fn zero_is_refused_as_zero() {
        for zero in ["0", "0s", "0.0ms"] {
            let e = super::parse_duration(zero).unwrap_err();
            assert!(e.contains("must be more than 0"), "{zero}: {e}");
        }
        assert!(super::parse_duration("x").unwrap_err().contains("not a duration"));
        assert_eq!(super::parse_duration("1.5s").unwrap().as_millis(), 1500);
    }
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Print every record (or a range, or a random sample, of them).
    ///
    /// On a terminal long values are shortened: a bytes value over
    /// --max-bytes is cut and described (`# JPEG 640x480, 102,400 bytes`), a
    /// list over --max-values shows its first values and a summary of the
    /// rest. Piped or redirected output is every byte, exactly (unless a
    /// limit is given); --full prints every byte on a terminal too.
    ///
    /// Examples:
    ///   tfr cat train.tfrecord
    ///   tfr cat 'data/train-*.tfrecord.gz' | less
    ///   tfr cat --skip 1000 -n 10 --features 'image/*,label' train.tfrecord
    ///   tfr cat --sample 20 --seed 1 'data/train-*'
    ///   tfr cat --where 'label in [1, 2] && !has(image/encoded)' train.tfrecord
    ///   tfr cat --type raw lines.tfrecord
    #[command(verbatim_doc_comment)]
    Cat(crate::cmd::cat::CatArgs),

    /// Print the first records (10 by default) of the inputs, taken together.
    ///
    /// Stops reading as soon as N records are printed, so it is instant on
    /// any file size. Values are shortened on a terminal, as for cat.
    ///
    /// Examples:
    ///   tfr head train.tfrecord
    ///   tfr head -n 1 --full train.tfrecord.gz
    ///   tfr head -n 3 --exclude 'image/*' 'shards/train-*-of-*'
    ///   tfr head --skip 500 -n 2 -f json train.tfrecord
    ///   tfr head -n 5 --where 'image/filename ~ "^img_00"' train.tfrecord
    #[command(verbatim_doc_comment)]
    Head(crate::cmd::cat::HeadArgs),

    /// Count the records of each input.
    ///
    /// One input prints just the number; several print a table with a total.
    /// Plain files are counted by hopping from header to header (checking
    /// each length CRC) without reading payloads, so a damaged payload is
    /// not seen (TensorFlow fails on it; tfr verify-crc checks it): on a
    /// terminal the count says so, and --json has "payloads_checked": false
    /// (true with --where or --by, which read every record).
    ///
    /// With --where EXPR, the records that match are counted (each decoded);
    /// with --by FEATURE, records per value of the feature, most frequent
    /// first, with a row for the records without it.
    ///
    /// Examples:
    ///   tfr count train.tfrecord
    ///   tfr count 'data/train-*' --json
    ///   tfr count --where 'label == 1 && score >= 0.5' 'data/train-*'
    ///   tfr count --by label --where 'has(image/encoded)' train.tfrecord
    ///   tfr count --json --part 2/8 'data/train-*'   # worker 2 of 8: counts add up
    #[command(verbatim_doc_comment)]
    Count(crate::cmd::count::CountArgs),

    /// Check both CRCs of every record; report every fault; salvage the rest.
    ///
    /// After damage the scan resynchronises (finds the next offset whose
    /// header and payload CRCs both check) and goes on, so every fault is
    /// reported, one line on stderr each: file, record, byte offset (in the
    /// decompressed stream for gzip/zlib/snappy), kind, and bytes skipped. A summary
    /// follows on stdout: one line for one input, a table with totals for
    /// several (--json: one JSON document).
    ///
    /// Record indices count a damaged stretch as one record.
    ///
    /// Exit codes: 0 every record intact, 1 damage found, 2 an input could not
    /// be read at all (missing, unreadable, not a TFRecord file).
    ///
    /// Examples:
    ///   tfr verify-crc 'data/*.tfrecord.gz' || exit 1
    ///   tfr verify-crc --json train.tfrecord
    ///   tfr verify-crc damaged.tfrecord --salvage repaired.tfrecord
    #[command(verbatim_doc_comment)]
    VerifyCrc(crate::cmd::verify_crc::VerifyCrcArgs),

    /// Write records as JSON lines: one compact object per record.
    ///
    /// An Example is {"name": FEATURE, ...} in wire order. FEATURE: int64s as
    /// [1, 2]; float32s as [0.5, 1e-45, "NaN"] (shortest digits that read
    /// back to the same float32, always with a '.' or an exponent); bytes as
    /// ["text", {"base64": "..."}] (a string when valid UTF-8). Where that
    /// would read back differently (an empty list, only NaN/Infinity) the
    /// typed form {"int64_list"|"float_list"|"bytes_list": [...]} is used;
    /// a Feature with no kind is null, and so is an empty Example payload
    /// (no features field; `{}` has an empty one). A SequenceExample is
    /// {"context": {...}, "feature_lists": {"name": [FEATURE, ...]}}; a raw
    /// payload a string or {"base64": ...}. `from-jsonl` reads it back to
    /// the same bytes. --format protojson: protobuf's JSON mapping instead.
    ///
    /// Examples:
    ///   tfr to-jsonl train.tfrecord | jq -c 'select(.label | first == 1)'
    ///   tfr to-jsonl 'data/train-*.tfrecord.gz' -o train.jsonl
    ///   tfr to-jsonl --features 'image/*,label' --sample 100 train.tfrecord
    ///   tfr to-jsonl --format protojson --type sequence clips.tfrecord
    ///   tfr to-jsonl --where 'country == "US"' train.tfrecord -o us.jsonl
    #[command(verbatim_doc_comment)]
    ToJsonl(crate::cmd::to_jsonl::ToJsonlArgs),

    /// Write JSON lines as TFRecord records: the reverse of to-jsonl.
    ///
    /// Reads what to-jsonl writes, and also: a scalar for a one-value list,
    /// true/false as int64 1/0, integers mixed with floats as a float list,
    /// the typed form anywhere to force a kind, --schema to force kinds by
    /// feature name. Blank lines are skipped. A bad line stops the run with
    /// NAME:LINE:COLUMN key: reason (exit 2) and leaves no output file (an
    /// existing one untouched): OUT is renamed into place only on success.
    ///
    /// Examples:
    ///   tfr to-jsonl x.tfrecord | jq -c 'select(.label | first == 1)' | tfr from-jsonl -o y.tfrecord
    ///   tfr from-jsonl data.jsonl -o data.tfrecord.gz   # gzip: from the name
    ///   tfr from-jsonl --schema schema.json edited.jsonl -o edited.tfrecord
    #[command(verbatim_doc_comment)]
    FromJsonl(crate::cmd::from_jsonl::FromJsonlArgs),

    /// Merge, filter, recompress or shard records: into one file, N shards, or shards of at most a size.
    ///
    /// Without --shards or --shard-size, the records go to exactly the file
    /// -o names (merged, filtered with --where, recompressed as its name
    /// says). Otherwise the records of every input, in order and byte for
    /// byte, in contiguous runs: shard k of --shards N holds records k*T/N up to (k+1)*T/N of
    /// the T records (counted in a first pass); --shard-size starts a new
    /// shard when the next record could make the current one larger than
    /// SIZE as written (compressed, if it is). Shards are named as Beam and
    /// TFDS name them: -o out/train.tfrecord.gz writes
    /// out/train-00000-of-00064.tfrecord.gz ... Compression from the output's
    /// name (--output-compression overrides); inputs in any compression.
    /// All shards appear together at the end, or none (a damaged input, an
    /// error, Ctrl-C: nothing is left).
    ///
    /// Examples:
    ///   tfr reshard 'raw/*.tfrecord' -o out/train.tfrecord.gz --shards 64
    ///   tfr reshard big.tfrecord -o shards/big.tfrecord --shard-size 100M
    ///   tfr reshard 'part-*' -o merged.tfrecord.gz   # merge and gzip into that one file
    ///   tfr reshard train.tfrecord --where 'label == 1' -o ones.tfrecord
    #[command(verbatim_doc_comment)]
    Reshard(crate::cmd::reshard::ReshardArgs),

    /// Split records into train/eval/test by a stable hash.
    ///
    /// Each record goes to one split, chosen by a hash (xxh3, --seed) of its
    /// payload, or with --by FEATURE of that feature's values (so all
    /// records of one user or session land in one split): the same records
    /// on every run, machine and -j. A split's share of the records is its
    /// ratio's on average (with --by: of the distinct values). Records are
    /// written byte for byte, in input order, to -o with {split} replaced by
    /// the split's name; with --shards/--shard-size each split is sharded.
    /// Prints each split's count (with --by also its share of the distinct
    /// values, the heaviest value, and a warning when heavy values pull the
    /// records' shares away from --ratio). All outputs appear together, or none.
    ///
    /// Examples:
    ///   tfr split data.tfrecord --ratio train=8,eval=2 -o '{split}.tfrecord'
    ///   tfr split 'raw/*' --ratio train=8,eval=1,test=1 --by user_id -o 'out/{split}.tfrecord.gz'
    ///   tfr split data.tfrecord --ratio train=9,eval=1 -o 'out/{split}.tfrecord' --shards 4
    #[command(verbatim_doc_comment)]
    Split(crate::cmd::split::SplitArgs),

    /// Write records as CSV: a header of feature names, one row per record.
    ///
    /// The columns are the features a first pass over the inputs finds (the
    /// scan of `tfr schema`), sorted by name, or those of --schema FILE
    /// (`tfr schema -f json`), which skips the pass (and is needed for
    /// stdin). A feature with at most one value in every record is a plain
    /// cell: int64 as decimal, float32 as the JSONL mapping writes it
    /// (shortest digits that read back the same; NaN, Infinity,
    /// -Infinity), bytes as text when UTF-8, else {"base64":"..."}. A
    /// feature with more values is a JSON array in its cell (the JSONL
    /// mapping), or left out with a note (--lists omit). A missing feature
    /// is an empty cell, an empty list []. SequenceExamples: their context
    /// features (feature lists are left out, with a note). RFC 4180
    /// quoting: a cell holding a comma, a double quote or a line break is
    /// quoted, its quotes doubled; lines end with \n.
    ///
    /// Examples:
    ///   tfr to-csv train.tfrecord > train.csv
    ///   tfr to-csv 'data/train-*' --exclude 'image/*' -o train.csv
    ///   tfr to-csv --schema schema.json --lists omit train.tfrecord
    #[cfg(feature = "csv")]
    #[command(verbatim_doc_comment)]
    ToCsv(crate::cmd::to_csv::ToCsvArgs),

    /// Write records as WebDataset tar shards: one sample per record.
    ///
    /// -o DIR/NAME.tar writes DIR/NAME-000000.tar, DIR/NAME-000001.tar, ...
    /// (a new shard when the next sample would take the current one over
    /// --shard-size, or past --shard-records). Each record is one sample,
    /// its key the record's number over the inputs (000000042) or --key
    /// FEATURE's value. Members (an Example, a SequenceExample's context):
    /// a bytes feature whose one value is a media file (JPEG, PNG, GIF,
    /// WebP, BMP, TIFF, MP4, WebM, WAV, FLAC, MP3, Ogg, PDF, NPY... by its
    /// first bytes) is KEY.jpg, KEY.png, ... (a second feature of the same
    /// type KEY.NAME.jpg, NAME the feature's name in lower case with
    /// characters other than letters, digits, '_' and '-' as '_'); the
    /// label (--cls, else an int64 feature named label or .../label with
    /// one value) is KEY.cls (its decimal value); the other features are
    /// KEY.json, the JSONL mapping of them (a SequenceExample's feature
    /// lists too). A member's feature name is kept in its PAX header (the
    /// extended attribute user.tfr.feature, which tar tools keep quietly),
    /// so from-wds gives the records back. All shards appear together at
    /// the end, or none.
    ///
    /// Examples:
    ///   tfr to-wds train.tfrecord -o wds/shard.tar
    ///   tfr to-wds 'data/train-*' -o wds/train.tar --shard-size 512M --cls label
    #[cfg(feature = "wds")]
    #[command(verbatim_doc_comment)]
    ToWds(crate::cmd::to_wds::ToWdsArgs),

    /// Read WebDataset tar shards back into TFRecord records.
    ///
    /// Members are grouped into samples by key, as the webdataset library
    /// does (the key is the name up to the first '.' of its last part, the
    /// rest its extension; a sample is the run of members with one key).
    /// Each sample becomes one Example: KEY.json's object gives features
    /// (the JSONL mapping; when the first sample's .json is a
    /// SequenceExample's, or with --type sequence, every sample is a
    /// SequenceExample whose context gets the members' features). Other
    /// metadata is mapped: nested objects as features a/b, [] as no values
    /// (or --schema's kind), a list of lists or other value no Example kind
    /// holds as its JSON text (bytes; a warning per feature); integers in
    /// a feature first seen as float are written as floats (a warning), any
    /// other change of kind is an error naming both samples (pin kinds with
    /// --schema; --keep-json keeps the .json whole). KEY.cls is an int64
    /// feature, every other member a
    /// bytes feature named by its extension (jpg, txt, seg.png, ...) or,
    /// when to-wds wrote it, by its user.tfr.feature attribute. --key FEATURE
    /// keeps the key too. Tars plain or gzip/zlib-compressed (detected by
    /// their first bytes; bzip2, xz, zstd are refused: decompress first). Member
    /// names that are absolute or hold '..', links and devices are refused
    /// (exit 2). OUT's compression follows its name (.gz, .zz, .snappy);
    /// it appears only when every shard converted.
    ///
    /// Examples:
    ///   tfr from-wds 'wds/shard-*.tar' -o back.tfrecord
    ///   tfr from-wds wds/shard-000000.tar --key __key__ -o back.tfrecord.gz
    #[cfg(feature = "wds")]
    #[command(verbatim_doc_comment)]
    FromWds(crate::cmd::from_wds::FromWdsArgs),

    /// Write each value of a bytes feature to a file of its own.
    ///
    /// Each value of --feature goes to DIR/NAME.EXT: EXT from its first
    /// bytes (jpg, png, gif, webp, wav, mp4, pdf, ...; txt for other UTF-8
    /// text, bin for the rest), left off when NAME already ends with it;
    /// NAME from --name: {record} (the record's number over the inputs,
    /// {record:06} zero-padded to 6 digits), {value} (the value's index in
    /// the feature), {FEATURE} (that feature's one value in the record:
    /// {image/filename}, {label}); '{{' and '}}' are braces. A '/' in a name
    /// makes subdirectories ('{label}/{record}': a folder per class). A
    /// record with several values gets -{value} appended unless the
    /// template uses {value}. A name that would leave DIR (absolute, '..',
    /// through a symbolic link) is refused, and so is one written twice in
    /// a run (exit 2). Each file is written through a temporary file
    /// renamed into place.
    ///
    /// Examples:
    ///   tfr extract train.tfrecord --feature image/encoded -o imgs/
    ///   tfr extract train.tfrecord --feature image/encoded -o by-class/ --name '{label}/{record:06}'
    ///   tfr extract train.tfrecord --feature image/encoded -o imgs/ --where 'label == 4' -n 2
    #[command(verbatim_doc_comment)]
    Extract(crate::cmd::extract::ExtractArgs),

    /// Describe a TFDS dataset folder (splits, record counts, features), or
    /// plain TFRecord files.
    ///
    /// Reads what TFDS wrote beside the shards (dataset_info.json,
    /// features.json, *.labels.txt), not the shards: name, version,
    /// description, splits with their shards, records and bytes, and every
    /// feature as it is stored in the records (nested features named a/b),
    /// with its TFDS type, dtype, shape (n: per item of a Sequence or
    /// Dataset around it), encoding and class names. --check reads every
    /// shard and exits 1 where its records differ from dataset_info.json or
    /// it is missing. Commands that read records take the folder too, with
    /// --split NAME (or TFDS's slices: train[:10%]) for one split.
    ///
    /// Examples:
    ///   tfr info tests/data/tfds/tfr_toy/1.0.0      # ~/tensorflow_datasets/NAME/VERSION
    ///   tfr info gs://bkt/tfds/tfr_toy/1.0.0/ --json
    ///   tfr info --check tests/data/tfds/tfr_toy/1.0.0 || exit 1
    ///   tfr info tests/data/notebook.tfrecord    # plain files: records, bytes, the first record's features
    ///   tfr head -n 2 tests/data/tfds/tfr_toy/1.0.0 --split test
    #[command(verbatim_doc_comment)]
    Info(crate::cmd::info::InfoArgs),

    /// TensorBoard's scalars as a table: run, tag, step, wall_time, value.
    ///
    /// Every scalar of every run under the log directories: v1
    /// simple_value and v2 tf.summary.scalar (tensors of the scalars
    /// plugin) alike. Runs are the event files' directories relative to
    /// LOGDIR, as TensorBoard names them (files whose names hold
    /// "tfevents", hidden ones too); rows are sorted by run, tag and step
    /// (equal ones in file order) and purged where TensorBoard purges them
    /// (a SessionLog START; steps going back in files without a version).
    /// A damaged or truncated file (a run still being written) gives every
    /// intact event and a warning.
    ///
    /// Examples:
    ///   tfr scalars tests/data/events/logs
    ///   tfr scalars tests/data/events/logs -f csv -o scalars.csv
    ///   tfr scalars tests/data/events/logs --tags '^loss' --runs '^sweep/' -f jsonl
    ///   tfr scalars tests/data/events/logs -f parquet -o scalars.parquet
    #[command(verbatim_doc_comment)]
    Scalars(crate::cmd::scalars::ScalarsArgs),

    /// Infer what a dataset holds, per feature; print a parse spec that works.
    ///
    /// One pass over every record of every input (shards are one dataset):
    /// per feature its kind (or every kind seen, and where each was first
    /// seen), records present, values per record (fixed or not), numeric
    /// min / max (NaN counted, not compared), and for bytes the share of
    /// valid UTF-8, the longest value and a sniffed media type (jpeg, png,
    /// gif, webp, tensor_proto, json, text, binary). SequenceExample: context
    /// and feature lists apart, with steps per record and values per step.
    /// Kind conflicts, always-empty features and features absent from whole
    /// files are flagged.
    ///
    /// --format tf prints a Python feature_description (FixedLenFeature,
    /// VarLenFeature, FixedLenSequenceFeature) that parses every scanned
    /// record; a feature whose kind conflicts is left out with a comment.
    /// --format json is documented in the library docs (tfr::cmd::schema).
    ///
    /// Examples:
    ///   tfr schema train.tfrecord
    ///   tfr schema 'data/train-*' --format tf > spec.py
    ///   tfr schema --json --limit 10000 train.tfrecord.gz
    ///   tfr schema --exclude 'image/*' train.tfrecord
    ///   tfr schema --where 'label == 1' train.tfrecord
    #[command(verbatim_doc_comment)]
    Schema(crate::cmd::schema::SchemaArgs),

    /// Full statistics of a dataset, as TensorFlow Data Validation computes them.
    ///
    /// One pass over every record of every input (shards are one dataset),
    /// on all cores, in bounded memory. Per feature: records present and
    /// missing, values per record (min, max, mean, quantiles); numbers:
    /// mean, standard deviation, zeros, NaN and infinities, min, median,
    /// max, a 10-bucket histogram and 10 quantile buckets; text: distinct
    /// values, the 20 most frequent, average length; other bytes: sizes and
    /// media type. Exact up to 4,096 distinct numbers and 65,536 distinct
    /// bytes values per feature, then sketches with documented bounds
    /// (quantiles within 1% of n in rank, distinct counts ~0.8%, top counts
    /// within n/1001) that merge; -j never changes a result.
    ///
    /// --format tfdv-stats writes the file TFDV's own tools open
    /// (tfdv.load_statistics, tfdv.visualize_statistics); --format json
    /// saves statistics that --merge combines, for datasets processed
    /// shard by shard on many machines.
    ///
    /// Records with annotations (object-detection boxes: the Object
    /// Detection API's image/object/bbox/*, TFDS's objects/bbox, or
    /// --bbox PREFIX; classification labels) add boxes per image, boxes per
    /// class and the records' classes to the table and to --format json;
    /// class ids are named by --label-map or a TFDS folder's ClassLabels.
    ///
    /// --compare B compares the inputs (dataset A) with a second dataset
    /// (inputs or a statistics file; A may be a statistics file too): per
    /// feature both types and presences, TFDV's L∞ (categorical) and
    /// Jensen-Shannon divergence, most divergent first; exit 0 however
    /// much they differ.
    ///
    /// Examples:
    ///   tfr stats train.tfrecord
    ///   tfr stats coco_val.tfrecord --label-map label_map.pbtxt
    ///   tfr stats 'data/train-*' --format tfdv-stats > train_stats.tfrecord
    ///   tfr stats shard-0* --format json > part1.json
    ///   tfr stats --merge part1.json --merge part2.json --format tfdv-stats-text
    ///   tfr stats --where 'country == "US"' 'data/train-*'
    ///   tfr stats --part 0/4 --format json 'data/train-*' > part0.json   # merge the 4 with --merge
    ///   tfr stats train/ --compare eval/            # two datasets: L∞ and JS divergence per feature
    ///   tfr stats train_stats.tfrecord --compare eval/ --json
    #[command(verbatim_doc_comment)]
    Stats(crate::cmd::stats::StatsArgs),

    /// One HTML page to look at a dataset: statistics, charts, thumbnails.
    ///
    /// A single self-contained file (styles, SVG charts and thumbnails
    /// inline; nothing is fetched when it opens, so it works offline and
    /// can be mailed): an overview (files, records, compression, integrity,
    /// payload type); per feature the statistics of `tfr stats` with a
    /// histogram (equal-width or quantile buckets) for numbers, the most
    /// frequent values for text, sizes for bytes, sortable by name,
    /// missing share or anomalies; and a gallery of records whose image
    /// features (JPEG, PNG, GIF, WebP, recognised by their bytes) are shown
    /// as thumbnails, the other features as short values.
    ///
    /// --compare B instead shows two datasets side by side (each inputs or
    /// a statistics file): every feature's charts overlaid in two colours,
    /// presence and type of both, features only in one, TFDV's L∞ and
    /// Jensen-Shannon divergence per feature, most divergent first.
    ///
    /// Examples:
    ///   tfr report train.tfrecord -o report.html
    ///   tfr report 'data/train-*' --sample 48 --seed 1 -o report.html
    ///   tfr report faces.tfrecord --image-feature face/raw -o faces.html
    ///   tfr report train/ --compare eval/ -o diff.html   # side by side, most divergent first
    #[command(verbatim_doc_comment)]
    #[cfg(feature = "report")]
    Report(crate::cmd::report::ReportArgs),

    /// Browse every record in a web page: thumbnails, annotations, all features.
    ///
    /// A local web server on 127.0.0.1 (a free port unless --port says
    /// one); its URL is printed, alone on stdout and in a line on stderr.
    /// The page pages through every record of every input in order (with
    /// --where, the matching ones), numbered from 0 over all inputs: a
    /// grid of thumbnails (JPEG, PNG, GIF and WebP, the bytes as stored)
    /// with their annotations drawn over them (boxes and class names of the
    /// Object Detection API's or TFDS's features, keypoints, segmentation
    /// masks; see --bbox, --label-map, --highlight), and each record alone
    /// with every feature as text, its file and its number in the file.
    /// Keys: ← and → page (a record at a time in a record's view), Enter
    /// opens a record, Escape goes back; "Record" jumps to any number; the
    /// address (#n=123) keeps the place for a reload or a link.
    ///
    /// Any record is found at once: plain files are indexed in the
    /// background (by their record headers, or from the NAME.idx files
    /// `tfr index` wrote when they still match), compressed ones read
    /// forward, objects in a store by ranged reads; memory stays bounded
    /// whatever the dataset's size. The JSON API the page uses
    /// (/api/info, /api/records?offset=N&limit=K, /api/image/N/FEATURE/I)
    /// serves scripts too. Only the named inputs are served, to requests
    /// naming this server (other Host headers are refused); Ctrl-C stops it.
    ///
    /// Examples:
    ///   tfr view train.tfrecord
    ///   tfr view 'data/train-*' --where 'label == 1'
    ///   tfr view coco_val.tfrecord --label-map label_map.pbtxt --highlight person
    ///   tfr view --no-idx 'data/train-*.tfrecord.gz' --title 'train, gzipped'
    #[command(verbatim_doc_comment)]
    #[cfg(feature = "view")]
    View(crate::cmd::view::ViewArgs),

    /// Check the records against a schema, as TensorFlow Data Validation does, and their boxes: a CI data gate.
    ///
    /// SCHEMA is a schema.pbtxt (TFDV's tensorflow_metadata Schema in text
    /// format, from tfdv.write_schema_text or `tfr schema -f tfdv-schema`)
    /// or tfr's schema JSON (`tfr schema -f json`, read as tfdv.infer_schema
    /// would infer a schema from it). One pass over every record reports
    /// every anomaly tfdv.validate_statistics would, one line each on stderr
    /// naming the file and the first record where it happens, with TFDV's
    /// anomaly type: a feature missing or too rarely present, not in the
    /// schema, of another type, with too few / too many values or another
    /// shape, out of its int / float domain, NaN or infinity where
    /// disallowed, not boolean, a string outside its domain (beyond
    /// distribution_constraints), too few examples, sparse and weighted
    /// features, unique counts; --environment as TFDV's environments. With
    /// --previous / --serving / --previous-version (statistics files or
    /// records): the schema's drift and skew comparators (L-infinity,
    /// Jensen-Shannon divergence, normalized absolute difference, numbers
    /// of examples), each line giving the figure and the threshold. A
    /// summary table follows on stdout (--json: one JSON document, with
    /// TFDV's drift_skew_info). SequenceExamples are checked on their
    /// context features (what TFDV reads of them). Constraints tfr does not
    /// check are listed as notes; features at a lifecycle_stage TFDV skips
    /// are skipped.
    ///
    /// In the same pass, with or without a schema (without one, only they
    /// are checked): annotations. Wherever records have boxes (the Object
    /// Detection API's image/object/bbox/*, TFDS's objects/bbox, or --bbox
    /// PREFIX), each kind of broken box is one line with its first record:
    /// a corner outside [0, 1] (or the image, for boxes in pixels), xmin >
    /// xmax, ymin > ymax, zero area, coordinate lists of different lengths,
    /// class lists whose length is not the number of boxes, class ids not
    /// in --label-map (or a TFDS folder's ClassLabel names).
    ///
    /// Exit codes: 0 the data conforms, 1 anomalies or broken annotations,
    /// 2 unreadable data or schema (a schema syntax error names its line
    /// and column).
    ///
    /// Examples:
    ///   tfr schema -f tfdv-schema 'data/train-*' > schema.pbtxt
    ///   tfr validate --schema schema.pbtxt 'data/eval-*' || exit 1
    ///   tfr validate -s schema.json --json new.tfrecord.gz
    ///   tfr validate coco_val.tfrecord --label-map label_map.pbtxt
    #[command(verbatim_doc_comment)]
    Validate(crate::cmd::validate::ValidateArgs),

    /// Write an index file per input, for DALI and the tfrecord package.
    ///
    /// FILE.idx (or DIR/NAME.idx with --out-dir) gets one line per record:
    /// the byte offset of its header, a space, its framed size (16 + the
    /// payload's length), as DALI's tfrecord2idx and `python -m
    /// tfrecord.tools.tfrecord2idx` write it. Inputs are indexed in
    /// parallel; local files and objects (s3://, gs://, az://, https://;
    /// the index is then uploaded beside the object). Every record's CRCs
    /// are checked: a damaged input is an error and gets no index (an
    /// existing one is left as it was). A compressed input is refused:
    /// offsets inside it mean nothing to those readers.
    ///
    /// --check writes nothing and says for each input whether its index
    /// still matches it.
    ///
    /// Exit codes: 0 written (or every index matches), 1 --check found an
    /// index that does not match or is missing, 2 an error (unreadable,
    /// damaged or compressed input).
    ///
    /// Examples:
    ///   tfr index 'data/train-*.tfrecord'
    ///   tfr index --out-dir idx/ 's3://bucket/train-*.tfrecord'
    ///   tfr index --check 'data/train-*.tfrecord' || tfr index 'data/train-*.tfrecord'
    #[command(verbatim_doc_comment)]
    Index(crate::cmd::index::IndexArgs),
    /// Write the records in a uniform random order, in bounded memory.
    ///
    /// Every order of the records is equally likely; the same --seed gives
    /// the same order (whatever -j or --memory). Records are copied byte
    /// for byte, never decoded. Records that fit in --memory (payloads plus
    /// 28 bytes each) are shuffled there; beyond it they go to 256
    /// buckets (chosen by random key) in 16 temporary files under
    /// --temp-dir (about the dataset's size in all), then each bucket is read back,
    /// shuffled and written: the data is read and written twice. The
    /// temporary files are removed on every exit (error, Ctrl-C, SIGTERM).
    /// OUT's compression follows its name (.gz, .zz/.zlib, .snappy) unless
    /// --output-compression forces one; with --shards N the outputs are
    /// NAME-00000-of-0000N, all appearing together or none.
    ///
    /// Examples:
    ///   tfr shuffle train.tfrecord -o shuffled.tfrecord --seed 1
    ///   tfr shuffle 'raw/*.tfrecord' -o out/train.tfrecord.gz --shards 64
    ///   tfr shuffle big.tfrecord.gz -o big-shuffled.tfrecord --memory 4G --temp-dir /scratch
    #[command(verbatim_doc_comment)]
    Shuffle(crate::cmd::shuffle::ShuffleArgs),

    /// Write records as rows of a Parquet file, with exact column types.
    ///
    /// The column types come from a first pass over the inputs (the scan of
    /// `tfr schema`), or from --schema FILE (`tfr schema --format json`),
    /// which skips it. One column per feature, named as the feature is:
    /// int64 → int64, float → float (float32), bytes → string when every
    /// value is UTF-8, else binary. A feature with exactly one value in
    /// every record that has it is a plain column, any other a list<...>
    /// column; a record without the feature has null there; an empty list
    /// is []. SequenceExample: context features as columns, each feature
    /// list a list<list<...>> column. A feature whose kind differs between
    /// records is refused (--exclude it). The file carries tfr's schema as
    /// key-value metadata ("tfr.schema"), so from-parquet gives the same
    /// records back. Row groups end at --row-group-size bytes encoded (the
    /// memory one takes) or 1,048,576 rows. All files appear at the end,
    /// or none.
    ///
    /// A TFDS dataset folder is typed by its features.json instead, as
    /// Hugging Face `datasets` opens it (--explode, --plain); there
    /// --features/--exclude match any name on a feature's path (meta keeps
    /// meta/id and meta/source), and the files of every split (-o
    /// 'DIR/{split}.parquet') appear together, or none.
    ///
    /// Payloads of any protobuf message (--proto/--descriptor-set with
    /// --message; event files, or --type event, as tf.Event) have one
    /// column per field of the message, typed by its descriptor: a message
    /// a struct, repeated a list, a map a map, an enum its value's name,
    /// bytes binary; a field with presence null when absent (the table:
    /// docs/GUIDE.md, "Any message").
    ///
    /// Examples:
    ///   tfr to-parquet 'data/train-*' -o train.parquet
    ///   tfr to-parquet train.tfrecord -o out/train.parquet --shards 4 --output-compression snappy
    ///   tfr to-parquet --schema schema.json --exclude 'image/*' train.tfrecord -o small.parquet
    ///   tfr to-parquet tests/data/tfds/tfr_toy/1.0.0 -o 'hf/{split}.parquet' --shards 2 --exclude meta
    ///   tfr to-parquet tests/data/events/logs/eval/events.out.tfevents.* -o events.parquet
    #[cfg(feature = "parquet")]
    #[command(verbatim_doc_comment)]
    ToParquet(crate::cmd::to_parquet::ToParquetArgs),

    /// Write records as an Arrow IPC file, or an Arrow IPC stream on stdout.
    ///
    /// The columns of to-parquet (a schema pass, or --schema). -o FILE writes
    /// an Arrow IPC file (Feather v2: pyarrow.ipc.open_file,
    /// pyarrow.feather.read_table); -o - writes an Arrow IPC stream on
    /// stdout (pyarrow.ipc.open_stream), one schema then a record batch per
    /// batch of records, each sent as soon as it is ready. Payloads of any
    /// protobuf message (--message, event files) get the columns
    /// to-parquet gives them.
    ///
    /// Examples:
    ///   tfr to-arrow train.tfrecord -o train.arrow
    ///   tfr to-arrow --where 'label == 1' 'data/train-*' -o - > positives.arrows
    ///   tfr to-arrow --schema schema.json -n 1000 train.tfrecord -o - | tfr from-arrow -o first.tfrecord
    ///   tfr to-arrow -t event tests/data/events/logs/train/*.v2 -o events.arrow
    #[cfg(feature = "parquet")]
    #[command(verbatim_doc_comment)]
    ToArrow(crate::cmd::to_arrow::ToArrowArgs),

    /// Write the rows of Parquet files as TFRecord records (tf.train.Example).
    ///
    /// Each column is a feature of the same name: integer and boolean
    /// columns → int64_list (bool as 0/1), float and double → float_list
    /// (double narrowed to float32, with a warning), string and binary →
    /// bytes_list, list columns → lists; null → the feature is absent; a
    /// struct column → one feature per field, named column/field (Hugging
    /// Face's image {bytes, path} gives image/bytes and image/path);
    /// timestamps, dates, times and durations → int64 in their unit (named
    /// in a warning); decimals → float32 (a warning; --decimal text keeps
    /// the digits as bytes); a map → one feature per entry, column/KEY.
    /// list<list<...>> columns are feature lists: the rows become
    /// SequenceExamples, the other columns their context. Other types
    /// (interval, union, a list of structs) are refused, naming the column
    /// (--exclude it). OUT appears only when every row converted.
    ///
    /// Examples:
    ///   tfr from-parquet train.parquet -o train.tfrecord
    ///   tfr from-parquet 'parts/*.parquet' -o train.tfrecord.gz
    #[cfg(feature = "parquet")]
    #[command(verbatim_doc_comment)]
    FromParquet(crate::cmd::from_parquet::FromColumnsArgs),

    /// Write the rows of Arrow IPC files or streams as TFRecord records.
    ///
    /// The mapping of from-parquet. Reads Arrow IPC files (Feather v2) and
    /// streams, from files, object stores or stdin.
    ///
    /// Examples:
    ///   tfr from-arrow train.arrow -o train.tfrecord
    ///   tfr to-arrow train.tfrecord -o - | tfr from-arrow -o copy.tfrecord
    #[cfg(feature = "parquet")]
    #[command(verbatim_doc_comment)]
    FromArrow(crate::cmd::from_parquet::FromColumnsArgs),
}

impl Command {
    /// The `--where` of the command, if it has one.
    pub(crate) fn filter(&self) -> Option<&crate::args::WhereArg> {
        match self {
            Command::Cat(a) => Some(&a.filter),
            Command::Head(a) => Some(&a.filter),
            Command::Count(a) => Some(&a.filter),
            Command::ToJsonl(a) => Some(&a.pick.filter),
            Command::Reshard(a) => Some(&a.reshape.filter),
            Command::Split(a) => Some(&a.reshape.filter),
            #[cfg(feature = "csv")]
            Command::ToCsv(a) => Some(&a.pick.filter),
            #[cfg(feature = "wds")]
            Command::ToWds(a) => Some(&a.filter),
            Command::Extract(a) => Some(&a.filter),
            #[cfg(feature = "view")]
            Command::View(a) => Some(&a.filter),
            Command::Schema(a) => Some(&a.filter),
            Command::Stats(a) => Some(&a.filter),
            Command::Shuffle(a) => Some(&a.filter),
            #[cfg(feature = "parquet")]
            Command::ToParquet(a) => Some(&a.columns.filter),
            #[cfg(feature = "parquet")]
            Command::ToArrow(a) => Some(&a.columns.filter),
            _ => None,
        }
    }
}
