//! The seeded xorshift the mesher's tests draw their voxels, densities and rows from: one generator
//! for every test module, so their data stays reproducible from a seed and free of a crate.

/// Marsaglia's 64-bit xorshift (shifts 13, 7, 17). The seed must not be zero.
pub(super) struct XorShift(pub(super) u64);

impl XorShift {
    /// The next state, which is also the value drawn.
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
