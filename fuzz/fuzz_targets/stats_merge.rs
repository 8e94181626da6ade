//! Fuzzes `tfr stats --merge` with forged saved statistics: a generated
//! saved file edited at the places the input picks, with hostile values;
//! the checks live in `tfr::fuzz_check::stats_merge` so that crashes replay
//! as unit tests (fuzz/regressions/stats_merge/).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tfr::fuzz_check::stats_merge(data));
