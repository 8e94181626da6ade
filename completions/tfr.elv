
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
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand cat 'Print every record.'
            cand head 'Print the first records (10 by default) of the inputs, taken together.'
            cand count 'Count the records of each input.'
            cand verify-crc 'Check both CRCs of every record; report every fault; salvage the rest.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'tfr;cat'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand -f 'Output format'
            cand --format 'Output format'
            cand -t 'Payload type'
            cand --type 'Payload type'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;head'= {
            cand -n 'Number of records to print (over all inputs together)'
            cand --lines 'Number of records to print (over all inputs together)'
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand -f 'Output format'
            cand --format 'Output format'
            cand -t 'Payload type'
            cand --type 'Payload type'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;count'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --json 'Print JSON: {"files": [{"file", "records"[, "error"]}], "total"}'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;verify-crc'= {
            cand --compression 'Input compression: detected from the first bytes unless forced'
            cand --salvage 'Write every intact record of every input, in order and byte-identical, to OUT (''-'' for stdout). OUT is written through a temporary file and renamed into place at the end'
            cand --salvage-compression 'Compression of the salvage file: the same as the (first) input, or forced'
            cand --color 'When to use colour: auto (terminal and no NO_COLOR), always, never'
            cand --json 'Print the report as one JSON document on stdout: {"files": [{"file", "compression", "intact_records", "faults": [{"record", "offset", "kind", "message", "bytes_skipped", "resumed"}], "bytes_lost", "status"[, "error"]}], "total": {...}, "intact": bool}'
            cand -q 'Never show progress bars'
            cand --quiet 'Never show progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'tfr;help'= {
            cand cat 'Print every record.'
            cand head 'Print the first records (10 by default) of the inputs, taken together.'
            cand count 'Count the records of each input.'
            cand verify-crc 'Check both CRCs of every record; report every fault; salvage the rest.'
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
        &'tfr;help;help'= {
        }
    ]
    $completions[$command]
}
