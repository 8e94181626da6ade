//! `--type auto` for JSON lines: the message type of a file from its first line.

use crate::example::json::lexer::Parser;
use crate::example::json::JsonFormat;
use crate::example::MessageType;

/// `--type auto`: the message type of a file from its first line.
///
/// Natural form: an ExampleListWithContext when the line is an object with
/// an `examples` key holding an array of Examples (objects of features or
/// `null`) and no key other than `context` and `examples`; a
/// SequenceExample when it has a `feature_lists` key or a `context` key
/// holding an object of features, and no key other than `context` and
/// `feature_lists`; else an Example. Protojson: an ExampleListWithContext
/// when the object has an `examples` key, or a `context` holding an
/// Example (`{"features": ...}`); a SequenceExample when it has a `context`
/// or `featureLists` (`feature_lists`) key; else an Example.
pub fn detect(format: JsonFormat, line: &[u8]) -> MessageType {
    let mut p = Parser { s: line, i: 0 };
    p.ws();
    if p.peek() != Some(b'{') {
        return MessageType::Example;
    }
    let (mut lists, mut context, mut other, mut examples) = (false, false, false, false);
    let mut null_context = false;
    let scanned = p.members(|p| {
        let s = p.string()?;
        let key = &p.s[s.span.0..s.span.1];
        match key {
            b"context" if format == JsonFormat::Natural => {
                p.colon()?;
                // A context is an object of features; a feature named
                // "context" can only be an object in the typed form. An
                // ELWC's present but empty context is null.
                p.ws();
                if p.peek() == Some(b'n') {
                    null_context = true;
                } else if context_like(p) {
                    context = true;
                } else {
                    other = true;
                }
                return p.skip_value(0);
            }
            b"context" => {
                p.colon()?;
                // An ELWC's context is an Example ({"features": ...}), a
                // SequenceExample's a Features ({"feature": ...}).
                if first_key_is(p, b"features") {
                    examples = true;
                } else {
                    context = true;
                }
                return p.skip_value(0);
            }
            b"examples" if format == JsonFormat::Natural => {
                p.colon()?;
                if examples_like(p) {
                    examples = true;
                } else {
                    other = true;
                }
                return p.skip_value(0);
            }
            b"examples" => examples = true,
            b"feature_lists" => lists = true,
            b"featureLists" if format == JsonFormat::Protojson => lists = true,
            _ => other = true,
        }
        p.colon()?;
        p.skip_value(0)
    });
    // A null context is an Example's feature named "context" unless the
    // line is an ELWC.
    other |= null_context && !examples;
    let (elwc, sequence) = match format {
        JsonFormat::Natural => (examples && !lists && !other, (lists || context) && !other && !examples),
        JsonFormat::Protojson => (examples, lists || context),
    };
    match scanned {
        Ok(()) if elwc => MessageType::Elwc,
        Ok(()) if sequence => MessageType::SequenceExample,
        _ => MessageType::Example,
    }
}

/// Whether the value at the parser's position is an object whose first key
/// is `key`. Leaves the position unchanged.
fn first_key_is(p: &mut Parser<'_>, key: &[u8]) -> bool {
    let start = p.i;
    p.ws();
    let mut result = false;
    if p.eat(b'{') {
        p.ws();
        if p.peek() == Some(b'"') {
            result = p.string().is_ok_and(|k| &p.s[k.span.0..k.span.1] == key);
        }
    }
    p.i = start;
    result
}

/// Whether the value at the parser's position is an array of Examples as
/// the natural form writes them: empty, or starting with `null` or an
/// object of features ([`context_like`]). Leaves the position unchanged.
fn examples_like(p: &mut Parser<'_>) -> bool {
    let start = p.i;
    p.ws();
    let mut result = false;
    if p.eat(b'[') {
        p.ws();
        result = match p.peek() {
            Some(b']') | Some(b'n') => true,
            Some(b'{') => context_like(p),
            _ => false,
        };
    }
    p.i = start;
    result
}

/// Whether the value at the parser's position is an object that is not a
/// typed-form feature (`{"int64_list": ...}` etc.) nor `{"base64": ...}`.
/// Leaves the position unchanged.
fn context_like(p: &mut Parser<'_>) -> bool {
    let start = p.i;
    p.ws();
    let mut result = false;
    if p.peek() == Some(b'{') {
        p.i += 1;
        p.ws();
        result = match p.peek() {
            Some(b'}') => true,
            Some(b'"') => match p.string() {
                Ok(k) => !matches!(
                    &p.s[k.span.0..k.span.1],
                    b"int64_list" | b"float_list" | b"bytes_list" | b"base64"
                ),
                Err(_) => false,
            },
            _ => false,
        };
    }
    p.i = start;
    result
}
