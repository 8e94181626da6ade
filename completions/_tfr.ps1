
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'tfr' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'tfr'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'tfr' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Print every record (or a range, or a random sample, of them).')
            [CompletionResult]::new('head', 'head', [CompletionResultType]::ParameterValue, 'Print the first records (10 by default) of the inputs, taken together.')
            [CompletionResult]::new('count', 'count', [CompletionResultType]::ParameterValue, 'Count the records of each input.')
            [CompletionResult]::new('verify-crc', 'verify-crc', [CompletionResultType]::ParameterValue, 'Check both CRCs of every record; report every fault; salvage the rest.')
            [CompletionResult]::new('to-jsonl', 'to-jsonl', [CompletionResultType]::ParameterValue, 'Write records as JSON lines: one compact object per record.')
            [CompletionResult]::new('from-jsonl', 'from-jsonl', [CompletionResultType]::ParameterValue, 'Write JSON lines as TFRecord records: the reverse of to-jsonl.')
            [CompletionResult]::new('reshard', 'reshard', [CompletionResultType]::ParameterValue, 'Merge, filter, recompress or shard records: into one file, N shards, or shards of at most a size.')
            [CompletionResult]::new('split', 'split', [CompletionResultType]::ParameterValue, 'Split records into train/eval/test by a stable hash.')
            [CompletionResult]::new('to-csv', 'to-csv', [CompletionResultType]::ParameterValue, 'Write records as CSV: a header of feature names, one row per record.')
            [CompletionResult]::new('to-wds', 'to-wds', [CompletionResultType]::ParameterValue, 'Write records as WebDataset tar shards: one sample per record.')
            [CompletionResult]::new('from-wds', 'from-wds', [CompletionResultType]::ParameterValue, 'Read WebDataset tar shards back into TFRecord records.')
            [CompletionResult]::new('extract', 'extract', [CompletionResultType]::ParameterValue, 'Write each value of a bytes feature to a file of its own.')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Describe a TFDS dataset folder (splits, record counts, features), or plain TFRecord files.')
            [CompletionResult]::new('scalars', 'scalars', [CompletionResultType]::ParameterValue, 'TensorBoard''s scalars as a table: run, tag, step, wall_time, value.')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Infer what a dataset holds, per feature; print a parse spec that works.')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Full statistics of a dataset, as TensorFlow Data Validation computes them.')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'One HTML page to look at a dataset: statistics, charts, thumbnails.')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Browse every record in a web page: thumbnails, annotations, all features.')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check the records against a schema, as TensorFlow Data Validation does, and their boxes: a CI data gate.')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Write an index file per input, for DALI and the tfrecord package.')
            [CompletionResult]::new('shuffle', 'shuffle', [CompletionResultType]::ParameterValue, 'Write the records in a uniform random order, in bounded memory.')
            [CompletionResult]::new('to-parquet', 'to-parquet', [CompletionResultType]::ParameterValue, 'Write records as rows of a Parquet file, with exact column types.')
            [CompletionResult]::new('to-arrow', 'to-arrow', [CompletionResultType]::ParameterValue, 'Write records as an Arrow IPC file, or an Arrow IPC stream on stdout.')
            [CompletionResult]::new('from-parquet', 'from-parquet', [CompletionResultType]::ParameterValue, 'Write the rows of Parquet files as TFRecord records (tf.train.Example).')
            [CompletionResult]::new('from-arrow', 'from-arrow', [CompletionResultType]::ParameterValue, 'Write the rows of Arrow IPC files or streams as TFRecord records.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tfr;cat' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'On a terminal, bytes values longer than N are cut (text to N bytes, binary data to its first 8) and described (`# JPEG 640x480, 102,400 bytes`). Given, bytes values are shortened on a pipe too')
            [CompletionResult]::new('--max-values', '--max-values', [CompletionResultType]::ParameterName, 'On a terminal, lists longer than N show their first N values and a summary (`# ... 504 more (512 floats, min -2.3, max 2.1)`). Given, lists (only) are shortened on a pipe too')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('--proto', '--proto', [CompletionResultType]::ParameterName, 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--proto-path', '--proto-path', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--descriptor-set', '--descriptor-set', [CompletionResultType]::ParameterName, 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The payloads'' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python''s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'Only these records, in the order given: 0-based numbers over the inputs taken together and inclusive ranges (17,1000-1010). Read by number: through each input''s `tfr index` file when it still matches (milliseconds on a million records), else an index built by reading the headers (gzip and zlib: a seek index built as they are inflated; SNAPPY is not read by number). With --where: the listed records that match. A number past the end is an error')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for --sample (the same seed picks the same records; default: a new sample each run)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Print every value in full, on a terminal too')
            [CompletionResult]::new('--decode', '--decode', [CompletionResultType]::ParameterName, 'Records as their tools decode them, one JSON object a line, for reading (not for from-jsonl). Of a TFDS dataset folder: as TFDS decodes them (tfds.as_numpy): nested features as objects, tensors as nested arrays by their shape (bytes- and zlib-encoded ones decoded), bools as true/false, an RLDS Dataset (steps) as a list of step objects; images stay their encoded bytes ({"base64": ...}). Of other inputs: the JSONL mapping, with each bytes value that is a tensor written by tf.io.serialize_tensor replaced by its values (nested arrays by its shape, a scalar bare), as tf.io.parse_tensor gives them')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;head' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Number of records to print (over all inputs together)')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Number of records to print (over all inputs together)')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'Only these records, in the order given: 0-based numbers over the inputs taken together and inclusive ranges (17,1000-1010). Read by number: through each input''s `tfr index` file when it still matches (milliseconds on a million records), else an index built by reading the headers (gzip and zlib: a seek index built as they are inflated; SNAPPY is not read by number). With --where: the listed records that match. A number past the end is an error')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Skip the first N records of the inputs taken together (hopped over header by header on plain files)')
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'On a terminal, bytes values longer than N are cut (text to N bytes, binary data to its first 8) and described (`# JPEG 640x480, 102,400 bytes`). Given, bytes values are shortened on a pipe too')
            [CompletionResult]::new('--max-values', '--max-values', [CompletionResultType]::ParameterName, 'On a terminal, lists longer than N show their first N values and a summary (`# ... 504 more (512 floats, min -2.3, max 2.1)`). Given, lists (only) are shortened on a pipe too')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('--proto', '--proto', [CompletionResultType]::ParameterName, 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--proto-path', '--proto-path', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--descriptor-set', '--descriptor-set', [CompletionResultType]::ParameterName, 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The payloads'' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python''s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Print every value in full, on a terminal too')
            [CompletionResult]::new('--decode', '--decode', [CompletionResultType]::ParameterName, 'Records as their tools decode them, one JSON object a line, for reading (not for from-jsonl). Of a TFDS dataset folder: as TFDS decodes them (tfds.as_numpy): nested features as objects, tensors as nested arrays by their shape (bytes- and zlib-encoded ones decoded), bools as true/false, an RLDS Dataset (steps) as a list of step objects; images stay their encoded bytes ({"base64": ...}). Of other inputs: the JSONL mapping, with each bytes value that is a tensor written by tf.io.serialize_tensor replaced by its values (nested arrays by its shape, a scalar bare), as tf.io.parse_tensor gives them')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;count' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Records per value of FEATURE, most frequent first (then by value): a record counts once under each distinct value it has (a list [1, 2, 2] counts under 1 and 2); records without the feature are counted as (missing), with an empty list as (no values). At most 1,000,000 distinct values (or 64 MiB of them) are told apart; the records of any further value are counted as (other values), with a warning. The table shows the 1,000 most frequent values and a row for the rest; --json lists every one. SequenceExamples and ELWC: their context. Messages (--message, event files): a path of fields (summary.value.tag), as --where reads it; an enum by name')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (for --where and --by; the first record decides when auto)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (for --where and --by; the first record decides when auto)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--proto', '--proto', [CompletionResultType]::ParameterName, 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--proto-path', '--proto-path', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--descriptor-set', '--descriptor-set', [CompletionResultType]::ParameterName, 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The payloads'' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python''s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON: {"files": [{"file", "records"[, "error"]}], "total"}; with --by: {"by", "total", "values": [{"value", "records"[, "name": a TFDS ClassLabel''s class]}], "missing", "no_values"[, "other"]}')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;verify-crc' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('--salvage', '--salvage', [CompletionResultType]::ParameterName, 'Write every intact record of every input, in order and byte-identical, to OUT (''-'' for stdout). OUT is written through a temporary file and renamed into place at the end; its directory must exist')
            [CompletionResult]::new('--salvage-compression', '--salvage-compression', [CompletionResultType]::ParameterName, 'Compression of the salvage file [default: from OUT''s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'With --payloads: what the payloads are. Auto decides by the first record, and takes a file for SequenceExamples as soon as a record has feature_lists (a SequenceExample with only a context is, byte for byte, an Example)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'With --payloads: what the payloads are. Auto decides by the first record, and takes a file for SequenceExamples as soon as a record has feature_lists (a SequenceExample with only a context is, byte for byte, an Example)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the report as one JSON document on stdout: {"files": [{"file", "compression", "intact_records", "faults": [{"record", "offset", "kind", "message", "bytes_skipped", "resumed"}], "bytes_lost", "status"[, "error"]}], "total": {...}, "intact": bool}')
            [CompletionResult]::new('--payloads', '--payloads', [CompletionResultType]::ParameterName, 'Also check every intact payload as TensorFlow''s C++ parser reads it (tf.io.parse_example, parse_single_example: what training uses): each record it would reject, or read other values from than protobuf (and tfr) does, is reported with the reason; exit 1. Checks Examples (parse_example) and SequenceExamples (parse_sequence_example), each file by its first record; ELWC files are said to be unchecked. A record over --max-record-size is not held: its CRCs are checked as it streams past, its payload is reported as not checked (exit 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;to-jsonl' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output form')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output form')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for --sample (the same seed picks the same records; default: a new sample each run)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--proto', '--proto', [CompletionResultType]::ParameterName, 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--proto-path', '--proto-path', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--descriptor-set', '--descriptor-set', [CompletionResultType]::ParameterName, 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The payloads'' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python''s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'Only these records, in the order given: 0-based numbers over the inputs taken together and inclusive ranges (17,1000-1010), read by number as `tfr cat --records` reads them. With --where: the listed records that match. A number past the end is an error')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('--decode', '--decode', [CompletionResultType]::ParameterName, 'Records as their tools decode them, one JSON object a line, for reading (not for from-jsonl). Of a TFDS dataset folder: as TFDS decodes them (tfds.as_numpy): nested features as objects, tensors as nested arrays by their shape (bytes- and zlib-encoded ones decoded), bools as true/false, an RLDS Dataset (steps) as a list of step objects; images stay their encoded bytes ({"base64": ...}). Of other inputs: the JSONL mapping, with each bytes value that is a tensor written by tf.io.serialize_tensor replaced by its values (nested arrays by its shape, a scalar bare), as tf.io.parse_tensor gives them')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;from-jsonl' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The TFRecord file to write (''-'' for stdout). It appears only when every line converted. Its directory must exist (as for a shell redirect; reshard, split and shuffle create theirs)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The TFRecord file to write (''-'' for stdout). It appears only when every line converted. Its directory must exist (as for a shell redirect; reshard, split and shuffle create theirs)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Message type of the records. auto: an ExampleListWithContext when the first line has an "examples" array of Examples (and at most "context" besides); a SequenceExample when its only keys are "context" (holding an object of features) and/or "feature_lists" (protojson: "context" or "featureLists"); else an Example; raw: each line is the payload, a JSON string or {"base64": "..."}')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Message type of the records. auto: an ExampleListWithContext when the first line has an "examples" array of Examples (and at most "context" besides); a SequenceExample when its only keys are "context" (holding an object of features) and/or "feature_lists" (protojson: "context" or "featureLists"); else an Example; raw: each line is the payload, a JSON string or {"base64": "..."}')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Input form')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Input form')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'A schema from `tfr schema --format json`: forces the kind (int64, float, bytes) of each feature it names; others are inferred')
            [CompletionResult]::new('--max-line-size', '--max-line-size', [CompletionResultType]::ParameterName, 'The longest line read (bytes; K, M, G suffixes): a longer one stops the run with an error instead of filling memory (converting a line takes a few times its size)')
            [CompletionResult]::new('--on-kind-change', '--on-kind-change', [CompletionResultType]::ParameterName, 'When a plain value has another kind than its feature''s first value (a typed value, {"int64_list": [...]} etc., is taken as it says). error: a feature seen as float takes later integers as floats (exact up to 2^24 in magnitude; a warning names the first line whose integer float32 holds only rounded), and any other change (int64 then float, bytes and numbers) stops the run naming both lines, exit 2, nothing written; keep: each line is written with the kinds it reads as, and a warning per feature names the lines (TensorFlow parses a feature as one kind, so such a file fails its parse spec)')
            [CompletionResult]::new('--max-aux-size', '--max-aux-size', [CompletionResultType]::ParameterName, 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--proto', '--proto', [CompletionResultType]::ParameterName, 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--proto-path', '--proto-path', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--descriptor-set', '--descriptor-set', [CompletionResultType]::ParameterName, 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message')
            [CompletionResult]::new('--output-compression', '--output-compression', [CompletionResultType]::ParameterName, 'Compression of the output [default: from OUT''s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'Each line is this protobuf message (its full name, pkg.Msg; its definition from --proto or --descriptor-set) in protobuf''s JSON mapping, read as Python''s json_format.Parse reads it (proto or JSON field names, integers as numbers or strings, enums by name or number, base64 bytes, the well-known types'' JSON forms, Any by "@type"), and written as SerializeToString(deterministic=True) writes it: the reverse of to-jsonl --message')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;reshard' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The output: without --shards or --shard-size, exactly this file (merged, recompressed as its name says, filtered with --where); with them, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] (5 digits, more from 100000 shards). Missing local directories are created (and removed again if the run fails); an object-store URL works the same')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The output: without --shards or --shard-size, exactly this file (merged, recompressed as its name says, filtered with --where); with them, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] (5 digits, more from 100000 shards). Missing local directories are created (and removed again if the run fails); an object-store URL works the same')
            [CompletionResult]::new('--shards', '--shards', [CompletionResultType]::ParameterName, 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)')
            [CompletionResult]::new('--shard-size', '--shard-size', [CompletionResultType]::ParameterName, 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--output-compression', '--output-compression', [CompletionResultType]::ParameterName, 'Compression of the output [default: from OUT''s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none] (--compression is the inputs'')')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;split' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('--ratio', '--ratio', [CompletionResultType]::ParameterName, 'The splits and their ratios: NAME=WEIGHT,... (weights are relative: train=8,eval=1,test=1 and train=0.8,eval=0.1,test=0.1 are the same). Names: letters, digits, ''_'', ''-'', ''.''')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The output of each split: a name holding {split}, replaced by the split''s name (''data/{split}.tfrecord.gz''); with --shards or --shard-size each split is sharded (''{split}-00000-of-00004...''). Missing local directories are created (and removed again if the run fails)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The output of each split: a name holding {split}, replaced by the split''s name (''data/{split}.tfrecord.gz''); with --shards or --shard-size each split is sharded (''{split}-00000-of-00004...''). Missing local directories are created (and removed again if the run fails)')
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Hash this feature''s values instead of the whole record (an Example''s feature, a SequenceExample''s context feature): records with equal values go to the same split. Records without it all go to one split')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the hash: another seed, another (equally stable) split')
            [CompletionResult]::new('--shards', '--shards', [CompletionResultType]::ParameterName, 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)')
            [CompletionResult]::new('--shard-size', '--shard-size', [CompletionResultType]::ParameterName, 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--output-compression', '--output-compression', [CompletionResultType]::ParameterName, 'Compression of the output [default: from OUT''s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none] (--compression is the inputs'')')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;to-csv' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset: its first record decides)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset: its first record decides)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The columns from this schema (the JSON of `tfr schema -f json`) instead of a first pass over the inputs (needed for stdin). Features of the records that it does not name are left out')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The columns from this schema (the JSON of `tfr schema -f json`) instead of a first pass over the inputs (needed for stdin). Features of the records that it does not name are left out')
            [CompletionResult]::new('--lists', '--lists', [CompletionResultType]::ParameterName, 'Features with more than one value in some record: a JSON array in the cell (json), or left out with a note (omit)')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for --sample (the same seed picks the same records; default: a new sample each run)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--max-aux-size', '--max-aux-size', [CompletionResultType]::ParameterName, 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--safe-spreadsheet', '--safe-spreadsheet', [CompletionResultType]::ParameterName, 'For a spreadsheet: a text cell or feature name that begins with ''='', ''+'', ''-'', ''@'', a tab, a carriage return or a NUL (which a spreadsheet reads as a formula: `=HYPERLINK(...)` makes a link that sends data away, `=cmd|...` can start a program) gets a leading "''", so it is shown as text. Numbers (int64 and float cells, `-3`, `-Infinity`) are left as they are; JSON cells begin with ''['' or ''{''')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;to-wds' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The shards: DIR/NAME.tar writes DIR/NAME-000000.tar, ... (a local directory, created if missing, or an object-store prefix)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The shards: DIR/NAME.tar writes DIR/NAME-000000.tar, ... (a local directory, created if missing, or an object-store prefix)')
            [CompletionResult]::new('--shard-size', '--shard-size', [CompletionResultType]::ParameterName, 'Shards of at most SIZE bytes (K, M, G: binary units); a sample larger than SIZE has a shard of its own')
            [CompletionResult]::new('--shard-records', '--shard-records', [CompletionResultType]::ParameterName, 'At most N samples in a shard')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Each sample''s key from this feature''s one value (its ''.'', ''/'' and control characters written ''_''), instead of the record''s number; a key given twice within a shard is an error')
            [CompletionResult]::new('--cls', '--cls', [CompletionResultType]::ParameterName, 'The int64 feature written as KEY.cls [default: one named label or ending /label, with one value]')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset: its first record decides)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset: its first record decides)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--lists', '--lists', [CompletionResultType]::ParameterName, 'Every feature in KEY.json as a list, as the JSONL mapping writes it ([7], ["cat"]), without the first pass over the records that finds the features holding one value in every record (written bare: 7, "cat"). Reading stdin, there is no first pass: lists')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;from-wds' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The TFRecord file written (compression from its name: .gz, .zz or .zlib, .snappy; else none). With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ..., all appearing together')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The TFRecord file written (compression from its name: .gz, .zz or .zlib, .snappy; else none). With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ..., all appearing together')
            [CompletionResult]::new('--shards', '--shards', [CompletionResultType]::ParameterName, 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)')
            [CompletionResult]::new('--shard-size', '--shard-size', [CompletionResultType]::ParameterName, 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)')
            [CompletionResult]::new('--output-compression', '--output-compression', [CompletionResultType]::ParameterName, 'Compression of the output [default: from OUT''s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'What each sample becomes: auto (SequenceExamples when the first sample''s .json is one, with "context" or "feature_lists", else Examples: one type in the output), example, sequence (the members'' features go to the context; `{}` is then an empty SequenceExample)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'What each sample becomes: auto (SequenceExamples when the first sample''s .json is one, with "context" or "feature_lists", else Examples: one type in the output), example, sequence (the members'' features go to the context; `{}` is then an empty SequenceExample)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Keep each sample''s key as a bytes feature of this name')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'A schema from `tfr schema --format json`: forces the kind (int64, float, bytes) of each .json feature it names (nested objects are named a/b); others are inferred')
            [CompletionResult]::new('--keep-json', '--keep-json', [CompletionResultType]::ParameterName, 'Keep each sample''s .json whole, as one bytes feature (named json, or FEATURE), instead of a feature per key')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The largest member (and sample) held in memory (bytes; K, M, G suffixes): a larger one is refused with an error')
            [CompletionResult]::new('--rename', '--rename', [CompletionResultType]::ParameterName, 'Write the member feature OLD (its extension, its PAX name, or --keep-json''s) as NEW (repeatable): `--rename jpg=image/encoded --rename png=image/encoded`. A .json''s keys keep their names')
            [CompletionResult]::new('--max-aux-size', '--max-aux-size', [CompletionResultType]::ParameterName, 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;extract' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('--feature', '--feature', [CompletionResultType]::ParameterName, 'The bytes feature whose values are written (an Example''s feature, a SequenceExample''s context feature)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The directory the files go to (created if missing)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The directory the files go to (created if missing)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Each file''s name: {record} (the record''s number among those read, from 0; {record:06} zero-padded), {index} (its index in its input file), {value} (the value''s index), {FEATURE} (that feature''s one value), ''{{'' and ''}}'' for braces; the extension is added')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset: its first record decides)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset: its first record decides)')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for --sample (the same seed picks the same records; default: a new sample each run)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;info' {
            [CompletionResult]::new('--names', '--names', [CompletionResultType]::ParameterName, 'Class names shown per ClassLabel (--json lists all)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document instead of the tables')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Read every shard and check it holds the records dataset_info.json says: exit 1, naming split, shard and both counts, where one differs or a shard is missing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;scalars' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output form')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output form')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout')
            [CompletionResult]::new('--tags', '--tags', [CompletionResultType]::ParameterName, 'Only tags this regular expression finds a match in (`--tags ''^loss''`)')
            [CompletionResult]::new('--runs', '--runs', [CompletionResultType]::ParameterName, 'Only runs this regular expression finds a match in (the run of a file directly in LOGDIR is the empty string)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;schema' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format: table, json (every statistic; the input of `tfr from-jsonl --schema`), tf (a Python parse spec for TensorFlow), tfdv-schema (schema.pbtxt as TFDV infers it, for `tfr validate`)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: table, json (every statistic; the input of `tfr from-jsonl --schema`), tf (a Python parse spec for TensorFlow), tfdv-schema (schema.pbtxt as TFDV infers it, for `tfr validate`)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset of one type)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset of one type)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Scan only the first N records (over all inputs together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Scan only the first N records (over all inputs together)')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Same as --format json')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;stats' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format: table, json (tfr''s, mergeable), tfdv-stats (binary, for tfdv.load_statistics), tfdv-stats-text (tfdv.load_stats_text)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: table, json (tfr''s, mergeable), tfdv-stats (binary, for tfdv.load_statistics), tfdv-stats-text (tfdv.load_stats_text)')
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'Merge statistics saved by `tfr stats --format json` (repeatable; the FILES, if any, are added to them)')
            [CompletionResult]::new('--max-aux-size', '--max-aux-size', [CompletionResultType]::ParameterName, 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset of one type)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset of one type)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Scan only the first N records (over all inputs together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Scan only the first N records (over all inputs together)')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--bbox', '--bbox', [CompletionResultType]::ParameterName, 'The boxes'' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object Detection API''s image/object/bbox), or PREFIX itself holding [ymin, xmin, ymax, xmax] per box (as TFDS''s objects/bbox). Without it both layouts are found by their names')
            [CompletionResult]::new('--label-map', '--label-map', [CompletionResultType]::ParameterName, 'A label map (the Object Detection API''s StringIntLabelMap in text format, label_map.pbtxt): class ids are shown by its names, and an id it lacks is an annotation problem')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Compare with a second dataset B: its files, folders, quoted globs or URLs (every value up to the next option), or one statistics file (TFDV''s binary or text DatasetFeatureStatisticsList, or what `tfr stats -f tfdv-stats[-text]` writes). The inputs before it are dataset A, and may be one statistics file too')
            [CompletionResult]::new('--compare-split', '--compare-split', [CompletionResultType]::ParameterName, 'The TFDS split of the --compare dataset (default: --split''s)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'The same as --format json (with --compare: the comparison as JSON)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;report' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the page to FILE (replaced only once complete); without it the page goes to stdout, which must not be a terminal')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the page to FILE (replaced only once complete); without it the page goes to stdout, which must not be a terminal')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'Records shown in the gallery: the first N (at most 10,000)')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'Show N records sampled uniformly at random instead of the first (at most 10,000)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for --sample (the same seed picks the same records)')
            [CompletionResult]::new('--image-feature', '--image-feature', [CompletionResultType]::ParameterName, 'Show this bytes feature as pictures even when its values are not recognised as JPEG, PNG, GIF or WebP (repeatable)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Check the data against this schema (a schema.pbtxt from TFDV or `tfr schema -f tfdv-schema`, or tfr''s schema JSON) and show the anomalies `tfr validate` reports, the features marked')
            [CompletionResult]::new('--max-aux-size', '--max-aux-size', [CompletionResultType]::ParameterName, 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'The page''s title (default: the inputs)')
            [CompletionResult]::new('--bbox', '--bbox', [CompletionResultType]::ParameterName, 'The boxes'' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object Detection API''s image/object/bbox), or PREFIX itself holding [ymin, xmin, ymax, xmax] per box (as TFDS''s objects/bbox). Without it both layouts are found by their names')
            [CompletionResult]::new('--label-map', '--label-map', [CompletionResultType]::ParameterName, 'A label map (the Object Detection API''s StringIntLabelMap in text format, label_map.pbtxt): class ids are shown by its names, and an id it lacks is an annotation problem')
            [CompletionResult]::new('--highlight', '--highlight', [CompletionResultType]::ParameterName, 'Draw the boxes of these classes highlighted and the others dimmed (names or ids, comma-separated: --highlight person,car)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset of one type)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset of one type)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Scan only the first N records (over all inputs together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Scan only the first N records (over all inputs together)')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Compare with a second dataset B: its files, folders, quoted globs or URLs (every value up to the next option), or one statistics file (TFDV''s binary or text DatasetFeatureStatisticsList, or what `tfr stats -f tfdv-stats[-text]` writes). The inputs before it are dataset A, and may be one statistics file too')
            [CompletionResult]::new('--compare-split', '--compare-split', [CompletionResultType]::ParameterName, 'The TFDS split of the --compare dataset (default: --split''s)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;view' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset: its first record decides)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset: its first record decides)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--bbox', '--bbox', [CompletionResultType]::ParameterName, 'The boxes'' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object Detection API''s image/object/bbox), or PREFIX itself holding [ymin, xmin, ymax, xmax] per box (as TFDS''s objects/bbox). Without it both layouts are found by their names')
            [CompletionResult]::new('--label-map', '--label-map', [CompletionResultType]::ParameterName, 'A label map (the Object Detection API''s StringIntLabelMap in text format, label_map.pbtxt): class ids are shown by its names, and an id it lacks is an annotation problem')
            [CompletionResult]::new('--highlight', '--highlight', [CompletionResultType]::ParameterName, 'Draw the boxes of these classes highlighted and the others dimmed (names or ids, comma-separated: --highlight person,car)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Listen on this address: 127.0.0.1 (this machine only) by default; another address (0.0.0.0: every interface) lets anyone who can reach it read the inputs, and a warning says so')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Listen on this port (0, the default: a free one, printed)')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'The page''s title (default: the inputs)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('--open', '--open', [CompletionResultType]::ParameterName, 'Open the page in the default browser (xdg-open; open on macOS)')
            [CompletionResult]::new('--no-idx', '--no-idx', [CompletionResultType]::ParameterName, 'Do not use the index files `tfr index` wrote beside the inputs (NAME.idx): index each plain input by reading it through')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;validate' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The schema: a schema.pbtxt (TFDV''s tensorflow_metadata Schema in text format, from tfdv.write_schema_text or `tfr schema -f tfdv-schema`), or tfr''s schema JSON (`tfr schema -f json`). Without it only the annotations are checked')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema: a schema.pbtxt (TFDV''s tensorflow_metadata Schema in text format, from tfdv.write_schema_text or `tfr schema -f tfdv-schema`), or tfr''s schema JSON (`tfr schema -f json`). Without it only the annotations are checked')
            [CompletionResult]::new('--environment', '--environment', [CompletionResultType]::ParameterName, 'Validate in this environment of the schema (TFDV''s validate_statistics(environment=NAME)): a feature is in it by its in_environment, else not by its not_in_environment, else by the schema''s default_environment. A feature not in it need not be present, and is SCHEMA_NEW_COLUMN when it is. The name must be one of the schema''s default_environment (as TFDV requires)')
            [CompletionResult]::new('--previous', '--previous', [CompletionResultType]::ParameterName, 'Drift: the previous span, to compare with by the schema''s drift_comparator and num_examples_drift_comparator (TFDV''s previous_statistics). A statistics file (TFDV''s, binary or text, or `tfr stats -f tfdv-stats[-text]`; local, within --max-aux-size) or records (a file, folder, glob or URL: their statistics are computed as `tfr stats` computes them)')
            [CompletionResult]::new('--serving', '--serving', [CompletionResultType]::ParameterName, 'Skew: serving data, to compare with by the schema''s skew_comparator (TFDV''s serving_statistics); a statistics file or records, as --previous')
            [CompletionResult]::new('--previous-version', '--previous-version', [CompletionResultType]::ParameterName, 'The previous version of this dataset, to compare the number of examples with by the schema''s num_examples_version_comparator (TFDV''s previous_version_statistics); a statistics file or records')
            [CompletionResult]::new('--bbox', '--bbox', [CompletionResultType]::ParameterName, 'The boxes'' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object Detection API''s image/object/bbox), or PREFIX itself holding [ymin, xmin, ymax, xmax] per box (as TFDS''s objects/bbox). Without it both layouts are found by their names')
            [CompletionResult]::new('--label-map', '--label-map', [CompletionResultType]::ParameterName, 'A label map (the Object Detection API''s StringIntLabelMap in text format, label_map.pbtxt): class ids are shown by its names, and an id it lacks is an annotation problem')
            [CompletionResult]::new('--max-aux-size', '--max-aux-size', [CompletionResultType]::ParameterName, 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused')
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset of one type)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type (all inputs are one dataset of one type)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (anomalies with TFDV''s AnomalyInfo.Type names, annotation problems with BBOX_* / CLASS_NOT_IN_LABEL_MAP, and an "annotations" summary) instead of the table')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;index' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Write the index files into DIR (named after each input: DIR/NAME.idx) instead of beside the inputs')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Write nothing: say for each input whether its index file still matches it (exit 1 when one does not, or is missing)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;shuffle' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to OUT (`.gz`, `.zz`/`.zlib`, `.snappy` compress it; `-` is stdout). With --shards, OUT names the shards: out/train.tfrecord.gz gives out/train-00000-of-00004.tfrecord.gz and so on. Missing local directories are created (and removed again if the run fails)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to OUT (`.gz`, `.zz`/`.zlib`, `.snappy` compress it; `-` is stdout). With --shards, OUT names the shards: out/train.tfrecord.gz gives out/train-00000-of-00004.tfrecord.gz and so on. Missing local directories are created (and removed again if the run fails)')
            [CompletionResult]::new('--shards', '--shards', [CompletionResultType]::ParameterName, 'Write N shards of (nearly) equal record counts, consecutive runs of the shuffled order; all appear together, or none')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the order: the same seed and records give the same output (whatever -j and --memory); default: a new order each run')
            [CompletionResult]::new('--memory', '--memory', [CompletionResultType]::ParameterName, 'Records held in memory at most (K, M, G: binary units; 16M or more); beyond it they spill to temporary files, and tfr''s peak memory stays about this much plus the reader''s (-j × 1 MB)')
            [CompletionResult]::new('--temp-dir', '--temp-dir', [CompletionResultType]::ParameterName, 'Where the temporary files go when the records exceed --memory (they take about the dataset''s uncompressed size, and are removed on every exit); default: $TMPDIR, else /tmp')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--output-compression', '--output-compression', [CompletionResultType]::ParameterName, 'Compression of the output(s) [default: from OUT''s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none] (--compression is the inputs'')')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;to-parquet' {
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The Parquet file to write. With --shards or --rows-per-file, DIR/NAME.parquet writes DIR/NAME-00000-of-0000N.parquet ... (the directory is created if missing). A local path or an object-store URL. Of a TFDS folder, {split} stands for each split''s name (hf/{split}.parquet --shards 2: hf/train-00000-of-00002.parquet ...)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The Parquet file to write. With --shards or --rows-per-file, DIR/NAME.parquet writes DIR/NAME-00000-of-0000N.parquet ... (the directory is created if missing). A local path or an object-store URL. Of a TFDS folder, {split} stands for each split''s name (hf/{split}.parquet --shards 2: hf/train-00000-of-00002.parquet ...)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type: auto (the first record decides), example or sequence (SequenceExample: context features as columns, each feature list a list<list<…>> column), or event (tf.Event: a column per field, as with --message)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type: auto (the first record decides), example or sequence (SequenceExample: context features as columns, each feature list a list<list<…>> column), or event (tf.Event: a column per field, as with --message)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The column types from this schema (`tfr schema --format json`) instead of a first pass over the inputs (needed for stdin, which cannot be read twice). Features of the records that it does not name are left out (with a warning); when no record has a feature it names but records hold others, that is an error (a schema of other data)')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--max-aux-size', '--max-aux-size', [CompletionResultType]::ParameterName, 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for --sample (the same seed picks the same records; default: a new sample each run)')
            [CompletionResult]::new('--shards', '--shards', [CompletionResultType]::ParameterName, 'N files, balanced by rows (their counts differ by at most one)')
            [CompletionResult]::new('--rows-per-file', '--rows-per-file', [CompletionResultType]::ParameterName, 'Files of at most N rows each (the last may hold fewer)')
            [CompletionResult]::new('--output-compression', '--output-compression', [CompletionResultType]::ParameterName, 'Compression of the column data: zstd (level 1), snappy (pyarrow''s default), or none')
            [CompletionResult]::new('--row-group-size', '--row-group-size', [CompletionResultType]::ParameterName, 'A row group ends when its encoded size reaches SIZE (bytes; K, M, G suffixes) or at 1,048,576 rows: the memory a row group takes while it is written [default: 64M; 8M for a TFDS dataset with images, whose readers fetch a row group at a time]')
            [CompletionResult]::new('--explode', '--explode', [CompletionResultType]::ParameterName, 'Of a TFDS folder: the steps of this Dataset feature (an RLDS dataset''s steps) as rows, one per step, with episode_index, step_index and the episode''s other features repeated (the step features without the ''steps/'' prefix). Default: one row per episode, each step feature a list')
            [CompletionResult]::new('--proto', '--proto', [CompletionResultType]::ParameterName, 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--proto-path', '--proto-path', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--descriptor-set', '--descriptor-set', [CompletionResultType]::ParameterName, 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The payloads'' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python''s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'A TFDS folder''s records as any records (columns from a scan of the values), not typed by its features.json')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;to-arrow' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The Arrow IPC file to write (Feather v2; a local path or an object-store URL), or ''-'': an Arrow IPC stream on stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The Arrow IPC file to write (Feather v2; a local path or an object-store URL), or ''-'': an Arrow IPC stream on stdout')
            [CompletionResult]::new('--compression', '--compression', [CompletionResultType]::ParameterName, 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow''s SNAPPY): detected from the first bytes unless forced')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog')
            [CompletionResult]::new('--part', '--part', [CompletionResultType]::ParameterName, 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)')
            [CompletionResult]::new('--split', '--split', [CompletionResultType]::ParameterName, 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split''s shards in order: train, test, all, or TFDS''s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder''s every split is read, and a note says which')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Payload type: auto (the first record decides), example or sequence (SequenceExample: context features as columns, each feature list a list<list<…>> column), or event (tf.Event: a column per field, as with --message)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Payload type: auto (the first record decides), example or sequence (SequenceExample: context features as columns, each feature list a list<list<…>> column), or event (tf.Event: a column per field, as with --message)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The column types from this schema (`tfr schema --format json`) instead of a first pass over the inputs (needed for stdin, which cannot be read twice). Features of the records that it does not name are left out (with a warning); when no record has a feature it names but records hold others, that is an error (a schema of other data)')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'Only the records whose features match EXPR (''label == 1 && country == "US"'', ''has(image/encoded)''; the language: `tfr --help`)')
            [CompletionResult]::new('--max-aux-size', '--max-aux-size', [CompletionResultType]::ParameterName, 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Stop after N records (over the inputs taken together)')
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for --sample (the same seed picks the same records; default: a new sample each run)')
            [CompletionResult]::new('--proto', '--proto', [CompletionResultType]::ParameterName, 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--proto-path', '--proto-path', [CompletionResultType]::ParameterName, 'A directory where the imports of --proto files are found (repeatable; each file''s own directory is searched too, and google/protobuf/*.proto are built in)')
            [CompletionResult]::new('--descriptor-set', '--descriptor-set', [CompletionResultType]::ParameterName, 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The payloads'' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python''s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;from-parquet' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The TFRecord file to write (''-'' for stdout). It appears only when every row converted. With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ... (missing local directories are created), all appearing together')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The TFRecord file to write (''-'' for stdout). It appears only when every row converted. With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ... (missing local directories are created), all appearing together')
            [CompletionResult]::new('--shards', '--shards', [CompletionResultType]::ParameterName, 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)')
            [CompletionResult]::new('--shard-size', '--shard-size', [CompletionResultType]::ParameterName, 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('--rename', '--rename', [CompletionResultType]::ParameterName, 'Write the feature OLD as NEW (repeatable; after --features and --exclude, which name the columns'' features): `--rename image/bytes=image/encoded`')
            [CompletionResult]::new('--decimal', '--decimal', [CompletionResultType]::ParameterName, 'A DECIMAL column''s values (DuckDB types `i * 1.5` as one): float (float32, with a warning) or text (every digit, as bytes: "1.50")')
            [CompletionResult]::new('--null-in-list', '--null-in-list', [CompletionResultType]::ParameterName, 'A null among a list''s values (no Feature value is null): error, or drop (left out of the list)')
            [CompletionResult]::new('--read-paths', '--read-paths', [CompletionResultType]::ParameterName, 'Read the files an image or audio column ({bytes, path}, as Hugging Face `datasets` saves files loaded from local paths) names where a row holds the path but no bytes: only files under DIR (a relative path is taken from DIR; symbolic links are followed, and must stay under DIR)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--output-compression', '--output-compression', [CompletionResultType]::ParameterName, 'Compression of the output [default: from OUT''s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;from-arrow' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The TFRecord file to write (''-'' for stdout). It appears only when every row converted. With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ... (missing local directories are created), all appearing together')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The TFRecord file to write (''-'' for stdout). It appears only when every row converted. With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ... (missing local directories are created), all appearing together')
            [CompletionResult]::new('--shards', '--shards', [CompletionResultType]::ParameterName, 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)')
            [CompletionResult]::new('--shard-size', '--shard-size', [CompletionResultType]::ParameterName, 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Only these features: names or globs, comma-separated (`--features ''image/*,label''`). For a SequenceExample, context features and feature lists alike')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these features (names or globs, comma-separated)')
            [CompletionResult]::new('--rename', '--rename', [CompletionResultType]::ParameterName, 'Write the feature OLD as NEW (repeatable; after --features and --exclude, which name the columns'' features): `--rename image/bytes=image/encoded`')
            [CompletionResult]::new('--decimal', '--decimal', [CompletionResultType]::ParameterName, 'A DECIMAL column''s values (DuckDB types `i * 1.5` as one): float (float32, with a warning) or text (every digit, as bytes: "1.50")')
            [CompletionResult]::new('--null-in-list', '--null-in-list', [CompletionResultType]::ParameterName, 'A null among a list''s values (no Feature value is null): error, or drop (left out of the list)')
            [CompletionResult]::new('--read-paths', '--read-paths', [CompletionResultType]::ParameterName, 'Read the files an image or audio column ({bytes, path}, as Hugging Face `datasets` saves files loaded from local paths) names where a row holds the path but no bytes: only files under DIR (a relative path is taken from DIR; symbolic links are followed, and must stay under DIR)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)')
            [CompletionResult]::new('--output-compression', '--output-compression', [CompletionResultType]::ParameterName, 'Compression of the output [default: from OUT''s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Never show progress bars')
            [CompletionResult]::new('--no-sign-request', '--no-sign-request', [CompletionResultType]::ParameterName, 'Object stores (s3://, gs://, az://) without credentials, as for public data')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'tfr;help' {
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Print every record (or a range, or a random sample, of them).')
            [CompletionResult]::new('head', 'head', [CompletionResultType]::ParameterValue, 'Print the first records (10 by default) of the inputs, taken together.')
            [CompletionResult]::new('count', 'count', [CompletionResultType]::ParameterValue, 'Count the records of each input.')
            [CompletionResult]::new('verify-crc', 'verify-crc', [CompletionResultType]::ParameterValue, 'Check both CRCs of every record; report every fault; salvage the rest.')
            [CompletionResult]::new('to-jsonl', 'to-jsonl', [CompletionResultType]::ParameterValue, 'Write records as JSON lines: one compact object per record.')
            [CompletionResult]::new('from-jsonl', 'from-jsonl', [CompletionResultType]::ParameterValue, 'Write JSON lines as TFRecord records: the reverse of to-jsonl.')
            [CompletionResult]::new('reshard', 'reshard', [CompletionResultType]::ParameterValue, 'Merge, filter, recompress or shard records: into one file, N shards, or shards of at most a size.')
            [CompletionResult]::new('split', 'split', [CompletionResultType]::ParameterValue, 'Split records into train/eval/test by a stable hash.')
            [CompletionResult]::new('to-csv', 'to-csv', [CompletionResultType]::ParameterValue, 'Write records as CSV: a header of feature names, one row per record.')
            [CompletionResult]::new('to-wds', 'to-wds', [CompletionResultType]::ParameterValue, 'Write records as WebDataset tar shards: one sample per record.')
            [CompletionResult]::new('from-wds', 'from-wds', [CompletionResultType]::ParameterValue, 'Read WebDataset tar shards back into TFRecord records.')
            [CompletionResult]::new('extract', 'extract', [CompletionResultType]::ParameterValue, 'Write each value of a bytes feature to a file of its own.')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Describe a TFDS dataset folder (splits, record counts, features), or plain TFRecord files.')
            [CompletionResult]::new('scalars', 'scalars', [CompletionResultType]::ParameterValue, 'TensorBoard''s scalars as a table: run, tag, step, wall_time, value.')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Infer what a dataset holds, per feature; print a parse spec that works.')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Full statistics of a dataset, as TensorFlow Data Validation computes them.')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'One HTML page to look at a dataset: statistics, charts, thumbnails.')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Browse every record in a web page: thumbnails, annotations, all features.')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check the records against a schema, as TensorFlow Data Validation does, and their boxes: a CI data gate.')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Write an index file per input, for DALI and the tfrecord package.')
            [CompletionResult]::new('shuffle', 'shuffle', [CompletionResultType]::ParameterValue, 'Write the records in a uniform random order, in bounded memory.')
            [CompletionResult]::new('to-parquet', 'to-parquet', [CompletionResultType]::ParameterValue, 'Write records as rows of a Parquet file, with exact column types.')
            [CompletionResult]::new('to-arrow', 'to-arrow', [CompletionResultType]::ParameterValue, 'Write records as an Arrow IPC file, or an Arrow IPC stream on stdout.')
            [CompletionResult]::new('from-parquet', 'from-parquet', [CompletionResultType]::ParameterValue, 'Write the rows of Parquet files as TFRecord records (tf.train.Example).')
            [CompletionResult]::new('from-arrow', 'from-arrow', [CompletionResultType]::ParameterValue, 'Write the rows of Arrow IPC files or streams as TFRecord records.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tfr;help;cat' {
            break
        }
        'tfr;help;head' {
            break
        }
        'tfr;help;count' {
            break
        }
        'tfr;help;verify-crc' {
            break
        }
        'tfr;help;to-jsonl' {
            break
        }
        'tfr;help;from-jsonl' {
            break
        }
        'tfr;help;reshard' {
            break
        }
        'tfr;help;split' {
            break
        }
        'tfr;help;to-csv' {
            break
        }
        'tfr;help;to-wds' {
            break
        }
        'tfr;help;from-wds' {
            break
        }
        'tfr;help;extract' {
            break
        }
        'tfr;help;info' {
            break
        }
        'tfr;help;scalars' {
            break
        }
        'tfr;help;schema' {
            break
        }
        'tfr;help;stats' {
            break
        }
        'tfr;help;report' {
            break
        }
        'tfr;help;view' {
            break
        }
        'tfr;help;validate' {
            break
        }
        'tfr;help;index' {
            break
        }
        'tfr;help;shuffle' {
            break
        }
        'tfr;help;to-parquet' {
            break
        }
        'tfr;help;to-arrow' {
            break
        }
        'tfr;help;from-parquet' {
            break
        }
        'tfr;help;from-arrow' {
            break
        }
        'tfr;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
