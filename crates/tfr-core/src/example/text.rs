//! The protobuf text format, byte for byte as Python's
//! `google.protobuf.text_format.MessageToString(msg)` prints it.
//!
//! What Python protobuf 7 does, and so what this does:
//! - fields in field-number order, each nested message as `name {` ... `}`
//!   with 2 more spaces of indentation; an empty message prints nothing;
//! - maps as one `feature {` / `feature_list {` block per key, sorted by key
//!   (code point order), each with a `key: "..."` line (left out for the
//!   empty key) and a `value {` block (always, even when empty);
//! - float32 values by `type_checkers.ToShortestFloat` then Python `str()`:
//!   the fewest significant digits, starting at 6, that read back to the
//!   same float32 (`1.4013e-45`, `0.1`, `3.4028235e+38`), plain notation for
//!   decimal exponents from -5 to 15, else `1e-05` / `1e+16`; `nan`, `inf`,
//!   `-inf`, `-0.0`;
//! - int64 values in decimal;
//! - bytes C-escaped: `\"`, `\'`, `\\`, `\n`, `\r`, `\t`, and every other byte
//!   outside 0x20..=0x7E as a 3-digit octal escape;
//! - string keys (always valid UTF-8) escaped the same way for ASCII bytes
//!   but with non-ASCII characters kept as UTF-8 (`as_utf8=True`).
//!
//! `--type raw` payloads are not protobuf messages; [`raw`] prints them as
//! `as_utf8=True` would, but also escapes the invisible characters that
//! could hide text or drive a terminal.

use std::fmt::Write as _;

use super::out::{Cut, Out};
use super::short;
use super::view::{
    ExampleView, FeatureListView, FeatureListsView, FeatureView, FeaturesView, Kind, SequenceExampleView,
};

/// Appends the text format of a validated Example.
pub fn example(view: &ExampleView<'_>, out: &mut Out<'_>) {
    let mut w = Writer { out, indent: 0 };
    if let Some(features) = view.features() {
        w.open("features");
        w.features(&features);
        w.close();
    }
}

/// Appends a validated Example as the message field `name` of an
/// enclosing message (`name {`, the Example two spaces in, `}`), as an
/// ExampleListWithContext prints its `examples` and `context`.
pub fn example_field(name: &str, view: &ExampleView<'_>, out: &mut Out<'_>) {
    let mut w = Writer { out, indent: 0 };
    w.open(name);
    if let Some(features) = view.features() {
        w.open("features");
        w.features(&features);
        w.close();
    }
    w.close();
}

/// Appends the text format of a validated SequenceExample.
pub fn sequence_example(view: &SequenceExampleView<'_>, out: &mut Out<'_>) {
    let mut w = Writer { out, indent: 0 };
    if let Some(context) = view.context() {
        w.open("context");
        w.features(&context);
        w.close();
    }
    if let Some(lists) = view.feature_lists() {
        w.open("feature_lists");
        w.feature_lists(&lists);
        w.close();
    }
}

/// Appends a payload as one double-quoted line (`--type raw`).
///
/// Printable UTF-8 is kept as is; ASCII controls, quotes and backslashes
/// are C-escaped; bytes that are not valid UTF-8, and the UTF-8 bytes of C1
/// controls, bidi controls and other invisible format characters (see
/// [`is_hidden`]), become octal escapes. This is Python protobuf's
/// `text_encoding.CEscape(payload, as_utf8=True)` except for those
/// characters, which it keeps.
pub fn raw(payload: &[u8], out: &mut Out<'_>) {
    out.push(b'"');
    if let Some(start) = out.short().and_then(|s| short::cut(payload, s.max_bytes)) {
        escape_utf8_lossless(start, out);
        out.extend_from_slice(b"\"... # ");
        out.extend_from_slice(short::what(payload).as_bytes());
        out.push(b'\n');
        return;
    }
    out.pieces(payload, Cut::Char, escape_utf8_lossless);
    out.extend_from_slice(b"\"\n");
}

/// Writes nested blocks with protobuf's 2-space indentation.
struct Writer<'o, 's> {
    out: &'o mut Out<'s>,
    indent: usize,
}

impl Writer<'_, '_> {
    #[inline]
    fn pad(&mut self) {
        let len = self.out.len() + self.indent;
        self.out.resize(len, b' ');
    }

    /// Starts a `name {` block.
    #[inline]
    fn open(&mut self, name: &str) {
        self.pad();
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b" {\n");
        self.indent += 2;
    }

    /// Ends the innermost block.
    #[inline]
    fn close(&mut self) {
        self.indent -= 2;
        self.pad();
        self.out.extend_from_slice(b"}\n");
    }

    /// Starts a `name: ` line; the caller writes the value and `end_line`.
    #[inline]
    fn start_line(&mut self, name: &str) {
        self.pad();
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b": ");
    }

    fn end_line(&mut self) {
        self.out.push(b'\n');
        self.out.spill_point();
    }

    /// A `key: "..."` line of a map entry; none for the empty key (the
    /// entry message's `key` has no presence, so "" is not printed).
    fn key(&mut self, key: &str) {
        if key.is_empty() {
            return;
        }
        self.start_line("key");
        self.out.push(b'"');
        escape_str(key, self.out);
        self.out.push(b'"');
        self.end_line();
    }

    fn features(&mut self, features: &FeaturesView<'_>) {
        for (key, feature) in features.sorted() {
            if !self.out.keeps(key) {
                continue;
            }
            self.open("feature");
            self.key(key);
            self.open("value");
            self.feature(key, &feature);
            self.close();
            self.close();
        }
    }

    fn feature_lists(&mut self, lists: &FeatureListsView<'_>) {
        for (key, list) in lists.sorted() {
            if !self.out.keeps(key) {
                continue;
            }
            self.open("feature_list");
            self.key(key);
            self.open("value");
            self.feature_list(key, &list);
            self.close();
            self.close();
        }
    }

    fn feature_list(&mut self, key: &str, list: &FeatureListView<'_>) {
        let shown = self.out.short().map_or(usize::MAX, |s| s.max_values);
        for (i, feature) in list.features().enumerate() {
            if i == shown {
                self.more(&short::more_steps(list.len(), shown));
                break;
            }
            self.open("feature");
            self.feature(key, &feature);
            self.close();
        }
    }

    /// A `# ... N more (...)` line where values were left out.
    fn more(&mut self, summary: &str) {
        self.pad();
        self.out.extend_from_slice(b"# ... ");
        self.out.extend_from_slice(summary.as_bytes());
        self.end_line();
    }

    /// A value line of a bytes list, cut when shortening asks for it.
    fn bytes_value(&mut self, value: &[u8]) {
        self.start_line("value");
        self.out.push(b'"');
        match self.out.short().and_then(|s| short::cut(value, s.max_bytes)) {
            Some(start) => {
                escape_bytes(start, self.out);
                self.out.extend_from_slice(b"\"... # ");
                self.out.extend_from_slice(short::what(value).as_bytes());
            }
            None => {
                self.out.pieces(value, Cut::Byte, escape_bytes);
                self.out.push(b'"');
            }
        }
        self.end_line();
    }

    /// The body of a Feature (named `key`): its one list block, if a kind
    /// is set; an int64 with a class name gets it as a `# name` comment.
    fn feature(&mut self, key: &str, feature: &FeatureView<'_>) {
        let shown = self.out.short().map_or(usize::MAX, |s| s.max_values);
        let name = match feature.kind() {
            Kind::None => return,
            Kind::Bytes => "bytes_list",
            Kind::Float => "float_list",
            Kind::Int64 => "int64_list",
        };
        self.open(name);
        let mut n = 0;
        match feature.kind() {
            Kind::None => {}
            Kind::Bytes => {
                for value in feature.bytes().take(shown) {
                    self.bytes_value(value);
                    n += 1;
                }
            }
            Kind::Float => {
                for value in feature.floats().take(shown) {
                    self.start_line("value");
                    write_float(value, self.out);
                    self.end_line();
                    n += 1;
                }
            }
            Kind::Int64 => {
                for value in feature.int64s().take(shown) {
                    self.start_line("value");
                    write_int(value, self.out);
                    if let Some(name) = self.out.names().and_then(|n| n.name(key, value)) {
                        self.out.extend_from_slice(b"  # ");
                        escape_str(name, self.out);
                    }
                    self.end_line();
                    n += 1;
                }
            }
        }
        if n == shown && short::longer_than(feature, shown) {
            self.more(&short::more(feature, shown));
        }
        self.close();
    }
}

/// Appends an i64 in decimal.
fn write_int(value: i64, out: &mut Vec<u8>) {
    let mut buf = StackStr::<24>::new();
    let _ = write!(buf, "{value}");
    out.extend_from_slice(buf.as_bytes());
}

// ---------------------------------------------------------------------------
// Floats
// ---------------------------------------------------------------------------

/// Appends a float32 as Python protobuf's text format prints it:
/// `str(type_checkers.ToShortestFloat(value))`, or `nan`.
pub fn write_float(value: f32, out: &mut Vec<u8>) {
    if value.is_nan() {
        out.extend_from_slice(b"nan");
    } else if value.is_infinite() {
        out.extend_from_slice(if value > 0.0 { b"inf" } else { b"-inf" });
    } else {
        let (negative, digits, exp) = shortest_float_digits(value);
        write_python_repr(negative, digits.as_bytes(), exp, out);
    }
}

/// Appends a double as Python's `str(float)` (`repr`) writes it: the
/// shortest digits that read back, `1e+16`, `1e-05`, `0.1`, `-0.0`, `inf`,
/// `nan`.
pub fn write_double(value: f64, out: &mut Vec<u8>) {
    if value.is_nan() {
        out.extend_from_slice(b"nan");
    } else if value.is_infinite() {
        out.extend_from_slice(if value > 0.0 { b"inf" } else { b"-inf" });
    } else {
        // Rust's `{:e}` gives the shortest round-trip digits: "-1.2345e-7".
        let mut text = StackStr::<40>::new();
        let _ = write!(text, "{value:e}");
        let s = text.as_str();
        let (negative, s) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let mut digits = StackStr::<40>::new();
        for c in mantissa.chars().filter(char::is_ascii_digit) {
            let _ = digits.write_char(c);
        }
        let kept = digits.as_str().trim_end_matches('0').len();
        digits.truncate(kept);
        write_python_repr(negative, digits.as_bytes(), exp, out);
    }
}

/// `ToShortestFloat`: rounds to 6, 7, ... significant digits until the
/// result reads back (as float32) to `value`. Returns the sign, the
/// significant digits without trailing zeros (empty for zero) and the
/// decimal exponent of the first digit.
fn shortest_float_digits(value: f32) -> (bool, StackStr<32>, i32) {
    let wide = f64::from(value);
    let mut text = StackStr::<32>::new();
    // Nine significant digits always identify a float32; 17 is a safe bound.
    for precision in 6..=17 {
        text.clear();
        let _ = write!(text, "{:.*e}", precision - 1, wide);
        let back: f64 = text.as_str().parse().unwrap_or(f64::NAN);
        if back as f32 == value {
            break;
        }
    }
    // `text` is like "-1.23450e-7": split sign, digits and exponent.
    let s = text.as_str();
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut digits = StackStr::<32>::new();
    for c in mantissa.chars().filter(char::is_ascii_digit) {
        let _ = digits.write_char(c);
    }
    let kept = digits.as_str().trim_end_matches('0').len();
    digits.truncate(kept);
    (negative, digits, exp)
}

/// Appends a float as Python's `repr(float)` does, given its shortest
/// digits and the decimal exponent of the first digit.
///
/// Python switches to exponent notation when the exponent is below -4 or
/// above 15, writes at least 2 exponent digits, and adds `.0` to integers.
fn write_python_repr(negative: bool, digits: &[u8], exp: i32, out: &mut Vec<u8>) {
    if negative {
        out.push(b'-');
    }
    if digits.is_empty() {
        out.extend_from_slice(b"0.0");
        return;
    }
    if !(-4..16).contains(&exp) {
        out.push(digits[0]);
        if digits.len() > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        let mut buf = StackStr::<8>::new();
        let _ = write!(buf, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
        out.extend_from_slice(buf.as_bytes());
    } else if exp < 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + (-exp - 1) as usize, b'0');
        out.extend_from_slice(digits);
    } else {
        let int_len = exp as usize + 1;
        if digits.len() > int_len {
            out.extend_from_slice(&digits[..int_len]);
            out.push(b'.');
            out.extend_from_slice(&digits[int_len..]);
        } else {
            out.extend_from_slice(digits);
            out.resize(out.len() + int_len - digits.len(), b'0');
            out.extend_from_slice(b".0");
        }
    }
}

/// A fixed-capacity string on the stack, for formatting without allocation.
struct StackStr<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> StackStr<N> {
    fn new() -> Self {
        StackStr { buf: [0; N], len: 0 }
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    fn as_str(&self) -> &str {
        // Only whole `str`s are ever appended.
        std::str::from_utf8(self.as_bytes()).unwrap_or("")
    }
}

impl<const N: usize> std::fmt::Write for StackStr<N> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let dest = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        dest.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Escaping
// ---------------------------------------------------------------------------

/// The escape of an ASCII byte, or `None` to copy it as is.
#[inline]
fn ascii_escape(b: u8) -> Option<&'static [u8]> {
    Some(match b {
        b'\n' => b"\\n",
        b'\r' => b"\\r",
        b'\t' => b"\\t",
        b'"' => b"\\\"",
        b'\'' => b"\\'",
        b'\\' => b"\\\\",
        0x20..=0x7e => return None,
        _ => return Some(&[]),
    })
}

/// Appends `b` as a 3-digit octal escape (`\ooo`).
#[inline]
fn push_octal(b: u8, out: &mut Vec<u8>) {
    out.extend_from_slice(&[b'\\', b'0' + (b >> 6), b'0' + ((b >> 3) & 7), b'0' + (b & 7)]);
}

/// C-escapes bytes as protobuf does for `bytes` fields: printable ASCII as
/// is, the usual backslash escapes, everything else as octal.
pub fn escape_bytes(bytes: &[u8], out: &mut Vec<u8>) {
    for &b in bytes {
        match ascii_escape(b) {
            None => out.push(b),
            Some([]) => push_octal(b, out),
            Some(esc) => out.extend_from_slice(esc),
        }
    }
}

/// C-escapes a UTF-8 string as protobuf does with `as_utf8=True`: ASCII as
/// [`escape_bytes`], non-ASCII characters kept.
pub fn escape_str(s: &str, out: &mut Vec<u8>) {
    for &b in s.as_bytes() {
        match ascii_escape(b) {
            _ if b >= 0x80 => out.push(b),
            None => out.push(b),
            Some([]) => push_octal(b, out),
            Some(esc) => out.extend_from_slice(esc),
        }
    }
}

/// Escapes valid UTF-8 runs as [`escape_str`] does, except that the bytes
/// of [hidden](is_hidden) characters are octal escapes, and every byte of an
/// invalid sequence as octal.
pub fn escape_utf8_lossless(bytes: &[u8], out: &mut Vec<u8>) {
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        let mut rest = valid.as_bytes();
        while let Some((&b, tail)) = rest.split_first() {
            if b < 0x80 {
                match ascii_escape(b) {
                    None => out.push(b),
                    Some([]) => push_octal(b, out),
                    Some(esc) => out.extend_from_slice(esc),
                }
                rest = tail;
                continue;
            }
            // `rest` starts at a character boundary of the valid run.
            let at = valid.len() - rest.len();
            let c = valid[at..].chars().next().unwrap_or_default();
            let (utf8, tail) = rest.split_at(c.len_utf8());
            if is_hidden(c) {
                for &b in utf8 {
                    push_octal(b, out);
                }
            } else {
                out.extend_from_slice(utf8);
            }
            rest = tail;
        }
        for &b in chunk.invalid() {
            push_octal(b, out);
        }
    }
}

/// Non-ASCII characters that print nothing visible but can act on a
/// terminal or hide and reorder text: C1 controls (U+0080..U+009F, U+009B
/// is a CSI), the soft hyphen, bidi controls (U+061C, U+200E, U+200F,
/// U+202A..U+202E, U+2066..U+2069), zero-width and other invisible format
/// characters (U+180E, U+200B..U+200D, U+2060..U+2064, U+206A..U+206F,
/// U+FEFF, U+FFF9..U+FFFB, tags U+E0000..U+E007F), and the line and
/// paragraph separators U+2028, U+2029.
fn is_hidden(c: char) -> bool {
    matches!(
        c,
        '\u{80}'..='\u{9f}'
            | '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn float(v: f32) -> String {
        let mut out = Vec::new();
        write_float(v, &mut out);
        String::from_utf8(out).unwrap()
    }

    /// (bits, what Python protobuf 7.36.2 prints), from
    /// `text_format.MessageToString(FloatList(value=[struct.unpack('<f', bits)]))`.
    const FLOATS: &[(u32, &str)] = &[
        (0x00000000, "0.0"),
        (0x80000000, "-0.0"),
        (0x3f800000, "1.0"),
        (0xbf800000, "-1.0"),
        (0x3dcccccd, "0.1"),
        (0x3eaaaaab, "0.33333334"),
        (0x402df854, "2.7182817"),
        (0x3727c5ac, "1e-05"),
        (0x38d1b717, "0.0001"),
        (0x390164ef, "0.0001234"),
        (0x3901742d, "0.00012345678"),
        (0x5a0e1bca, "1e+16"),
        (0x58635fa9, "1000000000000000.0"),
        (0x5a0e1bc9, "9999999000000000.0"),
        (0x5a5529af, "1.5e+16"),
        (0x4ceb79a3, "123456790.0"),
        (0x4b800000, "16777216.0"),
        (0x4b800001, "16777218.0"),
        (0x7f7fffff, "3.4028235e+38"),
        (0xff7fffff, "-3.4028235e+38"),
        (0x00800000, "1.1754944e-38"),
        (0x00000001, "1.4013e-45"),
        (0x007fffff, "1.1754942e-38"),
        (0x006ce3ee, "1e-38"),
        (0x3e99999a, "0.3"),
        (0x47c35040, "100000.5"),
        (0x49800004, "1048576.5"),
        (0x3a800000, "0.0009765625"),
        (0x477fe000, "65504.0"),
        (0x501502f9, "10000000000.0"),
        (0x3851b717, "5e-05"),
        (0x42f6e979, "123.456"),
        (0x3f000000, "0.5"),
        (0x33d6bf95, "1e-07"),
        (0x40490fdb, "3.1415927"),
        (0x60ad78ec, "1e+20"),
        (0x00000005, "7.00649e-45"),
        (0x00000002, "2.8026e-45"),
        (0x00000003, "4.2039e-45"),
        (0x47c34fff, "99999.99"),
        (0x497423fe, "999999.9"),
        (0x4996b438, "1234567.0"),
        (0x4b3c614e, "12345678.0"),
        (0x3f7fffef, "0.999999"),
        (0x3f7ffffe, "0.9999999"),
        (0x3f800001, "1.0000001"),
        (0x4c000000, "33554432.0"),
        (0x2edbe6ff, "1e-10"),
        (0x66ff0c2c, "6.02214e+23"),
        (0x7fc00000, "nan"),
        (0xffc00000, "nan"),
        (0x7f800001, "nan"),
        (0x7f800000, "inf"),
        (0xff800000, "-inf"),
        (0x00000001, "1.4013e-45"),
        (0x80000001, "-1.4013e-45"),
        (0x007fffff, "1.1754942e-38"),
        (0x00800000, "1.1754944e-38"),
        (0x7f7fffff, "3.4028235e+38"),
        (0x52e6b438, "495433020000.0"),
        (0xf2a74de4, "-6.6276046e+30"),
        (0x269e0d37, "1.0967034e-15"),
        (0x6513270e, "4.343177e+22"),
        (0xa6a3a450, "-1.1354934e-15"),
        (0x0c5c7fd0, "1.6986646e-31"),
        (0x128b2f33, "8.783769e-28"),
        (0xd23f0824, "-205118830000.0"),
        (0x892f902b, "-2.1132646e-33"),
        (0x1818e811, "1.9762703e-24"),
        (0x5d9dc9f8, "1.4212364e+18"),
        (0x9531985d, "-3.586506e-26"),
        (0x0ed90475, "5.3498922e-30"),
        (0xe8e25d94, "-8.5518483e+24"),
        (0x81e74ef5, "-8.4969296e-38"),
        (0x36f675cc, "7.3450847e-06"),
        (0x099950d8, "3.6909435e-33"),
        (0x1600a35a, "1.0391302e-25"),
        (0x6f03675a, "4.066748e+28"),
        (0x6b0d549b, "1.7085808e+26"),
        (0x11e20b8f, "3.5663636e-28"),
        (0x3d9c1724, "0.07621601"),
        (0x1738f7d9, "5.9766434e-25"),
        (0x8d116ece, "-4.481495e-31"),
        (0x6cad4a26, "1.6759546e+27"),
        (0x0f21ddb6, "7.980613e-30"),
        (0xd3ac94af, "-1482457700000.0"),
        (0x90c192cf, "-7.635127e-29"),
        (0x1fb17c23, "7.516778e-20"),
        (0xf28c105d, "-5.5485035e+30"),
    ];

    #[test]
    fn floats_match_python() {
        for &(bits, want) in FLOATS {
            assert_eq!(float(f32::from_bits(bits)), want, "bits {bits:#010x}");
        }
    }

    #[test]
    fn escapes() {
        let mut out = Vec::new();
        escape_bytes(b"a\"'\\\n\r\t\x00\x1f\x7f\x80\xff ~", &mut out);
        assert_eq!(out, br#"a\"\'\\\n\r\t\000\037\177\200\377 ~"#);
        out.clear();
        escape_str("é\u{80}\u{2028}\x01\"", &mut out);
        assert_eq!(out, "é\u{80}\u{2028}\\001\\\"".as_bytes());
        out.clear();
        escape_utf8_lossless(b"ok \xe2\x82 \xed\xa0\x80 \xc3\xa9\n", &mut out);
        assert_eq!(out, "ok \\342\\202 \\355\\240\\200 é\\n".as_bytes());
        out.clear();
        raw(b"", &mut Out::new(&mut out));
        assert_eq!(out, b"\"\"\n");
    }

    fn raw_text(payload: &[u8]) -> String {
        let mut out = Vec::new();
        raw(payload, &mut Out::new(&mut out));
        String::from_utf8(out).expect("raw text is UTF-8")
    }

    #[test]
    fn raw_escapes_hidden_characters_as_octal() {
        // C1 controls, U+009B (CSI) among them.
        assert_eq!(raw_text("a\u{9b}31mb".as_bytes()), "\"a\\302\\23331mb\"\n");
        assert_eq!(raw_text("\u{80}\u{9f}".as_bytes()), "\"\\302\\200\\302\\237\"\n");
        // Bidi controls.
        assert_eq!(raw_text("x\u{202e}y".as_bytes()), "\"x\\342\\200\\256y\"\n");
        for c in ('\u{202a}'..='\u{202e}').chain('\u{2066}'..='\u{2069}') {
            assert!(raw_text(c.to_string().as_bytes()).starts_with("\"\\342\\"), "{c:?}");
        }
        // Zero-width and other invisible characters, separators, the BOM.
        for (c, want) in [
            ('\u{200b}', "\\342\\200\\213"),
            ('\u{200f}', "\\342\\200\\217"),
            ('\u{2028}', "\\342\\200\\250"),
            ('\u{2029}', "\\342\\200\\251"),
            ('\u{feff}', "\\357\\273\\277"),
            ('\u{ad}', "\\302\\255"),
            ('\u{e0041}', "\\363\\240\\201\\201"),
        ] {
            assert_eq!(raw_text(c.to_string().as_bytes()), format!("\"{want}\"\n"), "{c:?}");
        }
        // Printable UTF-8 stays, next to escapes and invalid bytes.
        assert_eq!(
            raw_text("é\u{a0}€ 日本 🙂\u{200d}\n\"".as_bytes()),
            "\"é\u{a0}€ 日本 🙂\\342\\200\\215\\n\\\"\"\n"
        );
        assert_eq!(
            raw_text(b"\xff\xc2\x9b\xc2\xa9\xe2\x80"),
            "\"\\377\\302\\233©\\342\\200\"\n"
        );
        // Keys (protobuf's own text format) are unchanged.
        let mut out = Vec::new();
        escape_str("\u{9b}\u{202e}", &mut out);
        assert_eq!(out, "\u{9b}\u{202e}".as_bytes());
    }

    #[test]
    fn hidden_characters() {
        for c in [
            '\u{80}', '\u{9b}', '\u{9f}', '\u{202a}', '\u{2066}', '\u{2069}', '\u{200b}', '\u{feff}',
        ] {
            assert!(is_hidden(c), "{c:?}");
        }
        for c in [
            'a', '\u{7f}', '\u{a0}', '\u{a1}', 'é', '\u{2010}', '\u{2030}', '€', '\u{fffd}', '🙂',
        ] {
            assert!(!is_hidden(c), "{c:?}");
        }
    }
}
