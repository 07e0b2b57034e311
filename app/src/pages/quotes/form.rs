//! Entering a quote, or editing one as a new revision. The form's field names are the columns
//! of NodeLedger's CSV format, so the server reads a submitted form exactly as it reads one
//! imported row: same parsing, same checks, same messages.

use crate::{
    components::{
        form_fields::{field_issues, issue_text},
        forms::last_error,
        guard::member_page,
        loaded::Loaded,
    },
    error::{AppError, FieldIssue},
    i18n::{Msg, t, use_locale},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_navigate, use_params_map};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the form starts from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuoteFormData {
    /// Field values by column name.
    pub values: BTreeMap<String, String>,
    /// The team's vendors (suggestions).
    pub vendors: Vec<String>,
    /// GPU model suggestions.
    pub gpu_models: Vec<String>,
    /// Currency codes.
    pub currencies: Vec<String>,
    /// The revision being edited, if any.
    pub revision: Option<i64>,
}

/// A saved quote revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedQuote {
    /// Quote id.
    pub quote_id: i64,
    /// Revision number.
    pub revision: i64,
}

/// The values to start the form with: empty defaults, or the latest revision of `quote_id`.
#[server(endpoint = "quotes/form")]
pub async fn load_quote_form(quote_id: Option<i64>) -> Result<QuoteFormData, AppError> {
    server::form_data(quote_id).await
}

/// Saves a new quote, or a new revision of `quote_id`. Rejected fields come back as one
/// [`AppError::InvalidFields`] (422) naming every field (by its column name) and why.
#[server(endpoint = "quotes/save")]
pub async fn save_quote(quote_id: Option<i64>, fields: BTreeMap<String, String>) -> Result<SavedQuote, AppError> {
    server::save(quote_id, fields).await
}

#[cfg(feature = "ssr")]
pub(crate) mod server;

/// How a field is entered.
#[derive(Clone, Copy)]
pub(crate) enum Input {
    /// One line of text.
    Text,
    /// A decimal or whole number.
    Number,
    /// `YYYY-MM-DD`.
    Date,
    /// Yes / no / not stated.
    YesNo,
    /// One of these values (value, label).
    Choice(&'static [(&'static str, Msg)]),
    /// Several lines of text.
    Long,
    /// `exclusive`, `vgpu`, `mig:<profile>`, `fractional:<share>`.
    Sharing,
}

/// A stored value as a person reads it: yes/no and choices in the page's language; an empty
/// yes/no is "not stated" in words, never "no".
pub(crate) fn display_value(input: Input, value: &str) -> String {
    match input {
        Input::YesNo => match yes_no_value(value) {
            "yes" => t(Msg::QcYes).to_string(),
            "no" => t(Msg::QcNo).to_string(),
            // Spelled out: a dash next to "yes"/"no" reads too easily as "no".
            _ => t(Msg::QcUnknown).to_string(),
        },
        Input::Choice(options) => options
            .iter()
            .find(|(v, _)| *v == value)
            .map_or_else(|| value.to_string(), |(_, l)| t(*l).to_string()),
        Input::Sharing => match value.split_once(':') {
            Some(("mig", profile)) => format!("{} {profile}", t(Msg::QcMig)),
            Some(("fractional", share)) => format!("{} {share}", t(Msg::QcFractional)),
            _ if value == "exclusive" => t(Msg::QcExclusive).to_string(),
            _ if value == "vgpu" => t(Msg::QcVgpu).to_string(),
            _ => value.to_string(),
        },
        _ if value.trim().is_empty() => t(Msg::QuotesNotStated).to_string(),
        // As stated, every digit kept, grouped by thousands (`3,840`).
        Input::Number => value
            .trim()
            .parse::<rust_decimal::Decimal>()
            .map_or_else(|_| value.to_string(), |d| crate::domain::money::group(d, d.scale())),
        _ => value.to_string(),
    }
}

const BASIS: &[(&str, Msg)] = &[("per_node", Msg::QcPerNode), ("per_gpu", Msg::QcPerGpu)];
/// Empty: the monthly price is on the price basis.
const MONTHLY_BASIS: &[(&str, Msg)] = &[
    ("", Msg::QcAsPriceBasis),
    ("per_node", Msg::QcPerNode),
    ("per_gpu", Msg::QcPerGpu),
];
const INCREMENT: &[(&str, Msg)] = &[
    ("second", Msg::QcSecond),
    ("minute", Msg::QcMinute),
    ("hour", Msg::QcHour),
];
const FORM_FACTOR: &[(&str, Msg)] = &[
    ("", Msg::QcUnknown),
    ("pcie", Msg::QcPcie),
    ("sxm", Msg::QcSxm),
    ("other", Msg::QcOther),
];
const INTERCONNECT: &[(&str, Msg)] = &[
    ("", Msg::QcUnknown),
    ("none", Msg::QcNone),
    ("pcie", Msg::QcPcie),
    ("nvlink", Msg::QcNvlink),
    ("nvswitch", Msg::QcNvswitch),
];

/// One field of the form: (column, how it is entered, required).
pub(crate) type Field = (&'static str, Input, bool);

/// The form, section by section: (section title, fields).
pub(crate) const SECTIONS: &[(Msg, &[Field])] = &[
    (
        Msg::QuotesSectionQuote,
        &[
            ("vendor", Input::Text, true),
            ("reference", Input::Text, true),
            ("received_on", Input::Date, true),
            ("valid_until", Input::Date, true),
            ("notes", Input::Long, false),
        ],
    ),
    (
        Msg::QuotesSectionGpu,
        &[
            ("spec.gpu_model", Input::Text, true),
            ("spec.gpus_per_node", Input::Number, true),
            ("spec.vram_gib", Input::Number, true),
            ("spec.usable_vram_gib", Input::Number, false),
            ("spec.form_factor", Input::Choice(FORM_FACTOR), false),
            ("spec.sharing", Input::Sharing, true),
            ("spec.interconnect", Input::Choice(INTERCONNECT), false),
            ("spec.memory_pooling", Input::YesNo, false),
        ],
    ),
    (
        Msg::QuotesSectionHost,
        &[
            ("spec.cpu_model", Input::Text, false),
            ("spec.vcpus", Input::Number, false),
            ("spec.ram_gib", Input::Number, false),
            ("spec.system_disk_gb", Input::Number, false),
            ("spec.system_disk_type", Input::Text, false),
            ("spec.data_disk_gb", Input::Number, false),
            ("spec.data_disk_type", Input::Text, false),
            ("spec.data_disk_survives_release", Input::YesNo, false),
            ("spec.temp_disk_wiped", Input::YesNo, false),
            ("spec.snapshots", Input::YesNo, false),
            ("spec.object_storage", Input::YesNo, false),
            ("spec.public_bandwidth_mbps", Input::Number, false),
            ("spec.internal_bandwidth_gbps", Input::Number, false),
            ("spec.network_gbps", Input::Number, false),
            ("spec.rdma", Input::YesNo, false),
            ("spec.region", Input::Text, false),
        ],
    ),
    (
        Msg::QuotesSectionSoftware,
        &[
            ("spec.os", Input::Text, false),
            ("spec.nvidia_driver", Input::Text, false),
            ("spec.cuda", Input::Text, false),
            ("spec.cudnn", Input::Text, false),
            ("spec.rocm", Input::Text, false),
            ("spec.docker_allowed", Input::YesNo, false),
            ("spec.root_ssh", Input::YesNo, false),
        ],
    ),
    (
        Msg::QuotesSectionPrice,
        &[
            ("currency", Input::Text, true),
            ("price.basis", Input::Choice(BASIS), true),
            ("price.on_demand_hourly", Input::Number, true),
            ("price.billing_increment", Input::Choice(INCREMENT), true),
            ("price.minimum_billable_hours", Input::Number, false),
            ("price.monthly_price", Input::Number, false),
            ("price.monthly_basis", Input::Choice(MONTHLY_BASIS), false),
            ("price.commitment_months", Input::Number, false),
            ("price.stopped_bills_compute", Input::YesNo, false),
            ("price.disk_price_gb_month", Input::Number, false),
            ("price.snapshot_price_gb_month", Input::Number, false),
            ("price.egress_price_gb", Input::Number, false),
            ("price.free_egress_gb", Input::Number, false),
            ("price.ingress_price_gb", Input::Number, false),
            ("price.public_ip_hourly", Input::Number, false),
            ("price.other_fees", Input::Text, false),
            ("auto_renewal", Input::YesNo, false),
            ("early_release", Input::Long, false),
        ],
    ),
    (
        Msg::QuotesSectionSupply,
        &[
            ("nodes_available", Input::Number, false),
            // Text, not a number field: "3 d" and "3 天" are read as 72 hours.
            ("lead_time_hours", Input::Text, false),
        ],
    ),
];

/// The label of a column.
pub fn label(column: &str) -> &'static str {
    Msg::from_key(&format!("qf.{column}")).map_or("", t)
}

/// Normalises stored yes/no spellings for the select.
fn yes_no_value(v: &str) -> &'static str {
    match v.trim().to_lowercase().as_str() {
        "true" | "yes" | "1" | "是" => "yes",
        "false" | "no" | "0" | "否" => "no",
        _ => "",
    }
}

fn field(
    column: &'static str,
    input: Input,
    required: bool,
    value: String,
    editing: bool,
    issues: Signal<Vec<FieldIssue>>,
) -> impl IntoView {
    let name = format!("fields[{column}]");
    let id = format!("f-{}", column.replace('.', "-"));
    let locale = use_locale();
    let error = move || {
        issues.with(|all| {
            let texts: Vec<String> = all
                .iter()
                .filter(|i| i.field == column)
                .map(|i| issue_text(locale, i))
                .collect();
            (!texts.is_empty()).then(|| texts.join(" "))
        })
    };
    let locked = editing && (column == "vendor" || column == "reference");
    let list = match column {
        "vendor" => Some("vendor-list"),
        "spec.gpu_model" => Some("gpu-list"),
        "currency" => Some("currency-list"),
        _ => None,
    };
    let control = match input {
        Input::Text | Input::Sharing => view! {
            <input type="text" id=id.clone() name=name required=required value=value readonly=locked list=list
                aria-invalid=move || error().is_some().to_string() />
        }
        .into_any(),
        Input::Number => view! {
            <input type="text" inputmode="decimal" id=id.clone() name=name required=required value=value
                aria-invalid=move || error().is_some().to_string() />
        }
        .into_any(),
        Input::Date => view! {
            <input type="date" id=id.clone() name=name required=required value=value
                aria-invalid=move || error().is_some().to_string() />
        }
        .into_any(),
        Input::Long => view! { <textarea id=id.clone() name=name rows="2">{value}</textarea> }.into_any(),
        Input::YesNo => {
            let current = yes_no_value(&value);
            let options: &[(&str, Msg)] = if required {
                &[("yes", Msg::QcYes), ("no", Msg::QcNo)]
            } else {
                &[("", Msg::QcUnknown), ("yes", Msg::QcYes), ("no", Msg::QcNo)]
            };
            view! {
                <select id=id.clone() name=name>
                    {options.iter().map(|(v, l)| view! { <option value=*v selected=current == *v>{t(*l)}</option> }).collect_view()}
                </select>
            }
            .into_any()
        }
        Input::Choice(options) => view! {
            <select id=id.clone() name=name>
                {options.iter().map(|(v, l)| view! { <option value=*v selected=value == *v>{t(*l)}</option> }).collect_view()}
            </select>
        }
        .into_any(),
    };
    let hint = match column {
        "spec.sharing" => Some(t(Msg::QuotesSharingHint)),
        "price.other_fees" => Some(t(Msg::QuotesFeesHint)),
        _ => None,
    };
    view! {
        <label for=id class:required=required>
            {label(column)}
            {control}
            {hint.map(|h| view! { <small class="hint">{h}</small> })}
            {move || error().map(|e| view! { <small class="field-error" role="alert">{e}</small> })}
        </label>
    }
}

fn quote_form(data: QuoteFormData, quote_id: Option<i64>) -> impl IntoView {
    let locale = use_locale();
    let save = ServerAction::<SaveQuote>::new();
    let issues = field_issues(save);
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(saved)) = save.value().get() {
            navigate(&format!("/quotes/{}", saved.quote_id), Default::default());
        }
    });
    let editing = quote_id.is_some();
    let values = data.values;
    view! {
        <datalist id="vendor-list">{data.vendors.into_iter().map(|v| view! { <option value=v /> }).collect_view()}</datalist>
        <datalist id="gpu-list">{data.gpu_models.into_iter().map(|v| view! { <option value=v /> }).collect_view()}</datalist>
        <datalist id="currency-list">{data.currencies.into_iter().map(|v| view! { <option value=v /> }).collect_view()}</datalist>
        <ActionForm action=save attr:class="form quote-form" attr:data-testid="quote-form" attr:novalidate=true>
            <input type="hidden" name="quote_id" value=quote_id.map(|id| id.to_string()).unwrap_or_default() />
            {SECTIONS.iter().map(|(title, fields)| view! {
                <fieldset class="card">
                    <legend>{t(*title)}</legend>
                    <div class="form-row">
                        {fields.iter().map(|(column, input, required)| {
                            field(column, *input, *required, values.get(*column).cloned().unwrap_or_default(), editing, issues)
                        }).collect_view()}
                    </div>
                </fieldset>
            }).collect_view()}
            {move || (!issues.with(Vec::is_empty)).then(|| view! {
                <p class="form-error" role="alert">{t(Msg::QuotesFixFields)}</p>
            })}
            {move || last_error(save).filter(|e| !matches!(e, AppError::InvalidFields(_))).map(|e| {
                view! { <p class="form-error" role="alert">{e.localized(locale)}</p> }
            })}
            <button type="submit" disabled=move || save.pending().get()>{t(Msg::QuotesSave)}</button>
        </ActionForm>
    }
}

/// `/quotes/new` and `/quotes/:id/edit`.
#[component]
pub fn QuoteFormPage() -> impl IntoView {
    member_page(|_| {
        let params = use_params_map();
        let quote_id = move || params.read().get("id").and_then(|id| id.parse::<i64>().ok());
        let data = Resource::new(quote_id, load_quote_form);
        view! {
            <Title text=t(Msg::QuotesNew) />
            <p class="breadcrumb"><a href="/quotes">{t(Msg::QuotesBack)}</a></p>
            <Loaded resource=data let:d>
                {
                    let heading = match d.revision {
                        Some(n) => format!("{} · {}", t(Msg::QuotesEdit), use_locale().fmt(Msg::QuotesRevision, &[("n", &(n + 1).to_string())])),
                        None => t(Msg::QuotesNew).to_string(),
                    };
                    view! { <h1>{heading}</h1> {quote_form(d, quote_id())} }
                }
            </Loaded>
        }
        .into_any()
    })
}

#[cfg(test)]
mod quote_fields_tests {
    use super::SECTIONS;
    use crate::domain::quotes::QUOTE_FIELDS;

    #[test]
    fn the_form_shows_exactly_the_domains_quote_fields_in_its_order() {
        let shown: Vec<&str> = SECTIONS
            .iter()
            .flat_map(|(_, fields)| fields.iter())
            .map(|(column, _, _)| *column)
            .collect();
        assert_eq!(shown, QUOTE_FIELDS);
    }
}
