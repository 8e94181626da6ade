//! The `tfr` binary: a thin wrapper turning `tfr::run()` into a process exit code.

fn main() -> std::process::ExitCode {
    tfr::main_entry()
}
