//! Distinct counts: exact up to a limit, then a HyperLogLog.

use super::*;

/// A distinct count: exact, then a HyperLogLog.
#[derive(Clone, Debug, Default)]
pub struct Distinct {
    pub(super) exact: HashSet<u64, IdBuild>,
    pub(super) registers: Option<Box<[u8]>>,
}

/// The hash every distinct count and saved statistics file uses (xxh3,
/// stable across versions and machines).
#[inline]
pub fn value_hash(v: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(v)
}

impl Distinct {
    #[inline]
    /// Adds a value by its [`value_hash`](super::value_hash).
    pub fn add_hash(&mut self, h: u64) {
        match &mut self.registers {
            Some(r) => hll_add(r, h),
            None => {
                self.exact.insert(h);
                if self.exact.len() > EXACT_UNIQUE {
                    self.switch_to_hll();
                }
            }
        }
    }

    pub(super) fn switch_to_hll(&mut self) {
        let mut r = vec![0u8; 1 << HLL_BITS].into_boxed_slice();
        for h in self.exact.drain() {
            hll_add(&mut r, h);
        }
        self.exact = HashSet::default();
        self.registers = Some(r);
    }

    /// Adds the values `o` counted.
    pub fn merge(&mut self, o: &Distinct) {
        if let Some(or) = &o.registers {
            if self.registers.is_none() {
                self.switch_to_hll();
            }
            if let Some(r) = &mut self.registers {
                for (a, b) in r.iter_mut().zip(or.iter()) {
                    *a = (*a).max(*b);
                }
            }
        } else {
            for h in &o.exact {
                self.add_hash(*h);
            }
        }
    }

    /// The number of distinct values (an estimate once past
    /// [`EXACT_UNIQUE`]).
    pub fn count(&self) -> u64 {
        let Some(r) = &self.registers else {
            return self.exact.len() as u64;
        };
        let m = r.len() as f64;
        let sum: f64 = r.iter().map(|&x| 2f64.powi(-i32::from(x))).sum();
        let zeros = r.iter().filter(|&&x| x == 0).count();
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let raw = alpha * m * m / sum;
        let est = if raw <= 2.5 * m && zeros > 0 {
            m * (m / zeros as f64).ln()
        } else {
            raw
        };
        est.round() as u64
    }

    /// Whether the count is exact (not yet a HyperLogLog estimate).
    pub fn is_exact(&self) -> bool {
        self.registers.is_none()
    }

    /// Exact hashes, or the HyperLogLog registers.
    pub(crate) fn state(&self) -> Result<Vec<u64>, &[u8]> {
        match &self.registers {
            None => {
                let mut v: Vec<u64> = self.exact.iter().copied().collect();
                v.sort_unstable();
                Ok(v)
            }
            Some(r) => Err(r),
        }
    }

    pub(crate) fn from_state(hashes: Vec<u64>, registers: Option<Vec<u8>>) -> Result<Self, String> {
        match registers {
            Some(r) if r.len() != 1 << HLL_BITS => Err(format!(
                "a HyperLogLog has {} registers, not {}",
                r.len(),
                1 << HLL_BITS
            )),
            Some(r) => Ok(Distinct {
                exact: HashSet::default(),
                registers: Some(r.into_boxed_slice()),
            }),
            None => {
                let mut d = Distinct::default();
                for h in hashes {
                    d.add_hash(h);
                }
                Ok(d)
            }
        }
    }
}

#[inline]
pub(super) fn hll_add(r: &mut [u8], h: u64) {
    let idx = (h >> (64 - HLL_BITS)) as usize;
    let rest = (h << HLL_BITS) | (1 << (HLL_BITS - 1));
    let rank = rest.leading_zeros() as u8 + 1;
    if r[idx] < rank {
        r[idx] = rank;
    }
}
