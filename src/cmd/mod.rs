//! One module per subcommand: its `Args` struct (the `///` comments are the
//! help text) and a `run()`. Nothing outside `cmd/` and `cli.rs` imports
//! from here; shared machinery lives in the layers below (see ARCHITECTURE.md).

pub(crate) mod cat;
pub(crate) mod count;
pub(crate) mod extract;
pub(crate) mod from_jsonl;
#[cfg(feature = "parquet")]
pub(crate) mod from_parquet;
#[cfg(feature = "wds")]
pub(crate) mod from_wds;
pub(crate) mod index;
pub(crate) mod report;
pub(crate) mod reshard;
pub(crate) mod schema;
pub(crate) mod shuffle;
pub(crate) mod split;
pub(crate) mod stats;
#[cfg(feature = "parquet")]
pub(crate) mod to_arrow;
#[cfg(feature = "csv")]
pub(crate) mod to_csv;
pub(crate) mod to_jsonl;
#[cfg(feature = "parquet")]
pub(crate) mod to_parquet;
#[cfg(feature = "wds")]
pub(crate) mod to_wds;
pub(crate) mod validate;
pub(crate) mod verify_crc;
