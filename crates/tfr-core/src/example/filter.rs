//! `--where EXPR`: which records a command keeps, by the values of their
//! features ([`Where`]: parsed once, evaluated on the zero-copy views of
//! [`super::view`] on every worker thread).
//!
//! The language:
//! - `NAME OP VALUE` with `==`, `!=`, `<`, `<=`, `>`, `>=`: a number (`1`,
//!   `-2`, `0.5`, `1e-3`) or a string (`"US"`, escapes `\" \\ \n \t \r \0
//!   \xHH`). Bytes compare byte by byte; int64 values with integers exactly
//!   and with a float literal as numbers; float values with a float
//!   literal in float32, as stored (`score == 0.1` matches a value written
//!   as 0.1), and with an integer exactly.
//! - `NAME in [V, V, ...]`: equal to one of the values.
//! - `NAME ~ "REGEX"` / `NAME !~ "REGEX"`: a bytes value contains a match
//!   (the `regex` crate's syntax, unanchored: `^`/`$` anchor).
//! - `has(NAME)`: the feature is present; `len(NAME) OP N`: its number of
//!   values (0 when absent).
//! - `!`, `&&`, `||` (in that order of precedence), parentheses.
//!
//! Names are written as they are (`image/filename`, `a.b`, `x-1`, `ns:id`),
//! or between backticks for any other name (`` `my feature` ``).
//!
//! A feature with several values matches when **any** value does
//! (`label != 1` is true for `[1, 2]`; write `!(label == 1)` for "none
//! is 1"). A missing feature, or one with no values, makes every
//! comparison false (`!has(x)` finds the records without it). A value of
//! another kind than the literal (a string against an int64 feature, a
//! number against bytes) is false too, as is a regex against numbers.
//! Examples are read from their features, SequenceExamples and
//! ExampleListWithContext from their context; any other message through
//! [`Fields`] ([`Where::bind`]), its names being paths of fields.
//! `true` and `false` are the numbers 1 and 0.

mod features;
mod fields;
use features::{any_value, count};
pub use features::{features_or_context, lookup, with_features};
pub use fields::{Fields, PayloadFields, Value};

use super::sought::{Sought, Unmatched};
use super::view::{Decoder, FeaturesView, Kind};
use super::{DecodeError, MessageType};
use std::cmp::Ordering;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// The most a `--where` expression may nest (parentheses, `!`).
const MAX_DEPTH: usize = 64;
/// The compiled size limit of one regex (and of its lazy DFA's cache).
const REGEX_SIZE: usize = 1 << 20;
const REGEX_DFA_SIZE: usize = 2 << 20;
/// The most regexes one expression may hold, and the compiled size they
/// share (each gets its share, at most [`REGEX_SIZE`]; their lazy DFAs'
/// caches likewise share [`REGEXES_DFA_SIZE`]): an expression of many
/// regexes cannot take gigabytes and minutes.
const MAX_REGEXES: usize = 64;
const REGEXES_SIZE: usize = 8 << 20;
const REGEXES_DFA_SIZE: usize = 16 << 20;

/// A parsed `--where` expression.
#[derive(Clone)]
pub struct Where {
    root: Node,
    text: String,
    /// Which names it reads were found in the records it was evaluated on.
    sought: Arc<Sought>,
    /// `--strict`: a name found in no record read is an error.
    strict: Arc<AtomicBool>,
    /// How payloads that are not Examples are read ([`Self::bind`]).
    fields: Option<Arc<dyn PayloadFields>>,
}

impl fmt::Debug for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Where({:?})", self.text)
    }
}

/// Why an expression does not parse: the message and the column (1-based,
/// in characters) it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The column (1-based, in characters) it points at.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at column {}", self.message, self.column)
    }
}

impl std::error::Error for ParseError {}

/// `--strict`: names a flag reads that no record read has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnmatchedNames {
    /// The flag that names them (`--where`, `--by`).
    pub flag: &'static str,
    /// The names, each with a near miss if one was seen.
    pub names: Vec<Unmatched>,
}

impl fmt::Display for UnmatchedNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.flag)?;
        for (i, n) in self.names.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{n}")?;
        }
        f.write_str(" (--strict)")
    }
}

impl std::error::Error for UnmatchedNames {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn holds(self, o: Ordering) -> bool {
        match self {
            Op::Eq => o == Ordering::Equal,
            Op::Ne => o != Ordering::Equal,
            Op::Lt => o == Ordering::Less,
            Op::Le => o != Ordering::Greater,
            Op::Gt => o == Ordering::Greater,
            Op::Ge => o != Ordering::Less,
        }
    }

    /// With an unordered pair (NaN): only `!=` holds.
    fn holds_partial(self, o: Option<Ordering>) -> bool {
        o.map_or(self == Op::Ne, |o| self.holds(o))
    }

    fn text(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Lit {
    Int(i64),
    /// An integer above every int64 (up to 2^64 - 1).
    UInt(u64),
    Float(f64),
    Bytes(Vec<u8>),
}

#[derive(Clone, Debug)]
enum Node {
    // A chain of `||` or `&&` is one node (a long chain would otherwise
    // nest as deep as it is long, and overflow the stack when evaluated).
    Or(Vec<Node>),
    And(Vec<Node>),
    Not(Box<Node>),
    Has(String),
    Len(String, Op, i64),
    Cmp(String, Op, Lit),
    In(String, Vec<Lit>),
    Regex(String, regex::bytes::Regex, bool),
}

impl Where {
    /// Parses an expression; an error names the column.
    pub fn parse(text: &str) -> Result<Where, ParseError> {
        let tokens = lex(text)?;
        let regexes: Vec<usize> = tokens
            .iter()
            .filter(|(_, t)| matches!(t, Tok::Tilde | Tok::NotTilde))
            .map(|(col, _)| *col)
            .collect();
        if let Some(&col) = regexes.get(MAX_REGEXES) {
            return Err(err(
                col,
                format!("more than {MAX_REGEXES} regexes in one expression (~ or !~); use fewer, or one with '|'"),
            ));
        }
        let n = regexes.len().max(1);
        let mut p = Parser {
            tokens,
            at: 0,
            depth: 0,
            regex_size: (REGEXES_SIZE / n).min(REGEX_SIZE),
            dfa_size: (REGEXES_DFA_SIZE / n).min(REGEX_DFA_SIZE),
        };
        let root = p.or()?;
        let (col, tok) = p.peek();
        if *tok != Tok::End {
            return Err(err(col, format!("unexpected {}", tok.describe())));
        }
        let mut names = Vec::new();
        root.names(&mut names);
        let sought = Arc::new(Sought::new(names));
        Ok(Where {
            root,
            text: text.to_owned(),
            sought,
            strict: Arc::new(AtomicBool::new(false)),
            fields: None,
        })
    }

    /// The expression as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The feature names it reads, in the order written (repeats included).
    pub fn names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        self.root.names(&mut names);
        names
    }

    /// The names it compares with values (`==`, `in`, `~`...), not only
    /// asks `has()` or `len()` of.
    pub fn compared_names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        self.root.compared(&mut names);
        names
    }

    /// Whether a record with these features (an Example's, or a
    /// SequenceExample's context) matches.
    pub fn matches(&self, features: Option<FeaturesView<'_>>) -> bool {
        self.sought.note(features);
        self.root.eval(features)
    }

    /// The names it reads that no record it was evaluated on has (none
    /// when it was evaluated on no record).
    pub fn unmatched(&self) -> Vec<Unmatched> {
        self.sought.unmatched()
    }

    /// `--strict`: makes a name found in no record read an error at the
    /// end of a reading ([`Self::strict_error`]).
    pub fn set_strict(&self, strict: bool) {
        self.strict.store(strict, Relaxed);
    }

    /// With `--strict`, the error for the names no record read has.
    pub fn strict_error(&self) -> Option<UnmatchedNames> {
        if !self.strict.load(Relaxed) {
            return None;
        }
        let names = self.unmatched();
        (!names.is_empty()).then_some(UnmatchedNames { flag: "--where", names })
    }

    /// This expression over payloads read by `fields` (a message's):
    /// [`Self::matches_payload`] reads every payload through it.
    pub fn bind(&self, fields: Arc<dyn PayloadFields>) -> Where {
        Where {
            fields: Some(fields),
            ..self.clone()
        }
    }

    /// Whether it reads payloads through [`Self::bind`]'s fields.
    pub fn is_bound(&self) -> bool {
        self.fields.is_some()
    }

    /// Decodes `payload` as `ty` (or by what it is bound to) and tells
    /// whether it matches (a raw payload has no features: it never does).
    pub fn matches_payload(
        &self,
        decoder: &mut Decoder,
        ty: MessageType,
        strict: bool,
        payload: &[u8],
    ) -> Result<bool, DecodeError> {
        if let Some(fields) = &self.fields {
            return fields.read(payload, &mut |fs| self.root.eval_fields(fs));
        }
        if ty == MessageType::Raw {
            return Ok(false);
        }
        with_features(decoder, ty, strict, payload, |fs| self.matches(fs))
    }
}

impl Node {
    fn eval(&self, fs: Option<FeaturesView<'_>>) -> bool {
        match self {
            Node::Or(all) => all.iter().any(|n| n.eval(fs)),
            Node::And(all) => all.iter().all(|n| n.eval(fs)),
            Node::Not(a) => !a.eval(fs),
            Node::Has(name) => lookup(fs, name).is_some(),
            Node::Len(name, op, n) => {
                let len = lookup(fs, name).map_or(0, |f| count(&f));
                op.holds((len as i64).cmp(n))
            }
            Node::Cmp(name, op, lit) => lookup(fs, name).is_some_and(|f| any_value(&f, *op, lit)),
            Node::In(name, lits) => lookup(fs, name).is_some_and(|f| lits.iter().any(|lit| any_value(&f, Op::Eq, lit))),
            Node::Regex(name, re, negated) => lookup(fs, name)
                .is_some_and(|f| f.kind() == Kind::Bytes && f.bytes().any(|v| re.is_match(v) != *negated)),
        }
    }

    fn compared<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Node::Or(all) | Node::And(all) => all.iter().for_each(|n| n.compared(out)),
            Node::Not(a) => a.compared(out),
            Node::Has(_) | Node::Len(..) => {}
            Node::Cmp(n, ..) | Node::In(n, _) | Node::Regex(n, ..) => out.push(n),
        }
    }

    fn names<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Node::Or(all) | Node::And(all) => all.iter().for_each(|n| n.names(out)),
            Node::Not(a) => a.names(out),
            Node::Has(n) | Node::Len(n, ..) | Node::Cmp(n, ..) | Node::In(n, _) | Node::Regex(n, ..) => out.push(n),
        }
    }
}

// ---------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Name(String),
    Str(Vec<u8>),
    Num(Lit),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Cmp(Op),
    Tilde,
    NotTilde,
    And,
    Or,
    Not,
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Name(n) => format!("name '{n}'"),
            Tok::Str(_) => "a string".into(),
            Tok::Num(_) => "a number".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::Comma => "','".into(),
            Tok::Cmp(op) => format!("'{}'", op.text()),
            Tok::Tilde => "'~'".into(),
            Tok::NotTilde => "'!~'".into(),
            Tok::And => "'&&'".into(),
            Tok::Or => "'||'".into(),
            Tok::Not => "'!'".into(),
            Tok::End => "the end of the expression".into(),
        }
    }
}

fn err(column: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        column,
        message: message.into(),
    }
}

fn name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '-' | ':')
}

/// The tokens of `text`, each with its column (1-based, in characters).
fn lex(text: &str) -> Result<Vec<(usize, Tok)>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let (tok, len) =
            match (c, next) {
                ('(', _) => (Tok::LParen, 1),
                (')', _) => (Tok::RParen, 1),
                ('[', _) => (Tok::LBracket, 1),
                (']', _) => (Tok::RBracket, 1),
                (',', _) => (Tok::Comma, 1),
                ('=', Some('=')) => (Tok::Cmp(Op::Eq), 2),
                ('=', _) => return Err(err(col, "'=' alone: write '==' to compare")),
                ('!', Some('=')) => (Tok::Cmp(Op::Ne), 2),
                ('!', Some('~')) => (Tok::NotTilde, 2),
                ('!', _) => (Tok::Not, 1),
                ('<', Some('=')) => (Tok::Cmp(Op::Le), 2),
                ('<', _) => (Tok::Cmp(Op::Lt), 1),
                ('>', Some('=')) => (Tok::Cmp(Op::Ge), 2),
                ('>', _) => (Tok::Cmp(Op::Gt), 1),
                ('~', _) => (Tok::Tilde, 1),
                ('&', Some('&')) => (Tok::And, 2),
                ('|', Some('|')) => (Tok::Or, 2),
                ('&' | '|', _) => return Err(err(col, format!("'{c}' alone: write '{c}{c}'"))),
                ('\'', _) => return Err(err(
                    col,
                    "strings take double quotes: country == \"US\", not 'US' (in a shell: --where 'country == \"US\"')",
                )),
                ('"', _) => {
                    let (bytes, len) = string(&chars[i..], col)?;
                    (Tok::Str(bytes), len)
                }
                ('`', _) => {
                    let end = chars[i + 1..]
                        .iter()
                        .position(|&c| c == '`')
                        .ok_or_else(|| err(col, "a name opened with '`' is not closed"))?;
                    let name: String = chars[i + 1..i + 1 + end].iter().collect();
                    if name.is_empty() {
                        return Err(err(col, "an empty name"));
                    }
                    (Tok::Name(name), end + 2)
                }
                _ if c.is_ascii_digit() || ((c == '-' || c == '.') && next.is_some_and(|n| n.is_ascii_digit())) => {
                    number(&chars[i..], col)?
                }
                _ if name_start(c) => {
                    let len = chars[i..].iter().take_while(|&&c| name_char(c)).count();
                    (Tok::Name(chars[i..i + len].iter().collect()), len)
                }
                _ => return Err(err(col, format!("unexpected character '{}'", c.escape_debug()))),
            };
        out.push((col, tok));
        i += len;
    }
    out.push((chars.len() + 1, Tok::End));
    Ok(out)
}

/// A number at the start of `chars`: the token and its length.
fn number(chars: &[char], col: usize) -> Result<(Tok, usize), ParseError> {
    let mut len = usize::from(chars[0] == '-');
    let digits = |from: usize| chars[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    len += digits(len);
    let mut float = false;
    if chars.get(len) == Some(&'.') {
        float = true;
        len += 1;
        len += digits(len);
    }
    if matches!(chars.get(len), Some('e' | 'E')) {
        let sign = usize::from(matches!(chars.get(len + 1), Some('+' | '-')));
        let exp = digits(len + 1 + sign);
        if exp > 0 {
            float = true;
            len += 1 + sign + exp;
        }
    }
    if chars.get(len).is_some_and(|&c| name_char(c) && c != '-') {
        return Err(err(
            col + len,
            "a number runs into a name (quote a name with backticks)",
        ));
    }
    let text: String = chars[..len].iter().collect();
    let lit = if float {
        Lit::Float(text.parse().map_err(|_| err(col, format!("not a number: {text}")))?)
    } else {
        match text.parse() {
            Ok(n) => Lit::Int(n),
            Err(_) => Lit::UInt(
                text.parse()
                    .map_err(|_| err(col, format!("an integer out of the int64 and uint64 ranges: {text}")))?,
            ),
        }
    };
    Ok((Tok::Num(lit), len))
}

/// A string literal at the start of `chars` (its opening quote): its
/// bytes and its length in characters.
fn string(chars: &[char], col: usize) -> Result<(Vec<u8>, usize), ParseError> {
    let mut out = Vec::new();
    let mut i = 1;
    loop {
        let Some(&c) = chars.get(i) else {
            return Err(err(col, "a string is not closed"));
        };
        match c {
            '"' => return Ok((out, i + 1)),
            '\\' => {
                let e = chars.get(i + 1).copied();
                let byte = match e {
                    Some('"') => b'"',
                    Some('\\') => b'\\',
                    Some('n') => b'\n',
                    Some('t') => b'\t',
                    Some('r') => b'\r',
                    Some('0') => 0,
                    Some('x') => {
                        let hex: String = chars.iter().skip(i + 2).take(2).collect();
                        let v = (hex.len() == 2)
                            .then(|| u8::from_str_radix(&hex, 16).ok())
                            .flatten()
                            .ok_or_else(|| err(col + i, "\\x needs two hex digits"))?;
                        out.push(v);
                        i += 4;
                        continue;
                    }
                    // A regex's own escapes (\d, \., \w ...) pass through.
                    Some(other) => {
                        out.push(b'\\');
                        let mut buf = [0; 4];
                        out.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
                        i += 2;
                        continue;
                    }
                    None => return Err(err(col, "a string is not closed")),
                };
                out.push(byte);
                i += 2;
            }
            _ => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i += 1;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------

struct Parser {
    tokens: Vec<(usize, Tok)>,
    at: usize,
    depth: usize,
    /// Each regex's compiled size limit, and its lazy DFA's.
    regex_size: usize,
    dfa_size: usize,
}

impl Parser {
    fn peek(&self) -> (usize, &Tok) {
        let (col, tok) = &self.tokens[self.at.min(self.tokens.len() - 1)];
        (*col, tok)
    }

    fn bump(&mut self) -> (usize, Tok) {
        let t = self.tokens[self.at.min(self.tokens.len() - 1)].clone();
        if self.at < self.tokens.len() - 1 {
            self.at += 1;
        }
        t
    }

    fn expect(&mut self, want: &Tok, what: &str) -> Result<(), ParseError> {
        let (col, tok) = self.bump();
        if tok == *want {
            Ok(())
        } else {
            Err(err(col, format!("expected {what}, found {}", tok.describe())))
        }
    }

    fn deeper(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(err(self.peek().0, format!("nested more than {MAX_DEPTH} deep")));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Node, ParseError> {
        let mut all = vec![self.and()?];
        while *self.peek().1 == Tok::Or {
            self.bump();
            all.push(self.and()?);
        }
        Ok(if all.len() == 1 { all.remove(0) } else { Node::Or(all) })
    }

    fn and(&mut self) -> Result<Node, ParseError> {
        let mut all = vec![self.not()?];
        while *self.peek().1 == Tok::And {
            self.bump();
            all.push(self.not()?);
        }
        Ok(if all.len() == 1 { all.remove(0) } else { Node::And(all) })
    }

    fn not(&mut self) -> Result<Node, ParseError> {
        if *self.peek().1 == Tok::Not {
            self.bump();
            self.deeper()?;
            let inner = self.not()?;
            self.depth -= 1;
            return Ok(Node::Not(Box::new(inner)));
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Node, ParseError> {
        let (col, tok) = self.bump();
        match tok {
            Tok::LParen => {
                self.deeper()?;
                let inner = self.or()?;
                self.depth -= 1;
                self.expect(&Tok::RParen, "')'")?;
                Ok(inner)
            }
            Tok::Name(f) if (f == "has" || f == "len") && *self.peek().1 == Tok::LParen => {
                self.bump();
                let (ncol, name) = self.bump();
                let Tok::Name(name) = name else {
                    return Err(err(ncol, format!("expected a feature name in {f}(...)")));
                };
                self.expect(&Tok::RParen, "')'")?;
                if f == "has" {
                    return Ok(Node::Has(name));
                }
                let (ocol, op) = self.bump();
                let Tok::Cmp(op) = op else {
                    return Err(err(ocol, "expected a comparison (==, !=, <, <=, >, >=) after len(...)"));
                };
                let (vcol, v) = self.bump();
                match v {
                    Tok::Num(Lit::Int(n)) => Ok(Node::Len(name, op, n)),
                    other => Err(err(
                        vcol,
                        format!("len(...) compares with an integer, found {}", other.describe()),
                    )),
                }
            }
            Tok::Name(name) => self.comparison(name, col),
            other => Err(err(
                col,
                format!(
                    "expected a feature name, has(...), len(...), '!' or '(', found {}",
                    other.describe()
                ),
            )),
        }
    }

    fn comparison(&mut self, name: String, col: usize) -> Result<Node, ParseError> {
        let (ocol, op) = self.bump();
        match op {
            Tok::Cmp(op) => {
                let lit = self.literal(op.text())?;
                Ok(Node::Cmp(name, op, lit))
            }
            Tok::Name(kw) if kw == "in" => {
                self.expect(&Tok::LBracket, "'[' after 'in'")?;
                let mut lits = vec![self.literal("'['")?];
                loop {
                    let (c, t) = self.bump();
                    match t {
                        Tok::Comma => lits.push(self.literal("','")?),
                        Tok::RBracket => break,
                        other => return Err(err(c, format!("expected ',' or ']', found {}", other.describe()))),
                    }
                }
                Ok(Node::In(name, lits))
            }
            Tok::Tilde | Tok::NotTilde => {
                let negated = op == Tok::NotTilde;
                let (scol, s) = self.bump();
                let Tok::Str(pattern) = s else {
                    return Err(err(
                        scol,
                        format!("expected a string (the regex) after '~', found {}", s.describe()),
                    ));
                };
                let pattern = String::from_utf8(pattern).map_err(|_| err(scol, "a regex must be UTF-8 text"))?;
                let re = regex::bytes::RegexBuilder::new(&pattern)
                    .size_limit(self.regex_size)
                    .dfa_size_limit(self.dfa_size)
                    .build()
                    .map_err(|e| {
                        let why = match e {
                            regex::Error::CompiledTooBig(_) if self.regex_size < REGEX_SIZE => format!(
                                "too large once compiled (over {} KiB, each regex's share of {} MiB)",
                                self.regex_size >> 10,
                                REGEXES_SIZE >> 20
                            ),
                            regex::Error::CompiledTooBig(_) => "too large once compiled (over 1 MiB)".to_owned(),
                            other => other.to_string().lines().last().unwrap_or_default().trim().to_owned(),
                        };
                        err(scol, format!("a bad regex: {why}"))
                    })?;
                Ok(Node::Regex(name, re, negated))
            }
            other => Err(err(
                if other == Tok::End { ocol } else { ocol.max(col) },
                format!(
                    "expected a comparison (==, !=, <, <=, >, >=, in, ~) after '{name}', found {}",
                    other.describe()
                ),
            )),
        }
    }

    fn literal(&mut self, after: &str) -> Result<Lit, ParseError> {
        let (col, tok) = self.bump();
        match tok {
            Tok::Num(lit) => Ok(lit),
            Tok::Str(bytes) => Ok(Lit::Bytes(bytes)),
            Tok::Name(n) if n == "true" || n == "false" => Ok(Lit::Int(i64::from(n == "true"))),
            Tok::Name(n) => Err(err(
                col,
                format!("expected a value after {after}, found name '{n}' (strings are quoted: \"{n}\")"),
            )),
            other => Err(err(
                col,
                format!("expected a value after {after}, found {}", other.describe()),
            )),
        }
    }
}

#[cfg(test)]
#[path = "filter_tests.rs"]
mod tests;
