//! The TF Object Detection API's label map: a `StringIntLabelMap` in
//! protobuf text format (`label_map.pbtxt`), class id → name:
//!
//! ```text
//! item { id: 1 name: "/m/01g317" display_name: "person" }
//! item { name: 'car' id: 3 }
//! ```
//!
//! Read with a small tokenizer of the text format: `item` blocks with
//! `id`, `name` and `display_name` (a display name wins, as the API's
//! `create_category_index_from_labelmap(use_display_name=True)` shows it);
//! any other field (`keypoints { … }`, `frequency`, `ancestor_ids`) is
//! skipped whatever its value.

use crate::error::{bail, Result};
use std::collections::BTreeMap;

/// Largest label map read (bytes): real ones are a few hundred KB.
const MAX_SIZE: u64 = 64 << 20;

/// Class ids and their names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelMap {
    names: BTreeMap<i64, String>,
}

impl LabelMap {
    /// Reads a label map file.
    pub fn load(path: &std::path::Path) -> Result<LabelMap> {
        use std::io::Read as _;
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| crate::error::Error::from(e).context(name.clone()))?;
        let mut text = String::new();
        file.take(MAX_SIZE + 1)
            .read_to_string(&mut text)
            .map_err(|e| crate::error::Error::from(e).context(name.clone()))?;
        if text.len() as u64 > MAX_SIZE {
            bail!("{name}: a label map over {} MiB", MAX_SIZE >> 20);
        }
        LabelMap::parse(&text).map_err(|e| e.context(name))
    }

    /// Parses a label map's text.
    pub fn parse(text: &str) -> Result<LabelMap> {
        // A byte order mark some editors write.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut tokens = Tokens { text, at: 0 };
        let mut names = BTreeMap::new();
        while let Some(t) = tokens.next()? {
            match t {
                Token::Word("item") => {
                    tokens.colon_then_open()?;
                    let (id, name) = item(&mut tokens)?;
                    let Some(id) = id else {
                        bail!("line {}: an item without an id", tokens.line());
                    };
                    names.insert(id, name.unwrap_or_else(|| id.to_string()));
                }
                Token::Word(w) => bail!("line {}: expected `item`, found `{w}`", tokens.line()),
                other => bail!("line {}: expected `item`, found {}", tokens.line(), other.what()),
            }
        }
        Ok(LabelMap { names })
    }

    /// A class's name.
    pub fn name(&self, id: i64) -> Option<&str> {
        self.names.get(&id).map(String::as_str)
    }

    /// Whether the map has this id.
    pub fn contains(&self, id: i64) -> bool {
        self.names.contains_key(&id)
    }

    /// The id of a name (the first, by id).
    pub fn id_of(&self, name: &str) -> Option<i64> {
        self.names.iter().find(|(_, n)| n.as_str() == name).map(|(id, _)| *id)
    }

    /// The number of classes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the map has no class.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// One `item { … }` after its `{`: its id and the name shown.
fn item(tokens: &mut Tokens<'_>) -> Result<(Option<i64>, Option<String>)> {
    let (mut id, mut name, mut display) = (None, None, None);
    loop {
        match tokens.next()? {
            Some(Token::Close) => break,
            Some(Token::Word(field)) => match field {
                "id" => {
                    tokens.colon()?;
                    id = Some(tokens.integer()?);
                }
                "name" | "display_name" => {
                    tokens.colon()?;
                    let value = tokens.string()?;
                    if field == "name" {
                        name = Some(value);
                    } else {
                        display = Some(value);
                    }
                }
                _ => tokens.skip_value()?,
            },
            Some(other) => bail!("line {}: expected a field, found {}", tokens.line(), other.what()),
            None => bail!("line {}: an item not closed by `}}`", tokens.line()),
        }
    }
    Ok((id, display.filter(|d| !d.is_empty()).or(name)))
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Word(&'a str),
    Str(String),
    Colon,
    Open,
    Close,
    Other(char),
}

impl Token<'_> {
    fn what(&self) -> String {
        match self {
            Token::Word(w) => format!("`{w}`"),
            Token::Str(_) => "a string".into(),
            Token::Colon => "`:`".into(),
            Token::Open => "`{`".into(),
            Token::Close => "`}`".into(),
            Token::Other(c) => format!("{c:?}"),
        }
    }
}

struct Tokens<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Tokens<'a> {
    /// The line of the current position (counted only for an error).
    fn line(&self) -> usize {
        self.line_at(self.at)
    }

    fn line_at(&self, at: usize) -> usize {
        self.text[..at].matches('\n').count() + 1
    }

    fn next(&mut self) -> Result<Option<Token<'a>>> {
        let rest = &self.text[self.at..];
        let mut chars = rest.char_indices().peekable();
        // Whitespace and `#` comments.
        let start = loop {
            match chars.next() {
                None => {
                    self.at = self.text.len();
                    return Ok(None);
                }
                Some((_, c)) if c.is_whitespace() => {}
                Some((_, '#')) => {
                    for (_, c) in chars.by_ref() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                Some((i, c)) => break (i, c),
            }
        };
        let (i, c) = start;
        let token = match c {
            ':' => Token::Colon,
            '{' | '<' => Token::Open,
            '}' | '>' => Token::Close,
            '"' | '\'' => {
                let start = self.at + i;
                let (value, len) =
                    quoted(&rest[i..]).map_err(|m| crate::error::err!("line {}: {m}", self.line_at(start)))?;
                self.at += i + len;
                return Ok(Some(Token::Str(value)));
            }
            c if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+' | '.') => {
                let len = rest[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+' | '.')))
                    .unwrap_or(rest.len() - i);
                self.at += i + len;
                return Ok(Some(Token::Word(&rest[i..i + len])));
            }
            c => Token::Other(c),
        };
        self.at += i + c.len_utf8();
        Ok(Some(token))
    }

    fn expect(&mut self, want: Token<'_>) -> Result<()> {
        match self.next()? {
            Some(t) if t == want => Ok(()),
            Some(t) => bail!("line {}: expected {}, found {}", self.line(), want.what(), t.what()),
            None => bail!("line {}: expected {}, found the end", self.line(), want.what()),
        }
    }

    fn colon(&mut self) -> Result<()> {
        self.expect(Token::Colon)
    }

    /// `{` with an optional `:` before it (`item {` and `item: {`).
    fn colon_then_open(&mut self) -> Result<()> {
        match self.next()? {
            Some(Token::Open) => Ok(()),
            Some(Token::Colon) => self.expect(Token::Open),
            Some(t) => bail!("line {}: expected `{{`, found {}", self.line(), t.what()),
            None => bail!("line {}: expected `{{`, found the end", self.line()),
        }
    }

    fn integer(&mut self) -> Result<i64> {
        match self.next()? {
            Some(Token::Word(w)) => {
                parse_int(w).ok_or_else(|| crate::error::err!("line {}: `{w}` is not an integer id", self.line()))
            }
            Some(t) => bail!("line {}: expected an integer id, found {}", self.line(), t.what()),
            None => bail!("line {}: expected an integer id, found the end", self.line()),
        }
    }

    fn string(&mut self) -> Result<String> {
        match self.next()? {
            Some(Token::Str(mut s)) => {
                // Adjacent strings concatenate, as in the text format.
                while self.text[self.at..].trim_start().starts_with(['"', '\'']) {
                    if let Some(Token::Str(more)) = self.next()? {
                        s.push_str(&more);
                    }
                }
                Ok(s)
            }
            Some(t) => bail!("line {}: expected a quoted name, found {}", self.line(), t.what()),
            None => bail!("line {}: expected a quoted name, found the end", self.line()),
        }
    }

    /// Skips a field's value: `: scalar`, `: "text"`, `: [a, b]`, `{ … }`
    /// or `: { … }`.
    fn skip_value(&mut self) -> Result<()> {
        let start = self.at;
        let mut t = self.next()?;
        if t == Some(Token::Colon) {
            t = self.next()?;
        }
        let close = match t {
            Some(Token::Word(_) | Token::Str(_)) => return Ok(()),
            Some(Token::Open) => Token::Close,
            Some(Token::Other('[')) => Token::Other(']'),
            Some(t) => bail!(
                "line {}: a field's value cannot start with {}",
                self.line_at(start),
                t.what()
            ),
            None => bail!("line {}: a field without a value", self.line_at(start)),
        };
        let mut depth = 0usize;
        loop {
            match self.next()? {
                None => bail!("line {}: a field's value not closed", self.line_at(start)),
                Some(Token::Open) => depth += 1,
                Some(t) if t == close && depth == 0 => return Ok(()),
                Some(Token::Close) if depth > 0 => depth -= 1,
                Some(Token::Close) => bail!("line {}: an unexpected `}}`", self.line()),
                Some(_) => {}
            }
        }
    }
}

fn parse_int(w: &str) -> Option<i64> {
    let (neg, digits) = match w.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, w.strip_prefix('+').unwrap_or(w)),
    };
    let v = if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()?
    } else {
        digits.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// A quoted string at the start of `s` (its escapes as the text format's
/// C escapes), and the bytes it takes; `Err` says what is wrong with it.
fn quoted(s: &str) -> std::result::Result<(String, usize), &'static str> {
    let quote = s.chars().next().unwrap_or('"');
    let mut bytes = Vec::new();
    let mut it = s.char_indices().skip(1);
    while let Some((i, c)) = it.next() {
        match c {
            c if c == quote => {
                let text = String::from_utf8(bytes).map_err(|_| "a name that is not UTF-8")?;
                return Ok((text, i + 1));
            }
            '\n' => return Err("a string not closed on its line"),
            '\\' => {
                let Some((_, e)) = it.next() else { break };
                match e {
                    'n' => bytes.push(b'\n'),
                    't' => bytes.push(b'\t'),
                    'r' => bytes.push(b'\r'),
                    'x' | 'X' => {
                        let mut v = 0u32;
                        for _ in 0..2 {
                            let Some(d) = it.clone().next().and_then(|(_, d)| d.to_digit(16)) else {
                                break;
                            };
                            v = v * 16 + d;
                            it.next();
                        }
                        bytes.push(v as u8);
                    }
                    '0'..='7' => {
                        let mut v = e as u32 - '0' as u32;
                        for _ in 0..2 {
                            match s[it.clone().next().map_or(s.len(), |(j, _)| j)..].chars().next() {
                                Some(d @ '0'..='7') => {
                                    v = v * 8 + (d as u32 - '0' as u32);
                                    it.next();
                                }
                                _ => break,
                            }
                        }
                        bytes.push(v as u8);
                    }
                    c => {
                        let mut b = [0; 4];
                        bytes.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                    }
                }
            }
            c => {
                let mut b = [0; 4];
                bytes.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
    }
    Err("a string not closed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_items_in_any_order_with_comments_and_unknown_fields() {
        let map = LabelMap::parse(
            "# COCO\nitem {\n  name: \"/m/01g317\"\n  id: 1\n  display_name: \"person\"\n}\n\
             item: { id: 3 name: 'car' keypoints { id: 0 label: \"nose\" } frequency: FREQUENT }\n\
             item < id: 0x6 name: \"bu\" \"s\" >\n",
        )
        .unwrap();
        assert_eq!(map.name(1), Some("person"));
        assert_eq!(map.name(3), Some("car"));
        assert_eq!(map.name(6), Some("bus"));
        assert_eq!(map.len(), 3);
        assert!(!map.contains(2));
        assert_eq!(map.id_of("car"), Some(3));
    }

    #[test]
    fn a_byte_order_mark_and_hex_escapes() {
        let map = LabelMap::parse("\u{feff}item { id: 2 name: \"\\x41b\\102\" }").unwrap();
        assert_eq!(map.name(2), Some("AbB"));
        // Many items: the line of an error is counted only for the error.
        let big: String = (0..50_000)
            .map(|i| format!("item {{ id: {i} name: \"c{i}\" }}\n"))
            .collect();
        let map = LabelMap::parse(&big).unwrap();
        assert_eq!(map.len(), 50_000);
        let e = LabelMap::parse(&format!("{big}item {{ id: x }}"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("line 50001:"), "{e}");
    }

    #[test]
    fn refuses_what_is_not_a_label_map_with_its_line() {
        for (text, says) in [
            ("item { name: 'x' }", "without an id"),
            ("item { id: one }", "not an integer"),
            ("thing { id: 1 }", "expected `item`"),
            ("item { id: 1 name: 'x\n' }", "not closed"),
            ("item { id: 1", "not closed by"),
            ("{", "expected `item`"),
        ] {
            let e = LabelMap::parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
            assert!(e.contains("line "), "{e}");
        }
    }
}
