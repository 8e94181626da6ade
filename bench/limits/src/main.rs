//! Minimal single-threaded "limit" loops for bench/run.py, plus the
//! deterministic generator of the benchmark data.
//!
//!   limits gen DIR          write DIR/notebook.tfrecord, DIR/notebook.jsonl,
//!                           DIR/shards/notebook-NNNNN-of-00064.tfrecord,
//!                           DIR/images.tfrecord (deterministic bytes)
//!   limits walk FILE        hop header to header, checking length CRCs
//!   limits crc FILE         check both CRCs of every record
//!   limits inflate FILE     inflate a gzip file (flate2 + zlib-rs), discard
//!   limits jsonl FILE       Example -> natural JSONL on stdout (both CRCs checked)
//!   limits unjsonl IN OUT   JSONL -> framed Example records via serde_json::Value
//!   limits spawn RES CMD..  run CMD (stdio inherited), write "wall_s maxrss_kb
//!                           user_s sys_s exit_code" to RES. A small launcher,
//!                           so the child's peak RSS is its own: Linux carries
//!                           ru_maxrss across execve, and a child forked from
//!                           Python would start at Python's RSS.
//!
//! Each loop prints one line, "records bytes", on stdout (jsonl prints the
//! JSON itself and the counts on stderr). These are reference loops, not a
//! product: no error reporting beyond a panic message, no resync, only the
//! parts of the JSONL mapping the benchmark data needs (natural form).

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

const CHUNK: usize = 1 << 20;

fn mask(crc: u32) -> u32 {
    ((crc >> 15) | (crc << 17)).wrapping_add(0xa282_ead8)
}

fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().unwrap())
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b[..4].try_into().unwrap())
}

/// A reusable 1 MiB window over a file: no per-record allocation or syscall.
struct Chunks {
    f: File,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
}

impl Chunks {
    fn open(p: &str) -> Chunks {
        let f = File::open(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        Chunks { f, buf: vec![0; CHUNK], pos: 0, end: 0 }
    }

    /// Make at least `n` bytes available at `pos`; false at end of file.
    fn fill(&mut self, n: usize) -> bool {
        if self.end - self.pos >= n {
            return true;
        }
        if n > self.buf.len() {
            self.buf.resize(n.next_power_of_two(), 0);
        }
        self.buf.copy_within(self.pos..self.end, 0);
        self.end -= self.pos;
        self.pos = 0;
        while self.end < n {
            let r = self.f.read(&mut self.buf[self.end..]).unwrap();
            if r == 0 {
                return false;
            }
            self.end += r;
        }
        true
    }

    fn skip(&mut self, n: u64) {
        let avail = (self.end - self.pos) as u64;
        if n <= avail {
            self.pos += n as usize;
        } else {
            self.f.seek(SeekFrom::Current((n - avail) as i64)).unwrap();
            self.pos = 0;
            self.end = 0;
        }
    }

    fn header(&mut self) -> Option<u64> {
        if !self.fill(12) {
            assert!(self.end == self.pos, "partial header at end");
            return None;
        }
        let h = &self.buf[self.pos..self.pos + 12];
        assert_eq!(mask(crc32c::crc32c(&h[..8])), le32(&h[8..]), "length crc");
        self.pos += 12;
        Some(le64(h))
    }

    /// The payload of the record whose header was just read (both CRCs checked).
    fn payload(&mut self, len: u64) -> &[u8] {
        let n = len as usize;
        assert!(self.fill(n + 4), "truncated payload");
        let d = &self.buf[self.pos..self.pos + n];
        assert_eq!(mask(crc32c::crc32c(d)), le32(&self.buf[self.pos + n..]), "data crc");
        self.pos += n + 4;
        &self.buf[self.pos - n - 4..self.pos - 4]
    }
}

fn walk(p: &str) {
    let mut c = Chunks::open(p);
    let (mut n, mut bytes) = (0u64, 0u64);
    while let Some(len) = c.header() {
        c.skip(len + 4);
        n += 1;
        bytes += len;
    }
    println!("{n} {bytes}");
}

fn crc(p: &str) {
    let mut c = Chunks::open(p);
    let (mut n, mut bytes) = (0u64, 0u64);
    while let Some(len) = c.header() {
        c.payload(len);
        n += 1;
        bytes += len;
    }
    println!("{n} {bytes}");
}

fn inflate(p: &str) {
    let f = File::open(p).unwrap();
    let mut d = flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, f));
    let mut buf = vec![0u8; 1 << 18];
    let mut bytes = 0u64;
    loop {
        let r = d.read(&mut buf).unwrap();
        if r == 0 {
            break;
        }
        bytes += r as u64;
    }
    println!("0 {bytes}");
}

// ---------------------------------------------------------------- protobuf

fn varint(b: &[u8], i: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut s = 0;
    loop {
        let x = b[*i];
        *i += 1;
        v |= ((x & 0x7f) as u64) << s;
        if x < 0x80 {
            return v;
        }
        s += 7;
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_len(out: &mut Vec<u8>, tag: u8, body: &[u8]) {
    out.push(tag);
    put_varint(out, body.len() as u64);
    out.extend_from_slice(body);
}

/// Skip a field whose tag was read; returns the slice for length-delimited.
fn field<'a>(b: &'a [u8], i: &mut usize, tag: u64) -> Option<&'a [u8]> {
    match tag & 7 {
        0 => {
            varint(b, i);
            None
        }
        1 => {
            *i += 8;
            None
        }
        5 => {
            *i += 4;
            None
        }
        2 => {
            let n = varint(b, i) as usize;
            *i += n;
            Some(&b[*i - n..*i])
        }
        w => panic!("wire type {w}"),
    }
}

fn json_str(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    for &c in s {
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0..=0x1f => {
                out.extend_from_slice(b"\\u00");
                out.push(b"0123456789abcdef"[(c >> 4) as usize]);
                out.push(b"0123456789abcdef"[(c & 15) as usize]);
            }
            _ => out.push(c),
        }
    }
    out.push(b'"');
}

fn json_f32(out: &mut Vec<u8>, f: f32, rb: &mut ryu::Buffer) {
    if f.is_finite() {
        out.extend_from_slice(rb.format_finite(f).as_bytes());
    } else if f.is_nan() {
        out.extend_from_slice(b"\"NaN\"");
    } else if f > 0.0 {
        out.extend_from_slice(b"\"Infinity\"");
    } else {
        out.extend_from_slice(b"\"-Infinity\"");
    }
}

fn feature_json(f: &[u8], out: &mut Vec<u8>, rb: &mut ryu::Buffer, ib: &mut itoa::Buffer) {
    use base64::Engine;
    let mut i = 0;
    let mut kind = 0;
    let mut list: &[u8] = &[];
    while i < f.len() {
        let t = varint(f, &mut i);
        if let Some(body) = field(f, &mut i, t) {
            kind = t >> 3;
            list = body;
        }
    }
    if kind == 0 {
        out.extend_from_slice(b"null");
        return;
    }
    out.push(b'[');
    let mut first = true;
    let mut sep = |out: &mut Vec<u8>| {
        if !first {
            out.push(b',');
        }
        first = false;
    };
    let mut j = 0;
    while j < list.len() {
        let t = varint(list, &mut j);
        match (kind, t) {
            (1, 0x0a) => {
                let b = field(list, &mut j, t).unwrap();
                sep(out);
                if std::str::from_utf8(b).is_ok() {
                    json_str(out, b);
                } else {
                    out.extend_from_slice(b"{\"base64\":\"");
                    let s = base64::engine::general_purpose::STANDARD.encode(b);
                    out.extend_from_slice(s.as_bytes());
                    out.extend_from_slice(b"\"}");
                }
            }
            (2, 0x0a) => {
                for c in field(list, &mut j, t).unwrap().chunks_exact(4) {
                    sep(out);
                    json_f32(out, f32::from_le_bytes(c.try_into().unwrap()), rb);
                }
            }
            (2, 0x0d) => {
                sep(out);
                json_f32(out, f32::from_le_bytes(list[j..j + 4].try_into().unwrap()), rb);
                j += 4;
            }
            (3, 0x0a) => {
                let p = field(list, &mut j, t).unwrap();
                let mut k = 0;
                while k < p.len() {
                    sep(out);
                    out.extend_from_slice(ib.format(varint(p, &mut k) as i64).as_bytes());
                }
            }
            (3, 0x08) => {
                sep(out);
                out.extend_from_slice(ib.format(varint(list, &mut j) as i64).as_bytes());
            }
            _ => {
                field(list, &mut j, t);
            }
        }
    }
    out.push(b']');
}

fn example_json(p: &[u8], out: &mut Vec<u8>, rb: &mut ryu::Buffer, ib: &mut itoa::Buffer) {
    out.push(b'{');
    let mut first = true;
    let mut i = 0;
    while i < p.len() {
        let t = varint(p, &mut i);
        let Some(feats) = field(p, &mut i, t) else { continue };
        if t != 0x0a {
            continue;
        }
        let mut j = 0;
        while j < feats.len() {
            let t = varint(feats, &mut j);
            let Some(entry) = field(feats, &mut j, t) else { continue };
            let (mut key, mut val): (&[u8], &[u8]) = (&[], &[]);
            let mut k = 0;
            while k < entry.len() {
                let t = varint(entry, &mut k);
                match (t, field(entry, &mut k, t)) {
                    (0x0a, Some(b)) => key = b,
                    (0x12, Some(b)) => val = b,
                    _ => {}
                }
            }
            if !first {
                out.push(b',');
            }
            first = false;
            json_str(out, key);
            out.push(b':');
            feature_json(val, out, rb, ib);
        }
    }
    out.extend_from_slice(b"}\n");
}

fn jsonl(p: &str) {
    let mut c = Chunks::open(p);
    let stdout = io::stdout();
    let mut w = stdout.lock();
    let mut out = Vec::with_capacity(1 << 17);
    let mut rb = ryu::Buffer::new();
    let mut ib = itoa::Buffer::new();
    let (mut n, mut bytes) = (0u64, 0u64);
    while let Some(len) = c.header() {
        example_json(c.payload(len), &mut out, &mut rb, &mut ib);
        n += 1;
        bytes += len;
        if out.len() >= 1 << 16 {
            w.write_all(&out).unwrap();
            out.clear();
        }
    }
    w.write_all(&out).unwrap();
    eprintln!("{n} {bytes}");
}

fn frame(w: &mut impl Write, data: &[u8]) {
    let len = (data.len() as u64).to_le_bytes();
    w.write_all(&len).unwrap();
    w.write_all(&mask(crc32c::crc32c(&len)).to_le_bytes()).unwrap();
    w.write_all(data).unwrap();
    w.write_all(&mask(crc32c::crc32c(data)).to_le_bytes()).unwrap();
}

fn unjsonl(input: &str, output: &str) {
    use base64::Engine;
    use serde_json::Value;
    let mut r = BufReader::with_capacity(1 << 16, File::open(input).unwrap());
    let mut w = BufWriter::with_capacity(1 << 16, File::create(output).unwrap());
    let mut line = Vec::new();
    let (mut feats, mut entry, mut feat, mut list, mut packed, mut ex) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut n, mut bytes) = (0u64, 0u64);
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line).unwrap() == 0 {
            break;
        }
        if line.iter().all(|c| c.is_ascii_whitespace()) {
            continue;
        }
        let v: Value = serde_json::from_slice(&line).unwrap();
        let Value::Object(map) = v else { panic!("not an object") };
        feats.clear();
        for (k, v) in &map {
            let vals: &[Value] = match v {
                Value::Array(a) => a,
                one => std::slice::from_ref(one),
            };
            list.clear();
            packed.clear();
            let kind = if vals.iter().all(|x| x.is_i64()) {
                vals.iter().for_each(|x| put_varint(&mut packed, x.as_i64().unwrap() as u64));
                put_len(&mut list, 0x0a, &packed);
                0x1a
            } else if vals.iter().all(|x| x.is_number()) {
                vals.iter().for_each(|x| packed.extend_from_slice(&(x.as_f64().unwrap() as f32).to_le_bytes()));
                put_len(&mut list, 0x0a, &packed);
                0x12
            } else {
                for x in vals {
                    match x {
                        Value::String(s) => put_len(&mut list, 0x0a, s.as_bytes()),
                        Value::Object(o) => {
                            let b = base64::engine::general_purpose::STANDARD
                                .decode(o["base64"].as_str().unwrap())
                                .unwrap();
                            put_len(&mut list, 0x0a, &b)
                        }
                        _ => panic!("unsupported value"),
                    }
                }
                0x0a
            };
            feat.clear();
            put_len(&mut feat, kind, &list);
            entry.clear();
            put_len(&mut entry, 0x0a, k.as_bytes());
            put_len(&mut entry, 0x12, &feat);
            put_len(&mut feats, 0x0a, &entry);
        }
        ex.clear();
        put_len(&mut ex, 0x0a, &feats);
        frame(&mut w, &ex);
        n += 1;
        bytes += ex.len() as u64;
    }
    w.flush().unwrap();
    println!("{n} {bytes}");
}

// ---------------------------------------------------------------- generator

/// SplitMix64: tiny, fast, fully specified, so the data is byte-identical
/// on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Approximately standard normal (Irwin-Hall, 12 uniforms): only IEEE
    /// additions, no libm, so it is reproducible everywhere.
    fn randn(&mut self) -> f32 {
        let mut s = 0.0f64;
        for _ in 0..12 {
            s += (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        }
        (s - 6.0) as f32
    }
}

const ANIMALS: [&str; 5] = ["cat", "dog", "chicken", "horse", "goat"];
const NOTEBOOK_RECORDS: usize = 1_000_000;
const SHARDS: usize = 64;
const IMAGE_RECORDS: usize = 2_000;
const IMAGE_BYTES: usize = 100_000;
const IMAGE_FLOATS: usize = 512;

fn entry(feats: &mut Vec<u8>, key: &str, kind: u8, list_body: &[u8], tmp: &mut Vec<u8>) {
    // Feature { kind: List { value: body } }, then the map entry.
    let mut list = Vec::with_capacity(list_body.len() + 4);
    put_len(&mut list, 0x0a, list_body);
    let mut feat = Vec::with_capacity(list.len() + 4);
    put_len(&mut feat, kind, &list);
    tmp.clear();
    put_len(tmp, 0x0a, key.as_bytes());
    put_len(tmp, 0x12, &feat);
    put_len(feats, 0x0a, tmp);
}

fn gen(dir: &str) {
    let dir = Path::new(dir);
    fs::create_dir_all(dir.join("shards")).unwrap();
    let create = |p: &Path| BufWriter::with_capacity(1 << 20, File::create(p).unwrap());

    // The TF tutorial's notebook dataset (map entries in the tutorial's wire order).
    let mut rng = Rng(0x7f4a_2021);
    let mut tf = create(&dir.join("notebook.tfrecord"));
    let mut js = create(&dir.join("notebook.jsonl"));
    let per_shard = NOTEBOOK_RECORDS / SHARDS;
    let mut shard = None;
    let (mut feats, mut ex, mut tmp, mut line) = (vec![], vec![], vec![], String::new());
    let mut rb = ryu::Buffer::new();
    for i in 0..NOTEBOOK_RECORDS {
        let f0 = rng.next() % 2;
        let f1 = rng.next() % 5;
        let f2 = ANIMALS[f1 as usize];
        let f3 = rng.randn();
        feats.clear();
        entry(&mut feats, "feature2", 0x0a, f2.as_bytes(), &mut tmp);
        entry(&mut feats, "feature3", 0x12, &f3.to_le_bytes(), &mut tmp);
        entry(&mut feats, "feature0", 0x1a, &[f0 as u8], &mut tmp);
        entry(&mut feats, "feature1", 0x1a, &[f1 as u8], &mut tmp);
        ex.clear();
        put_len(&mut ex, 0x0a, &feats);
        frame(&mut tf, &ex);
        if i % per_shard == 0 {
            let name = format!("notebook-{:05}-of-{SHARDS:05}.tfrecord", i / per_shard);
            if let Some(mut s) = shard.replace(create(&dir.join("shards").join(name))) {
                s.flush().unwrap();
            }
        }
        frame(shard.as_mut().unwrap(), &ex);
        line.clear();
        line.push_str("{\"feature2\":[\"");
        line.push_str(f2);
        line.push_str("\"],\"feature3\":[");
        line.push_str(rb.format_finite(f3));
        line.push_str("],\"feature0\":[");
        line.push_str(if f0 == 1 { "1" } else { "0" });
        line.push_str("],\"feature1\":[");
        line.push((b'0' + f1 as u8) as char);
        line.push_str("]}\n");
        js.write_all(line.as_bytes()).unwrap();
    }
    for mut w in [tf, js].into_iter().chain(shard) {
        w.flush().unwrap();
    }

    // 2,000 records of 100 KB random bytes + 512 floats.
    let mut rng = Rng(0x1ea9_e5);
    let mut w = create(&dir.join("images.tfrecord"));
    let (mut img, mut floats) = (vec![0u8; IMAGE_BYTES], Vec::with_capacity(IMAGE_FLOATS * 4));
    for _ in 0..IMAGE_RECORDS {
        for c in img.chunks_mut(8) {
            let b = rng.next().to_le_bytes();
            c.copy_from_slice(&b[..c.len()]);
        }
        floats.clear();
        for _ in 0..IMAGE_FLOATS {
            floats.extend_from_slice(&rng.randn().to_le_bytes());
        }
        feats.clear();
        entry(&mut feats, "image", 0x0a, &img, &mut tmp);
        entry(&mut feats, "embedding", 0x12, &floats, &mut tmp);
        ex.clear();
        put_len(&mut ex, 0x0a, &feats);
        frame(&mut w, &ex);
    }
    w.flush().unwrap();
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let arg = |i: usize| a.get(i).map(String::as_str).unwrap_or_else(|| usage());
    match arg(1) {
        "gen" => gen(arg(2)),
        "walk" => walk(arg(2)),
        "crc" => crc(arg(2)),
        "inflate" => inflate(arg(2)),
        "jsonl" => jsonl(arg(2)),
        "unjsonl" => unjsonl(arg(2), arg(3)),
        "spawn" if a.len() > 3 => spawn(&a[2], &a[3..]),
        _ => usage(),
    }
}

fn spawn(res: &str, argv: &[String]) {
    let t = std::time::Instant::now();
    let status = std::process::Command::new(&argv[0])
        .args(&argv[1..])
        .status()
        .unwrap_or_else(|e| panic!("{}: {e}", argv[0]));
    let wall = t.elapsed().as_secs_f64();
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage only writes into the struct we pass.
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) }, 0);
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let code = status.code().unwrap_or(-1);
    fs::write(
        res,
        format!("{wall:.6} {} {:.6} {:.6} {code}\n", ru.ru_maxrss, secs(ru.ru_utime), secs(ru.ru_stime)),
    )
    .unwrap();
    std::process::exit(code.clamp(0, 255));
}

fn usage() -> ! {
    eprintln!("usage: limits gen DIR | walk FILE | crc FILE | inflate FILE | jsonl FILE | unjsonl IN OUT | spawn RES CMD...");
    std::process::exit(2)
}
