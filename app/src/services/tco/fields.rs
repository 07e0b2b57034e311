//! The cost page's query and its assumption fields: how each field is checked (percent fields
//! in percent, node counts 1 to [`MAX_NODES`]) and written back.

use crate::domain::{numbers, tco::AssumptionOverrides};
use rust_decimal::Decimal;

/// Most nodes the comparison accepts.
pub const MAX_NODES: u32 = 64;

/// The shared assumption fields, in form order.
pub const FIELDS: [&str; 13] = crate::views::tco::ASSUMPTION_FIELDS;

/// A parsed `application/x-www-form-urlencoded` query, repeated keys kept.
#[derive(Clone, Debug, Default)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Parses a raw query string (with or without the leading `?`).
    #[must_use]
    pub fn parse(raw: &str) -> Self {
        Self(serde_urlencoded::from_str(raw.trim_start_matches('?')).unwrap_or_default())
    }

    /// The last value of `key`, trimmed, if not empty.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.last(key).filter(|v| !v.is_empty())
    }

    /// The last value of `key`, trimmed, even when empty (a shared field sent empty is checked).
    fn last(&self, key: &str) -> Option<&str> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.trim())
    }

    /// Every pair, in the order sent (values as sent, untrimmed).
    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }

    /// Every value of `key`.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> {
        self.0.iter().filter(move |(k, _)| k == key).map(|(_, v)| v.trim())
    }
}

/// Why a typed assumption was not taken, shown next to the field (the page's text is in `texts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// Not a decimal number (e.g. `lots`, or sent empty).
    Number,
    /// Below zero: hours, GB and percentages cannot be negative.
    Negative,
    /// A percentage outside `min..=max` %: re-runs 0 to 99, scaling efficiency 1 to 100.
    Percent {
        /// The lowest percentage the field accepts.
        min: u8,
        /// The highest percentage the field accepts.
        max: u8,
    },
    /// A node count outside 1 to [`MAX_NODES`].
    Nodes,
}

/// One checked assumption value.
#[derive(Clone, Copy)]
pub(super) enum Value {
    /// A decimal figure as typed (hours, GB, percent).
    Figure(Decimal),
    /// A node count, or none for "as the workload needs".
    Nodes(Option<u32>),
}

/// Checks one assumption field as typed (percent fields in percent).
pub(super) fn check_field(name: &str, value: &str) -> Result<Value, FieldError> {
    if name == "nodes" {
        return match value {
            "" => Ok(Value::Nodes(None)),
            v => match numbers::parse_integer::<u32>(v) {
                Ok(n) if (1..=MAX_NODES).contains(&n) => Ok(Value::Nodes(Some(n))),
                _ => Err(FieldError::Nodes),
            },
        };
    }
    match numbers::parse_decimal(value) {
        Err(_) => Err(FieldError::Number),
        Ok(d) if d.is_sign_negative() && !d.is_zero() => Err(FieldError::Negative),
        Ok(d) if name == "rerun_pct" && d >= Decimal::ONE_HUNDRED => Err(FieldError::Percent { min: 0, max: 99 }),
        Ok(d) if name == "efficiency_pct" && (d <= Decimal::ZERO || d > Decimal::ONE_HUNDRED) => {
            Err(FieldError::Percent { min: 1, max: 100 })
        }
        Ok(d) => Ok(Value::Figure(d)),
    }
}

/// Sets one checked field in `o` (percent fields become shares).
pub(super) fn apply(o: &mut AssumptionOverrides, name: &str, value: Value) {
    let hundred = Decimal::ONE_HUNDRED;
    match (name, value) {
        (_, Value::Nodes(n)) => o.nodes = n,
        ("setup_h", Value::Figure(d)) => o.setup_h = Some(d),
        ("data_prep_h", Value::Figure(d)) => o.data_prep_h = Some(d),
        ("download_h", Value::Figure(d)) => o.download_h = Some(d),
        ("export_h", Value::Figure(d)) => o.export_h = Some(d),
        ("idle_h", Value::Figure(d)) => o.idle_h = Some(d),
        ("stopped_h", Value::Figure(d)) => o.stopped_h = Some(d),
        ("rerun_pct", Value::Figure(d)) => o.rerun_share = Some(d / hundred),
        ("egress_gb", Value::Figure(d)) => o.egress_gb = Some(d),
        ("ingress_gb", Value::Figure(d)) => o.ingress_gb = Some(d),
        ("snapshot_gb", Value::Figure(d)) => o.snapshot_gb = Some(d),
        ("snapshot_months", Value::Figure(d)) => o.snapshot_months = Some(d),
        ("efficiency_pct", Value::Figure(d)) => o.efficiency = Some(d / hundred),
        _ => {}
    }
}

/// The value of field `name` in `o` as the form writes it (shares in percent), if set.
pub(super) fn field_text(o: &AssumptionOverrides, name: &str) -> Option<String> {
    let hundred = Decimal::ONE_HUNDRED;
    let d = match name {
        "nodes" => return o.nodes.map(|n| n.to_string()),
        "setup_h" => o.setup_h,
        "data_prep_h" => o.data_prep_h,
        "download_h" => o.download_h,
        "export_h" => o.export_h,
        "idle_h" => o.idle_h,
        "stopped_h" => o.stopped_h,
        "rerun_pct" => o.rerun_share.map(|s| s * hundred),
        "egress_gb" => o.egress_gb,
        "ingress_gb" => o.ingress_gb,
        "snapshot_gb" => o.snapshot_gb,
        "snapshot_months" => o.snapshot_months,
        "efficiency_pct" => o.efficiency.map(|s| s * hundred),
        _ => None,
    };
    d.map(|d| d.normalize().to_string())
}

/// `shared` with every field it leaves unset read from `default(name)`, a text in the form's
/// terms (a default that does not read is left unset; the defaults always read).
pub(super) fn fill(shared: &AssumptionOverrides, default: impl Fn(&str) -> String) -> AssumptionOverrides {
    let mut o = shared.clone();
    for name in FIELDS {
        if field_text(shared, name).is_none()
            && let Ok(v) = check_field(name, &default(name))
        {
            apply(&mut o, name, v);
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_keep_repeated_keys_and_the_last_value_wins() {
        let q = Query::parse("?q=1&q=2&setup_h=+2+&setup_h=3&empty=");
        assert_eq!(q.all("q").collect::<Vec<_>>(), ["1", "2"]);
        assert_eq!(q.get("setup_h"), Some("3"));
        assert_eq!(q.get("empty"), None);
    }
}
