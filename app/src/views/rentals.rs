//! What the rental pieces of the order page, the dashboard and the cost page show.
//! Texts are in the reader's language, amounts formatted; `*_exact` fields are for tests and
//! exports.

use crate::domain::rentals::RentalState;
use serde::{Deserialize, Serialize};

/// The rental section of an approved order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RentalSection {
    /// The order.
    pub order_id: i64,
    /// Whether the order's latest revision is approved (only then can a rental be recorded).
    pub approved: bool,
    /// Whether the caller may record and change the rental (procurement, engineers).
    pub can_act: bool,
    /// The frozen estimate's time to finish, hours (the planned end is the start plus this).
    pub time_to_finish_h: Option<String>,
    /// The rental, once recorded.
    pub rental: Option<RentalShown>,
}

/// A recorded rental.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RentalShown {
    /// Rental id.
    pub id: i64,
    /// Where it stands now.
    pub state: RentalState,
    /// Started (UTC).
    pub started_at: String,
    /// Planned end (UTC).
    pub planned_end_at: String,
    /// Stopped (UTC), if.
    pub stopped_at: Option<String>,
    /// Released (UTC), if.
    pub released_at: Option<String>,
    /// The vendor's resource ids.
    pub resources: Vec<String>,
    /// The team's note.
    pub note: String,
    /// What it costs per day now, formatted (`None`: no frozen prices to cost it with).
    pub per_day: Option<String>,
    /// The same, exact, in the quote's currency.
    pub per_day_exact: Option<String>,
    /// The lines of the daily cost that are not zero: (label, amount).
    pub per_day_lines: Vec<(String, String)>,
    /// Why it is overdue, if it is.
    pub overdue: Option<String>,
    /// Hours running so far (or until stopped), and stopped so far.
    pub running_h: String,
    /// Hours stopped but not released so far.
    pub stopped_h: String,
    /// The actual hours recorded at release: setup, data preparation, re-runs.
    pub actual_hours: Option<(String, String, String)>,
}

/// One overdue rental on the dashboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OverdueRental {
    /// The order it follows.
    pub order_id: i64,
    /// The order's title.
    pub title: String,
    /// Running or stopped.
    pub state: RentalState,
    /// Why it is overdue, in words.
    pub reason: String,
    /// What it costs per day now, formatted.
    pub per_day: Option<String>,
    /// The same, exact.
    pub per_day_exact: Option<String>,
}

/// What the team's released rentals of one kind of workload took, on average.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnedKind {
    /// The kind as stored (`batch` …).
    pub kind: String,
    /// The kind in words.
    pub kind_label: String,
    /// Rentals averaged.
    pub rentals: usize,
    /// Mean setup hours (as the form writes them).
    pub setup_h: String,
    /// Mean data preparation hours.
    pub data_prep_h: String,
    /// Mean re-run share, percent.
    pub rerun_pct: String,
    /// Mean idle hours.
    pub idle_h: String,
    /// Mean stopped hours.
    pub stopped_h: String,
}

/// The learned defaults the cost page offers for its workload.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnedOffer {
    /// The summary of every kind the team has released rentals of.
    pub kinds: Vec<LearnedKind>,
    /// For the page's workload: its kind's summary in one sentence and the page's link with
    /// those figures as assumptions (`None`: no released rental of that kind yet).
    pub offer: Option<(String, String)>,
}
