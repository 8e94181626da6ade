//! Checks of what object_store would otherwise trust: the environment's
//! endpoints, regions and tokens (object_store's signer unwraps them and
//! would panic on `AWS_ENDPOINT=not a url` or a region with a newline), a
//! bucket's name, and the size of the auxiliary files credentials come
//! from (read whole by object_store and by [`super::profile`]; `/dev/zero`
//! never ends). Each refusal is one line naming the variable or the file.

use super::Kind;
use crate::error::{bail, Context, Result};
use std::path::Path;

/// The most an auxiliary file (a credentials or config file, a token file,
/// a service account key) may hold: such files are a few KiB.
pub(super) const FILE_LIMIT: u64 = 1 << 20;

/// The environment variables object_store reads for a store.
fn prefixes(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::S3 => &["AWS_"],
        Kind::Gcs => &["GOOGLE_"],
        Kind::Azure => &["AZURE_", "AZURITE_"],
        Kind::Http => &[],
    }
}

/// A value shown in a message: escaped, a URL's password hidden.
fn shown(value: &str) -> String {
    crate::io::input::escape_name(super::redact(value).as_bytes())
}

/// The longest endpoint taken: a request's URI (`http::Uri`) holds at most
/// 65,534 bytes, and the endpoint is only its start.
const URL_LIMIT: usize = 4096;

/// The longest web identity token sent to STS: AWS takes 20,000 characters,
/// and the token travels in the query string of the request's URI.
const WEB_TOKEN_LIMIT: usize = 20_000;

/// A byte RFC 3986 allows in a URI: unreserved, reserved and `%`.
fn uri_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b)
}

/// Refuses an endpoint that is not an `http(s)://` URL with a host and a
/// valid port.
pub(super) fn check_url(name: &str, value: &str) -> Result<()> {
    let parsed = reqwest::Url::parse(value).map_err(|e| crate::error::err!("{e}"));
    let why = match &parsed {
        Err(e) => e.to_string(),
        Ok(url) if !matches!(url.scheme(), "http" | "https") => "not http:// or https://".to_string(),
        Ok(url) if url.host_str().is_none_or(str::is_empty) => "no host".to_string(),
        Ok(_) if value.chars().any(char::is_control) => "a control character".to_string(),
        // The URL parser mends what `http::Uri` (object_store's requests)
        // refuses and would panic on: a space, `"<>{}|^` and backquote.
        Ok(_) if !value.bytes().all(uri_byte) => "a character a URI may not hold".to_string(),
        Ok(_) if value.len() > URL_LIMIT => format!("longer than {URL_LIMIT} bytes"),
        Ok(_) => return Ok(()),
    };
    bail!("{name} is not a usable URL ('{}': {why})", shown(value))
}

/// Refuses a region that is not letters, digits, `-`, `_` and `.`
/// (`us-east-1`; S3-compatible stores name theirs more freely).
pub(super) fn check_region(name: &str, value: &str) -> Result<()> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)) {
        bail!(
            "{name} is not a region name ('{}': letters, digits, '-', '_' and '.' only)",
            shown(value)
        );
    }
    Ok(())
}

/// The store's settings in the environment and the bucket's name: what
/// would reach a URL or a header unchecked.
pub(super) fn check(kind: Kind, bucket: &str) -> Result<()> {
    let bucket_ok = match kind {
        Kind::S3 | Kind::Gcs => bucket.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)),
        // `container` or `container@account.dfs.core.windows.net`.
        Kind::Azure => bucket
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-@".contains(&b)),
        Kind::Http => true,
    };
    if !bucket_ok {
        bail!(
            "'{}' is not a valid bucket or container name (letters, digits, '.', '-', '_')",
            shown(bucket)
        );
    }
    let env: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .filter(|(k, v)| !v.is_empty() && prefixes(kind).iter().any(|p| k.starts_with(p)))
        .collect();
    for (name, value) in &env {
        let upper = name.to_ascii_uppercase();
        // What reaches a request's URI must fit in it (`http::Uri` holds
        // 65,534 bytes; object_store panics past that): STS takes a role's
        // ARN of 2,048 bytes and a session name of 64; no other setting
        // is near 16 KiB. The value is not shown (it may be a secret).
        let most = match upper.as_str() {
            "AWS_ROLE_ARN" => 2048,
            "AWS_ROLE_SESSION_NAME" => 64,
            _ => 16 << 10,
        };
        if value.len() > most {
            bail!("{name} is longer than {most} bytes, more than can be sent");
        }
        let url = upper.ends_with("_ENDPOINT")
            || upper.contains("ENDPOINT_URL")
            || upper.ends_with("_URL")
            || upper.ends_with("FULL_URI");
        if url {
            check_url(name, value)?;
        } else if upper.ends_with("_REGION") {
            check_region(name, value)?;
        } else if [
            "_TOKEN",
            "_KEY_ID",
            "ACCOUNT_NAME",
            "_SAS_KEY",
            "_ACCESS_KEY",
            "_CLIENT_ID",
            "_TENANT_ID",
        ]
        .iter()
        .any(|end| upper.ends_with(end))
        {
            check_header(name, value)?;
        }
    }
    Ok(())
}

/// Refuses a value sent in a header (a key id, a token) that holds a
/// newline, another control character or non-ASCII. The value is never
/// shown: it may be a secret.
pub(super) fn check_header(name: &str, value: &str) -> Result<()> {
    if value.chars().any(|c| c.is_control() || !c.is_ascii()) {
        bail!("{name} holds a character that cannot be sent in an HTTP header (a newline, a control character or non-ASCII)");
    }
    Ok(())
}

/// The files credentials are read from that object_store reads whole
/// (a token file, a service account key): checked to be no larger than
/// [`FILE_LIMIT`] before it reads them.
pub(super) fn check_files(kind: Kind) -> Result<()> {
    let vars: &[&str] = match kind {
        Kind::S3 => &["AWS_WEB_IDENTITY_TOKEN_FILE"],
        Kind::Gcs => &[
            "GOOGLE_APPLICATION_CREDENTIALS",
            "GOOGLE_SERVICE_ACCOUNT",
            "GOOGLE_SERVICE_ACCOUNT_PATH",
        ],
        Kind::Azure => &["AZURE_FEDERATED_TOKEN_FILE"],
        Kind::Http => &[],
    };
    for var in vars {
        if let Some(path) = std::env::var_os(var).filter(|p| !p.is_empty()) {
            let bytes = read_bounded(Path::new(&path)).with_context(|| var.to_string())?;
            // Its length once percent-encoded in the query string.
            let token = bytes.trim_ascii();
            let encoded: usize = token
                .iter()
                .map(|&b| {
                    if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                        1
                    } else {
                        3
                    }
                })
                .sum();
            if *var == "AWS_WEB_IDENTITY_TOKEN_FILE" && encoded > WEB_TOKEN_LIMIT {
                bail!(
                    "{var}: {}: the token is longer than {WEB_TOKEN_LIMIT} bytes, the most AWS STS takes",
                    crate::io::input::show_path(Path::new(&path))
                );
            }
        }
    }
    if kind == Kind::Gcs {
        let adc =
            std::env::var_os("HOME").map(|h| Path::new(&h).join(".config/gcloud/application_default_credentials.json"));
        if let Some(adc) = adc.filter(|p| p.exists()) {
            read_bounded(&adc)?;
        }
    }
    Ok(())
}

/// A regular file's bytes, refused in one line when it holds more than
/// [`FILE_LIMIT`] (read with a bound: a file that grows costs at most the
/// limit) or when it is no regular file (a directory, a FIFO that would
/// block, a device such as `/dev/zero`).
pub(super) fn read_bounded(path: &Path) -> Result<Vec<u8>> {
    let name = crate::io::input::show_path(path);
    // Before opening: a FIFO's open waits for a writer; a directory or a
    // device is no credentials file.
    let meta = std::fs::metadata(path).with_context(|| format!("{name}: cannot open"))?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            "a FIFO, a socket or a device"
        };
        bail!("{name}: not a regular file ({what}); credentials and configuration are read from files");
    }
    let file = std::fs::File::open(path).with_context(|| format!("{name}: cannot open"))?;
    match crate::io::aux_file::read_at_most(file, FILE_LIMIT, 0).with_context(|| format!("{name}: cannot read"))? {
        Some(bytes) => Ok(bytes),
        None => Err(crate::Error::TooLarge(format!(
            "{name}: larger than {} MiB, the most a credentials or configuration file may hold",
            FILE_LIMIT >> 20
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_would_panic_the_signer() {
        for bad in [
            "not a url",
            "http://",
            "http://127.0.0.1:99999",
            "ftp://h",
            "http://h\n/x",
            " http://127.0.0.1:1",
            "http://127.0.0.1:1 ",
            "http://127.0.0.1:1/pa th",
            "http://127.0.0.1:1/\"<>",
            "http://127.0.0.1:1/{x}|^`",
        ] {
            let e = check_url("AWS_ENDPOINT", bad).unwrap_err().to_string();
            assert!(e.starts_with("AWS_ENDPOINT is not a usable URL ("), "{bad:?}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e = check_url("AWS_ENDPOINT", "http://u:secret@h:99999")
            .unwrap_err()
            .to_string();
        assert!(!e.contains("secret"), "{e}");
        for good in [
            "http://127.0.0.1:9000",
            "https://s3.eu-west-1.amazonaws.com",
            "http://[::1]:80/",
        ] {
            check_url("AWS_ENDPOINT", good).unwrap();
        }
        assert!(check_region("AWS_REGION", "us-east-1\nx").is_err());
        assert!(check_region("AWS_REGION", "us east").is_err());
        check_region("AWS_REGION", "eu-west-3").unwrap();
    }

    #[test]
    fn bounds_files() {
        let e = read_bounded(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read_bounded(Path::new("/")).unwrap_err().to_string();
        assert!(e.contains("not a regular file (a directory)"), "{e}");
        let dir = std::env::temp_dir().join(format!("tfr-settings-{}", std::process::id()));
        std::fs::write(&dir, b"[default]\n").unwrap();
        assert_eq!(read_bounded(&dir).unwrap(), b"[default]\n");
        std::fs::remove_file(&dir).unwrap();
    }
}
