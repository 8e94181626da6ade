//! Brace notation in input names, as WebDataset and the shell write shard
//! lists: `laion-{000..009}.tar` (a range, zero-padded to its widest end),
//! `{train,valid}.tfrecord` (alternatives), `{0..100..10}` (a step) and
//! `{a..e}` (letters), nested and several in one name, expanded in order
//! (not sorted). A `{` that opens neither (`{}`, `{x}`) is kept as
//! written, so is any name that exists as given.

/// Names one argument expands into at the most (a typo such as
/// `{0..999999999}` is refused, not expanded into memory).
pub const MAX_NAMES: usize = 100_000;

/// The bytes of all the names one argument expands into, at the most.
const MAX_BYTES: usize = 16 << 20;

/// Groups expanded one inside or after another in one name, at the most
/// (each is a level of recursion).
const MAX_GROUPS: usize = 256;
/// The names `name` expands into (itself when it has no braces), or an
/// error when they would be more than [`MAX_NAMES`].
pub fn expand(name: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    if !name.contains(&b'{') {
        out.push(name.to_vec());
        return Ok(out);
    }
    let mut bytes = 0;
    expand_into(name, 0, 0, &mut out, &mut bytes)?;
    Ok(out)
}

/// Expands the first group at or after `from` in `s`, and so on
/// recursively, appending the results to `out`.
fn expand_into(s: &[u8], from: usize, depth: usize, out: &mut Vec<Vec<u8>>, bytes: &mut usize) -> Result<(), String> {
    if depth > MAX_GROUPS {
        return Err(format!("has more than {MAX_GROUPS} brace groups in a row or nested"));
    }
    let mut i = from;
    while i < s.len() {
        if s[i] == b'{' {
            let Some(close) = matching(s, i) else {
                break;
            };
            if let Some(alternatives) = group(&s[i + 1..close])? {
                for alt in alternatives {
                    let mut next = Vec::with_capacity(s.len() + alt.len());
                    next.extend_from_slice(&s[..i]);
                    next.extend_from_slice(&alt);
                    next.extend_from_slice(&s[close + 1..]);
                    // The alternative may hold groups of its own.
                    expand_into(&next, i, depth + 1, out, bytes)?;
                }
                return Ok(());
            }
        }
        i += 1;
    }
    if out.len() >= MAX_NAMES {
        return Err(format!("expands into more than {MAX_NAMES} names"));
    }
    *bytes += s.len();
    if *bytes > MAX_BYTES {
        return Err(format!("expands into names of more than {} MiB", MAX_BYTES >> 20));
    }
    out.push(s.to_vec());
    Ok(())
}

/// The `}` that closes the `{` at `open`.
fn matching(s: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in s.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// What a group's contents stand for: its alternatives (split at the
/// commas outside nested groups) or its range; `None` for neither.
fn group(inner: &[u8]) -> Result<Option<Vec<Vec<u8>>>, String> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, &b) in inner.iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                parts.push(inner[start..i].to_vec());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !parts.is_empty() {
        parts.push(inner[start..].to_vec());
        return Ok(Some(parts));
    }
    range(inner)
}

/// `N..M[..STEP]` (integers, zero-padded when an end is) or `a..e`.
fn range(inner: &[u8]) -> Result<Option<Vec<Vec<u8>>>, String> {
    let Ok(text) = std::str::from_utf8(inner) else {
        return Ok(None);
    };
    let ends: Vec<&str> = text.split("..").collect();
    if !(2..=3).contains(&ends.len()) {
        return Ok(None);
    }
    let step = match ends.get(2) {
        Some(s) => match s.parse::<i64>() {
            Ok(0) | Err(_) => return Ok(None),
            Ok(n) => n.unsigned_abs(),
        },
        None => 1,
    };
    let (a, b) = (ends[0], ends[1]);
    let number = |s: &str| {
        let digits = s.strip_prefix('-').unwrap_or(s);
        !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
    };
    if number(a) && number(b) && (a.parse::<i64>().is_err() || b.parse::<i64>().is_err()) {
        return Err(format!("{{{text}}}: a range end beyond 64-bit integers"));
    }
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let padded = |s: &str| s.trim_start_matches('-').len() > 1 && s.trim_start_matches('-').starts_with('0');
        let width = if padded(a) || padded(b) {
            a.len().max(b.len())
        } else {
            0
        };
        let count = x.abs_diff(y) / step + 1;
        if count > MAX_NAMES as u64 {
            return Err(format!("{{{text}}} stands for {count} names, more than {MAX_NAMES}"));
        }
        let down = y < x;
        let names = (0..count)
            .map(|k| {
                let offset = (k * step) as i128;
                let v = if down {
                    i128::from(x) - offset
                } else {
                    i128::from(x) + offset
                };
                format!("{v:0width$}").into_bytes()
            })
            .collect();
        return Ok(Some(names));
    }
    let letter = |s: &str| (s.len() == 1 && s.as_bytes()[0].is_ascii_alphabetic()).then(|| s.as_bytes()[0]);
    // Letters of one case (from Z to a lie `[`, `\`, ...).
    let same_case = |x: u8, y: u8| x.is_ascii_lowercase() == y.is_ascii_lowercase();
    if let (Some(x), Some(y)) = (letter(a), letter(b)) {
        if !same_case(x, y) {
            return Ok(None);
        }
        let (lo, hi) = (x.min(y), x.max(y));
        let mut names: Vec<Vec<u8>> = (lo..=hi).step_by(step as usize).map(|c| vec![c]).collect();
        if y < x {
            names.reverse();
        }
        return Ok(Some(names));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Vec<String> {
        expand(s.as_bytes())
            .unwrap()
            .into_iter()
            .map(|n| String::from_utf8(n).unwrap())
            .collect()
    }

    #[test]
    fn ranges_are_padded_as_written() {
        assert_eq!(
            names("laion-{000..003}.tar"),
            ["laion-000.tar", "laion-001.tar", "laion-002.tar", "laion-003.tar"]
        );
        assert_eq!(names("s{8..11}"), ["s8", "s9", "s10", "s11"]);
        assert_eq!(names("s{3..1}"), ["s3", "s2", "s1"]);
        assert_eq!(names("{0..10..5}"), ["0", "5", "10"]);
        assert_eq!(names("{a..c}"), ["a", "b", "c"]);
    }

    #[test]
    fn alternatives_nest_and_multiply_in_order() {
        assert_eq!(names("{train,valid}.tfrecord"), ["train.tfrecord", "valid.tfrecord"]);
        assert_eq!(
            names("{a,b{1..2}}-{x,y}"),
            ["a-x", "a-y", "b1-x", "b1-y", "b2-x", "b2-y"]
        );
        assert_eq!(names("{,.gz}"), ["", ".gz"]);
    }

    #[test]
    fn what_is_not_a_group_stays() {
        for s in ["{}", "{x}", "a{b", "a}b", "{1..}", "{1..2..0}", "{a..bb}", "plain"] {
            assert_eq!(names(s), [s]);
        }
        assert_eq!(names("{x}{1..2}"), ["{x}1", "{x}2"]);
    }

    #[test]
    fn too_many_names_is_an_error() {
        assert!(expand(b"{0..999999999999}").unwrap_err().contains("more than 100000"));
        let many = "{0,1}".repeat(20);
        assert!(expand(many.as_bytes()).unwrap_err().contains("more than 100000"));
        assert_eq!(expand(b"{-2..2}").unwrap().len(), 5);
        let deep = format!("{}b{}", "{a,".repeat(15_000), "}".repeat(15_000));
        assert!(expand(deep.as_bytes()).unwrap_err().contains("brace groups"));
        let long = format!("{}{{0..99999}}", "A".repeat(20_000));
        assert!(expand(long.as_bytes()).unwrap_err().contains("MiB"));
        assert!(expand(b"{0..99999999999999999999}").unwrap_err().contains("64-bit"));
        assert_eq!(expand(b"{Z..a}").unwrap(), [b"{Z..a}".to_vec()]);
    }
}
