//! Fuzzes the Example / SequenceExample decoder and text renderer; the
//! checks live in `tfr::fuzz_check::example_text` so that crashes replay as
//! unit tests (fuzz/regressions/example_text/).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tfr::fuzz_check::example_text(data));
