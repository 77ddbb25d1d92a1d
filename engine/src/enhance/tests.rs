//! Enhancement tests.
