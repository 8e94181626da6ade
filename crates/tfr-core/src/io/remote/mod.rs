//! Object stores and HTTP(S) as inputs and outputs: `s3://` (and `s3a://`),
//! `gs://`, `az://` / `abfs://`, `http(s)://`.
//!
//! The rest of tfr sees a remote object as bytes: a `Read` with ranged
//! read-ahead ([`open`]; the first range is small and the ranges grow, so
//! reading a few records of a large object fetches a small prefix) and, for
//! outputs, a `Write` that uploads in parts, completed only on
//! [`Upload::commit`] and aborted otherwise ([`Upload`]). Object-store globs
//! are expanded by listing the narrowest prefix ([`list`]).
//!
//! The URL parsing here is always built; the network part (`store.rs`,
//! the `object_store` crate on one tokio runtime) only with the cargo
//! feature `remote`: without it a URL is one clear error.

use crate::error::{bail, Result};
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(feature = "remote")]
mod connector;
#[cfg(feature = "remote")]
mod profile;
#[cfg(feature = "remote")]
mod settings;
#[cfg(feature = "remote")]
mod store;
#[cfg(feature = "remote")]
pub(crate) use store::{list, open, Upload};

/// The kind of store a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Amazon S3 or a store that speaks its protocol (`s3://`).
    S3,
    /// Google Cloud Storage (`gs://`).
    Gcs,
    /// Azure Blob Storage (`az://`).
    Azure,
    /// A web server (`http://`, `https://`).
    Http,
}

/// A parsed remote URL: the store (scheme and bucket, container or host)
/// and the object's key within it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The kind of store.
    pub kind: Kind,
    /// `scheme://authority`, as given: the bucket (`s3://bkt`), the
    /// container (`az://c`, `abfs://c@account.dfs.core.windows.net`), the
    /// server (`https://host:port`).
    pub base: String,
    /// The bucket, container or host alone.
    pub bucket: String,
    /// The object's key, without a leading `/` (may be empty).
    pub key: String,
    /// HTTP(S) only: the query string after `?` (a presigned URL's
    /// signature), sent as given; empty when there is none.
    pub query: String,
}

impl Location {
    /// The URL as messages show it: a query string (a presigned URL's
    /// signature, a credential) is not printed, only `?...`, nor a user and
    /// password (`https://***@host/...`).
    pub(crate) fn shown(&self) -> String {
        super::input::escape_name(redact(&self.url()).as_bytes())
    }

    /// The whole URL.
    pub(crate) fn url(&self) -> String {
        if self.query.is_empty() {
            format!("{}/{}", self.base, self.key)
        } else {
            format!("{}/{}?{}", self.base, self.key, self.query)
        }
    }
}

/// The longest HTTP(S) URL taken (a presigned URL's query is a few KiB).
const HTTP_URL_LIMIT: usize = 16 << 10;

/// What kind of remote failure an error is, where a caller acts on it
/// (`index --check`: a missing index is stale, not an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemoteErrorKind {
    /// No such object (the bucket or container exists).
    NotFound,
    /// Any other failure.
    Other,
}

/// A failure of an object store or HTTP server, as one line, with its kind.
#[derive(Debug)]
pub struct RemoteError {
    /// What kind of failure, to act on.
    pub kind: RemoteErrorKind,
    message: String,
}

impl RemoteError {
    #[cfg_attr(not(feature = "remote"), allow(dead_code))]
    pub(crate) fn new(kind: RemoteErrorKind, message: String) -> RemoteError {
        RemoteError { kind, message }
    }
}

impl std::fmt::Display for RemoteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RemoteError {}

/// Whether `e` (or one of its causes) is an object store's or server's
/// "no such object" ([`RemoteErrorKind::NotFound`]), told by type.
pub fn is_not_found(e: &(dyn std::error::Error + 'static)) -> bool {
    let not_found = |r: &RemoteError| r.kind == RemoteErrorKind::NotFound;
    let mut next = Some(e);
    while let Some(err) = next {
        if let Some(core) = err.downcast_ref::<crate::Error>() {
            return core.remote_error().is_some_and(not_found);
        }
        if let Some(r) = err.downcast_ref::<RemoteError>() {
            return not_found(r);
        }
        next = err.source();
    }
    false
}

/// What an argument names: `Some` when it is a URL tfr reads over the
/// network, `Some(Err)` for such a URL that is malformed; `None` for
/// anything else (a path; `file://` is handled by [`file_url`]).
pub fn parse(arg: &[u8]) -> Option<Result<Location>> {
    let text = std::str::from_utf8(arg).ok()?;
    let (scheme, rest) = text.split_once("://")?;
    let kind = match scheme.to_ascii_lowercase().as_str() {
        "s3" | "s3a" => Kind::S3,
        "gs" => Kind::Gcs,
        "az" | "abfs" | "abfss" | "azure" => Kind::Azure,
        "http" | "https" => Kind::Http,
        _ => return None,
    };
    let (bucket, key) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        return Some(Err(crate::error::err!(
            "{}: no {} in the URL",
            super::input::escape_name(redact(text).as_bytes()),
            match kind {
                Kind::S3 | Kind::Gcs => "bucket",
                Kind::Azure => "container",
                Kind::Http => "host",
            }
        )));
    }
    // In an HTTP URL `?` starts the query (a presigned URL's signature);
    // in an object-store key it is a character (and a glob).
    // A fragment (`#...`) is never sent to a server.
    let (key, query) = match kind {
        Kind::Http => {
            let key = key.split_once('#').map_or(key, |(k, _)| k);
            key.split_once('?').unwrap_or((key, ""))
        }
        _ => (key, ""),
    };
    // What reaches a request's URI must fit in it (`http::Uri` holds
    // 65,534 bytes; object_store panics past that, and a key may be
    // percent-encoded to three times its length): object stores take
    // bucket names of at most 255 bytes (S3 63, GCS 222) and keys of
    // 1,024 (what a glob lists is the part before its first wildcard).
    let listed = key.find(['*', '?', '[']).map_or(key, |i| &key[..i]);
    let too_long = match kind {
        Kind::Http => (text.len() > HTTP_URL_LIMIT).then(|| format!("longer than {HTTP_URL_LIMIT} bytes")),
        _ if bucket.len() > 255 => Some("a bucket or container name longer than 255 bytes".to_string()),
        _ if listed.len() > 1024 => Some("a key longer than 1024 bytes, the most an object store takes".to_string()),
        _ => None,
    };
    if let Some(why) = too_long {
        let start: String = redact(text).chars().take(64).collect();
        return Some(Err(crate::error::err!(
            "{}...: {why}",
            super::input::escape_name(start.as_bytes())
        )));
    }
    Some(Ok(Location {
        kind,
        base: format!("{scheme}://{bucket}"),
        bucket: bucket.to_string(),
        key: key.to_string(),
        query: query.to_string(),
    }))
}

/// A URL as messages show it: an HTTP(S) URL's query string (a presigned
/// URL's signature) becomes `...` and its userinfo (`user:password@`)
/// `***@`; anything else is unchanged (the URL of an object store has no
/// query: `?` is part of its key; `@` in `abfs://c@account...` is not a
/// user).
pub(crate) fn redact(url: &str) -> std::borrow::Cow<'_, str> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.into();
    };
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return url.into();
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let user = authority.rfind('@');
    let query = path.find('?');
    if user.is_none() && query.is_none() {
        return url.into();
    }
    let authority = match user {
        Some(at) => format!("***{}", &authority[at..]),
        None => authority.to_string(),
    };
    let path = match query {
        Some(q) => format!("{}?...", &path[..q]),
        None => path.to_string(),
    };
    format!("{scheme}://{authority}{path}").into()
}

/// A text (an error message) with each HTTP(S) URL in it shown as
/// [`redact`] shows it (a URL ends at white space or a quote; a query is
/// hidden to the end of its word).
#[cfg_attr(not(feature = "remote"), allow(dead_code))]
pub fn redact_text(text: &str) -> std::borrow::Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    if !lower.contains("http://") && !lower.contains("https://") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let lower = rest.to_ascii_lowercase();
        let at = [lower.find("http://"), lower.find("https://")]
            .into_iter()
            .flatten()
            .min();
        let Some(at) = at else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..at]);
        let url_len = rest[at..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>'))
            .unwrap_or(rest.len() - at);
        let url = &rest[at..at + url_len];
        // A closing bracket or punctuation after the URL stays (not `.`:
        // a query already shown as `?...` stays so).
        let trail = url.len() - url.trim_end_matches([')', ']', ',', ';', ':']).len();
        let (url, tail) = url.split_at(url.len() - trail);
        out.push_str(&redact(url));
        out.push_str(tail);
        rest = &rest[at + url_len..];
    }
    out.into()
}

/// The local path a `file://` URL names (`file:///data/x` is `/data/x`).
pub(crate) fn file_url(arg: &[u8]) -> Option<&[u8]> {
    let rest = arg.strip_prefix(b"file://")?;
    // file://localhost/path and file:///path
    Some(rest.strip_prefix(b"localhost").unwrap_or(rest))
}

static ANONYMOUS: AtomicBool = AtomicBool::new(false);

/// Reads (and writes) without signing requests, for public data: the
/// command line's `--no-sign-request` (the `AWS_SKIP_SIGNATURE`,
/// `GOOGLE_SKIP_SIGNATURE`, `AZURE_SKIP_SIGNATURE` variables do the same
/// per store).
pub fn set_no_sign_request(on: bool) {
    ANONYMOUS.store(on, Ordering::Relaxed);
}

#[cfg_attr(not(feature = "remote"), allow(dead_code))]
pub(crate) fn anonymous() -> bool {
    ANONYMOUS.load(Ordering::Relaxed)
}

/// What the program runs when the first URL is used (see [`on_first_url`]).
static ON_FIRST_URL: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Has `start` run once, when a URL is first read or written: the `tfr`
/// binary starts its `--timeout` watchdog there (a command on local files
/// only is never timed out).
pub fn on_first_url(start: fn()) {
    let _ = ON_FIRST_URL.set(start);
}

/// Runs the program's [`on_first_url`], once.
#[cfg_attr(not(feature = "remote"), allow(dead_code))]
pub(crate) fn first_url() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        if let Some(start) = ON_FIRST_URL.get() {
            start();
        }
    });
}

/// The error of a build without the `remote` feature.
#[cfg(not(feature = "remote"))]
fn unsupported(loc: &Location) -> crate::error::Error {
    crate::error::err!(
        "{}: this tfr was built without object-store support (the cargo feature `remote`)",
        loc.shown()
    )
}

#[cfg(not(feature = "remote"))]
pub(crate) fn open(loc: &Location) -> Result<(super::at::At, u64)> {
    Err(unsupported(loc))
}

#[cfg(not(feature = "remote"))]
pub(crate) fn list(loc: &Location) -> Result<Vec<String>> {
    Err(unsupported(loc))
}

/// Stand-in for the upload of a build without the `remote` feature.
#[cfg(not(feature = "remote"))]
pub(crate) enum Upload {}

#[cfg(not(feature = "remote"))]
impl Upload {
    pub(crate) fn create(loc: &Location) -> Result<Upload> {
        Err(unsupported(loc))
    }

    pub(crate) fn commit(self) -> Result<()> {
        match self {}
    }
}

#[cfg(not(feature = "remote"))]
impl std::io::Write for Upload {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        match *self {}
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match *self {}
    }
}

/// Refuses a glob on a URL that cannot be listed (HTTP has no listing).
pub(crate) fn check_glob(loc: &Location) -> Result<()> {
    if loc.kind == Kind::Http {
        bail!(
            "{}: globs cannot be expanded over HTTP (it has no listing); name each URL",
            loc.shown()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_store_urls() {
        let l = parse(b"s3://bkt/data/train-1").unwrap().unwrap();
        assert_eq!(
            (l.kind, l.bucket.as_str(), l.key.as_str()),
            (Kind::S3, "bkt", "data/train-1")
        );
        assert_eq!(l.url(), "s3://bkt/data/train-1");
        let l = parse(b"abfs://c@acct.dfs.core.windows.net/x/y").unwrap().unwrap();
        assert_eq!((l.kind, l.key.as_str()), (Kind::Azure, "x/y"));
        let l = parse(b"https://host:8080/a/b.tfrecord").unwrap().unwrap();
        assert_eq!((l.kind, l.base.as_str()), (Kind::Http, "https://host:8080"));
        let signed = b"https://h/a/b.tfrecord?X-Amz-Signature=ab%2Fc&X-Amz-Expires=60";
        let l = parse(signed).unwrap().unwrap();
        assert_eq!(
            (l.key.as_str(), l.query.as_str()),
            ("a/b.tfrecord", "X-Amz-Signature=ab%2Fc&X-Amz-Expires=60")
        );
        assert_eq!(l.url().as_bytes(), signed);
        assert_eq!(l.shown(), "https://h/a/b.tfrecord?...");
        assert_eq!(redact("s3://b/what?.tfrecord"), "s3://b/what?.tfrecord");
        let l = parse(b"https://me:s3cr3t@h:8/a.tfrecord?sig=1").unwrap().unwrap();
        assert_eq!(l.shown(), "https://***@h:8/a.tfrecord?...");
        assert_eq!(redact("HTTP://u@h/x"), "HTTP://***@h/x");
        assert_eq!(
            redact("abfs://c@acct.dfs.core.windows.net/x"),
            "abfs://c@acct.dfs.core.windows.net/x"
        );
        assert_eq!(
            redact_text("error for url (https://u:p@h/a?X-Amz-Signature=s), then http://v:q@g/b: x"),
            "error for url (https://***@h/a?...), then http://***@g/b: x"
        );
        assert_eq!(redact_text("no url here"), "no url here");
        // Idempotent: a shown URL is shown the same again.
        let once = redact_text("tfr: https://u:p@h/x.tfrecord?sig=1: access denied");
        assert_eq!(once, "tfr: https://***@h/x.tfrecord?...: access denied");
        assert_eq!(redact_text(&once), once);
        let l = parse(b"http://h/a.tfrecord?s=1#part").unwrap().unwrap();
        assert_eq!((l.key.as_str(), l.query.as_str()), ("a.tfrecord", "s=1"));
        let l = parse(b"s3://bkt/what?.tfrecord").unwrap().unwrap();
        assert_eq!((l.key.as_str(), l.query.as_str()), ("what?.tfrecord", ""));
        assert!(parse(b"gs:///x").unwrap().is_err());
        assert!(parse(b"data/train").is_none());
        assert!(parse(b"ftp://x/y").is_none());
        assert_eq!(file_url(b"file:///tmp/x"), Some(&b"/tmp/x"[..]));
    }
}
