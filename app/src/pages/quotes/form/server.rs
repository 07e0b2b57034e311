//! The quote form's server side: the values a form starts from, and saving a submitted form
//! through the same parser and checks as an imported CSV row (a [`QuoteInput`], never CSV text).

use super::*;
use crate::{
    auth,
    domain::{
        quotes::{self, QuoteInput, gpu_model_suggestions},
        roles::Capability,
        tco::Currency,
    },
    error::FieldIssue,
    store::{self, quotes::QuoteStoreError},
};

/// The columns of the fields entered as `kind` says.
fn fields_where(kind: impl Fn(Input) -> bool) -> Vec<&'static str> {
    SECTIONS
        .iter()
        .flat_map(|(_, fields)| fields.iter())
        .filter(|(_, input, _)| kind(*input))
        .map(|(name, _, _)| *name)
        .collect()
}

/// The quote form's numeric fields ([`Input::Number`]): read as people type them
/// ([`crate::domain::numbers`]: `2,000`, `12,50`) and passed on normalised to the row parser.
fn number_fields() -> Vec<&'static str> {
    fields_where(|input| matches!(input, Input::Number))
}

/// The fields that take a number or words ([`Input::PriceOrFree`]: `free`;
/// [`Input::NumberWithUnit`]: `10 min`, `30%`).
fn number_or_word_fields() -> Vec<&'static str> {
    fields_where(|input| matches!(input, Input::PriceOrFree | Input::NumberWithUnit))
}

/// The fields of a submission to read as typed numbers: every number field, and a field that
/// also takes words when no word was typed into it (`12,50` is read as a number field reads it,
/// with its messages; `free`, `10 min` and `30%` go on to the row parser as typed).
fn typed_numbers(fields: &BTreeMap<String, String>) -> Vec<&'static str> {
    let has_words = |value: &String| value.chars().any(|c| c.is_alphabetic() || c == '%');
    let mut names = number_fields();
    names.extend(
        number_or_word_fields()
            .into_iter()
            .filter(|name| fields.get(*name).is_some_and(|value| !has_words(value))),
    );
    names
}

fn defaults() -> BTreeMap<String, String> {
    let today = store::today();
    [
        ("received_on", today.to_string()),
        ("valid_until", today.add_days(30).unwrap_or(today).to_string()),
        ("currency", "CNY".into()),
        ("spec.gpus_per_node", "1".into()),
        ("spec.sharing", "exclusive".into()),
        ("price.basis", "per_node".into()),
        ("price.billing_increment", "hour".into()),
        // No answer is chosen for whether a stopped instance bills compute: the vendor has to
        // say it, the form does not assume it.
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

pub async fn form_data(quote_id: Option<i64>) -> Result<QuoteFormData, AppError> {
    let (_, team) = auth::require_team(Capability::EditProcurement)?;
    let db = auth::db()?;
    let (values, revision) = match quote_id {
        None => (defaults(), None),
        Some(id) => {
            let q = store::quotes::latest(&db, team.team_id, id)
                .await?
                .ok_or(AppError::NotFound)?;
            (QuoteInput::from_draft(&q.draft).into_cells(), Some(q.revision))
        }
    };
    Ok(QuoteFormData {
        values,
        vendors: store::vendors::list(&db, team.team_id)
            .await?
            .into_iter()
            .map(|v| v.name)
            .collect(),
        gpu_models: gpu_model_suggestions().map(|g| g.label.to_string()).collect(),
        currencies: Currency::ALL.iter().map(|c| c.code().to_string()).collect(),
        revision,
    })
}

pub async fn save(quote_id: Option<i64>, fields: BTreeMap<String, String>) -> Result<SavedQuote, AppError> {
    let (caller, team) = auth::require_team(Capability::EditProcurement)?;
    let db = auth::db()?;
    let existing = match quote_id {
        Some(id) => Some(
            store::quotes::latest(&db, team.team_id, id)
                .await?
                .ok_or(AppError::NotFound)?,
        ),
        None => None,
    };
    // A revision keeps the quote's identity.
    let fixed = existing
        .as_ref()
        .map(|q| {
            vec![
                ("vendor", q.draft.vendor.clone()),
                ("reference", q.draft.reference.clone()),
            ]
        })
        .unwrap_or_default();
    let (_, draft) = checked_fields(fields, &fixed)?;
    let mut tx = store::begin_write(&db).await?;
    let result = match &existing {
        Some(q) => store::quotes::add_revision(&mut tx, team.team_id, q.quote_id, &draft, Some(caller.user_id))
            .await
            .and_then(|r| {
                r.map(|(rev, _)| (q.quote_id, rev))
                    .ok_or(QuoteStoreError::DuplicateReference)
            }),
        None => {
            let vendor_id = store::vendors::id_or_create(&mut tx, team.team_id, &draft.vendor).await?;
            store::quotes::insert(&mut tx, team.team_id, vendor_id, &draft, Some(caller.user_id))
                .await
                .map(|(id, _)| (id, 1))
        }
    };
    match result {
        Ok((quote_id, revision)) => {
            tx.commit().await?;
            Ok(SavedQuote { quote_id, revision })
        }
        Err(QuoteStoreError::DuplicateReference) => Err(AppError::Conflict(Msg::QuotesDuplicateReference)),
        Err(QuoteStoreError::PriceOutOfRange) => Err(AppError::InvalidFields(vec![FieldIssue::from_code(
            "price.on_demand_hourly",
            &quotes::ErrorCode::TooLarge {
                max: rust_decimal::Decimal::from(1_000_000),
            },
        )])),
        Err(QuoteStoreError::Sql(e)) => Err(e.into()),
    }
}

/// Reads a submitted quote form as the CSV importer reads a row, with `fixed` values set over
/// what was typed: the cells as read (numbers normalised) and the quote they make.
///
/// # Errors
/// [`AppError::InvalidFields`] naming every field that does not read (by its column name) and
/// why.
pub(crate) fn checked_fields(
    fields: BTreeMap<String, String>,
    fixed: &[(&'static str, String)],
) -> Result<(BTreeMap<String, String>, quotes::QuoteDraft), AppError> {
    let mut input = QuoteInput::from_fields(fields);
    let numbers = typed_numbers(input.cells());
    let unreadable = crate::domain::numbers::normalise_fields(input.cells_mut(), &numbers);
    for (column, value) in fixed {
        input.set(column, value.clone());
    }
    let row = input.read().map_err(|e| {
        AppError::Invalid(match e {
            quotes::ImportError::MissingColumns { .. } => Msg::QerrRequired,
            _ => Msg::ErrorBadRequest,
        })
    })?;
    if !row.errors.is_empty() || row.draft.is_none() || !unreadable.is_empty() {
        let mut issues: Vec<FieldIssue> = unreadable.iter().map(|(f, e)| FieldIssue::from_number(f, *e)).collect();
        issues.extend(
            row.errors
                .iter()
                .map(|e| {
                    let column = e.column.as_deref().or(e.field).unwrap_or("_row").to_lowercase();
                    FieldIssue::from_code(&column, &e.code)
                })
                .filter(|i| !unreadable.iter().any(|(f, _)| *f == i.field)),
        );
        return Err(AppError::InvalidFields(issues));
    }
    let draft = row.draft.ok_or(AppError::Internal)?;
    Ok((input.into_cells(), draft))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    #[test]
    fn prices_sizes_and_counts_are_read_as_numbers() {
        let names = super::number_fields();
        for name in [
            "spec.vram_gib",
            "spec.gpus_per_node",
            "price.monthly_price",
            "price.stopped_hourly",
        ] {
            assert!(names.contains(&name), "{name}");
        }
        assert!(!names.contains(&"reference") && !names.contains(&"spec.cuda"));
        // The on-demand price also takes the word "free", and a blank is "not offered".
        assert!(!names.contains(&"price.on_demand_hourly"));
    }

    #[test]
    fn a_number_typed_beside_words_is_read_as_a_number_and_words_are_left_to_the_parser() {
        let typed = |pairs: &[(&str, &str)]| {
            let mut fields: BTreeMap<String, String> = pairs
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect();
            let numbers = super::typed_numbers(&fields);
            let refused = crate::domain::numbers::normalise_fields(&mut fields, &numbers);
            (fields, refused)
        };
        let (fields, refused) = typed(&[
            ("price.on_demand_hourly", "1,234.50"),
            ("price.minimum_billable_hours", "10 min"),
            ("price.stopped_compute_share", "0,3"),
            ("price.egress_tiers", "1,000: 0"),
        ]);
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!(fields["price.on_demand_hourly"], "1234.50");
        assert_eq!(fields["price.minimum_billable_hours"], "10 min");
        assert_eq!(fields["price.stopped_compute_share"], "0.3");
        assert_eq!(fields["price.egress_tiers"], "1,000: 0");
        let (fields, refused) = typed(&[
            ("price.on_demand_hourly", "免费"),
            ("price.stopped_compute_share", "30%"),
        ]);
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!(fields["price.on_demand_hourly"], "免费");
        assert_eq!(fields["price.stopped_compute_share"], "30%");
        // A number in two styles is refused with the number field's own message.
        let (_, refused) = typed(&[("price.on_demand_hourly", "1,234.5.6")]);
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].0, "price.on_demand_hourly");
    }

    /// What the form sends, as `save` reads it before storing: every field, blank unless the
    /// defaults or `typed` fill it.
    fn submitted(typed: &[(&str, &str)]) -> Result<crate::domain::quotes::QuoteDraft, Vec<String>> {
        use super::{QuoteInput, SECTIONS};
        let mut fields: BTreeMap<String, String> = SECTIONS
            .iter()
            .flat_map(|(_, fields)| fields.iter())
            .map(|(column, _, _)| ((*column).to_string(), String::new()))
            .collect();
        fields.extend(super::defaults());
        let required = [
            ("vendor", "算力港"),
            ("reference", "PKG-1"),
            ("spec.gpu_model", "H100 80GB"),
            ("spec.vram_gib", "80"),
        ];
        for (column, value) in required.iter().chain(typed) {
            fields.insert((*column).to_string(), (*value).to_string());
        }
        let mut input = QuoteInput::from_fields(fields);
        let numbers = super::typed_numbers(input.cells());
        let unreadable = crate::domain::numbers::normalise_fields(input.cells_mut(), &numbers);
        if !unreadable.is_empty() {
            return Err(unreadable.iter().map(|(field, e)| format!("{field} {e:?}")).collect());
        }
        let row = input.read().expect("every column given");
        match row.draft {
            Some(draft) if row.errors.is_empty() => Ok(draft),
            _ => Err(row
                .errors
                .iter()
                .map(|e| format!("{:?} {}", e.field, e.code.code()))
                .collect()),
        }
    }

    #[test]
    fn a_price_typed_with_the_quotes_own_currency_sign_is_read() {
        let draft = submitted(&[
            ("price.on_demand_hourly", "¥8.50"),
            ("price.monthly_price", "￥ 5,600"),
            ("price.commitment_months", "1"),
        ])
        .expect("a yuan quote takes ¥");
        assert_eq!(draft.price.on_demand_hourly, Some(rust_decimal::Decimal::new(850, 2)));
        assert_eq!(draft.price.monthly_price, Some(rust_decimal::Decimal::from(5600)));
        let refused = submitted(&[("price.on_demand_hourly", "$8.50")]).expect_err("a dollar sign on a yuan quote");
        assert!(refused.iter().any(|e| e.contains("on_demand_hourly")), "{refused:?}");
    }

    #[test]
    fn a_sheet_of_packages_only_is_entered_with_its_v3_prices() {
        use crate::domain::tco::{BillingIncrement, EarlyReleaseRefund, TrafficPeriod};
        let draft = submitted(&[
            ("price.billing_increment", "15分钟"),
            ("price.monthly_price", "9,000"),
            ("price.commitment_months", "1"),
            ("price.package_period", "week"),
            ("price.early_release_refund", "prorated_day"),
            ("price.stopped_bills_compute", "yes"),
            ("price.stopped_compute_share", "30%"),
            ("price.stopped_bills_disk", "true"),
            ("price.stopped_bills_ip", "false"),
            ("price.egress_tiers", "10TB: 0.09\n*: 0.085"),
            ("price.traffic_period", "month"),
            ("price.minimum_billable_hours", "10 min"),
        ])
        .expect("a valid quote");
        let p = &draft.price;
        assert_eq!(p.on_demand_hourly, None, "blank is not offered, not 0");
        assert_eq!(p.monthly_price, Some(rust_decimal::Decimal::from(9000)));
        assert_eq!(p.billing_increment.seconds(), 900);
        assert_eq!(p.package_period, Some(BillingIncrement::WEEK));
        assert_eq!(p.early_release_refund, Some(EarlyReleaseRefund::ProratedDay));
        assert_eq!(p.stopped_compute_share, Some(rust_decimal::Decimal::new(3, 1)));
        assert_eq!((p.stopped_bills_disk, p.stopped_bills_ip), (true, false));
        assert_eq!(p.egress_tiers.len(), 2);
        assert_eq!(p.traffic_period, Some(TrafficPeriod::Month));
        let ten_minutes = rust_decimal::Decimal::from(10) / rust_decimal::Decimal::from(60);
        assert_eq!(p.minimum_billable_hours, ten_minutes);
    }

    #[test]
    fn an_on_demand_price_of_zero_needs_the_word_free_and_some_price_is_needed() {
        let zero = submitted(&[("price.on_demand_hourly", "0")]).expect_err("a bare 0");
        assert_eq!(zero, vec!["Some(\"price.on_demand_hourly\") zero_needs_free"]);
        let free = submitted(&[("price.on_demand_hourly", "免费")]).expect("free");
        assert_eq!(free.price.on_demand_hourly, Some(rust_decimal::Decimal::ZERO));
        let nothing = submitted(&[]).expect_err("no price at all");
        assert!(nothing.iter().any(|e| e.contains("no_price_offered")), "{nothing:?}");
    }

    #[test]
    fn a_new_quote_form_does_not_answer_for_the_vendor() {
        let values = super::defaults();
        assert!(!values.contains_key("price.stopped_bills_compute"), "{values:?}");
        for price in [
            "price.disk_price_gb_month",
            "price.egress_price_gb",
            "price.snapshot_price_gb_month",
        ] {
            assert!(!values.contains_key(price), "{price}");
        }
    }
}
