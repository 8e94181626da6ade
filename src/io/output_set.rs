//! A set of outputs that appear together, or not at all: the shards of
//! `tfr reshard`, the splits of `tfr split`, the output(s) of `tfr shuffle`.
//!
//! Each output is an [`AtomicOutput`] (a temporary file beside its target,
//! or a multipart upload), created by [`OutputSet::create`], which also
//! refuses an output that is one of the inputs (or of the auxiliary files)
//! and an output named twice in the set. [`OutputSet::commit`] first ends
//! every output (the compressed streams closed, every byte written to its
//! temporary file or sent), and only then puts them in place: the files
//! renamed over their targets, then the uploads completed. A set dropped
//! without `commit` (an error, a panic) removes every temporary file and
//! aborts every upload; a terminating signal does the same (and, during
//! the renames, also removes the outputs already renamed), so a failed run
//! leaves none of the outputs and existing files of the same names are
//! untouched.
//!
//! Limits: the renames are one per output, not one transaction; a rename
//! that fails midway (rare: same directory, same file system) removes
//! the outputs already renamed, and an object store has no transaction
//! over several objects, so an upload whose completion fails after others
//! completed leaves those (the error names them). Files of earlier runs
//! that are not in the set (`-00000-of-00128` shards when 64 are written
//! now) are left alone.
//!
//! Use:
//! ```no_run
//! # fn main() -> anyhow::Result<()> {
//! use std::io::Write;
//! use std::path::Path;
//! use tfr::io::output_set::{shard_name, OutputSet};
//! let inputs = tfr::io::input::expand(&["in.tfrecord".into()])?;
//! let mut set = OutputSet::new(&inputs, &[], "-o");
//! for k in 0..4 {
//!     // None: compression from the name (here gzip); Some(c) forces c.
//!     let i = set.create(&shard_name(Path::new("out/train.tfrecord.gz"), k, 4), None, 1)?;
//!     set.get(i).write_all(b"...framed records...")?;
//! }
//! set.commit()?; // out/train-0000{0,1,2,3}-of-00004.tfrecord.gz appear together
//! # Ok(())
//! # }
//! ```

use super::input::{show_path, Input};
use super::output_file::{cleanup, AtomicOutput, Finished};
use super::Compression;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// One output of the set.
enum Slot {
    /// Boxed, as is `Ended`: an open output carries its compressor.
    Open(Box<AtomicOutput>),
    Ended(Box<Finished>),
    /// Between states (an error while ending it).
    Gone,
}

/// Outputs that appear together on [`commit`](OutputSet::commit), or not at
/// all (see the module's documentation).
pub struct OutputSet {
    inputs: Vec<Input>,
    aux: Vec<PathBuf>,
    flag: String,
    slots: Vec<Slot>,
    /// Each output's identity (its directory resolved, or its URL), to
    /// refuse one named twice.
    keys: Vec<PathBuf>,
}

impl OutputSet {
    /// An empty set for a run that reads `inputs` (and the auxiliary files
    /// `aux`); `flag` names the option in messages (`-o`).
    pub fn new(inputs: &[Input], aux: &[&Path], flag: &str) -> OutputSet {
        OutputSet {
            inputs: inputs.to_vec(),
            aux: aux.iter().map(|p| p.to_path_buf()).collect(),
            flag: flag.to_string(),
            slots: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// Starts writing the output `path` and returns its number (0, 1, ... in
    /// the order created). `compression`: `Some` forces it, `None` takes it
    /// from the name ([`Compression::from_name`]). `threads` > 1 gzips on
    /// that many threads. Refuses (one line) an output that is one of the
    /// inputs or auxiliary files, or that the set already holds; the
    /// temporary file is created now, so an unwritable directory fails here.
    pub fn create(&mut self, path: &Path, compression: Option<Compression>, threads: usize) -> Result<usize> {
        let aux: Vec<&Path> = self.aux.iter().map(|p| p.as_path()).collect();
        super::same_file::refuse_input_as_output(&self.inputs, &aux, path, &self.flag)?;
        let key = identity(path);
        if path.as_os_str() != "-" && self.keys.contains(&key) {
            bail!("{} {}: named twice among the outputs", self.flag, show_path(path));
        }
        let compression = Compression::for_output(path, compression);
        let out = AtomicOutput::create_threaded(path, compression, threads)?;
        self.slots.push(Slot::Open(Box::new(out)));
        self.keys.push(key);
        Ok(self.slots.len() - 1)
    }

    /// How many outputs the set holds.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the set holds no output.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Output `i`, to write to. Panics if it was [`end`](OutputSet::end)ed.
    pub fn get(&mut self, i: usize) -> &mut AtomicOutput {
        match &mut self.slots[i] {
            Slot::Open(out) => out,
            _ => panic!("output {i} of the set was already ended"),
        }
    }

    /// Ends output `i` now (its compressed stream closed, its bytes written:
    /// its compressor's threads and buffers freed), to be put in place with
    /// the others by [`commit`](OutputSet::commit). For a writer that fills
    /// its outputs one after the other.
    pub fn end(&mut self, i: usize) -> Result<()> {
        match std::mem::replace(&mut self.slots[i], Slot::Gone) {
            Slot::Open(out) => self.slots[i] = Slot::Ended(Box::new(out.finish()?)),
            other => self.slots[i] = other,
        }
        Ok(())
    }

    /// Ends every output, then puts them all in place: files renamed over
    /// their targets, then uploads completed. On error nothing is left in
    /// place (but see the module's limits for object stores).
    pub fn commit(mut self) -> Result<()> {
        for i in 0..self.slots.len() {
            self.end(i)?;
        }
        let mut ended: Vec<Finished> = std::mem::take(&mut self.slots)
            .into_iter()
            .filter_map(|slot| match slot {
                Slot::Ended(f) => Some(*f),
                _ => None,
            })
            .collect();
        // Files first (renames), uploads last (completions that cannot be undone).
        ended.sort_by_key(|f| f.target().is_none());
        // While renaming, a signal removes the outputs already in place too.
        let mut placed: Vec<(PathBuf, cleanup::Guard)> = Vec::new();
        let mut completed: Vec<String> = Vec::new();
        for finished in ended {
            let name = finished.display().to_string();
            let target = finished.target().map(Path::to_path_buf);
            let guard = target.as_deref().map(cleanup::Guard::new);
            if let Err(e) = finished.publish() {
                for (path, _) in &placed {
                    let _ = std::fs::remove_file(path);
                }
                if completed.is_empty() {
                    return Err(e);
                }
                return Err(e).with_context(|| {
                    format!(
                        "{name}: not completed, after {} other output(s) already were: {}",
                        completed.len(),
                        completed.join(", ")
                    )
                });
            }
            match (target, guard) {
                (Some(path), Some(guard)) => placed.push((path, guard)),
                _ => completed.push(name),
            }
        }
        Ok(())
    }
}

/// What tells two outputs apart: a local path with its directory resolved
/// (so `./a` and `a` are the same), or the path as given (a URL).
fn identity(path: &Path) -> PathBuf {
    let as_bytes = path.as_os_str().as_encoded_bytes();
    if super::remote::parse(as_bytes).is_some() || super::remote::file_url(as_bytes).is_some() {
        return path.to_path_buf();
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// The name of shard `k` of `n` written for `path`, as Beam and TFDS name
/// them: `DIR/NAME.tfrecord.gz` → `DIR/NAME-00003-of-00064.tfrecord.gz`.
/// The index and count go before the name's extensions when it ends in a
/// compression's (`.gz`, `.zz`, `.zlib`, `.snappy`) and/or `.tfrecord`
/// (`.tfrecords`, `.tfr`), else at the end; 5 digits, zero-padded (more
/// when `n` needs them).
pub fn shard_name(path: &Path, k: usize, n: usize) -> PathBuf {
    let bytes = path.as_os_str().as_encoded_bytes();
    let start = bytes.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    let name = &bytes[start..];
    let lower = name.to_ascii_lowercase();
    let mut cut = name.len();
    for group in [
        &[".gz", ".zz", ".zlib", ".snappy"][..],
        &[".tfrecord", ".tfrecords", ".tfr"],
    ] {
        if let Some(ext) = group
            .iter()
            .find(|ext| cut > ext.len() && lower[..cut].ends_with(ext.as_bytes()))
        {
            cut -= ext.len();
        }
    }
    let width = n.to_string().len().max(5);
    let mut out = bytes[..start + cut].to_vec();
    out.extend_from_slice(format!("-{k:0width$}-of-{n:0width$}").as_bytes());
    out.extend_from_slice(&name[cut..]);
    PathBuf::from(os_string(out))
}

/// Bytes that came from an `OsStr` (cut at ASCII bytes, ASCII added) back
/// into an `OsString`.
fn os_string(bytes: Vec<u8>) -> std::ffi::OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        std::ffi::OsString::from_vec(bytes)
    }
    #[cfg(not(unix))]
    {
        std::ffi::OsString::from(String::from_utf8_lossy(&bytes).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn shard_names_as_beam_writes_them() {
        let cases = [
            ("out/train.tfrecord.gz", 3, 64, "out/train-00003-of-00064.tfrecord.gz"),
            ("train.tfrecord", 0, 1, "train-00000-of-00001.tfrecord"),
            ("a.b/data", 1, 2, "a.b/data-00001-of-00002"),
            ("data.gz", 0, 2, "data-00000-of-00002.gz"),
            ("x.TFRecord.ZZ", 9, 10, "x-00009-of-00010.TFRecord.ZZ"),
            ("my.data.tfrecords", 0, 2, "my.data-00000-of-00002.tfrecords"),
            (
                "s3://b/k/t.tfrecord.snappy",
                2,
                3,
                "s3://b/k/t-00002-of-00003.tfrecord.snappy",
            ),
            ("big", 5, 100000, "big-000005-of-100000"),
            (".gz", 0, 1, ".gz-00000-of-00001"),
        ];
        for (path, k, n, want) in cases {
            assert_eq!(shard_name(Path::new(path), k, n), PathBuf::from(want), "{path}");
        }
    }

    #[test]
    fn compression_from_the_name() {
        for (name, want) in [
            ("a.tfrecord.gz", Compression::Gzip),
            ("a.GZ", Compression::Gzip),
            ("a.zz", Compression::Zlib),
            ("a.zlib", Compression::Zlib),
            ("a.tfrecord.snappy", Compression::Snappy),
            ("a.tfrecord", Compression::None),
            ("dir.gz/a", Compression::None),
            (".gz", Compression::None),
            ("-", Compression::None),
            ("s3://b/a.gz", Compression::Gzip),
            ("https://h/a.gz?sig=x.zz", Compression::Gzip),
        ] {
            assert_eq!(Compression::from_name(Path::new(name)), want, "{name}");
        }
        assert_eq!(
            Compression::for_output(Path::new("a.gz"), Some(Compression::None)),
            Compression::None
        );
    }

    #[test]
    fn all_appear_on_commit_with_their_compression() {
        let dir = tempfile::tempdir().unwrap();
        let mut set = OutputSet::new(&[], &[], "-o");
        for k in 0..3 {
            let path = shard_name(&dir.path().join("t.tfrecord.gz"), k, 3);
            let i = set.create(&path, None, 1).unwrap();
            set.get(i).write_all(format!("shard {k}").as_bytes()).unwrap();
        }
        set.end(1).unwrap();
        assert_eq!(set.len(), 3);
        assert_eq!(
            names(dir.path()).iter().filter(|n| !n.starts_with('.')).count(),
            0,
            "nothing in place before commit"
        );
        set.commit().unwrap();
        let got = names(dir.path());
        assert_eq!(
            got,
            [
                "t-00000-of-00003.tfrecord.gz",
                "t-00001-of-00003.tfrecord.gz",
                "t-00002-of-00003.tfrecord.gz"
            ]
        );
        for (k, name) in got.iter().enumerate() {
            let raw = std::fs::read(dir.path().join(name)).unwrap();
            let mut text = String::new();
            flate2::read::GzDecoder::new(&raw[..])
                .read_to_string(&mut text)
                .unwrap();
            assert_eq!(text, format!("shard {k}"));
        }
    }

    #[test]
    fn dropped_set_leaves_nothing_and_old_files_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("b");
        std::fs::write(&old, b"old").unwrap();
        let mut set = OutputSet::new(&[], &[], "-o");
        for name in ["a", "b"] {
            let i = set.create(&dir.path().join(name), Some(Compression::None), 1).unwrap();
            set.get(i).write_all(b"new").unwrap();
        }
        set.end(0).unwrap();
        drop(set);
        assert_eq!(names(dir.path()), ["b"]);
        assert_eq!(std::fs::read(&old).unwrap(), b"old");
    }

    #[test]
    fn refuses_an_input_and_a_name_given_twice() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.tfrecord");
        std::fs::write(&input, b"x").unwrap();
        let mut set = OutputSet::new(&[Input::Path(input.clone())], &[], "-o");
        let err = set.create(&input, None, 1).err().unwrap();
        assert!(format!("{err:#}").contains("is also an input"), "{err:#}");
        set.create(&dir.path().join("o"), None, 1).unwrap();
        let again = dir.path().join(".").join("o");
        let err = set.create(&again, None, 1).err().unwrap();
        assert!(format!("{err:#}").contains("named twice"), "{err:#}");
        drop(set);
        assert_eq!(names(dir.path()), ["in.tfrecord"]);
    }

    #[test]
    fn a_failed_rename_removes_the_outputs_already_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let mut set = OutputSet::new(&[], &[], "-o");
        let a = set.create(&dir.path().join("a"), None, 1).unwrap();
        set.get(a).write_all(b"a").unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let b = set.create(&sub.join("b"), None, 1).unwrap();
        set.get(b).write_all(b"b").unwrap();
        // The rename of b fails: its target became a directory that is not empty.
        std::fs::create_dir(sub.join("b")).unwrap();
        std::fs::write(sub.join("b").join("keep"), b"").unwrap();
        assert!(set.commit().is_err());
        assert_eq!(names(dir.path()), ["sub"]);
        assert_eq!(names(&sub), ["b"]);
    }

    #[test]
    fn written_counts_what_reached_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.gz");
        let mut out = AtomicOutput::create(&path, Compression::from_name(&path)).unwrap();
        out.write_all(&vec![7u8; 100_000]).unwrap();
        out.flush().unwrap();
        let flushed = out.written();
        assert!(flushed > 10 && flushed < 1000, "{flushed}");
        out.commit().unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() >= flushed);
    }
}
