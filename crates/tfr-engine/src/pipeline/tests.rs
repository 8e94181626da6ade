use super::*;

#[test]
fn keeps_order_and_reports_the_first_error() {
    let mut out = Vec::new();
    run(
        3,
        |s: &mut Sender<u32>| {
            for i in 0..100 {
                s.send(i)?;
            }
            Ok(())
        },
        |i: &mut u32, buf: &mut Vec<u8>| {
            buf.extend_from_slice(format!("{i},").as_bytes());
            Ok(())
        },
        |b: &Vec<u8>| {
            out.extend_from_slice(b);
            Ok(())
        },
    )
    .unwrap();
    let want: String = (0..100).map(|i| format!("{i},")).collect();
    assert_eq!(String::from_utf8(out).unwrap(), want);

    let mut out = Vec::new();
    let err = run(
        2,
        |s: &mut Sender<u32>| {
            for i in 0..100 {
                s.send(i)?;
            }
            crate::error::bail!("producer error")
        },
        |i: &mut u32, buf: &mut Vec<u8>| {
            buf.push(b'a' + (*i % 26) as u8);
            if *i == 7 {
                crate::error::bail!("worker error at {i}")
            }
            Ok(())
        },
        |b: &Vec<u8>| {
            out.extend_from_slice(b);
            Ok(())
        },
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "worker error at 7");
    assert_eq!(out, b"abcdefgh");

    let err = run(
        2,
        |s: &mut Sender<u32>| {
            s.send(1)?;
            crate::error::bail!("producer error")
        },
        |_: &mut u32, _: &mut Vec<u8>| Ok(()),
        |_: &Vec<u8>| Ok(()),
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "producer error");
}

/// A slow sink holds the readers back: no input starts while `jobs`
/// inputs before it wait to be forwarded.
#[test]
fn a_slow_sink_bounds_the_inputs_read_ahead() {
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    for jobs in [2, 3, 8] {
        let forwarded = AtomicUsize::new(0);
        let ahead = AtomicUsize::new(0);
        let read = |i: usize, emit: &mut dyn FnMut(usize) -> Result<(), Stopped>| {
            ahead.fetch_max(i - forwarded.load(SeqCst).min(i), SeqCst);
            emit(i)?;
            Ok(())
        };
        let mut got = Vec::new();
        in_input_order(200, jobs, read, |t| {
            std::thread::sleep(std::time::Duration::from_micros(200));
            got.push(t);
            forwarded.store(t + 1, SeqCst);
            Ok(())
        })
        .unwrap();
        assert_eq!(got, (0..200).collect::<Vec<_>>());
        assert!(
            ahead.load(SeqCst) <= jobs,
            "jobs {jobs}: {} inputs ahead",
            ahead.load(SeqCst)
        );
    }
}

/// Uneven work (so batches finish out of order, and the producer works
/// on some itself) still comes out in order, with at most the window's
/// batches alive at once.
#[test]
fn uneven_work_keeps_order_and_bounds_memory() {
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    for workers in [1, 2, 3] {
        let alive = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let mut got = Vec::new();
        run(
            workers,
            |s: &mut Sender<u64>| {
                for i in 0..3000u64 {
                    let n = alive.fetch_add(1, SeqCst) + 1;
                    most.fetch_max(n, SeqCst);
                    s.send(i)?;
                }
                Ok(())
            },
            |i: &mut u64, buf: &mut Vec<u8>| {
                if *i % 7 == 0 {
                    std::thread::sleep(std::time::Duration::from_micros(*i % 300));
                }
                buf.extend_from_slice(&i.to_le_bytes());
                Ok(())
            },
            |b: &Vec<u8>| {
                if !b.is_empty() {
                    got.push(u64::from_le_bytes(b[..8].try_into().unwrap()));
                    alive.fetch_sub(1, SeqCst);
                }
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(got, (0..3000).collect::<Vec<_>>(), "workers {workers}");
        // The window, plus the one being counted before its send.
        let limit = workers * (job_depth(workers) + 1) + 1;
        assert!(most.load(SeqCst) <= limit + 1, "{} alive", most.load(SeqCst));
    }
}

/// `-j N` runs N workers (no cap below it): with work that waits, at
/// least N threads take batches at once.
#[test]
fn every_job_gets_a_worker() {
    use std::collections::HashSet;
    assert_eq!(workers(1), 0);
    let threads = Mutex::new(HashSet::new());
    let mut n = 0;
    run(
        workers(8),
        |s: &mut Sender<u32>| {
            for i in 0..400 {
                s.send(i)?;
            }
            Ok(())
        },
        |_: &mut u32, buf: &mut Vec<u8>| {
            threads.lock().unwrap().insert(std::thread::current().id());
            std::thread::sleep(std::time::Duration::from_millis(2));
            buf.push(1);
            Ok(())
        },
        |b: &Vec<u8>| {
            n += b.len();
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(n, 400);
    let busy = threads.lock().unwrap().len();
    assert!(busy >= 8, "{busy} threads worked");
}

/// Input `i` emits `i * 10 .. i * 10 + i`; input `fail` fails after one item.
fn read_numbers(
    fail: Option<usize>,
) -> impl Fn(usize, &mut dyn FnMut(usize) -> Result<(), Stopped>) -> Result<()> + Sync {
    move |i, emit| {
        for k in 0..i {
            std::thread::sleep(std::time::Duration::from_micros(((i * 7 + k) % 5) as u64 * 50));
            emit(i * 10 + k)?;
            if Some(i) == fail {
                crate::error::bail!("input {i} failed")
            }
        }
        Ok(())
    }
}

#[test]
fn inputs_come_out_in_order_whatever_the_jobs() {
    let want: Vec<usize> = (0..20).flat_map(|i| (0..i).map(move |k| i * 10 + k)).collect();
    for jobs in [1, 2, 3, 8, 30] {
        let mut got = Vec::new();
        in_input_order(20, jobs, read_numbers(None), |t| {
            got.push(t);
            Ok(())
        })
        .unwrap();
        assert_eq!(got, want, "jobs {jobs}");

        let mut got = Vec::new();
        let err = in_input_order(20, jobs, read_numbers(Some(6)), |t| {
            got.push(t);
            Ok(())
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "input 6 failed");
        let upto: Vec<usize> = want.iter().copied().take_while(|&v| v <= 60).collect();
        assert_eq!(got, upto, "jobs {jobs}");

        let mut got = 0;
        let err = in_input_order(20, jobs, read_numbers(None), |_| {
            got += 1;
            if got == 30 {
                return Err(Stopped);
            }
            Ok(())
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "output stopped");
    }
}
