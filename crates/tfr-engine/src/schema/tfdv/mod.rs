//! TensorFlow Data Validation's files: statistics
//! (`DatasetFeatureStatisticsList`, proto/statistics.proto), schemas
//! (`Schema`, proto/schema.proto, as text format) and the checks of
//! `tfr validate`.

pub mod compare;
pub mod drift;
pub mod infer;
pub mod model;
pub mod pbtxt;
pub mod statistics;
pub mod stats_file;
pub mod validate;
