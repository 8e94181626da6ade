//! One JSON text read as Python's `json.loads` reads it for
//! `json_format.Parse`: numbers keep their text (and whether Python reads
//! them as int or float), `NaN`, `Infinity` and `-Infinity` are numbers,
//! a key twice in one object is an error (json_format's duplicate check),
//! and nesting is bounded (no stack overflow on hostile lines).

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum J {
    Null,
    Bool(bool),
    /// A number's text; `float` when Python reads it as a float (a
    /// fraction, an exponent, `NaN`, `Infinity`).
    Num {
        text: String,
        float: bool,
    },
    Str(String),
    Arr(Vec<J>),
    /// Members in their order.
    Obj(Vec<(String, J)>),
}

impl J {
    /// The value as Python's `str()` shows it, for error messages (short).
    pub(super) fn show(&self) -> String {
        let text = match self {
            J::Null => "null".to_string(),
            J::Bool(b) => b.to_string(),
            J::Num { text, .. } => text.clone(),
            J::Str(s) => format!("{s:?}"),
            J::Arr(_) => "an array".to_string(),
            J::Obj(_) => "an object".to_string(),
        };
        match text.char_indices().nth(60) {
            Some((at, _)) => format!("{}...", &text[..at]),
            None => text,
        }
    }
}

/// Deeper nesting than this is refused while reading (a message nested
/// 100 deep, protobuf's limit, takes at most twice as many JSON levels).
const MAX_DEPTH: usize = 256;

/// Reads one JSON text (white space around it allowed).
pub(super) fn parse(text: &[u8]) -> Result<J, String> {
    let text = std::str::from_utf8(text).map_err(|e| format!("not UTF-8 text (byte {})", e.valid_up_to() + 1))?;
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.at < p.s.len() {
        return Err(p.fail("extra data after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn fail(&self, what: &str) -> String {
        format!("not JSON: {what} (column {})", self.at + 1)
    }

    fn ws(&mut self) {
        while self.at < self.s.len() && matches!(self.s[self.at], b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.s[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<J, String> {
        if depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        let Some(&c) = self.s.get(self.at) else {
            return Err(self.fail("expecting a value"));
        };
        match c {
            b'{' => self.object(depth),
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(J::Arr(items));
                }
                loop {
                    self.ws();
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat("]") {
                        return Ok(J::Arr(items));
                    }
                    if !self.eat(",") {
                        return Err(self.fail("expecting ',' or ']'"));
                    }
                }
            }
            b'"' => Ok(J::Str(self.string()?)),
            _ if self.eat("null") => Ok(J::Null),
            _ if self.eat("true") => Ok(J::Bool(true)),
            _ if self.eat("false") => Ok(J::Bool(false)),
            _ if self.eat("NaN") => Ok(num("NaN", true)),
            _ if self.eat("Infinity") => Ok(num("Infinity", true)),
            _ if self.eat("-Infinity") => Ok(num("-Infinity", true)),
            b'-' | b'0'..=b'9' => self.number(),
            _ => Err(self.fail("expecting a value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<J, String> {
        self.at += 1;
        let mut members: Vec<(String, J)> = Vec::new();
        self.ws();
        if self.eat("}") {
            return Ok(J::Obj(members));
        }
        loop {
            self.ws();
            if self.s.get(self.at) != Some(&b'"') {
                return Err(self.fail("expecting a property name in double quotes"));
            }
            let key = self.string()?;
            self.ws();
            if !self.eat(":") {
                return Err(self.fail("expecting ':'"));
            }
            self.ws();
            let v = self.value(depth + 1)?;
            if members.iter().any(|(k, _)| *k == key) {
                return Err(format!("duplicate key {key:?}"));
            }
            members.push((key, v));
            self.ws();
            if self.eat("}") {
                return Ok(J::Obj(members));
            }
            if !self.eat(",") {
                return Err(self.fail("expecting ',' or '}'"));
            }
        }
    }

    fn number(&mut self) -> Result<J, String> {
        let start = self.at;
        let digits = |p: &mut Parser| {
            let from = p.at;
            while p.at < p.s.len() && p.s[p.at].is_ascii_digit() {
                p.at += 1;
            }
            p.at - from
        };
        self.eat("-");
        let int = self.at;
        if digits(self) == 0 || (self.s[int] == b'0' && self.at - int > 1) {
            // Python reads "01" as 0 followed by extra data.
            return Err(self.fail("a number"));
        }
        let mut float = false;
        if self.s.get(self.at) == Some(&b'.') && self.s.get(self.at + 1).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
            digits(self);
            float = true;
        }
        if matches!(self.s.get(self.at), Some(b'e' | b'E')) {
            let back = self.at;
            self.at += 1;
            if matches!(self.s.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                self.at = back;
            } else {
                float = true;
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.at]).unwrap_or_default();
        Ok(num(text, float))
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run = self.at;
            while self.at < self.s.len() && !matches!(self.s[self.at], b'"' | b'\\' | 0..=0x1f) {
                self.at += 1;
            }
            // Runs end on ASCII bytes, so they are whole UTF-8 text.
            out.push_str(std::str::from_utf8(&self.s[run..self.at]).unwrap_or_default());
            match self.s.get(self.at) {
                None => return Err(self.fail("unterminated string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => return Err(self.fail("a control character in a string")),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), String> {
        let Some(&c) = self.s.get(self.at) else {
            return Err(self.fail("unterminated string"));
        };
        self.at += 1;
        let plain = match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex4()?;
                let code = if (0xd800..0xdc00).contains(&hi) && self.eat("\\u") {
                    let lo = self.hex4()?;
                    if !(0xdc00..0xe000).contains(&lo) {
                        return Err("an unpaired surrogate in a string".to_string());
                    }
                    0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                } else {
                    hi
                };
                char::from_u32(code).ok_or_else(|| "an unpaired surrogate in a string".to_string())?
            }
            _ => return Err(self.fail("an invalid \\escape")),
        };
        out.push(plain);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let text = self.s.get(self.at..self.at + 4).unwrap_or_default();
        let text = std::str::from_utf8(text).unwrap_or_default();
        if text.len() != 4 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.fail("an invalid \\uXXXX escape"));
        }
        self.at += 4;
        u32::from_str_radix(text, 16).map_err(|_| self.fail("an invalid \\uXXXX escape"))
    }
}

fn num(text: &str, float: bool) -> J {
    J::Num {
        text: text.to_string(),
        float,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_python_reads() {
        assert_eq!(
            parse(b" {\"a\": [1, 2.5, NaN, -Infinity], \"b\": \"\\u00e9\\ud83d\\ude00\"} ").unwrap(),
            J::Obj(vec![
                (
                    "a".into(),
                    J::Arr(vec![
                        num("1", false),
                        num("2.5", true),
                        num("NaN", true),
                        num("-Infinity", true)
                    ])
                ),
                ("b".into(), J::Str("é😀".into())),
            ])
        );
        assert!(parse(b"{\"a\": 1, \"a\": 2}").unwrap_err().contains("duplicate key"));
        assert!(parse(b"{\"a\": 01}").is_err());
        assert!(parse(b"\"\\ud800\"").is_err());
        assert!(parse(b"[1] x").is_err());
        let deep = "[".repeat(100_000);
        assert!(parse(deep.as_bytes()).unwrap_err().contains("nested deeper"));
    }
}
