//! TFDV statistics read back: a `DatasetFeatureStatisticsList`
//! (proto/statistics.proto) as TFDV or `tfr stats -f tfdv-stats[-text]`
//! writes it — binary protobuf, the same as the one record of a TFRecord
//! file (what `tfdv.generate_statistics_from_tfrecord` writes), or text
//! format — into [`StatsList`]: what drift and skew comparisons
//! ([`super::drift`]) and the side-by-side report need.
//!
//! One reader: binary messages are first turned into the text parser's
//! field tree ([`pbtxt::Field`], names from statistics.proto's field
//! numbers, fields tfr does not read dropped), then both are read by the
//! same code. [`from_scan`] gives tfr's own statistics of records the same
//! way (written by [`super::stats_file::write`], read back here), so a
//! dataset compares the same whether it was given as records or as a
//! statistics file.

use super::pbtxt::{self, Field, Scalar, Value};
use crate::error::{bail, Result};
use crate::example::wire::{self, Reader};
use crate::schema::Scan;

/// A histogram: `Histogram` of statistics.proto.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    /// `num_nan`.
    pub num_nan: u64,
    /// `buckets`: low, high, sample count.
    pub buckets: Vec<(f64, f64, f64)>,
    /// `type: QUANTILES` (else STANDARD).
    pub quantiles: bool,
}

/// `CommonStatistics` (the fields tfr reads).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Common {
    /// `num_non_missing`.
    pub num_non_missing: u64,
    /// `num_missing`.
    pub num_missing: u64,
    /// `min_num_values`.
    pub min_num_values: u64,
    /// `max_num_values`.
    pub max_num_values: u64,
    /// `avg_num_values`.
    pub avg_num_values: f32,
    /// `tot_num_values`.
    pub tot_num_values: u64,
    /// `num_values_histogram`.
    pub num_values_histogram: Option<Histogram>,
}

/// `NumericStatistics`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NumStats {
    /// `mean`.
    pub mean: f64,
    /// `std_dev`.
    pub std_dev: f64,
    /// `num_zeros`.
    pub num_zeros: u64,
    /// `min`.
    pub min: f64,
    /// `median`.
    pub median: f64,
    /// `max`.
    pub max: f64,
    /// `histograms` (standard and quantiles, as written).
    pub histograms: Vec<Histogram>,
}

impl NumStats {
    /// The first histogram of that type (as TFDV's `GetHistogramType`).
    pub fn histogram(&self, quantiles: bool) -> Option<&Histogram> {
        self.histograms.iter().find(|h| h.quantiles == quantiles)
    }
}

/// `StringStatistics`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StringStats {
    /// `unique`.
    pub unique: u64,
    /// `top_values`: value, frequency.
    pub top_values: Vec<(Vec<u8>, f64)>,
    /// `avg_length`.
    pub avg_length: f32,
    /// `rank_histogram` buckets: label, sample count.
    pub rank_histogram: Vec<(Vec<u8>, f64)>,
    /// `invalid_utf8_count`.
    pub invalid_utf8_count: u64,
}

/// `FeatureNameStatistics.Type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatType {
    /// INT.
    Int,
    /// FLOAT.
    Float,
    /// STRING.
    String,
    /// BYTES.
    Bytes,
    /// STRUCT.
    Struct,
}

impl StatType {
    /// Its statistics.proto name.
    pub fn name(self) -> &'static str {
        match self {
            StatType::Int => "INT",
            StatType::Float => "FLOAT",
            StatType::String => "STRING",
            StatType::Bytes => "BYTES",
            StatType::Struct => "STRUCT",
        }
    }

    fn from_number(n: i64) -> Option<StatType> {
        Some(match n {
            0 => StatType::Int,
            1 => StatType::Float,
            2 => StatType::String,
            3 => StatType::Bytes,
            4 => StatType::Struct,
            _ => return None,
        })
    }
}

/// `CustomStatistic`: name and the value kinds tfr reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Custom {
    /// `name`.
    pub name: String,
    /// `num`.
    pub num: Option<f64>,
    /// `str`.
    pub str: Option<Vec<u8>>,
    /// `rank_histogram` buckets: label, sample count.
    pub rank_histogram: Vec<(Vec<u8>, f64)>,
}

/// One feature's statistics: `FeatureNameStatistics`.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureStat {
    /// `path` steps joined by `.` (or `name`).
    pub path: String,
    /// `type`.
    pub ty: StatType,
    /// The common statistics (of whichever of num/string/bytes/struct stats
    /// is set).
    pub common: Common,
    /// `num_stats`.
    pub num: Option<NumStats>,
    /// `string_stats`.
    pub string: Option<StringStats>,
    /// `custom_stats`.
    pub custom: Vec<Custom>,
}

/// One dataset's statistics: `DatasetFeatureStatistics`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DatasetStats {
    /// `name`.
    pub name: String,
    /// `num_examples`.
    pub num_examples: u64,
    /// `features`, in the file's order.
    pub features: Vec<FeatureStat>,
}

impl DatasetStats {
    /// The feature of that path (the first, if the file has it twice).
    pub fn feature(&self, path: &str) -> Option<&FeatureStat> {
        self.features.iter().find(|f| f.path == path)
    }
}

/// `DatasetFeatureStatisticsList`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatsList {
    /// `datasets`.
    pub datasets: Vec<DatasetStats>,
}

/// tfr's statistics of a scan, as the statistics file it would write.
pub fn from_scan(scan: &Scan) -> Result<StatsList> {
    let bytes = super::stats_file::write(scan, false);
    read_binary(&bytes)
}

/// Reads a statistics file: a TFRecord file whose first record is the
/// list (TFDV's), the list as binary protobuf, or as text format.
pub fn load(bytes: &[u8]) -> Result<StatsList> {
    if let Some(record) = first_record(bytes) {
        return read_binary(record);
    }
    // A binary list starts with 0x0a and a length that may be a letter:
    // text is tried first, then binary, and text's error is the one told.
    match std::str::from_utf8(bytes).ok().filter(|_| looks_like_text(bytes)) {
        Some(text) => match pbtxt::parse(text) {
            Ok(fields) => read_list(&fields),
            Err(e) => read_binary(bytes).map_err(|_| crate::error::err!("statistics text format: {e}")),
        },
        None => read_binary(bytes),
    }
}

/// The first record of a TFRecord file, when `bytes` is one (its length
/// CRC and data CRC both hold).
fn first_record(bytes: &[u8]) -> Option<&[u8]> {
    let len = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    let len_crc = u32::from_le_bytes(bytes.get(8..12)?.try_into().ok()?);
    if crate::record::masked_crc(&bytes[..8]) != len_crc {
        return None;
    }
    let end = 12usize.checked_add(usize::try_from(len).ok()?)?;
    let data = bytes.get(12..end)?;
    let crc = u32::from_le_bytes(bytes.get(end..end + 4)?.try_into().ok()?);
    (crate::record::masked_crc(data) == crc).then_some(data)
}

/// Text format starts with a field name or a comment; a binary list with
/// the tag of field 1 (0x0a), never printable text.
fn looks_like_text(bytes: &[u8]) -> bool {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    matches!(first, Some(b) if b.is_ascii_alphabetic() || *b == b'#' || *b == b'[') || first.is_none()
}

/// A binary list, one feature's tree at a time (a tree takes several
/// times its message's bytes: a whole file's would take ten times the file).
fn read_binary(bytes: &[u8]) -> Result<StatsList> {
    let bad = |e: String| crate::error::err!("not a statistics file (binary DatasetFeatureStatisticsList): {e}");
    let mut list = StatsList::default();
    let mut r = Reader::new(bytes);
    while let Some(f) = r.field().map_err(|e| bad(e.to_string()))? {
        match (f.number, f.value) {
            (1, wire::Value::Len(dataset)) => list.datasets.push(read_binary_dataset(dataset).map_err(bad)?),
            (1, _) => return Err(bad("field datasets (number 1) has the wrong wire type".into())),
            _ => {}
        }
    }
    if list.datasets.is_empty() {
        bail!("statistics: no dataset in the file (not a DatasetFeatureStatisticsList?)");
    }
    Ok(list)
}

fn read_binary_dataset(r: Reader<'_>) -> std::result::Result<DatasetStats, String> {
    let mut d = read_dataset(&to_tree(r, Msg::Dataset, 1, Some(3))?).map_err(|e| e.to_string())?;
    let mut r = r;
    while let Some(f) = r.field().map_err(|e| e.to_string())? {
        if let (3, wire::Value::Len(feature)) = (f.number, f.value) {
            let tree = to_tree(feature, Msg::Feature, 2, None)?;
            d.features.push(read_feature(&tree).map_err(|e| e.to_string())?);
        }
    }
    Ok(d)
}

// ---------------------------------------------------------------------------
// Binary protobuf into the text parser's tree
// ---------------------------------------------------------------------------

/// The messages of statistics.proto tfr reads.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Msg {
    Dataset,
    Feature,
    Path,
    Num,
    Str,
    Common,
    Hist,
    Bucket,
    Freq,
    Rank,
    RankBucket,
    Custom,
}

/// How a field's value is written on the wire.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Wire {
    Message(Msg),
    Uint,
    Enum,
    Double,
    Float,
    Bytes,
}

/// The fields of a message tfr reads: number, name, wire form.
fn fields_of(m: Msg) -> &'static [(u32, &'static str, Wire)] {
    use Wire::*;
    match m {
        Msg::Dataset => &[
            (1, "name", Bytes),
            (2, "num_examples", Uint),
            (3, "features", Message(Msg::Feature)),
        ],
        Msg::Feature => &[
            (1, "name", Bytes),
            (2, "type", Enum),
            (3, "num_stats", Message(Msg::Num)),
            (4, "string_stats", Message(Msg::Str)),
            (5, "bytes_stats", Message(Msg::Num)),
            (6, "custom_stats", Message(Msg::Custom)),
            (7, "struct_stats", Message(Msg::Num)),
            (8, "path", Message(Msg::Path)),
        ],
        Msg::Path => &[(1, "step", Bytes)],
        // Numeric statistics; bytes and struct statistics share field 1
        // (common_stats) and tfr reads nothing else of them.
        Msg::Num => &[
            (1, "common_stats", Message(Msg::Common)),
            (2, "mean", Double),
            (3, "std_dev", Double),
            (4, "num_zeros", Uint),
            (5, "min", Double),
            (6, "median", Double),
            (7, "max", Double),
            (8, "histograms", Message(Msg::Hist)),
        ],
        Msg::Str => &[
            (1, "common_stats", Message(Msg::Common)),
            (2, "unique", Uint),
            (3, "top_values", Message(Msg::Freq)),
            (4, "avg_length", Float),
            (5, "rank_histogram", Message(Msg::Rank)),
            (8, "invalid_utf8_count", Uint),
        ],
        Msg::Common => &[
            (1, "num_non_missing", Uint),
            (2, "num_missing", Uint),
            (3, "min_num_values", Uint),
            (4, "max_num_values", Uint),
            (5, "avg_num_values", Float),
            (6, "num_values_histogram", Message(Msg::Hist)),
            (8, "tot_num_values", Uint),
        ],
        Msg::Hist => &[
            (1, "num_nan", Uint),
            (3, "buckets", Message(Msg::Bucket)),
            (4, "type", Enum),
        ],
        Msg::Bucket => &[
            (1, "low_value", Double),
            (2, "high_value", Double),
            (4, "sample_count", Double),
        ],
        Msg::Freq => &[(2, "value", Bytes), (3, "frequency", Double)],
        Msg::Rank => &[(1, "buckets", Message(Msg::RankBucket))],
        Msg::RankBucket => &[(4, "label", Bytes), (5, "sample_count", Double)],
        Msg::Custom => &[
            (1, "name", Bytes),
            (2, "num", Double),
            (3, "str", Bytes),
            (5, "rank_histogram", Message(Msg::Rank)),
        ],
    }
}

/// The fields of message `m` in `r` as a tree (`skip`: a field number left
/// out).
fn to_tree(mut r: Reader<'_>, m: Msg, depth: u32, skip: Option<u32>) -> std::result::Result<Vec<Field>, String> {
    if depth > wire::MAX_DEPTH {
        return Err("nested too deep".into());
    }
    let mut out = Vec::new();
    while let Some(f) = r.field().map_err(|e| e.to_string())? {
        let Some(&(_, name, form)) = fields_of(m).iter().find(|(n, _, _)| *n == f.number) else {
            continue;
        };
        if skip == Some(f.number) {
            continue;
        }
        let wrong = || format!("field {name} (number {}) has the wrong wire type", f.number);
        let value = match (form, f.value) {
            (Wire::Message(inner), wire::Value::Len(r)) => Value::Message(to_tree(r, inner, depth + 1, None)?),
            (Wire::Bytes, wire::Value::Len(r)) => Value::Scalar(Scalar::Str(r.bytes().to_vec())),
            (Wire::Uint | Wire::Enum, wire::Value::Varint(v)) => Value::Scalar(Scalar::Number(match form {
                // An enum is an int32 on the wire (negative ones as 10 bytes).
                Wire::Enum => (v as i64).to_string(),
                _ => v.to_string(),
            })),
            (Wire::Double, wire::Value::Fixed64(v)) => Value::Scalar(number(f64::from_bits(v))),
            (Wire::Float, wire::Value::Fixed32(v)) => Value::Scalar(number(f64::from(f32::from_bits(v)))),
            // Packed repeated scalars are not in what tfr reads.
            _ => return Err(wrong()),
        };
        out.push(Field {
            name: name.to_string(),
            value,
            line: 0,
            col: 0,
        });
    }
    Ok(out)
}

/// A double as a scalar the text reader reads back to the same bits.
fn number(v: f64) -> Scalar {
    if v.is_nan() {
        Scalar::Ident("nan".into())
    } else if v.is_infinite() {
        Scalar::Number(if v > 0.0 { "inf" } else { "-inf" }.into())
    } else {
        Scalar::Number(format!("{v:?}"))
    }
}

// ---------------------------------------------------------------------------
// The tree into the model
// ---------------------------------------------------------------------------

type Parsed<T> = std::result::Result<T, pbtxt::Error>;

fn read_list(fields: &[Field]) -> Result<StatsList> {
    let list = (|| -> Parsed<StatsList> {
        let mut out = StatsList::default();
        for f in fields.iter().filter(|f| f.name == "datasets") {
            out.datasets.push(read_dataset(f.message()?)?);
        }
        Ok(out)
    })()
    .map_err(|e| crate::error::err!("statistics: {e}"))?;
    if list.datasets.is_empty() {
        bail!("statistics: no dataset in the file (not a DatasetFeatureStatisticsList?)");
    }
    Ok(list)
}

/// A string field's bytes.
fn bytes(f: &Field) -> Parsed<Vec<u8>> {
    match &f.value {
        Value::Scalar(Scalar::Str(b)) => Ok(b.clone()),
        _ => f.error(format!("\"{}\" takes a quoted string", f.name)),
    }
}

/// A string field as text (bytes that are not UTF-8 replaced).
fn text(f: &Field) -> Parsed<String> {
    bytes(f).map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// A uint64 (past int64's range too, as protobuf reads one).
fn uint(f: &Field) -> Parsed<u64> {
    if let Value::Scalar(Scalar::Number(t)) = &f.value {
        if let Ok(v) = t.parse::<u64>() {
            return Ok(v);
        }
    }
    let v = f.int()?;
    u64::try_from(v).or_else(|_| f.error(format!("\"{}\": a negative count", f.name)))
}

fn read_dataset(fields: &[Field]) -> Parsed<DatasetStats> {
    let mut d = DatasetStats::default();
    for f in fields {
        match f.name.as_str() {
            "name" => d.name = text(f)?,
            "num_examples" => d.num_examples = uint(f)?,
            "features" => d.features.push(read_feature(f.message()?)?),
            _ => {}
        }
    }
    Ok(d)
}

fn stat_type(f: &Field) -> Parsed<StatType> {
    match &f.value {
        Value::Scalar(Scalar::Ident(name)) => match name.as_str() {
            "INT" => Ok(StatType::Int),
            "FLOAT" => Ok(StatType::Float),
            "STRING" => Ok(StatType::String),
            "BYTES" => Ok(StatType::Bytes),
            "STRUCT" => Ok(StatType::Struct),
            _ => f.error(format!("unknown feature type {name}")),
        },
        _ => StatType::from_number(f.int()?).map_or_else(|| f.error("unknown feature type"), Ok),
    }
}

fn read_feature(fields: &[Field]) -> Parsed<FeatureStat> {
    let mut out = FeatureStat {
        path: String::new(),
        ty: StatType::Int,
        common: Common::default(),
        num: None,
        string: None,
        custom: Vec::new(),
    };
    for f in fields {
        match f.name.as_str() {
            "name" => out.path = text(f)?,
            "path" => {
                let steps: Vec<String> = f
                    .message()?
                    .iter()
                    .filter(|s| s.name == "step")
                    .map(text)
                    .collect::<Parsed<_>>()?;
                out.path = steps.join(".");
            }
            "type" => out.ty = stat_type(f)?,
            "num_stats" => {
                let (num, common) = read_num(f.message()?)?;
                out.num = Some(num);
                out.common = common;
            }
            "string_stats" => {
                let (s, common) = read_string(f.message()?)?;
                out.string = Some(s);
                out.common = common;
            }
            "bytes_stats" | "struct_stats" => out.common = read_num(f.message()?)?.1,
            "custom_stats" => out.custom.push(read_custom(f.message()?)?),
            _ => {}
        }
    }
    Ok(out)
}

fn read_common(fields: &[Field]) -> Parsed<Common> {
    let mut c = Common::default();
    for f in fields {
        match f.name.as_str() {
            "num_non_missing" => c.num_non_missing = uint(f)?,
            "num_missing" => c.num_missing = uint(f)?,
            "min_num_values" => c.min_num_values = uint(f)?,
            "max_num_values" => c.max_num_values = uint(f)?,
            "avg_num_values" => c.avg_num_values = f.float()? as f32,
            "tot_num_values" => c.tot_num_values = uint(f)?,
            "num_values_histogram" => c.num_values_histogram = Some(read_histogram(f.message()?)?),
            _ => {}
        }
    }
    Ok(c)
}

fn read_num(fields: &[Field]) -> Parsed<(NumStats, Common)> {
    let mut n = NumStats::default();
    let mut common = Common::default();
    for f in fields {
        match f.name.as_str() {
            "common_stats" => common = read_common(f.message()?)?,
            "mean" => n.mean = f.float()?,
            "std_dev" => n.std_dev = f.float()?,
            "num_zeros" => n.num_zeros = uint(f)?,
            "min" => n.min = f.float()?,
            "median" => n.median = f.float()?,
            "max" => n.max = f.float()?,
            "histograms" => n.histograms.push(read_histogram(f.message()?)?),
            _ => {}
        }
    }
    Ok((n, common))
}

fn read_histogram(fields: &[Field]) -> Parsed<Histogram> {
    let mut h = Histogram::default();
    for f in fields {
        match f.name.as_str() {
            "num_nan" => h.num_nan = uint(f)?,
            "type" => {
                h.quantiles = match &f.value {
                    Value::Scalar(Scalar::Ident(name)) => name == "QUANTILES",
                    _ => f.int()? == 1,
                }
            }
            "buckets" => {
                let (mut lo, mut hi, mut n) = (0.0, 0.0, 0.0);
                for g in f.message()? {
                    match g.name.as_str() {
                        "low_value" => lo = g.float()?,
                        "high_value" => hi = g.float()?,
                        "sample_count" => n = g.float()?,
                        _ => {}
                    }
                }
                h.buckets.push((lo, hi, n));
            }
            _ => {}
        }
    }
    Ok(h)
}

fn read_rank(fields: &[Field]) -> Parsed<Vec<(Vec<u8>, f64)>> {
    let mut out = Vec::new();
    for f in fields.iter().filter(|f| f.name == "buckets") {
        let (mut label, mut n) = (Vec::new(), 0.0);
        for g in f.message()? {
            match g.name.as_str() {
                "label" => label = bytes(g)?,
                "sample_count" => n = g.float()?,
                _ => {}
            }
        }
        out.push((label, n));
    }
    Ok(out)
}

fn read_string(fields: &[Field]) -> Parsed<(StringStats, Common)> {
    let mut s = StringStats::default();
    let mut common = Common::default();
    for f in fields {
        match f.name.as_str() {
            "common_stats" => common = read_common(f.message()?)?,
            "unique" => s.unique = uint(f)?,
            "avg_length" => s.avg_length = f.float()? as f32,
            "invalid_utf8_count" => s.invalid_utf8_count = uint(f)?,
            "rank_histogram" => s.rank_histogram = read_rank(f.message()?)?,
            "top_values" => {
                let (mut v, mut n) = (Vec::new(), 0.0);
                for g in f.message()? {
                    match g.name.as_str() {
                        "value" => v = bytes(g)?,
                        "frequency" => n = g.float()?,
                        _ => {}
                    }
                }
                s.top_values.push((v, n));
            }
            _ => {}
        }
    }
    Ok((s, common))
}

fn read_custom(fields: &[Field]) -> Parsed<Custom> {
    let mut c = Custom::default();
    for f in fields {
        match f.name.as_str() {
            "name" => c.name = text(f)?,
            "num" => c.num = Some(f.float()?),
            "str" => c.str = Some(bytes(f)?),
            "rank_histogram" => c.rank_histogram = read_rank(f.message()?)?,
            _ => {}
        }
    }
    Ok(c)
}
