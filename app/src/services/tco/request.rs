//! What a cost comparison is asked for: [`CostRequest`], read once from the cost page's query
//! ([`CostRequest::from_query`]) or built in code ([`CostRequest::new`] and its `with_…`
//! methods), and turned back into the page's link ([`CostRequest::to_query`]).
//!
//! The query of the cost page (a GET form, so a comparison is a link):
//! `workload=<id>`, `picked=1` and `q=<quote id>` (repeated) for the quotes chosen, one
//! `<field>=<value>` per shared assumption ([`FIELDS`]; percent fields in percent), the same
//! per quote as `<field>_<quote id>`, a typed throughput `tp_<quote id>` measured on
//! `tpn_<quote id>` nodes, and `rev_<quote id>=<revision>` to cost that revision of the quote
//! instead of its latest (an order costs the revision it pinned).

use super::{
    fields::{FIELDS, FieldError, MAX_NODES, Query, apply, check_field, field_text},
    query::{QueryParts, QuoteParts, given},
};
use crate::domain::tco::AssumptionOverrides;
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// Which of the team's quotes are compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum QuoteSelection {
    /// Every quote still valid that meets the workload's requirements (no `q` and no `picked`).
    #[default]
    Suitable,
    /// Exactly these quote ids (`picked=1`, `q=…`); ids the team does not have are ignored.
    Picked(Vec<i64>),
}

/// A throughput typed for one quote instead of the one its runs give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedThroughput {
    /// Units of work per second, above zero.
    pub per_s: Decimal,
    /// The node count it was measured on (`n_run`, rule 2); `None` is one node.
    pub n_run: Option<u32>,
}

/// Why one quote's own inputs were not taken; the quote is then listed as a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuoteInputError {
    /// The first bad override, in form order, and what is wrong with it.
    Override(&'static str, FieldError),
    /// The typed throughput is zero or below.
    ThroughputNotPositive,
    /// The typed throughput is not a number.
    ThroughputNumber,
    /// The node count of the typed throughput is outside 1 to [`MAX_NODES`].
    ThroughputNodes,
}

/// A cost comparison as asked for: the workload, the quotes, the shared assumptions, and per
/// quote its overrides and typed throughput. Everything is a `domain::tco` type; what did not
/// read (from a query) is kept so the page can name it.
///
/// Built in code, e.g. for an order's default comparison:
///
/// ```
/// # use app::services::tco::{CostRequest, TypedThroughput};
/// # use app::domain::tco::AssumptionOverrides;
/// # use rust_decimal::Decimal;
/// let request = CostRequest::new(Some(3))
///     .with_quotes([7, 9])
///     .with_shared(AssumptionOverrides { setup_h: Some(Decimal::TWO), ..Default::default() })
///     .with_throughput(7, TypedThroughput { per_s: Decimal::from(1800), n_run: Some(2) });
/// assert_eq!(request.to_query(), "workload=3&picked=1&q=7&q=9&setup_h=2&tp_7=1800&tpn_7=2");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CostRequest {
    /// The workload compared; `None`, or an id the team does not have, compares the team's
    /// first workload.
    pub workload_id: Option<i64>,
    /// Which quotes are compared.
    pub quotes: QuoteSelection,
    /// The shared assumptions set; every field left `None` takes the workload's default
    /// (setup 1 h, 10 % re-runs, egress = checkpoint GB, ingress = data GB, 90 % scaling
    /// efficiency, nodes as the workload needs, 0 otherwise).
    pub shared: AssumptionOverrides,
    /// Per quote id, the assumptions that differ for that quote.
    pub overrides: BTreeMap<i64, AssumptionOverrides>,
    /// Per quote id, a throughput typed instead of the one its valid runs give (rule 5).
    pub throughput: BTreeMap<i64, TypedThroughput>,
    /// Per quote id, the revision number costed instead of the latest (`rev_<quote id>`); a
    /// revision the quote does not have leaves the latest, which the row's revision shows.
    pub revisions: BTreeMap<i64, i64>,
    /// What the query said, as read: empty for a request built in code.
    pub(super) typed: Typed,
}

/// The parts of a query kept as typed: the form shows them back, with what is wrong.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Typed {
    /// The query itself (without `?`), the link of the comparison.
    pub query: Option<String>,
    /// Each shared field sent, as typed (trimmed).
    pub shared: BTreeMap<&'static str, String>,
    /// Each shared field that did not read; the comparison then costs nothing.
    pub shared_errors: BTreeMap<&'static str, FieldError>,
    /// Each quote whose own inputs did not read.
    pub quote_errors: BTreeMap<i64, QuoteInputError>,
}

impl CostRequest {
    /// A comparison of `workload_id` (the team's first workload when `None`) over the suitable
    /// quotes under the workload's default assumptions.
    #[must_use]
    pub fn new(workload_id: Option<i64>) -> Self {
        Self {
            workload_id,
            ..Self::default()
        }
    }

    /// Compares exactly these quotes.
    #[must_use]
    pub fn with_quotes(mut self, ids: impl IntoIterator<Item = i64>) -> Self {
        self.quotes = QuoteSelection::Picked(ids.into_iter().collect());
        self
    }

    /// Sets the shared assumptions (fields left `None` keep the workload's defaults).
    #[must_use]
    pub fn with_shared(mut self, shared: AssumptionOverrides) -> Self {
        self.shared = shared;
        self
    }

    /// Sets the assumptions that differ for quote `quote_id`.
    #[must_use]
    pub fn with_override(mut self, quote_id: i64, overrides: AssumptionOverrides) -> Self {
        self.overrides.insert(quote_id, overrides);
        self
    }

    /// Costs quote `quote_id` with a typed throughput instead of its runs'.
    #[must_use]
    pub fn with_throughput(mut self, quote_id: i64, throughput: TypedThroughput) -> Self {
        self.throughput.insert(quote_id, throughput);
        self
    }

    /// Costs revision `revision` of quote `quote_id` instead of its latest. On a request read
    /// from a query, the pair is also added to that query, so that its link costs the same.
    #[must_use]
    pub fn with_revision(mut self, quote_id: i64, revision: i64) -> Self {
        self.revisions.insert(quote_id, revision);
        if let Some(q) = &mut self.typed.query {
            let pair = format!("rev_{quote_id}={revision}");
            // The last value of a key wins, so appending overrides a `rev_` already there.
            if q.split('&').next_back().is_none_or(|last| last != pair) {
                if !q.is_empty() {
                    q.push('&');
                }
                q.push_str(&pair);
            }
        }
        self
    }

    /// Reads the cost page's query (with or without `?`). Nothing bad is replaced by a
    /// default: a bad shared field is kept with its error (the comparison then costs nothing),
    /// a bad per-quote input makes that quote a problem.
    #[must_use]
    pub fn from_query(raw: &str) -> Self {
        let query = Query::parse(raw);
        let parts = QueryParts::of(&query);
        let picked: Vec<i64> = parts.quotes.iter().filter_map(|v| v.parse().ok()).collect();
        let quotes = if given(parts.picked).is_some() || !picked.is_empty() {
            QuoteSelection::Picked(picked)
        } else {
            QuoteSelection::Suitable
        };
        let mut request = Self {
            workload_id: given(parts.workload).and_then(|v| v.parse::<i64>().ok()),
            quotes,
            ..Self::default()
        };
        request.typed.query = Some(raw.trim_start_matches('?').to_string());
        request.read_shared(&parts);
        for (&id, inputs) in &parts.per_quote {
            if inputs.any_field {
                match quote_overrides(inputs) {
                    Ok(o) => {
                        request.overrides.insert(id, o);
                    }
                    Err(e) => {
                        request.typed.quote_errors.insert(id, e);
                    }
                }
            }
            if let Some(rev) = given(inputs.rev)
                .and_then(|v| v.parse::<i64>().ok())
                .filter(|r| *r >= 1)
            {
                request.revisions.insert(id, rev);
            }
            match typed_throughput(inputs) {
                Ok(Some(t)) => {
                    request.throughput.insert(id, t);
                }
                Ok(None) => {}
                Err(e) => {
                    request.typed.quote_errors.entry(id).or_insert(e);
                }
            }
        }
        request
    }

    /// Reads every shared field sent (an empty one included: it is checked, not defaulted).
    fn read_shared(&mut self, parts: &QueryParts) {
        for (name, text) in FIELDS.into_iter().zip(parts.shared) {
            let Some(text) = text else { continue };
            match check_field(name, text) {
                Ok(v) => apply(&mut self.shared, name, v),
                Err(e) => {
                    self.typed.shared_errors.insert(name, e);
                }
            }
            self.typed.shared.insert(name, text.to_string());
        }
    }

    /// Whether every shared field read (a request built in code always does); when one does
    /// not, nothing is costed.
    #[must_use]
    pub fn shared_reads(&self) -> bool {
        self.typed.shared_errors.is_empty()
    }

    /// The first problem with quote `quote_id`'s own inputs, if any.
    #[must_use]
    pub fn quote_error(&self, quote_id: i64) -> Option<QuoteInputError> {
        self.typed.quote_errors.get(&quote_id).copied()
    }

    /// The query of this request: as typed when it was read from one, else written out in the
    /// page's form (`workload`, `picked` and `q`, the shared fields, then per quote).
    #[must_use]
    pub fn to_query(&self) -> String {
        if let Some(q) = &self.typed.query {
            return q.clone();
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        if let Some(id) = self.workload_id {
            pairs.push(("workload".into(), id.to_string()));
        }
        if let QuoteSelection::Picked(ids) = &self.quotes {
            pairs.push(("picked".into(), "1".into()));
            pairs.extend(ids.iter().map(|id| ("q".into(), id.to_string())));
        }
        let fields = |o: &AssumptionOverrides, suffix: &str| {
            FIELDS
                .iter()
                .filter_map(|name| field_text(o, name).map(|v| (format!("{name}{suffix}"), v)))
                .collect::<Vec<_>>()
        };
        pairs.extend(fields(&self.shared, ""));
        for (id, o) in &self.overrides {
            pairs.extend(fields(o, &format!("_{id}")));
        }
        for (id, t) in &self.throughput {
            pairs.push((format!("tp_{id}"), t.per_s.normalize().to_string()));
            if let Some(n) = t.n_run {
                pairs.push((format!("tpn_{id}"), n.to_string()));
            }
        }
        for (id, rev) in &self.revisions {
            pairs.push((format!("rev_{id}"), rev.to_string()));
        }
        serde_urlencoded::to_string(&pairs).unwrap_or_default()
    }
}

/// Reads the overrides of one quote (`<field>_<quote id>`); the first bad one, in form order,
/// is returned with the field's name.
fn quote_overrides(inputs: &QuoteParts) -> Result<AssumptionOverrides, QuoteInputError> {
    let mut o = AssumptionOverrides::default();
    for (name, text) in FIELDS.into_iter().zip(inputs.fields) {
        if let Some(v) = given(text) {
            let value = check_field(name, v).map_err(|e| QuoteInputError::Override(name, e))?;
            apply(&mut o, name, value);
        }
    }
    Ok(o)
}

/// Reads the typed throughput of one quote (`tp_<id>`, and `tpn_<id>` for the nodes it ran
/// on; `tpn` alone says nothing).
fn typed_throughput(inputs: &QuoteParts) -> Result<Option<TypedThroughput>, QuoteInputError> {
    let Some(v) = given(inputs.tp) else {
        return Ok(None);
    };
    let per_s = match crate::domain::numbers::parse_decimal(v) {
        Ok(d) if d > Decimal::ZERO => d,
        Ok(_) => return Err(QuoteInputError::ThroughputNotPositive),
        Err(_) => return Err(QuoteInputError::ThroughputNumber),
    };
    let n_run = match given(inputs.tpn) {
        None => None,
        Some(v) => match crate::domain::numbers::parse_integer::<u32>(v) {
            Ok(n) if (1..=MAX_NODES).contains(&n) => Some(n),
            _ => return Err(QuoteInputError::ThroughputNodes),
        },
    };
    Ok(Some(TypedThroughput { per_s, n_run }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_reads_into_domain_figures_with_percent_as_shares() {
        let r = CostRequest::from_query("?workload=3&q=7&q=x&rerun_pct=25&efficiency_pct=80&nodes=2&setup_h=2.50");
        assert_eq!(r.workload_id, Some(3));
        assert_eq!(r.quotes, QuoteSelection::Picked(vec![7]));
        assert_eq!(r.shared.rerun_share, Some(Decimal::new(25, 2)));
        assert_eq!(r.shared.efficiency, Some(Decimal::new(8, 1)));
        assert_eq!(
            (r.shared.nodes, r.shared.setup_h),
            (Some(2), Some(Decimal::new(250, 2)))
        );
        assert_eq!(r.shared.egress_gb, None, "not sent: the workload's default");
        assert_eq!(
            r.typed.shared.get("setup_h").map(String::as_str),
            Some("2.50"),
            "shown as typed"
        );
        assert_eq!(CostRequest::from_query("").quotes, QuoteSelection::Suitable);
        assert_eq!(
            CostRequest::from_query("picked=1").quotes,
            QuoteSelection::Picked(vec![])
        );
    }

    #[test]
    fn bad_shared_fields_are_kept_with_their_error_and_nothing_is_assumed() {
        let r = CostRequest::from_query("setup_h=-1&rerun_pct=100&efficiency_pct=0&nodes=0&egress_gb=lots&idle_h=");
        let e = &r.typed.shared_errors;
        assert_eq!(e.get("setup_h"), Some(&FieldError::Negative));
        assert_eq!(e.get("rerun_pct"), Some(&FieldError::Percent { min: 0, max: 99 }));
        assert_eq!(e.get("efficiency_pct"), Some(&FieldError::Percent { min: 1, max: 100 }));
        assert_eq!(e.get("nodes"), Some(&FieldError::Nodes));
        assert_eq!(e.get("egress_gb"), Some(&FieldError::Number));
        assert_eq!(
            e.get("idle_h"),
            Some(&FieldError::Number),
            "sent empty is not a default"
        );
        assert_eq!(r.typed.shared.get("egress_gb").map(String::as_str), Some("lots"));
        assert_eq!(r.shared, AssumptionOverrides::default());
    }

    #[test]
    fn per_quote_inputs_read_by_quote_id_and_the_first_bad_one_is_named() {
        let r = CostRequest::from_query(
            "q=7&q=8&setup_h_7=3&efficiency_pct_7=50&tp_7=1800&tpn_7=2&idle_h_8=x&rerun_pct_8=120&tp_9=0&tpn_10=2",
        );
        let seven = &r.overrides[&7];
        assert_eq!(
            (seven.setup_h, seven.efficiency),
            (Some(Decimal::from(3)), Some(Decimal::new(5, 1)))
        );
        assert_eq!(
            r.throughput[&7],
            TypedThroughput {
                per_s: Decimal::from(1800),
                n_run: Some(2)
            }
        );
        assert_eq!(
            r.quote_error(8),
            Some(QuoteInputError::Override("idle_h", FieldError::Number))
        );
        assert_eq!(r.quote_error(9), Some(QuoteInputError::ThroughputNotPositive));
        assert_eq!(
            (r.quote_error(10), r.throughput.get(&10)),
            (None, None),
            "tpn alone says nothing"
        );
        assert_eq!(
            CostRequest::from_query("tp_4=5&tpn_4=65").quote_error(4),
            Some(QuoteInputError::ThroughputNodes)
        );
        assert_eq!(
            CostRequest::from_query("setup_h_+4=1").overrides.len(),
            0,
            "not an id the page writes"
        );
    }

    #[test]
    fn a_request_built_in_code_writes_the_query_that_reads_back_into_it() {
        let built = CostRequest::new(Some(3))
            .with_quotes([7, 9])
            .with_shared(AssumptionOverrides {
                rerun_share: Some(Decimal::new(25, 2)),
                nodes: Some(2),
                ..AssumptionOverrides::default()
            })
            .with_override(
                9,
                AssumptionOverrides {
                    efficiency: Some(Decimal::new(75, 2)),
                    ..AssumptionOverrides::default()
                },
            )
            .with_throughput(
                7,
                TypedThroughput {
                    per_s: Decimal::new(15, 1),
                    n_run: None,
                },
            );
        let query = built.to_query();
        assert_eq!(
            query,
            "workload=3&picked=1&q=7&q=9&rerun_pct=25&nodes=2&efficiency_pct_9=75&tp_7=1.5"
        );
        let read = CostRequest::from_query(&query);
        assert_eq!(read.to_query(), query, "a read request keeps its query");
        assert_eq!(
            (read.workload_id, &read.quotes, &read.shared, &read.throughput),
            (built.workload_id, &built.quotes, &built.shared, &built.throughput)
        );
        assert_eq!(read.overrides[&9].efficiency, Some(Decimal::new(75, 2)));
    }
}
