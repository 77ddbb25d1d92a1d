//! The Strata application: the headless command line (and, later, the editor).

pub mod cli;
pub mod error;

pub use error::{AppError, AppResult};
