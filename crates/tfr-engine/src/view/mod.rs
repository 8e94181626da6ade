//! `tfr view`: a local web viewer of a dataset's records. An HTTP server
//! (tiny_http) on one address serves one self-contained page and a JSON
//! API over the named inputs, and nothing else:
//!
//! - `GET /`: the page (a grid of thumbnails with the overlays of
//!   [`crate::annotate`], a single-record view with every feature as
//!   text, keyboard navigation);
//! - `GET /api/info`: the inputs, the records found so far, whether the
//!   index is complete, the features of the first record;
//! - `GET /api/records?offset=N&limit=K`: records N.. (K at most
//!   [`MAX_LIMIT`]) in the JSONL mapping of `tfr to-jsonl`, with the URLs
//!   of their pictures, their annotations and SVG overlays;
//! - `GET /api/image/N/FEATURE/I`: value I of bytes feature FEATURE of
//!   record N, as stored, with its content type;
//! - `GET /api/mask/N/FEATURE/I`: a segmentation mask coloured as a PNG.
//!
//! Records are numbered over all inputs in order (with `--where`, the
//! matching ones); the index of [`index`] finds them, built by [`build`]
//! in the background; [`source`] reads them. The library prints nothing
//! (a `tfr index` file that does not match its input is an `io::warn`) and
//! holds no process policy: the caller prints the URL and stops the
//! process.

mod api;
mod build;
mod http;
mod idx;
mod index;
mod page;
mod source;

use crate::error::{Context, Result};
use crate::example::{MessageType, Where};
use crate::io::Input;
use crate::record::OpenOptions;
use source::{Rec, Source};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};

/// Records one `/api/records` request gives at most.
pub const MAX_LIMIT: u64 = 100;

/// Payload bytes of recently read records kept for the picture requests
/// that follow a page (a record over it is not kept).
const CACHE_BYTES: usize = 32 << 20;
/// Records kept at most.
const CACHE_RECORDS: usize = 2 * MAX_LIMIT as usize;

/// What the flags say.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// How inputs are opened.
    pub open: OpenOptions,
    /// `--type`, or `None`: each input's first record decides.
    pub ty: Option<MessageType>,
    /// `--where`: only the matching records are shown.
    pub filter: Option<Where>,
    /// What to draw over pictures.
    pub annotate: crate::annotate::Options,
    /// The page's title.
    pub title: String,
    /// A host name the server is reached by besides `localhost` and IP
    /// addresses (`--host NAME`): accepted in the `Host` header.
    pub host_name: Option<String>,
    /// Use the `tfr index` files beside plain inputs (else each input is
    /// read through to index it).
    pub use_idx: bool,
}

/// The state the requests and the index builder share.
pub(crate) struct View {
    pub(crate) opts: Options,
    pub(crate) sources: Vec<Source>,
    pub(crate) index: index::Shared,
    /// The address the server listens on.
    pub(crate) addr: SocketAddr,
    /// Records read lately (see [`CACHE_BYTES`]).
    cache: Mutex<VecDeque<Arc<Rec>>>,
    /// The features of the first record shown, once read.
    first: OnceLock<serde_json::Value>,
}

/// A running viewer: the server is listening, the index is being built.
pub struct Viewer {
    view: Arc<View>,
    server: Arc<tiny_http::Server>,
}

impl Viewer {
    /// Listens on `addr` (port 0: a free one) and starts indexing
    /// `inputs` in the background; [`Viewer::serve`] answers requests.
    pub fn start(addr: SocketAddr, inputs: Vec<Input>, opts: Options) -> Result<Viewer> {
        if inputs.is_empty() {
            crate::error::bail!("no input to view");
        }
        if let Some(stream) = inputs.iter().find(|i| i.is_stream()) {
            crate::error::bail!(
                "{}: tfr view reads its inputs again and again, and a stream only once: save it to a file first",
                stream.display()
            );
        }
        // Local files that cannot be opened, or do not start with a
        // record, fail now, before listening (objects were found by their
        // listing; they fail in the index).
        for input in &inputs {
            if matches!(input, Input::Path(_)) {
                let mut reader = opts.open.open(input)?;
                reader.skip_record().map_err(|e| crate::record::read_error(input, e))?;
            }
        }
        let listener = std::net::TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
        let addr = listener
            .local_addr()
            .with_context(|| format!("cannot listen on {addr}"))?;
        let server = tiny_http::Server::from_listener(listener, None)
            .map_err(|e| crate::error::err!("cannot listen on {addr}: {e}"))?;
        let view = Arc::new(View {
            sources: inputs.into_iter().map(Source::new).collect(),
            index: index::Shared::new(0),
            opts,
            addr,
            cache: Mutex::new(VecDeque::new()),
            first: OnceLock::new(),
        });
        view.index.update(|i| *i = index::Index::new(view.sources.len()));
        let builder = view.clone();
        std::thread::Builder::new()
            .name("tfr-view-index".into())
            .spawn(move || build::build(&builder))
            .context("cannot start the indexing thread")?;
        Ok(Viewer {
            view,
            server: Arc::new(server),
        })
    }

    /// The address listened on.
    pub fn addr(&self) -> SocketAddr {
        self.view.addr
    }

    /// The page's URL (an unspecified address, `0.0.0.0` or `::`, as
    /// loopback).
    pub fn url(&self) -> String {
        let addr = self.view.addr;
        let ip = match addr.ip() {
            std::net::IpAddr::V4(ip) if ip.is_unspecified() => std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
            std::net::IpAddr::V6(ip) if ip.is_unspecified() => std::net::IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        format!("http://{}/", SocketAddr::new(ip, addr.port()))
    }

    /// Answers requests on `workers` threads (this one among them) until
    /// [`Viewer::stop`].
    pub fn serve(&self, workers: usize) -> Result<()> {
        let mut threads = Vec::new();
        for k in 1..workers.max(1) {
            let (server, view) = (self.server.clone(), self.view.clone());
            let t = std::thread::Builder::new()
                .name(format!("tfr-view-{k}"))
                .spawn(move || answer(&server, &view))
                .context("cannot start a server thread")?;
            threads.push(t);
        }
        answer(&self.server, &self.view);
        for t in threads {
            let _ = t.join();
        }
        Ok(())
    }

    /// Makes [`Viewer::serve`] return (its threads end after the request
    /// each answers).
    pub fn stop(&self, workers: usize) {
        for _ in 0..workers.max(1) {
            self.server.unblock();
        }
    }
}

/// Answers requests until the server is unblocked.
fn answer(server: &tiny_http::Server, view: &View) {
    while let Ok(request) = server.recv() {
        http::respond(view, request);
    }
}

impl View {
    /// Records `first..first + limit` (fewer at the end), and an error
    /// that stopped the reading.
    pub(crate) fn records(&self, first: u64, limit: usize) -> (Vec<Arc<Rec>>, Option<String>) {
        let Some(mark) = self.index.lock().locate(first) else {
            return (Vec::new(), None);
        };
        if limit == 1 {
            if let Some(hit) = self.cached(first) {
                return (vec![hit], None);
            }
        }
        let (recs, error) = source::read(self, mark, first, limit);
        let recs: Vec<Arc<Rec>> = recs.into_iter().map(Arc::new).collect();
        self.keep(&recs);
        (recs, error.map(|e| format!("{e:#}")))
    }

    fn cached(&self, n: u64) -> Option<Arc<Rec>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.iter().find(|r| r.n == n).cloned()
    }

    /// Keeps records read for the requests that follow.
    fn keep(&self, recs: &[Arc<Rec>]) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        for r in recs {
            if r.payload.len() <= CACHE_BYTES && !cache.iter().any(|c| c.n == r.n) {
                cache.push_back(r.clone());
            }
        }
        let mut bytes: usize = cache.iter().map(|r| r.payload.len()).sum();
        while cache.len() > CACHE_RECORDS || bytes > CACHE_BYTES {
            match cache.pop_front() {
                Some(r) => bytes -= r.payload.len(),
                None => break,
            }
        }
    }
}
