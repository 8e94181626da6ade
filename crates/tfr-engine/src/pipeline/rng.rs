//! The two seeded generators tfr uses, so that a seed gives the same
//! records on every machine: [`SplitMix`] (SplitMix64: `--sample --seed`,
//! and the seeding of the other) and [`Xoshiro`] (xoshiro256**: shuffle's
//! keys and the order of ties). Both draw integers below `n` without bias
//! (Lemire's multiply-shift with rejection).

/// One step of SplitMix64 on `state`.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A uniform integer below `n` (n > 0) from `next`, without bias.
fn below(n: u64, mut next: impl FnMut() -> u64) -> u64 {
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(next()) * u128::from(n);
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood): small and fast, for `--sample`.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        splitmix(&mut self.0)
    }

    /// Uniform in (0, 1].
    pub fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// A uniform integer below `n` (n > 0), without bias.
    pub fn below(&mut self, n: u64) -> u64 {
        below(n, || self.next_u64())
    }
}

/// xoshiro256** (Blackman and Vigna): the keys and the order of ties.
#[derive(Clone, Debug)]
pub struct Xoshiro(pub(crate) [u64; 4]);

impl Xoshiro {
    /// Seeded by SplitMix64, as its authors recommend.
    pub fn new(seed: u64) -> Xoshiro {
        let mut s = seed;
        Xoshiro([splitmix(&mut s), splitmix(&mut s), splitmix(&mut s), splitmix(&mut s)])
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer below `n` (n > 0), without bias (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        below(n, || self.next_u64())
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}
