//! Refusing an output that is one of the inputs: `tfr report data.tfrecord
//! -o data.tfrecord` would replace the dataset with the page (the output is
//! renamed over its target when done), `verify-crc --salvage` onto its own
//! input would replace the damaged original.
//!
//! A local output is the same file as an input when both name the same
//! device and inode (so also through symbolic links, hard links and `./`
//! forms); stdin counts when it is redirected from that file. A URL output
//! is the same as a URL input when both normalise to the same URL.

use super::input::{show_path, Input};
use crate::error::{bail, Result};
use std::path::Path;

/// Fails with one line when `output` (as given to `flag`) is one of
/// `inputs` or one of the `aux` files read (a `--schema`, a `--merge`).
/// `-` (stdout) and an output that does not exist yet are always fine, as
/// is a non-regular file (`/dev/null`, a pipe), which is written in place.
pub fn refuse_input_as_output(inputs: &[Input], aux: &[&Path], output: &Path, flag: &str) -> Result<()> {
    if output.as_os_str() == "-" {
        return Ok(());
    }
    let bytes = output.as_os_str().as_encoded_bytes();
    let local;
    let output = match super::remote::file_url(bytes) {
        Some(path) => {
            local = std::path::PathBuf::from(String::from_utf8_lossy(path).into_owned());
            local.as_path()
        }
        None => output,
    };
    if let Some(Ok(loc)) = super::remote::parse(output.as_os_str().as_encoded_bytes()) {
        let url = loc.url();
        if inputs.iter().any(|i| matches!(i.whole(), Input::Url(u) if *u == url)) {
            bail!(
                "{flag} {}: is also an input; refusing to replace it (write elsewhere)",
                loc.shown()
            );
        }
        return Ok(());
    }
    let Some(out_id) = file_id(output) else {
        return Ok(());
    };
    let same_input = inputs.iter().any(|input| match input.whole() {
        Input::Path(p) => file_id(p) == Some(out_id),
        Input::Stdin => stdin_id() == Some(out_id),
        Input::Url(_) | Input::Part { .. } => false,
    });
    let same_aux = aux.iter().any(|p| file_id(p) == Some(out_id));
    if same_input || same_aux {
        bail!(
            "{flag} {}: is also an input; refusing to replace it (write elsewhere)",
            show_path(output)
        );
    }
    Ok(())
}

/// A regular file's identity (device, inode), through symbolic links.
#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    meta.is_file().then(|| (meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Path) -> Option<(u64, u64)> {
    None
}

/// The identity of the file stdin is redirected from, if it is one.
#[cfg(unix)]
fn stdin_id() -> Option<(u64, u64)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let meta = std::fs::File::from(fd).metadata().ok()?;
    meta.is_file().then(|| (meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn stdin_id() -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_file_through_links_and_dot_forms() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data.tfrecord");
        std::fs::write(&data, b"x").unwrap();
        let inputs = [Input::Path(data.clone())];
        let hard = dir.path().join("hard");
        std::fs::hard_link(&data, &hard).unwrap();
        let dotted = dir.path().join(".").join("data.tfrecord");
        let mut forms = vec![data.clone(), hard, dotted];
        #[cfg(unix)]
        {
            let soft = dir.path().join("soft");
            std::os::unix::fs::symlink(&data, &soft).unwrap();
            forms.push(soft);
        }
        for out in forms {
            let err = refuse_input_as_output(&inputs, &[], &out, "-o").unwrap_err();
            assert!(format!("{err:#}").contains("is also an input"), "{err:#}");
        }
        let other = dir.path().join("other");
        refuse_input_as_output(&inputs, &[], &other, "-o").unwrap();
        std::fs::write(&other, b"y").unwrap();
        refuse_input_as_output(&inputs, &[], &other, "-o").unwrap();
        refuse_input_as_output(&inputs, &[], Path::new("-"), "-o").unwrap();
        assert!(refuse_input_as_output(&[], &[&data], &data, "-o").is_err());
    }

    #[test]
    fn same_url() {
        let inputs = [Input::Url("s3://bucket/a/data.tfrecord".to_string())];
        assert!(refuse_input_as_output(&inputs, &[], Path::new("s3://bucket/a/data.tfrecord"), "-o").is_err());
        refuse_input_as_output(&inputs, &[], Path::new("s3://bucket/a/other.tfrecord"), "-o").unwrap();
    }
}
