#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 600), one after the other.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
# Needs cargo-fuzz (`cargo install cargo-fuzz`) and nightly Rust; on a stable
# toolchain it falls back to RUSTC_BOOTSTRAP=1. Crashes land in
# fuzz/artifacts/TARGET/; turn each into a regression test (see
# src/fuzz_check.rs: copy the input to fuzz/regressions/TARGET/).
# FUZZ_SANITIZER=address turns AddressSanitizer on (about 10x slower).
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(record_reader example_text from_jsonl tfdv_files stats_merge proto_from_json)
fi
toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    toolchain=(+nightly)
else
    export RUSTC_BOOTSTRAP=1
fi
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    # Seed the corpus with the repository's small fixtures, behind each
    # mode byte (0 stream, 1 file, 2 gzip, 3 zlib, 4 snappy, 5 as a snappy stream).
    if [ "$t" = record_reader ]; then
        for f in ../tests/data/*.tfrecord* ../tests/data/*.csv* ../tests/data/*.txt; do
            [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] || continue
            for m in 0 1 2 3 4 5; do
                { printf "\\$m"; cat "$f"; } > "corpus/$t/seed-$m-$(basename "$f")"
            done
        done
    fi
    if [ "$t" = proto_from_json ]; then
        cp ../fuzz/regressions/proto_from_json/* "corpus/$t/" 2>/dev/null || true
        awk '{ print "{\"sample\": " $0 "}" > ("corpus/'"$t"'/sample-" NR) }' ../tests/data/proto/from_json/sample.jsonl
    fi
    if [ "$t" = tfdv_files ]; then
        cp ../tests/data/tfdv/*.pbtxt ../tests/data/validate/*.pbtxt ../fuzz/regressions/tfdv_files/* "corpus/$t/" 2>/dev/null || true
    fi
    echo "=== $t for ${secs}s"
    cargo "${toolchain[@]}" fuzz run --sanitizer "${FUZZ_SANITIZER:-none}" "$t" -- -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
done
