//! Placeholder: the sudoku type's formats, validation, propagation and solving.

use crate::core::puzzle::Analysis;

/// Why a sudoku string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("sudoku: not supported yet")]
    Unsupported,
}

impl Error {
    pub fn code(&self) -> &'static str {
        "unsupported"
    }
}

pub fn analyse(_s: &str) -> Result<Analysis, Error> {
    Err(Error::Unsupported)
}
