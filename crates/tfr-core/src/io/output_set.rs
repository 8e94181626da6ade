//! A set of outputs that appear together, or not at all: the shards of
//! `tfr reshard`, the splits of `tfr split`, the output(s) of `tfr shuffle`.
//!
//! Each output is an [`AtomicOutput`] (a temporary file beside its target,
//! or a multipart upload), created by [`OutputSet::create`], which also
//! refuses an output that is one of the inputs (or of the auxiliary files)
//! and an output named twice in the set. [`OutputSet::commit`] first ends
//! every output (the compressed streams closed, every byte written to its
//! temporary file or sent; an ended output's file is closed, so a set of
//! 100,000 shards holds one descriptor at a time when written one after
//! the other), and only then puts them in place: existing files of the
//! same names moved aside (renamed to hidden `.NAME.XXXXXX.old` files in
//! the same directory), the files renamed over their targets, then the
//! uploads completed, and only then the files moved aside removed. A
//! rename that fails midway (or an upload that cannot be completed)
//! removes the outputs already renamed and moves the old files back. A set
//! dropped without `commit` (an error, a panic) removes every temporary
//! file and aborts every upload; a terminating signal does the same (and,
//! during the renames, also removes the outputs already renamed and moves
//! the old files back), so a failed run leaves none of the outputs and
//! existing files of the same names are untouched.
//!
//! The missing directories of a local output are created (as `mkdir -p`
//! would), and removed again (those left empty) when the run fails or is
//! interrupted.
//!
//! Limits: the renames are one per output, not one transaction; a process
//! killed outright (SIGKILL, a power loss) during the renames can leave
//! some new outputs in place and old files under their `.old` names. An
//! object store has no transaction over several objects, so an upload
//! whose completion fails after others completed leaves those (the error
//! names them). Files of earlier runs that are not in the set
//! (`-00000-of-00128` shards when 64 are written now) are left alone.
//!
//! Use:
//! ```no_run
//! # fn main() -> crate::error::Result<()> {
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
use super::made_dirs::MadeDirs;
use super::output_file::{cleanup, AtomicOutput, Finished};
use super::Compression;
use crate::error::{bail, Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
    /// Which output holds each identity (a map: creating N outputs costs N
    /// look-ups, not N²/2 comparisons).
    owners: HashMap<PathBuf, usize>,
    /// Directories created for the outputs: removed (if empty) when the
    /// set is dropped without a successful commit.
    made_dirs: Vec<MadeDirs>,
    committed: bool,
}

impl Drop for OutputSet {
    fn drop(&mut self) {
        // The temporary files first, then the directories made for them.
        self.slots.clear();
        if self.committed {
            self.made_dirs.drain(..).for_each(MadeDirs::keep);
        }
        // Else dropped: each removes what it made, the latest first.
        while let Some(dirs) = self.made_dirs.pop() {
            drop(dirs);
        }
    }
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
            owners: HashMap::new(),
            made_dirs: Vec::new(),
            committed: false,
        }
    }

    /// Starts writing the output `path` and returns its number (0, 1, ... in
    /// the order created). `compression`: `Some` forces it, `None` takes it
    /// from the name ([`Compression::from_name`]). `threads` > 1 gzips on
    /// that many threads. Refuses (one line) an output that is one of the
    /// inputs or auxiliary files, that the set already holds, or whose
    /// name holds a FIFO, a device or a socket; the
    /// temporary file is created now, so an unwritable directory fails here.
    /// The missing directories of a local output are created first.
    pub fn create(&mut self, path: &Path, compression: Option<Compression>, threads: usize) -> Result<usize> {
        self.create_as(path, compression, threads, false)
    }

    /// [`create`](Self::create) for an output the user named whole (the one
    /// output of a command, not a shard or split tfr names): a FIFO or a
    /// device there (`-o /dev/null`, `-o >(wc -c)`) is written into, as
    /// every single output is.
    pub fn create_whole(&mut self, path: &Path, compression: Option<Compression>, threads: usize) -> Result<usize> {
        self.create_as(path, compression, threads, true)
    }

    fn create_as(
        &mut self,
        path: &Path,
        compression: Option<Compression>,
        threads: usize,
        whole: bool,
    ) -> Result<usize> {
        let aux: Vec<&Path> = self.aux.iter().map(|p| p.as_path()).collect();
        super::same_file::refuse_input_as_output(&self.inputs, &aux, path, &self.flag)?;
        self.make_dirs(path)?;
        let key = identity(path);
        if path.as_os_str() != "-" && self.owners.contains_key(&key) {
            bail!("{} {}: named twice among the outputs", self.flag, show_path(path));
        }
        let compression = Compression::for_output(path, compression);
        // Regular files only: a FIFO or a device at an output's name is
        // refused, never opened (a FIFO's open would wait for ever, and
        // neither could appear together with the others).
        let out = match whole {
            true => AtomicOutput::create_threaded(path, compression, threads)?,
            false => AtomicOutput::create_file_threaded(path, compression, threads)?,
        };
        self.slots.push(Slot::Open(Box::new(out)));
        let i = self.slots.len() - 1;
        if path.as_os_str() != "-" {
            self.owners.insert(key.clone(), i);
        }
        self.keys.push(key);
        Ok(i)
    }

    /// Creates the missing directories above the local output `path`, as
    /// `mkdir -p` would, remembering them to remove on failure.
    fn make_dirs(&mut self, path: &Path) -> Result<()> {
        let dirs = MadeDirs::above(path, &self.flag)?;
        self.made_dirs.push(dirs);
        Ok(())
    }

    /// Names output `i` `path` instead of the name it was created with
    /// (which only chose its directory): for outputs whose final names are
    /// known only at the end (`-of-NNNNN` when the count depends on sizes).
    /// Local files only, in the same directory; refused as [`create`]
    /// refuses a name.
    ///
    /// [`create`]: OutputSet::create
    pub fn rename(&mut self, i: usize, path: &Path) -> Result<()> {
        let aux: Vec<&Path> = self.aux.iter().map(|p| p.as_path()).collect();
        super::same_file::refuse_input_as_output(&self.inputs, &aux, path, &self.flag)?;
        let key = identity(path);
        if self.owners.get(&key).is_some_and(|&j| j != i) {
            bail!("{} {}: named twice among the outputs", self.flag, show_path(path));
        }
        match &mut self.slots[i] {
            Slot::Open(out) => out.set_target(path)?,
            Slot::Ended(f) => f.set_target(path)?,
            Slot::Gone => bail!("{}: output {i} failed", show_path(path)),
        }
        let old = std::mem::replace(&mut self.keys[i], key.clone());
        if self.owners.get(&old) == Some(&i) {
            self.owners.remove(&old);
        }
        self.owners.insert(key, i);
        Ok(())
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

    /// Ends every output, then puts them all in place: existing files
    /// moved aside, files renamed over their targets, then uploads
    /// completed, then the old files removed. On error nothing is left in
    /// place and the old files are back (but see the module's limits for
    /// object stores).
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
        let files = ended.iter().take_while(|f| f.target().is_some()).count();
        let uploads = ended.split_off(files);
        // A signal during the renames undoes them (after the temporary files are removed).
        let undo = Arc::new(Mutex::new(Undo::default()));
        let hook = {
            let undo = Arc::clone(&undo);
            cleanup::on_signal(Box::new(move || lock(&undo).run()))
        };
        let result = place(ended, uploads, &undo);
        let mut undo = lock(&undo);
        if result.is_err() {
            undo.run();
        } else {
            // The old files, moved aside, are removed as their paths drop.
            undo.placed.clear();
            undo.aside.clear();
            self.committed = true;
        }
        drop(undo);
        drop(hook);
        result
    }
}

/// What [`OutputSet::commit`] has done so far, to undo on failure or a signal.
#[derive(Default)]
struct Undo {
    /// Existing targets renamed to these (hidden, same directory) paths.
    aside: Vec<(PathBuf, tempfile::TempPath)>,
    /// Outputs renamed into place.
    placed: Vec<PathBuf>,
    /// Set once undone: nothing more is done.
    undone: bool,
}

impl Undo {
    /// Removes the outputs placed, puts the old files back.
    fn run(&mut self) {
        if self.undone {
            return;
        }
        self.undone = true;
        for path in self.placed.drain(..) {
            let _ = std::fs::remove_file(path);
        }
        for (target, old) in self.aside.drain(..).rev() {
            let _ = std::fs::rename(&old, &target);
        }
    }
}

fn lock(undo: &Mutex<Undo>) -> std::sync::MutexGuard<'_, Undo> {
    undo.lock().unwrap_or_else(|e| e.into_inner())
}

/// Moves the existing targets of `files` aside, renames `files` into place,
/// completes `uploads`; each step recorded in `undo` (under its lock, so a
/// signal sees a consistent state).
fn place(files: Vec<Finished>, uploads: Vec<Finished>, undo: &Mutex<Undo>) -> Result<()> {
    for finished in &files {
        let Some(target) = finished.target() else { continue };
        let Ok(meta) = std::fs::symlink_metadata(target) else {
            continue;
        };
        if !meta.is_file() {
            continue; // a directory in the way: its rename fails below
        }
        let old =
            aside_path(target).with_context(|| format!("{}: cannot move the old file aside", finished.display()))?;
        let mut undo = lock(undo);
        if undo.undone {
            bail!("interrupted");
        }
        std::fs::rename(target, &old)
            .with_context(|| format!("{}: cannot move the old file aside", finished.display()))?;
        undo.aside.push((target.to_path_buf(), old));
    }
    for finished in files {
        let target = finished.target().map(Path::to_path_buf);
        let mut undo = lock(undo);
        if undo.undone {
            bail!("interrupted");
        }
        // Under the lock: a signal's undo waits for the rename and its record.
        finished.publish()?;
        if let Some(path) = target {
            undo.placed.push(path);
        }
    }
    let mut completed: Vec<String> = Vec::new();
    for finished in uploads {
        let name = finished.display().to_string();
        if let Err(e) = finished.publish() {
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
        completed.push(name);
    }
    Ok(())
}

/// A new hidden path beside `target` (`.NAME.XXXXXX.old`) to move it to.
fn aside_path(target: &Path) -> std::io::Result<tempfile::TempPath> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".old")
        .tempfile_in(dir)
        .map_err(|e| {
            std::io::Error::new(
                e.kind(),
                e.to_string().split(" at path ").next().unwrap_or("").to_string(),
            )
        })?;
    Ok(file.into_temp_path())
}

/// A local output's path (a `file://` URL's too); `None` for stdout and URLs.
pub fn local_path(path: &Path) -> Option<PathBuf> {
    let as_bytes = path.as_os_str().as_encoded_bytes();
    if path.as_os_str() == "-" {
        return None;
    }
    if let Some(local) = super::remote::file_url(as_bytes) {
        return Some(PathBuf::from(String::from_utf8_lossy(local).into_owned()));
    }
    if super::remote::parse(as_bytes).is_some() {
        return None;
    }
    Some(path.to_path_buf())
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
    fn a_failed_rename_puts_the_old_files_back() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), b"old a").unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("c"), b"old c").unwrap();
        let mut set = OutputSet::new(&[], &[], "-o");
        for path in [dir.path().join("a"), sub.join("c"), sub.join("b")] {
            let i = set.create(&path, None, 1).unwrap();
            set.get(i).write_all(b"new").unwrap();
        }
        // The rename of b fails: its target became a directory that is not empty.
        std::fs::create_dir(sub.join("b")).unwrap();
        std::fs::write(sub.join("b").join("keep"), b"").unwrap();
        assert!(set.commit().is_err());
        assert_eq!(names(dir.path()), ["a", "sub"]);
        assert_eq!(names(&sub), ["b", "c"]);
        assert_eq!(std::fs::read(dir.path().join("a")).unwrap(), b"old a");
        assert_eq!(std::fs::read(sub.join("c")).unwrap(), b"old c");
        // A commit that succeeds removes the old files it moved aside.
        let mut set = OutputSet::new(&[], &[], "-o");
        let i = set.create(&dir.path().join("a"), None, 1).unwrap();
        set.get(i).write_all(b"new").unwrap();
        set.commit().unwrap();
        assert_eq!(names(dir.path()), ["a", "sub"]);
        assert_eq!(std::fs::read(dir.path().join("a")).unwrap(), b"new");
    }

    #[test]
    fn missing_directories_are_made_and_removed_unless_committed() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("x").join("y").join("out");
        let mut set = OutputSet::new(&[], &[], "-o");
        let i = set.create(&deep, None, 1).unwrap();
        set.get(i).write_all(b"z").unwrap();
        set.end(i).unwrap();
        assert!(dir.path().join("x/y").is_dir());
        drop(set);
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
        let mut set = OutputSet::new(&[], &[], "-o");
        set.create(&deep, None, 1).unwrap();
        set.commit().unwrap();
        assert!(deep.is_file());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_ended_output_holds_no_descriptor() {
        let dir = tempfile::tempdir().unwrap();
        let mut set = OutputSet::new(&[], &[], "-o");
        let i = set.create(&dir.path().join("a"), None, 1).unwrap();
        set.end(i).unwrap();
        // No descriptor of this process (other tests' included) is open on it.
        let open = std::fs::read_dir("/proc/self/fd")
            .unwrap()
            .filter_map(|e| std::fs::read_link(e.unwrap().path()).ok())
            .any(|p| p.starts_with(dir.path()));
        assert!(!open, "the ended output's temporary file is still open");
        set.commit().unwrap();
        assert_eq!(names(dir.path()), ["a"]);
    }

    #[test]
    fn renamed_outputs_appear_under_their_new_names() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("t.tfrecord");
        let mut set = OutputSet::new(&[], &[], "-o");
        for k in 0..2 {
            let i = set.create(&shard_name(&base, k, 0), None, 1).unwrap();
            set.get(i).write_all(b"x").unwrap();
        }
        set.end(0).unwrap();
        for k in 0..2 {
            set.rename(k, &shard_name(&base, k, 2)).unwrap();
        }
        assert!(set.rename(0, &shard_name(&base, 1, 2)).is_err(), "taken by output 1");
        assert!(
            set.rename(0, &dir.path().join("sub").join("x")).is_err(),
            "another directory"
        );
        set.commit().unwrap();
        assert_eq!(
            names(dir.path()),
            ["t-00000-of-00002.tfrecord", "t-00001-of-00002.tfrecord"]
        );
    }

    #[test]
    fn sync_makes_written_exact_for_every_compression() {
        let dir = tempfile::tempdir().unwrap();
        for (name, threads) in [("a.gz", 1), ("b.gz", 4), ("c.zz", 1), ("d.snappy", 1), ("e", 1)] {
            let path = dir.path().join(name);
            let mut out = AtomicOutput::create_threaded(&path, Compression::from_name(&path), threads).unwrap();
            let data: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
            out.write_all(&data).unwrap();
            let synced = out.sync().unwrap();
            assert!(synced > 0, "{name}");
            out.commit().unwrap();
            let len = std::fs::metadata(&path).unwrap().len();
            assert!(len >= synced && len <= synced + 64, "{name}: {synced} then {len}");
        }
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
