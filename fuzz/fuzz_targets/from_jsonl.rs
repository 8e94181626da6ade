//! Fuzzes the JSON-lines encoder (`tfr from-jsonl`) against serde_json:
//! accept/reject agreement, no panic, output untouched on error; the checks
//! live in `tfr::fuzz_check::from_jsonl` so that findings replay as unit
//! tests (fuzz/regressions/from_jsonl/).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tfr::fuzz_check::from_jsonl(data));
