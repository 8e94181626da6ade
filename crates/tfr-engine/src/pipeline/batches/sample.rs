//! A uniform sample of the records (--sample): the reservoir over the inputs, and the kept records read again.

use super::*;

/// A kept record of a sample.
pub(super) struct Kept {
    input: usize,
    index: u64,
    offset: u64,
    payload: Vec<u8>,
    crc: Option<u32>,
}

/// `--sample N`: reservoir sampling over the inputs taken together (Li's
/// algorithm L: the gaps between picks are drawn, and the records in a gap
/// hop from header to header), then the kept records go out in input
/// order. Holds N payloads.
pub(super) fn produce_sample<W: Work>(
    inputs: &[Input],
    shared: &Shared<'_, W>,
    (n, seed): (u64, u64),
    tx: &mut Sender<'_, Batch<W::Out>>,
) -> Result<()> {
    let mut rng = SplitMix::new(seed);
    let k = usize::try_from(n).unwrap_or(usize::MAX);
    let mut kept: Vec<Kept> = Vec::new();
    // One type per input, or one for them all.
    let mut types: Vec<Option<MessageType>> = vec![shared.how.types.fixed(); inputs.len()];
    let strict = shared.how.types.fixed().is_none();
    // `--where`: a sample of the matching records (each record read).
    let filter = shared.how.filter;
    if k > 0 {
        let mut w = (rng.unit().ln() / k as f64).exp();
        let mut seen = 0u64;
        // The position (over all inputs) of the next record to take.
        let mut next = k as u64;
        for (i, input) in inputs.iter().enumerate() {
            let mut reader = shared
                .how
                .open
                .open(input)
                .inspect_err(|_| shared.mark(i, |s| s.1 = true))?;
            shared.mark(i, |slot| slot.0 = Some(reader.compression()));
            let name: Arc<str> = input.display().into();
            loop {
                let take = kept.len() < k || seen == next;
                if !take && filter.is_none() {
                    let Some(_) = reader.skip_record().map_err(|e| record::read_error(input, e))? else {
                        break;
                    };
                    seen += 1;
                    continue;
                }
                let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? else {
                    break;
                };
                if let Some(f) = filter {
                    let slot = if shared.how.types == Types::Dataset { 0 } else { i };
                    let record = Record::typed(rec, (i, &name), strict, &mut types[slot], |r| shared.work.resolve(r))?;
                    if !example::with_decoder(|d| keeps(f, d, &record))? {
                        continue;
                    }
                    if !take {
                        seen += 1;
                        continue;
                    }
                }
                let record = Kept {
                    input: i,
                    index: rec.index,
                    offset: rec.offset,
                    payload: rec.data.to_vec(),
                    crc: rec.crc,
                };
                if kept.len() < k {
                    kept.push(record);
                } else {
                    kept[rng.below(k as u64) as usize] = record;
                    w *= (rng.unit().ln() / k as f64).exp();
                }
                if kept.len() == k && seen + 1 >= next {
                    let gap = (rng.unit().ln() / (1.0 - w).ln()).floor();
                    next = seen + 1 + if gap.is_finite() { gap as u64 } else { u64::MAX / 2 };
                }
                seen += 1;
                if seen & 0xffff == 0 {
                    (shared.progress)(reader.offset(), seen);
                }
            }
        }
    }
    kept.sort_by_key(|r| (r.input, r.index));
    let spares = tx.spares();
    let mut batch: Option<Batch<W::Out>> = None;
    let mut emit = |b: Batch<W::Out>| tx.send(b);
    for r in &kept {
        let name: Arc<str> = inputs[r.input].display().into();
        let slot = if shared.how.types == Types::Dataset { 0 } else { r.input };
        let record = Record::typed(
            record::Record {
                index: r.index,
                offset: r.offset,
                data: &r.payload,
                crc: r.crc,
            },
            (r.input, &name),
            strict,
            &mut types[slot],
            |r| shared.work.resolve(r),
        )?;
        if batch
            .as_ref()
            .is_some_and(|b| b.name != name || b.data.len() >= shared.work.window())
            || r.payload.len() > HUGE
        {
            if let Some(b) = batch.take() {
                emit(b)?;
            }
        }
        if r.payload.len() > HUGE {
            shared.huge(spares, &record, &name, &mut emit)?;
            continue;
        }
        let b = batch.get_or_insert_with(|| shared.batch(spares, (record.ty, r.input as u32, &name)));
        b.data.extend_from_slice(&r.payload);
        b.records.push((b.data.len(), r.index, r.offset, r.crc));
    }
    if let Some(b) = batch.take() {
        emit(b)?;
    }
    Ok(())
}

#[cfg(test)]
mod sample_tests {
    use crate::pipeline::rng::SplitMix;

    #[test]
    fn the_generator_is_uniform_enough() {
        let mut rng = SplitMix::new(7);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[rng.below(10) as usize] += 1;
            let u = rng.unit();
            assert!(u > 0.0 && u <= 1.0);
        }
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
    }
}
