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
