use super::CanonError;
pub fn killer(givens: &str) -> Result<String, CanonError> {
    Err(CanonError::Length {
        format: "killer legacy",
        expected: "244 or 326",
        found: givens.len(),
    })
}
