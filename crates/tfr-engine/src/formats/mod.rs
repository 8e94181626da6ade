//! Conversion formats: one module per format tfr converts records to or
//! from, each exporting its options and its workers (`Work`), sink or
//! producer, so that a command only turns its arguments into those
//! options and makes one call (ARCHITECTURE.md, "A conversion format").

#[cfg(feature = "parquet")]
pub mod columnar_in;
#[cfg(feature = "parquet")]
pub mod columnar_out;
#[cfg(feature = "csv")]
pub mod csv;
pub mod files;
pub mod jsonl;
#[cfg(feature = "parquet")]
pub mod message_parquet;
pub mod tfrecord_out;
#[cfg(feature = "wds")]
pub mod wds;
