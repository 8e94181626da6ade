//! `tensorflow.serving.ExampleListWithContext` (ELWC, `--type elwc`): a
//! context Example and a list of Examples, the ranking payload of
//! TF-Ranking (proto/input.proto, vendored from tensorflow/serving).
//!
//! The wire format is `repeated Example examples = 1; Example context = 2`.
//! Read as a SequenceExample (`context = 1; feature_lists = 2`) an ELWC
//! still parses, with nested protobuf for feature names: [`looks_like`]
//! tells them apart for `--type auto`.

use super::out::Out;
use super::view::{Decoder, ElwcParts, ExampleView};
use super::wire::{Reader, Value};
use super::DecodeError;

/// Splits `payload` and decodes each example and the context once, so
/// that the whole payload is valid before anything is written.
pub fn checked<'a>(decoder: &mut Decoder, payload: &'a [u8], strict: bool) -> Result<ElwcParts<'a>, DecodeError> {
    let parts = Decoder::elwc_parts(payload, strict)?;
    for example in &parts.examples {
        decoder.nested_example(payload, std::slice::from_ref(example))?;
    }
    if !parts.context.is_empty() {
        decoder.nested_example(payload, &parts.context)?;
    }
    Ok(parts)
}

/// Calls `f` with each example of checked `parts`, in order.
pub fn each_example(decoder: &mut Decoder, payload: &[u8], parts: &ElwcParts<'_>, mut f: impl FnMut(&ExampleView<'_>)) {
    for example in &parts.examples {
        let view = decoder
            .nested_example(payload, std::slice::from_ref(example))
            .expect("checked before");
        f(&view);
    }
}

/// Calls `f` with the context of checked `parts`, if it has one.
pub fn with_context(decoder: &mut Decoder, payload: &[u8], parts: &ElwcParts<'_>, f: impl FnOnce(&ExampleView<'_>)) {
    if !parts.context.is_empty() {
        f(&decoder.nested_example(payload, &parts.context).expect("checked before"));
    }
}

/// The text format of checked `parts`: `examples { ... }` for each example,
/// then `context { ... }` (field-number order, as text_format prints).
pub fn text(decoder: &mut Decoder, payload: &[u8], parts: &ElwcParts<'_>, out: &mut Out<'_>) {
    each_example(decoder, payload, parts, |view| {
        super::text::example_field("examples", view, out)
    });
    with_context(decoder, payload, parts, |view| {
        super::text::example_field("context", view, out)
    });
}

/// Whether `payload`, which parses both ways, is better read as an ELWC
/// than as `other` (what `--type auto` would otherwise pick): at least one
/// name of the other reading is not a name (control characters: an ELWC
/// read as a SequenceExample or an Example has nested protobuf for names),
/// while the ELWC reading accounts for every byte as a field of its own
/// messages (no unknown field at any level) and every name in it looks
/// like one. A payload that is a clean Example or SequenceExample stays one.
pub fn looks_like(decoder: &mut Decoder, payload: &[u8], other_is_clean: bool) -> bool {
    if other_is_clean || !all_known(payload) {
        return false;
    }
    let Ok(parts) = checked(decoder, payload, true) else {
        return false;
    };
    let mut clean = true;
    let mut names = 0usize;
    let mut note = |view: &ExampleView<'_>| {
        if let Some(features) = view.features() {
            for (key, _) in features.entries() {
                names += 1;
                clean &= is_name(key);
            }
        }
    };
    each_example(decoder, payload, &parts, &mut note);
    with_context(decoder, payload, &parts, &mut note);
    clean && names > 0
}

/// Whether every field of `payload`, read as an ELWC, is a field of its
/// messages with its own wire type: examples and context (Example),
/// features (Features), map entries, key and value, one list per Feature,
/// the values of each list.
fn all_known(payload: &[u8]) -> bool {
    /// Every field of `r` is a length-delimited field numbered in `numbers`,
    /// each checked by `inner`.
    fn only(r: Reader<'_>, numbers: &[u32], inner: &mut dyn FnMut(u32, Reader<'_>) -> bool) -> bool {
        let mut r = r;
        while !r.is_empty() {
            match r.field() {
                Ok(Some(f)) => match f.value {
                    Value::Len(sub) if numbers.contains(&f.number) => {
                        if !inner(f.number, sub) {
                            return false;
                        }
                    }
                    _ => return false,
                },
                _ => return false,
            }
        }
        true
    }
    fn list(number: u32, r: Reader<'_>) -> bool {
        let mut r = r;
        while !r.is_empty() {
            match r.field() {
                Ok(Some(f)) if f.number == 1 => match (number, f.value) {
                    (1..=3, Value::Len(_)) | (2, Value::Fixed32(_)) | (3, Value::Varint(_)) => {}
                    _ => return false,
                },
                _ => return false,
            }
        }
        true
    }
    let feature = &mut |_: u32, f: Reader<'_>| only(f, &[1, 2, 3], &mut |n, l| list(n, l));
    let entry = &mut |_: u32, e: Reader<'_>| only(e, &[1, 2], &mut |n, v| n == 1 || feature(n, v));
    let features = &mut |_: u32, fs: Reader<'_>| only(fs, &[1], entry);
    let example = &mut |_: u32, ex: Reader<'_>| only(ex, &[1], features);
    only(Reader::new(payload), &[1, 2], example)
}

/// A feature name as people write them: no control characters.
pub fn is_name(key: &str) -> bool {
    !key.chars().any(|c| c.is_control())
}
