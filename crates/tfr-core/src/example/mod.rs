//! tf.train.Example / SequenceExample: decoding, type resolution and the
//! text format.
//!
//! - [`proto`]: owned prost message types, for encoding (and tests).
//! - [`Decoder`]: validates a payload and returns [`ExampleView`] /
//!   [`SequenceExampleView`], zero-copy views walking features in wire
//!   order without allocating (see [`view`] for the exact protobuf parse
//!   semantics they follow). Keep one decoder per thread and reuse it.
//! - [`render_text`]: a record as Python's `text_format.MessageToString`.
//! - [`json`]: a record as a JSON line (the JSONL mapping, or protojson),
//!   and JSON lines back to payloads.
//!
//! # `--type auto`
//!
//! The first record of each input decides its type, with [`resolve_auto`]:
//! 1. a **SequenceExample** file if the record has a `feature_lists` field
//!    (field 2, length-delimited) and parses as a SequenceExample;
//! 2. else an **Example** file if it parses as an Example and has a
//!    `features` field (field 1) or no field at all (an empty record is an
//!    empty Example: that is how TensorFlow writes one); a field 2 that
//!    does not read as a FeatureLists (nor as an ELWC's context: empty, or
//!    an Example holding features) is then an unknown field, skipped as
//!    protobuf and TensorFlow's parsers (and TFDV) skip it;
//!
//! In either case, when the reading has a feature name that is not a name
//! (control characters: nested protobuf) and the record reads cleanly as
//! an ExampleListWithContext ([`elwc`]), it is an **ELWC** file;
//! 3. else an error that suggests `--type raw`: a payload whose top-level
//!    fields are all unknown (text, random bytes that happen to parse) is
//!    not taken for an empty Example.
//!
//! The later records are then decoded *strictly* (`strict = true`) by the
//! same rule: in an Example file, a record whose field 2 reads as a
//! FeatureLists holding a list (or as an ELWC's context) is an error that
//! suggests `--type sequence`; in either file, a record whose top-level
//! fields are all unknown is an error that suggests `--type raw`, rather
//! than an empty message printed for a payload that only happened to parse.
//! Unknown fields next to known ones are skipped, as protobuf does. (A
//! SequenceExample with only `context` looks like an Example; a file whose
//! first record is one is read as Examples until a record with
//! `feature_lists` stops it with that hint.) With an explicit
//! `--type example|sequence`, nothing is strict: unknown fields are always
//! skipped, as protobuf does, and a non-empty payload of unknown fields
//! prints as an empty message.

pub mod elwc;
pub mod error;
pub mod filter;
pub mod json;
pub mod media;
pub mod out;
#[cfg(any(test, feature = "fuzzing"))]
pub mod proto;
pub mod short;
pub mod sought;
pub mod text;
pub mod tf_parser;
pub mod view;
pub mod wire;

#[cfg(test)]
mod tests;

pub use error::{DecodeError, DecodeErrorKind};
pub use filter::Where;
pub use out::{BytesHook, ClassNames, Keep, Look, Out, Scalars};
pub use short::Shorten;
pub use view::{
    BytesValues, Decoder, EntryRec, ExampleView, FeatureEntries, FeatureListEntries, FeatureListIter, FeatureListView,
    FeatureListsView, FeatureView, FeaturesView, FloatValues, Int64Values, Kind, ListEntryRec, MapEntries, MapEntry,
    MapView, SequenceExampleView,
};

/// What a record's payload is decoded as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageType {
    /// `tf.train.Example`.
    Example,
    /// `tf.train.SequenceExample`.
    SequenceExample,
    /// `tensorflow.serving.ExampleListWithContext` (TF-Ranking's ELWC).
    Elwc,
    /// Plain bytes, not decoded (`--type raw`).
    Raw,
}

impl MessageType {
    /// The name `--type` gives it: example, sequence, raw.
    pub fn name(self) -> &'static str {
        match self {
            MessageType::Example => "example",
            MessageType::SequenceExample => "sequence",
            MessageType::Elwc => "elwc",
            MessageType::Raw => "raw",
        }
    }
}

/// Decides the type of an input from its first record (see the module doc).
pub fn resolve_auto(first_payload: &[u8]) -> Result<MessageType, DecodeError> {
    let mut has_feature_lists = false;
    let mut reader = wire::Reader::new(first_payload);
    loop {
        match reader.field() {
            Ok(Some(f)) => has_feature_lists |= f.len_of(2).is_some(),
            Ok(None) => break,
            Err(e) => return Err(not_an_example(e)),
        }
    }
    let mut decoder = Decoder::new();
    let (read, clean) = if has_feature_lists {
        // (a field 2 that is no FeatureLists is skipped there: no lists)
        let seq = decoder.sequence_example(first_payload, true).map(|view| {
            view.feature_lists().map(|l| {
                view.context().is_none_or(|c| names_are_clean(&c)) && l.entries().all(|(k, _)| elwc::is_name(k))
            })
        });
        match seq {
            Ok(Some(clean)) => (Ok(MessageType::SequenceExample), clean),
            // A field 2 that is no FeatureLists: an unknown field of an
            // Example (protobuf and TensorFlow's parsers skip it).
            seq => match decoder.example(first_payload, true) {
                Ok(view) if view.features().is_some() => {
                    let clean = view.features().is_none_or(|f| names_are_clean(&f));
                    (Ok(MessageType::Example), clean)
                }
                read => {
                    let why = DecodeError::new(
                        DecodeErrorKind::NotAnExample {
                            reason: "no features and no feature lists".into(),
                        },
                        0,
                    );
                    (Err(not_an_example(seq.err().or(read.err()).unwrap_or(why))), false)
                }
            },
        }
    } else {
        match decoder.example(first_payload, true) {
            Ok(view) => (
                Ok(MessageType::Example),
                view.features().is_none_or(|f| names_are_clean(&f)),
            ),
            Err(e) => (Err(not_an_example(e)), false),
        }
    };
    if elwc::looks_like(&mut decoder, first_payload, clean) {
        return Ok(MessageType::Elwc);
    }
    read
}

fn names_are_clean(features: &FeaturesView<'_>) -> bool {
    features.entries().all(|(k, _)| elwc::is_name(k))
}

/// Wraps why the first record failed to parse into the auto-mode error.
fn not_an_example(e: DecodeError) -> DecodeError {
    let reason = match e.kind() {
        DecodeErrorKind::UnexpectedField { field, .. } => {
            format!(
                "only unknown top-level fields, the first is field {field} at byte {}",
                e.offset()
            )
        }
        _ => e.to_string(),
    };
    DecodeError::new(DecodeErrorKind::NotAnExample { reason }, e.offset())
}

/// How a record is written: text format, or one of the two JSON mappings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// protobuf text format, as Python's text_format.MessageToString prints it.
    #[default]
    Text,
    /// The JSONL mapping (as to-jsonl), one line per record, no comment lines.
    Json,
    /// Protobuf's JSON mapping (json_format.MessageToJson), one line per record.
    Protojson,
}

impl From<json::JsonFormat> for Format {
    fn from(f: json::JsonFormat) -> Format {
        match f {
            json::JsonFormat::Natural => Format::Json,
            json::JsonFormat::Protojson => Format::Protojson,
        }
    }
}

/// Appends `payload`, decoded as `ty`, in `format` to `out`.
///
/// Text: exactly what Python's `google.protobuf.text_format.MessageToString(msg)`
/// prints for Example and SequenceExample (nothing for an empty message);
/// `Raw` prints the payload as one double-quoted line: printable UTF-8 kept
/// as is, other bytes as octal escapes, C escapes for quotes, backslashes
/// and control characters, then a newline. JSON: one line and a newline
/// ([`json::render`] documents both mappings).
///
/// `strict` rejects unknown top-level fields (auto mode, see the module
/// doc). On error, `out` is left as it was. Decodes with this thread's
/// [`Decoder`] ([`with_decoder`]).
pub fn render(format: Format, ty: MessageType, strict: bool, payload: &[u8], out: &mut Vec<u8>) -> Rendered {
    with_decoder(|decoder| render_with(decoder, format, ty, strict, payload, out))
}

/// What rendering a payload gives: nothing, or why it is not the message.
type Rendered = Result<(), DecodeError>;

/// [`render`] with a caller-owned [`Decoder`].
pub fn render_with(
    decoder: &mut Decoder,
    format: Format,
    ty: MessageType,
    strict: bool,
    payload: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), DecodeError> {
    render_out(
        decoder,
        format,
        &Look::default(),
        ty,
        strict,
        payload,
        &mut Out::new(out),
    )
}

/// [`render_with`] into an [`Out`], which may hand a long rendering to its
/// sink as it goes. A payload is validated before anything is written, so
/// on a decode error nothing has reached the sink (and the buffer is as it
/// was).
pub fn render_out(
    decoder: &mut Decoder,
    format: Format,
    look: &Look<'_>,
    ty: MessageType,
    strict: bool,
    payload: &[u8],
    out: &mut Out<'_>,
) -> Result<(), DecodeError> {
    out.with_look(look, |out| render_looking(decoder, format, ty, strict, payload, out))
}

fn render_looking(
    decoder: &mut Decoder,
    format: Format,
    ty: MessageType,
    strict: bool,
    payload: &[u8],
    out: &mut Out<'_>,
) -> Result<(), DecodeError> {
    match format {
        Format::Text => {
            match ty {
                MessageType::Example => text::example(&decoder.example(payload, strict)?, out),
                MessageType::SequenceExample => {
                    text::sequence_example(&decoder.sequence_example(payload, strict)?, out)
                }
                MessageType::Elwc => {
                    let parts = elwc::checked(decoder, payload, strict)?;
                    elwc::text(decoder, payload, &parts, out)
                }
                MessageType::Raw => text::raw(payload, out),
            }
            Ok(())
        }
        Format::Json => json::render::NATURAL.line(decoder, ty, strict, payload, out),
        Format::Protojson => json::render::PROTOJSON.line(decoder, ty, strict, payload, out),
    }
}

/// [`render`] in text format.
pub fn render_text(ty: MessageType, strict: bool, payload: &[u8], out: &mut Vec<u8>) -> Result<(), DecodeError> {
    render(Format::Text, ty, strict, payload, out)
}

/// Runs `f` with this thread's [`Decoder`] (one per thread, reused, so
/// decoding allocates nothing once its buffers have grown).
pub fn with_decoder<T>(f: impl FnOnce(&mut Decoder) -> T) -> T {
    thread_local! {
        static DECODER: std::cell::RefCell<Decoder> = std::cell::RefCell::default();
    }
    DECODER.with_borrow_mut(f)
}
