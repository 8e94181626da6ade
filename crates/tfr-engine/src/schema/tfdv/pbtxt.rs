//! Protocol buffers text format, without a descriptor: [`parse`] reads a
//! document into a generic tree of named fields (what `schema.pbtxt` files
//! are), [`Writer`] writes one the way Python's `text_format` does.
//!
//! The reader accepts what protobuf's own text parser accepts in practice:
//! `name: scalar`, `name { ... }` / `name < ... >` (the `:` before a message
//! is optional), lists `name: [a, b]` (one field per element), `#`
//! comments, `,` or `;` after a field, `[ext.name]` field names (kept by
//! their bracketed text), scalars as identifiers (`INT`, `true`, `inf`),
//! numbers (decimal, `0x` hex, leading-`0` octal, floats with exponents or
//! an `f` suffix, a `-` sign) and strings in `"` or `'` with C escapes
//! (`\n \t \r \\ \' \" \? \a \b \f \v`, octal `\123`, hex `\x7f`, `\u`,
//! `\U`), adjacent strings joined. Errors carry the line and column (both
//! 1-based; columns count characters). Nesting deeper than [`MAX_DEPTH`]
//! is an error, not a stack overflow.

use std::fmt;

/// The deepest nesting of messages accepted (protobuf's default is 100;
/// no schema comes near this).
pub const MAX_DEPTH: usize = 100;

/// A scalar value, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// An identifier: an enum value name, `true`, `inf`, ...
    Ident(String),
    /// A number, as written (with its sign).
    Number(String),
    /// A string, its escapes decoded (any bytes).
    Str(Vec<u8>),
}

/// A field's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar.
    Scalar(Scalar),
    /// A nested message: its fields in order.
    Message(Vec<Field>),
}

/// One field of a message, with where its name is in the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The field's name.
    pub name: String,
    /// Its value.
    pub value: Value,
    /// The name's line (from 1).
    pub line: u32,
    /// The name's column (from 1).
    pub col: u32,
}

/// A syntax error (or a value of the wrong kind), at a line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The line (from 1).
    pub line: u32,
    /// The column (from 1).
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for Error {}

/// Parses a text-format document, handing each top-level field to `each`
/// as soon as it is read (a large document is never held whole as a tree).
pub fn parse_each(text: &str, each: &mut dyn FnMut(Field) -> Result<(), Error>) -> Result<(), Error> {
    let mut p = Parser::new(text);
    p.each_field(None, 0, each)
}

#[path = "pbtxt_pieces.rs"]
mod pieces;
pub use pieces::{parse_pieces, Piece};

/// Parses a text-format document: the fields of the top-level message.
pub fn parse(text: &str) -> Result<Vec<Field>, Error> {
    let mut p = Parser::new(text);
    p.fields(None, 0)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    line: u32,
    col: u32,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            s: text.as_bytes(),
            text,
            pos: 0,
            line: 1,
            col: 1,
        }
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, Error> {
        Err(Error {
            line: self.line,
            col: self.col,
            message: message.into(),
        })
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    /// Moves past one character (a whole UTF-8 sequence).
    fn bump(&mut self) {
        let Some(&b) = self.s.get(self.pos) else {
            return;
        };
        if b == b'\n' {
            self.line += 1;
            self.col = 1;
            self.pos += 1;
            return;
        }
        let len = self.text[self.pos..].chars().next().map_or(1, char::len_utf8);
        self.pos += len;
        self.col += 1;
    }

    /// Skips whitespace and `#` comments.
    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => self.bump(),
                b'#' => {
                    while let Some(b) = self.peek() {
                        if b == b'\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                _ => break,
            }
        }
    }

    /// A description of what is at the cursor, for errors.
    fn here(&self) -> String {
        match self.text[self.pos..].chars().next() {
            None => "end of input".to_string(),
            Some(c) if c.is_control() => format!("{:?}", c),
            Some(c) => format!("'{c}'"),
        }
    }

    /// The fields of a message, up to `close` (or the end of input at the top).
    fn fields(&mut self, close: Option<u8>, depth: usize) -> Result<Vec<Field>, Error> {
        let mut fields = Vec::new();
        self.each_field(close, depth, &mut |f| {
            fields.push(f);
            Ok(())
        })?;
        Ok(fields)
    }

    /// The fields up to `close` (or the end of input), each handed to
    /// `each` as soon as it is read.
    fn each_field(
        &mut self,
        close: Option<u8>,
        depth: usize,
        each: &mut dyn FnMut(Field) -> Result<(), Error>,
    ) -> Result<(), Error> {
        loop {
            self.skip_space();
            match (self.peek(), close) {
                (None, None) => return Ok(()),
                (None, Some(c)) => return self.err(format!("expected '{}' before the end of input", c as char)),
                (Some(b), Some(c)) if b == c => {
                    self.bump();
                    return Ok(());
                }
                _ => {}
            }
            self.one_field(depth, each)?;
        }
    }

    /// One field (and the `,` or `;` after it), handed to `each`.
    fn one_field(&mut self, depth: usize, each: &mut dyn FnMut(Field) -> Result<(), Error>) -> Result<(), Error> {
        {
            let (line, col) = (self.line, self.col);
            let name = self.field_name()?;
            self.skip_space();
            let colon = self.peek() == Some(b':');
            if colon {
                self.bump();
                self.skip_space();
            }
            match self.peek() {
                Some(b'{' | b'<') => {
                    let value = self.message(depth)?;
                    each(Field { name, value, line, col })?;
                }
                Some(b'[') if colon => {
                    self.bump();
                    self.skip_space();
                    if self.peek() == Some(b']') {
                        self.bump();
                    } else {
                        loop {
                            self.skip_space();
                            let value = match self.peek() {
                                Some(b'{' | b'<') => self.message(depth)?,
                                _ => Value::Scalar(self.scalar()?),
                            };
                            each(Field {
                                name: name.clone(),
                                value,
                                line,
                                col,
                            })?;
                            self.skip_space();
                            match self.peek() {
                                Some(b',') => self.bump(),
                                Some(b']') => {
                                    self.bump();
                                    break;
                                }
                                _ => return self.err(format!("expected ',' or ']' in a list, found {}", self.here())),
                            }
                        }
                    }
                }
                _ if colon => {
                    let value = Value::Scalar(self.scalar()?);
                    each(Field { name, value, line, col })?;
                }
                _ => {
                    return self.err(format!(
                        "expected ':' or '{{' after field name \"{name}\", found {}",
                        self.here()
                    ))
                }
            }
            self.skip_space();
            if matches!(self.peek(), Some(b',' | b';')) {
                self.bump();
            }
        }
        Ok(())
    }

    /// A nested message, at `{` or `<`.
    fn message(&mut self, depth: usize) -> Result<Value, Error> {
        if depth + 1 > MAX_DEPTH {
            return self.err(format!("messages nested more than {MAX_DEPTH} deep"));
        }
        let close = if self.peek() == Some(b'<') { b'>' } else { b'}' };
        self.bump();
        Ok(Value::Message(self.fields(Some(close), depth + 1)?))
    }

    /// A field name: an identifier, or `[...]` (an extension or Any type URL).
    fn field_name(&mut self) -> Result<String, Error> {
        if self.peek() == Some(b'[') {
            let start = self.pos;
            while let Some(b) = self.peek() {
                self.bump();
                if b == b']' {
                    return Ok(self.text[start..self.pos].to_string());
                }
                if b == b'\n' {
                    break;
                }
            }
            return self.err("unterminated '[' in a field name");
        }
        match self.peek() {
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => Ok(self.word()),
            _ => self.err(format!("expected a field name, found {}", self.here())),
        }
    }

    /// Letters, digits and `_` from the cursor.
    fn word(&mut self) -> String {
        let start = self.pos;
        while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || b == b'_') {
            self.bump();
        }
        self.text[start..self.pos].to_string()
    }

    fn scalar(&mut self) -> Result<Scalar, Error> {
        match self.peek() {
            Some(b'"' | b'\'') => {
                let mut bytes = self.string()?;
                // Adjacent strings are one.
                loop {
                    let save = (self.pos, self.line, self.col);
                    self.skip_space();
                    if matches!(self.peek(), Some(b'"' | b'\'')) {
                        bytes.extend(self.string()?);
                    } else {
                        (self.pos, self.line, self.col) = save;
                        return Ok(Scalar::Str(bytes));
                    }
                }
            }
            Some(b) if b.is_ascii_digit() || b == b'-' || b == b'+' || b == b'.' => self.number(),
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => Ok(Scalar::Ident(self.word())),
            _ => self.err(format!("expected a value, found {}", self.here())),
        }
    }

    fn number(&mut self) -> Result<Scalar, Error> {
        let start = self.pos;
        if matches!(self.peek(), Some(b'-' | b'+')) {
            self.bump();
            self.skip_space();
        }
        let body = self.pos;
        let mut prev = 0u8;
        while let Some(b) = self.peek() {
            let hex = self
                .s
                .get(body..body + 2)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"0x"));
            let ok = b.is_ascii_alphanumeric()
                || b == b'_'
                || b == b'.'
                || ((b == b'-' || b == b'+') && (prev == b'e' || prev == b'E') && !hex);
            if !ok {
                break;
            }
            prev = b;
            self.bump();
        }
        if self.pos == body {
            return self.err(format!("expected a number, found {}", self.here()));
        }
        let sign = if self.s[start] == b'-' { "-" } else { "" };
        Ok(Scalar::Number(format!("{sign}{}", &self.text[body..self.pos])))
    }

    /// A quoted string, escapes decoded.
    fn string(&mut self) -> Result<Vec<u8>, Error> {
        let quote = self.peek().unwrap_or(b'"');
        self.bump();
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return self.err("unterminated string");
            };
            match b {
                b'\n' => return self.err("newline in a string (write it as \\n)"),
                b if b == quote => {
                    self.bump();
                    return Ok(out);
                }
                b'\\' => {
                    self.bump();
                    self.escape(&mut out)?;
                }
                _ => {
                    let len = self.text[self.pos..].chars().next().map_or(1, char::len_utf8);
                    out.extend_from_slice(&self.s[self.pos..self.pos + len]);
                    self.bump();
                }
            }
        }
    }

    /// One escape, after its backslash.
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        let Some(b) = self.peek() else {
            return self.err("unterminated string");
        };
        let simple = match b {
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'v' => Some(11),
            b'\\' | b'\'' | b'"' | b'?' => Some(b),
            _ => None,
        };
        if let Some(c) = simple {
            self.bump();
            out.push(c);
            return Ok(());
        }
        match b {
            b'0'..=b'7' => {
                let mut v: u32 = 0;
                for _ in 0..3 {
                    match self.peek() {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            self.bump();
                        }
                        _ => break,
                    }
                }
                if v > 255 {
                    return self.err("octal escape above \\377");
                }
                out.push(v as u8);
            }
            b'x' | b'X' => {
                self.bump();
                let mut v: u32 = 0;
                let mut n = 0;
                while n < 2 {
                    match self.peek().and_then(|d| (d as char).to_digit(16)) {
                        Some(d) => {
                            v = v * 16 + d;
                            self.bump();
                            n += 1;
                        }
                        None => break,
                    }
                }
                if n == 0 {
                    return self.err("\\x needs a hex digit");
                }
                out.push(v as u8);
            }
            b'u' | b'U' => {
                self.bump();
                let len = if b == b'u' { 4 } else { 8 };
                let mut v: u32 = 0;
                for _ in 0..len {
                    match self.peek().and_then(|d| (d as char).to_digit(16)) {
                        Some(d) => {
                            v = v.saturating_mul(16).saturating_add(d);
                            self.bump();
                        }
                        None => return self.err(format!("\\{} needs {len} hex digits", b as char)),
                    }
                }
                let Some(c) = char::from_u32(v) else {
                    return self.err(format!("\\{} escape is not a Unicode character", b as char));
                };
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            _ => return self.err(format!("unknown escape \\{}", self.here().trim_matches('\''))),
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Typed access to fields
// ---------------------------------------------------------------------------

impl Field {
    /// An error at this field.
    pub fn error<T>(&self, message: impl Into<String>) -> Result<T, Error> {
        Err(Error {
            line: self.line,
            col: self.col,
            message: message.into(),
        })
    }

    fn scalar_value(&self) -> Result<&Scalar, Error> {
        match &self.value {
            Value::Scalar(s) => Ok(s),
            Value::Message(_) => self.error(format!("\"{}\" takes a value, not a message", self.name)),
        }
    }

    /// The fields of a message-valued field.
    pub fn message(&self) -> Result<&[Field], Error> {
        match &self.value {
            Value::Message(m) => Ok(m),
            Value::Scalar(_) => self.error(format!("\"{}\" is a message: write {} {{ ... }}", self.name, self.name)),
        }
    }

    /// A 64-bit integer (decimal, hex or octal).
    pub fn int(&self) -> Result<i64, Error> {
        let bad = || self.error(format!("\"{}\" takes an integer", self.name));
        let Scalar::Number(text) = self.scalar_value()? else {
            return bad();
        };
        let (neg, digits) = match text.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, text.as_str()),
        };
        let magnitude = if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
            u64::from_str_radix(hex, 16).ok()
        } else if digits.len() > 1 && digits.starts_with('0') {
            u64::from_str_radix(&digits[1..], 8).ok()
        } else {
            digits.parse::<u64>().ok()
        };
        let Some(m) = magnitude else {
            return bad();
        };
        let v = if neg {
            0i64.checked_sub_unsigned(m)
        } else {
            i64::try_from(m).ok()
        };
        match v {
            Some(v) => Ok(v),
            None => self.error(format!("\"{}\": {text} is out of the int64 range", self.name)),
        }
    }

    /// A float or double: a number, `inf`, `infinity`, `nan` (any case,
    /// with a sign), an `f` suffix allowed.
    pub fn float(&self) -> Result<f64, Error> {
        let bad = || self.error(format!("\"{}\" takes a number", self.name));
        let text = match self.scalar_value()? {
            Scalar::Number(t) | Scalar::Ident(t) => t.as_str(),
            Scalar::Str(_) => return bad(),
        };
        let (neg, body) = match text.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, text),
        };
        let lower = body.to_ascii_lowercase();
        let v = match lower.as_str() {
            "inf" | "infinity" | "inff" | "infinityf" => f64::INFINITY,
            "nan" | "nanf" => f64::NAN,
            _ => {
                let t = lower
                    .strip_suffix('f')
                    .filter(|_| !lower.starts_with("0x"))
                    .unwrap_or(&lower);
                if t.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
                    match t.parse::<f64>() {
                        Ok(v) => v,
                        Err(_) => match self.int() {
                            Ok(i) => return Ok(i as f64),
                            Err(_) => return bad(),
                        },
                    }
                } else {
                    return bad();
                }
            }
        };
        Ok(if neg { -v } else { v })
    }

    /// A bool: `true`, `false`, `True`, `False`, `t`, `f`, `1`, `0`.
    pub fn boolean(&self) -> Result<bool, Error> {
        match self.scalar_value()? {
            Scalar::Ident(t) if matches!(t.as_str(), "true" | "True" | "t") => Ok(true),
            Scalar::Ident(t) if matches!(t.as_str(), "false" | "False" | "f") => Ok(false),
            Scalar::Number(t) if t == "1" => Ok(true),
            Scalar::Number(t) if t == "0" => Ok(false),
            _ => self.error(format!("\"{}\" takes true or false", self.name)),
        }
    }

    /// A string (must be UTF-8: proto `string` fields are).
    pub fn string(&self) -> Result<String, Error> {
        match self.scalar_value()? {
            Scalar::Str(b) => match String::from_utf8(b.clone()) {
                Ok(s) => Ok(s),
                Err(_) => self.error(format!("\"{}\" is not valid UTF-8", self.name)),
            },
            _ => self.error(format!("\"{}\" takes a quoted string", self.name)),
        }
    }

    /// An enum value: its name, or its number.
    pub fn enum_value(&self) -> Result<EnumValue<'_>, Error> {
        match self.scalar_value()? {
            Scalar::Ident(t) => Ok(EnumValue::Name(t)),
            Scalar::Number(_) => Ok(EnumValue::Number(self.int()?)),
            Scalar::Str(_) => self.error(format!("\"{}\" takes an enum value name, unquoted", self.name)),
        }
    }
}

/// An enum field's value as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnumValue<'a> {
    /// A name (`BYTES`).
    Name(&'a str),
    /// A number (`1`).
    Number(i64),
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/// Writes text format as Python's `text_format.MessageToString` does:
/// `name: value` lines, `name {` ... `}` blocks indented by two spaces,
/// strings C-escaped with bytes outside printable ASCII in octal, doubles
/// as Python's `repr`, floats by `ToShortestFloat`.
#[derive(Debug, Default)]
pub struct Writer {
    out: Vec<u8>,
    depth: usize,
}

impl Writer {
    /// An empty document.
    pub fn new() -> Self {
        Writer::default()
    }

    fn start(&mut self, name: &str) {
        for _ in 0..self.depth {
            self.out.extend_from_slice(b"  ");
        }
        self.out.extend_from_slice(name.as_bytes());
    }

    /// `name {`, then the fields written until [`Writer::close`].
    pub fn open(&mut self, name: &str) {
        self.start(name);
        self.out.extend_from_slice(b" {\n");
        self.depth += 1;
    }

    /// The `}` of the last [`Writer::open`].
    pub fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        for _ in 0..self.depth {
            self.out.extend_from_slice(b"  ");
        }
        self.out.extend_from_slice(b"}\n");
    }

    /// `name {\n}`: an empty message.
    pub fn empty(&mut self, name: &str) {
        self.open(name);
        self.close();
    }

    fn raw(&mut self, name: &str, value: &str) {
        self.start(name);
        self.out.extend_from_slice(b": ");
        self.out.extend_from_slice(value.as_bytes());
        self.out.push(b'\n');
    }

    /// A string or bytes field, quoted and escaped.
    pub fn string(&mut self, name: &str, value: &[u8]) {
        self.start(name);
        self.out.extend_from_slice(b": \"");
        crate::example::text::escape_bytes(value, &mut self.out);
        self.out.extend_from_slice(b"\"\n");
    }

    /// Writes an integer field.
    pub fn int(&mut self, name: &str, value: i64) {
        self.raw(name, &value.to_string());
    }

    /// Writes a bool field.
    pub fn boolean(&mut self, name: &str, value: bool) {
        self.raw(name, if value { "true" } else { "false" });
    }

    /// An enum value, by name.
    pub fn enum_name(&mut self, name: &str, value: &str) {
        self.raw(name, value);
    }

    /// A `double` field, as Python's `repr(float)`.
    pub fn double(&mut self, name: &str, value: f64) {
        self.raw(name, &python_repr(value));
    }

    /// A `float` field, as `ToShortestFloat` then `repr`.
    pub fn float(&mut self, name: &str, value: f32) {
        let mut text = Vec::new();
        crate::example::text::write_float(value, &mut text);
        self.raw(name, &String::from_utf8_lossy(&text));
    }

    /// The text written.
    pub fn finish(self) -> String {
        // Only ASCII and escapes are written (names are identifiers).
        String::from_utf8_lossy(&self.out).into_owned()
    }
}

/// Python's `repr` of a double: the shortest digits that read back, fixed
/// notation for exponents -4 ..= 15 (`1.0`, `0.0001`), else scientific
/// with a signed two-digit-or-more exponent (`1e-05`, `1e+16`).
pub fn python_repr(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    // Rust's `{:e}` is the shortest round-trip form: "-1.2345e-7".
    let sci = format!("{v:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if (-4..16).contains(&exp) {
        if exp < 0 {
            out.push_str("0.");
            for _ in 0..(-exp - 1) {
                out.push('0');
            }
            out.push_str(&digits);
        } else {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                out.push_str(&digits);
                for _ in digits.len()..int_len {
                    out.push('0');
                }
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len]);
                out.push('.');
                out.push_str(&digits[int_len..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.unsigned_abs()));
    }
    out
}

#[cfg(test)]
#[path = "pbtxt_tests.rs"]
mod tests;
