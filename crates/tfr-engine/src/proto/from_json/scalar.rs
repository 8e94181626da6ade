//! Scalars as json_format reads them (`_ConvertScalarFieldValue`): the
//! spellings Python's `int()`, `float()` and `base64.urlsafe_b64decode`
//! accept, the range checks of protobuf's setters.

use super::lex::J;
use super::V;
use prost_reflect::{EnumDescriptor, Kind, Syntax};

/// Python's `int(text)` for ASCII text: white space around, a sign, digits
/// with single underscores between them.
pub(super) fn py_int(text: &str) -> Option<i128> {
    let t = text.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b');
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return None;
    }
    let mut n: i128 = 0;
    for b in digits.bytes() {
        match b {
            b'_' => {}
            b'0'..=b'9' => n = n.checked_mul(10)?.checked_add(i128::from(b - b'0'))?,
            _ => return None,
        }
    }
    Some(if neg { -n } else { n })
}

/// Python's `float(text)`: white space around, underscores between digits,
/// `inf`, `infinity`, `nan` in any case.
pub(super) fn py_float(text: &str) -> Option<f64> {
    let t = text.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b');
    let b = t.as_bytes();
    for (i, c) in b.iter().enumerate() {
        if *c == b'_' && !(i > 0 && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            return None;
        }
    }
    let plain = t.replace('_', "");
    let body = plain.trim_start_matches(['+', '-']);
    if plain.len() - body.len() > 1 {
        return None;
    }
    let word = body.to_ascii_lowercase();
    if !matches!(word.as_str(), "inf" | "infinity" | "nan")
        && !body
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'+' || c == b'-')
    {
        return None;
    }
    plain.parse::<f64>().ok()
}

/// An integer as `_ConvertInteger` reads it (numbers, integral floats,
/// strings without spaces), before the field's range check.
fn integer(v: &J) -> Result<i128, String> {
    match v {
        J::Bool(b) => Err(format!("{} is not an integer (true/false)", b)),
        J::Num { text, float: false } => text.parse::<i128>().map_err(|_| format!("{text}: out of range")),
        J::Num { text, float: true } => integral(text.parse::<f64>().ok(), text),
        J::Str(s) if s.contains(' ') => Err(format!("{s:?} is not an integer")),
        J::Str(s) => match py_int(s) {
            Some(n) => Ok(n),
            None => integral(py_float(s), &format!("{s:?}")),
        },
        other => Err(format!("{} is not an integer", other.show())),
    }
}

fn integral(f: Option<f64>, shown: &str) -> Result<i128, String> {
    match f {
        Some(f) if f.is_finite() && f.fract() == 0.0 => {
            if f.abs() >= 1.7e38 {
                Err(format!("{shown}: out of range"))
            } else {
                Ok(f as i128)
            }
        }
        _ => Err(format!("{shown} is not an integer")),
    }
}

/// An integer field's value, range-checked for its type.
pub(super) fn int_of(kind: &Kind, v: &J) -> Result<V, String> {
    let n = integer(v)?;
    let (lo, hi, name): (i128, i128, &str) = match kind {
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => (i32::MIN.into(), i32::MAX.into(), "int32"),
        Kind::Uint32 | Kind::Fixed32 => (0, u32::MAX.into(), "uint32"),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => (i64::MIN.into(), i64::MAX.into(), "int64"),
        _ => (0, u64::MAX.into(), "uint64"),
    };
    if n < lo || n > hi {
        return Err(format!("{n} is out of range for {name}"));
    }
    Ok(if lo < 0 { V::I(n as i64) } else { V::U(n as u64) })
}

/// A float or double field's value (`_ConvertFloat`): numbers, and strings
/// as Python's `float()` reads them, with "NaN", "Infinity", "-Infinity".
pub(super) fn float_of(single: bool, v: &J) -> Result<V, String> {
    let f = match v {
        J::Num { text, float: true } => {
            let f = text.parse::<f64>().unwrap_or(f64::NAN);
            if f.is_nan() {
                return Err("NaN must be quoted (\"NaN\")".to_string());
            }
            if f.is_infinite() {
                return Err(format!("{text} is too large: quote \"Infinity\" or \"-Infinity\""));
            }
            // Python refuses anything above FLT_MAX, even the
            // 3.4028235e+38 it prints for FLT_MAX: taken here when it
            // rounds to a finite float, so to-jsonl's lines read back.
            if single && (f as f32).is_infinite() {
                return Err(format!("{text} is out of range for float"));
            }
            f
        }
        // Python's float(int): too large for a double is an error; a float
        // field takes it rounded (to infinity when that large).
        J::Num { text, .. } => {
            let f = text.parse::<f64>().unwrap_or(f64::INFINITY);
            if f.is_infinite() {
                return Err(format!("{text} is out of range for a double"));
            }
            f
        }
        // Python's float(True).
        J::Bool(b) => f64::from(u8::from(*b)),
        J::Str(s) if s == "nan" => return Err("\"nan\" is not a number: write \"NaN\"".to_string()),
        J::Str(s) => py_float(s).ok_or_else(|| format!("{s:?} is not a number"))?,
        other => return Err(format!("{} is not a number", other.show())),
    };
    Ok(if single { V::F32(f as f32) } else { V::F64(f) })
}

/// A bool field's value: `true`/`false`, or as a map key "true"/"false".
pub(super) fn bool_of(v: &J, key: bool) -> Result<V, String> {
    match v {
        J::Str(s) if key && s == "true" => Ok(V::Bool(true)),
        J::Str(s) if key && s == "false" => Ok(V::Bool(false)),
        J::Bool(b) if !key => Ok(V::Bool(*b)),
        other if key => Err(format!("{} is not \"true\" or \"false\"", other.show())),
        other => Err(format!("{} is not true or false (unquoted)", other.show())),
    }
}

/// An enum field's value: a value's name, else its number (a number or a
/// string of one); a number an open enum does not name is kept, a closed
/// (proto2) enum's is an error.
pub(super) fn enum_of(e: &EnumDescriptor, v: &J) -> Result<V, String> {
    if let J::Str(s) = v {
        if let Some(ev) = e.get_value_by_name(s) {
            return Ok(V::Enum(ev.number()));
        }
    }
    // Python's int(value).
    let n: Option<i128> = match v {
        J::Str(s) => py_int(s),
        J::Num { text, float: false } => text.parse().ok(),
        J::Num { text, float: true } => text
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite() && f.abs() < 1e38)
            .map(|f| f.trunc() as i128),
        J::Bool(b) => Some(i128::from(*b)),
        _ => None,
    };
    let bad = || format!("{} is not a value of enum {}", v.show(), e.full_name());
    let n = n.ok_or_else(bad)?;
    // Python looks the number up truncated to 32 bits (4294967297 finds
    // the value 1); a number not found is kept as it is by an open enum,
    // within int32's range.
    if let Ok(wide) = i64::try_from(n) {
        if let Some(value) = e.get_value(wide as i32) {
            return Ok(V::Enum(value.number()));
        }
    }
    if e.parent_file().syntax() == Syntax::Proto2 {
        return Err(bad());
    }
    let n = i32::try_from(n).map_err(|_| format!("{n} is out of range for enum {}", e.full_name()))?;
    Ok(V::Enum(n))
}

/// Bytes as `base64.urlsafe_b64decode(text + padding)` decodes them: both
/// alphabets, padding optional, other characters skipped, input stops at
/// enough padding (CPython's non-strict `binascii.a2b_base64`).
pub(super) fn base64(text: &str) -> Result<Vec<u8>, String> {
    let mut input: Vec<u8> = text
        .bytes()
        .map(|b| match b {
            b'-' => b'+',
            b'_' => b'/',
            b => b,
        })
        .collect();
    input.extend(std::iter::repeat_n(b'=', 4 - text.len() % 4));
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let (mut quad, mut left, mut pads) = (0u8, 0u8, 0usize);
    for b in input {
        if b == b'=' {
            pads += 1;
            if quad >= 2 && usize::from(quad) + pads >= 4 {
                return Ok(out);
            }
            continue;
        }
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        pads = 0;
        match quad {
            0 => left = v,
            1 => {
                out.push((left << 2) | (v >> 4));
                left = v & 0x0f;
            }
            2 => {
                out.push((left << 4) | (v >> 2));
                left = v & 0x03;
            }
            _ => out.push((left << 6) | v),
        }
        quad = (quad + 1) % 4;
    }
    match quad {
        0 => Ok(out),
        1 => Err(format!("{text:?} is not base64 (a character too many or too few)")),
        _ => Err(format!("{text:?} is not base64 (incorrect padding)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_int_and_float() {
        assert_eq!(py_int(" +1_000\t"), Some(1000));
        assert_eq!(py_int("1__0"), None);
        assert_eq!(py_int("0x10"), None);
        assert_eq!(py_float("1_0.5"), Some(10.5));
        assert!(py_float("-Infinity").unwrap().is_infinite());
        assert!(py_float("NaN").unwrap().is_nan());
        assert_eq!(py_float("1e400"), Some(f64::INFINITY));
        assert_eq!(py_float("0x10"), None);
        assert_eq!(py_float("1__0"), None);
    }

    #[test]
    fn base64_as_python() {
        assert_eq!(base64("-_8").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(base64("+/8=").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(base64("ab=c").unwrap(), vec![0x69, 0xb7]);
        assert_eq!(base64("").unwrap(), Vec::<u8>::new());
        assert!(base64("a").is_err());
        assert_eq!(base64("AAFiaW5hcnn/").unwrap(), b"\0\x01binary\xff");
    }
}
