//! A small protobuf wire-format reader over borrowed bytes.
//!
//! Every read is bounds-checked and reports a [`DecodeError`] with the
//! payload offset instead of panicking; lengths read from the input are only
//! ever compared against the bytes present, never used to allocate. The
//! limits follow upb (the parser behind Python protobuf): values are varints
//! of at most 10 bytes (bits past 64 dropped), tags and lengths at most 5
//! bytes with tags fitting 32 bits, field number 0 and wire types 6 and 7 are
//! errors, unknown groups are skipped whole, and messages plus groups nest at
//! most 100 deep.

use super::error::{DecodeError, DecodeErrorKind as K};

/// Maximum nesting of messages and groups below the top-level message.
pub const MAX_DEPTH: u32 = 100;

/// One decoded field value; length-delimited values borrow the input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1.
    Fixed64(u64),
    /// Wire type 2: the bytes and a reader positioned over them.
    Len(Reader<'a>),
    /// Wire type 3: a whole group, already skipped.
    Group,
    /// Wire type 5.
    Fixed32(u32),
}

/// One field of a message: number, value and the offset of its tag.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field<'a> {
    /// The field number.
    pub number: u32,
    /// Its value, by wire type.
    pub value: Value<'a>,
    /// Payload offset of the field's tag (orders fields across merged chunks).
    pub offset: usize,
}

impl<'a> Field<'a> {
    /// The nested reader if this is field `number` with wire type 2.
    #[inline]
    pub fn len_of(&self, number: u32) -> Option<Reader<'a>> {
        match self.value {
            Value::Len(r) if self.number == number => Some(r),
            _ => None,
        }
    }
}

/// A cursor over the bytes of one message.
///
/// `base` is the payload offset of `data[0]`, so errors and
/// [`Field::offset`] are positions in the whole payload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
    depth: u32,
}

impl<'a> Reader<'a> {
    /// A reader over a whole payload (the top-level message).
    pub fn new(payload: &'a [u8]) -> Self {
        Reader {
            data: payload,
            pos: 0,
            base: 0,
            depth: 0,
        }
    }

    /// A reader over `payload[start..end]` (empty if out of bounds).
    #[inline]
    pub fn span(payload: &'a [u8], (start, end): (usize, usize)) -> Self {
        let data = payload.get(start..end).unwrap_or_default();
        Reader {
            data,
            pos: 0,
            base: start,
            depth: 0,
        }
    }

    /// The bytes of this message (all of them, whatever has been read).
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// Payload offset of the first byte of this message.
    pub fn start(&self) -> usize {
        self.base
    }

    /// Payload offset of the next byte to read.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Whether every byte has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    #[cold]
    fn err(&self, kind: K) -> DecodeError {
        DecodeError::new(kind, self.base + self.pos)
    }

    #[cold]
    fn err_at(&self, kind: K, pos: usize) -> DecodeError {
        DecodeError::new(kind, self.base + pos)
    }

    /// Reads a varint of at most `max` bytes, keeping the low 64 bits.
    #[inline(always)]
    fn varint_max(&mut self, max: usize) -> Result<u64, DecodeError> {
        match self.data.get(self.pos) {
            Some(&b) if b < 0x80 => {
                self.pos += 1;
                Ok(u64::from(b))
            }
            _ => self.varint_slow(max),
        }
    }

    /// [`Self::varint_max`] for varints of two bytes or more, and errors.
    #[inline(never)]
    fn varint_slow(&mut self, max: usize) -> Result<u64, DecodeError> {
        let mut value = 0u64;
        for i in 0..max {
            let Some(&b) = self.data.get(self.pos + i) else {
                return Err(self.err(K::TruncatedVarint));
            };
            // Bits beyond 64 are dropped, as upb does for a 10th byte.
            value |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                self.pos += i + 1;
                return Ok(value);
            }
        }
        Err(self.err(K::VarintTooLong))
    }

    /// Reads a value varint (at most 10 bytes).
    #[inline]
    pub fn varint(&mut self) -> Result<u64, DecodeError> {
        self.varint_max(10)
    }

    /// Reads a little-endian fixed-size value of `N` bytes.
    #[inline]
    fn fixed<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        match self.data.get(self.pos..).and_then(<[u8]>::first_chunk::<N>) {
            Some(bytes) => {
                self.pos += N;
                Ok(*bytes)
            }
            None => Err(self.err(K::TruncatedValue)),
        }
    }

    /// Reads a little-endian `fixed32`.
    #[inline]
    pub fn fixed32(&mut self) -> Result<u32, DecodeError> {
        self.fixed::<4>().map(u32::from_le_bytes)
    }

    /// Reads a little-endian `fixed64`.
    #[inline]
    pub fn fixed64(&mut self) -> Result<u64, DecodeError> {
        self.fixed::<8>().map(u64::from_le_bytes)
    }

    /// Reads a tag: (field number, wire type).
    #[inline(always)]
    pub fn tag(&mut self) -> Result<(u32, u8), DecodeError> {
        let at = self.pos;
        let tag = self.varint_max(5)?;
        match u32::try_from(tag) {
            Ok(tag) if tag >= 8 => Ok((tag >> 3, (tag & 7) as u8)),
            Ok(_) => Err(self.err_at(K::FieldNumberZero, at)),
            Err(_) => Err(self.err_at(K::VarintTooLong, at)),
        }
    }

    /// Reads a length prefix and returns a reader over that many bytes.
    #[inline(always)]
    pub fn len_delimited(&mut self) -> Result<Reader<'a>, DecodeError> {
        let at = self.pos;
        let len = self.varint_max(5)?;
        let start = self.pos;
        let end = usize::try_from(len).ok().and_then(|len| start.checked_add(len));
        match end.and_then(|end| self.data.get(start..end)) {
            Some(data) => {
                self.pos += data.len();
                Ok(Reader {
                    data,
                    pos: 0,
                    base: self.base + start,
                    depth: self.depth,
                })
            }
            None => Err(self.err_at(K::TruncatedValue, at)),
        }
    }

    /// This reader, one level deeper, for parsing a nested message.
    #[inline]
    pub fn nested(self) -> Result<Reader<'a>, DecodeError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(K::TooDeep));
        }
        Ok(Reader {
            depth: self.depth + 1,
            ..self
        })
    }

    /// Reads a group whose start tag (field `number`, at `tag_at`) was just
    /// read: a reader over its fields (one level deeper), the end tag
    /// consumed.
    pub fn group(&mut self, number: u32, tag_at: usize) -> Result<Reader<'a>, DecodeError> {
        let start = self.pos;
        let mut end = start;
        let mut probe = *self;
        probe.skip_group_ending(number, tag_at, &mut end)?;
        self.pos = probe.pos;
        Ok(Reader {
            data: &self.data[start..end],
            pos: 0,
            base: self.base + start,
            depth: self.depth + 1,
        })
    }

    /// [`Self::skip_group`], noting where the end tag starts in `end`.
    fn skip_group_ending(&mut self, number: u32, tag_at: usize, end: &mut usize) -> Result<(), DecodeError> {
        let mut inner = self.nested()?;
        loop {
            if inner.is_empty() {
                return Err(DecodeError::new(K::UnterminatedGroup, self.base + tag_at));
            }
            let at = inner.pos;
            let (n, wire) = inner.tag()?;
            if wire == 4 {
                if n != number {
                    inner.pos = at;
                    return Err(inner.err(K::UnterminatedGroup));
                }
                *end = at;
                self.pos = inner.pos;
                return Ok(());
            }
            inner.value(n, wire, at)?;
        }
    }

    /// Skips a group whose start tag (field `number`) was just read.
    fn skip_group(&mut self, number: u32, tag_at: usize) -> Result<(), DecodeError> {
        let mut inner = self.nested()?;
        loop {
            if inner.is_empty() {
                return Err(DecodeError::new(K::UnterminatedGroup, self.base + tag_at));
            }
            let at = inner.pos;
            let (n, wire) = inner.tag()?;
            if wire == 4 {
                if n != number {
                    inner.pos = at;
                    return Err(inner.err(K::UnterminatedGroup));
                }
                self.pos = inner.pos;
                return Ok(());
            }
            inner.value(n, wire, at)?;
        }
    }

    /// Reads the value of a field whose tag (at `tag_at`) was just read.
    #[inline(always)]
    pub fn value(&mut self, number: u32, wire: u8, tag_at: usize) -> Result<Value<'a>, DecodeError> {
        match wire {
            2 => Ok(Value::Len(self.len_delimited()?)),
            0 => Ok(Value::Varint(self.varint()?)),
            5 => Ok(Value::Fixed32(self.fixed32()?)),
            _ => self.rare_value(number, wire, tag_at),
        }
    }

    /// [`Self::value`] for wire types 1, 3 (groups) and the invalid ones.
    #[inline(never)]
    fn rare_value(&mut self, number: u32, wire: u8, tag_at: usize) -> Result<Value<'a>, DecodeError> {
        match wire {
            1 => Ok(Value::Fixed64(self.fixed::<8>().map(u64::from_le_bytes)?)),
            3 => {
                self.skip_group(number, tag_at)?;
                Ok(Value::Group)
            }
            4 => Err(self.err_at(K::UnexpectedEndGroup, tag_at)),
            w => Err(self.err_at(K::InvalidWireType(w), tag_at)),
        }
    }

    /// Reads the next field's tag and, for wire type 2, its bytes; skips the
    /// value of any other wire type (returning `None` for it).
    #[inline(always)]
    pub fn next_len(&mut self) -> Result<(u32, Option<Reader<'a>>), DecodeError> {
        let at = self.pos;
        let (number, wire) = self.tag()?;
        if wire == 2 {
            return Ok((number, Some(self.len_delimited()?)));
        }
        self.value(number, wire, at)?;
        Ok((number, None))
    }

    /// Reads the next field, or `None` at the end of the message.
    #[inline(always)]
    pub fn field(&mut self) -> Result<Option<Field<'a>>, DecodeError> {
        if self.is_empty() {
            return Ok(None);
        }
        let at = self.pos;
        let (number, wire) = self.tag()?;
        let value = self.value(number, wire, at)?;
        Ok(Some(Field {
            number,
            value,
            offset: self.base + at,
        }))
    }

    /// Iterates the fields of an already validated message.
    ///
    /// Stops at the end or at the first malformed field, so it never fails
    /// (validation must have been done before).
    #[inline]
    pub fn fields(self) -> Fields<'a> {
        Fields(self)
    }
}

/// Infallible iterator over the fields of a validated message.
#[derive(Clone, Copy, Debug)]
pub struct Fields<'a>(Reader<'a>);

impl<'a> Iterator for Fields<'a> {
    type Item = Field<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Field<'a>> {
        self.0.field().ok().flatten()
    }
}

// ---------------------------------------------------------------------------
// Writing: the one varint writer every encoder uses
// ---------------------------------------------------------------------------

/// The size of `v` as a varint: 1 byte per 7 bits, at least one.
#[inline]
pub fn varint_len(v: u64) -> usize {
    (64 - (v | 1).leading_zeros() as usize).div_ceil(7)
}

/// The size of a length-delimited field (1-byte tag) with `len` bytes of content.
#[inline]
pub fn field_len(len: usize) -> usize {
    1 + varint_len(len as u64) + len
}

/// Appends `v` as a protobuf varint.
#[inline]
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a 1-byte tag and a length (the start of a length-delimited field).
#[inline]
pub fn put_tag_len(out: &mut Vec<u8>, tag: u8, len: usize) {
    out.push(tag);
    put_varint(out, len as u64);
}

/// Appends a length-delimited field: a 1-byte tag, the length, the bytes.
#[inline]
pub fn put_field(out: &mut Vec<u8>, tag: u8, bytes: &[u8]) {
    put_tag_len(out, tag, bytes.len());
    out.extend_from_slice(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_fields(bytes: &[u8]) -> Result<Vec<(u32, Value<'_>)>, DecodeError> {
        let mut r = Reader::new(bytes);
        let mut out = Vec::new();
        while let Some(f) = r.field()? {
            out.push((f.number, f.value));
        }
        Ok(out)
    }

    fn kind(bytes: &[u8]) -> (K, usize) {
        let e = all_fields(bytes).unwrap_err();
        (e.kind().clone(), e.offset())
    }

    #[test]
    fn varints() {
        let v = |b: &[u8]| Reader::new(b).varint();
        assert_eq!(v(&[0]).unwrap(), 0);
        assert_eq!(v(&[0x96, 0x01]).unwrap(), 150);
        let mut max = [0xffu8; 10];
        max[9] = 0x01;
        assert_eq!(v(&max).unwrap(), u64::MAX);
        // A 10th byte with more than the 64th bit keeps only that bit (upb).
        max[9] = 0x7f;
        assert_eq!(v(&max).unwrap(), u64::MAX);
        let mut two = [0x80u8; 10];
        two[9] = 0x02;
        assert_eq!(v(&two).unwrap(), 0);
        assert_eq!(v(&[0x80; 10]).unwrap_err().kind(), &K::VarintTooLong);
        assert_eq!(v(&[0x80, 0x80]).unwrap_err().kind(), &K::TruncatedVarint);
        assert_eq!(v(&[]).unwrap_err().kind(), &K::TruncatedVarint);
    }

    #[test]
    fn tags() {
        // Field 1, varint 5; field 2^29-1 (5-byte tag) with varint 0.
        let f = all_fields(&[0x08, 0x05, 0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00]).unwrap();
        assert_eq!(f, vec![(1, Value::Varint(5)), ((1 << 29) - 1, Value::Varint(0))]);
        // Padded 5-byte tag is fine, 6 bytes is not, nor a tag past 32 bits.
        assert!(all_fields(&[0x88, 0x80, 0x80, 0x80, 0x00, 0x00]).is_ok());
        assert_eq!(kind(&[0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00]).0, K::VarintTooLong);
        assert_eq!(kind(&[0x88, 0x80, 0x80, 0x80, 0x10, 0x00]).0, K::VarintTooLong);
        assert_eq!(kind(&[0x08, 0x01, 0x00, 0x01]), (K::FieldNumberZero, 2));
        assert_eq!(kind(&[0x0e]).0, K::InvalidWireType(6));
        assert_eq!(kind(&[0x0f]).0, K::InvalidWireType(7));
        assert_eq!(kind(&[0x0c]).0, K::UnexpectedEndGroup);
    }

    #[test]
    fn lengths_and_fixed() {
        assert_eq!(kind(&[0x0a, 0x02, 0x00]), (K::TruncatedValue, 1));
        // A huge length never allocates; it just does not fit.
        assert_eq!(kind(&[0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]).0, K::TruncatedValue);
        // Length varints are at most 5 bytes.
        assert_eq!(kind(&[0x0a, 0x81, 0x80, 0x80, 0x80, 0x80, 0x00]).0, K::VarintTooLong);
        assert_eq!(kind(&[0x0d, 0x00, 0x00, 0x00]).0, K::TruncatedValue);
        assert_eq!(kind(&[0x09, 0x00]).0, K::TruncatedValue);
        let f = all_fields(&[0x0d, 1, 0, 0, 0, 0x11, 2, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        assert_eq!(f, vec![(1, Value::Fixed32(1)), (2, Value::Fixed64(2))]);
        let payload = [0x12, 0x02, 0x08, 0x01];
        let f = Reader::new(&payload).field().unwrap().unwrap();
        let inner = f.len_of(2).unwrap();
        assert_eq!((inner.bytes(), inner.start()), (&[0x08u8, 0x01][..], 2));
    }

    #[test]
    fn groups() {
        assert_eq!(all_fields(&[0x1b, 0x08, 0x01, 0x1c]).unwrap(), vec![(3, Value::Group)]);
        assert_eq!(kind(&[0x1b, 0x08, 0x01, 0x24]).0, K::UnterminatedGroup);
        assert_eq!(kind(&[0x1b, 0x08, 0x01]).0, K::UnterminatedGroup);
        let nest = |d: usize| [vec![0x1b; d], vec![0x1c; d]].concat();
        assert!(all_fields(&nest(100)).is_ok());
        assert_eq!(kind(&nest(101)).0, K::TooDeep);
    }
}
