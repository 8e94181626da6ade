//! [`parse_pieces`]: a document whose large top-level messages come one
//! field at a time.

use super::{Error, Field, Parser, Value};

/// A piece of a document read by [`parse_pieces`].
#[derive(Debug)]
pub enum Piece {
    /// A whole top-level field, or a field of the streamed one open.
    Field(Field),
    /// A streamed top-level message opens: its name and place (an empty
    /// message); its fields follow, then [`Piece::Close`].
    Open(Field),
    /// The streamed message closes.
    Close,
}

/// As [`parse_each`], but a top-level message field whose name `streamed`
/// accepts (written `name { ... }`) comes in pieces: [`Piece::Open`], each
/// of its fields, [`Piece::Close`]; so a huge one (a string domain of a
/// million values) is never held as a tree.
pub fn parse_pieces(
    text: &str,
    streamed: &dyn Fn(&str) -> bool,
    each: &mut dyn FnMut(Piece) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut p = Parser::new(text);
    loop {
        p.skip_space();
        if p.peek().is_none() {
            return Ok(());
        }
        let start = (p.pos, p.line, p.col);
        let name = p.field_name()?;
        p.skip_space();
        if p.peek() == Some(b':') {
            p.bump();
            p.skip_space();
        }
        let close = match p.peek() {
            Some(b'{') => b'}',
            Some(b'<') => b'>',
            _ => 0,
        };
        if close == 0 || !streamed(&name) {
            (p.pos, p.line, p.col) = start;
            p.one_field(0, &mut |f| each(Piece::Field(f)))?;
            continue;
        }
        p.bump();
        let (line, col) = (start.1, start.2);
        let value = Value::Message(Vec::new());
        each(Piece::Open(Field { name, value, line, col }))?;
        p.each_field(Some(close), 1, &mut |f| each(Piece::Field(f)))?;
        each(Piece::Close)?;
        p.skip_space();
        if matches!(p.peek(), Some(b',' | b';')) {
            p.bump();
        }
    }
}
