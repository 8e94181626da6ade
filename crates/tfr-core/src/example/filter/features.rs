//! The features `--where` and `count --by` read in Examples,
//! SequenceExamples and ExampleListWithContext.

use super::super::view::{Decoder, FeatureView, FeaturesView, Kind};
use super::super::{DecodeError, MessageType};
use super::fields::{cmp_int_float, cmp_uint_float};
use super::{Lit, Op};
use std::cmp::Ordering;

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

/// Whether any value of `f` stands in `op` to `lit`.
pub(super) fn any_value(f: &FeatureView<'_>, op: Op, lit: &Lit) -> bool {
    match (f.kind(), lit) {
        (Kind::Int64, Lit::Int(n)) => f.int64s().any(|v| op.holds(v.cmp(n))),
        (Kind::Int64, Lit::Float(x)) => f.int64s().any(|v| op.holds_partial(cmp_int_float(v, *x))),
        // Exactly (`16777217 as f32` would round to 16777216).
        (Kind::Float, Lit::Int(n)) => f
            .floats()
            .any(|v| op.holds_partial(cmp_int_float(*n, f64::from(v)).map(Ordering::reverse))),
        (Kind::Float, Lit::Float(x)) => {
            let x = *x as f32;
            f.floats().any(|v| op.holds_partial(v.partial_cmp(&x)))
        }
        (Kind::Bytes, Lit::Bytes(b)) => f.bytes().any(|v| op.holds(v.cmp(b.as_slice()))),
        (Kind::Int64, Lit::UInt(_)) => f.int64s().next().is_some() && op.holds(Ordering::Less),
        (Kind::Float, Lit::UInt(n)) => f
            .floats()
            .any(|v| op.holds_partial(cmp_uint_float(*n, f64::from(v)).map(Ordering::reverse))),
        _ => false,
    }
}

/// The number of values of `f`.
pub(super) fn count(f: &FeatureView<'_>) -> usize {
    match f.kind() {
        Kind::None => 0,
        Kind::Bytes => f.bytes().count(),
        Kind::Float => f.floats().count(),
        Kind::Int64 => f.int64s().count(),
    }
}
