//! `-t/--type`: the payload types a command line names ([`PayloadType`]),
//! its flag groups and its parsers for commands that read fewer types.

use crate::example::MessageType;
use clap::Args;

/// `--type`: what the payloads are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum PayloadType {
    /// The first record (from-jsonl: the first line) of each input decides:
    /// a SequenceExample when it has feature_lists, else an Example; an
    /// ExampleListWithContext when that reading has names made of nested
    /// protobuf and the ELWC reading does not (from-jsonl: when the line's
    /// keys are "examples" and "context").
    #[default]
    Auto,
    /// tf.train.Example.
    Example,
    /// tf.train.SequenceExample.
    Sequence,
    /// tensorflow.serving.ExampleListWithContext (TF-Ranking's ELWC): a
    /// context Example and a list of Examples.
    Elwc,
    /// Any bytes, printed escaped (JSON: a string, or {"base64": ...}).
    Raw,
    /// TensorBoard's tf.Event (event files; the default for files named
    /// events.out.tfevents.*): printed as protobuf's text format or JSON
    /// mapping.
    Event,
}

/// A `--type` parser taking only `kinds`, each with its own help (a
/// command that reads fewer payload types than [`PayloadType`] names).
pub(crate) fn payload_types(
    kinds: &[(PayloadType, &'static str)],
) -> impl clap::builder::TypedValueParser<Value = PayloadType> {
    use clap::builder::TypedValueParser;
    use clap::ValueEnum;
    let values: Vec<clap::builder::PossibleValue> = kinds
        .iter()
        .filter_map(|(k, help)| Some(k.to_possible_value()?.help(*help)))
        .collect();
    let kinds: Vec<PayloadType> = kinds.iter().map(|(k, _)| *k).collect();
    clap::builder::PossibleValuesParser::new(values).map(move |name: String| {
        *kinds
            .iter()
            .find(|k| k.to_possible_value().is_some_and(|v| v.matches(&name, false)))
            .unwrap_or(&PayloadType::Auto)
    })
}

/// A `--type` parser taking every payload type but `event` (commands that
/// convert Examples, or write them), each with its own help.
pub(crate) fn record_types() -> impl clap::builder::TypedValueParser<Value = PayloadType> {
    use clap::builder::TypedValueParser;
    use clap::ValueEnum;
    let kinds: Vec<PayloadType> = PayloadType::value_variants()
        .iter()
        .copied()
        .filter(|k| *k != PayloadType::Event)
        .collect();
    let values: Vec<clap::builder::PossibleValue> = kinds.iter().filter_map(|k| k.to_possible_value()).collect();
    clap::builder::PossibleValuesParser::new(values).map(move |name: String| {
        *kinds
            .iter()
            .find(|k| k.to_possible_value().is_some_and(|v| v.matches(&name, false)))
            .unwrap_or(&PayloadType::Auto)
    })
}

impl std::fmt::Display for PayloadType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use clap::ValueEnum;
        match self.to_possible_value() {
            Some(v) => f.write_str(v.get_name()),
            None => Ok(()),
        }
    }
}

/// `-t/--type` of a command that reads each input as it comes.
#[derive(Args, Debug, Clone, Copy)]
pub(crate) struct TypeArg {
    /// Payload type.
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,
}

/// `-t/--type` of a command whose inputs are one dataset.
#[derive(Args, Debug, Clone, Copy)]
pub(crate) struct DatasetTypeArg {
    /// Payload type (all inputs are one dataset: its first record decides).
    #[arg(long = "type", short = 't', value_parser = record_types(), default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,
}

impl TypeArg {
    /// [`PayloadType::fixed`].
    pub(crate) fn fixed(self) -> Option<MessageType> {
        self.payload.fixed()
    }
}

impl DatasetTypeArg {
    /// [`PayloadType::fixed`].
    pub(crate) fn fixed(self) -> Option<MessageType> {
        self.payload.fixed()
    }
}

impl PayloadType {
    /// The fixed message type, or `None` for auto.
    pub(crate) fn fixed(self) -> Option<MessageType> {
        match self {
            PayloadType::Auto => None,
            PayloadType::Example => Some(MessageType::Example),
            PayloadType::Sequence => Some(MessageType::SequenceExample),
            PayloadType::Elwc => Some(MessageType::Elwc),
            PayloadType::Raw | PayloadType::Event => Some(MessageType::Raw),
        }
    }
}

/// `--type` of `tfr schema` (and stats, report): four of
/// [`PayloadType`]'s values, each with its help here.
pub(crate) fn schema_types() -> impl clap::builder::TypedValueParser<Value = PayloadType> {
    payload_types(&[
        (
            PayloadType::Auto,
            "The first record decides: a SequenceExample when it has feature_lists, else an Example (an \
             ExampleListWithContext when its names read as nested protobuf otherwise); every other record \
             must match",
        ),
        (PayloadType::Example, "tf.train.Example"),
        (PayloadType::Sequence, "tf.train.SequenceExample"),
        (
            PayloadType::Elwc,
            "tensorflow.serving.ExampleListWithContext: context features per record, example features per \
             example",
        ),
    ])
}

/// `--proto`, `-I/--proto-path`, `--descriptor-set`, `--message`: payloads
/// of any protobuf message (cat, head, to-jsonl, count, to-parquet, to-arrow,
/// from-jsonl).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct ProtoArgs {
    /// Payloads are messages defined in this .proto file (repeatable),
    /// compiled by tfr itself (no protoc needed); name the message with
    /// --message.
    #[arg(long, value_name = "FILE.proto")]
    pub(crate) proto: Vec<std::path::PathBuf>,

    /// A directory where the imports of --proto files are found
    /// (repeatable; each file's own directory is searched too, and
    /// google/protobuf/*.proto are built in).
    #[arg(short = 'I', long = "proto-path", value_name = "DIR")]
    pub(crate) proto_path: Vec<std::path::PathBuf>,

    /// Payloads are messages described in this descriptor set (from
    /// `protoc --descriptor_set_out=FILE.pb --include_imports`;
    /// repeatable); name the message with --message.
    #[arg(long, value_name = "FILE.pb")]
    pub(crate) descriptor_set: Vec<std::path::PathBuf>,

    /// The payloads' message, by its full name (`waymo.open_dataset.Frame`):
    /// cat and head print it as Python's text_format.MessageToString does,
    /// JSON as json_format.MessageToJson(preserving_proto_field_name=True)
    /// on one line; to-parquet and to-arrow write a column per field.
    #[arg(long, value_name = "NAME")]
    pub(crate) message: Option<String>,
}

impl ProtoArgs {
    /// Whether the payloads are a message tfr does not know natively:
    /// these flags name one, `--type event` says tf.Event, or an input
    /// argument names an event file (`events.out.tfevents.*`).
    #[cfg(feature = "parquet")]
    pub(crate) fn wanted(&self, payload: PayloadType, files: &[std::ffi::OsString]) -> bool {
        !self.proto.is_empty()
            || !self.descriptor_set.is_empty()
            || self.message.is_some()
            || payload == PayloadType::Event
            || files
                .iter()
                .any(|f| crate::proto::is_event_file(&f.to_string_lossy()) || holds_events(f))
    }

    /// The message the payloads of `inputs` are printed as: the one named
    /// by these flags, else tf.Event with `--type event` or when every
    /// input is an event file (`events.out.tfevents.*`); `None` for the
    /// payload types tfr knows.
    pub(crate) fn message(
        &self,
        payload: PayloadType,
        inputs: &[crate::io::Input],
    ) -> anyhow::Result<Option<crate::proto::Message>> {
        if let Some(m) = self.load()? {
            if !matches!(payload, PayloadType::Auto | PayloadType::Raw) {
                anyhow::bail!("--message {}: not with --type {payload}", m.desc.full_name());
            }
            return Ok(Some(m));
        }
        let events = inputs
            .iter()
            .filter(|i| crate::proto::is_event_file(&i.display()))
            .count();
        match payload {
            PayloadType::Event => Ok(Some(crate::proto::Message::event()?)),
            PayloadType::Auto if events > 0 && events == inputs.len() => Ok(Some(crate::proto::Message::event()?)),
            PayloadType::Auto if events > 0 => anyhow::bail!(
                "event files (events.out.tfevents.*) and other files in one run: give --type event, or read them apart"
            ),
            _ => Ok(None),
        }
    }

    /// The message these flags name, if any (no event-file detection:
    /// from-jsonl, whose inputs are JSON lines).
    pub(crate) fn load(&self) -> anyhow::Result<Option<crate::proto::Message>> {
        let sources = crate::proto::Sources {
            protos: self.proto.clone(),
            includes: self.proto_path.clone(),
            descriptor_sets: self.descriptor_set.clone(),
            message: self.message.clone(),
        };
        Ok(crate::proto::Message::load(&sources)?)
    }
}

/// Whether `path` is a local directory holding an event file directly in
/// it (a directory input is read as its files: they decide).
fn holds_events(path: &std::ffi::OsStr) -> bool {
    std::fs::read_dir(path).is_ok_and(|entries| {
        entries
            .filter_map(|e| e.ok())
            .any(|e| crate::proto::is_event_file(&e.file_name().to_string_lossy()))
    })
}
