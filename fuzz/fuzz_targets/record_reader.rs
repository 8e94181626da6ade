//! Fuzzes the record reader and the resynchronising scanner over plain,
//! gzip and zlib input; the checks live in `tfr::fuzz_check::record_reader`
//! so that crashes replay as unit tests (fuzz/regressions/record_reader/).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tfr::fuzz_check::record_reader(data));
