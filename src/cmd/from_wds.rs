//! `tfr from-wds`: WebDataset tar shards back into TFRecord records, one
//! Example per sample.
//!
//! The tar is walked header by header here ([`Walk`]; the `tar` crate's
//! header type reads the fields and checksums): regular members only
//! (directories skipped; links, devices and FIFOs refused), names checked
//! (absolute or holding `..`: refused), PAX and GNU long names read within
//! 1 MiB, a member read only as far as its bytes are really there and
//! never over `--max-record-size` (nothing is allocated from a size field
//! alone; a member that would take its sample, names included, over the
//! limit is refused from its header, unread). Members are grouped into samples as the `webdataset` library
//! groups them ([`split_name`]: the key runs to the first `.` of the last
//! part of the name; a sample is a run of members with one key, never
//! across shards). A sample becomes a payload ([`Sample::encode`]): its
//! `.json` through the JSONL encoder ([`Encoder`]), then a feature per
//! other member (`.cls`: int64; others: bytes), named by the member's PAX
//! record [`PAX_FEATURE`] (what to-wds writes) or else by its extension. The
//! records go through an [`AtomicOutput`]: OUT appears only when every
//! shard converted. The reading thread walks the tars; samples are
//! encoded on `-j` workers ([`pipeline::run`]) and written in order.

use super::to_wds::PAX_FEATURE;
use crate::args::JobsArg;
use crate::args::PayloadType;
use crate::example::json::{self, Encoder, JsonFormat};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::io::input::{escape_name, expand_as, Looks};
use crate::io::{AtomicOutput, Compression};
use crate::output::Ctx;
use crate::pipeline;
use crate::record::append_framed;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub(crate) struct FromWdsArgs {
    /// WebDataset shards: tar files (plain, gzip or zlib), quoted globs,
    /// directories (their .tar files), '-' for stdin.
    #[arg(value_name = "TARS")]
    pub(crate) files: Vec<std::ffi::OsString>,

    /// The TFRecord file written (compression from its name: .gz, .zz or
    /// .zlib, .snappy; else none).
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    /// Compression of OUT [default: from its name].
    #[arg(long, value_enum, value_name = "KIND")]
    pub(crate) output_compression: Option<Compression>,

    /// What each sample becomes: auto (a SequenceExample when its .json is
    /// one, with "context" or "feature_lists", else an Example), example,
    /// sequence (the members' features go to the context; `{}` is then an
    /// empty SequenceExample).
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    /// Keep each sample's key as a bytes feature of this name.
    #[arg(long, value_name = "FEATURE")]
    pub(crate) key: Option<String>,

    /// The largest member (and sample) held in memory (bytes; K, M, G
    /// suffixes): a larger one is refused with an error.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = crate::args::parse_size)]
    pub(crate) max_record_size: u64,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// A PAX or GNU long-name header's data is read up to this.
const MAX_EXTENDED: u64 = 1 << 20;

/// A sample holds at most this many members (a WebDataset sample holds a
/// few; more is a broken or hostile shard).
const MAX_MEMBERS: usize = 10_000;

/// One member of a tar: its name, the feature its PAX header names, its bytes.
struct Member {
    name: String,
    feature: Option<String>,
    data: Vec<u8>,
}

/// A regular member's header, its bytes not read yet: [`Walk::read`]
/// reads them (or [`Walk::skip`] passes over them), so a member that
/// would take its sample over the limit is refused unread.
struct Head {
    name: String,
    feature: Option<String>,
    size: u64,
}

/// Walks the members of one tar stream.
struct Walk<R> {
    src: R,
    name: String,
    /// Bytes read so far (for messages).
    at: u64,
    max: u64,
    done: bool,
}

/// The webdataset library's split of a member name into key and
/// extension (`^((?:.*/|)[^.]+)[.]([^/]*)$`): the key runs to the first
/// `.` of the last part; `None` for a name it skips (no `.` there). A
/// last part starting with `.` (`a/.hidden`) is split there, the key
/// ending with the `/` (`a/`, extension `hidden`), as that regex does,
/// unless the part before it holds a `.` too (or there is none).
fn split_name(name: &str) -> Option<(&str, &str)> {
    let last = name.rfind('/').map_or(0, |i| i + 1);
    let dot = name[last..].find('.')? + last;
    if dot == last {
        // `[^.]+` must then take the whole part before the last one.
        let before = name[..last.checked_sub(1)?].rfind('/').map_or(0, |i| i + 1);
        if name[before..dot].contains('.') {
            return None;
        }
    }
    Some((&name[..dot], &name[dot + 1..]))
}

impl<R: Read> Walk<R> {
    /// Reads exactly `buf.len()` bytes; false at a clean end before any.
    fn block(&mut self, buf: &mut [u8]) -> Result<bool> {
        let mut got = 0;
        while got < buf.len() {
            match self.src.read(&mut buf[got..]) {
                Ok(0) if got == 0 => return Ok(false),
                Ok(0) if self.at == 0 => bail!("{}", not_a_tar(&self.name, &buf[..got], got)),
                Ok(0) => bail!(
                    "{}: truncated tar: a header cut short at byte {}",
                    self.name,
                    self.at + got as u64
                ),
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e).with_context(|| format!("{}: read failed", self.name)),
            }
        }
        self.at += got as u64;
        Ok(true)
    }

    /// Refuses `size` bytes over `max` (nothing read or allocated).
    fn check(&self, size: u64, max: u64, what: &str) -> Result<()> {
        if size > max {
            bail!(
                "{}: {what} at byte {} is {size} bytes, over the limit of {max} ({})",
                self.name,
                self.at,
                if max == self.max {
                    "--max-record-size"
                } else if max == MAX_EXTENDED {
                    "the fixed limit of such headers"
                } else {
                    "a directory holds no data"
                }
            );
        }
        Ok(())
    }

    /// The bytes of the member `head` (its header the last one
    /// [`next`](Self::next) gave), and its padding.
    fn read(&mut self, head: &Head) -> Result<Vec<u8>> {
        self.data(head.size, self.max, &member_what(&head.name))
    }

    /// Passes over the bytes of the member `head` (and its padding)
    /// without holding them.
    fn skip(&mut self, head: &Head) -> Result<()> {
        self.bytes(head.size, &member_what(&head.name), None)
    }

    /// Reads a member's `size` bytes (and its padding), at most `max`.
    fn data(&mut self, size: u64, max: u64, what: &str) -> Result<Vec<u8>> {
        self.check(size, max, what)?;
        let mut data = Vec::with_capacity(size.min(1 << 20) as usize);
        self.bytes(size, what, Some(&mut data))?;
        Ok(data)
    }

    /// Reads `size` bytes (and the padding after them) into `to`, or past
    /// them when `None`: only as far as they are really there.
    fn bytes(&mut self, size: u64, what: &str, to: Option<&mut Vec<u8>>) -> Result<()> {
        let mut src = (&mut self.src).take(size);
        let got = match to {
            Some(data) => src.read_to_end(data).map(|n| n as u64),
            None => std::io::copy(&mut src, &mut std::io::sink()),
        }
        .with_context(|| format!("{}: read failed", self.name))?;
        if got < size {
            bail!(
                "{}: truncated tar: {what} at byte {} has {got} of its {size} bytes",
                self.name,
                self.at
            );
        }
        self.at += size;
        let pad = (512 - size % 512) % 512;
        let mut padding = [0u8; 512];
        let mut read = 0;
        while read < pad as usize {
            match self.src.read(&mut padding[read..pad as usize]) {
                Ok(0) => break,
                Ok(n) => read += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e).with_context(|| format!("{}: read failed", self.name)),
            }
        }
        self.at += read as u64;
        Ok(())
    }

    /// The next regular member's header (its size checked against
    /// `--max-record-size`), or `None` at the end of the archive. Its
    /// bytes come next: [`read`](Self::read) or [`skip`](Self::skip) them.
    fn next(&mut self) -> Result<Option<Head>> {
        let mut long_name: Option<String> = None;
        let mut feature: Option<String> = None;
        // A PAX `size` record: the next member's size (the ustar field
        // holds at most 8 GiB; a PAX writer puts a larger one here).
        let mut pax_size: Option<u64> = None;
        let mut block = [0u8; 512];
        loop {
            if self.done || !self.block(&mut block)? {
                return Ok(None);
            }
            let start = self.at - 512;
            if block.iter().all(|&b| b == 0) {
                // The end of the archive (what follows is not read).
                self.done = true;
                return Ok(None);
            }
            let header = tar::Header::from_byte_slice(&block);
            let sum: u32 = block[..148]
                .iter()
                .chain(&[b' '; 8])
                .chain(&block[156..])
                .map(|&b| u32::from(b))
                .sum();
            if header.cksum().ok() != Some(sum) && start == 0 {
                bail!("{}", not_a_tar(&self.name, &block, 512));
            }
            if header.cksum().ok() != Some(sum) {
                bail!(
                    "{}: not a tar file, or damaged: the header at byte {start} has a wrong checksum",
                    self.name
                );
            }
            let ustar_size = header
                .entry_size()
                .map_err(|_| anyhow::anyhow!("{}: the header at byte {start} has a bad size field", self.name));
            // A PAX size applies to the member its header precedes (not to
            // another PAX or GNU header in between).
            let meta = matches!(
                header.entry_type(),
                tar::EntryType::XHeader
                    | tar::EntryType::XGlobalHeader
                    | tar::EntryType::GNULongName
                    | tar::EntryType::GNULongLink
            );
            let size = match pax_size {
                Some(size) if !meta => {
                    pax_size = None;
                    size
                }
                _ => ustar_size?,
            };
            let raw_name = || -> Result<String> {
                let bytes = header.path_bytes();
                String::from_utf8(bytes.into_owned()).map_err(|e| {
                    anyhow::anyhow!(
                        "{}: the member at byte {start} has a name that is not UTF-8: {}",
                        self.name,
                        escape_name(e.as_bytes())
                    )
                })
            };
            match header.entry_type() {
                tar::EntryType::XHeader => {
                    let records = self.data(size, MAX_EXTENDED, "a PAX header")?;
                    for (key, value) in pax_records(&records)
                        .with_context(|| format!("{}: the PAX header at byte {start}", self.name))?
                    {
                        let text = String::from_utf8(value.to_vec()).map_err(|_| {
                            anyhow::anyhow!("{}: the PAX header at byte {start}: {key} is not UTF-8", self.name)
                        })?;
                        match key {
                            "path" => long_name = Some(text),
                            "size" => {
                                let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
                                let size = text.parse::<u64>().ok().filter(|_| digits);
                                let Some(size) = size else {
                                    bail!(
                                        "{}: the PAX header at byte {start}: its size '{}' is not a number of bytes",
                                        self.name,
                                        escape_name(text.as_bytes())
                                    );
                                };
                                pax_size = Some(size);
                            }
                            k if k == PAX_FEATURE => feature = Some(text),
                            _ => {}
                        }
                    }
                }
                tar::EntryType::XGlobalHeader => {
                    self.data(size, MAX_EXTENDED, "a PAX global header")?;
                }
                tar::EntryType::GNULongName => {
                    let mut bytes = self.data(size, MAX_EXTENDED, "a GNU long name")?;
                    while bytes.last() == Some(&0) {
                        bytes.pop();
                    }
                    long_name = Some(String::from_utf8(bytes).map_err(|e| {
                        anyhow::anyhow!(
                            "{}: the long name at byte {start} is not UTF-8: {}",
                            self.name,
                            escape_name(e.as_bytes())
                        )
                    })?);
                }
                tar::EntryType::GNULongLink => {
                    self.data(size, MAX_EXTENDED, "a GNU long link name")?;
                }
                tar::EntryType::Directory => {
                    self.data(size, 0, "a directory")?;
                    long_name = None;
                    feature = None;
                }
                tar::EntryType::Regular | tar::EntryType::Continuous => {
                    let name = match long_name.take() {
                        Some(n) => n,
                        None => raw_name()?,
                    };
                    check_name(&name).with_context(|| {
                        format!(
                            "{}: the member at byte {start}, '{}'",
                            self.name,
                            escape_name(name.as_bytes())
                        )
                    })?;
                    self.check(size, self.max, &member_what(&name))?;
                    return Ok(Some(Head {
                        name,
                        feature: feature.take(),
                        size,
                    }));
                }
                other => {
                    let name = long_name.take().map_or_else(raw_name, Ok)?;
                    let what = match other {
                        tar::EntryType::Symlink => "a symbolic link",
                        tar::EntryType::Link => "a hard link",
                        tar::EntryType::Char | tar::EntryType::Block => "a device",
                        tar::EntryType::Fifo => "a FIFO",
                        _ => "of a kind from-wds does not read",
                    };
                    bail!(
                        "{}: the member at byte {start}, '{}', is {what}: WebDataset shards hold regular files",
                        self.name,
                        escape_name(name.as_bytes())
                    );
                }
            }
        }
    }
}

/// A member in messages.
fn member_what(name: &str) -> String {
    format!("the member '{}'", escape_name(name.as_bytes()))
}

/// Why a stream is not read as a tar, from its first bytes (`got` of
/// them, under 512 when it ends within the first header): another
/// compression than gzip or zlib, a zip archive, or just not a tar.
fn not_a_tar(name: &str, head: &[u8], got: usize) -> String {
    let magic: [(&[u8], &str); 5] = [
        (b"BZh", "bzip2-compressed"),
        (b"\xfd7zXZ\0", "xz-compressed"),
        (b"\x28\xb5\x2f\xfd", "zstd-compressed"),
        (b"\x04\x22\x4d\x18", "LZ4-compressed"),
        (b"PK\x03\x04", "a zip archive"),
    ];
    match magic.iter().find(|(m, _)| head.starts_with(m)) {
        Some((_, what)) => format!(
            "{name}: {what}, which from-wds does not read: it reads tars, plain or gzip- or \
             zlib-compressed (decompress it first)"
        ),
        None if got < 512 => {
            format!("{name}: not a tar file: it ends after {got} bytes, within the first 512-byte header")
        }
        None => format!("{name}: not a tar file: its first 512 bytes are not a tar header (wrong checksum)"),
    }
}

/// A member name that would leave a directory if extracted is refused:
/// absolute, or with a `..` part.
fn check_name(name: &str) -> Result<()> {
    if name.starts_with('/') {
        bail!("an absolute name");
    }
    if name.split('/').any(|p| p == "..") {
        bail!("a name with a '..' part");
    }
    if name.contains('\0') {
        bail!("a NUL byte in the name");
    }
    Ok(())
}

/// The records of a PAX header: `LEN KEY=VALUE\n`, LEN counting itself.
fn pax_records(mut data: &[u8]) -> Result<Vec<(&str, &[u8])>> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let space = data
            .iter()
            .position(|&b| b == b' ')
            .context("a record without its length")?;
        let len: usize = std::str::from_utf8(&data[..space])
            .ok()
            .and_then(|s| s.parse().ok())
            .context("a record with a bad length")?;
        if len <= space + 1 || len > data.len() || data[len - 1] != b'\n' {
            bail!("a record with a bad length");
        }
        let record = &data[space + 1..len - 1];
        let eq = record.iter().position(|&b| b == b'=').context("a record without '='")?;
        let key = std::str::from_utf8(&record[..eq]).context("a key that is not UTF-8")?;
        out.push((key, &record[eq + 1..]));
        data = &data[len..];
    }
    Ok(out)
}

/// The members of one sample, gathered.
#[derive(Default)]
struct Sample {
    key: String,
    members: Vec<(String, Member)>,
    /// The extensions of `members` (a repeated one is refused).
    exts: HashSet<String>,
    size: u64,
}

/// The top-level fields of an encoded Example or SequenceExample (all
/// length-delimited, as the encoder writes them): tag and contents.
fn top_fields(mut payload: &[u8]) -> Result<Vec<(u8, &[u8])>> {
    let mut out = Vec::new();
    while let Some((&tag, rest)) = payload.split_first() {
        let (mut len, mut shift, mut r) = (0u64, 0, rest);
        loop {
            let Some((&b, more)) = r.split_first() else {
                bail!("an encoded record cut short");
            };
            len |= u64::from(b & 0x7f) << shift;
            shift += 7;
            r = more;
            if b & 0x80 == 0 || shift > 63 {
                break;
            }
        }
        if tag & 7 != 2 || len > r.len() as u64 {
            bail!("an encoded record with an unexpected field");
        }
        out.push((tag, &r[..len as usize]));
        payload = &r[len as usize..];
    }
    Ok(out)
}

/// Appends a protobuf varint.
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a length-delimited field.
fn field(out: &mut Vec<u8>, tag: u8, bytes: &[u8]) {
    out.push(tag);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

impl Sample {
    /// The sample as a payload: the `.json`'s features (or its
    /// SequenceExample), then one feature per other member.
    fn encode(
        &self,
        encoder: &mut Encoder,
        forced: Option<MessageType>,
        key_feature: Option<&str>,
        shard: &str,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let at = || format!("{shard}: sample '{}'", escape_name(self.key.as_bytes()));
        let json = self.members.iter().find(|(ext, _)| ext == "json");
        let others = self.members.iter().filter(|(ext, _)| ext != "json");
        // The features (an Example's; a SequenceExample's context) and the
        // message's other fields (its feature lists), as wire bytes.
        let mut features = Vec::new();
        let mut rest = Vec::new();
        let mut had_features = false;
        if let Some((_, m)) = json {
            let line = m.data.trim_ascii();
            let ty = match forced.unwrap_or_else(|| json::detect(JsonFormat::Natural, line)) {
                MessageType::SequenceExample => MessageType::SequenceExample,
                _ => MessageType::Example,
            };
            let mut payload = Vec::new();
            encoder.encode(ty, line, &mut payload).map_err(|e| {
                anyhow::anyhow!(
                    "{}: {}.json: column {}: {}",
                    at(),
                    escape_name(self.key.as_bytes()),
                    e.column(line),
                    e
                )
            })?;
            // Field 1 (Features, or the context) gets the members' features.
            for (tag, bytes) in top_fields(&payload).with_context(at)? {
                if tag == 0x0a {
                    had_features = true;
                    features.extend_from_slice(bytes);
                } else {
                    field(&mut rest, tag, bytes);
                }
            }
        } else if self.members.is_empty() {
            return Ok(());
        }
        // Every feature name once: an Example with a name twice keeps only
        // its last value when read, so a repeat is refused.
        let mut names: HashSet<Vec<u8>> = HashSet::new();
        for (tag, entry) in top_fields(&features).with_context(at)? {
            if tag == 0x0a {
                if let Some((_, name)) = top_fields(entry)
                    .with_context(at)?
                    .into_iter()
                    .find(|(t, _)| *t == 0x0a)
                {
                    names.insert(name.to_vec());
                }
            }
        }
        let mut once = |name: &str| -> Result<()> {
            if !names.insert(name.as_bytes().to_vec()) {
                bail!(
                    "{}: two features named '{}' (from its members, .json or --key)",
                    at(),
                    escape_name(name.as_bytes())
                );
            }
            Ok(())
        };
        for (ext, m) in self.members.iter().filter(|(ext, _)| ext != "json") {
            once(m.feature.as_deref().unwrap_or(ext))?;
        }
        if let Some(k) = key_feature {
            once(k)?;
        }
        let mut entry = Vec::new();
        let mut feature = Vec::new();
        let mut list = Vec::new();
        let mut add = |name: &str, value: &[u8], int: Option<i64>| {
            list.clear();
            feature.clear();
            entry.clear();
            match int {
                Some(x) => {
                    // Int64List: packed field 1.
                    let mut packed = Vec::new();
                    varint(&mut packed, x as u64);
                    field(&mut list, 0x0a, &packed);
                    field(&mut feature, 0x1a, &list);
                }
                None => {
                    field(&mut list, 0x0a, value);
                    field(&mut feature, 0x0a, &list);
                }
            }
            field(&mut entry, 0x0a, name.as_bytes());
            field(&mut entry, 0x12, &feature);
            field(&mut features, 0x0a, &entry);
        };
        for (ext, m) in others {
            let name = m.feature.as_deref().unwrap_or(ext);
            if ext == "cls" {
                let text = std::str::from_utf8(&m.data).ok().map(str::trim);
                let Some(x) = text.and_then(|t| t.parse::<i64>().ok()) else {
                    bail!(
                        "{}: {}: not an integer (a .cls member holds a class number)",
                        at(),
                        escape_name(m.name.as_bytes())
                    );
                };
                add(name, &[], Some(x));
            } else {
                add(name, &m.data, None);
            }
        }
        if let Some(k) = key_feature {
            add(k, self.key.as_bytes(), None);
        }
        if had_features || !features.is_empty() {
            field(out, 0x0a, &features);
        }
        out.extend_from_slice(&rest);
        Ok(())
    }
}

pub(crate) fn run(args: &FromWdsArgs, ctx: &Ctx) -> Result<Exit> {
    let forced = args.payload.fixed();
    if let Some(t @ (MessageType::Raw | MessageType::Elwc)) = forced {
        bail!("--type {}: from-wds writes Examples and SequenceExamples", t.name());
    }
    let inputs = expand_as(&args.files, Looks::Tar)?;
    crate::io::same_file::refuse_input_as_output(&inputs, &[], &args.output, "-o")?;
    if args.output.as_os_str() == "-" {
        bail!("-o -: from-wds writes a file (or an object)");
    }
    let jobs = args.jobs.get();
    let compression = Compression::for_output(&args.output, args.output_compression);
    let mut out = AtomicOutput::create_threaded(&args.output, compression, jobs)?;
    let progress = ctx.progress(crate::io::input::total_size(&inputs));
    // The reading thread walks the tars and gathers samples into batches;
    // workers encode and frame them; the writer writes them in order.
    let produce = |tx: &mut pipeline::Sender<'_, Samples>| -> Result<()> {
        let mut batch = Samples::default();
        for input in &inputs {
            let name = input.display();
            let mut walk = Walk {
                src: input.open_decompressed()?,
                name: name.clone(),
                at: 0,
                max: args.max_record_size,
                done: false,
            };
            batch.shard = name.clone();
            let mut sample = Sample::default();
            while let Some(head) = walk.next()? {
                let Some((key, ext)) = split_name(&head.name) else {
                    walk.skip(&head)?;
                    continue;
                };
                let ext = ext.to_lowercase();
                if key != sample.key {
                    if !sample.members.is_empty() {
                        batch.bytes += sample.size;
                        batch.samples.push(std::mem::take(&mut sample));
                        if batch.bytes >= BATCH_BYTES || batch.samples.len() >= BATCH_SAMPLES {
                            let next = Samples {
                                shard: name.clone(),
                                ..Samples::default()
                            };
                            tx.send(std::mem::replace(&mut batch, next))?;
                        }
                    }
                    sample.key = key.to_string();
                }
                if sample.members.len() >= MAX_MEMBERS {
                    bail!(
                        "{name}: sample '{}' has more than {MAX_MEMBERS} members",
                        escape_name(sample.key.as_bytes())
                    );
                }
                if !sample.exts.insert(ext.clone()) {
                    bail!(
                        "{name}: sample '{}' has two .{ext} members",
                        escape_name(sample.key.as_bytes())
                    );
                }
                // Names and extensions are held too: they count. Checked
                // from the header, before the member's bytes are read: a
                // member that takes its sample over the limit (one of
                // exactly the limit, with its name) is refused unread.
                let names = head.name.len() + 2 * ext.len() + head.feature.as_ref().map_or(0, String::len);
                sample.size = sample.size.saturating_add(head.size).saturating_add(names as u64);
                if sample.size > args.max_record_size {
                    bail!(
                        "{name}: sample '{}' holds more than {} bytes with its names (--max-record-size)",
                        escape_name(sample.key.as_bytes()),
                        args.max_record_size
                    );
                }
                let data = walk.read(&head)?;
                let Head {
                    name: member, feature, ..
                } = head;
                sample.members.push((
                    ext,
                    Member {
                        name: member,
                        feature,
                        data,
                    },
                ));
            }
            if !sample.members.is_empty() {
                batch.samples.push(sample);
            }
            // Samples never span shards; a batch holds one shard's.
            let next = Samples::default();
            tx.send(std::mem::replace(&mut batch, next))?;
        }
        Ok(())
    };
    let key = args.key.as_deref();
    let work = |batch: &mut Samples, out: &mut Vec<u8>| -> Result<()> {
        thread_local! {
            static ENCODER: std::cell::RefCell<Encoder> = std::cell::RefCell::new(Encoder::new(JsonFormat::Natural, None));
        }
        ENCODER.with_borrow_mut(|encoder| {
            for sample in &batch.samples {
                append_framed(out, |b| sample.encode(encoder, forced, key, &batch.shard, b))?;
            }
            Ok(())
        })
    };
    let write = |framed: &Vec<u8>| {
        progress.update(framed.len() as u64, 0);
        out.write_all(framed)
    };
    pipeline::run(pipeline::workers(jobs), produce, work, write)?;
    progress.finish();
    out.commit()?;
    Ok(Exit::Success)
}

/// A batch of samples for a worker: about this many bytes of members...
const BATCH_BYTES: u64 = 1 << 20;
/// ... or this many samples.
const BATCH_SAMPLES: usize = 1024;

/// Samples of one shard, for a worker.
#[derive(Default)]
struct Samples {
    shard: String,
    samples: Vec<Sample>,
    bytes: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_as_webdataset_splits_them() {
        assert_eq!(split_name("000001.jpg"), Some(("000001", "jpg")));
        assert_eq!(split_name("a/b/c.seg.png"), Some(("a/b/c", "seg.png")));
        assert_eq!(split_name("dir.v2/c.txt"), Some(("dir.v2/c", "txt")));
        assert_eq!(split_name("noext"), None);
        assert_eq!(split_name("a/b"), None);
        // A last part starting with '.': what Python's re gives for the
        // library's regex.
        assert_eq!(split_name("a/.hidden"), Some(("a/", "hidden")));
        assert_eq!(split_name("x/y/.z"), Some(("x/y/", "z")));
        assert_eq!(split_name("a/.x.y"), Some(("a/", "x.y")));
        assert_eq!(split_name("a/..x"), Some(("a/", ".x")));
        assert_eq!(split_name("d/."), Some(("d/", "")));
        assert_eq!(split_name("a//.x"), Some(("a//", "x")));
        assert_eq!(split_name("x.y/.z"), None);
        assert_eq!(split_name("a/b.c/.d"), None);
        assert_eq!(split_name(".hidden"), None);
    }

    #[test]
    fn pax_records_are_read_back() {
        let recs = pax_records(b"29 TFR.feature=image/encoded\n12 path=a/b\n").unwrap();
        assert_eq!(recs, [("TFR.feature", &b"image/encoded"[..]), ("path", b"a/b")]);
        for bad in [&b"5 a=b"[..], b"x a=b\n", b"99 a=b\n", b"6 ab\n\n"] {
            assert!(pax_records(bad).is_err(), "{bad:?}");
        }
    }
}
