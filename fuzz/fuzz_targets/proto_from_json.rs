//! Fuzzes `from-jsonl --message` (JSON lines of any protobuf message,
//! `tfr_engine::proto::from_json`): no panic, nothing written on an error,
//! what is written prints and reads back to the same bytes; the checks
//! live in `tfr::fuzz_check::proto_from_json` so that findings replay as
//! unit tests (fuzz/regressions/proto_from_json/).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tfr::fuzz_check::proto_from_json(data));
