//! Per-batch findings of `tfr validate` (what the records showed about
//! each schema feature), their merge, and the report made of them.

use super::*;

// ---------------------------------------------------------------------------
// Per-batch findings
// ---------------------------------------------------------------------------

/// One anomaly kind of one feature within some records.
#[derive(Clone, Debug)]
pub(super) struct Tally {
    pub(super) kind: AnomalyKind,
    pub(super) records: u64,
    pub(super) first: Loc,
    pub(super) detail: String,
    /// The record stamp last counted (a record counts once).
    pub(super) stamp: u64,
}

/// What the records of a batch showed about one schema feature.
#[derive(Clone, Debug, Default)]
pub(super) struct FeatureFound {
    pub(super) present: u64,
    /// Records holding the key only as a `Feature {}` with no kind set
    /// (missing to TFDV, but named in its statistics).
    pub(super) empty: u64,
    pub(super) first_empty: Option<Loc>,
    pub(super) first_missing: Option<Loc>,
    /// Values of the feature (bytes, for the string domain's share) and
    /// those outside the domain.
    pub(super) values: u64,
    pub(super) off_domain: u64,
    pub(super) tallies: Vec<Tally>,
    /// The first record holding it.
    pub(super) first_present: Option<Loc>,
    /// Its distinct values (with `unique_constraints`), at most
    /// [`MAX_UNIQUE`]; whether values TFDV counts were seen; whether more
    /// distinct values than that were seen.
    pub(super) uniq: HashSet<Box<[u8]>>,
    pub(super) uniq_counted: bool,
    pub(super) uniq_overflow: bool,
    /// The longest bytes value (with `image_domain.max_image_byte_size`).
    pub(super) max_bytes: u64,
    /// Scratch: the record stamp when last seen / present, and the entry
    /// position of the last occurrence.
    pub(super) seen: u64,
    pub(super) present_stamp: u64,
    pub(super) pos: u32,
}

/// A feature not in the schema.
#[derive(Clone, Debug)]
pub(super) struct NewFound {
    pub(super) name: Box<str>,
    pub(super) records: u64,
    pub(super) first: Loc,
    pub(super) seen: u64,
    pub(super) pos: u32,
}

/// The findings of some records (one batch, or the merge of all so far).
#[derive(Debug, Default)]
pub struct Found {
    pub(super) records: u64,
    pub(super) per_input: Vec<u64>,
    pub(super) features: Vec<FeatureFound>,
    pub(super) new: Vec<NewFound>,
    pub(super) new_index: HashMap<Box<str>, u32>,
    pub(super) new_untracked: bool,
    /// The records' annotations (when they are checked).
    pub(super) annotations: crate::annotate::check::Tally,
    /// The sparse and weighted features' findings.
    pub(super) comps: super::sparse::Found,
    /// Scratch: a stamp per record, the slot of each entry position of the
    /// previous record, and one record's entries.
    pub(super) stamp: u64,
    pub(super) cache: Vec<u32>,
    pub(super) buf: Vec<(u32, u32, FeatureView<'static>)>,
}

/// Distinct values kept per feature with `unique_constraints`.
pub(super) const MAX_UNIQUE: usize = 1_000_000;

/// A slot: schema features first, then new names (`u32::MAX`: untracked).
const UNTRACKED: u32 = u32::MAX;

impl pipeline::Output for Found {
    fn is_empty(&self) -> bool {
        self.records == 0
    }

    fn clear(&mut self) {
        self.records = 0;
        self.per_input.clear();
        self.features.clear();
        self.new.clear();
        self.new_index.clear();
        self.new_untracked = false;
        self.annotations = crate::annotate::check::Tally::default();
        self.comps.clear();
        self.stamp = 0;
        self.cache.clear();
        self.buf.clear();
    }
}

impl FeatureFound {
    /// Counts `kind` at `at` (once per record); `detail` is called only for
    /// the first occurrence.
    #[inline]
    fn hit(&mut self, kind: AnomalyKind, at: Loc, stamp: u64, detail: impl FnOnce() -> String) {
        match self.tallies.iter_mut().find(|t| t.kind == kind) {
            Some(t) => {
                if t.stamp != stamp {
                    t.stamp = stamp;
                    t.records += 1;
                }
            }
            None => self.tallies.push(Tally {
                kind,
                records: 1,
                first: at,
                detail: detail(),
                stamp,
            }),
        }
    }

    fn merge(&mut self, o: &FeatureFound) {
        self.present += o.present;
        self.empty += o.empty;
        self.first_empty = earliest(self.first_empty, o.first_empty);
        self.first_missing = earliest(self.first_missing, o.first_missing);
        self.values += o.values;
        self.off_domain += o.off_domain;
        self.first_present = earliest(self.first_present, o.first_present);
        self.max_bytes = self.max_bytes.max(o.max_bytes);
        self.uniq_counted |= o.uniq_counted;
        self.uniq_overflow |= o.uniq_overflow;
        for v in &o.uniq {
            if self.uniq.len() >= MAX_UNIQUE {
                self.uniq_overflow = true;
                break;
            }
            self.uniq.insert(v.clone());
        }
        for t in &o.tallies {
            match self.tallies.iter_mut().find(|s| s.kind == t.kind) {
                Some(s) => {
                    s.records += t.records;
                    if t.first < s.first {
                        s.first = t.first;
                        s.detail = t.detail.clone();
                    }
                }
                None => self.tallies.push(t.clone()),
            }
        }
    }
}

/// An empty vector of `T<'static>` from one of `T<'a>`, keeping its
/// allocation (the vector is emptied first; nothing is converted).
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}

pub(super) fn earliest(a: Option<Loc>, b: Option<Loc>) -> Option<Loc> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

pub(super) fn float_text(v: f32) -> String {
    let mut out = Vec::new();
    example::text::write_float(v, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn bytes_text(v: &[u8]) -> String {
    let shown = &v[..v.len().min(64)];
    let mut out = Vec::new();
    example::text::escape_bytes(shown, &mut out);
    let more = if v.len() > 64 { "..." } else { "" };
    format!("\"{}{more}\"", String::from_utf8_lossy(&out))
}

impl Found {
    /// Checks the features of one record (`None`: an empty record).
    pub(super) fn record(&mut self, ck: &Checker, features: Option<FeaturesView<'_>>, at: Loc) {
        self.count(at);
        self.comps.record(&ck.components, features, at);
        if self.features.len() < ck.rules.len() {
            self.features.resize(ck.rules.len(), FeatureFound::default());
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let n_rules = ck.rules.len() as u32;
        let mut present = 0usize;
        if let Some(fv) = features {
            // Slots of the entries; a key given twice counts with its last occurrence.
            let mut buf: Vec<(u32, u32, FeatureView<'_>)> = recycle(std::mem::take(&mut self.buf));
            let mut dups = false;
            for (pos, (key, value)) in fv.entries().enumerate() {
                let slot = self.intern(ck, pos, key, at);
                if slot == UNTRACKED {
                    continue;
                }
                let (seen, p) = if slot < n_rules {
                    let f = &mut self.features[slot as usize];
                    (&mut f.seen, &mut f.pos)
                } else {
                    let f = &mut self.new[(slot - n_rules) as usize];
                    (&mut f.seen, &mut f.pos)
                };
                dups |= *seen == stamp;
                *seen = stamp;
                *p = pos as u32;
                buf.push((slot, pos as u32, value));
            }
            for (slot, pos, f) in &buf {
                let (slot, pos) = (*slot, *pos);
                if slot >= n_rules {
                    let n = &mut self.new[(slot - n_rules) as usize];
                    // A key only as an empty Feature is still a new column
                    // to TFDV (its statistics name it).
                    if dups && n.pos != pos {
                        continue;
                    }
                    if n.records == 0 {
                        n.first = at;
                    }
                    n.records += 1;
                    continue;
                }
                let ff = &mut self.features[slot as usize];
                if dups && ff.pos != pos {
                    continue;
                }
                if f.kind() == Kind::None {
                    ff.empty += 1;
                    ff.first_empty.get_or_insert(at);
                    continue;
                }
                ff.present += 1;
                ff.first_present.get_or_insert(at);
                ff.present_stamp = stamp;
                present += 1;
                let rule = &ck.rules[slot as usize];
                if rule.active {
                    check(rule, ff, f, at, stamp);
                }
            }
            self.buf = recycle(buf);
        }
        if present < self.features.len() {
            for (ff, rule) in self.features.iter_mut().zip(&ck.rules) {
                if ff.present_stamp != stamp && ff.first_missing.is_none() && rule.active {
                    ff.first_missing = Some(at);
                }
            }
        }
    }

    /// Counts one record (checked against no schema).
    pub(super) fn count(&mut self, at: Loc) {
        self.records += 1;
        let i = at.0 as usize;
        if i >= self.per_input.len() {
            self.per_input.resize(i + 1, 0);
        }
        self.per_input[i] += 1;
    }

    /// Checks the annotations of one record.
    pub(super) fn annotations(&mut self, opts: &crate::annotate::Options, features: Option<FeaturesView<'_>>, at: Loc) {
        let found = features.and_then(|f| crate::annotate::read(&f, opts));
        self.annotations.add(found.as_ref(), (u64::from(at.0), at.1));
    }

    /// The slot of `key` at entry position `pos`.
    #[inline]
    fn intern(&mut self, ck: &Checker, pos: usize, key: &str, at: Loc) -> u32 {
        let n_rules = ck.rules.len() as u32;
        if let Some(&slot) = self.cache.get(pos) {
            let name: &str = if slot < n_rules {
                &ck.rules[slot as usize].name
            } else if let Some(n) = self.new.get((slot - n_rules) as usize) {
                &n.name
            } else {
                ""
            };
            if slot != UNTRACKED && name == key {
                return slot;
            }
        }
        let slot = if let Some(&s) = ck.index.get(key) {
            s
        } else if let Some(&s) = self.new_index.get(key) {
            n_rules + s
        } else if self.new.len() >= MAX_NEW {
            self.new_untracked = true;
            UNTRACKED
        } else {
            let s = self.new.len() as u32;
            self.new.push(NewFound {
                name: key.into(),
                records: 0,
                first: at,
                seen: 0,
                pos: 0,
            });
            self.new_index.insert(key.into(), s);
            n_rules + s
        };
        if pos < self.cache.len() {
            self.cache[pos] = slot;
        } else if pos == self.cache.len() {
            self.cache.push(slot);
        }
        slot
    }

    /// Adds the findings of later records.
    pub fn merge(&mut self, o: &Found) {
        self.records += o.records;
        if o.per_input.len() > self.per_input.len() {
            self.per_input.resize(o.per_input.len(), 0);
        }
        for (a, b) in self.per_input.iter_mut().zip(&o.per_input) {
            *a += b;
        }
        if self.features.len() < o.features.len() {
            self.features.resize(o.features.len(), FeatureFound::default());
        }
        for (a, b) in self.features.iter_mut().zip(&o.features) {
            a.merge(b);
        }
        for n in &o.new {
            if n.records == 0 {
                continue;
            }
            match self.new_index.get(&n.name) {
                Some(&s) => {
                    let m = &mut self.new[s as usize];
                    m.records += n.records;
                    m.first = m.first.min(n.first);
                }
                None if self.new.len() >= MAX_NEW => self.new_untracked = true,
                None => {
                    self.new_index.insert(n.name.clone(), self.new.len() as u32);
                    self.new.push(n.clone());
                }
            }
        }
        self.new_untracked |= o.new_untracked;
        self.comps.merge(&o.comps);
        if o.annotations.records > 0 {
            self.annotations.merge(o.annotations.clone());
        }
    }
}

/// The checks of one present feature of one record.
#[inline]
fn check(rule: &Rule, ff: &mut FeatureFound, f: &FeatureView<'_>, at: Loc, stamp: u64) {
    if rule.nameless {
        return;
    }
    let kind = f.kind();
    match rule.kind {
        Some(k) if k != kind => ff.hit(AnomalyKind::UnexpectedDataType, at, stamp, || {
            format!("expected {}, found {}", kind_name(k), kind_name(kind))
        }),
        _ => {}
    }
    if rule.missing_type {
        ff.hit(AnomalyKind::MissingType, at, stamp, || {
            format!("the schema gives it no type; found {}", kind_name(kind))
        });
        if rule.kind.is_none() {
            // TFDV sets such a feature aside after saying so.
            return;
        }
    }
    let n = match kind {
        Kind::Int64 if rule.int_values => {
            let mut n = 0u64;
            let counted = rule.unique.is_some() && rule.ints_categorical;
            for v in f.int64s() {
                n += 1;
                int_value(rule, ff, v, at, stamp);
                if counted {
                    distinct(ff, v.to_string().as_bytes());
                }
            }
            n
        }
        Kind::Float if rule.float_values => {
            let mut n = 0u64;
            let counted = rule.unique.is_some() && rule.floats_categorical;
            for v in f.floats() {
                n += 1;
                float_value(rule, ff, v, at, stamp);
                if counted {
                    distinct(ff, float_text(v).as_bytes());
                }
            }
            n
        }
        Kind::Bytes if rule.bytes_values => {
            let mut n = 0u64;
            for v in f.bytes() {
                n += 1;
                bytes_value(rule, ff, v, at, stamp);
            }
            if rule.strings.is_some() {
                ff.values += n;
            }
            n
        }
        Kind::Int64 => f.int64s().count() as u64,
        Kind::Float => f.floats().count() as u64,
        Kind::Bytes => f.bytes().count() as u64,
        Kind::None => 0,
    };
    let vc = if rule.from_levels {
        "value_counts level 0"
    } else {
        "value_count"
    };
    if let Some(min) = rule.min_values {
        if n < min {
            ff.hit(AnomalyKind::LowNumberValues, at, stamp, || {
                format!("{n} values, {vc} min is {min}")
            });
        }
    }
    if let Some(max) = rule.max_values {
        if n > max {
            ff.hit(AnomalyKind::HighNumberValues, at, stamp, || {
                format!("{n} values, {vc} max is {max}")
            });
        }
    }
    if let Some(size) = rule.shape {
        if n != size {
            ff.hit(AnomalyKind::InvalidFeatureShape, at, stamp, || {
                format!("{n} values, shape {} holds {size}", rule.shape_text)
            });
        }
    }
}

#[inline]
fn int_value(rule: &Rule, ff: &mut FeatureFound, v: i64, at: Loc, stamp: u64) {
    if let Some(min) = rule.int_min {
        if v < min {
            ff.hit(AnomalyKind::IntSmall, at, stamp, || {
                format!("value {v} below int_domain min {min}")
            });
        }
    }
    if let Some(max) = rule.int_max {
        if v > max {
            ff.hit(AnomalyKind::IntBig, at, stamp, || {
                format!("value {v} above int_domain max {max}")
            });
        }
    }
    if rule.bool_domain.is_some() {
        if v < 0 {
            ff.hit(AnomalyKind::BoolSmallInt, at, stamp, || {
                format!("value {v} not in {{0, 1}} (bool_domain)")
            });
        } else if v > 1 {
            ff.hit(AnomalyKind::BoolBigInt, at, stamp, || {
                format!("value {v} not in {{0, 1}} (bool_domain)")
            });
        }
    }
}

#[inline]
fn float_value(rule: &Rule, ff: &mut FeatureFound, v: f32, at: Loc, stamp: u64) {
    if v.is_nan() {
        if rule.nan {
            ff.hit(AnomalyKind::FloatNan, at, stamp, || {
                "NaN, float_domain has disallow_nan".into()
            });
        }
    } else {
        if let Some(min) = rule.float_min {
            if v < min {
                ff.hit(AnomalyKind::FloatSmall, at, stamp, || {
                    format!("value {} below float_domain min {}", float_text(v), float_text(min))
                });
            }
        }
        if let Some(max) = rule.float_max {
            if v > max {
                ff.hit(AnomalyKind::FloatBig, at, stamp, || {
                    format!("value {} above float_domain max {}", float_text(v), float_text(max))
                });
            }
        }
        if rule.inf && v.is_infinite() {
            ff.hit(AnomalyKind::FloatInf, at, stamp, || {
                format!("value {}, float_domain has disallow_inf", float_text(v))
            });
        }
    }
    if rule.bool_domain.is_some() && v != 0.0 && v != 1.0 {
        ff.hit(AnomalyKind::BoolUnexpectedFloat, at, stamp, || {
            format!("value {} not in {{0, 1}} (bool_domain)", float_text(v))
        });
    }
}

/// Counts a distinct value of a feature with `unique_constraints`.
#[inline]
fn distinct(ff: &mut FeatureFound, v: &[u8]) {
    ff.uniq_counted = true;
    if ff.uniq.len() < MAX_UNIQUE {
        if !ff.uniq.contains(v) {
            ff.uniq.insert(v.into());
        }
    } else if !ff.uniq.contains(v) {
        ff.uniq_overflow = true;
    }
}

#[inline]
fn bytes_value(rule: &Rule, ff: &mut FeatureFound, v: &[u8], at: Loc, stamp: u64) {
    if rule.unique.is_some() && !rule.image {
        distinct(ff, v);
    }
    if let Some(max) = rule.max_image_bytes {
        let len = v.len() as u64;
        ff.max_bytes = ff.max_bytes.max(len);
        if len > max {
            ff.hit(AnomalyKind::MaxImageByteSizeExceeded, at, stamp, || {
                format!("a value of {len} bytes, image_domain max_image_byte_size is {max}")
            });
        }
    }
    if let Some((values, name, _)) = rule.strings.as_deref() {
        if std::str::from_utf8(v).is_err() {
            ff.hit(AnomalyKind::EnumInvalidUtf8, at, stamp, || {
                format!("value {} is not UTF-8 (string domain)", bytes_text(v))
            });
        } else if !values.contains(v) {
            ff.off_domain += 1;
            ff.hit(AnomalyKind::EnumUnexpectedString, at, stamp, || {
                let domain = if name.is_empty() {
                    "the string_domain".to_string()
                } else {
                    format!("string_domain {}", quoted(name))
                };
                format!("value {} not in {domain}", bytes_text(v))
            });
        }
    }
    if let Some(ok) = &rule.bool_domain {
        if !ok.iter().any(|s| s.as_slice() == v) {
            ff.hit(AnomalyKind::BoolUnexpectedString, at, stamp, || {
                let list: Vec<String> = ok.iter().map(|s| bytes_text(s)).collect();
                format!("value {} not in {{{}}} (bool_domain)", bytes_text(v), list.join(", "))
            });
        }
    }
}
