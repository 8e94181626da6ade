//! Bounded memory for long and bogus records (issue 17): a length field
//! with a valid CRC never makes a command hold more than it may — readers
//! that must hold a record refuse one over `--max-record-size`, verify-crc
//! (and its salvage) streams long records through — and verify-crc keeps its
//! verdict when its stdout is closed; to-wds, from-wds and extract hold a
//! window of batches, not the dataset.

use crate::util::*;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

/// Runs `tfr ARGS` under GNU time, feeding `stdin` (written from a thread,
/// errors ignored); returns the exit code, stderr without time's line, and
/// the peak RSS in MB. `None` when /usr/bin/time is missing (skipped, or a
/// failure under CI).
fn measured(dir: &Dir, args: &[&str], stdin: Option<Vec<u8>>) -> Option<(i32, String, u64)> {
    if !std::path::Path::new("/usr/bin/time").exists() {
        skip_or_fail("GNU time (/usr/bin/time) is not installed");
        return None;
    }
    let mut cmd = Command::new("/usr/bin/time");
    cmd.arg("-f")
        .arg("PEAK_KB=%M")
        .arg(env!("CARGO_BIN_EXE_tfr"))
        .args(args)
        .current_dir(dir.path("."))
        .env_clear()
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = cmd.spawn().expect("spawn");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("stdin");
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    let (rest, peak_mb) = split_peak(&err);
    Some((status.code().unwrap_or(-1), rest, peak_mb))
}

/// A header announcing `length` bytes, then `fill` zero bytes.
fn bogus_header(length: u64, fill: usize) -> Vec<u8> {
    let mut bytes = tfr::record::encode_header(length).to_vec();
    bytes.resize(12 + fill, 0);
    bytes
}

#[test]
fn a_huge_announced_length_on_a_stream_is_refused_at_once() {
    let dir = Dir::new();
    // 2^40 bytes announced, 32 MB of zeros present: the commands that must
    // hold a record refuse it unread, with one line naming the limit.
    let input = bogus_header(1 << 40, 32 << 20);
    for cmd in [&["cat"][..], &["head", "-n", "1"], &["to-jsonl"], &["schema"]] {
        let Some((code, err, peak)) = measured(&dir, cmd, Some(input.clone())) else {
            return;
        };
        assert_eq!(code, 2, "{cmd:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{cmd:?}: {err}");
        assert!(err.contains("record 0 at byte 0"), "{cmd:?}: {err}");
        assert!(err.contains("--max-record-size"), "{cmd:?}: {err}");
        assert!(peak < 40, "{cmd:?}: peak RSS {peak} MB");
    }
}

#[test]
fn a_huge_announced_length_in_a_sparse_file_is_refused_unread() {
    let dir = Dir::new();
    // A 3 GiB sparse file whose first header announces 2 GiB (over the
    // 1 GiB default): nothing is read into memory.
    let path = dir.path("sparse.tfrecord");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(&tfr::record::encode_header(2 << 30)).unwrap();
    f.set_len(3 << 30).unwrap();
    drop(f);
    for cmd in [
        &["cat", "sparse.tfrecord"][..],
        &["head", "sparse.tfrecord"],
        &["to-jsonl", "sparse.tfrecord"],
    ] {
        let Some((code, err, peak)) = measured(&dir, cmd, None) else {
            return;
        };
        assert_eq!(code, 2, "{cmd:?}: {err}");
        assert!(err.contains("limit (1 GiB)"), "{cmd:?}: {err}");
        assert!(peak < 40, "{cmd:?}: peak RSS {peak} MB");
    }
    // count hops over it without reading it.
    let ran = dir.tfr(&["count", "sparse.tfrecord"]).run();
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("record 1"), "{}", ran.stderr);
}

#[test]
fn max_record_size_lets_a_long_record_through_or_refuses_it() {
    let dir = Dir::new();
    let big = vec![7u8; 3 << 20];
    let file = records(&[b"a", &big, b"c"]);
    dir.write("x.tfrecord", &file);
    let line = dir
        .tfr(&["cat", "--type", "raw", "--max-record-size", "1M", "x.tfrecord"])
        .run()
        .fails(2);
    assert!(
        line.contains("record 1 at byte 17") && line.contains("limit (1 MiB)"),
        "{line}"
    );
    let out = dir
        .tfr(&["cat", "--type", "raw", "--max-record-size", "4M", "x.tfrecord"])
        .run()
        .ok();
    assert_eq!(out.lines().filter(|l| l.starts_with("# record")).count(), 3);
    let usage = dir.tfr(&["cat", "--max-record-size", "lots", "x.tfrecord"]).run();
    assert_eq!(usage.code, 2);
    assert!(usage.stderr.contains("not a size"), "{}", usage.stderr);
}

/// Small records around long ones: `n` payloads, every fifth 40 MB.
fn with_long_records() -> Vec<Vec<u8>> {
    (0..12u32)
        .map(|i| match i % 5 {
            2 => (0..40u32 << 20)
                .map(|j| (j.wrapping_mul(2654435761) >> 24) as u8)
                .collect(),
            _ => format!("record {i}").into_bytes(),
        })
        .collect()
}

#[test]
#[ignore = "slow: records over the hold limit streamed and salvaged from plain, gzip and piped inputs: cargo test -- --include-ignored"]
fn verify_crc_streams_long_records_and_salvages_them_exactly() {
    let dir = Dir::new();
    let payloads = with_long_records();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let mut file = records(&refs);
    // Damage one small record after the first long one.
    let at: usize = payloads[..3].iter().map(|p| p.len() + 16).sum();
    file[at + 13] ^= 0x40;
    dir.write("x.tfrecord", &file);
    let intact: Vec<&[u8]> = refs
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, p)| *p)
        .collect();
    let want = records(&intact);
    // From a pipe (the sequential scanner) and from the file with --salvage.
    for (args, stdin) in [
        (vec!["verify-crc", "--salvage", "out1.tfrecord"], Some(file.clone())),
        (vec!["verify-crc", "--salvage", "out2.tfrecord", "x.tfrecord"], None),
        (vec!["verify-crc", "-"], Some(file.clone())),
    ] {
        let Some((code, err, peak)) = measured(&dir, &args, stdin) else {
            return;
        };
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains(&format!("record 3 at byte {at}: data checksum mismatch")),
            "{args:?}: {err}"
        );
        assert!(peak < 48, "{args:?}: peak RSS {peak} MB for 40 MB records");
    }
    for out in ["out1.tfrecord", "out2.tfrecord"] {
        assert!(
            std::fs::read(dir.path(out)).unwrap() == want,
            "{out} is not the intact records"
        );
    }
}

#[test]
fn verify_crc_keeps_its_verdict_when_stdout_is_closed() {
    let dir = Dir::new();
    let payloads: Vec<Vec<u8>> = (0..20_000u32).map(|i| i.to_le_bytes().repeat(10)).collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let mut file = records(&refs);
    file[5000] ^= 1;
    dir.write("d.tfrecord", &file);
    for _ in 0..5 {
        // `tfr verify-crc d.tfrecord | true`: the reader is gone before the summary.
        let mut child = Command::new(env!("CARGO_BIN_EXE_tfr"))
            .args(["verify-crc", "d.tfrecord"])
            .current_dir(dir.path("."))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        assert_eq!(child.wait().unwrap().code(), Some(1), "damage must stay exit 1");
    }
}

#[test]
fn verify_crc_salvage_from_a_pipe_copies_long_records_up_to_the_limit() {
    let dir = Dir::new();
    let long = vec![3u8; 20 << 20];
    let file = records(&[b"a", &long, b"c"]);
    // Under the limit: copied through a temporary file, exactly.
    let ran = dir.tfr(&["verify-crc", "--salvage", "all.tfrecord"]).stdin(&file).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(std::fs::read(dir.path("all.tfrecord")).unwrap() == file);
    // Over it: checked, reported as not salvaged (exit 1), the rest kept.
    let ran = dir
        .tfr(&["verify-crc", "--max-record-size", "8M", "--salvage", "some.tfrecord"])
        .stdin(&file)
        .run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("record 1 at byte 17: record of 20971520 bytes"),
        "{}",
        ran.stderr
    );
    assert!(ran.stderr.contains("not salvaged"), "{}", ran.stderr);
    assert_eq!(
        std::fs::read(dir.path("some.tfrecord")).unwrap(),
        records(&[b"a", b"c"])
    );
}

/// Printing a long record holds the record and a few megabytes of its
/// rendering, not the rendering whole (text escapes are up to 4x the
/// bytes): cat, head, to-jsonl and schema, from a file and a pipe.
#[test]
#[ignore = "slow: a 28 MB record printed 8 ways, peak memory measured: cargo test -- --include-ignored"]
fn printing_a_long_record_holds_the_record_not_its_rendering() {
    use crate::proto::{Example, Feature, FeatureEntry, Features};
    use prost::Message;
    let dir = Dir::new();
    let bytes: Vec<u8> = (0..24u32 << 20)
        .map(|j| (j.wrapping_mul(2654435761) >> 24) as u8)
        .collect();
    let ints: Vec<i64> = (0..1i64 << 20).map(|i| i * 1_000_003).collect();
    let long = Example {
        features: Some(Features {
            feature: vec![
                FeatureEntry::new("image", Feature::bytes(vec![bytes])),
                FeatureEntry::new("ids", Feature::int64s(ints)),
            ],
        }),
    }
    .encode_to_vec();
    let record_mb = long.len() as u64 >> 20;
    let file = records(&[b"", &long, b""]);
    dir.write("long.tfrecord", &file);
    for args in [
        &["cat", "long.tfrecord"][..],
        &["cat", "-j", "1", "-f", "json", "long.tfrecord"],
        &["cat", "-f", "protojson", "long.tfrecord"],
        &["head", "-n", "2", "long.tfrecord"],
        &["head", "-f", "json", "-"],
        &["to-jsonl", "long.tfrecord"],
        &["to-jsonl", "-"],
        &["schema", "long.tfrecord"],
    ] {
        let stdin = args.contains(&"-").then(|| file.clone());
        let Some((code, err, peak)) = measured(&dir, args, stdin) else {
            return;
        };
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            peak < record_mb + 24,
            "{args:?}: peak RSS {peak} MB for a {record_mb} MB record"
        );
    }
    // What went out is the whole record, as before.
    let text = dir.tfr(&["head", "-n", "2", "long.tfrecord"]).run();
    assert_eq!(text.code, 0);
    assert!(text.stdout.len() > 48 << 20);
    let json = dir.tfr(&["to-jsonl", "long.tfrecord"]).run().ok();
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), 3);
    let v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    // Written as it is made, its names not seen before: in the typed form
    // (which reads back as it says whatever came before).
    let ids = &v["ids"]["int64_list"];
    assert_eq!(ids.as_array().unwrap().len(), 1 << 20);
    assert_eq!(ids[5].as_i64(), Some(5_000_015));
}

/// Regression (issue 27, item 7): `cat --max-record-size 50` on an intact
/// file said "truncated payload (needs 91 bytes, only 20065 present)": a
/// record present whole is called over the limit, naming the flag.
#[test]
fn an_intact_record_over_the_limit_is_not_called_truncated() {
    let dir = Dir::new();
    let long = vec![b'x'; 87];
    let mut payloads: Vec<&[u8]> = vec![&long];
    let small = vec![b'y'; 100];
    for _ in 0..170 {
        payloads.push(&small);
    }
    dir.write("x.tfrecord", &records(&payloads));
    let line = dir
        .tfr(&["cat", "--type", "raw", "--max-record-size", "50", "x.tfrecord"])
        .run()
        .fails(2);
    assert!(!line.contains("truncated"), "{line}");
    assert!(
        line.contains("record 0 at byte 0")
            && line.contains("record of 87 bytes, over the --max-record-size limit (50 bytes)"),
        "{line}"
    );
    // A record that really is cut short is still called truncated.
    let mut cut = records(&[&long]);
    cut.truncate(40);
    dir.write("cut.tfrecord", &cut);
    let line = dir
        .tfr(&["cat", "--type", "raw", "--max-record-size", "50", "cut.tfrecord"])
        .run()
        .fails(2);
    assert!(
        !line.contains("--max-record-size") && line.contains("beyond the end of input"),
        "{line}"
    );
    // The same cut record on a stream (where the size is not known ahead).
    let ran = dir
        .tfr(&["cat", "--type", "raw", "--max-record-size", "50", "-"])
        .stdin(&cut)
        .run();
    let line = ran.fails(2);
    assert!(
        !line.contains("--max-record-size") && line.contains("beyond the end of input"),
        "{line}"
    );
    // An intact record over the limit on a stream is named as such too.
    let ran = dir
        .tfr(&["cat", "--type", "raw", "--max-record-size", "50", "-"])
        .stdin(&records(&payloads))
        .run();
    let line = ran.fails(2);
    assert!(line.contains("over the --max-record-size limit (50 bytes)"), "{line}");
}

/// An Example of one bytes feature `img` holding `images`.
fn image_record(images: Vec<Vec<u8>>) -> Vec<u8> {
    use crate::proto::{Example, Feature, FeatureEntry, Features};
    use prost::Message;
    Example {
        features: Some(Features {
            feature: vec![FeatureEntry::new("img", Feature::bytes(images))],
        }),
    }
    .encode_to_vec()
}

/// Regression (issue 27, item 6): `report` of a 1.5 KB record holding a
/// 36 MP WebP peaked at 248 MB; a GIF whose logical screen is 1x1 and
/// whose frame is 6000x6000 was charged 1 pixel against the page's budget
/// and decoded whole (144 of them: 420-625 MB; 1,200: two to three
/// minutes). The frame is charged, an image over 8 megapixels is described
/// instead of decoded, decoders run within a memory limit, large images one
/// at a time, and the page's decoding time is bounded.
#[test]
#[ignore = "slow: 6000x6000 images, peak memory and time measured: cargo test -- --include-ignored"]
fn report_images_are_decoded_in_bounded_memory_and_time() {
    let dir = Dir::new();
    let side = 6000u32;
    let plain = image::RgbaImage::from_pixel(side, side, image::Rgba([200, 30, 30, 255]));
    let mut webp = Vec::new();
    image::codecs::webp::WebPEncoder::new_lossless(&mut webp)
        .encode(plain.as_raw(), side, side, image::ExtendedColorType::Rgba8)
        .unwrap();
    let mut gif = Vec::new();
    {
        let frame = image::Frame::new(plain);
        let mut enc = image::codecs::gif::GifEncoder::new(&mut gif);
        enc.encode_frames([frame]).unwrap();
    }
    // The logical screen (bytes 6..10) says 1x1; the frame stays 6000x6000.
    gif[6..10].copy_from_slice(&[1, 0, 1, 0]);
    assert!(
        webp.len() < 64 << 10 && gif.len() < 1 << 20,
        "{} {}",
        webp.len(),
        gif.len()
    );
    // Just under the limit: a 7.8 MP photo is still drawn.
    let photo = image::RgbImage::from_fn(3000, 2600, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 80)
        .encode_image(&photo)
        .unwrap();
    let mut payloads = vec![image_record(vec![webp.clone()]), image_record(vec![jpeg])];
    for _ in 0..24 {
        payloads.push(image_record(vec![gif.clone(); 6]));
    }
    let refs: Vec<&[u8]> = payloads.iter().map(|p| &p[..]).collect();
    dir.write("pics.tfrecord", &records(&refs));
    let start = std::time::Instant::now();
    let Some((code, err, peak)) = measured(&dir, &["report", "pics.tfrecord", "-o", "pics.html"], None) else {
        return;
    };
    let took = start.elapsed();
    eprintln!("report of hostile images: peak RSS {peak} MB in {took:?}");
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(dir.path("pics.html")).unwrap();
    assert!(
        page.contains("6000x6000 is over 8 megapixels"),
        "the WebP and the GIF's frame are described"
    );
    assert!(
        !page.contains("x1 is over"),
        "the GIF is charged its frame, not its screen"
    );
    assert!(page.contains("img · 3000×2600"), "the photo under the limit is drawn");
    // 64 MB + 3 x the largest record.
    let allowance = 64 + 3 * ((gif.len() as u64 * 6) >> 20);
    assert!(peak <= allowance, "peak RSS {peak} MB over {allowance} MB");
    assert!(took < std::time::Duration::from_secs(60), "took {took:?}");
}

/// Regression (issue 27, item 4): `stats --merge` held a saved file as a
/// tree of JSON values, 16 to 20 times its size (an 8 MB file: 175 MB).
/// It now takes a few times the file: within 64 MB + 3 x its size.
#[test]
#[ignore = "slow: a 6 MB statistics file (the bound is 64 MB + 3x), peak memory measured: cargo test -- --include-ignored"]
fn merging_saved_statistics_takes_a_few_times_the_file() {
    let dir = Dir::new();
    let mut lines = String::new();
    for r in 0..80u64 {
        let fields: Vec<String> = (0..5000u64)
            .map(|k| format!("\"f{k:04}\": [{}]", r * 7919 + k))
            .collect();
        lines.push('{');
        lines.push_str(&fields.join(", "));
        lines.push_str("}\n");
    }
    dir.write("d.jsonl", lines.as_bytes());
    dir.tfr(&["from-jsonl", "d.jsonl", "-o", "d.tfrecord"]).run().ok();
    let saved = dir.tfr(&["stats", "--format", "json", "d.tfrecord"]).run().stdout;
    dir.write("saved.json", &saved);
    let size_mb = saved.len() as u64 >> 20;
    assert!(size_mb >= 6, "{size_mb} MB");
    let Some((code, err, peak)) = measured(&dir, &["stats", "--merge", "saved.json"], None) else {
        return;
    };
    eprintln!("stats --merge of a {size_mb} MB file: peak RSS {peak} MB");
    assert_eq!(code, 0, "{err}");
    assert!(peak <= 64 + 3 * size_mb, "peak RSS {peak} MB for a {size_mb} MB file");
}

/// Regression (review of issue 27, item 6): thumbnails were decoded on
/// every worker, and each worker's allocator arena kept a freed image
/// buffer: a page of 2820x2820 PNGs peaked at 711 MB with `-j 16` (48 MB
/// with `-j 1`). The page's pixel budget was also taken in whatever order
/// the workers reached the cards, so which cards had a thumbnail changed
/// from run to run. Images are now decoded on one thread, and each card
/// has its own share of the budget: the same page, in the same memory,
/// for any `-j`.
#[test]
#[ignore = "slow: 12 PNGs of 2400x1600 decoded twice, peak memory measured: cargo test -- --include-ignored"]
fn report_thumbnails_are_the_same_in_the_same_memory_for_any_jobs() {
    let dir = Dir::new();
    let (w, h) = (2400u32, 1600u32);
    let mut payloads = Vec::new();
    for k in 0..12u8 {
        let img = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba([k * 20, (x / 64) as u8, (y / 64) as u8, 255]));
        let mut png = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        payloads.push(image_record(vec![png]));
    }
    let refs: Vec<&[u8]> = payloads.iter().map(|p| &p[..]).collect();
    dir.write("pngs.tfrecord", &records(&refs));
    let mut pages = Vec::new();
    for jobs in ["1", "8"] {
        let out = format!("p{jobs}.html");
        let Some((code, err, peak)) = measured(&dir, &["report", "-j", jobs, "pngs.tfrecord", "-o", &out], None) else {
            return;
        };
        assert_eq!(code, 0, "{err}");
        eprintln!("report -j {jobs} of 12 PNGs of {w}x{h}: peak RSS {peak} MB");
        assert!(peak <= 64, "-j {jobs}: peak RSS {peak} MB");
        let page = std::fs::read_to_string(dir.path(&out)).unwrap();
        let start = page.find("<article").expect("a card");
        let end = page.rfind("</article>").expect("a card");
        pages.push(page[start..end].to_string());
    }
    assert_eq!(pages[0].matches("<img").count(), 12, "every PNG is drawn");
    assert!(pages[0] == pages[1], "the gallery differs between -j 1 and -j 8");
}

#[test]
#[ignore = "slow: 96 MiB of 1 MiB images through to-wds, from-wds and extract, peak memory measured: cargo test -- --include-ignored"]
fn to_wds_from_wds_and_extract_hold_a_window_not_the_dataset() {
    // 96 records of 1 MiB "PNG" values (members of their own): 96 MiB in,
    // about as much out; each command holds a few batches at a time (issue 30).
    use crate::proto::{Example, Feature, FeatureEntry, Features};
    use prost::Message;
    let dir = Dir::new();
    let payloads: Vec<Vec<u8>> = (0..96u8)
        .map(|i| {
            let mut blob = b"\x89PNG\r\n\x1a\n".to_vec();
            blob.resize(1 << 20, i);
            Example {
                features: Some(Features {
                    feature: vec![
                        FeatureEntry::new("image", Feature::bytes(vec![blob])),
                        FeatureEntry::new("label", Feature::int64s(vec![i64::from(i)])),
                    ],
                }),
            }
            .encode_to_vec()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(|p| p.as_slice()).collect();
    dir.write("big.tfrecord", &records(&refs));
    for args in [
        &["to-wds", "big.tfrecord", "-o", "w/s.tar", "-j", "2"][..],
        &["from-wds", "w", "-o", "back.tfrecord", "-j", "2"],
        &["extract", "big.tfrecord", "--feature", "image", "-o", "x", "-j", "2"],
    ] {
        let Some((code, err, peak)) = measured(&dir, args, None) else {
            return;
        };
        assert_eq!(code, 0, "{args:?}: {err}");
        // Measured: 27, 40 and 24 MB (the pipeline's window of 1 MiB
        // batches and their outputs); the product's bound is 64 MB.
        assert!(peak < 64, "{args:?}: peak RSS {peak} MB");
    }
    assert_eq!(
        std::fs::metadata(dir.path("back.tfrecord")).unwrap().len(),
        std::fs::metadata(dir.path("big.tfrecord")).unwrap().len()
    );
}

/// Issue 41: a member of exactly --max-record-size (within the member
/// limit, over the sample's with its name) was read into memory before
/// its sample was refused: a 64 KB gzip tar of one 64 MiB member cost
/// 64 MB here (1 GB at the default limit). Now it is refused from its
/// header, unread.
#[test]
fn a_member_of_exactly_the_limit_is_refused_unread() {
    let dir = Dir::new();
    let t = dir.path("edge.tar.gz");
    if !crate::wds::python_tar_of_zeros(&t, &[("a.bin", 64 << 20)]) {
        return;
    }
    let args = [
        "from-wds",
        "edge.tar.gz",
        "-o",
        "x.tfrecord",
        "--max-record-size",
        "64M",
    ];
    let Some((code, err, peak)) = measured(&dir, &args, None) else {
        return;
    };
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("sample 'a' holds more than 67108864 bytes"), "{err}");
    // Before: 70 MB; the limit is 64 MiB.
    assert!(peak < 40, "peak RSS {peak} MB");
    assert!(!dir.path("x.tfrecord").exists());
}
