//! ExampleListWithContext lines (`--type elwc`): `{"context": EXAMPLE,
//! "examples": [EXAMPLE, ...]}` in either mapping, each EXAMPLE as an
//! Example line of that mapping.

use super::{put_tag_len, show_key, Encoder, LineError, Section};
use crate::example::json::lexer::Parser;
use crate::example::json::JsonFormat;
use crate::example::view::Kind;

impl Encoder {
    /// Reads an ExampleListWithContext object and writes its payload: the
    /// examples, then the context (field-number order, as protobuf
    /// serializes it, so TF-written payloads round-trip byte for byte).
    pub(super) fn elwc(&mut self, p: &mut Parser<'_>, out: &mut Vec<u8>) -> Result<(), LineError> {
        let mut context: Option<Vec<u8>> = None;
        let mut examples_seen = false;
        let mut example = Vec::new();
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            if self.key_is(p, key, "context")? {
                if context.is_some() {
                    return Err(LineError::new(at, "repeated key"));
                }
                let mut buf = Vec::new();
                if self.one_example(p, Section::Context, &mut buf)? {
                    context = Some(buf);
                }
                Ok(())
            } else if self.key_is(p, key, "examples")? {
                if examples_seen {
                    return Err(LineError::new(at, "repeated key"));
                }
                examples_seen = true;
                if p.null()? {
                    return Ok(());
                }
                if p.peek() != Some(b'[') {
                    return Err(p.err("\"examples\" is an array of Examples"));
                }
                p.elements(|p| {
                    example.clear();
                    self.one_example(p, Section::Features, &mut example)?;
                    put_tag_len(out, 0x0a, example.len());
                    out.extend_from_slice(&example);
                    Ok(())
                })
            } else {
                let name = self.key_text(p, key)?;
                Err(LineError::new(
                    at,
                    format!(
                        "unknown key {}: an ExampleListWithContext has only \"context\" and \"examples\"",
                        show_key(name.as_bytes())
                    ),
                ))
            }
        })?;
        if let Some(context) = context {
            put_tag_len(out, 0x12, context.len());
            out.extend_from_slice(&context);
        }
        Ok(())
    }

    /// Reads one Example of an ELWC line into `buf`; its features' kinds
    /// are kept for [`Encoder::for_each_kind`]. False for a protojson
    /// `null` (the field is unset); a natural `null` is an Example without
    /// features, as an Example line's `null` is.
    fn one_example(&mut self, p: &mut Parser<'_>, section: Section, buf: &mut Vec<u8>) -> Result<bool, LineError> {
        let features = match self.format {
            JsonFormat::Natural => {
                if p.null()? {
                    false
                } else {
                    p.require_object("an Example")?;
                    self.natural_features(p, section)?;
                    true
                }
            }
            JsonFormat::Protojson => {
                if p.null()? {
                    return Ok(false);
                }
                p.require_object("an Example")?;
                self.proto_example(p, section)?
            }
        };
        if features {
            self.write_example(buf);
        }
        for feat in self.feats.drain(..) {
            if feat.kind != Kind::None {
                self.elwc_kinds.push((section, feat.key, feat.kind, feat.typed));
            }
        }
        Ok(true)
    }
}

/// What [`Encoder::for_each_kind`] reports for an ELWC line.
/// (section, name, kind, typed).
pub(super) type ElwcKind = (Section, (usize, usize), Kind, bool);
