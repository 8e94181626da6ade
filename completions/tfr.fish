# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_tfr_global_optspecs
    string join \n q/quiet color= no-sign-request timeout= h/help V/version
end

function __fish_tfr_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_tfr_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_tfr_using_subcommand
    set -l cmd (__fish_tfr_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c tfr -n "__fish_tfr_needs_command" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_needs_command" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_needs_command" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_needs_command" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_needs_command" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "cat" -d 'Print every record (or a range, or a random sample, of them).'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "head" -d 'Print the first records (10 by default) of the inputs, taken together.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "count" -d 'Count the records of each input.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "verify-crc" -d 'Check both CRCs of every record; report every fault; salvage the rest.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "to-jsonl" -d 'Write records as JSON lines: one compact object per record.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "from-jsonl" -d 'Write JSON lines as TFRecord records: the reverse of to-jsonl.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "reshard" -d 'Merge, filter, recompress or shard records: into one file, N shards, or shards of at most a size.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "split" -d 'Split records into train/eval/test by a stable hash.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "to-csv" -d 'Write records as CSV: a header of feature names, one row per record.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "to-wds" -d 'Write records as WebDataset tar shards: one sample per record.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "from-wds" -d 'Read WebDataset tar shards back into TFRecord records.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "extract" -d 'Write each value of a bytes feature to a file of its own.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "info" -d 'Describe a TFDS dataset folder (splits, record counts, features), or plain TFRecord files.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "scalars" -d 'TensorBoard\'s scalars as a table: run, tag, step, wall_time, value.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "schema" -d 'Infer what a dataset holds, per feature; print a parse spec that works.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "stats" -d 'Full statistics of a dataset, as TensorFlow Data Validation computes them.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "report" -d 'One HTML page to look at a dataset: statistics, charts, thumbnails.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "view" -d 'Browse every record in a web page: thumbnails, annotations, all features.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "validate" -d 'Check the records against a schema, as TensorFlow Data Validation does, and their boxes: a CI data gate.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "index" -d 'Write an index file per input, for DALI and the tfrecord package.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "shuffle" -d 'Write the records in a uniform random order, in bounded memory.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "to-parquet" -d 'Write records as rows of a Parquet file, with exact column types.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "to-arrow" -d 'Write records as an Arrow IPC file, or an Arrow IPC stream on stdout.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "from-parquet" -d 'Write the rows of Parquet files as TFRecord records (tf.train.Example).'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "from-arrow" -d 'Write the rows of Arrow IPC files or streams as TFRecord records.'
complete -c tfr -n "__fish_tfr_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -s f -l format -d 'Output format' -r -f -a "text\t'protobuf text format, as Python\'s text_format.MessageToString prints it'
json\t'The JSONL mapping (as to-jsonl), one line per record, no comment lines'
protojson\t'Protobuf\'s JSON mapping (json_format.MessageToJson), one line per record'"
complete -c tfr -n "__fish_tfr_using_subcommand cat" -s t -l type -d 'Payload type' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'
event\t'TensorBoard\'s tf.Event (event files; the default for files named events.out.tfevents.*): printed as protobuf\'s text format or JSON mapping'"
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l max-bytes -d 'On a terminal, bytes values longer than N are cut (text to N bytes, binary data to its first 8) and described (`# JPEG 640x480, 102,400 bytes`). Given, bytes values are shortened on a pipe too' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l max-values -d 'On a terminal, lists longer than N show their first N values and a summary (`# ... 504 more (512 floats, min -2.3, max 2.1)`). Given, lists (only) are shortened on a pipe too' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l proto -d 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand cat" -s I -l proto-path -d 'A directory where the imports of --proto files are found (repeatable; each file\'s own directory is searched too, and google/protobuf/*.proto are built in)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l descriptor-set -d 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l message -d 'The payloads\' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python\'s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l records -d 'Only these records, in the order given: 0-based numbers over the inputs taken together and inclusive ranges (17,1000-1010). Read by number: through each input\'s `tfr index` file when it still matches (milliseconds on a million records), else an index built by reading the headers (gzip and zlib: a seek index built as they are inflated; SNAPPY is not read by number). With --where: the listed records that match. A number past the end is an error' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l skip -d 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -s n -l limit -d 'Stop after N records (over the inputs taken together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l sample -d 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l seed -d 'Seed for --sample (the same seed picks the same records; default: a new sample each run)' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l full -d 'Print every value in full, on a terminal too'
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l decode -d 'Records as their tools decode them, one JSON object a line, for reading (not for from-jsonl). Of a TFDS dataset folder: as TFDS decodes them (tfds.as_numpy): nested features as objects, tensors as nested arrays by their shape (bytes- and zlib-encoded ones decoded), bools as true/false, an RLDS Dataset (steps) as a list of step objects; images stay their encoded bytes ({"base64": ...}). Of other inputs: the JSONL mapping, with each bytes value that is a tensor written by tf.io.serialize_tensor replaced by its values (nested arrays by its shape, a scalar bare), as tf.io.parse_tensor gives them'
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand cat" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand cat" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand cat" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand cat" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand head" -s n -l lines -d 'Number of records to print (over all inputs together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l records -d 'Only these records, in the order given: 0-based numbers over the inputs taken together and inclusive ranges (17,1000-1010). Read by number: through each input\'s `tfr index` file when it still matches (milliseconds on a million records), else an index built by reading the headers (gzip and zlib: a seek index built as they are inflated; SNAPPY is not read by number). With --where: the listed records that match. A number past the end is an error' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l skip -d 'Skip the first N records of the inputs taken together (hopped over header by header on plain files)' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand head" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -s f -l format -d 'Output format' -r -f -a "text\t'protobuf text format, as Python\'s text_format.MessageToString prints it'
json\t'The JSONL mapping (as to-jsonl), one line per record, no comment lines'
protojson\t'Protobuf\'s JSON mapping (json_format.MessageToJson), one line per record'"
complete -c tfr -n "__fish_tfr_using_subcommand head" -s t -l type -d 'Payload type' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'
event\t'TensorBoard\'s tf.Event (event files; the default for files named events.out.tfevents.*): printed as protobuf\'s text format or JSON mapping'"
complete -c tfr -n "__fish_tfr_using_subcommand head" -l max-bytes -d 'On a terminal, bytes values longer than N are cut (text to N bytes, binary data to its first 8) and described (`# JPEG 640x480, 102,400 bytes`). Given, bytes values are shortened on a pipe too' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l max-values -d 'On a terminal, lists longer than N show their first N values and a summary (`# ... 504 more (512 floats, min -2.3, max 2.1)`). Given, lists (only) are shortened on a pipe too' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l proto -d 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand head" -s I -l proto-path -d 'A directory where the imports of --proto files are found (repeatable; each file\'s own directory is searched too, and google/protobuf/*.proto are built in)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand head" -l descriptor-set -d 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand head" -l message -d 'The payloads\' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python\'s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand head" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand head" -l full -d 'Print every value in full, on a terminal too'
complete -c tfr -n "__fish_tfr_using_subcommand head" -l decode -d 'Records as their tools decode them, one JSON object a line, for reading (not for from-jsonl). Of a TFDS dataset folder: as TFDS decodes them (tfds.as_numpy): nested features as objects, tensors as nested arrays by their shape (bytes- and zlib-encoded ones decoded), bools as true/false, an RLDS Dataset (steps) as a list of step objects; images stay their encoded bytes ({"base64": ...}). Of other inputs: the JSONL mapping, with each bytes value that is a tensor written by tf.io.serialize_tensor replaced by its values (nested arrays by its shape, a scalar bare), as tf.io.parse_tensor gives them'
complete -c tfr -n "__fish_tfr_using_subcommand head" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand head" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand head" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand head" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand head" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand count" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand count" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand count" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand count" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand count" -l by -d 'Records per value of FEATURE, most frequent first (then by value): a record counts once under each distinct value it has (a list [1, 2, 2] counts under 1 and 2); records without the feature are counted as (missing), with an empty list as (no values). At most 1,000,000 distinct values (or 64 MiB of them) are told apart; the records of any further value are counted as (other values), with a warning. The table shows the 1,000 most frequent values and a row for the rest; --json lists every one. SequenceExamples and ELWC: their context. Messages (--message, event files): a path of fields (summary.value.tag), as --where reads it; an enum by name' -r
complete -c tfr -n "__fish_tfr_using_subcommand count" -s t -l type -d 'Payload type (for --where and --by; the first record decides when auto)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'
event\t'TensorBoard\'s tf.Event (event files; the default for files named events.out.tfevents.*): printed as protobuf\'s text format or JSON mapping'"
complete -c tfr -n "__fish_tfr_using_subcommand count" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand count" -l proto -d 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand count" -s I -l proto-path -d 'A directory where the imports of --proto files are found (repeatable; each file\'s own directory is searched too, and google/protobuf/*.proto are built in)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand count" -l descriptor-set -d 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand count" -l message -d 'The payloads\' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python\'s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field' -r
complete -c tfr -n "__fish_tfr_using_subcommand count" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand count" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand count" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand count" -l json -d 'Print JSON: {"files": [{"file", "records"[, "error"]}], "total"}; with --by: {"by", "total", "values": [{"value", "records"[, "name": a TFDS ClassLabel\'s class]}], "missing", "no_values"[, "other"]}'
complete -c tfr -n "__fish_tfr_using_subcommand count" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand count" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand count" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand count" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand count" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l salvage -d 'Write every intact record of every input, in order and byte-identical, to OUT (\'-\' for stdout). OUT is written through a temporary file and renamed into place at the end; its directory must exist' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l salvage-compression -d 'Compression of the salvage file [default: from OUT\'s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]' -r -f -a "none\t'Plain, not compressed'
gzip\t'gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream'
zlib\t'zlib (TensorFlow: compression_type="ZLIB")'
snappy\t'TensorFlow\'s SNAPPY stream (tf.data: compression_type="SNAPPY"): blocks of raw snappy, each after its 4-byte big-endian length'"
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -s t -l type -d 'With --payloads: what the payloads are. Auto decides by the first record, and takes a file for SequenceExamples as soon as a record has feature_lists (a SequenceExample with only a context is, byte for byte, an Example)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'
event\t'TensorBoard\'s tf.Event (event files; the default for files named events.out.tfevents.*): printed as protobuf\'s text format or JSON mapping'"
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l json -d 'Print the report as one JSON document on stdout: {"files": [{"file", "compression", "intact_records", "faults": [{"record", "offset", "kind", "message", "bytes_skipped", "resumed"}], "bytes_lost", "status"[, "error"]}], "total": {...}, "intact": bool}'
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l payloads -d 'Also check every intact payload as TensorFlow\'s C++ parser reads it (tf.io.parse_example, parse_single_example: what training uses): each record it would reject, or read other values from than protobuf (and tfr) does, is reported with the reason; exit 1. Checks Examples (parse_example) and SequenceExamples (parse_sequence_example), each file by its first record; ELWC files are said to be unchecked. A record over --max-record-size is not held: its CRCs are checked as it streams past, its payload is reported as not checked (exit 1)'
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand verify-crc" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s t -l type -d 'Payload type' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'
event\t'TensorBoard\'s tf.Event (event files; the default for files named events.out.tfevents.*): printed as protobuf\'s text format or JSON mapping'"
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s f -l format -d 'Output form' -r -f -a "json\t'The natural JSONL mapping: {"name": [v, ...], ...}'
protojson\t'Protobuf\'s JSON mapping (json_format.MessageToJson, one line)'"
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s o -l output -d 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l skip -d 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s n -l limit -d 'Stop after N records (over the inputs taken together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l sample -d 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l seed -d 'Seed for --sample (the same seed picks the same records; default: a new sample each run)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l proto -d 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s I -l proto-path -d 'A directory where the imports of --proto files are found (repeatable; each file\'s own directory is searched too, and google/protobuf/*.proto are built in)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l descriptor-set -d 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l message -d 'The payloads\' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python\'s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l records -d 'Only these records, in the order given: 0-based numbers over the inputs taken together and inclusive ranges (17,1000-1010), read by number as `tfr cat --records` reads them. With --where: the listed records that match. A number past the end is an error' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l decode -d 'Records as their tools decode them, one JSON object a line, for reading (not for from-jsonl). Of a TFDS dataset folder: as TFDS decodes them (tfds.as_numpy): nested features as objects, tensors as nested arrays by their shape (bytes- and zlib-encoded ones decoded), bools as true/false, an RLDS Dataset (steps) as a list of step objects; images stay their encoded bytes ({"base64": ...}). Of other inputs: the JSONL mapping, with each bytes value that is a tensor written by tf.io.serialize_tensor replaced by its values (nested arrays by its shape, a scalar bare), as tf.io.parse_tensor gives them'
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand to-jsonl" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -s o -l output -d 'The TFRecord file to write (\'-\' for stdout). It appears only when every line converted. Its directory must exist (as for a shell redirect; reshard, split and shuffle create theirs)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -s t -l type -d 'Message type of the records. auto: an ExampleListWithContext when the first line has an "examples" array of Examples (and at most "context" besides); a SequenceExample when its only keys are "context" (holding an object of features) and/or "feature_lists" (protojson: "context" or "featureLists"); else an Example; raw: each line is the payload, a JSON string or {"base64": "..."}' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'"
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -s f -l format -d 'Input form' -r -f -a "json\t'The natural JSONL mapping: {"name": [v, ...], ...}'
protojson\t'Protobuf\'s JSON mapping (json_format.MessageToJson, one line)'"
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l schema -d 'A schema from `tfr schema --format json`: forces the kind (int64, float, bytes) of each feature it names; others are inferred' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l max-line-size -d 'The longest line read (bytes; K, M, G suffixes): a longer one stops the run with an error instead of filling memory (converting a line takes a few times its size)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l on-kind-change -d 'When a plain value has another kind than its feature\'s first value (a typed value, {"int64_list": [...]} etc., is taken as it says). error: a feature seen as float takes later integers as floats (exact up to 2^24 in magnitude; a warning names the first line whose integer float32 holds only rounded), and any other change (int64 then float, bytes and numbers) stops the run naming both lines, exit 2, nothing written; keep: each line is written with the kinds it reads as, and a warning per feature names the lines (TensorFlow parses a feature as one kind, so such a file fails its parse spec)' -r -f -a "error\t'Integers after floats become floats; other changes are errors'
keep\t'Every line as it reads; a warning per feature'"
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l max-aux-size -d 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l proto -d 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -s I -l proto-path -d 'A directory where the imports of --proto files are found (repeatable; each file\'s own directory is searched too, and google/protobuf/*.proto are built in)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l descriptor-set -d 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l output-compression -d 'Compression of the output [default: from OUT\'s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]' -r -f -a "none\t'Plain, not compressed'
gzip\t'gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream'
zlib\t'zlib (TensorFlow: compression_type="ZLIB")'
snappy\t'TensorFlow\'s SNAPPY stream (tf.data: compression_type="SNAPPY"): blocks of raw snappy, each after its 4-byte big-endian length'"
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l message -d 'Each line is this protobuf message (its full name, pkg.Msg; its definition from --proto or --descriptor-set) in protobuf\'s JSON mapping, read as Python\'s json_format.Parse reads it (proto or JSON field names, integers as numbers or strings, enums by name or number, base64 bytes, the well-known types\' JSON forms, Any by "@type"), and written as SerializeToString(deterministic=True) writes it: the reverse of to-jsonl --message' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand from-jsonl" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -s o -l output -d 'The output: without --shards or --shard-size, exactly this file (merged, recompressed as its name says, filtered with --where); with them, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] (5 digits, more from 100000 shards). Missing local directories are created (and removed again if the run fails); an object-store URL works the same' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l shards -d 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)' -r
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l shard-size -d 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)' -r
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l output-compression -d 'Compression of the output [default: from OUT\'s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none] (--compression is the inputs\')' -r -f -a "none\t'Plain, not compressed'
gzip\t'gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream'
zlib\t'zlib (TensorFlow: compression_type="ZLIB")'
snappy\t'TensorFlow\'s SNAPPY stream (tf.data: compression_type="SNAPPY"): blocks of raw snappy, each after its 4-byte big-endian length'"
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand reshard" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand split" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand split" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l ratio -d 'The splits and their ratios: NAME=WEIGHT,... (weights are relative: train=8,eval=1,test=1 and train=0.8,eval=0.1,test=0.1 are the same). Names: letters, digits, \'_\', \'-\', \'.\'' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -s o -l output -d 'The output of each split: a name holding {split}, replaced by the split\'s name (\'data/{split}.tfrecord.gz\'); with --shards or --shard-size each split is sharded (\'{split}-00000-of-00004...\'). Missing local directories are created (and removed again if the run fails)' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l by -d 'Hash this feature\'s values instead of the whole record (an Example\'s feature, a SequenceExample\'s context feature): records with equal values go to the same split. Records without it all go to one split' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l seed -d 'Seed of the hash: another seed, another (equally stable) split' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l shards -d 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l shard-size -d 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l output-compression -d 'Compression of the output [default: from OUT\'s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none] (--compression is the inputs\')' -r -f -a "none\t'Plain, not compressed'
gzip\t'gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream'
zlib\t'zlib (TensorFlow: compression_type="ZLIB")'
snappy\t'TensorFlow\'s SNAPPY stream (tf.data: compression_type="SNAPPY"): blocks of raw snappy, each after its 4-byte big-endian length'"
complete -c tfr -n "__fish_tfr_using_subcommand split" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand split" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand split" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand split" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand split" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand split" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand split" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -s t -l type -d 'Payload type (all inputs are one dataset: its first record decides)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'"
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -s o -l output -d 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -s s -l schema -d 'The columns from this schema (the JSON of `tfr schema -f json`) instead of a first pass over the inputs (needed for stdin). Features of the records that it does not name are left out' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l lists -d 'Features with more than one value in some record: a JSON array in the cell (json), or left out with a note (omit)' -r -f -a "json\t'A JSON array in the cell (the JSONL mapping of the feature)'
omit\t'Left out (one note on stderr names them)'"
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l skip -d 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -s n -l limit -d 'Stop after N records (over the inputs taken together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l sample -d 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l seed -d 'Seed for --sample (the same seed picks the same records; default: a new sample each run)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l max-aux-size -d 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l safe-spreadsheet -d 'For a spreadsheet: a text cell or feature name that begins with \'=\', \'+\', \'-\', \'@\', a tab, a carriage return or a NUL (which a spreadsheet reads as a formula: `=HYPERLINK(...)` makes a link that sends data away, `=cmd|...` can start a program) gets a leading "\'", so it is shown as text. Numbers (int64 and float cells, `-3`, `-Infinity`) are left as they are; JSON cells begin with \'[\' or \'{\''
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand to-csv" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -s o -l output -d 'The shards: DIR/NAME.tar writes DIR/NAME-000000.tar, ... (a local directory, created if missing, or an object-store prefix)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l shard-size -d 'Shards of at most SIZE bytes (K, M, G: binary units); a sample larger than SIZE has a shard of its own' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l shard-records -d 'At most N samples in a shard' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l key -d 'Each sample\'s key from this feature\'s one value (its \'.\', \'/\' and control characters written \'_\'), instead of the record\'s number; a key given twice within a shard is an error' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l cls -d 'The int64 feature written as KEY.cls [default: one named label or ending /label, with one value]' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -s t -l type -d 'Payload type (all inputs are one dataset: its first record decides)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'"
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l lists -d 'Every feature in KEY.json as a list, as the JSONL mapping writes it ([7], ["cat"]), without the first pass over the records that finds the features holding one value in every record (written bare: 7, "cat"). Reading stdin, there is no first pass: lists'
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand to-wds" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -s o -l output -d 'The TFRecord file written (compression from its name: .gz, .zz or .zlib, .snappy; else none). With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ..., all appearing together' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l shards -d 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l shard-size -d 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l output-compression -d 'Compression of the output [default: from OUT\'s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]' -r -f -a "none\t'Plain, not compressed'
gzip\t'gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream'
zlib\t'zlib (TensorFlow: compression_type="ZLIB")'
snappy\t'TensorFlow\'s SNAPPY stream (tf.data: compression_type="SNAPPY"): blocks of raw snappy, each after its 4-byte big-endian length'"
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -s t -l type -d 'What each sample becomes: auto (SequenceExamples when the first sample\'s .json is one, with "context" or "feature_lists", else Examples: one type in the output), example, sequence (the members\' features go to the context; `{}` is then an empty SequenceExample)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'"
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l key -d 'Keep each sample\'s key as a bytes feature of this name' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l schema -d 'A schema from `tfr schema --format json`: forces the kind (int64, float, bytes) of each .json feature it names (nested objects are named a/b); others are inferred' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l keep-json -d 'Keep each sample\'s .json whole, as one bytes feature (named json, or FEATURE), instead of a feature per key' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l max-record-size -d 'The largest member (and sample) held in memory (bytes; K, M, G suffixes): a larger one is refused with an error' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l rename -d 'Write the member feature OLD (its extension, its PAX name, or --keep-json\'s) as NEW (repeatable): `--rename jpg=image/encoded --rename png=image/encoded`. A .json\'s keys keep their names' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l max-aux-size -d 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand from-wds" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l feature -d 'The bytes feature whose values are written (an Example\'s feature, a SequenceExample\'s context feature)' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -s o -l output -d 'The directory the files go to (created if missing)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l name -d 'Each file\'s name: {record} (the record\'s number among those read, from 0; {record:06} zero-padded), {index} (its index in its input file), {value} (the value\'s index), {FEATURE} (that feature\'s one value), \'{{\' and \'}}\' for braces; the extension is added' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -s t -l type -d 'Payload type (all inputs are one dataset: its first record decides)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'"
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l skip -d 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -s n -l limit -d 'Stop after N records (over the inputs taken together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l sample -d 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l seed -d 'Seed for --sample (the same seed picks the same records; default: a new sample each run)' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand extract" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand extract" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand extract" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand extract" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand info" -l names -d 'Class names shown per ClassLabel (--json lists all)' -r
complete -c tfr -n "__fish_tfr_using_subcommand info" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand info" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand info" -l json -d 'Print one JSON document instead of the tables'
complete -c tfr -n "__fish_tfr_using_subcommand info" -l check -d 'Read every shard and check it holds the records dataset_info.json says: exit 1, naming split, shard and both counts, where one differs or a shard is missing'
complete -c tfr -n "__fish_tfr_using_subcommand info" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand info" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand info" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand info" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -s f -l format -d 'Output form' -r -f -a "table\t'Aligned columns'
csv\t'CSV with a header (floats as Python writes them: NaN empty, inf)'
jsonl\t'One JSON object a line'
parquet\t'A Parquet file (needs -o): run, tag (string), step (int64), wall_time, value (double)'"
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -s o -l output -d 'Write to OUT (through a temporary file renamed on success, so a failed run leaves nothing) instead of stdout' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -l tags -d 'Only tags this regular expression finds a match in (`--tags \'^loss\'`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -l runs -d 'Only runs this regular expression finds a match in (the run of a file directly in LOGDIR is the empty string)' -r
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand scalars" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -s f -l format -d 'Output format: table, json (every statistic; the input of `tfr from-jsonl --schema`), tf (a Python parse spec for TensorFlow), tfdv-schema (schema.pbtxt as TFDV infers it, for `tfr validate`)' -r -f -a "table\t'A table per feature, readable in an 80-column terminal'
json\t'One JSON document with every statistic (also `tfr from-jsonl --schema` input); documented in the man page and `cargo doc` (tfr::cmd::schema)'
tf\t'A ready-to-paste Python `feature_description` for tf.io.parse_example'
tfdv-schema\t'A TFDV schema (tensorflow_metadata Schema, text format) as tfdv.infer_schema infers it: for tfdv.load_schema_text and `tfr validate --schema`'"
complete -c tfr -n "__fish_tfr_using_subcommand schema" -s t -l type -d 'Payload type (all inputs are one dataset of one type)' -r -f -a "auto\t'The first record decides: a SequenceExample when it has feature_lists, else an Example (an ExampleListWithContext when its names read as nested protobuf otherwise); every other record must match'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext: context features per record, example features per example'"
complete -c tfr -n "__fish_tfr_using_subcommand schema" -s n -l limit -d 'Scan only the first N records (over all inputs together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l json -d 'Same as --format json'
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand schema" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand schema" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand schema" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand stats" -s f -l format -d 'Output format: table, json (tfr\'s, mergeable), tfdv-stats (binary, for tfdv.load_statistics), tfdv-stats-text (tfdv.load_stats_text)' -r -f -a "table\t'A table per feature'
json\t'tfr\'s statistics with the state of every sketch: the input of `tfr stats --merge`'
tfdv-stats\t'TFDV\'s DatasetFeatureStatisticsList as binary protobuf in a TFRecord (what tfdv.generate_statistics_from_tfrecord writes; tfdv.load_statistics reads it)'
tfdv-stats-text\t'TFDV\'s DatasetFeatureStatisticsList in protobuf text format (tfdv.load_stats_text)'"
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l merge -d 'Merge statistics saved by `tfr stats --format json` (repeatable; the FILES, if any, are added to them)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l max-aux-size -d 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -s t -l type -d 'Payload type (all inputs are one dataset of one type)' -r -f -a "auto\t'The first record decides: a SequenceExample when it has feature_lists, else an Example (an ExampleListWithContext when its names read as nested protobuf otherwise); every other record must match'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext: context features per record, example features per example'"
complete -c tfr -n "__fish_tfr_using_subcommand stats" -s n -l limit -d 'Scan only the first N records (over all inputs together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l bbox -d 'The boxes\' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object Detection API\'s image/object/bbox), or PREFIX itself holding [ymin, xmin, ymax, xmax] per box (as TFDS\'s objects/bbox). Without it both layouts are found by their names' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l label-map -d 'A label map (the Object Detection API\'s StringIntLabelMap in text format, label_map.pbtxt): class ids are shown by its names, and an id it lacks is an annotation problem' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l compare -d 'Compare with a second dataset B: its files, folders, quoted globs or URLs (every value up to the next option), or one statistics file (TFDV\'s binary or text DatasetFeatureStatisticsList, or what `tfr stats -f tfdv-stats[-text]` writes). The inputs before it are dataset A, and may be one statistics file too' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l compare-split -d 'The TFDS split of the --compare dataset (default: --split\'s)' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l json -d 'The same as --format json (with --compare: the comparison as JSON)'
complete -c tfr -n "__fish_tfr_using_subcommand stats" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand stats" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand stats" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand report" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand report" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -s o -l output -d 'Write the page to FILE (replaced only once complete); without it the page goes to stdout, which must not be a terminal' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand report" -l records -d 'Records shown in the gallery: the first N (at most 10,000)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l sample -d 'Show N records sampled uniformly at random instead of the first (at most 10,000)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l seed -d 'Seed for --sample (the same seed picks the same records)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l image-feature -d 'Show this bytes feature as pictures even when its values are not recognised as JPEG, PNG, GIF or WebP (repeatable)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l schema -d 'Check the data against this schema (a schema.pbtxt from TFDV or `tfr schema -f tfdv-schema`, or tfr\'s schema JSON) and show the anomalies `tfr validate` reports, the features marked' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand report" -l max-aux-size -d 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l title -d 'The page\'s title (default: the inputs)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l bbox -d 'The boxes\' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object Detection API\'s image/object/bbox), or PREFIX itself holding [ymin, xmin, ymax, xmax] per box (as TFDS\'s objects/bbox). Without it both layouts are found by their names' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l label-map -d 'A label map (the Object Detection API\'s StringIntLabelMap in text format, label_map.pbtxt): class ids are shown by its names, and an id it lacks is an annotation problem' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand report" -l highlight -d 'Draw the boxes of these classes highlighted and the others dimmed (names or ids, comma-separated: --highlight person,car)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -s t -l type -d 'Payload type (all inputs are one dataset of one type)' -r -f -a "auto\t'The first record decides: a SequenceExample when it has feature_lists, else an Example (an ExampleListWithContext when its names read as nested protobuf otherwise); every other record must match'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext: context features per record, example features per example'"
complete -c tfr -n "__fish_tfr_using_subcommand report" -s n -l limit -d 'Scan only the first N records (over all inputs together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l compare -d 'Compare with a second dataset B: its files, folders, quoted globs or URLs (every value up to the next option), or one statistics file (TFDV\'s binary or text DatasetFeatureStatisticsList, or what `tfr stats -f tfdv-stats[-text]` writes). The inputs before it are dataset A, and may be one statistics file too' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l compare-split -d 'The TFDS split of the --compare dataset (default: --split\'s)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand report" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand report" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand report" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand report" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand report" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand view" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand view" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -s t -l type -d 'Payload type (all inputs are one dataset: its first record decides)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'"
complete -c tfr -n "__fish_tfr_using_subcommand view" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l bbox -d 'The boxes\' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object Detection API\'s image/object/bbox), or PREFIX itself holding [ymin, xmin, ymax, xmax] per box (as TFDS\'s objects/bbox). Without it both layouts are found by their names' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l label-map -d 'A label map (the Object Detection API\'s StringIntLabelMap in text format, label_map.pbtxt): class ids are shown by its names, and an id it lacks is an annotation problem' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand view" -l highlight -d 'Draw the boxes of these classes highlighted and the others dimmed (names or ids, comma-separated: --highlight person,car)' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l host -d 'Listen on this address: 127.0.0.1 (this machine only) by default; another address (0.0.0.0: every interface) lets anyone who can reach it read the inputs, and a warning says so' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l port -d 'Listen on this port (0, the default: a free one, printed)' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l title -d 'The page\'s title (default: the inputs)' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand view" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand view" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand view" -l open -d 'Open the page in the default browser (xdg-open; open on macOS)'
complete -c tfr -n "__fish_tfr_using_subcommand view" -l no-idx -d 'Do not use the index files `tfr index` wrote beside the inputs (NAME.idx): index each plain input by reading it through'
complete -c tfr -n "__fish_tfr_using_subcommand view" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand view" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand view" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand view" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand validate" -s s -l schema -d 'The schema: a schema.pbtxt (TFDV\'s tensorflow_metadata Schema in text format, from tfdv.write_schema_text or `tfr schema -f tfdv-schema`), or tfr\'s schema JSON (`tfr schema -f json`). Without it only the annotations are checked' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l environment -d 'Validate in this environment of the schema (TFDV\'s validate_statistics(environment=NAME)): a feature is in it by its in_environment, else not by its not_in_environment, else by the schema\'s default_environment. A feature not in it need not be present, and is SCHEMA_NEW_COLUMN when it is. The name must be one of the schema\'s default_environment (as TFDV requires)' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l previous -d 'Drift: the previous span, to compare with by the schema\'s drift_comparator and num_examples_drift_comparator (TFDV\'s previous_statistics). A statistics file (TFDV\'s, binary or text, or `tfr stats -f tfdv-stats[-text]`; local, within --max-aux-size) or records (a file, folder, glob or URL: their statistics are computed as `tfr stats` computes them)' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l serving -d 'Skew: serving data, to compare with by the schema\'s skew_comparator (TFDV\'s serving_statistics); a statistics file or records, as --previous' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l previous-version -d 'The previous version of this dataset, to compare the number of examples with by the schema\'s num_examples_version_comparator (TFDV\'s previous_version_statistics); a statistics file or records' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l bbox -d 'The boxes\' features: PREFIX/{xmin,ymin,xmax,ymax} (as the Object Detection API\'s image/object/bbox), or PREFIX itself holding [ymin, xmin, ymax, xmax] per box (as TFDS\'s objects/bbox). Without it both layouts are found by their names' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l label-map -d 'A label map (the Object Detection API\'s StringIntLabelMap in text format, label_map.pbtxt): class ids are shown by its names, and an id it lacks is an annotation problem' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l max-aux-size -d 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -s t -l type -d 'Payload type (all inputs are one dataset of one type)' -r -f -a "auto\t'The first record decides: a SequenceExample when it has feature_lists, else an Example; every other record must match'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample: its context features are checked'"
complete -c tfr -n "__fish_tfr_using_subcommand validate" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l json -d 'Print one JSON document (anomalies with TFDV\'s AnomalyInfo.Type names, annotation problems with BBOX_* / CLASS_NOT_IN_LABEL_MAP, and an "annotations" summary) instead of the table'
complete -c tfr -n "__fish_tfr_using_subcommand validate" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand validate" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand validate" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand index" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand index" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand index" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand index" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand index" -l out-dir -d 'Write the index files into DIR (named after each input: DIR/NAME.idx) instead of beside the inputs' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand index" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand index" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand index" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand index" -l check -d 'Write nothing: say for each input whether its index file still matches it (exit 1 when one does not, or is missing)'
complete -c tfr -n "__fish_tfr_using_subcommand index" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand index" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand index" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand index" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -s o -l output -d 'Write to OUT (`.gz`, `.zz`/`.zlib`, `.snappy` compress it; `-` is stdout). With --shards, OUT names the shards: out/train.tfrecord.gz gives out/train-00000-of-00004.tfrecord.gz and so on. Missing local directories are created (and removed again if the run fails)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l shards -d 'Write N shards of (nearly) equal record counts, consecutive runs of the shuffled order; all appear together, or none' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l seed -d 'Seed of the order: the same seed and records give the same output (whatever -j and --memory); default: a new order each run' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l memory -d 'Records held in memory at most (K, M, G: binary units; 16M or more); beyond it they spill to temporary files, and tfr\'s peak memory stays about this much plus the reader\'s (-j × 1 MB)' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l temp-dir -d 'Where the temporary files go when the records exceed --memory (they take about the dataset\'s uncompressed size, and are removed on every exit); default: $TMPDIR, else /tmp' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l output-compression -d 'Compression of the output(s) [default: from OUT\'s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none] (--compression is the inputs\')' -r -f -a "none\t'Plain, not compressed'
gzip\t'gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream'
zlib\t'zlib (TensorFlow: compression_type="ZLIB")'
snappy\t'TensorFlow\'s SNAPPY stream (tf.data: compression_type="SNAPPY"): blocks of raw snappy, each after its 4-byte big-endian length'"
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand shuffle" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -s o -l output -d 'The Parquet file to write. With --shards or --rows-per-file, DIR/NAME.parquet writes DIR/NAME-00000-of-0000N.parquet ... (the directory is created if missing). A local path or an object-store URL. Of a TFDS folder, {split} stands for each split\'s name (hf/{split}.parquet --shards 2: hf/train-00000-of-00002.parquet ...)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -s t -l type -d 'Payload type: auto (the first record decides), example or sequence (SequenceExample: context features as columns, each feature list a list<list<…>> column), or event (tf.Event: a column per field, as with --message)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'
event\t'TensorBoard\'s tf.Event (event files; the default for files named events.out.tfevents.*): printed as protobuf\'s text format or JSON mapping'"
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l schema -d 'The column types from this schema (`tfr schema --format json`) instead of a first pass over the inputs (needed for stdin, which cannot be read twice). Features of the records that it does not name are left out (with a warning); when no record has a feature it names but records hold others, that is an error (a schema of other data)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l max-aux-size -d 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l skip -d 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -s n -l limit -d 'Stop after N records (over the inputs taken together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l sample -d 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l seed -d 'Seed for --sample (the same seed picks the same records; default: a new sample each run)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l shards -d 'N files, balanced by rows (their counts differ by at most one)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l rows-per-file -d 'Files of at most N rows each (the last may hold fewer)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l output-compression -d 'Compression of the column data: zstd (level 1), snappy (pyarrow\'s default), or none' -r -f -a "zstd\t''
snappy\t''
none\t''"
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l row-group-size -d 'A row group ends when its encoded size reaches SIZE (bytes; K, M, G suffixes) or at 1,048,576 rows: the memory a row group takes while it is written [default: 64M; 8M for a TFDS dataset with images, whose readers fetch a row group at a time]' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l explode -d 'Of a TFDS folder: the steps of this Dataset feature (an RLDS dataset\'s steps) as rows, one per step, with episode_index, step_index and the episode\'s other features repeated (the step features without the \'steps/\' prefix). Default: one row per episode, each step feature a list' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l proto -d 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -s I -l proto-path -d 'A directory where the imports of --proto files are found (repeatable; each file\'s own directory is searched too, and google/protobuf/*.proto are built in)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l descriptor-set -d 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l message -d 'The payloads\' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python\'s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l plain -d 'A TFDS folder\'s records as any records (columns from a scan of the values), not typed by its features.json'
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand to-parquet" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -s o -l output -d 'The Arrow IPC file to write (Feather v2; a local path or an object-store URL), or \'-\': an Arrow IPC stream on stdout' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l compression -d 'Input compression (auto, none, gzip, zlib, snappy: TensorFlow\'s SNAPPY): detected from the first bytes unless forced' -r -f -a "auto\t'Detect from the first bytes (gzip magic, zlib header, a first SNAPPY block holding a record header, else plain)'
none\t''
gzip\t''
zlib\t''
snappy\t'TensorFlow\'s SNAPPY stream (tf.data\'s compression_type="SNAPPY")'"
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l max-record-size -d 'The longest record held in memory (K, M, G: binary units); a record announcing more is an error, not a memory hog' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l part -d 'Only the K-th of N disjoint parts of the inputs (0 <= K < N): N workers cover them exactly once (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l split -d 'Of a TFDS dataset folder (its dataset_info.json names the splits), read this split\'s shards in order: train, test, all, or TFDS\'s slices by record or percent (train[:10%], test[-500:], train[1000:2000]+test). Without it a folder\'s every split is read, and a note says which' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -s t -l type -d 'Payload type: auto (the first record decides), example or sequence (SequenceExample: context features as columns, each feature list a list<list<…>> column), or event (tf.Event: a column per field, as with --message)' -r -f -a "auto\t'The first record (from-jsonl: the first line) of each input decides: a SequenceExample when it has feature_lists, else an Example; an ExampleListWithContext when that reading has names made of nested protobuf and the ELWC reading does not (from-jsonl: when the line\'s keys are "examples" and "context")'
example\t'tf.train.Example'
sequence\t'tf.train.SequenceExample'
elwc\t'tensorflow.serving.ExampleListWithContext (TF-Ranking\'s ELWC): a context Example and a list of Examples'
raw\t'Any bytes, printed escaped (JSON: a string, or {"base64": ...})'
event\t'TensorBoard\'s tf.Event (event files; the default for files named events.out.tfevents.*): printed as protobuf\'s text format or JSON mapping'"
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l schema -d 'The column types from this schema (`tfr schema --format json`) instead of a first pass over the inputs (needed for stdin, which cannot be read twice). Features of the records that it does not name are left out (with a warning); when no record has a feature it names but records hold others, that is an error (a schema of other data)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l where -d 'Only the records whose features match EXPR (\'label == 1 && country == "US"\', \'has(image/encoded)\'; the language: `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l max-aux-size -d 'The largest --schema or --merge file read (bytes; K, M, G suffixes): such a file is read whole, and its parsed form takes a few times its size in memory; a larger one is refused' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l skip -d 'Skip the first N records of the inputs taken together (on plain files they are hopped over header by header, as `count` does)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -s n -l limit -d 'Stop after N records (over the inputs taken together)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l sample -d 'A uniform random sample of N records of the inputs taken together (reservoir sampling: one pass, holding N records), in input order' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l seed -d 'Seed for --sample (the same seed picks the same records; default: a new sample each run)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l proto -d 'Payloads are messages defined in this .proto file (repeatable), compiled by tfr itself (no protoc needed); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -s I -l proto-path -d 'A directory where the imports of --proto files are found (repeatable; each file\'s own directory is searched too, and google/protobuf/*.proto are built in)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l descriptor-set -d 'Payloads are messages described in this descriptor set (from `protoc --descriptor_set_out=FILE.pb --include_imports`; repeatable); name the message with --message' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l message -d 'The payloads\' message, by its full name (`waymo.open_dataset.Frame`): cat and head print it as Python\'s text_format.MessageToString does, JSON as json_format.MessageToJson(preserving_proto_field_name=True) on one line; to-parquet and to-arrow write a column per field' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l strict -d 'A feature named in --where (or count/split --by) that no record read has is an error (exit 2; outputs written together are not written), not a warning'
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand to-arrow" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -s o -l output -d 'The TFRecord file to write (\'-\' for stdout). It appears only when every row converted. With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ... (missing local directories are created), all appearing together' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l shards -d 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l shard-size -d 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l rename -d 'Write the feature OLD as NEW (repeatable; after --features and --exclude, which name the columns\' features): `--rename image/bytes=image/encoded`' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l decimal -d 'A DECIMAL column\'s values (DuckDB types `i * 1.5` as one): float (float32, with a warning) or text (every digit, as bytes: "1.50")' -r -f -a "float\t'float32 (a warning says so)'
text\t'The digits, as bytes'"
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l null-in-list -d 'A null among a list\'s values (no Feature value is null): error, or drop (left out of the list)' -r -f -a "error\t'One error line naming the column and row'
drop\t'Left out of the list'"
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l read-paths -d 'Read the files an image or audio column ({bytes, path}, as Hugging Face `datasets` saves files loaded from local paths) names where a row holds the path but no bytes: only files under DIR (a relative path is taken from DIR; symbolic links are followed, and must stay under DIR)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l output-compression -d 'Compression of the output [default: from OUT\'s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]' -r -f -a "none\t'Plain, not compressed'
gzip\t'gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream'
zlib\t'zlib (TensorFlow: compression_type="ZLIB")'
snappy\t'TensorFlow\'s SNAPPY stream (tf.data: compression_type="SNAPPY"): blocks of raw snappy, each after its 4-byte big-endian length'"
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand from-parquet" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -s o -l output -d 'The TFRecord file to write (\'-\' for stdout). It appears only when every row converted. With --shards or --shard-size, DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz] ... (missing local directories are created), all appearing together' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l shards -d 'N shards, balanced by records (their counts differ by at most one; with more shards than records, some are empty). The records are counted in a first pass: the inputs are read twice (not stdin)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l shard-size -d 'Shards of at most SIZE bytes as written (compressed, for a compressed output; K, M, G: binary units, 100M = 104857600 bytes): a new shard starts when the next record could go over it; a record larger than SIZE alone has a shard of its own. One pass; local outputs only (the count is known at the end)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l features -d 'Only these features: names or globs, comma-separated (`--features \'image/*,label\'`). For a SequenceExample, context features and feature lists alike' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l exclude -d 'Leave out these features (names or globs, comma-separated)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l rename -d 'Write the feature OLD as NEW (repeatable; after --features and --exclude, which name the columns\' features): `--rename image/bytes=image/encoded`' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l decimal -d 'A DECIMAL column\'s values (DuckDB types `i * 1.5` as one): float (float32, with a warning) or text (every digit, as bytes: "1.50")' -r -f -a "float\t'float32 (a warning says so)'
text\t'The digits, as bytes'"
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l null-in-list -d 'A null among a list\'s values (no Feature value is null): error, or drop (left out of the list)' -r -f -a "error\t'One error line naming the column and row'
drop\t'Left out of the list'"
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l read-paths -d 'Read the files an image or audio column ({bytes, path}, as Hugging Face `datasets` saves files loaded from local paths) names where a row holds the path but no bytes: only files under DIR (a relative path is taken from DIR; symbolic links are followed, and must stay under DIR)' -r -F
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -s j -l jobs -d 'Threads to use [default: the cores; at most 64]; the output is the same for any N (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l output-compression -d 'Compression of the output [default: from OUT\'s name: .gz gzip, .zz or .zlib zlib, .snappy SNAPPY, else none]' -r -f -a "none\t'Plain, not compressed'
gzip\t'gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream'
zlib\t'zlib (TensorFlow: compression_type="ZLIB")'
snappy\t'TensorFlow\'s SNAPPY stream (tf.data: compression_type="SNAPPY"): blocks of raw snappy, each after its 4-byte big-endian length'"
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l color -d 'When to use colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l timeout -d 'Give up on a command reading or writing URLs DURATION after it started (30s, 5m, 1h): one error line, exit 2 (see `tfr --help`)' -r
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -s q -l quiet -d 'Never show progress bars'
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -l no-sign-request -d 'Object stores (s3://, gs://, az://) without credentials, as for public data'
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tfr -n "__fish_tfr_using_subcommand from-arrow" -s V -l version -d 'Print version'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "cat" -d 'Print every record (or a range, or a random sample, of them).'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "head" -d 'Print the first records (10 by default) of the inputs, taken together.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "count" -d 'Count the records of each input.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "verify-crc" -d 'Check both CRCs of every record; report every fault; salvage the rest.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "to-jsonl" -d 'Write records as JSON lines: one compact object per record.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "from-jsonl" -d 'Write JSON lines as TFRecord records: the reverse of to-jsonl.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "reshard" -d 'Merge, filter, recompress or shard records: into one file, N shards, or shards of at most a size.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "split" -d 'Split records into train/eval/test by a stable hash.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "to-csv" -d 'Write records as CSV: a header of feature names, one row per record.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "to-wds" -d 'Write records as WebDataset tar shards: one sample per record.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "from-wds" -d 'Read WebDataset tar shards back into TFRecord records.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "extract" -d 'Write each value of a bytes feature to a file of its own.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "info" -d 'Describe a TFDS dataset folder (splits, record counts, features), or plain TFRecord files.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "scalars" -d 'TensorBoard\'s scalars as a table: run, tag, step, wall_time, value.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "schema" -d 'Infer what a dataset holds, per feature; print a parse spec that works.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "stats" -d 'Full statistics of a dataset, as TensorFlow Data Validation computes them.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "report" -d 'One HTML page to look at a dataset: statistics, charts, thumbnails.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "view" -d 'Browse every record in a web page: thumbnails, annotations, all features.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "validate" -d 'Check the records against a schema, as TensorFlow Data Validation does, and their boxes: a CI data gate.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "index" -d 'Write an index file per input, for DALI and the tfrecord package.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "shuffle" -d 'Write the records in a uniform random order, in bounded memory.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "to-parquet" -d 'Write records as rows of a Parquet file, with exact column types.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "to-arrow" -d 'Write records as an Arrow IPC file, or an Arrow IPC stream on stdout.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "from-parquet" -d 'Write the rows of Parquet files as TFRecord records (tf.train.Example).'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "from-arrow" -d 'Write the rows of Arrow IPC files or streams as TFRecord records.'
complete -c tfr -n "__fish_tfr_using_subcommand help; and not __fish_seen_subcommand_from cat head count verify-crc to-jsonl from-jsonl reshard split to-csv to-wds from-wds extract info scalars schema stats report view validate index shuffle to-parquet to-arrow from-parquet from-arrow help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
