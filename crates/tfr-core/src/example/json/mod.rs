//! Records as JSON lines and back.
//!
//! - [`render`]: a payload → one JSON line, in the natural JSONL mapping
//!   (`tfr to-jsonl`, `cat --format json`) or protobuf's JSON mapping
//!   (`--format protojson`). The mapping is documented there.
//! - [`encode`]: a JSON line → payload bytes (`tfr from-jsonl`), through a
//!   small [`lexer`]; [`schema_file`] reads the kinds `--schema` forces.

pub mod encode;
mod lexer;
pub mod render;
pub mod schema_file;

pub use encode::{detect, Encoder, LineError, Section};
pub use render::{render_json, render_protojson};
pub use schema_file::Schema;

/// Which JSON mapping: the syntax of to-jsonl's output and from-jsonl's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum JsonFormat {
    /// The natural JSONL mapping: {"name": [v, ...], ...}.
    #[default]
    Natural,
    /// Protobuf's JSON mapping (json_format.MessageToJson, one line).
    Protojson,
}
