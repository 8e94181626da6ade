//! JSON lines of any protobuf message to TFRecord records (`tfr from-jsonl
//! --message`): each line read as Python's `json_format.Parse` reads it
//! and written as its `SerializeToString(deterministic=True)`
//! ([`crate::proto::from_json`]); the lines read and the records written
//! in order as for Examples ([`super::convert`]). A line that is not the
//! message stops the run: `NAME:LINE: where: what`.

use super::Batch;
use crate::error::{bail, Result};
use crate::example::MessageType;
use crate::io::Input;
use crate::pipeline::{self, Sender};
use crate::proto::{from_json, Message};
use crate::record::append_framed;
use std::io::Write;

/// Converts the JSON lines of `inputs` into framed records of `msg`,
/// written in order to `out`; `update` is told the bytes and lines read.
pub fn convert_messages(
    inputs: &[Input],
    msg: &Message,
    max_line: u64,
    workers: usize,
    out: &mut (impl Write + Send),
    update: &(dyn Fn(u64, u64) + Sync),
) -> Result<()> {
    let work = |batch: &mut Batch, bytes: &mut Vec<u8>| -> Result<()> {
        for (n, line) in super::numbered_lines(&batch.data, batch.first_line) {
            if let Err(e) = append_framed(bytes, |o| from_json::encode_json(msg, line, o)) {
                let text = (e.starts_with("not JSON") || e.starts_with("not UTF-8")) && !line.starts_with(b"{");
                let hint = if n == 1 && text {
                    " (a TFRecord file? `tfr to-jsonl` reads those)"
                } else {
                    ""
                };
                bail!("{}:{n}: {e}{hint}", batch.name);
            }
        }
        Ok(())
    };
    let write = |bytes: &Vec<u8>| out.write_all(bytes);
    // (the payload type fixed: nothing is detected)
    let produce = |tx: &mut Sender<Batch>| {
        super::produce(
            inputs,
            crate::example::json::JsonFormat::Natural,
            &mut Some(MessageType::Raw),
            max_line,
            update,
            tx,
        )
    };
    pipeline::run(workers, produce, work, write)
}
