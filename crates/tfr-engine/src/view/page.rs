//! The viewer's page: one HTML document with its style sheet and script
//! inline (`page.html`, `page.css`, `page.js` beside this file), nothing
//! fetched but the API's JSON and pictures from this server.
//!
//! Its Content-Security-Policy allows this one script and style sheet by
//! a nonce made for each answer (no `'unsafe-inline'`: an injected
//! `<script>` or `style` attribute would not run), pictures from this
//! server and `data:`, requests to this server only, no frames, no forms,
//! no plugins. The script writes data into the page with `textContent`
//! only; the one markup it inserts is the overlays' SVG, built and escaped
//! by the server ([`crate::report::overlay`]).

use super::http::Reply;
use super::View;
use crate::report::escape;

const HTML: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

/// The page, with a fresh nonce.
pub(crate) fn page(view: &View) -> Reply {
    let nonce = nonce();
    let css = format!("{}\n{CSS}", crate::report::overlay::CSS);
    // The title last: nothing in it is replaced.
    let html = HTML
        .replace("__NONCE__", &nonce)
        .replace("__CSS__", &css)
        .replace("__JS__", JS)
        .replace("__TITLE__", &escape(&view.opts.title));
    Reply {
        status: 200,
        content_type: "text/html; charset=utf-8",
        body: html.into_bytes(),
        csp: Some(format!(
            "default-src 'self'; img-src 'self' data:; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        )),
        headers: Vec::new(),
    }
}

/// 128 unpredictable bits, hex: std's per-process random hash keys, the
/// time and a counter mixed (no random number crate for a nonce).
fn nonce() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let count = COUNT.fetch_add(1, Ordering::Relaxed);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let half = |salt: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(salt);
        h.write_u64(count);
        h.write_u128(now);
        h.finish()
    };
    format!("{:016x}{:016x}", half(1), half(2))
}

#[cfg(test)]
mod tests {
    #[test]
    fn nonces_differ() {
        let (a, b) = (super::nonce(), super::nonce());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }

    #[test]
    fn the_page_holds_no_external_url() {
        for part in [super::HTML, super::CSS, super::JS] {
            assert!(
                !part.contains("http:") && !part.contains("https:") && !part.contains("//cdn"),
                "{part}"
            );
            assert!(!part.contains("innerHTML"), "the script writes data with textContent");
        }
    }
}
