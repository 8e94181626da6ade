//! tfr's engine: the work over whole datasets, on top of `tfr-core`.
//!
//! - [`access`]: records of several inputs by number (`cat --records`).
//! - [`pipeline`]: the ordered worker pool every pass over records runs on,
//!   and the reshaping passes (shuffle).
//! - [`schema`]: per-feature statistics of a dataset, schemas and anomalies
//!   (TFDV's formats), and their renderings.
//! - [`parse`]: records decoded into typed values by a parse spec, as
//!   `tf.io.parse_example` decodes them (the Python reader's records).
//! - [`report`]: the HTML report.
//! - `view` (feature `view`): the local web viewer of `tfr view`.
//! - `columnar` (feature `parquet`): records as Arrow columns and back.
//! - [`formats`]: the conversion formats (WebDataset, JSON lines, CSV,
//!   files, Parquet/Arrow outputs, TFRecord shards), one module each: its
//!   options and its work, for a thin command to call.

#![warn(missing_docs)]

// The core's layers, under the names the engine's modules use.
pub(crate) use tfr_core::{example, io, record};

pub mod access;
pub mod annotate;
#[cfg(feature = "parquet")]
pub mod columnar;
pub mod error;
pub mod formats;
pub mod parse;
pub mod pipeline;
pub mod proto;
#[cfg(feature = "report")]
pub mod report;
pub mod schema;
pub mod tfds;
#[cfg(feature = "view")]
pub mod view;

pub use error::{Error, Result};
