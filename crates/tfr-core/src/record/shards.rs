//! Writing framed records into shards of an [`OutputSet`]: `tfr reshard`,
//! and each split of `tfr split`.
//!
//! Records go to the shards in the order written, in contiguous runs:
//!
//! - [`Policy::Count`]: `shards` shards of `total` records, balanced by
//!   records (shard `k` holds records `k·total/shards` up to
//!   `(k+1)·total/shards`, so counts differ by at most one; with more
//!   shards than records some are empty, and still written).
//! - [`Policy::Size`]: a new shard whenever the next record could make the
//!   current one larger than `max` bytes *as written* (compressed, when the
//!   output is): no shard is over it, except one holding a single record
//!   larger than it alone. For a compressed output the size is known only
//!   as it is written: the writer counts the compressed bytes on disk,
//!   bounds what its compressor still holds by the worst case of the
//!   compression (deflate: stored blocks; SNAPPY: incompressible blocks),
//!   and when that bound could cross `max` it flushes the compressor (a
//!   sync flush: then the size is exact) and decides again. So shards end
//!   within about a record's worst case of `max`, and only a few flushes
//!   are made per shard. The number of shards is known at the end, so the
//!   shards are written under provisional names and named
//!   `-00000-of-0000N` when done (local files only).
//! - [`Policy::One`]: one output, the path as given.
//!
//! Shard `k` of `n` is named by [`shard_name`]. One shard is open at a
//! time (shards are filled one after the other); gzip is compressed on
//! `threads` threads (2 to 8), in independent 512 KiB chunks ([`crate::io::deflate`]),
//! so the bytes written are the same whatever the number of threads.

use crate::error::{bail, Result};
use crate::io::output_set::{shard_name, OutputSet};
use crate::io::Compression;
use crate::record::RecordWriter;
use std::path::{Path, PathBuf};

/// The most threads gzip is compressed on (each holds a 512 KiB chunk and
/// its output): the memory bound stays about 8 MiB above the
/// reader's however many cores there are.
pub const COMPRESSION_THREADS: usize = 8;

/// How records are cut into shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// One output, named as given.
    One,
    /// `shards` shards holding `total` records between them, balanced.
    Count {
        /// How many shards.
        shards: usize,
        /// The records of them all.
        total: u64,
    },
    /// Shards of at most `max` bytes as written.
    Size {
        /// The most bytes a shard holds.
        max: u64,
    },
}

/// Writes framed records into the shards of one output name.
pub struct ShardWriter {
    base: PathBuf,
    policy: Policy,
    compression: Compression,
    threads: usize,
    /// Per shard made so far: its number in the set.
    made: Vec<usize>,
    /// Records written in all.
    records: u64,
    /// Records in the current shard.
    in_shard: u64,
    /// Size policy: bytes on disk at the last sync, and bytes written
    /// (uncompressed) since.
    on_disk: u64,
    pending: u64,
}

impl ShardWriter {
    /// A writer of the shards of `base` (`DIR/NAME.tfrecord[.gz]`), its
    /// compression `forced` or from the name. The first shard is created at
    /// once (an unwritable directory fails before any work).
    pub fn new(
        set: &mut OutputSet,
        base: &Path,
        policy: Policy,
        forced: Option<Compression>,
        threads: usize,
    ) -> Result<ShardWriter> {
        if let Policy::Count { shards: 0, .. } = policy {
            bail!("the number of shards must be at least 1");
        }
        if let Policy::Size { max: 0 } = policy {
            bail!("the shard size must be at least 1 byte");
        }
        let bytes = base.as_os_str().as_encoded_bytes();
        if matches!(policy, Policy::Size { .. }) && crate::io::remote::parse(bytes).is_some() {
            bail!(
                "{}: --shard-size writes local files only (how many shards there are is known at the end, \
                 and an object's name is fixed when its upload starts); use --shards N",
                crate::io::input::show_path(base)
            );
        }
        let mut writer = ShardWriter {
            base: base.to_path_buf(),
            policy,
            compression: Compression::for_output(base, forced),
            threads,
            made: Vec::new(),
            records: 0,
            in_shard: 0,
            on_disk: 0,
            pending: 0,
        };
        writer.open_next(set)?;
        Ok(writer)
    }

    /// [`Policy::Count`]: the number of records, when it is known only
    /// after the writer was made (counted in a first pass); before any
    /// record is written.
    pub fn set_total(&mut self, records: u64) {
        debug_assert_eq!(self.records, 0, "set_total before writing");
        if let Policy::Count { total, .. } = &mut self.policy {
            *total = records;
        }
    }

    /// How records are cut (with the total set).
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The compression the shards are written with.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The name shard `k` is created under.
    fn name(&self, k: usize) -> PathBuf {
        match self.policy {
            Policy::One => self.base.clone(),
            Policy::Count { shards, .. } => shard_name(&self.base, k, shards),
            // Provisional: renamed when the count is known.
            Policy::Size { .. } => shard_name(&self.base, k, 0),
        }
    }

    /// Ends the current shard (if any) and starts the next one.
    fn open_next(&mut self, set: &mut OutputSet) -> Result<()> {
        if let Some(&current) = self.made.last() {
            set.end(current)?;
        }
        let name = self.name(self.made.len());
        // gzip always in the threaded writer's independent chunks, so the
        // bytes (and the shards' cuts) are the same for any -j.
        // At most COMPRESSION_THREADS: each holds about 4 MiB of chunks.
        let threads = self.threads.clamp(2, COMPRESSION_THREADS);
        // One output named as given is the user's to name (a FIFO, a device).
        let i = match self.policy {
            Policy::One => set.create_whole(&name, Some(self.compression), threads)?,
            _ => set.create(&name, Some(self.compression), threads)?,
        };
        self.made.push(i);
        self.in_shard = 0;
        self.on_disk = 0;
        self.pending = 0;
        Ok(())
    }

    /// The current shard's output.
    fn current(&self) -> usize {
        *self.made.last().expect("the first shard is made in new")
    }

    /// Appends one framed record.
    pub fn write(&mut self, set: &mut OutputSet, framed: &[u8]) -> Result<()> {
        let len = framed.len() as u64;
        let i = self.advance(set, len)?;
        let out = set.get(i);
        if let Err(e) = std::io::Write::write_all(out, framed) {
            let name = out.display();
            return Err(crate::error::Error::from(e).context(format!("{name}: write failed")));
        }
        self.wrote(len);
        Ok(())
    }

    /// Appends one record, framed around `payload` with its CRC already
    /// known, in three writes (header, payload, footer) as
    /// [`RecordWriter::write_record_with_crc`] makes them: a compressed
    /// shard's bytes are those of a writer fed that way (the threaded
    /// compressor cuts its chunks at write boundaries).
    pub fn write_record(&mut self, set: &mut OutputSet, payload: &[u8], crc: u32) -> Result<()> {
        let len = payload.len() as u64 + 16;
        let i = self.advance(set, len)?;
        let out = set.get(i);
        if let Err(e) = RecordWriter::new(&mut *out).write_record_with_crc(payload, crc) {
            let name = out.display();
            return Err(crate::error::Error::from(e).context(format!("{name}: write failed")));
        }
        self.wrote(len);
        Ok(())
    }

    /// The output the next record of `len` framed bytes goes to, after
    /// ending the current shard where the policy says so.
    fn advance(&mut self, set: &mut OutputSet, len: u64) -> Result<usize> {
        match self.policy {
            Policy::One => {}
            Policy::Count { shards, total } => {
                // Records k·total/shards .. (k+1)·total/shards go to shard k.
                let start = |k: usize| (u128::from(total) * k as u128 / shards as u128) as u64;
                while self.made.len() < shards && self.records >= start(self.made.len()) {
                    self.open_next(set)?;
                }
            }
            Policy::Size { max } => {
                if self.in_shard > 0 && self.on_disk + self.bound(self.pending + len) > max {
                    let out = set.get(self.current());
                    let name = out.display();
                    self.on_disk = out
                        .sync()
                        .map_err(|e| crate::error::Error::from(e).context(format!("{name}: write failed")))?;
                    self.pending = 0;
                    if self.on_disk + self.bound(len) > max {
                        self.open_next(set)?;
                    }
                }
            }
        }
        Ok(self.current())
    }

    /// Counts a record of `len` framed bytes written.
    fn wrote(&mut self, len: u64) {
        self.records += 1;
        self.in_shard += 1;
        self.pending += len;
    }

    /// The most bytes `n` bytes written can add to the file once it is
    /// finished: the compression's worst case, with room for its header,
    /// final block and trailer.
    fn bound(&self, n: u64) -> u64 {
        match self.compression {
            Compression::None => n,
            // deflate: stored blocks cost 5 bytes per 64 KiB (zlib's
            // deflateBound is n + n/4096 + n/16384 + 13); each chunk of the
            // threaded gzip is a stream of its own ended by a sync flush.
            Compression::Gzip | Compression::Zlib => n + n / 256 + 1024,
            // snappy: 32 + n + n/6 per block, plus its 4-byte length.
            Compression::Snappy => n + n / 5 + 1024,
        }
    }

    /// Records written.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Makes the shards no record reached (with more shards than records),
    /// names size-cut shards `-of-N`; the shards are then in `set`, to be
    /// committed with it. Returns how many shards there are.
    pub fn finish(mut self, set: &mut OutputSet) -> Result<usize> {
        if let Policy::Count { shards, .. } = self.policy {
            while self.made.len() < shards {
                self.open_next(set)?;
            }
        }
        set.end(self.current())?;
        let n = self.made.len();
        if let Policy::Size { .. } = self.policy {
            for (k, &i) in self.made.iter().enumerate() {
                set.rename(i, &shard_name(&self.base, k, n))?;
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::append_framed;

    fn framed(len: usize, seed: u64) -> Vec<u8> {
        let mut out = Vec::new();
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        append_framed::<()>(&mut out, |o| {
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                o.push(x as u8);
            }
            Ok(())
        })
        .unwrap();
        out
    }

    fn listing(dir: &Path) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    e.metadata().unwrap().len(),
                )
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn counts_are_balanced_and_empty_shards_made() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("t.tfrecord");
        let mut set = OutputSet::new(&[], &[], "-o");
        let policy = Policy::Count { shards: 4, total: 10 };
        let mut w = ShardWriter::new(&mut set, &base, policy, None, 1).unwrap();
        for i in 0..10 {
            w.write(&mut set, &framed(1, i)).unwrap();
        }
        assert_eq!(w.finish(&mut set).unwrap(), 4);
        set.commit().unwrap();
        // 17 bytes a record: 2, 3, 2, 3 records (k·10/4 = 0, 2, 5, 7).
        let sizes: Vec<u64> = listing(dir.path()).iter().map(|(_, s)| *s).collect();
        assert_eq!(sizes, [34, 51, 34, 51]);
        let dir = tempfile::tempdir().unwrap();
        let mut set = OutputSet::new(&[], &[], "-o");
        let base = dir.path().join("t.tfrecord.gz");
        let policy = Policy::Count { shards: 3, total: 1 };
        let mut w = ShardWriter::new(&mut set, &base, policy, None, 2).unwrap();
        w.write(&mut set, &framed(1, 0)).unwrap();
        w.finish(&mut set).unwrap();
        set.commit().unwrap();
        let names: Vec<String> = listing(dir.path()).into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "t-00000-of-00003.tfrecord.gz",
                "t-00001-of-00003.tfrecord.gz",
                "t-00002-of-00003.tfrecord.gz"
            ]
        );
    }

    #[test]
    fn sized_shards_stay_under_the_limit_for_every_compression() {
        for (name, threads, max) in [
            ("p.tfrecord", 1, 50_000),
            ("g.tfrecord.gz", 1, 50_000),
            ("g.tfrecord.gz", 4, 400_000),
            ("z.tfrecord.zz", 1, 40_000),
            ("s.tfrecord.snappy", 1, 60_000),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let mut set = OutputSet::new(&[], &[], "-o");
            let base = dir.path().join(name);
            let mut w = ShardWriter::new(&mut set, &base, Policy::Size { max }, None, threads).unwrap();
            let mut total = 0;
            // Half random (incompressible), half zeros (compressible).
            for i in 0..3000u64 {
                let mut r = framed(if i % 7 == 0 { 3000 } else { 100 }, i);
                if i % 2 == 0 {
                    let len = r.len();
                    r = Vec::new();
                    append_framed::<()>(&mut r, |o| {
                        o.resize(len - 16, 0);
                        Ok(())
                    })
                    .unwrap();
                }
                total += r.len() as u64;
                w.write(&mut set, &r).unwrap();
            }
            let n = w.finish(&mut set).unwrap();
            set.commit().unwrap();
            let files = listing(dir.path());
            assert_eq!(files.len(), n, "{name}");
            assert!(n > 1, "{name}: {total} bytes in {n} shards");
            for (k, (file, size)) in files.iter().enumerate() {
                assert!(*size <= max, "{name}: {file} is {size} bytes, over {max}");
                assert!(file.contains(&format!("-{k:05}-of-{n:05}")), "{file}");
                if k + 1 < n {
                    assert!(*size > max / 2, "{name}: {file} is only {size} of {max}");
                }
            }
        }
    }

    #[test]
    fn a_record_larger_than_the_size_has_a_shard_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let mut set = OutputSet::new(&[], &[], "-o");
        let base = dir.path().join("t");
        let mut w = ShardWriter::new(&mut set, &base, Policy::Size { max: 100 }, None, 1).unwrap();
        for len in [10, 500, 10, 10] {
            w.write(&mut set, &framed(len, 1)).unwrap();
        }
        assert_eq!(w.finish(&mut set).unwrap(), 3);
        set.commit().unwrap();
        let sizes: Vec<u64> = listing(dir.path()).iter().map(|(_, s)| *s).collect();
        assert_eq!(sizes, [26, 516, 52]);
    }

    #[test]
    fn sized_shards_are_refused_for_objects() {
        let mut set = OutputSet::new(&[], &[], "-o");
        let err = ShardWriter::new(
            &mut set,
            Path::new("s3://b/t.tfrecord"),
            Policy::Size { max: 9 },
            None,
            1,
        )
        .err()
        .unwrap();
        assert!(
            format!("{err:#}").contains("--shard-size writes local files only"),
            "{err:#}"
        );
    }
}
