//! The network part of [`super`]: `object_store` clients (one per bucket,
//! kept for the process) on one tokio runtime, created on the first URL.
//!
//! Blocking callers (the record reader's threads, the output writer) wait
//! on the runtime with `block_on`; they are never runtime threads.

use super::connector::Connector;
use super::settings;
use super::{anonymous, Kind, Location, RemoteError, RemoteErrorKind};
use crate::error::{bail, err, Result};
use crate::io::output_file::cleanup;
use bytes::Bytes;
use futures_util::StreamExt;
use object_store::list::PaginatedListStore;
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path as ObjectPath;
use object_store::{ClientOptions, MultipartId, ObjectStore, ObjectStoreExt, PutPayload, RetryConfig};
use std::collections::{HashMap, VecDeque};
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;

// Reading an object by position: `open`, `Object` and its cursors.
#[path = "object.rs"]
mod object;
pub(crate) use object::open;
// Glob expansion: listings read page by page.
#[path = "listing.rs"]
mod listing;
pub(crate) use listing::list;

/// A response that sends nothing for this long fails (and is retried); a
/// long transfer that keeps moving is never cut, unlike object_store's
/// default 30 s timeout for the whole request.
const READ_TIMEOUT: Duration = Duration::from_secs(30);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Upload part size (S3's minimum is 5 MiB for all but the last part); an
/// output smaller than one part is uploaded by a single PUT.
const PART_SIZE: usize = 8 * 1024 * 1024;
/// Parts uploading at once.
const PARTS_IN_FLIGHT: usize = 3;

/// The process's runtime (a few threads: the work is waiting).
fn runtime() -> io::Result<&'static Runtime> {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    let made = RUNTIME.get_or_init(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
        super::first_url();
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("tfr-net")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    });
    made.as_ref()
        .map_err(|e| io::Error::other(format!("cannot start the network runtime: {e}")))
}

/// One store's clients, shared by every object in it.
struct Client {
    store: Arc<dyn ObjectStore>,
    /// For uploads in parts (S3, GCS, Azure; not HTTP).
    multipart: Option<Arc<dyn MultipartStore>>,
    /// Listings page by page (S3, GCS, Azure; HTTP has none).
    lister: Option<Arc<dyn PaginatedListStore>>,
}

/// The client for a location's store: built once per bucket and reused.
fn client(loc: &Location) -> Result<Arc<Client>> {
    type Clients = Mutex<HashMap<(Kind, String), Arc<Client>>>;
    static CLIENTS: OnceLock<Clients> = OnceLock::new();
    let clients = CLIENTS.get_or_init(Clients::default);
    // A presigned URL's store is the URL itself (its query is part of it).
    let key = (
        loc.kind,
        if loc.query.is_empty() {
            loc.base.clone()
        } else {
            loc.url()
        },
    );
    if let Some(c) = clients.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(c.clone());
    }
    runtime()?;
    let made = Arc::new(build(loc)?);
    // A presigned URL's client serves that URL only: not kept (hundreds of
    // them would each hold a connection pool).
    if !loc.query.is_empty() {
        return Ok(made);
    }
    clients
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, made.clone());
    Ok(made)
}

/// The client options: `allow_http` when the store's `*_ALLOW_HTTP`
/// variable says so or its endpoint variable is an `http://` address.
fn client_options(allow_var: &str, endpoint_vars: &[&str]) -> ClientOptions {
    let http_endpoint = endpoint_vars
        .iter()
        .any(|v| std::env::var(v).is_ok_and(|e| e.starts_with("http://")));
    ClientOptions::new()
        .with_allow_http(env_true(allow_var) || http_endpoint)
        .with_timeout_disabled()
        .with_read_timeout(READ_TIMEOUT)
        .with_connect_timeout(CONNECT_TIMEOUT)
}

/// Transient errors (5xx, 429, a dropped connection) are retried with
/// backoff, a few times and within a minute.
fn retry() -> RetryConfig {
    RetryConfig {
        max_retries: 4,
        retry_timeout: Duration::from_secs(60),
        ..RetryConfig::default()
    }
}

fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

fn env_true(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on"))
}

/// Whether falling back to the cloud's instance-metadata service is
/// allowed (on a VM whose credentials come from it). Off by default: on
/// any other machine it is a long series of retries against an address
/// that does not answer, ending in an obscure error.
fn metadata_allowed() -> bool {
    env_true("TFR_USE_INSTANCE_METADATA")
}

const PUBLIC_HINT: &str = "for public data pass --no-sign-request";

fn build(loc: &Location) -> Result<Client> {
    let shown = loc.shown();
    // What object_store's signer would unwrap (and panic on), and the
    // files it would read whole, checked first.
    settings::check(loc.kind, &loc.bucket).map_err(|e| err!("{shown}: {e:#}"))?;
    settings::check_files(loc.kind).map_err(|e| err!("{shown}: {e:#}"))?;
    match loc.kind {
        Kind::S3 => {
            use object_store::aws::AmazonS3Builder;
            let mut b = AmazonS3Builder::from_env()
                .with_bucket_name(&loc.bucket)
                .with_client_options(client_options(
                    "AWS_ALLOW_HTTP",
                    &["AWS_ENDPOINT", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"],
                ))
                .with_retry(retry())
                .with_http_connector(Connector { cross_origin: false });
            let skip = anonymous() || env_true("AWS_SKIP_SIGNATURE");
            let profile = super::profile::load().map_err(|e| err!("{shown}: {e:#}"))?;
            let region_in_env = env_set("AWS_REGION") || env_set("AWS_DEFAULT_REGION");
            let endpoint_in_env =
                env_set("AWS_ENDPOINT") || env_set("AWS_ENDPOINT_URL") || env_set("AWS_ENDPOINT_URL_S3");
            if !region_in_env {
                if let Some(r) = &profile.region {
                    settings::check_region(&format!("the region of profile '{}'", profile.name), r)
                        .map_err(|e| err!("{shown}: {e}"))?;
                    b = b.with_region(r);
                }
            }
            if !endpoint_in_env {
                if let Some(e) = &profile.endpoint_url {
                    settings::check_url(&format!("the endpoint_url of profile '{}'", profile.name), e)
                        .map_err(|e| err!("{shown}: {e}"))?;
                    b = b.with_endpoint(e);
                    if e.starts_with("http://") {
                        b = b.with_allow_http(true);
                    }
                }
            }
            if skip {
                b = b.with_skip_signature(true);
            } else {
                let in_env = env_set("AWS_ACCESS_KEY_ID") && env_set("AWS_SECRET_ACCESS_KEY");
                if !in_env {
                    if let (Some(id), Some(secret)) = (&profile.access_key_id, &profile.secret_access_key) {
                        let named = |key: &str| format!("{key} of profile '{}'", profile.name);
                        settings::check_header(&named("aws_access_key_id"), id).map_err(|e| err!("{shown}: {e}"))?;
                        if let Some(t) = &profile.session_token {
                            settings::check_header(&named("aws_session_token"), t).map_err(|e| err!("{shown}: {e}"))?;
                        }
                        b = b.with_access_key_id(id).with_secret_access_key(secret);
                        if let Some(t) = &profile.session_token {
                            b = b.with_token(t);
                        }
                    } else if !env_set("AWS_WEB_IDENTITY_TOKEN_FILE")
                        && !env_set("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
                        && !env_set("AWS_CONTAINER_CREDENTIALS_FULL_URI")
                        && !metadata_allowed()
                    {
                        bail!(
                            "{shown}: no AWS credentials found (looked at AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, \
                             profile '{}' in {}); {PUBLIC_HINT} (TFR_USE_INSTANCE_METADATA=1 asks the EC2 metadata service)",
                            profile.name,
                            profile.looked_in.join(" and ")
                        );
                    }
                }
            }
            // No region anywhere, on AWS itself: ask S3 where the bucket
            // is (as the AWS CLI follows S3's redirect), rather than fail
            // with a redirect from us-east-1.
            if !region_in_env && profile.region.is_none() && !endpoint_in_env && profile.endpoint_url.is_none() {
                if let Some(r) = bucket_region(&loc.bucket) {
                    b = b.with_region(r);
                }
            }
            let s3 = Arc::new(b.build().map_err(|e| err!("{shown}: {}", one_line(&e)))?);
            Ok(Client {
                store: s3.clone(),
                multipart: Some(s3.clone()),
                lister: Some(s3),
            })
        }
        Kind::Gcs => {
            use object_store::gcp::GoogleCloudStorageBuilder;
            let mut b = GoogleCloudStorageBuilder::from_env()
                .with_bucket_name(&loc.bucket)
                .with_client_options(client_options("GOOGLE_ALLOW_HTTP", &["GOOGLE_BASE_URL"]))
                .with_retry(retry())
                .with_http_connector(Connector { cross_origin: false });
            if anonymous() || env_true("GOOGLE_SKIP_SIGNATURE") {
                b = b.with_skip_signature(true);
            } else {
                let adc = std::env::var_os("HOME")
                    .map(|h| std::path::Path::new(&h).join(".config/gcloud/application_default_credentials.json"));
                let found = [
                    "GOOGLE_SERVICE_ACCOUNT",
                    "GOOGLE_BEARER_TOKEN",
                    "GOOGLE_SERVICE_ACCOUNT_PATH",
                    "GOOGLE_SERVICE_ACCOUNT_KEY",
                    "GOOGLE_APPLICATION_CREDENTIALS",
                ]
                .iter()
                .any(|v| env_set(v))
                    || adc.as_ref().is_some_and(|p| p.exists());
                if !found && !metadata_allowed() {
                    bail!(
                        "{shown}: no Google Cloud credentials found (looked at GOOGLE_APPLICATION_CREDENTIALS, \
                         GOOGLE_SERVICE_ACCOUNT and gcloud's application default credentials); {PUBLIC_HINT} \
                         (TFR_USE_INSTANCE_METADATA=1 asks the GCE metadata server)"
                    );
                }
            }
            let gcs = Arc::new(b.build().map_err(|e| err!("{shown}: {}", one_line(&e)))?);
            Ok(Client {
                store: gcs.clone(),
                multipart: Some(gcs.clone()),
                lister: Some(gcs),
            })
        }
        Kind::Azure => {
            use object_store::azure::MicrosoftAzureBuilder;
            let mut b = MicrosoftAzureBuilder::from_env()
                .with_url(&loc.base)
                .with_client_options(client_options(
                    "AZURE_ALLOW_HTTP",
                    &["AZURE_STORAGE_ENDPOINT", "AZURE_ENDPOINT", "AZURITE_BLOB_STORAGE_URL"],
                ))
                .with_retry(retry())
                .with_http_connector(Connector { cross_origin: false });
            if anonymous() || env_true("AZURE_SKIP_SIGNATURE") {
                b = b.with_skip_signature(true);
            } else {
                let found = [
                    "AZURE_STORAGE_ACCOUNT_KEY",
                    "AZURE_STORAGE_ACCESS_KEY",
                    "AZURE_STORAGE_MASTER_KEY",
                    "AZURE_STORAGE_SAS_KEY",
                    "AZURE_STORAGE_SAS_TOKEN",
                    "AZURE_STORAGE_TOKEN",
                    "AZURE_CLIENT_SECRET",
                    "AZURE_STORAGE_CLIENT_SECRET",
                    "AZURE_FEDERATED_TOKEN_FILE",
                ]
                .iter()
                .any(|v| env_set(v))
                    || env_true("AZURE_USE_AZURE_CLI")
                    || env_true("AZURE_STORAGE_USE_EMULATOR");
                if !found && !metadata_allowed() {
                    bail!(
                        "{shown}: no Azure credentials found (looked at AZURE_STORAGE_ACCOUNT_KEY, \
                         AZURE_STORAGE_SAS_TOKEN, AZURE_CLIENT_SECRET, AZURE_FEDERATED_TOKEN_FILE, \
                         AZURE_USE_AZURE_CLI); {PUBLIC_HINT} (TFR_USE_INSTANCE_METADATA=1 asks the managed identity endpoint)"
                    );
                }
            }
            let az = Arc::new(b.build().map_err(|e| err!("{shown}: {}", one_line(&e)))?);
            Ok(Client {
                store: az.clone(),
                multipart: Some(az.clone()),
                lister: Some(az),
            })
        }
        Kind::Http => {
            use object_store::http::HttpBuilder;
            let url = if loc.query.is_empty() {
                loc.base.clone()
            } else {
                loc.url()
            };
            reqwest::Url::parse(&url).map_err(|e| err!("{shown}: not a valid URL ({e})"))?;
            let store = HttpBuilder::new()
                .with_url(&url)
                .with_client_options(client_options("", &[]).with_allow_http(true))
                .with_retry(retry())
                .with_http_connector(Connector { cross_origin: true })
                .build()
                .map_err(|e| err!("{shown}: {}", one_line(&e)))?;
            Ok(Client {
                store: Arc::new(store),
                multipart: None,
                lister: None,
            })
        }
    }
}

/// The region of an S3 bucket, from the `x-amz-bucket-region` header S3
/// gives a HEAD request to the bucket (no credentials needed); `None` when
/// S3 does not answer within a few seconds (the requests that follow then
/// say what is wrong).
fn bucket_region(bucket: &str) -> Option<String> {
    let rt = runtime().ok()?;
    let options = ClientOptions::new()
        .with_timeout(Duration::from_secs(5))
        .with_connect_timeout(CONNECT_TIMEOUT);
    wait(rt, object_store::aws::resolve_bucket_region(bucket, &options)).ok()
}

/// The object path of a location's key.
fn object_path(loc: &Location) -> Result<ObjectPath> {
    let parsed = match loc.kind {
        // A URL with a query is its own store's only object.
        Kind::Http if !loc.query.is_empty() => Ok(ObjectPath::default()),
        Kind::Http => ObjectPath::from_url_path(&loc.key),
        _ => ObjectPath::parse(&loc.key),
    };
    parsed.map_err(|e| err!("{}: not a valid object name ({e})", loc.shown()))
}

/// An object_store error as a [`RemoteError`] after `name`: its kind, and
/// [`one_line`]'s text.
pub(crate) fn store_error(name: &str, e: &object_store::Error) -> crate::error::Error {
    let kind = match e {
        object_store::Error::NotFound { .. } => RemoteErrorKind::NotFound,
        _ => RemoteErrorKind::Other,
    };
    crate::error::Error::from(RemoteError::new(kind, format!("{name}: {}", one_line(e))))
}

/// An object_store error as one line: the kind of failure in words, then
/// the innermost cause.
fn one_line(e: &object_store::Error) -> String {
    use object_store::Error as E;
    let causes = causes(e);
    let hint = if anonymous() {
        "the data is not public: give credentials instead of --no-sign-request"
    } else {
        "if the data is public, pass --no-sign-request"
    };
    let text = match e {
        _ if method_not_allowed(e) => format!("the server refused the request: {causes}"),
        E::NotFound { .. } => "no such object".to_string(),
        // Reads ask for the version opened (If-Match on its ETag).
        E::Precondition { .. } => "the object changed while being read (replaced since it was opened)".to_string(),
        _ if ["NoSuchBucket", "ContainerNotFound", "bucket does not exist"]
            .iter()
            .any(|m| causes.contains(m)) =>
        {
            "no such bucket or container".to_string()
        }
        E::PermissionDenied { .. } => format!("access denied ({causes}); {hint}"),
        // Listings report a refusal as a generic error.
        _ if [
            "AccessDenied",
            "AuthorizationFailure",
            "AuthenticationFailed",
            "403 Forbidden",
        ]
        .iter()
        .any(|m| causes.contains(m)) =>
        {
            format!("access denied ({causes}); {hint}")
        }
        E::Unauthenticated { .. } => format!("credentials refused ({causes}); {hint}"),
        _ if connection_refused(e) => format!("cannot connect: connection refused ({causes})"),
        _ => causes,
    };
    // URLs in the causes lose their query (a presigned URL's signature)
    // and their user and password; what the server sent (an error body)
    // is escaped here, so that it is harmless in every output (JSON and
    // tables too), not only on stderr.
    crate::io::input::escape_name(super::redact_text(&text).as_bytes())
}

/// Whether the server answered 405 Method Not Allowed.
pub(super) fn method_not_allowed(e: &object_store::Error) -> bool {
    super::connector::method_refused(e)
}

/// Whether, somewhere in its chain, the error is a refused connection
/// (told by the I/O error's kind under the HTTP client's).
fn connection_refused(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(err) = next {
        if err
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionRefused)
        {
            return true;
        }
        next = err.source();
    }
    false
}

/// The error's message and its sources', each once.
fn causes(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(e);
    while let Some(err) = next {
        let text = err.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        next = err.source();
    }
    let joined = parts.join(": ");
    // The long form repeats request details: keep it readable.
    if joined.len() > 400 {
        let mut cut = 400;
        while !joined.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}...", &joined[..cut])
    } else {
        joined
    }
}

fn wait<T>(rt: &Runtime, f: impl std::future::Future<Output = T>) -> T {
    rt.block_on(f)
}

/// An object being uploaded: bytes gather into parts uploaded as they
/// fill; [`Upload::commit`] completes the upload (or PUTs an object
/// smaller than one part whole). Dropped without a commit, or on a
/// terminating signal, the multipart upload is aborted: no object appears,
/// an existing one is untouched; S3 and GCS drop the parts; Azure has no
/// abort: the blocks staged for a new blob are discarded (see [`abort`]),
/// those staged over an existing blob stay, invisible, until Azure expires
/// them after 7 days.
pub(crate) struct Upload {
    client: Arc<Client>,
    path: ObjectPath,
    name: String,
    buf: Vec<u8>,
    /// The multipart upload, once the first part is full.
    id: Option<MultipartId>,
    /// Parts uploading, in order.
    in_flight: VecDeque<JoinHandle<object_store::Result<PartId>>>,
    done: Vec<PartId>,
    runtime: &'static Runtime,
    /// Aborts the multipart upload on a terminating signal.
    _on_signal: Option<cleanup::HookGuard>,
    /// Azure, writing a new blob: an abort also discards the staged blocks
    /// (Azure has no abort: see [`abort`]).
    discard_blocks: bool,
    /// Set by the one abort that runs (signal hook or drop).
    aborted: Arc<AtomicBool>,
}

impl Upload {
    /// Starts an upload to `loc`. A listing of the key's parent checks the
    /// bucket and the credentials now, before any work.
    pub(crate) fn create(loc: &Location) -> Result<Upload> {
        let name = loc.shown();
        let client = client(loc)?;
        if client.multipart.is_none() {
            bail!("{name}: cannot write over HTTP (only to s3://, gs:// and az:// URLs)");
        }
        let path = object_path(loc)?;
        if loc.key.is_empty() || loc.key.ends_with('/') {
            bail!("{name}: names no object (the URL ends with `/`)");
        }
        let rt = runtime()?;
        let parent = loc.key.rfind('/').and_then(|i| ObjectPath::parse(&loc.key[..i]).ok());
        let store = client.store.clone();
        // The first page of a listing is enough to know the bucket and the
        // credentials are good (a prefix may hold millions of keys).
        let checked = wait(rt, async move { store.list(parent.as_ref()).next().await.transpose() });
        match checked {
            Ok(_) => {}
            // A key object_store refuses as a name: the bucket answered.
            Err(e) if listing::bad_key(&e).is_some() => {}
            Err(object_store::Error::NotFound { .. }) => bail!("{name}: no such bucket or container"),
            Err(e) => bail!("{name}: {}", one_line(&e)),
        }
        let discard_blocks = loc.kind == Kind::Azure && {
            let (store, path) = (client.store.clone(), path.clone());
            matches!(
                wait(rt, async move { store.head(&path).await }),
                Err(object_store::Error::NotFound { .. })
            )
        };
        Ok(Upload {
            client,
            path,
            name,
            buf: Vec::new(),
            id: None,
            in_flight: VecDeque::new(),
            done: Vec::new(),
            runtime: rt,
            _on_signal: None,
            discard_blocks,
            aborted: Arc::default(),
        })
    }

    fn multipart(&self) -> io::Result<Arc<dyn MultipartStore>> {
        self.client
            .multipart
            .clone()
            .ok_or_else(|| io::Error::other("this store takes no uploads"))
    }

    /// Sends the buffered bytes as the next part (starting the multipart
    /// upload with the first), keeping at most [`PARTS_IN_FLIGHT`] going.
    fn send_part(&mut self) -> io::Result<()> {
        let mp = self.multipart()?;
        let id = match &self.id {
            Some(id) => id.clone(),
            None => {
                // The hook is in place before the upload is created: a
                // signal while the create request is out waits for its
                // answer (a few seconds at most) and aborts what it made.
                let slot: Created = Arc::default();
                let (client, path, rt, seen) = (self.client.clone(), self.path.clone(), self.runtime, slot.clone());
                let (discard_blocks, aborted) = (self.discard_blocks, self.aborted.clone());
                self._on_signal = Some(cleanup::on_signal(Box::new(move || {
                    let (lock, answered) = &*seen;
                    let id = lock.lock().unwrap_or_else(|e| e.into_inner());
                    let (id, _) = answered
                        .wait_timeout_while(id, Duration::from_secs(15), |id| id.is_none())
                        .unwrap_or_else(|e| e.into_inner());
                    if let Some(Some(id)) = &*id {
                        abort(rt, &client, &path, id, discard_blocks, &aborted);
                    }
                })));
                let created = self.runtime.block_on(mp.create_multipart(&self.path));
                let (lock, answered) = &*slot;
                *lock.lock().unwrap_or_else(|e| e.into_inner()) = Some(created.as_ref().ok().cloned());
                answered.notify_all();
                let id = created.map_err(|e| io::Error::other(one_line(&e)))?;
                self.id = Some(id.clone());
                id
            }
        };
        while self.in_flight.len() >= PARTS_IN_FLIGHT {
            self.finish_oldest()?;
        }
        let index = self.done.len() + self.in_flight.len();
        let data = PutPayload::from(std::mem::take(&mut self.buf));
        let path = self.path.clone();
        let task = self
            .runtime
            .spawn(async move { mp.put_part(&path, &id, index, data).await });
        self.in_flight.push_back(task);
        Ok(())
    }

    fn finish_oldest(&mut self) -> io::Result<()> {
        if let Some(task) = self.in_flight.pop_front() {
            let part = self
                .runtime
                .block_on(task)
                .map_err(|e| io::Error::other(format!("part upload failed: {e}")))?
                .map_err(|e| io::Error::other(one_line(&e)))?;
            self.done.push(part);
        }
        Ok(())
    }

    /// Uploads what is left and completes the upload: the object appears
    /// now, whole. On failure the upload is aborted (by drop).
    pub(crate) fn commit(mut self) -> Result<()> {
        let name = self.name.clone();
        let fail = |e: &dyn std::fmt::Display| err!("{name}: upload failed: {e}");
        if self.id.is_none() {
            let data = PutPayload::from(std::mem::take(&mut self.buf));
            let store = self.client.store.clone();
            let path = self.path.clone();
            self.runtime
                .block_on(async move { store.put(&path, data).await })
                .map_err(|e| fail(&one_line(&e)))?;
            return Ok(());
        }
        if !self.buf.is_empty() {
            self.send_part().map_err(|e| fail(&e))?;
        }
        while !self.in_flight.is_empty() {
            self.finish_oldest().map_err(|e| fail(&e))?;
        }
        let mp = self.multipart().map_err(|e| fail(&e))?;
        let id = self.id.clone().ok_or_else(|| fail(&"no upload"))?;
        let parts = std::mem::take(&mut self.done);
        self.runtime
            .block_on(mp.complete_multipart(&self.path, &id, parts))
            .map_err(|e| fail(&one_line(&e)))?;
        // Completed: nothing to abort.
        self.id = None;
        self._on_signal = None;
        Ok(())
    }
}

/// A multipart upload's id as the signal hook sees it: `None` while the
/// create request is out, then its answer (`Some(None)`: it failed).
type Created = Arc<(Mutex<Option<Option<MultipartId>>>, std::sync::Condvar)>;

/// Aborts a multipart upload, waiting at most a few seconds. With
/// `discard_blocks` (Azure, a blob that did not exist): Azure has no abort
/// (object_store's is a no-op), and the blocks staged for a blob stay
/// until Azure expires them after 7 days; when no blob has appeared since
/// the upload began, committing an empty block list discards them, and
/// the empty blob it makes is deleted at once (another writer's blob
/// committed in the instant between the check and the commit would be
/// lost: a window of one request). Runs once per upload
/// (`once`: the signal hook and the drop may both get here).
fn abort(rt: &Runtime, client: &Client, path: &ObjectPath, id: &MultipartId, discard_blocks: bool, once: &AtomicBool) {
    if once.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    let Some(mp) = client.multipart.clone() else { return };
    let store = client.store.clone();
    let _ = rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(10), async {
            mp.abort_multipart(path, id).await?;
            if discard_blocks {
                // Only if no blob has appeared since (another writer's
                // would be replaced): committing an empty block list drops
                // the staged blocks, and the empty blob goes at once.
                if let Err(object_store::Error::NotFound { .. }) = store.head(path).await {
                    mp.complete_multipart(path, id, Vec::new()).await?;
                    store.delete(path).await?;
                }
            }
            Ok::<_, object_store::Error>(())
        })
        .await
    });
}

impl Write for Upload {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let room = PART_SIZE - self.buf.len();
        let n = data.len().min(room);
        self.buf.extend_from_slice(&data[..n]);
        if self.buf.len() >= PART_SIZE {
            self.send_part()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Upload {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else { return };
        // Parts already sent are let finish (10 s at most): one that
        // lands after the abort would leave a part (S3) or a staged block
        // (Azure) behind.
        let mut in_flight: Vec<_> = self.in_flight.drain(..).collect();
        let _ = self.runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(10), async {
                for task in in_flight.iter_mut() {
                    let _ = task.await;
                }
            })
            .await
        });
        for task in in_flight {
            task.abort();
        }
        abort(
            self.runtime,
            &self.client,
            &self.path,
            &id,
            self.discard_blocks,
            &self.aborted,
        );
        self._on_signal = None;
    }
}
