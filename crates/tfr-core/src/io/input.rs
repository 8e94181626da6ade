//! Inputs: paths, `-` for stdin, quoted globs; opening them as bytes.

use crate::error::{bail, Context, Result};
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;

/// One input named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A local file.
    Path(PathBuf),
    /// An object in a store or on a web server: `s3://`, `gs://`, `az://`,
    /// `http(s)://` (see [`super::remote`]).
    Url(String),
    /// Bytes `start..end` of a plain file or object, read as a file of
    /// their own (`--part K/N`, see `record::part`): the records that start
    /// there. Record numbers and byte offsets in messages count from `start`.
    Part {
        /// The file or object the part is of.
        whole: Box<Input>,
        /// The part's first byte.
        start: u64,
        /// The byte after its last.
        end: u64,
    },
}

impl Input {
    /// How the input is named in messages and output: the path as given,
    /// with control characters (a newline, ESC) escaped as `\n`, `\x1b`,
    /// and bytes that are not UTF-8 as `\xNN`, so a name can never break a
    /// line or drive the terminal. Ordinary names are unchanged.
    pub fn display(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(p) => escape_name(&os_bytes(p.as_os_str())),
            Input::Url(u) => escape_name(super::remote::redact(u).as_bytes()),
            Input::Part { whole, start, end } => format!("{} [bytes {start}..{end}]", whole.display()),
        }
    }

    /// The file or object named on the command line (a part's whole input;
    /// itself otherwise).
    pub fn whole(&self) -> &Input {
        match self {
            Input::Part { whole, .. } => whole,
            other => other,
        }
    }

    /// Whether the input is read once, as it arrives (stdin, a pipe, a
    /// device), rather than being a file or an object that can be read again.
    pub fn is_stream(&self) -> bool {
        match self {
            Input::Stdin => true,
            Input::Path(p) => std::fs::metadata(p).is_ok_and(|m| !m.is_file()),
            Input::Url(_) | Input::Part { .. } => false,
        }
    }
}

/// The bytes of an OS string (Unix: exactly; elsewhere its UTF-8, lossily).
fn os_bytes(s: &std::ffi::OsStr) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        std::borrow::Cow::Borrowed(std::os::unix::ffi::OsStrExt::as_bytes(s))
    }
    #[cfg(not(unix))]
    {
        match s.to_string_lossy() {
            std::borrow::Cow::Borrowed(t) => std::borrow::Cow::Borrowed(t.as_bytes()),
            std::borrow::Cow::Owned(t) => std::borrow::Cow::Owned(t.into_bytes()),
        }
    }
}

/// An OS string from bytes (Unix: exactly; elsewhere lossily).
fn os_string(bytes: Vec<u8>) -> std::ffi::OsString {
    #[cfg(unix)]
    {
        std::os::unix::ffi::OsStringExt::from_vec(bytes)
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(&bytes).into_owned().into()
    }
}

/// A path as printed in messages: see [`Input::display`].
pub fn show_path(path: &std::path::Path) -> String {
    escape_name(&os_bytes(path.as_os_str()))
}

/// Whether a character is shown escaped in a name or a message: a control
/// character (C0, DEL, C1), a line or paragraph separator (U+2028, U+2029),
/// or a format character (Unicode's Cf: the bidirectional marks, overrides
/// and isolates such as U+202E and U+061C, which reorder what follows;
/// zero-width and invisible ones such as U+200B, U+FEFF, U+00AD, U+180E,
/// which hide what a name holds). The one class [`escape_name`] and the
/// error line (`output::escape_controls`) share.
pub fn hidden_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{0600}'..='\u{0605}'
                | '\u{061c}'
                | '\u{06dd}'
                | '\u{070f}'
                | '\u{0890}'..='\u{0891}'
                | '\u{08e2}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{110bd}'
                | '\u{110cd}'
                | '\u{13430}'..='\u{1343f}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0001}'
                | '\u{e0020}'..='\u{e007f}'
        )
}

/// Appends `c`, escaped when it is a control or [`hidden_char`]: `\n`,
/// `\t`, `\r`, `\xNN`, `\u{NNNN}`.
pub fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
        c if hidden_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        c => out.push(c),
    }
}

/// A file name as printed: see [`Input::display`].
pub fn escape_name(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_escaped(&mut out, c);
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Turns command-line arguments into inputs: `-` is stdin, brace notation
/// (`laion-{000..009}.tar`, [`super::braces`]) is expanded in order, a
/// pattern with `*`, `?` or `[` that is not an existing path is expanded
/// (sorted), and no
/// argument at all means stdin when it is not a terminal. Names are bytes:
/// a name that is not UTF-8 is an input like any other. A URL (`s3://`,
/// `gs://`, `az://`, `http(s)://`) is an object; a glob in an object
/// store's URL is expanded by listing; `file://` is a path. A directory
/// is the TFRecord files directly in it ([`Looks::Records`]), sorted.
pub fn expand(args: &[std::ffi::OsString]) -> Result<Vec<Input>> {
    expand_as(args, Looks::Records)
}

/// Which files of a directory given as an input are taken: those whose
/// names say they are such files. Only regular files (or links to them)
/// directly in the directory, not below it (a `**` glob reaches further),
/// and never a hidden one (`.name`) or a marker such as `_SUCCESS`
/// (`_name`); sorted by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Looks {
    /// A name holding `tfrecord` (any case: `x.tfrecord`, `x.tfrecords`,
    /// TFDS's `mnist-train.tfrecord-00000-of-00001`), ending `.tfrec` or
    /// `.tfr`, or a shard `NAME-00000-of-00010` (Beam, TFX), each also
    /// with `.gz`, `.gzip`, `.zz`, `.zlib` or `.snappy` after it; and
    /// TensorBoard's event files (`events.out.tfevents.*`).
    Records,
    /// A name ending `.jsonl`, `.ndjson` or `.json`, also with `.gz`,
    /// `.gzip`, `.zz` or `.zlib` after it.
    Jsonl,
    /// A name ending `.parquet` or `.pq`.
    Parquet,
    /// A name ending `.arrow`, `.arrows`, `.feather` or `.ipc`.
    Arrow,
    /// A name ending `.tar` (WebDataset shards), also with `.gz`, `.gzip`,
    /// `.zz` or `.zlib` after it, or `.tgz`.
    Tar,
}

impl Looks {
    /// Whether a file name (its last component) is one of these files.
    pub fn matches(self, name: &[u8]) -> bool {
        if name.is_empty() || name[0] == b'.' || name[0] == b'_' {
            return false;
        }
        let lower = name.to_ascii_lowercase();
        // `tfr index`'s files (`x.tfrecord.idx`) sit beside the data.
        if lower.ends_with(b".idx") {
            return false;
        }
        let mut stem = &lower[..];
        for ext in [&b".gz"[..], b".gzip", b".zz", b".zlib", b".snappy"] {
            if let Some(s) = stem.strip_suffix(ext) {
                stem = s;
                break;
            }
        }
        match self {
            Looks::Records => {
                stem.windows(8).any(|w| w == b"tfrecord")
                    || lower.starts_with(b"events.out.tfevents.")
                    || stem.ends_with(b".tfrec")
                    || stem.ends_with(b".tfr")
                    || is_shard(stem)
            }
            Looks::Jsonl => [&b".jsonl"[..], b".ndjson", b".json"].iter().any(|e| stem.ends_with(e)),
            Looks::Parquet => [&b".parquet"[..], b".pq"].iter().any(|e| lower.ends_with(e)),
            Looks::Arrow => [&b".arrow"[..], b".arrows", b".feather", b".ipc"]
                .iter()
                .any(|e| lower.ends_with(e)),
            Looks::Tar => stem.ends_with(b".tar") || stem.ends_with(b".tgz"),
        }
    }

    fn what(self) -> &'static str {
        match self {
            Looks::Records => {
                "TFRecord files (names holding \"tfrecord\", ending .tfrec or .tfr, shards NAME-00000-of-00010, or \
                 events.out.tfevents.*)"
            }
            Looks::Jsonl => "JSON lines files (.jsonl, .ndjson, .json)",
            Looks::Parquet => "Parquet files (.parquet, .pq)",
            Looks::Arrow => "Arrow IPC files (.arrow, .arrows, .feather, .ipc)",
            Looks::Tar => "tar files (.tar, .tar.gz, .tgz)",
        }
    }
}

/// Whether a name ends with a shard number: `-DIGITS-of-DIGITS`.
fn is_shard(name: &[u8]) -> bool {
    let Some(at) = name.windows(4).rposition(|w| w == b"-of-") else {
        return false;
    };
    let total = &name[at + 4..];
    let index = name[..at].iter().rev().take_while(|b| b.is_ascii_digit()).count();
    !total.is_empty() && total.iter().all(u8::is_ascii_digit) && index > 0 && name[..at - index].ends_with(b"-")
}

/// The files of a directory given as an input (see [`Looks`]).
fn directory(dir: &std::path::Path, looks: Looks) -> Result<Vec<PathBuf>> {
    let shown = show_path(dir);
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("{shown}: cannot list the directory"))? {
        let entry = entry.with_context(|| format!("{shown}: cannot list the directory"))?;
        let name = entry.file_name();
        if !looks.matches(&os_bytes(&name)) {
            continue;
        }
        let path = entry.path();
        // Follows links: a link to a file is taken, one to a directory not.
        if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            found.push(path);
        }
    }
    if found.is_empty() {
        bail!(
            "{shown}: a directory with none of the {} tfr takes from a directory; name the files, or a glob",
            looks.what()
        );
    }
    found.sort();
    Ok(found)
}

/// [`expand`], with directories read as `looks` says.
pub fn expand_as(args: &[std::ffi::OsString], looks: Looks) -> Result<Vec<Input>> {
    if args.is_empty() {
        if io::stdin().is_terminal() {
            bail!("no input files given (pass file names, or pipe data into stdin with `-`)");
        }
        return Ok(vec![Input::Stdin]);
    }
    let args = with_braces(args)?;
    let mut inputs = Vec::new();
    let mut stdin_seen = false;
    for arg in &args {
        let whole = os_bytes(arg);
        if let Some(parsed) = super::remote::parse(&whole) {
            let loc = parsed?;
            if is_pattern(loc.key.as_bytes()) && !matches!(loc.kind, super::remote::Kind::Http) {
                let matched = without_indexes(super::remote::list(&loc)?, |u: &String| u.as_bytes().to_vec());
                if matched.is_empty() {
                    bail!("no objects match '{}'", loc.shown());
                }
                inputs.extend(matched.into_iter().map(Input::Url));
            } else {
                if loc.key.contains('*') {
                    super::remote::check_glob(&loc)?;
                }
                // A bucket's root (HEAD is HeadBucket's 200) or a "folder"
                // would be read as an empty object; `a.tfrecord/` as
                // `a.tfrecord` (a key is no path). An HTTP server's `/` is
                // a resource like any other.
                if loc.kind != super::remote::Kind::Http {
                    if loc.key.is_empty() {
                        bail!("{}: names no object (no key after the bucket)", loc.shown());
                    }
                    if loc.key.ends_with('/') {
                        // A prefix, read as a directory: the files directly
                        // under it whose names `looks` takes.
                        let mut level = loc.clone();
                        level.key.push('*');
                        let found: Vec<String> = super::remote::list(&level)?
                            .into_iter()
                            .filter(|url| looks.matches(url.rsplit('/').next().unwrap_or("").as_bytes()))
                            .collect();
                        if found.is_empty() {
                            bail!(
                                "{}: a prefix with none of the {} tfr takes from a directory; name the objects, or a glob",
                                loc.shown(),
                                looks.what()
                            );
                        }
                        inputs.extend(found.into_iter().map(Input::Url));
                        continue;
                    }
                }
                inputs.push(Input::Url(loc.url()));
            }
            continue;
        }
        let local;
        let (arg, bytes) = match super::remote::file_url(&whole) {
            Some(path) => {
                local = os_string(path.to_vec());
                (&local, std::borrow::Cow::Borrowed(path))
            }
            None => (arg, whole),
        };
        if *bytes == *b"-" {
            if stdin_seen {
                bail!("stdin (`-`) can only be read once");
            }
            stdin_seen = true;
            inputs.push(Input::Stdin);
        } else if is_pattern(&bytes) && !std::path::Path::new(arg).exists() {
            let shown = escape_name(&bytes);
            let mut matched = glob(&bytes).with_context(|| format!("expanding '{shown}'"))?;
            matched = without_indexes(matched, |p: &PathBuf| os_bytes(p.as_os_str()).into_owned());
            if matched.is_empty() {
                bail!("no files match '{shown}'");
            }
            matched.sort();
            inputs.extend(matched.into_iter().map(Input::Path));
        } else if std::path::Path::new(arg).is_dir() {
            inputs.extend(
                directory(std::path::Path::new(arg), looks)?
                    .into_iter()
                    .map(Input::Path),
            );
        } else {
            inputs.push(Input::Path(PathBuf::from(arg)));
        }
    }
    Ok(inputs)
}

/// The arguments with brace notation expanded ([`super::braces`]), in
/// order; a name that exists as written is kept as it is.
fn with_braces(args: &[std::ffi::OsString]) -> Result<Vec<std::ffi::OsString>> {
    let mut out = Vec::with_capacity(args.len());
    for arg in args {
        let bytes = os_bytes(arg);
        if !bytes.contains(&b'{') || std::path::Path::new(arg).exists() {
            out.push(arg.clone());
            continue;
        }
        let names = super::braces::expand(&bytes).map_err(|e| crate::error::err!("'{}': {e}", escape_name(&bytes)))?;
        out.extend(names.into_iter().map(os_string));
    }
    Ok(out)
}

/// A glob's matches without the index files beside them: `X.idx` is left
/// out when `X` matched too (`tfr index` writes `train-00000.tfrecord.idx`
/// beside its file, which `'data/train-*'` would otherwise take as data).
fn without_indexes<T>(found: Vec<T>, name: impl Fn(&T) -> Vec<u8>) -> Vec<T> {
    let names: std::collections::HashSet<Vec<u8>> = found.iter().map(&name).collect();
    found
        .into_iter()
        .filter(|f| {
            let n = name(f);
            n.strip_suffix(b".idx").is_none_or(|data| !names.contains(data))
        })
        .collect()
}

fn is_pattern(s: &[u8]) -> bool {
    s.iter().any(|b| matches!(b, b'*' | b'?' | b'['))
}

/// The files (not directories) a glob pattern matches, by bytes: `*` and
/// `?` never match `/`, `[abc]`, `[a-z]`, `[!a]` match one byte, `**` as a
/// whole component matches any number of directories.
fn glob(pattern: &[u8]) -> io::Result<Vec<PathBuf>> {
    let absolute = pattern.first() == Some(&b'/');
    let mut parts: Vec<&[u8]> = pattern.split(|&b| b == b'/').filter(|p| !p.is_empty()).collect();
    // `**/**` is `**`: walked once, not once per way to split the path.
    parts.dedup_by(|a, b| *a == b"**" && *b == b"**");
    let root = PathBuf::from(if absolute { "/" } else { "" });
    let mut found = Vec::new();
    walk(&root, &parts, &mut found, &mut std::collections::HashSet::new())?;
    found.retain(|p| !p.is_dir());
    // `a/**/**` reaches a file along several ways.
    found.sort();
    found.dedup();
    Ok(found)
}

/// Matches `parts` below `dir` (`""` is the current directory). Each
/// (directory, pattern suffix) is walked once (`seen`): several `**` reach
/// the same directory with the same rest of the pattern along many ways,
/// and walking each way again was exponential in the number of `**`.
fn walk(
    dir: &std::path::Path,
    parts: &[&[u8]],
    found: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<(PathBuf, usize)>,
) -> io::Result<()> {
    if !seen.insert((dir.to_path_buf(), parts.len())) {
        return Ok(());
    }
    let Some((first, rest)) = parts.split_first() else {
        found.push(dir.to_path_buf());
        return Ok(());
    };
    if *first == b"**" {
        walk(dir, rest, found, seen)?;
        for (_, path) in read_dir(dir)? {
            // Not through a symbolic link to a directory: a link loop
            // would never end, a link to a sibling would count it twice.
            let real_dir = path.symlink_metadata().is_ok_and(|m| m.is_dir());
            if real_dir {
                walk(&path, parts, found, seen)?;
            } else if rest.is_empty() && !path.is_dir() {
                // A trailing `**` matches every file below (as in an
                // object store's listing).
                found.push(path);
            }
        }
        return Ok(());
    }
    if !is_pattern(first) {
        let path = dir.join(os_string(first.to_vec()));
        if (rest.is_empty() || path.is_dir()) && path.symlink_metadata().is_ok() {
            walk(&path, rest, found, seen)?;
        }
        return Ok(());
    }
    for (name, path) in read_dir(dir)? {
        if matches(first, &name) && (rest.is_empty() || path.is_dir()) {
            walk(&path, rest, found, seen)?;
        }
    }
    Ok(())
}

/// The entries of a directory (`""`: the current one) as (name bytes, path);
/// a directory that cannot be read has none.
fn read_dir(dir: &std::path::Path) -> io::Result<Vec<(Vec<u8>, PathBuf)>> {
    let list = match std::fs::read_dir(if dir.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        dir
    }) {
        Ok(list) => list,
        Err(_) => return Ok(Vec::new()),
    };
    let mut out = Vec::new();
    for entry in list {
        let entry = entry?;
        let name = entry.file_name();
        out.push((os_bytes(&name).into_owned(), dir.join(&name)));
    }
    Ok(out)
}

/// Whether a path's components match a glob's (`**` as a whole
/// component matches any number of them, including none). Linear in the
/// path for each pattern component, as [`matches`] is in the name.
#[cfg_attr(not(feature = "remote"), allow(dead_code))]
pub(crate) fn matches_path(pattern: &[&[u8]], parts: &[&[u8]]) -> bool {
    wildcard(
        pattern.len(),
        parts.len(),
        |p| pattern[p] == b"**",
        |p, n| matches(pattern[p], parts[n]).then_some(1),
    )
}

/// Whether a name matches a glob (`*`, `?`, `[a-z]`, `[!x]`), as bytes:
/// `*` matches any run of bytes, `?` one byte, `[...]` one byte of a set
/// (ranges `a-z`, negated by a leading `!` or `^`; a `]` right after the
/// `[` is in the set; a `[` without its `]` is itself), any other byte
/// itself. At most (pattern length × name length) steps, whatever the
/// pattern: `*a*a*a*a*a*a*a*a*b` against 150 bytes is as quick as `*`.
pub fn matches(pattern: &[u8], name: &[u8]) -> bool {
    // Elements are parsed where they stand (no allocation: --features
    // patterns are matched against every feature of every record).
    wildcard(
        pattern.len(),
        name.len(),
        |p| pattern[p] == b'*',
        |p, n| {
            let (element, len) = element(&pattern[p..]);
            element.matches(name[n]).then_some(len)
        },
    )
}

/// The two-pointer wildcard walk over positions `0..pattern` and
/// `0..items`: a `star` position (one long) matches any run of items; any
/// other matches exactly one item, `one` saying whether and how many
/// positions long it is. On a mismatch only the last star seen takes one
/// more item and the walk resumes after it: earlier stars never need to
/// (whatever they could take, the last one can take as well), so it never
/// backtracks further and ends within O(pattern × items) steps.
fn wildcard(
    pattern: usize,
    items: usize,
    star: impl Fn(usize) -> bool,
    one: impl Fn(usize, usize) -> Option<usize>,
) -> bool {
    let (mut p, mut n) = (0, 0);
    // After the last star: where the pattern resumes, and the item it resumed at.
    let mut resume: Option<(usize, usize)> = None;
    loop {
        if p < pattern {
            if star(p) {
                resume = Some((p + 1, n));
                p += 1;
                continue;
            }
            if let Some(len) = (n < items).then(|| one(p, n)).flatten() {
                p += len;
                n += 1;
                continue;
            }
        } else if n == items {
            return true;
        }
        match resume {
            Some((after, from)) if from < items => {
                resume = Some((after, from + 1));
                (p, n) = (after, from + 1);
            }
            _ => return false,
        }
    }
}

/// One element of a glob name pattern; each but `*` matches one byte.
enum Element<'a> {
    Any,
    Set { negate: bool, set: &'a [u8] },
    Byte(u8),
}

impl Element<'_> {
    fn matches(&self, c: u8) -> bool {
        match *self {
            Element::Any => true,
            Element::Byte(b) => b == c,
            Element::Set { negate, set } => in_set(set, c) != negate,
        }
    }
}

/// Whether byte `c` is in a glob's `[...]` set (its bytes between the
/// brackets, without a leading `!`/`^`): single bytes and `a-z` ranges.
fn in_set(set: &[u8], c: u8) -> bool {
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == b'-' {
            if (set[i]..=set[i + 2]).contains(&c) {
                return true;
            }
            i += 3;
        } else {
            if set[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

/// The element `p` starts with (not `*`) and its length in bytes.
fn element(p: &[u8]) -> (Element<'_>, usize) {
    match p[0] {
        b'?' => (Element::Any, 1),
        b'[' => {
            let rest = &p[1..];
            let Some(close) = rest.iter().skip(1).position(|&b| b == b']').map(|i| i + 1) else {
                return (Element::Byte(b'['), 1);
            };
            let (negate, set) = match rest[..close].split_first() {
                Some((b'!' | b'^', set)) => (true, set),
                _ => (false, &rest[..close]),
            };
            (Element::Set { negate, set }, close + 2)
        }
        b => (Element::Byte(b), 1),
    }
}

/// The inputs' total size in bytes (for a progress bar), when every input
/// is a file whose size is known.
pub fn total_size(inputs: &[Input]) -> Option<u64> {
    inputs
        .iter()
        .map(|i| match i {
            Input::Path(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            Input::Part { whole, start, end } => matches!(**whole, Input::Path(_)).then(|| end - start),
            Input::Stdin | Input::Url(_) => None,
        })
        .sum()
}

/// Size of the read buffer in front of a decompressor (a gzip file is read
/// in 160 reads per 10 MB: no slower than with 256 KiB, 192 KiB less held
/// per compressed input).
pub(crate) const COMPRESSED_BUF: usize = 64 * 1024;

impl Input {
    /// Opens the input as a byte stream: stdin, or a file that is not a
    /// directory. A regular file comes with its size (it can be read by
    /// position and split between threads).
    pub fn open(&self) -> Result<Opened> {
        match self {
            Input::Stdin => Ok(Opened::Stream(Box::new(io::stdin()))),
            Input::Path(p) => {
                let file = File::open(p).with_context(|| format!("{}: cannot open", p.display()))?;
                let meta = file
                    .metadata()
                    .with_context(|| format!("{}: cannot stat", p.display()))?;
                if meta.is_dir() {
                    bail!("{}: is a directory", p.display());
                }
                if meta.is_file() {
                    Ok(Opened::File(file, meta.len()))
                } else {
                    Ok(Opened::Stream(Box::new(file)))
                }
            }
            Input::Url(url) => {
                let loc = match super::remote::parse(url.as_bytes()) {
                    Some(parsed) => parsed?,
                    None => bail!("{}: not a URL tfr reads", escape_name(url.as_bytes())),
                };
                let (object, size) = super::remote::open(&loc)?;
                Ok(Opened::Object(object, size))
            }
            Input::Part { whole, start, end } => {
                let (at, size) = match whole.open()? {
                    Opened::File(file, size) => (super::at::At::file(file), size),
                    Opened::Object(at, size) => (at, size),
                    Opened::Stream(_) => bail!(
                        "{}: not a regular file, so no byte range of it can be read",
                        whole.display()
                    ),
                };
                if size < *end {
                    bail!(
                        "{}: {size} bytes now, fewer than when --part divided it ({end}); it changed while being read",
                        whole.display()
                    );
                }
                let len = end.saturating_sub(*start);
                Ok(Opened::Object(at.window(*start, len), len))
            }
        }
    }

    /// Opens the input as a byte stream, inflated (on a second thread) when
    /// its first bytes are a gzip or zlib header ([`super::sniff_magic`]).
    /// For inputs that are not records: from-jsonl's JSON lines.
    pub fn open_decompressed(&self) -> Result<Box<dyn Read + Send>> {
        let name = self.display();
        let mut src: Box<dyn Read + Send> = match self.open()? {
            Opened::File(f, _) => Box::new(f),
            Opened::Stream(s) => s,
            Opened::Object(object, _) => Box::new(super::at::AtReader::new(object, 0)),
        };
        let mut head = Vec::with_capacity(3);
        (&mut src)
            .take(3)
            .read_to_end(&mut head)
            .with_context(|| format!("{name}: read failed"))?;
        let joined = io::Cursor::new(head.clone()).chain(src);
        let compression = super::sniff_magic(&head).unwrap_or(super::Compression::None);
        let buffered = io::BufReader::with_capacity(COMPRESSED_BUF, joined);
        Ok(match super::decoder(buffered, compression) {
            Ok(inflater) => Box::new(super::readahead::ReadAhead::new(inflater)),
            Err(plain) => Box::new(plain.into_inner()),
        })
    }
}

/// An opened input.
pub enum Opened {
    /// A regular file and its size.
    File(File, u64),
    /// stdin, a pipe, a device.
    Stream(Box<dyn Read + Send>),
    /// An object in a store, read by position (with ranged read-ahead), and
    /// its size: it ends, like a file.
    Object(super::at::At, u64),
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
