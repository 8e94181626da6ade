//! Atomic output files: written to a temporary file in the target's
//! directory and renamed over the target only on success, optionally
//! gzip- or zlib-compressed; `-` writes to stdout.
//!
//! A run that fails (or panics, or drops the output without committing)
//! leaves no partial file behind and an existing target untouched. The data
//! is not fsynced before the rename: this protects against failed runs, not
//! against power loss.

use super::deflate::ParallelGzip;
use super::input::show_path;
use super::made_dirs::MadeDirs;
use super::snappy::SnappyWriter;
use super::Compression;
use crate::error::{Context, Result};
use flate2::write::{GzEncoder, ZlibEncoder};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tempfile::{NamedTempFile, TempPath};

/// Buffer in front of the file or the compressor.
const BUF_SIZE: usize = 256 * 1024;

/// Where the bytes go before `commit`.
enum Dest {
    /// A temporary file next to the target.
    Temp(NamedTempFile),
    /// The temporary file once all its bytes are written: closed (a set of
    /// thousands of outputs holds no descriptor per ended one), its path
    /// kept for the rename (and removed if dropped).
    Closed(TempPath),
    /// Something that is not a regular file (a device such as /dev/null, a
    /// FIFO, /dev/stdout): written in place, never replaced.
    Direct(std::fs::File),
    Stdout(io::Stdout),
    /// An object in a store: uploaded in parts, completed in `commit`,
    /// aborted when dropped.
    Upload(super::remote::Upload),
}

impl Write for Dest {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Dest::Temp(f) => f.as_file_mut().write(buf),
            Dest::Closed(_) => Err(closed()),
            Dest::Direct(f) => f.write(buf),
            Dest::Stdout(s) => s.write(buf),
            Dest::Upload(u) => u.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Dest::Temp(f) => f.as_file_mut().write_all(buf),
            Dest::Closed(_) => Err(closed()),
            Dest::Direct(f) => f.write_all(buf),
            Dest::Stdout(s) => s.write_all(buf),
            Dest::Upload(u) => u.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Dest::Temp(f) => f.as_file_mut().flush(),
            Dest::Closed(_) => Ok(()),
            Dest::Direct(f) => f.flush(),
            Dest::Stdout(s) => s.flush(),
            Dest::Upload(u) => u.flush(),
        }
    }
}

/// What [`AtomicOutput`] does with an existing target that is not a
/// regular file (a FIFO, a device, a socket).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Existing {
    /// Writes into it (`-o /dev/null`, `-o /dev/stdout`, a FIFO the user
    /// named).
    WriteInPlace,
    /// Refuses it: see [`AtomicOutput::create_file`].
    Refuse,
}

/// What a file that is not a regular file or a directory is, for messages.
pub fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    let _ = meta;
    "a special file"
}

/// Writing to a temporary file already closed (a bug: [`Finished`] does not write).
fn closed() -> io::Error {
    io::Error::other("the output was already closed")
}

/// The destination, counting the bytes that reached it (what lands on
/// disk or in the store: compressed, if the output is).
struct Counted {
    dest: Dest,
    written: Arc<AtomicU64>,
}

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.dest.write(buf)?;
        self.written.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.dest.flush()
    }
}

/// The encoder in front of the destination.
enum Sink {
    Plain(BufWriter<Counted>),
    Gzip(GzEncoder<BufWriter<Counted>>),
    ParallelGzip(ParallelGzip<BufWriter<Counted>>),
    Zlib(ZlibEncoder<BufWriter<Counted>>),
    /// Boxed: snappy's encoder carries its hash table inline.
    Snappy(Box<SnappyWriter<BufWriter<Counted>>>),
}

/// An output file that appears, complete, only when [`commit`](AtomicOutput::commit) succeeds.
pub struct AtomicOutput {
    sink: Sink,
    /// The final path; `None` for stdout or a non-regular file.
    target: Option<PathBuf>,
    /// The name for messages: the path as given, or `<stdout>`.
    name: String,
    /// Bytes that reached the destination so far.
    written: Arc<AtomicU64>,
    /// Removes the temporary file if the process is interrupted.
    _cleanup: Option<cleanup::Guard>,
    /// The missing directories made for it (last: dropped after the
    /// temporary file, so they are empty then).
    dirs: Option<MadeDirs>,
}

/// An [`AtomicOutput`] whose bytes are all written (its compressed stream
/// ended, flushed to the temporary file or the last part sent) but not yet
/// in place: [`publish`](Finished::publish) renames it over its target (or
/// completes the upload); dropped, it is removed (or aborted) as an
/// unfinished output is. Lets a set of outputs be published together only
/// once every one of them was written ([`super::output_set`]).
pub struct Finished {
    dest: Dest,
    target: Option<PathBuf>,
    name: String,
    _cleanup: Option<cleanup::Guard>,
    dirs: Option<MadeDirs>,
}

impl AtomicOutput {
    /// Starts writing `path` (`-` for stdout) with the given compression.
    /// The temporary file is created right away, so an unwritable directory
    /// fails here, before any work.
    pub fn create(path: &Path, compression: Compression) -> Result<AtomicOutput> {
        AtomicOutput::create_threaded(path, compression, 1)
    }

    /// [`create`](AtomicOutput::create), compressing gzip on `threads`
    /// threads when more than one (see [`super::deflate`]).
    pub fn create_threaded(path: &Path, compression: Compression, threads: usize) -> Result<AtomicOutput> {
        AtomicOutput::open(path, compression, threads, Existing::WriteInPlace)
    }

    /// [`create`](AtomicOutput::create) for a name tfr makes (a shard's,
    /// an extracted file's), not one the user gave whole: an existing
    /// FIFO, device or socket there is refused (one line), never opened
    /// (a FIFO's open waits for a reader for ever; a device would be
    /// written into). Nothing but a temporary file is ever opened.
    pub fn create_file(path: &Path, compression: Compression) -> Result<AtomicOutput> {
        AtomicOutput::create_file_threaded(path, compression, 1)
    }

    /// [`create_file`](AtomicOutput::create_file) on `threads` threads.
    pub fn create_file_threaded(path: &Path, compression: Compression, threads: usize) -> Result<AtomicOutput> {
        AtomicOutput::open(path, compression, threads, Existing::Refuse)
    }

    fn open(path: &Path, compression: Compression, threads: usize, special: Existing) -> Result<AtomicOutput> {
        let mut guard = None;
        let mut dirs = None;
        let as_bytes = path.as_os_str().as_encoded_bytes();
        if let Some(local) = super::remote::file_url(as_bytes) {
            let local = PathBuf::from(String::from_utf8_lossy(local).into_owned());
            return AtomicOutput::open(&local, compression, threads, special);
        }
        let (dest, target) = if path.as_os_str() == "-" {
            (Dest::Stdout(io::stdout()), None)
        } else if let Some(parsed) = super::remote::parse(as_bytes) {
            (Dest::Upload(super::remote::Upload::create(&parsed?)?), None)
        } else {
            match std::fs::metadata(path) {
                Ok(meta) if meta.is_dir() => crate::error::bail!("{}: is a directory", show_path(path)),
                Ok(meta) if !meta.is_file() && special == Existing::Refuse => crate::error::bail!(
                    "{}: is {}, not a regular file: not writing into it (remove it first)",
                    show_path(path),
                    kind_of(&meta)
                ),
                Ok(meta) if !meta.is_file() => {
                    let file = std::fs::OpenOptions::new()
                        .write(true)
                        .open(path)
                        .with_context(|| format!("{}: cannot open for writing", show_path(path)))?;
                    (Dest::Direct(file), None)
                }
                Ok(meta) if meta.permissions().readonly() => crate::error::bail!(
                    "{}: is read-only; not replacing it (remove it, or make it writable, first)",
                    show_path(path)
                ),
                existing => {
                    // Missing directories are made, as `mkdir -p` (by
                    // every writer alike), and removed if it fails.
                    if existing.is_err() {
                        dirs = Some(MadeDirs::above(path, "")?);
                    }
                    // Through a symlink, replace (or create) the file it
                    // points to, not the link, as `cp` does.
                    let real = match existing {
                        Ok(_) => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
                        Err(_) => dangling_target(path),
                    };
                    // Made and registered under the clean-up's lock: a
                    // signal's clean-up never misses it.
                    let (temp, registered) = cleanup::create_registered(|| temp_file_for(&real))?;
                    if let Ok(meta) = existing {
                        keep_mode_and_owner(&temp, &meta);
                    }
                    guard = Some(registered);
                    (Dest::Temp(temp), Some(real))
                }
            }
        };
        let written = Arc::new(AtomicU64::new(0));
        let counted = Counted {
            dest,
            written: Arc::clone(&written),
        };
        let buffered = BufWriter::with_capacity(BUF_SIZE, counted);
        let level = flate2::Compression::default();
        let sink = match compression {
            Compression::None => Sink::Plain(buffered),
            Compression::Gzip if threads > 1 => Sink::ParallelGzip(
                ParallelGzip::new(buffered, level, threads)
                    .with_context(|| format!("{}: write failed", show_path(path)))?,
            ),
            Compression::Gzip => Sink::Gzip(GzEncoder::new(buffered, level)),
            Compression::Zlib => Sink::Zlib(ZlibEncoder::new(buffered, level)),
            Compression::Snappy => Sink::Snappy(Box::new(SnappyWriter::new(buffered))),
        };
        Ok(AtomicOutput {
            sink,
            target,
            name: if path.as_os_str() == "-" {
                "<stdout>".to_string()
            } else {
                show_path(path)
            },
            written,
            _cleanup: guard,
            dirs,
        })
    }

    /// Bytes that reached the destination so far (compressed bytes for a
    /// compressed output; what a compressor or the buffer still holds is
    /// not counted until [`flush`](Write::flush), which for gzip and zlib
    /// is a sync flush, for SNAPPY the end of a block).
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }

    /// The name to use in messages: the target path, or `<stdout>`.
    pub fn display(&self) -> String {
        self.name.clone()
    }

    /// Writes out everything written so far, compressed (a sync flush for
    /// gzip and zlib, the end of a block for SNAPPY; gzip on several
    /// threads waits for them), and returns [`written`](Self::written):
    /// then exact, and the whole file once finished is at most a few bytes
    /// more (the final block and trailer) plus what is written after.
    pub fn sync(&mut self) -> io::Result<u64> {
        match &mut self.sink {
            Sink::ParallelGzip(w) => w.sync()?,
            _ => self.flush()?,
        }
        Ok(self.written())
    }

    /// Puts the file in place under `path` instead (in the same directory
    /// as the target it was created for: the temporary file is there).
    /// Only for a file: an upload's object, or stdout, keeps its name.
    pub(super) fn set_target(&mut self, path: &Path) -> Result<()> {
        retarget(&mut self.target, &mut self.name, path)
    }

    /// Finishes the compressed stream, flushes, and renames the temporary
    /// file over the target (or completes the upload).
    pub fn commit(self) -> Result<()> {
        self.finish()?.publish()
    }

    /// Finishes the compressed stream and flushes every byte to the
    /// temporary file (or sends the upload's last part); nothing is in
    /// place yet: see [`Finished::publish`].
    pub fn finish(self) -> Result<Finished> {
        let name = self.display();
        let buffered = match self.sink {
            Sink::Plain(w) => w,
            Sink::Gzip(w) => w.finish().with_context(|| format!("{name}: write failed"))?,
            Sink::ParallelGzip(w) => w.finish().with_context(|| format!("{name}: write failed"))?,
            Sink::Zlib(w) => w.finish().with_context(|| format!("{name}: write failed"))?,
            Sink::Snappy(w) => w.finish().with_context(|| format!("{name}: write failed"))?,
        };
        let mut dest = buffered
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("{name}: write failed"))?
            .dest;
        if !matches!(dest, Dest::Upload(_)) {
            dest.flush().with_context(|| format!("{name}: write failed"))?;
        }
        if let Dest::Temp(temp) = dest {
            dest = Dest::Closed(temp.into_temp_path());
        }
        Ok(Finished {
            dest,
            target: self.target,
            name,
            _cleanup: self._cleanup,
            dirs: self.dirs,
        })
    }
}

impl Finished {
    /// The name to use in messages: the target path, or `<stdout>`.
    pub fn display(&self) -> &str {
        &self.name
    }

    /// [`AtomicOutput::set_target`] for an output already written.
    pub(super) fn set_target(&mut self, path: &Path) -> Result<()> {
        retarget(&mut self.target, &mut self.name, path)
    }

    /// Renames the temporary file over the target (or completes the upload).
    pub fn publish(self) -> Result<()> {
        let name = self.name;
        match (self.dest, self.target) {
            (Dest::Temp(temp), Some(target)) => {
                temp.persist(&target)
                    .map_err(|e| e.error)
                    .with_context(|| format!("{name}: cannot rename the temporary file into place"))?;
            }
            (Dest::Closed(temp), Some(target)) => {
                temp.persist(&target)
                    .map_err(|e| e.error)
                    .with_context(|| format!("{name}: cannot rename the temporary file into place"))?;
            }
            (Dest::Upload(upload), _) => upload.commit()?,
            _ => {}
        }
        if let Some(dirs) = self.dirs {
            dirs.keep();
        }
        Ok(())
    }

    /// The path the temporary file will be renamed to (`None` for stdout, a
    /// device, or an upload).
    pub(crate) fn target(&self) -> Option<&Path> {
        self.target.as_deref()
    }
}

impl Write for AtomicOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Plain(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
            Sink::ParallelGzip(w) => w.write(buf),
            Sink::Zlib(w) => w.write(buf),
            Sink::Snappy(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Plain(w) => w.write_all(buf),
            Sink::Gzip(w) => w.write_all(buf),
            Sink::ParallelGzip(w) => w.write_all(buf),
            Sink::Zlib(w) => w.write_all(buf),
            Sink::Snappy(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Plain(w) => w.flush(),
            Sink::Gzip(w) => w.flush(),
            Sink::ParallelGzip(w) => w.flush(),
            Sink::Zlib(w) => w.flush(),
            Sink::Snappy(w) => w.flush(),
        }
    }
}

/// A new target for a temporary file, in the old target's directory.
fn retarget(target: &mut Option<PathBuf>, name: &mut String, path: &Path) -> Result<()> {
    let Some(old) = target else {
        crate::error::bail!("{name}: only a local file can be renamed before it is in place");
    };
    let dir = |p: &Path| p.parent().map(Path::to_path_buf).unwrap_or_default();
    let new = match path.file_name() {
        Some(file) => dir(old).join(file),
        None => crate::error::bail!("{}: not a file name", show_path(path)),
    };
    if dir(path) != dir(Path::new(name.as_str())) && std::fs::canonicalize(dir(path)).ok() != Some(dir(old)) {
        crate::error::bail!("{}: not in the directory of {name}", show_path(path));
    }
    *target = Some(new);
    *name = show_path(path);
    Ok(())
}

/// Where a dangling symlink points (what writing through it creates), or
/// the path itself when it is not a symlink.
fn dangling_target(path: &Path) -> PathBuf {
    let mut real = path.to_path_buf();
    // Follow a chain of links, not a loop.
    for _ in 0..40 {
        match std::fs::read_link(&real) {
            Ok(target) if target.is_absolute() => real = target,
            Ok(target) => real = real.parent().unwrap_or(Path::new("")).join(target),
            Err(_) => break,
        }
    }
    real
}

/// Gives the temporary file the mode (and, where allowed, the owner) of the
/// file it will replace, so replacing a 0600 file keeps it private.
fn keep_mode_and_owner(temp: &NamedTempFile, old: &std::fs::Metadata) {
    let _ = temp.as_file().set_permissions(old.permissions());
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(temp.as_file(), Some(old.uid()), Some(old.gid()));
    }
}

/// Temporary files to remove, and uploads to abort, if the process is
/// killed by a signal it can catch.
pub mod cleanup {
    use std::collections::HashSet;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::{Mutex, Once, OnceLock};

    /// A set: registering and forgetting one of 100,000 shards' files
    /// costs the same as one.
    static PENDING: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    /// Directories created for outputs, to remove (if empty) after the
    /// files, deepest last in the list.
    static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    static HANDLER: Once = Once::new();
    /// What the program runs before the first registration (see
    /// [`on_first_registration`]).
    static ON_FIRST: OnceLock<fn()> = OnceLock::new();
    /// Set once the clean-up has begun: a temporary file registered after
    /// it would be missed, so it is removed at once instead.
    static CLEANING: AtomicBool = AtomicBool::new(false);

    /// Has `install` run once, just before the first temporary file, hook
    /// or directory is registered: the program's way to arrange for
    /// [`remove_pending`] to run when it is killed (the `tfr` binary
    /// installs its signal handling there, so a run that writes no output
    /// file keeps the default signal behaviour). The library itself
    /// catches no signal.
    pub fn on_first_registration(install: fn()) {
        let _ = ON_FIRST.set(install);
    }

    /// Runs the program's `install`, once.
    fn first_registration() {
        HANDLER.call_once(|| {
            if let Some(install) = ON_FIRST.get() {
                install();
            }
        });
    }

    /// Something to undo on a signal (an upload to abort), by number.
    type Hook = Box<dyn Fn() + Send>;
    static HOOKS: Mutex<Vec<(u64, Hook)>> = Mutex::new(Vec::new());
    static NEXT_HOOK: AtomicU64 = AtomicU64::new(0);

    /// Keeps a hook on the list while it lives.
    pub struct HookGuard(u64);

    /// Runs `hook` if a terminating signal arrives while the guard lives.
    pub fn on_signal(hook: Hook) -> HookGuard {
        first_registration();
        let id = NEXT_HOOK.fetch_add(1, Ordering::Relaxed);
        HOOKS.lock().unwrap_or_else(|e| e.into_inner()).push((id, hook));
        HookGuard(id)
    }

    impl Drop for HookGuard {
        fn drop(&mut self) {
            HOOKS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|(id, _)| *id != self.0);
        }
    }

    /// Keeps a temporary file on the list while it lives.
    pub struct Guard(PathBuf);

    impl Drop for Guard {
        fn drop(&mut self) {
            unregister(&self.0);
        }
    }

    /// Keeps directories created for outputs (outermost first) on the
    /// list while it lives.
    pub struct DirGuard(Vec<PathBuf>);

    impl DirGuard {
        /// Puts `dirs` on the list until the guard is dropped.
        pub fn new(dirs: &[PathBuf]) -> DirGuard {
            first_registration();
            DIRS.lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(dirs.iter().cloned());
            DirGuard(dirs.to_vec())
        }
    }

    impl Drop for DirGuard {
        fn drop(&mut self) {
            DIRS.lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|d| !self.0.contains(d));
        }
    }

    /// Removes every pending temporary file, runs every hook, then removes
    /// the directories created for outputs (those left empty): what a
    /// terminating signal does, for a process about to exit otherwise (a
    /// panic, which is a bug).
    pub fn remove_pending() {
        // Before the lock: a file registered after the lock is released
        // sees the flag (see `register`).
        CLEANING.store(true, Ordering::SeqCst);
        // Each lock released before the next is taken: a hook takes its own.
        for p in PENDING.lock().unwrap_or_else(|e| e.into_inner()).iter().flatten() {
            let _ = std::fs::remove_file(p);
        }
        for (_, hook) in HOOKS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            hook();
        }
        let dirs = DIRS.lock().unwrap_or_else(|e| e.into_inner());
        for d in dirs.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    }

    /// The clean-up has run or is running, and the process exits when it
    /// is done (every caller of `remove_pending` is about to exit): this
    /// thread writes nothing more.
    fn wait_for_exit() -> ! {
        loop {
            std::thread::park();
        }
    }

    /// Creates a temporary file with `create` and registers it (running
    /// the program's [`on_first_registration`] once), both
    /// under the lock the clean-up takes: a file is never on disk yet
    /// unknown to a clean-up that runs (a signal arriving between the two
    /// left it behind). After a clean-up began, nothing is created.
    pub fn create_registered(
        create: impl FnOnce() -> crate::error::Result<tempfile::NamedTempFile>,
    ) -> crate::error::Result<(tempfile::NamedTempFile, Guard)> {
        first_registration();
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        if CLEANING.load(Ordering::SeqCst) {
            drop(pending);
            wait_for_exit();
        }
        let temp = create()?;
        pending
            .get_or_insert_with(HashSet::new)
            .insert(temp.path().to_path_buf());
        let guard = Guard(temp.path().to_path_buf());
        Ok((temp, guard))
    }

    /// Forgets a temporary file (renamed into place or deleted).
    fn unregister(path: &Path) {
        if let Some(pending) = PENDING.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            pending.remove(path);
        }
    }
}

/// A temporary file in the directory of `path`, named after it, with the
/// permissions a newly created file would get (0666 less the umask).
fn temp_file_for(path: &Path) -> Result<NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir).map_err(without_temp_path).with_context(|| {
        format!(
            "{}: cannot create a temporary file in {}",
            show_path(path),
            show_path(dir)
        )
    })
}

/// `e` without the temporary path that `tempfile` appends (`... at path
/// "/dir/.name.XXXXXX.tmp"`): messages name the user's output, not a file
/// that never appears.
fn without_temp_path(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.rfind(" at path \"") {
        Some(cut) => io::Error::new(e.kind(), text[..cut].to_string()),
        None => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn appears_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        let mut out = AtomicOutput::create(&path, Compression::None).unwrap();
        out.write_all(b"hello").unwrap();
        assert!(!path.exists());
        out.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn dropped_output_leaves_the_old_file_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        std::fs::write(&path, b"old").unwrap();
        let mut out = AtomicOutput::create(&path, Compression::Gzip).unwrap();
        out.write_all(b"new").unwrap();
        drop(out);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn compresses_gzip_and_zlib() {
        let dir = tempfile::tempdir().unwrap();
        for c in [Compression::Gzip, Compression::Zlib] {
            let path = dir.path().join(c.name());
            let mut out = AtomicOutput::create(&path, c).unwrap();
            out.write_all(b"payload").unwrap();
            out.commit().unwrap();
            let raw = std::fs::read(&path).unwrap();
            let mut text = String::new();
            match c {
                Compression::Gzip => flate2::read::GzDecoder::new(&raw[..]).read_to_string(&mut text),
                _ => flate2::read::ZlibDecoder::new(&raw[..]).read_to_string(&mut text),
            }
            .unwrap();
            assert_eq!(text, "payload");
        }
    }

    #[cfg(unix)]
    #[test]
    fn gets_ordinary_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        AtomicOutput::create(&path, Compression::None)
            .unwrap()
            .commit()
            .unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert!(
            mode & 0o044 != 0 || mode == 0o600,
            "mode {mode:o} should follow the umask"
        );
    }

    #[test]
    fn missing_directories_are_made_and_removed_unless_committed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a/b/out");
        let written = AtomicOutput::create(&out, Compression::None).unwrap();
        assert!(dir.path().join("a/b").is_dir());
        drop(written);
        assert!(!dir.path().join("a").exists(), "removed with the dropped output");
        let mut written = AtomicOutput::create(&out, Compression::None).unwrap();
        written.write_all(b"x").unwrap();
        written.commit().unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"x");
        // Under a file no directory can be made: the user's path, and the
        // directory that could not be made, not tempfile's wording.
        let file = dir.path().join("file");
        std::fs::write(&file, b"").unwrap();
        let under = file.join("dir/out");
        let err = AtomicOutput::create(&under, Compression::None).err().unwrap();
        let msg = format!("{err:#}");
        assert!(
            msg.starts_with(&format!("{}: cannot create the directory", under.display())),
            "{msg}"
        );
        assert!(!msg.contains(".out.") && !msg.contains("at path"), "{msg}");
    }
}
