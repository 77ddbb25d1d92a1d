//! A bounds-checked little-endian reader that knows its offset, for every decoder in this crate.

use crate::{Error, Result};

/// Reads little-endian values from a byte slice; every read checks the length first and errors with
/// the offset (relative to `base`) where the data ran out.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `bytes` whose offsets are reported relative to `base`.
    pub fn new(bytes: &'a [u8], base: usize) -> Self {
        Self {
            bytes,
            pos: 0,
            base,
        }
    }

    /// Absolute offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// An error at the current offset.
    pub fn error(&self, reason: impl Into<String>) -> Error {
        Error::corrupt(self.offset(), reason)
    }

    /// The next `n` bytes.
    ///
    /// # Errors
    /// When fewer than `n` bytes remain; `what` names the field.
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(format!(
                "truncated: {what} needs {n} bytes, {} left",
                self.remaining()
            )));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// The next `N` bytes as an array.
    ///
    /// # Errors
    /// When the data is too short.
    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let s = self.take(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    /// A `u8`.
    ///
    /// # Errors
    /// When the data is too short.
    pub fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A little-endian `u16`.
    ///
    /// # Errors
    /// When the data is too short.
    pub fn u16(&mut self, what: &str) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    /// A little-endian `u32`.
    ///
    /// # Errors
    /// When the data is too short.
    pub fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// A little-endian `i32`.
    ///
    /// # Errors
    /// When the data is too short.
    pub fn i32(&mut self, what: &str) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }

    /// A little-endian `u64`.
    ///
    /// # Errors
    /// When the data is too short.
    pub fn u64(&mut self, what: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// A `u64` length that must fit in the remaining bytes (so it is safe to allocate).
    ///
    /// # Errors
    /// When the data is too short or the length exceeds what remains.
    pub fn len_u64(&mut self, what: &str) -> Result<usize> {
        let at = self.offset();
        let n = self.u64(what)?;
        if n > self.remaining() as u64 {
            return Err(Error::corrupt(
                at,
                format!(
                    "{what} of {n} bytes exceeds the {} bytes left",
                    self.remaining()
                ),
            ));
        }
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_reports_offsets() {
        let data = [1u8, 2, 0, 3, 0, 0, 0];
        let mut r = Reader::new(&data, 100);
        assert_eq!(r.u8("a").ok(), Some(1));
        assert_eq!(r.u16("b").ok(), Some(2));
        assert_eq!(r.offset(), 103);
        match r.u64("c") {
            Err(Error::Corrupt { offset, .. }) => assert_eq!(offset, 103),
            other => panic!("{other:?}"),
        }
        assert_eq!(r.u32("d").ok(), Some(3));
    }
}
