//! The features `--where` and `count --by` read in Examples,
//! SequenceExamples and ExampleListWithContext.

use super::super::view::{Decoder, FeatureView, FeaturesView};
use super::super::{DecodeError, MessageType};

/// Decodes `payload` as `ty` and calls `f` with the features `--where`
/// and `count --by` read: an Example's, the context of a SequenceExample or
/// an ExampleListWithContext (`None` for a raw payload or when absent).
pub fn with_features<T>(
    decoder: &mut Decoder,
    ty: MessageType,
    strict: bool,
    payload: &[u8],
    f: impl FnOnce(Option<FeaturesView<'_>>) -> T,
) -> Result<T, DecodeError> {
    Ok(match ty {
        MessageType::Example => f(decoder.example(payload, strict)?.features()),
        MessageType::SequenceExample => f(decoder.sequence_example(payload, strict)?.context()),
        MessageType::Elwc => {
            let parts = Decoder::elwc_parts(payload, strict)?;
            f(decoder.nested_example(payload, &parts.context)?.features())
        }
        MessageType::Raw => f(None),
    })
}

/// The features of an Example or the context of a SequenceExample (what
/// to-wds, to-csv, extract and split's `--by` read), decoded; `None` for
/// another payload type, which the caller names in its own error.
pub fn features_or_context<'a>(
    decoder: &'a mut Decoder,
    ty: MessageType,
    strict: bool,
    payload: &'a [u8],
) -> Option<Result<Option<FeaturesView<'a>>, DecodeError>> {
    match ty {
        MessageType::Example => Some(decoder.example(payload, strict).map(|e| e.features())),
        MessageType::SequenceExample => Some(decoder.sequence_example(payload, strict).map(|s| s.context())),
        _ => None,
    }
}

/// The feature called `name` (protobuf's map: the last entry wins).
pub fn lookup<'a>(features: Option<FeaturesView<'a>>, name: &str) -> Option<FeatureView<'a>> {
    let name = name.as_bytes();
    features?
        .raw_entries()
        .filter(|(k, _)| *k == name)
        .last()
        .map(|(_, v)| v)
}
