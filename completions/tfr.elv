
use builtin;
use str;

set edit:completion:arg-completer[tfr] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'tfr'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'tfr'= {
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand cat 'Print every record (or a range, or a random sample, of them).'
            cand head 'Print the first records (10 by default) of the inputs, taken together.'
            cand count 'Count the records of each input.'
            cand verify-crc 'Check both CRCs of every record; report every fault; salvage the rest.'
            cand to-jsonl 'Write records as JSON lines: one compact object per record.'
            cand from-jsonl 'Write JSON lines as TFRecord records: the reverse of to-jsonl.'
            cand schema 'Infer what a dataset holds, per feature; print a parse spec that works.'
            cand stats 'Full statistics of a dataset, as TensorFlow Data Validation computes them.'
            cand report 'One HTML page to look at a dataset: statistics, charts, thumbnails.'
            cand validate 'Check the records against a schema, as TensorFlow Data Validation does: a CI data gate.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'tfr;cat'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand -f 'Output format'
            cand --format 'Output format'
            cand -t 'Payload type'
            cand --type 'Payload type'
            cand --max-bytes 'On a terminal, bytes values longer than N are cut (text to N bytes, binary data to its first 8) and described (`# JPEG 640x480, 102,400 bytes`). Given, bytes values are shortened on a pipe too'
            cand --max-values 'On a terminal, lists longer than N show their first N values and a summary (`# ... 504 more (512 floats, min -2.3, max 2.1)`). Given, lists (only) are shortened on a pipe too'
            cand --features 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike'
            cand --exclude 'Leave out these features (names or globs, comma-separated)'
            cand --skip 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)'
            cand -n 'Stop after N records (over the inputs taken together)'
            cand --limit 'Stop after N records (over the inputs taken together)'
            cand --sample 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order'
            cand --seed 'Seed for --sample (the same seed picks the same records; default: a new sample each run)'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand --full 'Print every value in full, on a terminal too'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;head'= {
            cand -n 'Number of records to print (over all inputs together)'
            cand --lines 'Number of records to print (over all inputs together)'
            cand --skip 'Skip the first N records of the inputs taken together (hopped over header by header on plain files)'
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand -f 'Output format'
            cand --format 'Output format'
            cand -t 'Payload type'
            cand --type 'Payload type'
            cand --max-bytes 'On a terminal, bytes values longer than N are cut (text to N bytes, binary data to its first 8) and described (`# JPEG 640x480, 102,400 bytes`). Given, bytes values are shortened on a pipe too'
            cand --max-values 'On a terminal, lists longer than N show their first N values and a summary (`# ... 504 more (512 floats, min -2.3, max 2.1)`). Given, lists (only) are shortened on a pipe too'
            cand --features 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike'
            cand --exclude 'Leave out these features (names or globs, comma-separated)'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand --full 'Print every value in full, on a terminal too'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;count'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand --json 'Print JSON: {"files": [{"file", "records"[, "error"]}], "total"}'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;verify-crc'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand --salvage 'Write every intact record of every input, in order and byte-identical, to OUT (''-'' for stdout). OUT is written through a temporary file and renamed into place at the end'
            cand --salvage-compression 'Compression of the salvage file [default: as the first input that could be opened]'
            cand -t 'With --payloads: what the payloads are. Auto decides by the first record, and takes a file for SequenceExamples as soon as a record has feature_lists (a SequenceExample with only a context is, byte for byte, an Example)'
            cand --type 'With --payloads: what the payloads are. Auto decides by the first record, and takes a file for SequenceExamples as soon as a record has feature_lists (a SequenceExample with only a context is, byte for byte, an Example)'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand --json 'Print the report as one JSON document on stdout: {"files": [{"file", "compression", "intact_records", "faults": [{"record", "offset", "kind", "message", "bytes_skipped", "resumed"}], "bytes_lost", "status"[, "error"]}], "total": {...}, "intact": bool}'
            cand --payloads 'Also check every intact payload as TensorFlow''s C++ parser reads it (tf.io.parse_example, parse_single_example: what training uses): each record it would reject, or read other values from than protobuf (and tfr) does, is reported with the reason; exit 1. Checks Examples (parse_example) and SequenceExamples (parse_sequence_example), each file by its first record; ELWC files are said to be unchecked. A record over --max-record-size is not held: its CRCs are checked as it streams past, its payload is reported as not checked (exit 1)'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;to-jsonl'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand -t 'Payload type'
            cand --type 'Payload type'
            cand -f 'Output form'
            cand --format 'Output form'
            cand -o 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout'
            cand --output 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout'
            cand --features 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike'
            cand --exclude 'Leave out these features (names or globs, comma-separated)'
            cand --skip 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)'
            cand -n 'Stop after N records (over the inputs taken together)'
            cand --limit 'Stop after N records (over the inputs taken together)'
            cand --sample 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order'
            cand --seed 'Seed for --sample (the same seed picks the same records; default: a new sample each run)'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;from-jsonl'= {
            cand -o 'The TFRecord file to write (''-'' for stdout). It appears only when every line converted'
            cand --output 'The TFRecord file to write (''-'' for stdout). It appears only when every line converted'
            cand --compression 'Compression of the output'
            cand -t 'Message type of the records. auto: an ExampleListWithContext when the first line has an "examples" array of Examples (and at most "context" besides); a SequenceExample when its only keys are "context" (holding an object of features) and/or "feature_lists" (protojson: "context" or "featureLists"); else an Example; raw: each line is the payload, a JSON string or {"base64": "..."}'
            cand --type 'Message type of the records. auto: an ExampleListWithContext when the first line has an "examples" array of Examples (and at most "context" besides); a SequenceExample when its only keys are "context" (holding an object of features) and/or "feature_lists" (protojson: "context" or "featureLists"); else an Example; raw: each line is the payload, a JSON string or {"base64": "..."}'
            cand -f 'Input form'
            cand --format 'Input form'
            cand --schema 'A schema from `tfr schema --format json`: forces the kind (int64, float, bytes) of each feature it names; others are inferred'
            cand --max-line-size 'The longest line read (bytes; K, M, G suffixes): a longer one stops the run with an error instead of filling memory (converting a line takes a few times its size)'
            cand --on-kind-change 'When a feature''s kind changes between lines. error: a feature seen as float takes later integers as floats (exact up to 2^24 in magnitude; a warning names the first line whose integer float32 holds only rounded), and any other change (int64 then float, bytes and numbers) stops the run naming both lines, exit 2, nothing written; keep: each line is written with the kinds it reads as, and a warning per feature names the lines (TensorFlow parses a feature as one kind, so such a file fails its parse spec)'
            cand --max-aux-size 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;schema'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand -f 'Output format: table, json (every statistic; the input of `tfr from-jsonl --schema`), tf (a Python parse spec for TensorFlow), tfdv-schema (schema.pbtxt as TFDV infers it, for `tfr validate`)'
            cand --format 'Output format: table, json (every statistic; the input of `tfr from-jsonl --schema`), tf (a Python parse spec for TensorFlow), tfdv-schema (schema.pbtxt as TFDV infers it, for `tfr validate`)'
            cand -t 'Payload type (all inputs are one dataset of one type)'
            cand --type 'Payload type (all inputs are one dataset of one type)'
            cand -n 'Scan only the first N records (over all inputs together)'
            cand --limit 'Scan only the first N records (over all inputs together)'
            cand --features 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike'
            cand --exclude 'Leave out these features (names or globs, comma-separated)'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand --json 'Same as --format json'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;stats'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand -f 'Output format: table, json (tfr''s, mergeable), tfdv-stats (binary, for tfdv.load_statistics), tfdv-stats-text (tfdv.load_stats_text)'
            cand --format 'Output format: table, json (tfr''s, mergeable), tfdv-stats (binary, for tfdv.load_statistics), tfdv-stats-text (tfdv.load_stats_text)'
            cand --merge 'Merge statistics saved by `tfr stats --format json` (repeatable; the FILES, if any, are added to them)'
            cand --max-aux-size 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused'
            cand -t 'Payload type (all inputs are one dataset of one type)'
            cand --type 'Payload type (all inputs are one dataset of one type)'
            cand -n 'Scan only the first N records (over all inputs together)'
            cand --limit 'Scan only the first N records (over all inputs together)'
            cand --features 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike'
            cand --exclude 'Leave out these features (names or globs, comma-separated)'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;report'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand -o 'Write the page to FILE (replaced only once complete); without it the page goes to stdout, which must not be a terminal'
            cand --output 'Write the page to FILE (replaced only once complete); without it the page goes to stdout, which must not be a terminal'
            cand --records 'Records shown in the gallery: the first N (at most 10,000)'
            cand --sample 'Show N records sampled uniformly at random instead of the first (at most 10,000)'
            cand --seed 'Seed for --sample (the same seed picks the same records)'
            cand --image-feature 'Show this bytes feature as pictures even when its values are not recognised as JPEG, PNG, GIF or WebP (repeatable)'
            cand --schema 'Check the data against this schema (a schema.pbtxt from TFDV or `tfr schema -f tfdv-schema`, or tfr''s schema JSON) and show the anomalies `tfr validate` reports, the features marked'
            cand --max-aux-size 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused'
            cand --title 'The page''s title (default: the inputs)'
            cand -t 'Payload type (all inputs are one dataset of one type)'
            cand --type 'Payload type (all inputs are one dataset of one type)'
            cand -n 'Scan only the first N records (over all inputs together)'
            cand --limit 'Scan only the first N records (over all inputs together)'
            cand --features 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike'
            cand --exclude 'Leave out these features (names or globs, comma-separated)'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;validate'= {
            cand -s 'The schema: a schema.pbtxt (TFDV''s tensorflow_metadata Schema in text format, from tfdv.write_schema_text or `tfr schema -f tfdv-schema`), or tfr''s schema JSON (`tfr schema -f json`)'
            cand --schema 'The schema: a schema.pbtxt (TFDV''s tensorflow_metadata Schema in text format, from tfdv.write_schema_text or `tfr schema -f tfdv-schema`), or tfr''s schema JSON (`tfr schema -f json`)'
            cand --max-aux-size 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused'
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --max-record-size 'The longest record held in memory (bytes; K, M, G suffixes are binary units): a record announcing more is refused with an error instead of filling memory. verify-crc and count stream long records and need no limit'
            cand -t 'Payload type (all inputs are one dataset of one type)'
            cand --type 'Payload type (all inputs are one dataset of one type)'
            cand -j 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --jobs 'Threads to use [default: the number of cores; for count and verify-crc over URLs at least 16; at most 64]. Several inputs are read at the same time (count and verify-crc also share one large plain file between them), records are rendered or encoded on several; output is the same whatever N is'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --timeout 'Give up on a command that reads or writes a URL when it has not finished DURATION after it started (e.g. 30s, 5m, 1h): one error line, exit 2. Off by default: a stalled connection then fails after 30 s without a byte (retried up to 4 times), but a server that keeps sending a byte now and then is waited for'
            cand --json 'Print one JSON document (anomalies with TFDV''s AnomalyInfo.Type names) instead of the table'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand --no-sign-request 'Read and write object stores (s3://, gs://, az://) without credentials, as for public data (AWS CLI''s flag; the AWS_/GOOGLE_/AZURE_SKIP_SIGNATURE variables do the same per store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;help'= {
            cand cat 'Print every record (or a range, or a random sample, of them).'
            cand head 'Print the first records (10 by default) of the inputs, taken together.'
            cand count 'Count the records of each input.'
            cand verify-crc 'Check both CRCs of every record; report every fault; salvage the rest.'
            cand to-jsonl 'Write records as JSON lines: one compact object per record.'
            cand from-jsonl 'Write JSON lines as TFRecord records: the reverse of to-jsonl.'
            cand schema 'Infer what a dataset holds, per feature; print a parse spec that works.'
            cand stats 'Full statistics of a dataset, as TensorFlow Data Validation computes them.'
            cand report 'One HTML page to look at a dataset: statistics, charts, thumbnails.'
            cand validate 'Check the records against a schema, as TensorFlow Data Validation does: a CI data gate.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'tfr;help;cat'= {
        }
        &'tfr;help;head'= {
        }
        &'tfr;help;count'= {
        }
        &'tfr;help;verify-crc'= {
        }
        &'tfr;help;to-jsonl'= {
        }
        &'tfr;help;from-jsonl'= {
        }
        &'tfr;help;schema'= {
        }
        &'tfr;help;stats'= {
        }
        &'tfr;help;report'= {
        }
        &'tfr;help;validate'= {
        }
        &'tfr;help;help'= {
        }
    ]
    $completions[$command]
}
