//! `--records LIST`: record numbers and inclusive ranges (`17,1000-1010`),
//! and the listed records handed on as the reader hands records (payload
//! type settled per input, `--where` applied to each).

use super::{Located, Records};
use crate::error::Result;
use crate::example::{Decoder, MessageType, Where};
use crate::pipeline::batches;
use std::ops::RangeInclusive;

/// The most numbers and ranges a list holds.
const MAX_ITEMS: usize = 1 << 16;

/// Parses `17,1000-1010` (0-based numbers, inclusive ranges, in the order
/// given; repeats allowed).
pub fn parse_list(text: &str) -> std::result::Result<Vec<RangeInclusive<u64>>, String> {
    let number = |s: &str| {
        let s = s.trim();
        match !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            true => s
                .parse::<u64>()
                .map_err(|_| format!("{s} is too large a record number")),
            false => Err(format!("'{s}' is not a record number (0, 1, 2, …)")),
        }
    };
    let mut list = Vec::new();
    for item in text.split(',') {
        let range = match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if b < a {
                    return Err(format!("{a}-{b} ends before it starts"));
                }
                a..=b
            }
            None => {
                let n = number(item)?;
                n..=n
            }
        };
        list.push(range);
        if list.len() > MAX_ITEMS {
            return Err(format!("more than {MAX_ITEMS} numbers and ranges"));
        }
    }
    Ok(list)
}

/// One listed record as the reader hands it.
pub type EachListed<'a> = dyn FnMut(&mut Decoder, &batches::Record<'_>) -> Result<()> + 'a;

impl Records {
    /// Hands `each` the records `list` names, in its order: checked against
    /// the number of records first (nothing is read when one is past the
    /// end). The payload type is `ty`, else what each input's first record
    /// is (as the reader settles it; decoded strictly); with `filter`, only
    /// the listed records it keeps.
    pub fn each_listed(
        &self,
        list: &[RangeInclusive<u64>],
        ty: Option<MessageType>,
        filter: Option<&Where>,
        each: &mut EachListed<'_>,
    ) -> Result<()> {
        if let Some(last) = list.iter().map(|r| *r.end()).max() {
            if last >= self.len() {
                return Err(self.past_end(last));
            }
        }
        let mut decoder = Decoder::default();
        for range in list {
            let (start, end) = (*range.start(), range.end().saturating_add(1));
            self.read_range(start, end, &mut |_, at: &Located, payload| {
                let t = match ty {
                    Some(t) => t,
                    None => self.input_type(at.input)?,
                };
                let name = self.name(at.input);
                let r = batches::Record {
                    payload,
                    index: at.record,
                    offset: at.offset,
                    input: at.input as u32,
                    name,
                    ty: t,
                    strict: ty.is_none(),
                    crc: None,
                };
                if let Some(f) = filter {
                    if !batches::keeps(f, &mut decoder, &r)? {
                        return Ok(());
                    }
                }
                each(&mut decoder, &r)
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::parse_list;

    #[test]
    fn lists_parse_strictly() {
        assert_eq!(parse_list("17,1000-1010"), Ok(vec![17..=17, 1000..=1010]));
        assert_eq!(parse_list("5, 3 ,3-3"), Ok(vec![5..=5, 3..=3, 3..=3]));
        for bad in ["", "1,", "-3", "a", "3-1", "1-", "+1", "99999999999999999999999"] {
            assert!(parse_list(bad).is_err(), "{bad}");
        }
    }
}
