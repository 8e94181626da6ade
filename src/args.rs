//! Command-line types shared by several commands (clap derive): inputs,
//! `-j`, `--compression`, `--type`. Each command's own `Args` struct lives
//! in its file under `cmd/` and flattens these.

use crate::example::MessageType;
use crate::io::Compression;
use clap::Args;

/// Input options shared by the commands that read records.
#[derive(Args, Debug, Clone)]
pub(crate) struct InputArgs {
    /// Input files: paths, quoted globs, or '-' for stdin (the default when piped).
    #[arg(value_name = "FILES")]
    pub(crate) files: Vec<std::ffi::OsString>,

    /// Input compression: detected from the first bytes unless forced.
    #[arg(long, value_enum, default_value_t = CompressionArg::Auto, value_name = "KIND")]
    pub(crate) compression: CompressionArg,

    /// The longest record held in memory (bytes; K, M, G suffixes are
    /// binary units): a record announcing more is refused with an error
    /// instead of filling memory. verify-crc and count stream long records
    /// and need no limit.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    pub(crate) max_record_size: u64,
}

/// A size in bytes: digits with an optional K, M, G or T suffix (binary
/// units; `KiB`, `MB` and the like are read the same way).
pub(crate) fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("not a size: '{s}' (e.g. 1048576, 512M, 2G)"))?;
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches('B')
        .trim_end_matches('I')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("not a size: '{s}' (e.g. 1048576, 512M, 2G)")),
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("size too large: '{s}'"))
}

impl InputArgs {
    /// The inputs named (globs expanded; stdin when none and it is piped).
    pub(crate) fn expand(&self) -> anyhow::Result<Vec<crate::io::Input>> {
        crate::io::input::expand(&self.files)
    }

    /// How inputs are opened: compression, record size limit.
    pub(crate) fn options(&self) -> crate::record::OpenOptions {
        crate::record::OpenOptions {
            compression: self.compression.forced(),
            max_record: self.max_record_size,
        }
    }

    /// Opens one input for reading records, with the file named in any error.
    pub(crate) fn open(&self, input: &crate::io::Input) -> anyhow::Result<crate::record::RecordReader> {
        self.options().open(input)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_parse_with_binary_units() {
        use super::parse_size;
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("64kb"), Ok(64 << 10));
        assert!(parse_size("1.5G").is_err());
        assert!(parse_size("G").is_err());
        assert!(parse_size("99999999999T").is_err());
    }
}

/// The most threads `-j` starts.
pub(crate) const MAX_JOBS: usize = 64;

/// `-j/--jobs`: how many threads a command may keep busy.
#[derive(Args, Debug, Clone, Copy, Default)]
pub(crate) struct JobsArg {
    /// Threads to use [default: the number of cores; at most 64]. Several
    /// inputs are read at the same time (count and verify-crc also share one
    /// large plain file between them), records are rendered or encoded on
    /// several; output is the same whatever N is.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: Option<u16>,
}

impl JobsArg {
    /// The thread budget: `--jobs`, else the cores available; at most
    /// [`MAX_JOBS`] (each thread may hold a few batches: `-j 20000` would
    /// start twenty thousand of them).
    pub(crate) fn get(self) -> usize {
        let jobs = match self.jobs {
            Some(n) => usize::from(n),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        jobs.min(MAX_JOBS)
    }
}

/// `--compression` of an input: detected, or forced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum CompressionArg {
    /// Detect from the first bytes (gzip magic, zlib header, else plain).
    #[default]
    Auto,
    None,
    Gzip,
    Zlib,
}

impl CompressionArg {
    /// The forced compression, or `None` for auto.
    pub(crate) fn forced(self) -> Option<Compression> {
        match self {
            CompressionArg::Auto => None,
            CompressionArg::None => Some(Compression::None),
            CompressionArg::Gzip => Some(Compression::Gzip),
            CompressionArg::Zlib => Some(Compression::Zlib),
        }
    }
}

/// `--type`: what the payloads are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum PayloadType {
    /// The first record (from-jsonl: the first line) of each input decides:
    /// a SequenceExample when it has feature_lists, else an Example.
    #[default]
    Auto,
    /// tf.train.Example.
    Example,
    /// tf.train.SequenceExample.
    Sequence,
    /// Any bytes, printed escaped (JSON: a string, or {"base64": ...}).
    Raw,
}

impl PayloadType {
    /// The fixed message type, or `None` for auto.
    pub(crate) fn fixed(self) -> Option<MessageType> {
        match self {
            PayloadType::Auto => None,
            PayloadType::Example => Some(MessageType::Example),
            PayloadType::Sequence => Some(MessageType::SequenceExample),
            PayloadType::Raw => Some(MessageType::Raw),
        }
    }
}
