//! Any protobuf message as a payload (`--proto`, `--descriptor-set`,
//! `--message`, and TensorBoard's tf.Event built in): the message's
//! descriptor compiled in-process from .proto files (protox) or read from
//! a descriptor set, each payload decoded by it ([`decode`]) and printed
//! as Python prints it: the text format ([`text`]) or the JSON mapping
//! ([`json`]), written as Arrow columns ([`arrow`], feature `parquet`),
//! and JSON read back into messages ([`from_json`]).

#[cfg(feature = "parquet")]
pub mod arrow;
pub mod decode;
pub mod field;
pub mod from_json;
pub mod json;
pub mod paths;
pub mod scalars;
#[cfg(feature = "parquet")]
pub mod scalars_parquet;
pub mod text;

use crate::error::{bail, Result};
use prost_reflect::{DescriptorPool, MessageDescriptor};
use std::path::PathBuf;

pub use decode::{Msg, Slot, Val};

/// Where the message's descriptor comes from.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// .proto files to compile (`--proto`).
    pub protos: Vec<PathBuf>,
    /// Directories their imports are found in (`-I/--proto-path`); the
    /// directory of each .proto file is searched too, and protobuf's own
    /// `google/protobuf/*.proto` are built in.
    pub includes: Vec<PathBuf>,
    /// Descriptor sets (`protoc --descriptor_set_out --include_imports`).
    pub descriptor_sets: Vec<PathBuf>,
    /// The message's full name (`--message pkg.Msg`).
    pub message: Option<String>,
}

impl Sources {
    /// Whether any was given.
    pub fn is_empty(&self) -> bool {
        self.protos.is_empty() && self.descriptor_sets.is_empty() && self.message.is_none()
    }
}

/// A message type payloads are decoded as, with the descriptors that
/// resolve the types an `Any` names.
#[derive(Clone, Debug)]
pub struct Message {
    /// The message's descriptor.
    pub desc: MessageDescriptor,
    /// Every descriptor loaded.
    pub pool: DescriptorPool,
    /// Whether the text format shows a TensorProto's values in a comment
    /// line (tf.Event; others print exactly as Python does).
    pub tensor_values: bool,
}

/// How a payload is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `text_format.MessageToString`.
    Text,
    /// `json_format.MessageToJson(preserving_proto_field_name=True, indent=None)`.
    Json,
}

impl Message {
    /// The message the sources name; `None` when none were given.
    pub fn load(sources: &Sources) -> Result<Option<Message>> {
        if sources.is_empty() {
            return Ok(None);
        }
        let Some(name) = sources.message.as_deref() else {
            bail!("--proto/--descriptor-set: name the payloads' message with --message (its full name, pkg.Msg)");
        };
        if sources.protos.is_empty() && sources.descriptor_sets.is_empty() {
            bail!("--message {name}: give the .proto file that defines it (--proto) or a descriptor set (--descriptor-set)");
        }
        let mut pool = DescriptorPool::new();
        for path in &sources.descriptor_sets {
            let bytes = std::fs::read(path).map_err(|e| crate::Error::msg(format!("{}: {e}", path.display())))?;
            if let Some(file) = editions_file(&bytes) {
                bail!(
                    "{}: {file} uses protobuf editions, which tfr does not read yet (proto2 and proto3 files it does)",
                    path.display()
                );
            }
            let not_one = |e: &dyn std::fmt::Display| {
                crate::Error::msg(format!(
                    "{}: not a descriptor set (protoc --descriptor_set_out --include_imports): {e}",
                    path.display()
                ))
            };
            // prost-reflect panics on a few forged sets (a default value's
            // escape that overflows): an error like any other.
            crate::error::catch_panic(|| pool.decode_file_descriptor_set(bytes.as_slice()))
                .map_err(|e| not_one(&e))?
                .map_err(|e| not_one(&e))?;
        }
        if !sources.protos.is_empty() {
            compile(&sources.protos, &sources.includes, &mut pool)?;
        }
        // A map entry type must have its key and value (decoding asks for
        // them).
        if let Some(m) = pool
            .all_messages()
            .find(|m| m.is_map_entry() && (m.get_field(1).is_none() || m.get_field(2).is_none()))
        {
            bail!("{}: a map entry type without its key or value field", m.full_name());
        }
        let Some(desc) = pool.get_message_by_name(name.trim_start_matches('.')) else {
            let mut known: Vec<String> = pool.all_messages().map(|m| m.full_name().to_string()).collect();
            known.retain(|k| !k.starts_with("google.protobuf."));
            known.truncate(8);
            bail!(
                "--message {name}: no such message in the descriptors given (they define {})",
                known.join(", ")
            );
        };
        Ok(Some(Message {
            desc,
            pool,
            tensor_values: false,
        }))
    }

    /// Appends a payload in `form` (the text format's lines end with a
    /// newline; a JSON value has none). An error is damage of the record.
    pub fn render(
        &self,
        payload: &[u8],
        form: Form,
        out: &mut Vec<u8>,
    ) -> std::result::Result<(), crate::example::DecodeError> {
        use crate::example::error::{DecodeError, DecodeErrorKind};
        let msg = Msg::decode(&self.desc, payload)?;
        let start = out.len();
        match form {
            Form::Text => {
                let p = text::Print {
                    pool: &self.pool,
                    tensors: self.tensor_values,
                };
                text::message(&msg, p, 0, out)
            }
            Form::Json => json::message(&msg, &self.pool, out).map_err(|reason| {
                // Nothing of the record is left written.
                out.truncate(start);
                DecodeError::new(DecodeErrorKind::Unprintable { reason }, 0)
            })?,
        }
        Ok(())
    }
}

/// Compiles .proto files into `pool`, each found in the include paths or
/// in its own directory; an error names the file, line and column.
fn compile(protos: &[PathBuf], includes: &[PathBuf], pool: &mut DescriptorPool) -> Result<()> {
    let mut dirs: Vec<PathBuf> = includes.to_vec();
    for p in protos {
        match std::fs::metadata(p) {
            Err(e) => bail!("{}: {e}", crate::io::input::show_path(p)),
            Ok(m) if !m.is_file() => bail!("{}: not a .proto file", crate::io::input::show_path(p)),
            Ok(_) => {}
        }
        let dir = p.parent().map(PathBuf::from).filter(|d| !d.as_os_str().is_empty());
        let dir = dir.unwrap_or_else(|| PathBuf::from("."));
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    let mut compiler = protox::Compiler::new(&dirs).map_err(|e| crate::Error::msg(format!("--proto-path: {e}")))?;
    compiler.include_imports(true);
    for p in protos {
        compiler.open_file(p).map_err(|e| {
            // The file as the command line named it, not as found.
            let line = proto_error(&e);
            let shown = crate::io::input::show_path(p);
            let named = p.file_name().map(|n| n.to_string_lossy().into_owned());
            match named.and_then(|n| line.strip_prefix(&format!("{n}:")).map(str::to_string)) {
                Some(rest) => crate::Error::msg(format!("{shown}:{rest}")),
                None => crate::Error::msg(line),
            }
        })?;
    }
    pool.add_file_descriptor_set(compiler.file_descriptor_set())
        .map_err(|e| crate::Error::msg(format!("--proto: {e}")))?;
    Ok(())
}

/// The name of the first file of a descriptor set whose syntax is
/// `editions` (FileDescriptorSet.file = 1; FileDescriptorProto.name = 1,
/// .syntax = 12), if any.
fn editions_file(set: &[u8]) -> Option<String> {
    use crate::example::wire::{Reader, Value};
    let mut r = Reader::new(set);
    while let Ok(Some(f)) = r.field() {
        let (1, Value::Len(file)) = (f.number, f.value) else {
            continue;
        };
        let (mut name, mut editions) = (String::new(), false);
        let mut inner = Reader::new(file.bytes());
        while let Ok(Some(g)) = inner.field() {
            match (g.number, g.value) {
                (1, Value::Len(n)) => name = String::from_utf8_lossy(n.bytes()).into_owned(),
                (12, Value::Len(s)) => editions = s.bytes() == b"editions",
                _ => {}
            }
        }
        if editions {
            return Some(name);
        }
    }
    None
}

/// A compile error as one line: `FILE:LINE:COLUMN: what`.
fn proto_error(e: &protox::Error) -> String {
    let debug = format!("{e:?}");
    let mut line = debug.lines().next().unwrap_or_default().to_string();
    if line.ends_with("but found 'edition'") {
        line.push_str(" (protobuf editions: tfr reads proto2 and proto3 files, not editions yet)");
    }
    match e.file() {
        Some(f) if !line.starts_with(f) => format!("{f}: {line}"),
        _ => line,
    }
}

/// TensorFlow's protos of tf.Event, vendored (proto/tensorflow/README.md
/// names their origin), by their import paths.
const EVENT_PROTOS: &[(&str, &str)] = &[
    (
        "tensorflow/core/util/event.proto",
        include_str!("../../../../proto/tensorflow/tensorflow/core/util/event.proto"),
    ),
    (
        "tensorflow/core/framework/summary.proto",
        include_str!("../../../../proto/tensorflow/tensorflow/core/framework/summary.proto"),
    ),
    (
        "tensorflow/core/framework/tensor.proto",
        include_str!("../../../../proto/tensorflow/tensorflow/core/framework/tensor.proto"),
    ),
    (
        "tensorflow/core/framework/tensor_shape.proto",
        include_str!("../../../../proto/tensorflow/tensorflow/core/framework/tensor_shape.proto"),
    ),
    (
        "tensorflow/core/framework/types.proto",
        include_str!("../../../../proto/tensorflow/tensorflow/core/framework/types.proto"),
    ),
    (
        "tensorflow/core/framework/resource_handle.proto",
        include_str!("../../../../proto/tensorflow/tensorflow/core/framework/resource_handle.proto"),
    ),
    (
        "xla/tsl/protobuf/histogram.proto",
        include_str!("../../../../proto/tensorflow/xla/tsl/protobuf/histogram.proto"),
    ),
];

/// The vendored protos as files protox opens by name.
struct Embedded;

impl protox::file::FileResolver for Embedded {
    fn open_file(&self, name: &str) -> std::result::Result<protox::file::File, protox::Error> {
        match EVENT_PROTOS.iter().find(|(n, _)| *n == name) {
            Some((n, source)) => protox::file::File::from_source(n, source),
            None => Err(protox::Error::file_not_found(name)),
        }
    }
}

impl Message {
    /// TensorBoard's `tensorflow.Event`, compiled once from the vendored
    /// protos.
    pub fn event() -> Result<Message> {
        static EVENT: std::sync::OnceLock<std::result::Result<Message, String>> = std::sync::OnceLock::new();
        let made = EVENT.get_or_init(|| {
            let mut compiler = protox::Compiler::with_file_resolver(Embedded);
            compiler.include_imports(true);
            compiler
                .open_file("tensorflow/core/util/event.proto")
                .map_err(|e| proto_error(&e))?;
            let pool = compiler.descriptor_pool();
            let desc = pool
                .get_message_by_name("tensorflow.Event")
                .ok_or("tensorflow.Event is not in event.proto")?;
            Ok(Message {
                desc,
                pool,
                tensor_values: true,
            })
        });
        made.clone().map_err(crate::Error::msg)
    }
}

/// Whether `name` (a path or URL) names a TensorBoard event file: its last
/// part starts `events.out.tfevents.`.
pub fn is_event_file(name: &str) -> bool {
    let last = name.rsplit(['/', '\\']).next().unwrap_or(name);
    last.starts_with("events.out.tfevents.")
}
