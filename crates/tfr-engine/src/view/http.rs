//! The viewer's requests: which are answered (GET and HEAD of the page and
//! the API, from a `Host` this server is), how URLs are read (each path
//! segment percent-decoded strictly: a bad escape, a control character or
//! bytes that are not UTF-8 are a 400), and the headers every answer has
//! (`nosniff`, no framing, no caching, a Content-Security-Policy).
//!
//! No URL names a file: a feature name in a path is looked up among the
//! features of the record numbered there, in the inputs named on the
//! command line, and nowhere else.

use super::{api, View, MAX_LIMIT};
use serde_json::{json, Value};
use std::io::Write as _;
use std::net::IpAddr;
use std::time::Duration;

/// How long a request waits for the index to reach its record.
const WAIT: Duration = Duration::from_millis(900);

/// Records a page asks for when it does not say.
const DEFAULT_LIMIT: u64 = 24;

/// An answer.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) body: Vec<u8>,
    /// The page's Content-Security-Policy (else the API's: nothing).
    pub(crate) csp: Option<String>,
    /// Extra headers.
    pub(crate) headers: Vec<(&'static str, String)>,
}

impl Reply {
    fn json(status: u16, v: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json; charset=utf-8",
            body: v.to_string().into_bytes(),
            csp: None,
            headers: Vec::new(),
        }
    }

    fn text(status: u16, text: &str) -> Reply {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{text}\n").into_bytes(),
            csp: None,
            headers: Vec::new(),
        }
    }

    fn bytes(content_type: &'static str, body: Vec<u8>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body,
            csp: None,
            headers: Vec::new(),
        }
    }
}

/// Answers one request, and closes its connection.
///
/// The answer is written here (`Connection: close` with it, which
/// tiny_http's `Response` cannot say), so that each connection serves one
/// request: tiny_http hands each connection to a thread of a pool for as
/// long as it stays open, and a burst of new connections (a browser opens
/// six at once for a page of pictures) can leave one queued behind
/// threads waiting on idle kept-alive connections, its requests never
/// answered. The request itself is still read by tiny_http.
pub(crate) fn respond(view: &View, request: tiny_http::Request) {
    let host = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_string());
    let method = request.method().as_str().to_string();
    let reply = route(view, &method, request.url(), host.as_deref());
    let head = head(reply.status, &reply);
    let mut out = request.into_writer();
    // A client that went away: nothing to do.
    let _ = out
        .write_all(head.as_bytes())
        .and_then(|_| match method.as_str() {
            "HEAD" => Ok(()),
            _ => out.write_all(&reply.body),
        })
        .and_then(|_| out.flush());
}

/// The status line and headers of an answer.
fn head(status: u16, reply: &Reply) -> String {
    let csp = reply
        .csp
        .as_deref()
        .unwrap_or("default-src 'none'; frame-ancestors 'none'");
    let reason = tiny_http::StatusCode(status).default_reason_phrase();
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\n\
         Content-Type: {}\r\n\
         Content-Length: {}\r\n\
         Connection: close\r\n\
         X-Content-Type-Options: nosniff\r\n\
         X-Frame-Options: DENY\r\n\
         Referrer-Policy: no-referrer\r\n\
         Cache-Control: no-store\r\n\
         Cross-Origin-Resource-Policy: same-origin\r\n\
         Content-Security-Policy: {csp}\r\n",
        reply.content_type,
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head
}

/// The answer to a request.
pub(crate) fn route(view: &View, method: &str, url: &str, host: Option<&str>) -> Reply {
    if !host.is_some_and(|h| host_ok(view, h)) {
        return Reply::text(403, "forbidden: the Host header is not this server's address");
    }
    if method != "GET" && method != "HEAD" {
        let mut r = Reply::text(405, "method not allowed: GET and HEAD only");
        r.headers.push(("Allow", "GET, HEAD".into()));
        return r;
    }
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let Some(rest) = path.strip_prefix('/') else {
        return Reply::text(400, "bad request: the path must start with /");
    };
    let Some(segments) = rest.split('/').map(decode).collect::<Option<Vec<String>>>() else {
        return Reply::text(400, "bad request: a path segment is not percent-encoded UTF-8 text");
    };
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    match segments.as_slice() {
        [""] => super::page::page(view),
        ["api", "info"] => Reply::json(200, &info(view)),
        ["api", "records"] => match page_query(query) {
            Ok((offset, limit)) => records(view, offset, limit),
            Err(why) => Reply::text(400, &format!("bad request: {why}")),
        },
        ["api", kind @ ("image" | "mask"), n, feature, i] => match (number(n), number(i)) {
            (Some(n), Some(i)) => value(view, kind, n, feature, i),
            _ => Reply::text(400, "bad request: a record or value number is not a number"),
        },
        _ => Reply::text(404, "not found"),
    }
}

/// Whether a `Host` header names this server: `localhost`, an IP address
/// (loopback, the one listened on, or any when listening on all), or the
/// `--host` name, with the port listened on. A DNS name of someone
/// else's (DNS rebinding) is refused.
fn host_ok(view: &View, host: &str) -> bool {
    // A browser leaves out the scheme's default port (80).
    let default_port = view.addr.port() == 80;
    let (name, port) = match host.strip_prefix('[') {
        Some(v6) => match (v6.split_once("]:"), v6.strip_suffix(']')) {
            (Some((ip, port)), _) => (ip, Some(port)),
            (None, Some(ip)) if default_port => (ip, None),
            _ => return false,
        },
        None => match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None if default_port => (host, None),
            None => return false,
        },
    };
    if port.is_some_and(|p| number(p) != Some(view.addr.port() as u64)) {
        return false;
    }
    let name = name.to_ascii_lowercase();
    if name == "localhost"
        || view
            .opts
            .host_name
            .as_deref()
            .is_some_and(|h| h.eq_ignore_ascii_case(&name))
    {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || ip == view.addr.ip() || view.addr.ip().is_unspecified(),
        Err(_) => false,
    }
}

/// A path segment or query part percent-decoded: `None` for a bad escape,
/// bytes that are not UTF-8, or a control character (NUL included).
pub(crate) fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b.get(i + 1..i + 3)?;
            let h = std::str::from_utf8(hex).ok()?;
            if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(h, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    let text = String::from_utf8(out).ok()?;
    (!text.chars().any(char::is_control)).then_some(text)
}

/// A decimal number of at most 20 digits that fits a u64 (no sign, no
/// spaces).
pub(crate) fn number(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 20 || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `offset` and `limit` of `/api/records` (limit capped at [`MAX_LIMIT`]).
fn page_query(query: &str) -> Result<(u64, u64), String> {
    let (mut offset, mut limit) = (0, DEFAULT_LIMIT);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (Some(k), Some(v)) = (decode(k), decode(v)) else {
            return Err("a query part is not percent-encoded UTF-8 text".into());
        };
        let slot = match k.as_str() {
            "offset" => &mut offset,
            "limit" => &mut limit,
            _ => continue,
        };
        *slot = number(&v).ok_or_else(|| format!("{k} is not a number from 0 to 2^64-1"))?;
    }
    Ok((offset, limit.min(MAX_LIMIT)))
}

/// What `/api/info` says.
fn info(view: &View) -> Value {
    let (found, complete) = view.index.wait_for(0, WAIT);
    let index = view.index.lock();
    let inputs: Vec<Value> = view
        .sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let counted = index.inputs[i];
            let access = s.access.get();
            json!({
                "name": s.name,
                "records": counted.map(|c| c.records),
                "shown": counted.map(|c| c.shown),
                "indexed_by": index.how[i],
                "compression": access.map(|a| a.0.name()),
                "random_access": access.map(|a| a.1),
            })
        })
        .collect();
    let error = index.error.clone();
    let (marks, stride) = (index.marks(), index.stride());
    drop(index);
    let first = if found > 0 { first_record(view) } else { Value::Null };
    json!({
        "title": view.opts.title,
        "inputs": inputs,
        "total": found,
        "complete": complete,
        "error": error,
        "where": view.opts.filter.as_ref().map(|w| w.text()),
        "first": first,
        "max_limit": MAX_LIMIT,
        "index": {"marks": marks, "stride": stride},
    })
}

/// The features of the first record shown: names and kinds, pictures,
/// annotations (read once).
fn first_record(view: &View) -> Value {
    if let Some(v) = view.first.get() {
        return v.clone();
    }
    let (recs, _) = view.records(0, 1);
    let Some(rec) = recs.first() else { return Value::Null };
    let r = api::record(view, rec);
    let v = json!({
        "features": r.get("features").and_then(Value::as_object).map(|f| f.keys().cloned().collect::<Vec<_>>()),
        "images": r.get("images").and_then(Value::as_object).map(|f| f.keys().cloned().collect::<Vec<_>>()),
        "annotations": r.get("annotations").is_some_and(|a| !a.is_null()),
    });
    view.first.get_or_init(|| v).clone()
}

/// `/api/records`.
fn records(view: &View, offset: u64, limit: u64) -> Reply {
    let (found, complete) = view.index.wait_for(offset, WAIT);
    let (recs, error) = match offset < found {
        true => view.records(offset, limit as usize),
        false => (Vec::new(), None),
    };
    let list: Vec<Value> = recs.iter().map(|r| api::record(view, r)).collect();
    let index = view.index.lock();
    let (found, complete) = (index.found.max(found), index.complete || complete);
    let error = error.or_else(|| index.error.clone());
    drop(index);
    Reply::json(
        200,
        &json!({
            "offset": offset,
            "limit": limit,
            "total": found,
            "complete": complete,
            "records": list,
            "error": error,
        }),
    )
}

/// `/api/image/…` and `/api/mask/…`.
fn value(view: &View, kind: &str, n: u64, feature: &str, i: u64) -> Reply {
    let (found, complete) = view.index.wait_for(n, WAIT);
    if n >= found {
        let mut r = Reply::text(if complete { 404 } else { 503 }, &format!("no record {n} (yet)"));
        if !complete {
            r.headers.push(("Retry-After", "1".into()));
        }
        return r;
    }
    let (recs, error) = view.records(n, 1);
    let Some(rec) = recs.first() else {
        return Reply::text(404, &error.unwrap_or_else(|| format!("no record {n}")));
    };
    let Some(bytes) = usize::try_from(i).ok().and_then(|i| api::value(rec, feature, i)) else {
        return Reply::text(404, "no such bytes value in this record");
    };
    if kind == "image" {
        return Reply::bytes(api::content_type(&bytes), bytes);
    }
    match api::mask_png(&bytes) {
        Ok(png) => Reply::bytes("image/png", png),
        Err(why) => Reply::text(422, &format!("the mask cannot be drawn: {why}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_decode_strictly() {
        assert_eq!(decode("image%2Fencoded").as_deref(), Some("image/encoded"));
        assert_eq!(decode("%C3%A9").as_deref(), Some("é"));
        assert_eq!(decode("plain").as_deref(), Some("plain"));
        assert_eq!(decode("%2"), None);
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%+1"), None);
        assert_eq!(decode("%00"), None);
        assert_eq!(decode("%0A"), None);
        assert_eq!(decode("%FF"), None);
        assert_eq!(decode("..%2F..%2Fetc%2Fpasswd").as_deref(), Some("../../etc/passwd"));
    }

    #[test]
    fn numbers_are_digits() {
        assert_eq!(number("0"), Some(0));
        assert_eq!(number("18446744073709551615"), Some(u64::MAX));
        assert_eq!(number("18446744073709551616"), None);
        assert_eq!(number("-1"), None);
        assert_eq!(number("+1"), None);
        assert_eq!(number(" 1"), None);
        assert_eq!(number(""), None);
        assert_eq!(number("1e3"), None);
    }

    #[test]
    fn page_queries_cap_the_limit() {
        assert_eq!(page_query(""), Ok((0, DEFAULT_LIMIT)));
        assert_eq!(page_query("offset=5&limit=10"), Ok((5, 10)));
        assert_eq!(page_query("limit=1000000000"), Ok((0, MAX_LIMIT)));
        assert_eq!(page_query("offset=5&x=y&"), Ok((5, DEFAULT_LIMIT)));
        assert!(page_query("offset=-1").is_err());
        assert!(page_query("offset=%ZZ").is_err());
        assert!(page_query("limit=").is_err());
    }
}
