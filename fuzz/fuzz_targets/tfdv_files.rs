//! Fuzzes the readers of schema files (TFDV's text format, tfr's schema
//! JSON) and of saved statistics (`tfr stats --merge`); the checks live in
//! `tfr::fuzz_check::tfdv_files` so that crashes replay as unit tests
//! (fuzz/regressions/tfdv_files/).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tfr::fuzz_check::tfdv_files(data));
