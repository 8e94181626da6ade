//! The well-known types whose JSON is a string, as protobuf's Python
//! `FromJsonString` reads them: Timestamp (RFC 3339, any offset, up to 9
//! fraction digits), Duration (`"1.5s"`), FieldMask (`"a.b,cD"`).

use super::lex::J;
use super::scalar::{py_float, py_int};
use super::{Built, Set, V};
use prost_reflect::{Kind, MessageDescriptor};

/// The well-known types json_format converts by a method of their own.
pub(super) fn is_special(name: &str) -> bool {
    matches!(
        name,
        "google.protobuf.Any"
            | "google.protobuf.Duration"
            | "google.protobuf.FieldMask"
            | "google.protobuf.ListValue"
            | "google.protobuf.Struct"
            | "google.protobuf.Timestamp"
            | "google.protobuf.Value"
    )
}

/// The `google.protobuf.Value` of a Struct's `fields` map.
pub(super) fn struct_value_desc(structure: &MessageDescriptor) -> Option<MessageDescriptor> {
    let Kind::Message(entry) = structure.get_field(1)?.kind() else {
        return None;
    };
    match entry.get_field(2)?.kind() {
        Kind::Message(m) => Some(m),
        _ => None,
    }
}

fn text(v: &J, what: &str) -> Result<String, String> {
    match v {
        J::Str(s) => Ok(s.clone()),
        other => Err(format!("{} is not a {what} string", other.show())),
    }
}

/// Days from 1970-01-01 to a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A number of 1 or 2 digits (strptime's `%m`, `%d`, `%H`, ...; `%d` may
/// also be a space and a digit).
fn small(part: &str, max: i64, space: bool) -> Option<i64> {
    let p = if space {
        part.strip_prefix(' ').filter(|p| p.len() == 1).unwrap_or(part)
    } else {
        part
    };
    if p.is_empty() || p.len() > 2 || !p.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    p.parse().ok().filter(|n| *n <= max)
}

/// `%Y-%m-%dT%H:%M:%S` as Python's strptime reads it: seconds since the
/// epoch.
fn date_time(s: &str) -> Option<i64> {
    let (date, time) = s.split_once(['T'])?;
    let mut d = date.splitn(3, '-');
    let (y, m, day) = (d.next()?, d.next()?, d.next()?);
    if y.len() != 4 || !y.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (y, m, day): (i64, i64, i64) = (y.parse().ok()?, small(m, 12, false)?, small(day, 31, true)?);
    let mut t = time.splitn(3, ':');
    let (h, mi, sec) = (
        small(t.next()?, 23, false)?,
        small(t.next()?, 59, false)?,
        small(t.next()?, 59, false)?,
    );
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if y < 1 || m < 1 || day < 1 || day > month_days[(m - 1) as usize] {
        return None;
    }
    Some(days_from_civil(y, m, day) * 86_400 + h * 3600 + mi * 60 + sec)
}

/// `Timestamp.FromJsonString`.
pub(super) fn timestamp(v: &J, into: &mut Built) -> Result<(), String> {
    let value = text(v, "Timestamp")?;
    let bad = || format!("{value:?} is not an RFC 3339 time (2023-11-14T22:13:20.5Z)");
    let off = value
        .find('Z')
        .or_else(|| value.find('+'))
        .or_else(|| value.rfind('-'))
        .ok_or_else(bad)?;
    let time = &value[..off];
    let (whole, nano) = time.split_once('.').unwrap_or((time, ""));
    if whole.contains('t') || nano.len() > 9 || !nano.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let mut seconds = date_time(whole).ok_or_else(bad)?;
    let nanos: i64 = format!("{nano:0<9}").parse().map_err(|_| bad())?;
    let zone = &value[off..];
    if zone != "Z" {
        let (h, m) = zone[1..].split_once(':').ok_or_else(bad)?;
        let (h, m) = (py_int(h).ok_or_else(bad)?, py_int(m).ok_or_else(bad)?);
        let minutes = h
            .checked_mul(60)
            .and_then(|h| h.checked_add(m))
            .and_then(|t| t.checked_mul(60));
        let shift = minutes.and_then(|s| i64::try_from(s).ok()).ok_or_else(bad)?;
        seconds = match zone.as_bytes()[0] {
            b'+' => seconds.checked_sub(shift),
            b'-' => seconds.checked_add(shift),
            _ => None,
        }
        .ok_or_else(bad)?;
    }
    if !(-62_135_596_800..=253_402_300_799).contains(&seconds) {
        return Err(format!("{value:?} is outside years 1 to 9999"));
    }
    into.set(1, Set::One(V::I(seconds)));
    into.set(2, Set::One(V::I(nanos)));
    Ok(())
}

/// `Duration.FromJsonString`.
pub(super) fn duration(v: &J, into: &mut Built) -> Result<(), String> {
    let value = text(v, "Duration")?;
    let bad = || format!("{value:?} is not a duration (seconds with an \"s\": \"1.5s\")");
    let body = value.strip_suffix('s').ok_or_else(bad)?;
    let (seconds, nanos) = match body.find('.') {
        None => (py_int(body).ok_or_else(bad)?, 0),
        Some(pos) => {
            let sign = if value.starts_with('-') { "-" } else { "" };
            let frac = py_float(&format!("{sign}0{}", &body[pos..])).ok_or_else(bad)?;
            let nanos = (frac * 1e9).round_ties_even();
            if !nanos.is_finite() || nanos.abs() >= 1e18 {
                return Err(bad());
            }
            (py_int(&body[..pos]).ok_or_else(bad)?, nanos as i128)
        }
    };
    if seconds.abs() > 315_576_000_000 || nanos.abs() >= 1_000_000_000 || (seconds.signum() * nanos.signum() < 0) {
        return Err(format!(
            "{value:?} is out of range for a Duration (±315576000000s, one sign)"
        ));
    }
    into.set(1, Set::One(V::I(seconds as i64)));
    into.set(2, Set::One(V::I(nanos as i64)));
    Ok(())
}

/// `FieldMask.FromJsonString`: comma-separated paths in lowerCamelCase,
/// written in snake_case.
pub(super) fn field_mask(v: &J, into: &mut Built) -> Result<(), String> {
    let value = text(v, "FieldMask")?;
    let mut paths = Vec::new();
    if !value.is_empty() {
        for path in value.split(',') {
            if path.contains('_') {
                return Err(format!(
                    "{path:?}: a FieldMask path in JSON has no \"_\" (lowerCamelCase)"
                ));
            }
            let mut snake = String::with_capacity(path.len() + 4);
            for c in path.chars() {
                if c.is_uppercase() {
                    snake.push('_');
                    snake.extend(c.to_lowercase());
                } else {
                    snake.push(c);
                }
            }
            paths.push(V::Str(snake));
        }
    }
    into.fields.clear();
    into.set(1, Set::Many(paths));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(date_time("1970-01-01T00:00:00"), Some(0));
        assert_eq!(date_time("2023-11-14T22:13:20"), Some(1_700_000_000));
        assert_eq!(date_time("0001-01-01T00:00:00"), Some(-62_135_596_800));
        assert_eq!(date_time("9999-12-31T23:59:59"), Some(253_402_300_799));
        assert_eq!(date_time("2023-2-3T4:5:6"), date_time("2023-02-03T04:05:06"));
        assert_eq!(date_time("2023-02-29T00:00:00"), None);
        assert!(date_time("2024-02-29T00:00:00").is_some());
    }
}
