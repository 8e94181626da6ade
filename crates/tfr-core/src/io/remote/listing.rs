//! Glob expansion over an object store (a child of `store.rs`): the
//! narrowest prefix before the first glob character is listed page by page,
//! each key matched as it comes; only the matches are kept, and those are
//! bounded ([`MAX_MATCHES`]), as is the listing itself ([`MAX_LISTED`] keys,
//! [`MAX_PAGES`] pages, [`MAX_EMPTY_PAGES`] empty ones in a row, no token twice in a row): a
//! bucket that lists forever ends in one line, not in all memory.
//!
//! A key object_store will not take as a name (a `..` or empty component,
//! a control character) fails the whole page it is on; the page is then
//! read again in halves down to one key, so that the one bad key is skipped
//! with a warning naming it (escaped) and the rest is listed as usual.

use super::*;
use object_store::list::PaginatedListOptions;
use std::borrow::Cow;

/// The most objects one glob may match.
pub(crate) const MAX_MATCHES: usize = 1_000_000;
/// The most keys (and common prefixes) a listing may go through.
pub(crate) const MAX_LISTED: u64 = 10_000_000;
/// The most pages a listing may go through: pages that hold no key but
/// say there is more would otherwise go on forever.
pub(crate) const MAX_PAGES: u64 = 100_000;
/// The most pages in a row that hold no key (nor prefix) while saying
/// there is more.
pub(crate) const MAX_EMPTY_PAGES: u64 = 100;
/// Keys per request once a page held a key object_store refuses (then
/// halved down to one, to find it).
const NARROW_FROM: usize = 512;

/// Where the next page starts.
enum From {
    Start,
    /// A continuation token.
    Token(String),
    /// After this key (skipping a bad one).
    After(String),
}

/// The URLs of the objects a glob matches: `*` and `?` do not cross `/`;
/// `**` as a whole component matches any depth. Sorted.
pub(crate) fn list(loc: &Location) -> Result<Vec<String>> {
    let name = loc.shown();
    let client = client(loc)?;
    let rt = runtime()?;
    let Some(lister) = client.lister.clone() else {
        bail!("{name}: this store cannot be listed");
    };
    let first_glob = loc.key.find(['*', '?', '[']).unwrap_or(loc.key.len());
    // The listing's prefix ends with its `/` (a paginated listing adds none).
    let prefix = match loc.key[..first_glob].rfind('/') {
        Some(slash) => {
            let dir =
                ObjectPath::parse(&loc.key[..slash]).map_err(|e| err!("{name}: not a valid object name ({e})"))?;
            Some(format!("{dir}/"))
        }
        None => None,
    };
    let pattern: Vec<&[u8]> = loc.key.split('/').map(str::as_bytes).collect();
    let matches = |key: &str| {
        let parts: Vec<&[u8]> = key.split('/').map(str::as_bytes).collect();
        crate::io::input::matches_path(&pattern, &parts)
    };
    // Globs only in the last component: one level is listed (with a
    // delimiter), not everything below the prefix.
    let one_level = !loc.key[first_glob..].contains('/') && !loc.key.contains("**");
    let store = client.store.clone();
    let base = loc.base.clone();
    let found = wait(rt, async move {
        let mut keys: Vec<String> = Vec::new();
        let mut skipped: Vec<String> = Vec::new();
        let mut listed = 0u64;
        let mut pages = 0u64;
        let mut empty = 0u64;
        let mut from = From::Start;
        let mut narrow: Option<usize> = None;
        loop {
            let (page_token, offset) = match &from {
                From::Start => (None, None),
                From::Token(t) => (Some(t.clone()), None),
                From::After(k) => (None, Some(k.clone())),
            };
            let opts = PaginatedListOptions {
                offset,
                delimiter: one_level.then_some(Cow::Borrowed("/")),
                max_keys: narrow,
                page_token,
                ..PaginatedListOptions::default()
            };
            let page = match lister.list_paginated(prefix.as_deref(), opts).await {
                Ok(page) => page,
                Err(e) => match bad_key(&e) {
                    // One key is refused: narrow down to it, then skip it.
                    // (A store that lists the key it is told to start
                    // after would return it again: then the error stands.)
                    Some(bad) if narrow == Some(1) && skipped.last() == Some(&format!("{base}/{bad}")) => {
                        return Err(Failed::Store(e));
                    }
                    Some(bad) => match narrow {
                        Some(1) => {
                            skipped.push(format!("{base}/{bad}"));
                            // A common prefix (`sl//`): after every key
                            // below it, or it is rolled up again.
                            let after = if one_level && bad.ends_with('/') {
                                format!("{bad}\u{10ffff}")
                            } else {
                                bad.to_string()
                            };
                            from = From::After(after);
                            narrow = None;
                            continue;
                        }
                        Some(n) => {
                            narrow = Some(n / 2);
                            continue;
                        }
                        None => {
                            narrow = Some(NARROW_FROM);
                            continue;
                        }
                    },
                    None => return Err(Failed::Store(e)),
                },
            };
            pages += 1;
            let held = page.result.objects.len() + page.result.common_prefixes.len();
            empty = if held == 0 { empty + 1 } else { 0 };
            listed += (page.result.objects.len() + page.result.common_prefixes.len()) as u64;
            for meta in page.result.objects {
                let key = meta.location.to_string();
                if !matches(&key) {
                    continue;
                }
                // A console's folder marker (a zero-byte `dir/`) is listed
                // without its `/` and cannot be opened by that name: a
                // zero-byte key that a HEAD does not find is left out (an
                // empty shard is found, and kept).
                if !one_level
                    && meta.size == 0
                    && matches!(
                        store.head(&meta.location).await,
                        Err(object_store::Error::NotFound { .. })
                    )
                {
                    continue;
                }
                if keys.len() == MAX_MATCHES {
                    return Err(Failed::TooMany);
                }
                keys.push(key);
            }
            if listed > MAX_LISTED || pages > MAX_PAGES || empty > MAX_EMPTY_PAGES {
                return Err(Failed::TooLong);
            }
            match page.page_token {
                Some(token) if matches!(&from, From::Token(t) if *t == token) => return Err(Failed::Repeats),
                Some(token) => from = From::Token(token),
                None => break,
            }
        }
        Ok((keys, skipped))
    });
    let (keys, skipped) = match found {
        Ok(found) => found,
        Err(Failed::Store(object_store::Error::NotFound { .. })) => bail!("{name}: no such bucket or container"),
        Err(Failed::Store(e)) => bail!("{name}: listing failed: {}", one_line(&e)),
        Err(Failed::TooMany) => bail!(
            "{name}: more than {MAX_MATCHES} objects match (the most one pattern may name); narrow the pattern"
        ),
        Err(Failed::TooLong) => bail!(
            "{name}: the listing went past {MAX_LISTED} keys, {MAX_PAGES} pages or {MAX_EMPTY_PAGES} empty pages in a row without ending (the most tfr lists for one pattern); narrow the prefix before the first glob character"
        ),
        Err(Failed::Repeats) => {
            bail!("{name}: listing failed: the server repeats its listing (the same continuation token twice in a row)")
        }
    };
    for url in skipped {
        // One warning, the key escaped like any name.
        let shown = crate::io::input::escape_name(url.as_bytes());
        crate::io::warn(format_args!(
            "warning: {shown}: skipped (not a valid object name: a '..' or empty component, or a control character)"
        ));
    }
    let mut urls: Vec<String> = keys.into_iter().map(|k| format!("{}/{k}", loc.base)).collect();
    urls.sort();
    // Nothing matches: the key may name an object with a glob character
    // in its name (`brack[1].tfrecord`), taken as is, as a local file is.
    if urls.is_empty() {
        if let Ok(path) = ObjectPath::parse(&loc.key) {
            if wait(rt, client.store.head(&path)).is_ok() {
                urls.push(loc.url());
            }
        }
    }
    Ok(urls)
}

/// Why a listing stopped.
enum Failed {
    Store(object_store::Error),
    TooMany,
    TooLong,
    /// The same continuation token twice in a row.
    Repeats,
}

/// The key a listing's page failed on, when object_store refused it as a
/// name (`..`, an empty component, a control character).
pub(super) fn bad_key(e: &object_store::Error) -> Option<&str> {
    use object_store::path::Error as P;
    match e {
        object_store::Error::InvalidPath {
            source: P::BadSegment { path, .. } | P::EmptySegment { path } | P::NonUnicode { path, .. },
        } => Some(path),
        _ => None,
    }
}
