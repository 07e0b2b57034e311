//! The quote form's server side: the values a form starts from, and saving a submitted form
//! through the same parser and checks as an imported CSV row.

use super::*;
use crate::{
    auth,
    domain::{
        quotes::{self, COLUMNS, CsvFormat, ImportDefaults, gpu_model_suggestions},
        roles::Capability,
        tco::Currency,
    },
    error::FieldIssue,
    store::{self, quotes::QuoteStoreError},
};

/// The quote form's numeric fields ([`Input::Number`]): read as people type them
/// ([`crate::domain::numbers`]: `2,000`, `12,50`) and passed on normalised to the row parser.
fn number_fields() -> Vec<&'static str> {
    SECTIONS
        .iter()
        .flat_map(|(_, fields)| fields.iter())
        .filter(|(_, input, _)| matches!(input, Input::Number))
        .map(|(name, _, _)| *name)
        .collect()
}

/// Reads the one data row of a two-line CSV into `column → value`.
pub fn csv_to_map(csv_text: &str) -> BTreeMap<String, String> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let headers = reader.headers().cloned().unwrap_or_default();
    let row = reader.records().next().and_then(Result::ok).unwrap_or_default();
    headers
        .iter()
        .zip(row.iter())
        .map(|(h, v)| (h.to_string(), v.to_string()))
        .collect()
}

/// Writes `column → value` as a two-line CSV in column order.
pub fn map_to_csv(fields: &BTreeMap<String, String>) -> Result<Vec<u8>, AppError> {
    let columns: Vec<&str> = COLUMNS
        .iter()
        .map(|c| c.name)
        .filter(|c| fields.contains_key(*c))
        .collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| {
        tracing::error!(error = %e, "cannot write form as CSV");
        AppError::Internal
    };
    w.write_record(&columns).map_err(fail)?;
    w.write_record(columns.iter().map(|c| fields[*c].as_str()))
        .map_err(fail)?;
    w.into_inner().map_err(|_| AppError::Internal)
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
            (
                csv_to_map(&quotes::export(std::slice::from_ref(&q.draft))),
                Some(q.revision),
            )
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

pub async fn save(quote_id: Option<i64>, mut fields: BTreeMap<String, String>) -> Result<SavedQuote, AppError> {
    let (caller, team) = auth::require_team(Capability::EditProcurement)?;
    let db = auth::db()?;
    fields.retain(|k, _| COLUMNS.iter().any(|c| c.name == k));
    let unreadable = crate::domain::numbers::normalise_fields(&mut fields, &number_fields());
    let existing = match quote_id {
        Some(id) => Some(
            store::quotes::latest(&db, team.team_id, id)
                .await?
                .ok_or(AppError::NotFound)?,
        ),
        None => None,
    };
    if let Some(q) = &existing {
        // A revision keeps the quote's identity.
        fields.insert("vendor".into(), q.draft.vendor.clone());
        fields.insert("reference".into(), q.draft.reference.clone());
    }
    let csv_bytes = map_to_csv(&fields)?;
    let defaults = ImportDefaults::new("", store::today(), None);
    let preview = quotes::import(&csv_bytes, Some(CsvFormat::NodeLedger), &defaults).map_err(|e| {
        AppError::Invalid(match e {
            quotes::ImportError::MissingColumns { .. } => Msg::QerrRequired,
            _ => Msg::ErrorBadRequest,
        })
    })?;
    let Some(row) = preview.rows.into_iter().next() else {
        return Err(AppError::Invalid(Msg::ErrorBadRequest));
    };
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

#[cfg(test)]
mod tests {
    #[test]
    fn prices_sizes_and_counts_are_read_as_numbers() {
        let names = super::number_fields();
        for name in [
            "price.on_demand_hourly",
            "spec.vram_gib",
            "spec.gpus_per_node",
            "price.monthly_price",
        ] {
            assert!(names.contains(&name), "{name}");
        }
        assert!(!names.contains(&"reference") && !names.contains(&"spec.cuda"));
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
