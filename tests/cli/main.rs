//! Integration tests for the `tfr` binary: one test binary, one module per command.

mod util;

mod cat;
mod count;
mod docs;
mod jobs;
mod jsonl;
mod oracle;
mod outputs;
mod process;
mod regressions_inflate;
mod schema;
mod verify_crc;
