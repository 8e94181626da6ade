//! Integration tests for the `tfr` binary: one test binary, one module per command.

// A test crate: which of its items are `pub` does not matter.
#![allow(unreachable_pub)]

mod util;

// The owned message types the library's own tests use (prost derive), to
// build test payloads; the library ships them only for tests and fuzzing.
#[path = "../../crates/tfr-core/src/example/proto.rs"]
#[allow(dead_code, unreachable_pub, clippy::enum_variant_names)]
mod proto;

mod annotations_check;
mod annotations_report;
mod browser;
mod cat;
#[cfg(feature = "parquet")]
mod columnar;
#[cfg(feature = "parquet")]
mod columnar_inputs;
#[cfg(feature = "parquet")]
mod columnar_kinds;
#[cfg(feature = "parquet")]
mod columnar_limits;
#[cfg(feature = "report")]
mod compare;
mod count;
mod docs;
mod drift;
mod elwc;
mod events;
mod extract;
#[cfg(feature = "parquet")]
mod from_shards;
#[cfg(feature = "parquet")]
mod hf_inputs;
mod index;
mod jobs;
mod jsonl;
mod jsonl_errors;
mod jsonl_kinds;
mod jsonl_random;
mod layers;
mod limits_inputs;
mod limits_jsonl;
mod limits_process;
mod limits_records;
mod limits_schema;
mod oracle;
mod outputs;
mod part;
mod process;
mod proto_from_jsonl;
mod proto_hostile;
mod proto_message;
#[cfg(feature = "parquet")]
mod proto_parquet;
mod proto_serving;
mod proto_where;
mod ray;
mod readable;
mod reader;
mod readme;
mod records;
mod records_remote;
mod regressions_inflate;
mod remote;
mod remote_hostile;
mod remote_http;
mod remote_stores;
mod report;
mod reshard;
mod review3;
mod scalars;
mod schema;
mod shuffle;
mod snappy;
mod split;
mod stats;
mod suite;
mod tensorflow;
mod tensors;
mod tfds;
#[cfg(feature = "parquet")]
mod tfds_oracle;
#[cfg(feature = "parquet")]
mod tfds_parquet_opts;
mod tfds_remote;
mod to_csv;
mod validate;
mod validate_env;
mod verify_crc;
mod verify_crc_payloads;
#[cfg(feature = "view")]
mod view;
#[cfg(feature = "view")]
mod view_data;
#[cfg(feature = "view")]
mod view_page;
mod wds;
#[cfg(feature = "wds")]
mod wds_json;
mod wds_kinds;
mod wheel;
mod where_;
