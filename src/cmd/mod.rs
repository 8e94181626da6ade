//! One module per subcommand; each has an `Args` struct and a `run()`.

pub mod batches;
pub mod cat;
pub mod count;
pub mod from_jsonl;
pub mod jsonl_pipeline;
pub mod schema;
pub mod to_jsonl;
pub mod verify_crc;

use crate::input::{self, Input};
use crate::record::{ReadError, RecordReader};
use anyhow::Result;

/// Opens one input for reading records, with the file named in any error.
pub fn open_input(input: &Input, args: &crate::cli::InputArgs) -> Result<RecordReader> {
    input::open(input, args.compression.forced())
}

/// Names the input in a reader error.
pub fn read_error(input: &Input, e: ReadError) -> anyhow::Error {
    let name = input.display();
    match e {
        ReadError::Damage(d) => anyhow::Error::new(d).context(name),
        ReadError::Io(e) => anyhow::Error::new(e).context(format!("{name}: read failed")),
    }
}

/// Expands the inputs of a command.
pub fn inputs(args: &crate::cli::InputArgs) -> Result<Vec<Input>> {
    input::expand(&args.files)
}
