//! The HTTP client every store's requests go through: object_store's
//! reqwest client, built here (object_store's `HttpConnector`) so that what
//! follows a redirect is tfr's to decide:
//!
//! - no `Referer` header, ever (a presigned URL's signature would go with
//!   it to wherever the server redirects);
//! - a signed store (S3, GCS, Azure) follows redirects only within its own
//!   origin (scheme, host, port): its requests carry credentials in
//!   headers a client does not know to drop (`x-amz-security-token`);
//! - HTTP(S) follows redirects to other hosts (downloads often move to a
//!   CDN), but never from `https` to `http`;
//! - nothing follows a redirect to a link-local address (169.254.0.0/16,
//!   `fe80::/10`: the cloud's instance-metadata service), to EC2's IPv6
//!   one (`fd00:ec2::254`), Alibaba's (100.100.100.200) or to a metadata
//!   host name (`metadata.google.internal`, `instance-data.ec2.internal`).
//!   The check is of the URL's host as written: a name that resolves to
//!   such an address (a wildcard DNS name) is not caught;
//! - at most 10 redirects.
//!
//! A 405 Method Not Allowed comes back as [`MethodRefused`], an error of its
//! own that callers find in the cause chain ([`method_refused`]): object_store
//! reports it as "not found" and keeps the status in a type it does not
//! export.
//!
//! The client options object_store passes (timeouts, `allow_http`, proxy,
//! user agent, default headers, HTTP/1 or 2 only) are honoured as its own
//! client does.

use object_store::client::{
    HttpClient, HttpConnector, HttpError, HttpErrorKind, HttpRequest, HttpResponse, HttpService,
};
use object_store::{ClientConfigKey as Key, ClientOptions};
use reqwest::redirect::{Attempt, Policy};
use std::time::Duration;

/// Builds the reqwest client of one store.
#[derive(Debug, Clone, Copy)]
pub(super) struct Connector {
    /// Whether redirects to another origin are followed (HTTP(S) only).
    pub(super) cross_origin: bool,
}

/// Redirects followed, at most, per request.
const MAX_REDIRECTS: usize = 10;

fn failed(e: impl std::error::Error + Send + Sync + 'static) -> object_store::Error {
    object_store::Error::Generic {
        store: "HTTP client",
        source: Box::new(e),
    }
}

impl HttpConnector for Connector {
    fn connect(&self, options: &ClientOptions) -> object_store::Result<HttpClient> {
        let value = |k: Key| options.get_config_value(&k);
        let on = |k: Key| value(k).is_some_and(|v| v.eq_ignore_ascii_case("true"));
        let duration = |k: Key| -> object_store::Result<Option<Duration>> {
            value(k)
                .map(|v| humantime::parse_duration(&v).map_err(failed))
                .transpose()
        };
        let agent = value(Key::UserAgent).unwrap_or_else(|| concat!("tfr/", env!("CARGO_PKG_VERSION")).to_string());
        let mut b = reqwest::ClientBuilder::new()
            .user_agent(agent)
            .referer(false)
            .redirect(policy(self.cross_origin))
            // object_store's sizes come from Content-Length: no decoding.
            .no_gzip()
            .no_brotli()
            .no_zstd()
            .no_deflate()
            .https_only(!on(Key::AllowHttp));
        if let Some(headers) = options.get_default_headers() {
            b = b.default_headers(headers.clone());
        }
        if let Some(url) = value(Key::ProxyUrl) {
            let mut proxy = reqwest::Proxy::all(url.as_str()).map_err(failed)?;
            if let Some(excludes) = value(Key::ProxyExcludes) {
                proxy = proxy.no_proxy(reqwest::NoProxy::from_string(&excludes));
            }
            if let Some(pem) = value(Key::ProxyCaCertificate) {
                let cert = reqwest::tls::Certificate::from_pem(pem.as_bytes()).map_err(failed)?;
                b = b.tls_certs_merge(std::iter::once(cert));
            }
            b = b.proxy(proxy);
        }
        if on(Key::NoSystemCertificates) {
            b = b.tls_certs_only(std::iter::empty());
        }
        if on(Key::AllowInvalidCertificates) {
            b = b.danger_accept_invalid_certs(true);
        }
        if let Some(t) = duration(Key::Timeout)? {
            b = b.timeout(t);
        }
        if let Some(t) = duration(Key::ConnectTimeout)? {
            b = b.connect_timeout(t);
        }
        if let Some(t) = duration(Key::ReadTimeout)? {
            b = b.read_timeout(t);
        }
        if let Some(t) = duration(Key::PoolIdleTimeout)? {
            b = b.pool_idle_timeout(t);
        }
        if on(Key::Http1Only) {
            b = b.http1_only();
        }
        if on(Key::Http2Only) {
            b = b.http2_prior_knowledge();
        }
        Ok(HttpClient::new(Service(b.build().map_err(failed)?)))
    }
}

/// The reqwest client, with a 405 answer turned into [`MethodRefused`].
#[derive(Debug)]
struct Service(reqwest::Client);

#[async_trait::async_trait]
impl HttpService for Service {
    async fn call(&self, req: HttpRequest) -> Result<HttpResponse, HttpError> {
        let method = req.method().clone();
        let response = self.0.call(req).await?;
        if response.status() == reqwest::StatusCode::METHOD_NOT_ALLOWED {
            // Unknown: object_store does not retry it.
            return Err(HttpError::new(HttpErrorKind::Unknown, MethodRefused(method)));
        }
        Ok(response)
    }
}

/// The server answered 405 Method Not Allowed to a request of this method.
#[derive(Debug)]
pub(crate) struct MethodRefused(pub(crate) reqwest::Method);

impl std::fmt::Display for MethodRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "405 Method Not Allowed (the server does not take {} requests)",
            self.0
        )
    }
}

impl std::error::Error for MethodRefused {}

/// Whether, somewhere in its cause chain, the error is a [`MethodRefused`].
pub(crate) fn method_refused(e: &(dyn std::error::Error + 'static)) -> bool {
    std::iter::successors(Some(e), |e| e.source()).any(|e| e.is::<MethodRefused>())
}

/// Why a redirect is not followed, or `None` to follow it.
fn refused(attempt: &Attempt<'_>, cross_origin: bool) -> Option<String> {
    let next = attempt.url();
    let host = next.host_str().unwrap_or_default().to_string();
    if attempt.previous().len() > MAX_REDIRECTS {
        return Some(format!("more than {MAX_REDIRECTS} redirects"));
    }
    if metadata_host(next) {
        return Some(format!(
            "refused a redirect to {host} (a link-local or instance-metadata address)"
        ));
    }
    let first = attempt.previous().first()?;
    if first.scheme() == "https" && next.scheme() != "https" {
        return Some(format!("refused a redirect from https to {}://{host}", next.scheme()));
    }
    let same = next.scheme() == first.scheme()
        && next.host_str() == first.host_str()
        && next.port_or_known_default() == first.port_or_known_default();
    if !same && !cross_origin {
        return Some(format!(
            "refused a redirect to another host ({host}): a signed request's credentials are not sent elsewhere"
        ));
    }
    None
}

fn policy(cross_origin: bool) -> Policy {
    Policy::custom(move |attempt| match refused(&attempt, cross_origin) {
        Some(why) => attempt.error(why),
        None => attempt.follow(),
    })
}

/// A link-local address (IPv4 169.254.0.0/16, IPv6 fe80::/10, or either
/// inside an IPv4-mapped IPv6 address) or a cloud metadata host name.
fn metadata_host(url: &reqwest::Url) -> bool {
    use std::net::IpAddr;
    let host = url.host_str().unwrap_or_default();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    // Alibaba Cloud's metadata service is not link-local.
    let v4 = |ip: std::net::Ipv4Addr| ip.is_link_local() || ip == std::net::Ipv4Addr::new(100, 100, 100, 200);
    match bare.parse::<IpAddr>() {
        Ok(IpAddr::V4(ip)) => v4(ip),
        Ok(IpAddr::V6(ip)) => match ip.to_ipv4_mapped() {
            Some(mapped) => v4(mapped),
            // fe80::/10, and EC2's metadata service over IPv6.
            None => {
                (ip.segments()[0] & 0xffc0) == 0xfe80
                    || ip == std::net::Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254)
            }
        },
        Err(_) => {
            let name = host.trim_end_matches('.').to_ascii_lowercase();
            matches!(
                name.as_str(),
                "metadata" | "metadata.google.internal" | "instance-data" | "instance-data.ec2.internal"
            ) || name.ends_with(".metadata.google.internal")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_hosts() {
        for url in [
            "http://169.254.169.254/latest/meta-data/",
            "http://169.254.170.2/creds",
            "http://[fe80::1]/x",
            "http://[::ffff:169.254.169.254]/x",
            "http://metadata.google.internal/computeMetadata/v1/",
            "http://METADATA.google.internal./x",
            "http://[fd00:ec2::254]/latest/meta-data/",
            "http://100.100.100.200/latest/meta-data/",
            "http://[::ffff:100.100.100.200]/x",
            "http://instance-data/latest/",
            "http://instance-data.ec2.internal/latest/",
        ] {
            assert!(metadata_host(&reqwest::Url::parse(url).unwrap()), "{url}");
        }
        for url in [
            "http://127.0.0.1:9000/b",
            "https://s3.amazonaws.com/b",
            "http://[::1]/x",
        ] {
            assert!(!metadata_host(&reqwest::Url::parse(url).unwrap()), "{url}");
        }
    }
}
