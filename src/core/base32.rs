//! Fixed-width base-32 numbers, the building block of every packed string:
//! alphabet `0-9a-v`, written lowercase, read in either case (docs/formats.md "Base 32").
//!
//! Owns digit-level conversion only; what the numbers mean is the formats' job.

/// The alphabet, value order.
pub const ALPHABET: &[u8; 32] = b"0123456789abcdefghijklmnopqrstuv";

/// The value of one base-32 character, either case.
pub const fn value(c: u8) -> Option<u16> {
    match c {
        b'0'..=b'9' => Some((c - b'0') as u16),
        b'a'..=b'v' => Some((c - b'a' + 10) as u16),
        b'A'..=b'V' => Some((c - b'A' + 10) as u16),
        _ => None,
    }
}

/// Reads a fixed-width number. On a bad character returns its offset in `chars`.
pub fn decode(chars: &[u8]) -> Result<u16, usize> {
    let mut n: u16 = 0;
    for (i, &c) in chars.iter().enumerate() {
        let v = value(c).ok_or(i)?;
        n = (n << 5) | v;
    }
    Ok(n)
}

/// Appends `n` as exactly `width` lowercase characters (high digits first).
/// `n` must fit in `width` characters; the high bits are dropped otherwise.
pub fn encode_into(n: u16, width: usize, out: &mut String) {
    for i in (0..width).rev() {
        let v = (u32::from(n) >> (5 * i)) & 31;
        out.push(ALPHABET[v as usize] as char);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_md_examples() {
        // given 5 = 33 = "11"; all nine candidates = 1022 = "vu"; killer max 364 = "bc";
        // str8ts black 9 = 1027 = "103", white all = 2044 = "1vs".
        let cases: [(u16, usize, &str); 5] = [
            (33, 2, "11"),
            (1022, 2, "vu"),
            (364, 2, "bc"),
            (1027, 3, "103"),
            (2044, 3, "1vs"),
        ];
        for (n, w, s) in cases {
            let mut out = String::new();
            encode_into(n, w, &mut out);
            assert_eq!(out, s);
            assert_eq!(decode(s.as_bytes()), Ok(n));
            assert_eq!(decode(s.to_uppercase().as_bytes()), Ok(n));
        }
    }

    #[test]
    fn bad_character_reports_its_offset() {
        assert_eq!(decode(b"1w"), Err(1));
        assert_eq!(decode(b".0"), Err(0));
    }
}
