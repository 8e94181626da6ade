//! tfr's core: TFRecord bytes and payloads, with no command line in it.
//!
//! Each layer uses only the ones above it in this list (ARCHITECTURE.md
//! has the whole map):
//!
//! - [`error`]: the one error type ([`Error`]) of them all.
//! - [`io`]: bytes — inputs, compression, read-ahead, atomic output files,
//!   object stores (feature `remote`).
//! - [`record`]: TFRecord framing — reader, writer, damage, resync, parallel walk.
//! - [`example`]: payloads — tf.train.Example / SequenceExample decoding,
//!   text format, the JSONL mapping both ways.
//!
//! `tfr-engine` builds the dataset-wide work on it, and the `tfr` crate
//! the command line.

#![warn(missing_docs)]

pub mod error;
pub mod example;
pub mod io;
pub mod record;
pub use error::{Error, Result};
