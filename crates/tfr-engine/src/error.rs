//! The engine's one error type, [`Error`]: what went wrong, told apart by
//! its variant (never by its text), with what was being done around it.
//!
//! The core's errors pass through whole ([`Error::Core`]: a damaged record
//! or a missing object is still matchable here); `Display` is the message
//! and `{:#}` adds the causes after `": "`, as the `tfr` binary prints them.

use crate::example::filter::UnmatchedNames;
use crate::example::DecodeError;
use crate::io::remote::RemoteError;
use crate::pipeline::Stopped;
use crate::record::ReadError;
use std::fmt;
use std::io;

/// A result whose error is the engine's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An error of the engine library.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The core library's error (reading, decoding, object stores).
    Core(tfr_core::Error),
    /// An operating-system I/O error, most often writing an output
    /// (`BrokenPipe`: its reader went away).
    Io(io::Error),
    /// Input, a schema or options the engine cannot take, in words.
    Invalid(String),
    /// A TensorFlow Datasets folder, or the way it is asked for, that tfr
    /// cannot take (its metadata, a `--split`, a record's feature).
    Tfds(crate::tfds::TfdsError),
    /// `--strict`: feature names no record read has.
    UnmatchedNames(UnmatchedNames),
    /// A pass stopped early because its consumer stopped (another part
    /// failed first, or the output went away).
    Stopped(&'static str),
    /// Another library's error (Parquet, Arrow, CSV, JSON), or a caller's
    /// own error carried through a pass, as it was reported.
    Other(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// An error and what was being done when it happened (a file's name, a
    /// record's place).
    Context {
        /// What was being done.
        context: String,
        /// What went wrong.
        source: Box<Error>,
    },
}

tfr_core::error_helpers!($);

impl Error {
    /// Another library's (or the caller's) error.
    pub fn other(e: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Error {
        Error::Other(e.into())
    }

    /// The I/O error at the root, if it is one, also under the core's
    /// contexts.
    pub fn io_error(&self) -> Option<&io::Error> {
        match self.root() {
            Error::Io(e) => Some(e),
            Error::Core(e) => e.io_error(),
            _ => None,
        }
    }

    /// The core's error at the root, if it is one.
    pub fn core_error(&self) -> Option<&tfr_core::Error> {
        match self.root() {
            Error::Core(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the root is a closed pipe on output.
    pub fn is_broken_pipe(&self) -> bool {
        self.io_error().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each message on its own (`{}` drops the alternate flag, so an
        // error that prints its own causes under `{:#}` does not print them
        // twice); the causes follow under `{:#}`.
        match self {
            Error::Core(e) => write!(f, "{e}")?,
            Error::Io(e) => write!(f, "{e}")?,
            Error::Invalid(m) => f.write_str(m)?,
            Error::Tfds(e) => write!(f, "{e}")?,
            Error::UnmatchedNames(e) => write!(f, "{e}")?,
            Error::Stopped(what) => f.write_str(what)?,
            Error::Other(e) => write!(f, "{e}")?,
            Error::Context { context, .. } => f.write_str(context)?,
        }
        tfr_core::error::write_causes(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Core(e) => e.source(),
            Error::Io(e) => e.source(),
            Error::UnmatchedNames(e) => e.source(),
            Error::Invalid(_) | Error::Stopped(_) | Error::Tfds(_) => None,
            Error::Other(e) => e.source(),
            Error::Context { source, .. } => Some(&**source),
        }
    }
}

/// `From` for the errors the engine passes on as they are.
macro_rules! from {
    ($($ty:ty => $variant:expr),* $(,)?) => {
        $(impl From<$ty> for Error {
            fn from(e: $ty) -> Error {
                $variant(e)
            }
        })*
    };
}

from! {
    tfr_core::Error => Error::Core,
    io::Error => Error::Io,
    UnmatchedNames => Error::UnmatchedNames,
    crate::tfds::TfdsError => Error::Tfds,
    ReadError => |e: ReadError| Error::Core(e.into()),
    DecodeError => |e: DecodeError| Error::Core(e.into()),
    RemoteError => |e: RemoteError| Error::Core(e.into()),
    Stopped => |_| Error::Stopped("output stopped"),
    serde_json::Error => Error::other,
    std::string::FromUtf8Error => Error::other,
    std::str::Utf8Error => Error::other,
    tempfile::PersistError => |e: tempfile::PersistError| Error::Io(e.error),
}

#[cfg(feature = "parquet")]
from! {
    parquet::errors::ParquetError => Error::other,
    arrow_schema::ArrowError => Error::other,
}

#[cfg(feature = "csv")]
from! {
    csv::Error => Error::other,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_show_outermost_first_and_keep_the_kind() {
        let e: std::result::Result<(), io::Error> = Err(io::Error::new(io::ErrorKind::BrokenPipe, "gone"));
        let e = e.context("writing output").unwrap_err().context("to-jsonl");
        assert_eq!(e.to_string(), "to-jsonl");
        assert_eq!(format!("{e:#}"), "to-jsonl: writing output: gone");
        assert!(e.is_broken_pipe());
        let core = tfr_core::Error::from(io::Error::new(io::ErrorKind::NotFound, "no file")).context("a.tfrecord");
        let e = Error::from(core).context("reading");
        assert_eq!(format!("{e:#}"), "reading: a.tfrecord: no file");
        assert!(e.core_error().is_some_and(tfr_core::Error::is_not_found));
        let none: Option<u8> = None;
        assert_eq!(none.context("no value").unwrap_err().to_string(), "no value");
    }

    #[test]
    fn a_callers_error_keeps_its_causes() {
        let inner = Error::msg("bad value").context("record 3");
        let e = Error::other(inner).context("counting");
        assert_eq!(format!("{e:#}"), "counting: record 3: bad value");
    }
}

thread_local! {
    /// Set while [`catch_panic`] runs on this thread.
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a panic on this thread is being caught by [`catch_panic`]: a
/// process's panic hook should then stay quiet and let it unwind.
pub fn panic_is_caught() -> bool {
    CATCHING.with(|c| c.get())
}

/// Runs `f`, turning a panic in it into `Err(its message)`: for libraries
/// that panic on some damaged input instead of returning an error
/// (arrow-ipc's buffer slicing, prost-reflect on some forged descriptor
/// sets).
pub fn catch_panic<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    let before = CATCHING.with(|c| c.replace(true));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(before));
    out.map_err(|payload| {
        let text = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "a panic without a message".to_string()
        };
        text.replace('\n', ": ")
    })
}
