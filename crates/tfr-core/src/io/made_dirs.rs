//! [`MadeDirs`]: the missing directories of an output, created as `mkdir
//! -p` creates them and removed again unless the output is put in place.

use super::input::show_path;
use super::output_file::cleanup;
use super::output_set::local_path;
use crate::error::{bail, Result};
use std::path::{Path, PathBuf};

/// The directories created above an output (`mkdir -p`), outermost
/// first: removed again (those left empty, innermost first) when dropped
/// without [`keep`](MadeDirs::keep), and by a terminating signal's
/// clean-up meanwhile. Every writer creates an output's missing
/// directories through it, so all behave the same.
pub struct MadeDirs {
    made: Vec<PathBuf>,
    _guard: Option<cleanup::DirGuard>,
}

impl MadeDirs {
    /// Creates the missing directories above the local output `path` (none
    /// for stdout or a URL); `flag` names the option in an error.
    pub fn above(path: &Path, flag: &str) -> Result<MadeDirs> {
        match local_path(path) {
            Some(local) => MadeDirs::make(local.parent().unwrap_or(Path::new("")), path, flag),
            None => Ok(MadeDirs {
                made: Vec::new(),
                _guard: None,
            }),
        }
    }

    /// Creates the local directory `dir` and those missing above it.
    pub fn at(dir: &Path, flag: &str) -> Result<MadeDirs> {
        MadeDirs::make(dir, dir, flag)
    }

    fn make(dir: &Path, path: &Path, flag: &str) -> Result<MadeDirs> {
        let none = MadeDirs {
            made: Vec::new(),
            _guard: None,
        };
        if dir.as_os_str().is_empty() || dir.is_dir() {
            return Ok(none);
        }
        let mut missing = Vec::new();
        let mut at = dir;
        while std::fs::symlink_metadata(at).is_err() {
            missing.push(at.to_path_buf());
            match at.parent() {
                Some(up) if !up.as_os_str().is_empty() => at = up,
                _ => break,
            }
        }
        let mut made = Vec::new();
        let mut failed = None;
        for d in missing.iter().rev() {
            match std::fs::create_dir(d) {
                Ok(()) => made.push(d.clone()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    failed = Some((d.clone(), e));
                    break;
                }
            }
        }
        let _guard = (!made.is_empty()).then(|| cleanup::DirGuard::new(&made));
        let dirs = MadeDirs { made, _guard };
        if let Some((d, e)) = failed {
            let what = match flag {
                "" => show_path(path),
                flag => format!("{flag} {}", show_path(path)),
            };
            bail!("{what}: cannot create the directory {}: {e}", show_path(&d));
        }
        Ok(dirs)
    }

    /// The outputs are in place: the directories stay.
    pub fn keep(mut self) {
        self.made.clear();
    }
}

impl Drop for MadeDirs {
    fn drop(&mut self) {
        for dir in self.made.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}
