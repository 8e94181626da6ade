//! A decoded message in protobuf's JSON mapping, byte for byte as Python's
//! `json_format.MessageToJson(msg, preserving_proto_field_name=True,
//! indent=None)` writes it: the fields Python lists (number order; proto3
//! fields without presence left out at zero), names as in the .proto,
//! `", "` and `": "` separators, ASCII-only strings; 64-bit integers as
//! strings, floats as Python's shortest repr (`"NaN"`, `"Infinity"`),
//! bytes as base64, enums by name (an unknown number of an open enum as
//! the number), maps as objects sorted by key (Python's order is its hash
//! table's, which changes from run to run); the
//! well-known types in their own forms (Timestamp and Duration as strings,
//! wrappers as their value, Any with `"@type"` first, FieldMask, Struct,
//! Value and ListValue as JSON).

use super::decode::{default_of, is_zero, Msg, Slot, Val};
use super::field::Field;
use crate::example::json::render::ascii_json_string;
use crate::example::text::{write_double, write_float};
use base64::Engine as _;
use prost_reflect::{DescriptorPool, Kind};

/// Appends `msg` as one JSON value; `pool` resolves the types of Any.
pub fn message(msg: &Msg, pool: &DescriptorPool, out: &mut Vec<u8>) -> Result<(), String> {
    let name = msg.desc.full_name();
    if let Some(rest) = name.strip_prefix("google.protobuf.") {
        if let Some(done) = well_known(rest, msg, pool, out)? {
            return Ok(done);
        }
    }
    out.push(b'{');
    fields(msg, pool, false, out)?;
    out.push(b'}');
    Ok(())
}

/// The fields of `msg` as `"name": value` pairs (`more`: pairs were
/// written before them).
fn fields(msg: &Msg, pool: &DescriptorPool, mut more: bool, out: &mut Vec<u8>) -> Result<(), String> {
    for (field, slot) in msg.fields.values() {
        if let Slot::One(v) = slot {
            if !field.supports_presence() && is_zero(v) {
                continue;
            }
        }
        if more {
            out.extend_from_slice(b", ");
        }
        more = true;
        ascii_json_string(&field.printed_name(), out);
        out.extend_from_slice(b": ");
        match slot {
            Slot::One(v) => value(field, v, pool, out)?,
            Slot::List(values) => {
                out.push(b'[');
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(b", ");
                    }
                    value(field, v, pool, out)?;
                }
                out.push(b']');
            }
            Slot::Map(entries) => {
                let Kind::Message(entry) = field.kind() else { continue };
                let vf = Field::Plain(entry.map_entry_value_field());
                // Python's order is its hash table's, different each run:
                // tfr sorts by key, as the text format does.
                let mut sorted: Vec<&(Val, Val)> = entries.iter().collect();
                sorted.sort_by(|a, b| super::text::key_order(&a.0, &b.0));
                out.push(b'{');
                for (i, (k, v)) in sorted.into_iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(b", ");
                    }
                    let key = match k {
                        Val::Bool(b) => b.to_string(),
                        Val::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
                        other => number_text(other),
                    };
                    ascii_json_string(&key, out);
                    out.extend_from_slice(b": ");
                    value(&vf, v, pool, out)?;
                }
                out.push(b'}');
            }
        }
    }
    Ok(())
}

/// An integer as decimal text.
fn number_text(v: &Val) -> String {
    match v {
        Val::I32(x) => x.to_string(),
        Val::I64(x) => x.to_string(),
        Val::U32(x) => x.to_string(),
        Val::U64(x) => x.to_string(),
        Val::Enum(x) => x.to_string(),
        _ => String::new(),
    }
}

/// One value of `field`.
fn value(field: &Field, v: &Val, pool: &DescriptorPool, out: &mut Vec<u8>) -> Result<(), String> {
    match v {
        Val::I32(_) | Val::U32(_) => out.extend_from_slice(number_text(v).as_bytes()),
        Val::I64(_) | Val::U64(_) => {
            out.push(b'"');
            out.extend_from_slice(number_text(v).as_bytes());
            out.push(b'"');
        }
        Val::F32(x) if x.is_finite() => write_float(*x, out),
        Val::F64(x) if x.is_finite() => write_double(*x, out),
        Val::F32(_) | Val::F64(_) => {
            let x = match v {
                Val::F32(x) => f64::from(*x),
                Val::F64(x) => *x,
                _ => 0.0,
            };
            out.extend_from_slice(match (x.is_nan(), x > 0.0) {
                (true, _) => b"\"NaN\"",
                (false, true) => b"\"Infinity\"",
                (false, false) => b"\"-Infinity\"",
            });
        }
        Val::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Val::Bytes(b) if field.kind() == Kind::Bytes => {
            out.push(b'"');
            out.extend_from_slice(base64::engine::general_purpose::STANDARD.encode(b).as_bytes());
            out.push(b'"');
        }
        Val::Bytes(b) => ascii_json_string(&String::from_utf8_lossy(b), out),
        Val::Enum(n) => match field.kind() {
            Kind::Enum(e) if e.full_name() == "google.protobuf.NullValue" => out.extend_from_slice(b"null"),
            Kind::Enum(e) => match e.get_value(*n) {
                Some(ev) => ascii_json_string(ev.name(), out),
                None => out.extend_from_slice(n.to_string().as_bytes()),
            },
            _ => out.extend_from_slice(n.to_string().as_bytes()),
        },
        Val::Msg(m) => message(m, pool, out)?,
    }
    Ok(())
}

/// The value of field `number` of `msg`, or its default.
fn get(msg: &Msg, number: u32) -> Option<Val> {
    match msg.fields.get(&number) {
        Some((_, Slot::One(v))) => Some(v.clone()),
        _ => msg.desc.get_field(number).map(|f| default_of(&Field::Plain(f))),
    }
}

/// A well-known type in its own JSON form; `None` for the others.
fn well_known(name: &str, msg: &Msg, pool: &DescriptorPool, out: &mut Vec<u8>) -> Result<Option<()>, String> {
    let wrapper = matches!(
        name,
        "DoubleValue"
            | "FloatValue"
            | "Int64Value"
            | "UInt64Value"
            | "Int32Value"
            | "UInt32Value"
            | "BoolValue"
            | "StringValue"
            | "BytesValue"
    );
    if wrapper {
        let field = Field::Plain(msg.desc.get_field(1).ok_or("a wrapper without its value")?);
        let v = get(msg, 1).unwrap_or(Val::I32(0));
        value(&field, &v, pool, out)?;
        return Ok(Some(()));
    }
    match name {
        "Timestamp" => timestamp(msg, out)?,
        "Duration" => duration(msg, out)?,
        "Any" => any(msg, pool, out)?,
        "Struct" => structure(msg, pool, out)?,
        "Value" => json_value(msg, pool, out)?,
        "ListValue" => list_value(msg, pool, out)?,
        "FieldMask" => {
            let paths: Vec<String> = match msg.fields.get(&1) {
                Some((_, Slot::List(v))) => v
                    .iter()
                    .map(|p| match p {
                        Val::Bytes(b) => camel(&String::from_utf8_lossy(b)),
                        _ => String::new(),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            ascii_json_string(&paths.join(","), out);
        }
        _ => return Ok(None),
    }
    Ok(Some(()))
}

/// A Struct: its `fields` map as an object (keys sorted, as maps are).
fn structure(msg: &Msg, pool: &DescriptorPool, out: &mut Vec<u8>) -> Result<(), String> {
    let mut entries: Vec<&(Val, Val)> = match msg.fields.get(&1) {
        Some((_, Slot::Map(e))) => e.iter().collect(),
        _ => Vec::new(),
    };
    entries.sort_by(|a, b| super::text::key_order(&a.0, &b.0));
    out.push(b'{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        let key = match k {
            Val::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
            _ => String::new(),
        };
        ascii_json_string(&key, out);
        out.extend_from_slice(b": ");
        match v {
            Val::Msg(m) => json_value(m, pool, out)?,
            _ => out.extend_from_slice(b"null"),
        }
    }
    out.push(b'}');
    Ok(())
}

/// A Value: its kind as JSON (none set, or null_value: `null`); a number
/// that is not finite cannot be written (Python raises).
fn json_value(msg: &Msg, pool: &DescriptorPool, out: &mut Vec<u8>) -> Result<(), String> {
    let Some((number, (_, Slot::One(v)))) = msg.fields.iter().next() else {
        out.extend_from_slice(b"null");
        return Ok(());
    };
    match (number, v) {
        (2, Val::F64(x)) if !x.is_finite() => {
            return Err(format!("Value.number_value {x} has no JSON form (Python raises too)"));
        }
        (2, Val::F64(x)) => write_double(*x, out),
        (3, Val::Bytes(b)) => ascii_json_string(&String::from_utf8_lossy(b), out),
        (4, Val::Bool(b)) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        (5, Val::Msg(m)) => structure(m, pool, out)?,
        (6, Val::Msg(m)) => list_value(m, pool, out)?,
        _ => out.extend_from_slice(b"null"),
    }
    Ok(())
}

/// A ListValue: its values as an array.
fn list_value(msg: &Msg, pool: &DescriptorPool, out: &mut Vec<u8>) -> Result<(), String> {
    out.push(b'[');
    if let Some((_, Slot::List(values))) = msg.fields.get(&1) {
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            match v {
                Val::Msg(m) => json_value(m, pool, out)?,
                _ => out.extend_from_slice(b"null"),
            }
        }
    }
    out.push(b']');
    Ok(())
}

/// FieldMask's path in lowerCamelCase, as Python converts it.
fn camel(path: &str) -> String {
    let mut s = String::new();
    let mut up = false;
    for c in path.chars() {
        match (c, up) {
            ('_', _) => up = true,
            (c, true) => {
                s.extend(c.to_uppercase());
                up = false;
            }
            (c, false) => s.push(c),
        }
    }
    s
}

fn int_of(v: Option<Val>) -> i64 {
    match v {
        Some(Val::I64(x)) => x,
        Some(Val::I32(x)) => i64::from(x),
        _ => 0,
    }
}

/// Nanoseconds as Python writes them: none, 3, 6 or 9 digits.
fn fraction(nanos: i64, out: &mut String) {
    if nanos % 1_000_000_000 == 0 {
    } else if nanos % 1_000_000 == 0 {
        out.push_str(&format!(".{:03}", nanos / 1_000_000));
    } else if nanos % 1_000 == 0 {
        out.push_str(&format!(".{:06}", nanos / 1_000));
    } else {
        out.push_str(&format!(".{nanos:09}"));
    }
}

/// A Timestamp: `1970-01-01T00:00:00Z`, the fraction as Python writes it.
fn timestamp(msg: &Msg, out: &mut Vec<u8>) -> Result<(), String> {
    let (seconds, nanos) = (int_of(get(msg, 1)), int_of(get(msg, 2)));
    // Timestamp's valid range: years 0001 to 9999.
    if !(-62_135_596_800..=253_402_300_799).contains(&seconds) || !(0..1_000_000_000).contains(&nanos) {
        return Err(format!("Timestamp is not valid: seconds {seconds}, nanos {nanos}"));
    }
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    let (y, m, d) = civil(days);
    let mut s = format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
    fraction(nanos, &mut s);
    s.push('Z');
    ascii_json_string(&s, out);
    Ok(())
}

/// The proleptic Gregorian date of a day count from 1970-01-01.
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A Duration: `1.5s`, `-0.000001s`.
fn duration(msg: &Msg, out: &mut Vec<u8>) -> Result<(), String> {
    let (seconds, nanos) = (int_of(get(msg, 1)), int_of(get(msg, 2)));
    let valid = (-315_576_000_000..=315_576_000_000).contains(&seconds)
        && (-999_999_999..=999_999_999).contains(&nanos)
        && !(seconds > 0 && nanos < 0 || seconds < 0 && nanos > 0);
    if !valid {
        return Err(format!("Duration is not valid: seconds {seconds}, nanos {nanos}"));
    }
    let negative = seconds < 0 || nanos < 0;
    let mut s = String::from(if negative { "-" } else { "" });
    s.push_str(&seconds.unsigned_abs().to_string());
    fraction(nanos.abs(), &mut s);
    s.push('s');
    ascii_json_string(&s, out);
    Ok(())
}

/// An Any: `{"@type": URL, ...the packed message's fields}` (a well-known
/// type's form under `"value"`), `{}` when empty.
fn any(msg: &Msg, pool: &DescriptorPool, out: &mut Vec<u8>) -> Result<(), String> {
    if msg
        .fields
        .values()
        .all(|(f, s)| matches!(s, Slot::One(v) if !f.supports_presence() && is_zero(v)))
    {
        out.extend_from_slice(b"{}");
        return Ok(());
    }
    let url = match get(msg, 1) {
        Some(Val::Bytes(b)) => String::from_utf8_lossy(&b).into_owned(),
        _ => String::new(),
    };
    let packed = match get(msg, 2) {
        Some(Val::Bytes(b)) => b,
        _ => Vec::new(),
    };
    let type_name = url.rsplit('/').next().unwrap_or("");
    let desc = pool
        .get_message_by_name(type_name)
        .ok_or_else(|| format!("Any of type {url:?}: no such message in the descriptors given"))?;
    let inner = Msg::decode(&desc, &packed).map_err(|e| format!("Any of type {url:?}: {e}"))?;
    out.extend_from_slice(b"{\"@type\": ");
    ascii_json_string(&url, out);
    if desc.full_name().starts_with("google.protobuf.") {
        let mut v = Vec::new();
        if well_known(&desc.full_name()["google.protobuf.".len()..], &inner, pool, &mut v)?.is_some() {
            out.extend_from_slice(b", \"value\": ");
            out.extend_from_slice(&v);
            out.push(b'}');
            return Ok(());
        }
    }
    fields(&inner, pool, true, out)?;
    out.push(b'}');
    Ok(())
}
