//! A small JSON lexer over one line, for the encoder: strings, numbers,
//! literals and structure, with byte offsets for errors.

use super::encode::LineError;

/// A JSON string in the line: its content span (between the quotes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Str {
    /// Where the opening quote is.
    pub(crate) at: usize,
    pub(crate) span: (usize, usize),
    pub(crate) escaped: bool,
}

/// A JSON number just read.
pub(crate) struct Number {
    /// Its value when it is an integer within i64.
    pub(crate) int: Option<i64>,
    /// No fraction or exponent.
    pub(crate) integral: bool,
}

/// A cursor over one line (UTF-8 is checked in strings, the only place
/// non-ASCII may appear).
pub(crate) struct Parser<'a> {
    pub(crate) s: &'a [u8],
    pub(crate) i: usize,
}

/// Bytes that end the fast scan of a string: quote, backslash, controls
/// (1), and non-ASCII (2, checked as UTF-8 at the end of the string).
pub(crate) static STRING_STOP: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = 1;
        i += 1;
    }
    t[b'"' as usize] = 1;
    t[b'\\' as usize] = 1;
    while i < 0x100 {
        if i >= 0x80 {
            t[i] = 2;
        }
        i += 1;
    }
    t
};

impl<'a> Parser<'a> {
    #[cold]
    pub(crate) fn err(&self, reason: &str) -> LineError {
        if self.i >= self.s.len() {
            return LineError::new(self.i, format!("unexpected end of line: {reason}"));
        }
        LineError::new(self.i, reason)
    }

    #[inline]
    pub(crate) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\r' | b'\n') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    #[inline]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    #[inline]
    pub(crate) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, c: u8, what: &str) -> Result<(), LineError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(&format!("expected {what}")))
        }
    }

    /// `:` and the whitespace around it.
    #[inline]
    pub(crate) fn colon(&mut self) -> Result<(), LineError> {
        self.ws();
        if !self.eat(b':') {
            return Err(self.err("expected ':'"));
        }
        self.ws();
        Ok(())
    }

    /// After a list value: `,` (false: more follow) or `]` (true: done).
    #[inline]
    pub(crate) fn list_next(&mut self) -> Result<bool, LineError> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.i += 1;
                Ok(false)
            }
            Some(b']') => {
                self.i += 1;
                Ok(true)
            }
            _ => Err(self.err("expected ',' or ']'")),
        }
    }

    /// Walks the elements of the array starting here (the cursor is on its
    /// `[`): `f` reads one element, the cursor on its first byte.
    #[inline(always)]
    pub(crate) fn elements(&mut self, mut f: impl FnMut(&mut Self) -> Result<(), LineError>) -> Result<(), LineError> {
        self.i += 1; // '['
        self.ws();
        if self.eat(b']') {
            return Ok(());
        }
        loop {
            self.ws();
            f(self)?;
            if self.list_next()? {
                return Ok(());
            }
        }
    }

    /// Checks that an object starts here, naming what was expected.
    pub(crate) fn require_object(&self, what: &str) -> Result<(), LineError> {
        match self.peek() {
            Some(b'{') => Ok(()),
            Some(_) => Err(self.err(&format!("expected {what}: a JSON object"))),
            None => Err(self.err(&format!("expected {what}"))),
        }
    }

    /// Reads `null` if it is next.
    #[inline]
    pub(crate) fn null(&mut self) -> Result<bool, LineError> {
        if self.peek() == Some(b'n') {
            self.literal("null")?;
            return Ok(true);
        }
        Ok(false)
    }

    pub(crate) fn literal(&mut self, word: &str) -> Result<(), LineError> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(())
        } else {
            Err(self.err("expected a value"))
        }
    }

    /// Walks the members of the object starting here: `f` reads the key
    /// (the cursor is on its quote), the colon and the value.
    #[inline]
    pub(crate) fn members(&mut self, mut f: impl FnMut(&mut Self) -> Result<(), LineError>) -> Result<(), LineError> {
        self.i += 1; // '{'
        self.ws();
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a key (a JSON string)"));
            }
            f(self)?;
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    /// Reads a string (the cursor is on its opening quote); checks escapes.
    #[inline]
    pub(crate) fn string(&mut self) -> Result<Str, LineError> {
        let at = self.i;
        if !self.eat(b'"') {
            return Err(self.err("expected a string"));
        }
        let start = self.i;
        let mut escaped = false;
        let mut ascii = true;
        loop {
            while self.i < self.s.len() && STRING_STOP[self.s[self.i] as usize] == 0 {
                self.i += 1;
            }
            match self.peek() {
                Some(0x80..=0xff) => {
                    ascii = false;
                    self.i += 1;
                }
                Some(b'"') => {
                    let end = self.i;
                    if !ascii {
                        if let Err(e) = std::str::from_utf8(&self.s[start..end]) {
                            return Err(LineError::new(start + e.valid_up_to(), "invalid UTF-8"));
                        }
                    }
                    self.i += 1;
                    return Ok(Str {
                        at,
                        span: (start, end),
                        escaped,
                    });
                }
                Some(b'\\') => {
                    escaped = true;
                    self.i += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 1,
                        Some(b'u') => {
                            let hex = self.s.get(self.i + 1..self.i + 5);
                            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                                return Err(self.err("bad \\u escape (4 hex digits expected)"));
                            }
                            self.i += 5;
                        }
                        _ => return Err(self.err("bad escape")),
                    }
                }
                Some(_) => return Err(self.err("control character in a string (escape it)")),
                None => return Err(LineError::new(at, "unterminated string")),
            }
        }
    }

    /// Appends the unescaped content of `s` to `out`.
    pub(crate) fn unescape(&self, s: Str, out: &mut Vec<u8>) -> Result<(), LineError> {
        let text = &self.s[s.span.0..s.span.1];
        if !s.escaped {
            out.extend_from_slice(text);
            return Ok(());
        }
        let mut i = 0;
        while i < text.len() {
            let b = text[i];
            if b != b'\\' {
                out.push(b);
                i += 1;
                continue;
            }
            let c = text[i + 1];
            i += 2;
            let simple = match c {
                b'"' => b'"',
                b'\\' => b'\\',
                b'/' => b'/',
                b'b' => 8,
                b'f' => 12,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                _ => 0,
            };
            if c != b'u' {
                out.push(simple);
                continue;
            }
            let at = s.span.0 + i - 2;
            let hex4 = |j: usize| -> u32 {
                text[j..j + 4]
                    .iter()
                    .fold(0, |acc, &h| acc * 16 + (h as char).to_digit(16).unwrap_or(0))
            };
            let unit = hex4(i);
            i += 4;
            let code = if (0xd800..0xdc00).contains(&unit) {
                // A high surrogate must be followed by a low one.
                let low = (text.get(i..i + 2) == Some(b"\\u")).then(|| hex4(i + 2));
                match low {
                    Some(low) if (0xdc00..0xe000).contains(&low) => {
                        i += 6;
                        0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
                    }
                    _ => {
                        return Err(LineError::new(
                            at,
                            format!("lone surrogate \\u{unit:04x} is not Unicode"),
                        ))
                    }
                }
            } else if (0xdc00..0xe000).contains(&unit) {
                return Err(LineError::new(
                    at,
                    format!("lone surrogate \\u{unit:04x} is not Unicode"),
                ));
            } else {
                unit
            };
            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
        Ok(())
    }

    /// Reads a JSON number; its value when it is an integer within i64.
    #[inline]
    pub(crate) fn number(&mut self) -> Result<Number, LineError> {
        let start = self.i;
        let negative = self.eat(b'-');
        let digits = self.i;
        let mut acc: u64 = 0;
        let mut overflow = false;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            match acc.checked_mul(10).and_then(|a| a.checked_add(u64::from(d - b'0'))) {
                Some(a) => acc = a,
                None => overflow = true,
            }
            self.i += 1;
        }
        let n = self.i - digits;
        if n == 0 || (n > 1 && self.s[digits] == b'0') {
            self.i = start;
            return Err(self.err("invalid number"));
        }
        let mut integral = true;
        if self.eat(b'.') {
            integral = false;
            let frac = self.i;
            while let Some(b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
            if self.i == frac {
                return Err(self.err("invalid number: digits expected after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integral = false;
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            let exp = self.i;
            while let Some(b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
            if self.i == exp {
                return Err(self.err("invalid number: digits expected in the exponent"));
            }
        }
        let int = if !integral || overflow {
            None
        } else if negative {
            (acc <= 1 << 63).then(|| (acc as i64).wrapping_neg())
        } else {
            i64::try_from(acc).ok()
        };
        Ok(Number { int, integral })
    }

    /// Skips any JSON value (for type detection), checking its syntax.
    pub(crate) fn skip_value(&mut self, depth: usize) -> Result<(), LineError> {
        if depth > 128 {
            return Err(self.err("nested too deeply"));
        }
        match self.peek() {
            Some(b'{') => self.members(|p| {
                p.string()?;
                p.colon()?;
                p.skip_value(depth + 1)
            }),
            Some(b'[') => {
                self.i += 1;
                self.ws();
                if self.eat(b']') {
                    return Ok(());
                }
                loop {
                    self.ws();
                    self.skip_value(depth + 1)?;
                    if self.list_next()? {
                        return Ok(());
                    }
                }
            }
            Some(b'"') => self.string().map(drop),
            Some(b't') => self.literal("true"),
            Some(b'f') => self.literal("false"),
            Some(b'n') => self.literal("null"),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            _ => Err(self.err("expected a value")),
        }
    }
}
