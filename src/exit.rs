//! The process exit codes, in one place.

use std::process::ExitCode;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// Everything worked (also: output pipe closed early).
    Success = 0,
    /// A check found damage (verify-crc), anomalies (validate) or a stale
    /// index (index --check).
    DamageFound = 1,
    /// Any error: usage, I/O, damaged input.
    Error = 2,
}

impl Exit {
    /// The worse of two outcomes.
    pub(crate) fn max(self, other: Exit) -> Exit {
        if other as u8 > self as u8 {
            other
        } else {
            self
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_as_documented() {
        assert_eq!(Exit::Success as u8, 0);
        assert_eq!(Exit::DamageFound as u8, 1);
        assert_eq!(Exit::Error as u8, 2);
        assert_eq!(Exit::DamageFound.max(Exit::Error), Exit::Error);
        assert_eq!(Exit::DamageFound.max(Exit::Success), Exit::DamageFound);
    }
}

thread_local! {
    /// Set while [`catch_panic`] runs on this thread: the panic hook then
    /// leaves the panic to unwind to it instead of ending the process.
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a panic on this thread is caught by [`catch_panic`] (the panic
/// hook checks this).
pub(crate) fn panic_is_caught() -> bool {
    CATCHING.with(|c| c.get())
}

/// Runs `f`, turning a panic in it into `Err(its message)`. For library
/// code that panics on damaged input (Arrow IPC's buffer slicing) instead
/// of returning an error; the panic hook stays quiet for this scope.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let before = CATCHING.with(|c| c.replace(true));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(before));
    out.map_err(|payload| {
        let text = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "a panic without a message".to_string()
        };
        text.replace('\n', ": ")
    })
}
