//! Ranking as the quotes are costed, keeping the cheapest [`KEPT_ROWS`]: what a large
//! catalogue's comparison holds stays bounded.

use super::*;

/// Quotes a comparison keeps whole once ranked: the page shows the first
/// [`crate::views::tco::SHOWN_ROWS`], the plan weighs at most 200 of them, the exports and an
/// order from the comparison read these. The others are costed, ranked and counted, then let
/// go: each kept quote carries its what-if, its page row and the row an order signs (20,000 of
/// them held 420 MB and took 0.9 s to write out).
pub const KEPT_ROWS: usize = 1_000;
/// Quotes costed and ranked, then let go ([`KEPT_ROWS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LetGo {
    /// How many.
    pub quotes: usize,
    /// Of those, how many the plan could have weighed (they pass the workload's requirements
    /// and are still valid).
    pub eligible: usize,
}
impl std::ops::AddAssign for LetGo {
    fn add_assign(&mut self, other: LetGo) {
        self.quotes += other.quotes;
        self.eligible += other.eligible;
    }
}
/// Ranks the costed quotes in the engine's order ([`ranking_order`]: measured first, then
/// estimated; cheapest first), so the page and the exported scenario agree, and keeps the
/// first `keep`; returns what was let go. Sorted by position, not by moving the quotes
/// themselves (each is a large value: moving 20,000 of them took most of the sort).
pub(super) fn rank_and_keep(costed: &mut Vec<Costed>, keep: usize) -> LetGo {
    let mut order: Vec<usize> = (0..costed.len()).collect();
    order.sort_by(|&a, &b| ranking_order(&costed[a].ranked, &costed[b].ranked));
    let gone = order.split_off(keep.min(order.len()));
    let let_go = LetGo {
        quotes: gone.len(),
        eligible: gone
            .iter()
            .filter(|&&i| costed[i].failing.is_empty() && !costed[i].expired)
            .count(),
    };
    let mut slots: Vec<Option<Costed>> = costed.drain(..).map(Some).collect();
    costed.extend(order.into_iter().filter_map(|i| slots[i].take()));
    for (rank, c) in (1..).zip(costed.iter_mut()) {
        c.ranked.rank = rank;
    }
    let_go
}
