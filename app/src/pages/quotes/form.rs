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
use leptos_router::hooks::use_params_map;
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
    let saved = server::save(quote_id, fields).await?;
    crate::components::forms::open_after_plain_post(&format!("/quotes/{}", saved.quote_id));
    Ok(saved)
}

mod display;
#[cfg(feature = "ssr")]
pub(crate) mod server;

pub(crate) use display::display_value;
use display::length_text;

/// How a field is entered.
#[derive(Clone, Copy)]
pub(crate) enum Input {
    /// One line of text.
    Text,
    /// A decimal or whole number.
    Number,
    /// An on-demand price: a number, the word `free` for 0, or empty when the vendor offers none
    /// (a sheet of packages only).
    PriceOrFree,
    /// A number that may carry its unit or sign: `10 min` or `90 s` (hours when bare), `30%`.
    NumberWithUnit,
    /// A duration in hours, bare or with its unit (`72`, `72 h`, `3 d`, `3 天`): shown as hours.
    Hours,
    /// A length of billed time with its unit: `per second`, `10 min`, `15分钟`, `per day`, `100 h`.
    Length,
    /// Traffic tiers, one band `UP_TO: PRICE` per line (or separated by `;`), the last `*: PRICE`.
    Tiers,
    /// `YYYY-MM-DD`.
    Date,
    /// Yes / no / not stated.
    YesNo,
    /// One of these values (value, label); the first is what a blank value means.
    Choice(&'static [(&'static str, Msg)]),
    /// Several lines of text.
    Long,
    /// `exclusive`, `vgpu`, `mig:<profile>`, `fractional:<share>`.
    Sharing,
}

/// The option a value selects: its own, or for a blank value the first (what blank means).
fn chosen<'a>(options: &'a [(&'static str, Msg)], value: &str) -> Option<&'a (&'static str, Msg)> {
    options
        .iter()
        .find(|(v, _)| *v == value)
        .or_else(|| options.first().filter(|_| value.trim().is_empty()))
}

const BASIS: &[(&str, Msg)] = &[("per_node", Msg::QcPerNode), ("per_gpu", Msg::QcPerGpu)];
/// Empty: the monthly price is on the price basis.
const MONTHLY_BASIS: &[(&str, Msg)] = &[
    ("", Msg::QcAsPriceBasis),
    ("per_node", Msg::QcPerNode),
    ("per_gpu", Msg::QcPerGpu),
];
/// Billing increments offered as suggestions; any other length with its unit is read too.
pub(crate) const INCREMENTS: &[&str] = &["second", "10s", "minute", "10 min", "15 min", "hour", "day"];
/// Package periods offered as suggestions.
pub(crate) const PACKAGE_PERIODS: &[&str] = &["month", "week", "day"];
const REFUND: &[(&str, Msg)] = &[
    ("none", Msg::QcRefundNone),
    ("prorated_day", Msg::QcRefundProratedDay),
    ("prorated_hour", Msg::QcRefundProratedHour),
];
/// Blank: billed while stopped, as every sheet written before these fields read.
const BILLED_WHILE_STOPPED: &[(&str, Msg)] = &[("true", Msg::QcYes), ("false", Msg::QcNo)];
const TRAFFIC_PERIOD: &[(&str, Msg)] = &[("rental", Msg::QcTrafficRental), ("month", Msg::QcTrafficMonth)];
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
            // Not required: a sheet of packages only leaves it empty.
            ("price.on_demand_hourly", Input::PriceOrFree, false),
            ("price.billing_increment", Input::Length, true),
            ("price.minimum_billable_hours", Input::NumberWithUnit, false),
            ("price.monthly_price", Input::Number, false),
            ("price.monthly_basis", Input::Choice(MONTHLY_BASIS), false),
            ("price.commitment_months", Input::Number, false),
            ("price.package_period", Input::Length, false),
            ("price.early_release_refund", Input::Choice(REFUND), false),
            ("price.stopped_bills_compute", Input::YesNo, false),
            ("price.stopped_compute_share", Input::NumberWithUnit, false),
            ("price.stopped_hourly", Input::Number, false),
            ("price.stopped_bills_disk", Input::Choice(BILLED_WHILE_STOPPED), false),
            ("price.stopped_bills_ip", Input::Choice(BILLED_WHILE_STOPPED), false),
            ("price.disk_price_gb_month", Input::Number, false),
            ("price.snapshot_price_gb_month", Input::Number, false),
            ("price.egress_price_gb", Input::Number, false),
            ("price.free_egress_gb", Input::Number, false),
            ("price.egress_tiers", Input::Tiers, false),
            ("price.traffic_period", Input::Choice(TRAFFIC_PERIOD), false),
            ("price.ingress_price_gb", Input::Number, false),
            ("price.ingress_tiers", Input::Tiers, false),
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
            // Not a number field: "3 d" and "3 天" are read as 72 hours.
            ("lead_time_hours", Input::Hours, false),
        ],
    ),
];

/// The label of a column.
pub fn label(column: &str) -> &'static str {
    Msg::from_key(&format!("qf.{column}")).map_or("", t)
}

/// What to type into a column, when the form says it (`qh.<column>`).
fn hint(column: &str) -> Option<&'static str> {
    match column {
        "spec.sharing" => Some(t(Msg::QuotesSharingHint)),
        "price.other_fees" => Some(t(Msg::QuotesFeesHint)),
        _ => Msg::from_key(&format!("qh.{column}")).map(t),
    }
}

/// The suggestions a column's text input lists, by the id of their `<datalist>`.
fn suggestions(column: &str) -> Option<&'static str> {
    match column {
        "vendor" => Some("vendor-list"),
        "spec.gpu_model" => Some("gpu-list"),
        "currency" => Some("currency-list"),
        "price.billing_increment" => Some("increment-list"),
        "price.package_period" => Some("period-list"),
        _ => None,
    }
}

/// A `<datalist>` of lengths, each labelled in the page's language.
pub(crate) fn length_list(id: &'static str, lengths: &'static [&'static str]) -> impl IntoView {
    view! {
        <datalist id=id>
            {lengths.iter().map(|v| view! { <option value=*v label=length_text(v) /> }).collect_view()}
        </datalist>
    }
}

/// Normalises stored yes/no spellings for the select.
fn yes_no_value(v: &str) -> &'static str {
    match v.trim().to_lowercase().as_str() {
        "true" | "yes" | "1" | "是" => "yes",
        "false" | "no" | "0" | "否" => "no",
        _ => "",
    }
}

pub(crate) fn field(
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
    let list = suggestions(column);
    let control = match input {
        // Words as well as numbers (`free`, `10 min`, `30%`): no numeric keypad.
        Input::Text | Input::Sharing | Input::PriceOrFree | Input::NumberWithUnit | Input::Length | Input::Hours => view! {
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
        Input::Tiers => view! {
            <textarea id=id.clone() name=name rows="3" aria-invalid=move || error().is_some().to_string()>{value}</textarea>
        }
        .into_any(),
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
        Input::Choice(options) => {
            let current = chosen(options, &value).map(|(v, _)| *v);
            view! {
                <select id=id.clone() name=name>
                    {options.iter().map(|(v, l)| view! { <option value=*v selected=current == Some(*v)>{t(*l)}</option> }).collect_view()}
                </select>
            }
            .into_any()
        }
    };
    let hint = hint(column);
    view! {
        <label for=id class:required=required>
            {label(column)}
            {control}
            {hint.map(|h| view! { <small class="hint">{h}</small> })}
            {move || error().map(|e| view! { <small class="field-error" role="alert">{e}</small> })}
        </label>
    }
}

/// The quote form, checked by the server on save: every rejected field's message beside it, what
/// was typed kept (`data-in-place`: the page's script posts it in the background and shows the
/// server's answer; without a script it is a plain post). A save opens the quote.
#[component]
fn QuoteForm(data: QuoteFormData, quote_id: Option<i64>) -> impl IntoView {
    let locale = use_locale();
    let save = ServerAction::<SaveQuote>::new();
    let issues = field_issues(save);
    let editing = quote_id.is_some();
    let values = data.values;
    view! {
        <datalist id="vendor-list">{data.vendors.into_iter().map(|v| view! { <option value=v /> }).collect_view()}</datalist>
        <datalist id="gpu-list">{data.gpu_models.into_iter().map(|v| view! { <option value=v /> }).collect_view()}</datalist>
        <datalist id="currency-list">{data.currencies.into_iter().map(|v| view! { <option value=v /> }).collect_view()}</datalist>
        {length_list("increment-list", INCREMENTS)}
        {length_list("period-list", PACKAGE_PERIODS)}
        <ActionForm action=save attr:class="form quote-form" attr:data-testid="quote-form" attr:novalidate=true attr:data-in-place="">
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
                    view! { <h1>{heading}</h1> <QuoteForm data=d quote_id=quote_id() /> }
                }
            </Loaded>
        }
        .into_any()
    })
}

#[cfg(test)]
mod quote_fields_tests {
    use super::{BILLED_WHILE_STOPPED, Input, REFUND, SECTIONS, display_value};
    use crate::domain::quotes::QUOTE_FIELDS;
    use crate::i18n::{Locale, Msg};

    #[test]
    fn every_field_has_a_label_in_both_languages() {
        for column in QUOTE_FIELDS {
            let label = Msg::from_key(&format!("qf.{column}")).unwrap_or_else(|| panic!("{column} has no label"));
            for locale in Locale::ALL {
                assert!(!locale.t(label).trim().is_empty(), "{column} in {locale:?}");
            }
        }
    }

    /// Shown outside a page, so in English.
    #[test]
    fn prices_lengths_and_blank_choices_read_as_the_sheet_means_them() {
        assert_eq!(display_value(Input::PriceOrFree, ""), "not offered");
        assert_eq!(display_value(Input::PriceOrFree, "free"), "free");
        assert_eq!(display_value(Input::PriceOrFree, "1234.5"), "1,234.5");
        assert_eq!(display_value(Input::Length, "600s"), "10 min");
        assert_eq!(display_value(Input::Length, "10 min"), "10 min");
        assert_eq!(display_value(Input::Length, "per day"), "per day");
        assert_eq!(display_value(Input::Length, "360000s"), "100 h");
        assert_eq!(display_value(Input::Length, ""), "—");
        // Quantities without a stored scale's zeros; a lead time in hours, with its unit.
        assert_eq!(display_value(Input::Number, "200.0"), "200");
        assert_eq!(display_value(Input::Number, "2048.50"), "2,048.5");
        assert_eq!(display_value(Input::Hours, "24"), "24 h");
        assert_eq!(display_value(Input::Hours, "3 d"), "72 h");
        assert_eq!(display_value(Input::Hours, "soon"), "soon");
        // A blank choice is the first option, which is what the blank cell means.
        assert_eq!(display_value(Input::Choice(REFUND), ""), "nothing back");
        assert_eq!(display_value(Input::Choice(BILLED_WHILE_STOPPED), ""), "yes");
        assert_eq!(display_value(Input::Choice(BILLED_WHILE_STOPPED), "false"), "no");
    }

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
