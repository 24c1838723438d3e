//! Nine counters in one word: lane `d - 1`, of [`LANE`] bits, counts digit
//! `d`. Counts stay at most nine (nine lines a side), below each lane's
//! spare top bit, so lanes add, subtract and compare without borrowing from
//! each other. The tally's per-digit counts of lines.

use crate::core::mask::{lane_table, spread_lanes};

/// Bits of a lane in [`lanes`]: counts up to nine fit with a spare top
/// bit, so lanes compare without borrowing from each other.
pub(super) const LANE: usize = 7;
pub(super) const LANE_MASK: u64 = (1 << LANE) - 1;
/// The top bit of each of the nine lanes.
pub(super) const LANE_TOPS: u64 = spread_lanes(0x1ff, LANE) << (LANE - 1);

/// The nine bits of `m` as nine lanes of `LANE` bits, so that adding up to
/// eighteen of these counts each digit in its own lane.
pub(super) fn lanes(m: u16) -> u64 {
    LANES
        .get(usize::from(m))
        .copied()
        .unwrap_or_else(|| spread_lanes(m, LANE))
}

static LANES: [u64; 512] = lane_table(LANE);

/// Whether some lane of `least` passes the same lane of `most` (lanes hold
/// at most nine, so each lane of `most + top - least` stays positive).
pub(super) fn clash(least: u64, most: u64) -> bool {
    ((most | LANE_TOPS) - least) & LANE_TOPS != LANE_TOPS
}

/// The top bits of the lanes where `a` and `b` agree.
pub(super) fn equal(a: u64, b: u64) -> u64 {
    // A lane of `a ^ b` is below sixteen: adding a lane's mask less its top
    // bit reaches the top bit exactly when the lane is not zero.
    !(((a ^ b) + (LANE_MASK >> 1) * (LANE_TOPS >> (LANE - 1))) & LANE_TOPS) & LANE_TOPS
}
