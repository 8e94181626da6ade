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
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
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
            PayloadType::Raw => Some(MessageType::Raw),
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
