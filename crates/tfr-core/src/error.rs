//! The core's one error type, [`Error`]: what went wrong, told apart by
//! its variant (never by its text), with what was being done around it.
//!
//! Its `Display` is the message; `{:#}` adds the causes after `": "`, as
//! the `tfr` binary prints errors.

use crate::example::DecodeError;
use crate::io::remote::{RemoteError, RemoteErrorKind};
use crate::record::ReadError;
use std::fmt;
use std::io;

/// A result whose error is the core's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An error of the core library.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An operating-system I/O error (opening, reading, writing, renaming).
    Io(io::Error),
    /// Damaged or unreadable TFRecord framing.
    Read(ReadError),
    /// A payload that is not the message it was read as.
    Decode(DecodeError),
    /// An object store or HTTP(S) server's answer (see [`RemoteErrorKind`]).
    Remote(RemoteError),
    /// An input, argument or setting the library cannot take, in words.
    Invalid(String),
    /// An input over a size limit the library holds to, in words.
    TooLarge(String),
    /// Another library's error (a JSON or pattern parser, an object
    /// store's client), as it reported it.
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

impl Error {
    /// Another library's error.
    pub fn other(e: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error::Other(Box::new(e))
    }

    /// The I/O error at the root, if it is one (`BrokenPipe`: the reader
    /// of the output went away).
    pub fn io_error(&self) -> Option<&io::Error> {
        match self.root() {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }

    /// The object store's answer at the root, if it is one.
    pub fn remote_error(&self) -> Option<&RemoteError> {
        match self.root() {
            Error::Remote(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the root is a missing object, bucket or file: an object
    /// store's "not found", or a local file's `NotFound`.
    pub fn is_not_found(&self) -> bool {
        match self.root() {
            Error::Remote(e) => e.kind == RemoteErrorKind::NotFound,
            Error::Io(e) => e.kind() == io::ErrorKind::NotFound,
            _ => false,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = match self {
            Error::Io(e) => fmt::Display::fmt(e, f),
            Error::Read(e) => fmt::Display::fmt(e, f),
            Error::Decode(e) => fmt::Display::fmt(e, f),
            Error::Remote(e) => fmt::Display::fmt(e, f),
            Error::Invalid(m) | Error::TooLarge(m) => f.write_str(m),
            Error::Other(e) => fmt::Display::fmt(e, f),
            Error::Context { context, .. } => f.write_str(context),
        };
        shown?;
        write_causes(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => e.source(),
            Error::Read(e) => e.source(),
            Error::Decode(e) => e.source(),
            Error::Remote(e) => e.source(),
            Error::Invalid(_) | Error::TooLarge(_) => None,
            Error::Other(e) => e.source(),
            Error::Context { source, .. } => Some(&**source),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}

impl From<ReadError> for Error {
    fn from(e: ReadError) -> Error {
        Error::Read(e)
    }
}

impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Error {
        Error::Decode(e)
    }
}

impl From<RemoteError> for Error {
    fn from(e: RemoteError) -> Error {
        Error::Remote(e)
    }
}

/// Under `{:#}` (`f.alternate()`), the causes of `e` (its `source()`
/// chain), each after `": "`; nothing otherwise. The end of an error's
/// `Display` in tfr's libraries.
pub fn write_causes(e: &dyn std::error::Error, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if f.alternate() {
        let mut next = e.source();
        while let Some(cause) = next {
            write!(f, ": {cause}")?;
            next = cause.source();
        }
    }
    Ok(())
}

/// What each of tfr's libraries has around its own error type, written
/// once: called as `error_helpers!($)` in a crate's `error` module, whose
/// `Error` has `Invalid(String)` and `Context { context, source }`
/// variants, it defines `Error::msg`, `Error::context` and `Error::root`,
/// the `Context` trait (`.context(…)` and `.with_context(|| …)` on
/// results and options) and the crate-private `bail!` and `err!` macros
/// (an `Invalid` error with a formatted message, or any `Display`). The
/// `$` passed in is the inner macros' own.
// `crate::error` (not `$crate`) on purpose: the calling crate's own error.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! error_helpers {
    ($d:tt) => {
        impl Error {
            /// An error described by `message`.
            pub fn msg(message: impl fmt::Display) -> Error {
                Error::Invalid(message.to_string())
            }

            /// This error with what was being done around it.
            pub fn context(self, context: impl fmt::Display) -> Error {
                Error::Context {
                    context: context.to_string(),
                    source: Box::new(self),
                }
            }

            /// The error under the contexts.
            pub fn root(&self) -> &Error {
                match self {
                    Error::Context { source, .. } => source.root(),
                    e => e,
                }
            }
        }

        /// `.context(…)` and `.with_context(|| …)` on results and options: the
        /// error (or a missing value) with what was being done.
        pub trait Context<T> {
            /// The error, if any, with `context` around it.
            fn context(self, context: impl fmt::Display) -> Result<T>;
            /// The error, if any, with the context `f` makes around it.
            fn with_context<C: fmt::Display>(self, f: impl FnOnce() -> C) -> Result<T>;
        }

        impl<T, E: Into<Error>> Context<T> for std::result::Result<T, E> {
            fn context(self, context: impl fmt::Display) -> Result<T> {
                self.map_err(|e| e.into().context(context))
            }

            fn with_context<C: fmt::Display>(self, f: impl FnOnce() -> C) -> Result<T> {
                self.map_err(|e| e.into().context(f()))
            }
        }

        impl<T> Context<T> for Option<T> {
            fn context(self, context: impl fmt::Display) -> Result<T> {
                self.ok_or_else(|| Error::msg(context))
            }

            fn with_context<C: fmt::Display>(self, f: impl FnOnce() -> C) -> Result<T> {
                self.ok_or_else(|| Error::msg(f()))
            }
        }

        /// Returns an `Error::Invalid` with a formatted message (or a
        /// message that is any `Display`).
        #[allow(unused_macros)]
        macro_rules! bail {
                                                    ($d($d arg:tt)*) => {
                                                        return Err(crate::error::err!($d($d arg)*))
                                                    };
                                                }

        /// An `Error::Invalid` with a formatted message (or a message that
        /// is any `Display`).
        #[allow(unused_macros)]
        macro_rules! err {
                                                    ($d fmt:literal $d(, $d($d arg:tt)*)?) => {
                                                        crate::error::Error::msg(format!($d fmt $d(, $d($d arg)*)?))
                                                    };
                                                    ($d message:expr $d(,)?) => {
                                                        crate::error::Error::msg($d message)
                                                    };
                                                }

        #[allow(unused_imports)]
        pub(crate) use {bail, err};
    };
}

error_helpers!($);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_show_outermost_first_and_keep_the_kind() {
        let e: std::result::Result<(), io::Error> = Err(io::Error::new(io::ErrorKind::NotFound, "gone"));
        let e = e.context("opening a.tfrecord").unwrap_err().context("reading");
        assert_eq!(e.to_string(), "reading");
        assert_eq!(format!("{e:#}"), "reading: opening a.tfrecord: gone");
        assert!(e.is_not_found());
        assert_eq!(e.io_error().map(io::Error::kind), Some(io::ErrorKind::NotFound));
        let none: Option<u8> = None;
        assert_eq!(none.context("no value").unwrap_err().to_string(), "no value");
    }
}
