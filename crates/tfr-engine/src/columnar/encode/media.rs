//! `--read-paths DIR`: the image or audio file a Hugging Face `{bytes,
//! path}` value names, read when the row holds its path but no bytes (as
//! `datasets` saves files loaded from local paths). Only files inside DIR
//! are read: the path (relative ones from DIR) is resolved, symbolic links
//! and `..` included, and must still lie under DIR.

use std::path::{Path, PathBuf};

/// A file larger than this is refused (a Feature's bytes, and a record,
/// stay under protobuf's 2 GiB).
const MAX_FILE: u64 = 1 << 30;

/// The bytes of the file `path` names, which must lie inside `root` (a
/// canonical path).
pub(super) fn read_under(root: &Path, path: &[u8]) -> Result<Vec<u8>, String> {
    let shown = crate::io::input::escape_name(path);
    let Ok(text) = std::str::from_utf8(path) else {
        return Err(format!("the path '{shown}' is not UTF-8"));
    };
    let named = PathBuf::from(text);
    let full = if named.is_absolute() { named } else { root.join(named) };
    let real = std::fs::canonicalize(&full).map_err(|e| format!("cannot read '{shown}' (--read-paths): {e}"))?;
    if !real.starts_with(root) {
        return Err(format!(
            "'{shown}' is outside {} (--read-paths reads only files under it)",
            root.display()
        ));
    }
    let meta = std::fs::metadata(&real).map_err(|e| format!("cannot read '{shown}': {e}"))?;
    if !meta.is_file() {
        return Err(format!("'{shown}' is not a file (--read-paths)"));
    }
    if meta.len() > MAX_FILE {
        return Err(format!(
            "'{shown}' holds {} bytes, over the 1 GiB a value may take",
            meta.len()
        ));
    }
    std::fs::read(&real).map_err(|e| format!("cannot read '{shown}': {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn only_files_under_the_root_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(root.join("a.png"), b"PNG").unwrap();
        std::fs::write(dir.path().join("secret"), b"S").unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        assert_eq!(read_under(&root, b"a.png").unwrap(), b"PNG");
        let abs = root.join("a.png");
        assert_eq!(read_under(&root, abs.to_str().unwrap().as_bytes()).unwrap(), b"PNG");
        assert!(read_under(&root, b"../secret").unwrap_err().contains("is outside"));
        std::os::unix::fs::symlink(dir.path().join("secret"), root.join("link")).unwrap();
        assert!(read_under(&root, b"link").unwrap_err().contains("is outside"));
        assert!(read_under(&root, b"missing.png").unwrap_err().contains("cannot read"));
        assert!(read_under(&root, b".").unwrap_err().contains("not a file"));
    }
}
