//! Placeholder: the str8ts type's formats, validation, propagation and solving.

use crate::core::puzzle::Analysis;

/// Why a str8ts string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("str8ts: not supported yet")]
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

/// 81 digits then 81 colour flags `0`/`1`: the legacy 162 shape.
pub fn looks_like_legacy(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 162
        && b[..81].iter().all(u8::is_ascii_digit)
        && b[81..].iter().all(|&c| c == b'0' || c == b'1')
}
