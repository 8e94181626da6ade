//! `DecodeError`: why a payload is not the expected protobuf message, and where.

use std::fmt;

/// What went wrong while decoding a payload.
///
/// Offsets count bytes from the start of the record's payload.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// A varint runs past the end of its enclosing message.
    TruncatedVarint,
    /// A varint is longer than its maximum size (10 bytes for values, 5 for
    /// tags and lengths) or a tag does not fit 32 bits.
    VarintTooLong,
    /// A fixed-size or length-delimited value runs past the end of its
    /// enclosing message.
    TruncatedValue,
    /// A tag with field number 0.
    FieldNumberZero,
    /// A tag with wire type 6 or 7.
    InvalidWireType(u8),
    /// An end-group tag with no matching start-group tag.
    UnexpectedEndGroup,
    /// A group whose end-group tag is missing or has another field number.
    UnterminatedGroup,
    /// Messages and groups nested deeper than protobuf's limit of 100.
    TooDeep,
    /// A packed float list whose length is not a multiple of 4.
    BadPackedLength,
    /// A map key (a proto3 `string`) that is not valid UTF-8.
    InvalidUtf8Key,
    /// A value the message's descriptor does not allow (`--proto`): a
    /// proto3 string that is not UTF-8, a value of the wrong wire type.
    BadValue {
        /// What, naming the field.
        reason: String,
    },
    /// A message that decodes but cannot be written in the form asked for
    /// (`--message`: an Any of a type not among the descriptors, in JSON);
    /// its reason says where.
    Unprintable {
        /// Why.
        reason: String,
    },
    /// Auto mode: the first record is neither an Example nor a SequenceExample.
    NotAnExample {
        /// Why, e.g. "unexpected top-level field 13 at byte 0".
        reason: String,
    },
    /// Auto mode: a record has `feature_lists` in an Example file, or only
    /// unknown top-level fields.
    UnexpectedField {
        /// The field number found.
        field: u32,
        /// The file's type as decided by its first record.
        file_type: &'static str,
    },
}

/// A payload that does not decode as the requested message type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Boxed so that `Result<u64, DecodeError>` stays two registers wide on
    /// the hot path; errors are rare.
    inner: Box<(DecodeErrorKind, usize)>,
}

impl DecodeError {
    /// An error of `kind` found at byte `offset` of the payload.
    #[cold]
    #[inline(never)]
    pub fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        DecodeError {
            inner: Box::new((kind, offset)),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.inner.0
    }

    /// The byte offset in the payload where the problem was found.
    pub fn offset(&self) -> usize {
        self.inner.1
    }
}

const RAW_HINT: &str = "use --type raw to print payloads as bytes";

impl DecodeError {
    /// The message without the advice to use `--type raw`, for commands
    /// that have no such option (schema).
    pub fn without_raw_hint(&self) -> impl fmt::Display + '_ {
        struct NoRaw<'a>(&'a DecodeError);
        impl fmt::Display for NoRaw<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write(f, false)
            }
        }
        NoRaw(self)
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, raw_hint: bool) -> fmt::Result {
        use DecodeErrorKind as K;
        let at = self.offset();
        match self.kind() {
            K::TruncatedVarint => write!(f, "truncated varint at byte {at}"),
            K::VarintTooLong => write!(f, "varint too long at byte {at}"),
            K::TruncatedValue => write!(f, "field value runs past the end of its message at byte {at}"),
            K::FieldNumberZero => write!(f, "field number 0 at byte {at}"),
            K::InvalidWireType(w) => write!(f, "invalid wire type {w} at byte {at}"),
            K::UnexpectedEndGroup => write!(f, "unexpected end-group tag at byte {at}"),
            K::UnterminatedGroup => write!(f, "unterminated group at byte {at}"),
            K::TooDeep => write!(f, "messages nested more than 100 deep at byte {at}"),
            K::BadPackedLength => {
                write!(f, "packed float list length is not a multiple of 4 at byte {at}")
            }
            K::InvalidUtf8Key => write!(f, "invalid UTF-8 in feature key at byte {at}"),
            K::BadValue { reason } => write!(f, "{reason} at byte {at}"),
            K::Unprintable { reason } => f.write_str(reason),
            K::NotAnExample { reason } => {
                write!(
                    f,
                    "first record is not a tf.train.Example or SequenceExample ({reason})"
                )?;
                match raw_hint {
                    true => write!(f, "; {RAW_HINT}"),
                    false => Ok(()),
                }
            }
            K::UnexpectedField { field, file_type } => {
                let (what, hint) = if *field == 2 && *file_type == "Example" {
                    (
                        format!("a SequenceExample's feature_lists or an ExampleListWithContext's context (field 2) at byte {at}"),
                        match raw_hint {
                            true => "; use --type sequence if the file holds SequenceExamples, --type elwc if it holds \
                                     ExampleListWithContext, or --type raw",
                            false => "; use --type sequence if the file holds SequenceExamples, --type elwc if it holds \
                                      ExampleListWithContext",
                        },
                    )
                } else {
                    (
                        format!("only unknown top-level fields (the first, field {field}, at byte {at})"),
                        match raw_hint {
                            true => "; use --type raw to print payloads as bytes",
                            false => "",
                        },
                    )
                };
                write!(
                    f,
                    "record has {what} in a file of {file_type}s (decided by its first record){hint}"
                )
            }
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, true)
    }
}

impl std::error::Error for DecodeError {}
