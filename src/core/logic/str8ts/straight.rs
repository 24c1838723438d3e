//! Straights as a person reads them from the candidates: the ones every
//! cell of a compartment reaches and whose every digit some cell holds
//! (no matching of cells to digits: that is [`fitting_lows`]'s job).
//! A straight is a set of lows: bit `low - 1` for the one from `low`.

pub(crate) use crate::core::str8ts::{fitting_lows, needed};

/// The digits of the straight of `len` from bit `low` (0-based).
pub(crate) fn straight(low: usize, len: usize) -> u16 {
    ((1u16 << len) - 1) << low
}

/// The straights of `masks.len()` digits each cell reaches and the cells
/// together cover.
pub(crate) fn simple_lows(masks: &[u16]) -> u16 {
    let len = masks.len();
    let all = masks.iter().fold(0, |a, &m| a | m);
    (0..=9 - len)
        .filter(|&low| {
            let s = straight(low, len);
            all & s == s && masks.iter().all(|&m| m & s != 0)
        })
        .fold(0, |out, low| out | 1 << low)
}

/// The digits of any straight of `lows`.
pub(crate) fn union(lows: u16, len: usize) -> u16 {
    (0..9)
        .filter(|low| lows & (1 << low) != 0)
        .fold(0, |u, low| u | straight(low, len))
}

/// `3-6` for the straight of 4 from 3; `5` for one digit.
pub(crate) fn straight_name(low: usize, len: usize) -> String {
    if len == 1 {
        format!("{}", low + 1)
    } else {
        format!("{}-{}", low + 1, low + len)
    }
}

/// `1-3 or 7-9` for a set of lows.
pub(crate) fn lows_name(lows: u16, len: usize) -> String {
    let names: Vec<String> = (0..9)
        .filter(|low| lows & (1 << low) != 0)
        .map(|low| straight_name(low, len))
        .collect();
    names.join(" or ")
}

/// The candidates of `run`'s empty cells with which `fits` (a test of the
/// run's cell masks) fails: what leaves the run.
pub(crate) fn misfits(
    p: &super::Str8tsMarks,
    run: &super::Run,
    fits: impl Fn(&[u16]) -> bool,
) -> Vec<(u8, u8)> {
    let mut masks = p.masks(run);
    let mut out = Vec::new();
    for (k, &c) in run.cells.iter().enumerate() {
        let own = masks[k];
        for d in super::digits(p.cands(usize::from(c))) {
            masks[k] = 1 << (d - 1);
            if !fits(&masks) {
                out.push((c, d));
            }
        }
        masks[k] = own;
    }
    out
}
