//! The other fields of a record, kept with its provenance row
//! (`sources.fields`) so that the ids, dates, ratings and titles that came
//! with a puzzle are not lost: a JSON array of strings in the record's
//! order (no header), or a JSON object of header name to value (a CSV file
//! with a header; a grid's `title` and `note`).
//!
//! Bounded: each value is cut at [`MAX_VALUE`] bytes and the whole text at
//! [`MAX_FIELDS`] (the fields that do not fit are left out, the text stays
//! valid JSON). Empty values are left out of objects, and so is any field
//! of 81, 162 or 243 characters: a grid string (a solution column), which
//! the archive stores better than as text.

use serde_json::{Map, Value};

/// The longest text kept of one record's fields, in bytes.
pub const MAX_FIELDS: usize = 512;

/// The longest value kept, in bytes (cut at a character boundary).
pub const MAX_VALUE: usize = 200;

/// Whether a field is a grid string, left out.
pub fn is_grid_string(field: &[u8]) -> bool {
    matches!(field.len(), 81 | 162 | 243)
}

fn value(field: &[u8]) -> String {
    let s = String::from_utf8_lossy(field);
    let s = s.trim();
    let mut end = s.len().min(MAX_VALUE);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// Adds entries while the text stays within [`MAX_FIELDS`].
fn bounded(mut add: impl FnMut(usize) -> Option<usize>) {
    let mut len = 2;
    while let Some(grew) = add(len) {
        len += grew;
    }
}

/// The fields as a JSON array; `None` when none is left.
pub fn array<'a>(fields: impl IntoIterator<Item = &'a [u8]>) -> Option<String> {
    let mut out = Vec::new();
    let mut fields = fields.into_iter().filter(|f| !is_grid_string(f)).map(value);
    bounded(|len| {
        let v = fields.next()?;
        let grew = serde_json::to_string(&v).map_or(usize::MAX, |t| t.len() + 1);
        (len.saturating_add(grew) <= MAX_FIELDS).then(|| {
            out.push(Value::String(v));
            grew
        })
    });
    // Trailing empty fields say nothing.
    while out.last().is_some_and(|v| v.as_str() == Some("")) {
        out.pop();
    }
    (!out.is_empty()).then(|| Value::Array(out).to_string())
}

/// The fields as a JSON object of name to value; `None` when none is left.
pub fn object<'a>(fields: impl IntoIterator<Item = (String, &'a [u8])>) -> Option<String> {
    let mut out = Map::new();
    let mut fields = fields
        .into_iter()
        .filter(|(_, f)| !is_grid_string(f))
        .map(|(k, f)| (k, value(f)))
        .filter(|(_, v)| !v.is_empty());
    bounded(|len| {
        let (k, v) = fields.next()?;
        let grew = serde_json::to_string(&k)
            .and_then(|k| Ok(k.len() + serde_json::to_string(&v)?.len() + 2))
            .unwrap_or(usize::MAX);
        (len.saturating_add(grew) <= MAX_FIELDS).then(|| {
            out.insert(k, Value::String(v));
            grew
        })
    });
    (!out.is_empty()).then(|| Value::Object(out).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_json_without_grid_strings_and_bounded() {
        let sol = "1".repeat(81);
        assert_eq!(
            array([&b"17"[..], b"2024-01-02", sol.as_bytes(), b" 4.5 ", b""]).as_deref(),
            Some(r#"["17","2024-01-02","4.5"]"#)
        );
        assert_eq!(array([sol.as_bytes()]), None);
        assert_eq!(
            object([("id".to_string(), &b"7"[..]), ("note".into(), b"")]).as_deref(),
            Some(r#"{"id":"7"}"#)
        );
        let long = "x".repeat(1000);
        let many: Vec<&[u8]> = (0..20).map(|_| long.as_bytes()).collect();
        let text = array(many).unwrap();
        assert!(text.len() <= MAX_FIELDS, "{}", text.len());
        let back: Vec<String> = serde_json::from_str(&text).unwrap();
        assert_eq!(back[0].len(), MAX_VALUE);
        assert_eq!(value("é".repeat(150).as_bytes()).len(), MAX_VALUE);
    }
}
