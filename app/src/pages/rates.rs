//! The team's base currency and exchange rates: every member reads, procurement changes them.
//! Each rate is kept with its date, so a converted total can say which rate it used.

use crate::{
    components::{
        form_fields::{FieldMessage, SaveFooter, field_issues, is_invalid},
        forms::ActionError,
        guard::member_page,
        loaded::{Loaded, list_or_empty},
    },
    domain::{
        numbers,
        quotes::Date,
        roles::Capability,
        tco::{Currency, ExchangeRate},
    },
    error::{AppError, FieldIssue},
    i18n::{Locale, Msg, t, use_locale},
    views::Stored,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// The active team's rates, by pair, the newest of each pair first.
#[server(endpoint = "rates")]
pub async fn list_rates() -> Result<Vec<Stored<ExchangeRate>>, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    Ok(store::exchange_rates::list(&auth::db()?, membership.team_id).await?)
}

/// The active team's base currency.
#[server(endpoint = "rates/base")]
pub async fn base_currency() -> Result<Currency, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    store::teams::base_currency(&auth::db()?, membership.team_id)
        .await?
        .ok_or(AppError::NotFound)
}

/// Sets the active team's base currency (procurement only).
#[server(endpoint = "rates/set_base")]
pub async fn set_base_currency(currency: String) -> Result<(), AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::EditProcurement)?;
    let currency = Currency::parse(currency.trim())
        .map_err(|reason| AppError::fields([FieldIssue::new("currency", reason.code())]))?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    if !store::teams::set_base_currency(&mut tx, membership.team_id, currency).await? {
        return Err(AppError::NotFound);
    }
    tx.commit().await?;
    crate::components::forms::saved_after_plain_post();
    Ok(())
}

/// Days after which the active team's rates are flagged as stale.
#[server(endpoint = "rates/stale_days")]
pub async fn stale_rate_days() -> Result<i64, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    store::teams::stale_rate_days(&auth::db()?, membership.team_id)
        .await?
        .ok_or(AppError::NotFound)
}

/// Sets the days after which the active team's rates are flagged as stale (procurement only).
#[server(endpoint = "rates/set_stale_days")]
pub async fn set_stale_rate_days(days: String) -> Result<(), AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::EditProcurement)?;
    let days = read_stale_days(&days).map_err(|issue| AppError::fields([issue]))?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    if !store::teams::set_stale_rate_days(&mut tx, membership.team_id, days).await? {
        return Err(AppError::NotFound);
    }
    tx.commit().await?;
    crate::components::forms::saved_after_plain_post();
    Ok(())
}

/// The days a rate may age before it is flagged: a whole number from 1 to 3650 (ten years).
pub fn read_stale_days(text: &str) -> Result<i64, FieldIssue> {
    const RANGE: std::ops::RangeInclusive<i64> = 1..=3650;
    let days: i64 = text
        .trim()
        .parse()
        .map_err(|_| FieldIssue::new("days", "not_a_whole_number"))?;
    if RANGE.contains(&days) {
        Ok(days)
    } else {
        Err(FieldIssue {
            limit: Some(format!("[{}, {}]", RANGE.start(), RANGE.end())),
            ..FieldIssue::new("days", "out_of_range")
        })
    }
}

/// Adds an exchange rate to the active team (procurement only); returns its id.
#[server(endpoint = "rates/add")]
pub async fn add_rate(from: String, to: String, rate: String, date: String) -> Result<i64, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::EditProcurement)?;
    let rate = read_rate(&from, &to, &rate, &date).map_err(AppError::InvalidFields)?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    let id = store::exchange_rates::insert(&mut tx, membership.team_id, &rate)
        .await?
        .ok_or(AppError::Conflict(Msg::RatesExists))?;
    tx.commit().await?;
    Ok(id)
}

/// A rate the conversions can always multiply and divide by: zero and below are left to
/// [`ExchangeRate::validate`]; above zero it must lie within [`crate::domain::quotes::RATE_RANGE`].
fn bounded_rate(rate: rust_decimal::Decimal) -> Result<rust_decimal::Decimal, FieldIssue> {
    let (min, max) = crate::domain::quotes::RATE_RANGE;
    if rate <= rust_decimal::Decimal::ZERO || (min..=max).contains(&rate) {
        return Ok(rate);
    }
    Err(FieldIssue {
        limit: Some(format!("[{min}, {max}]")),
        ..FieldIssue::new("rate", "out_of_range")
    })
}

/// Reads the rate form: every field that cannot be read, or else the first rule the rate
/// breaks ([`ExchangeRate::validate`]: two different currencies, a rate above zero).
pub fn read_rate(from: &str, to: &str, rate: &str, date: &str) -> Result<ExchangeRate, Vec<FieldIssue>> {
    let mut issues = Vec::new();
    let mut currency = |field: &str, code: &str| {
        Currency::parse(code.trim())
            .map_err(|reason| issues.push(FieldIssue::new(field, reason.code())))
            .ok()
    };
    let (from, to) = (currency("from", from), currency("to", to));
    let rate = match rate.trim() {
        "" => Err(FieldIssue::new("rate", "required")),
        text => numbers::parse_decimal(text)
            .map_err(|e| FieldIssue::from_number("rate", e))
            .and_then(bounded_rate),
    };
    let date = Date::parse(date).map_err(|code| FieldIssue::new("date", code.code()));
    let (rate, date) = (
        rate.map_err(|i| issues.push(i)).ok(),
        date.map_err(|i| issues.push(i)).ok(),
    );
    let (Some(from), Some(to), Some(rate), Some(date)) = (from, to, rate, date) else {
        return Err(issues);
    };
    let rate = ExchangeRate {
        from,
        to,
        rate: rate.normalize(),
        date: date.to_string(),
    };
    rate.validate().map_err(|e| {
        vec![FieldIssue::new(
            e.field.strip_prefix("exchange_rate.").unwrap_or(e.field),
            e.reason.code(),
        )]
    })?;
    Ok(rate)
}

/// “1 USD = 7.10 CNY on 2026-11-20”: the rate exact, padded to two decimals only.
pub fn rate_line(locale: Locale, r: &ExchangeRate) -> String {
    locale.fmt(
        Msg::RatesLine,
        &[
            ("from", r.from.code()),
            ("rate", &crate::domain::money::rate_text(r.rate)),
            ("to", r.to.code()),
            ("date", &r.date),
        ],
    )
}

/// Splits rates listed by pair, newest first, into the newest of each pair and the earlier ones.
pub fn split_latest(rates: Vec<Stored<ExchangeRate>>) -> (Vec<Stored<ExchangeRate>>, Vec<Stored<ExchangeRate>>) {
    let mut latest: Vec<Stored<ExchangeRate>> = Vec::new();
    let mut earlier = Vec::new();
    for r in rates {
        let pair = (r.record.from, r.record.to);
        if latest.iter().any(|l| (l.record.from, l.record.to) == pair) {
            earlier.push(r);
        } else {
            latest.push(r);
        }
    }
    (latest, earlier)
}

fn currency_options(selected: Currency) -> impl IntoView {
    Currency::ALL
        .into_iter()
        .map(|c| {
            view! { <option value=c.code() selected=c == selected>{format!("{} ({})", c.code(), c.symbol())}</option> }
        })
        .collect_view()
}

fn rate_list(rates: Vec<Stored<ExchangeRate>>, testid: &'static str) -> impl IntoView {
    let locale = use_locale();
    view! {
        <ul class="rate-list" data-testid=testid>
            {rates.into_iter().map(|r| view! { <li>{rate_line(locale, &r.record)}</li> }).collect_view()}
        </ul>
    }
}

fn base_currency_card(current: Currency, can_edit: bool, set_base: ServerAction<SetBaseCurrency>) -> impl IntoView {
    let issues = field_issues(set_base);
    view! {
        <section class="card">
            <h2>{t(Msg::RatesBaseTitle)}</h2>
            <p class="hint">{t(Msg::RatesBaseHint)}</p>
            {if can_edit {
                view! {
                    <ActionForm action=set_base attr:class="form form-inline" attr:data-testid="base-currency-form" attr:data-in-place="">
                        <label>
                            {t(Msg::RatesBaseCurrency)}
                            <select name="currency" aria-invalid=is_invalid(issues, "currency")>{currency_options(current)}</select>
                            <FieldMessage issues field="currency" />
                        </label>
                        <SaveFooter action=set_base />
                    </ActionForm>
                }
                .into_any()
            } else {
                view! { <p data-testid="base-currency">{t(Msg::RatesBaseCurrency)} ": " {current.code()}</p> }.into_any()
            }}
        </section>
    }
}

fn stale_days_card(days: i64, can_edit: bool, set_days: ServerAction<SetStaleRateDays>) -> impl IntoView {
    let issues = field_issues(set_days);
    view! {
        <section class="card">
            <h2>{t(Msg::RatesStaleTitle)}</h2>
            <p class="hint">{t(Msg::RatesStaleHint)}</p>
            {if can_edit {
                view! {
                    <ActionForm action=set_days attr:class="form form-inline" attr:data-testid="stale-days-form" attr:data-in-place="">
                        <label>
                            {t(Msg::RatesStaleDays)}
                            <input type="number" name="days" min="1" max="3650" step="1" required
                                value=days.to_string() aria-invalid=is_invalid(issues, "days") />
                            <FieldMessage issues field="days" />
                        </label>
                        <SaveFooter action=set_days />
                    </ActionForm>
                }
                .into_any()
            } else {
                let line = use_locale().fmt(Msg::RatesStaleRead, &[("days", &days.to_string())]);
                view! { <p data-testid="stale-days">{line}</p> }.into_any()
            }}
        </section>
    }
}

/// Today's date (UTC) as a date field takes it.
fn rate_date_default() -> String {
    #[cfg(feature = "ssr")]
    {
        crate::clock::today().to_string()
    }
    #[cfg(not(feature = "ssr"))]
    {
        String::new()
    }
}

fn add_rate_card(base: Currency, add: ServerAction<AddRate>, today: String) -> impl IntoView {
    let issues = field_issues(add);
    // The rate's date is today's by default (the server's, UTC, `today`): a rate is usually
    // entered the day it is read.
    let from = if base == Currency::USD {
        Currency::CNY
    } else {
        Currency::USD
    };
    view! {
        <section class="card">
            <h2>{t(Msg::RatesAddTitle)}</h2>
            <ActionForm action=add attr:class="form" attr:data-testid="rate-form" attr:data-in-place="">
                <div class="form-row">
                    <label>
                        {t(Msg::RatesFrom)}
                        <select name="from" aria-invalid=is_invalid(issues, "from")>{currency_options(from)}</select>
                        <FieldMessage issues field="from" />
                    </label>
                    <label>
                        {t(Msg::RatesTo)}
                        <select name="to" aria-invalid=is_invalid(issues, "to")>{currency_options(base)}</select>
                        <FieldMessage issues field="to" />
                    </label>
                    <label>
                        {t(Msg::RatesRate)}
                        <input type="text" name="rate" required inputmode="decimal" placeholder="7.21"
                            aria-invalid=is_invalid(issues, "rate") aria-describedby="rate-error" />
                        <FieldMessage issues field="rate" />
                    </label>
                    <label>
                        {t(Msg::RatesDate)}
                        <input type="date" name="date" required value=today data-testid="rate-date"
                            aria-invalid=is_invalid(issues, "date") aria-describedby="date-error" />
                        <FieldMessage issues field="date" />
                    </label>
                </div>
                <small class="hint">{t(Msg::RatesAddHint)}</small>
                <ActionError action=add />
                <button type="submit" disabled=move || add.pending().get()>{t(Msg::RatesAddSubmit)}</button>
            </ActionForm>
        </section>
    }
}

/// The newest rate of each pair, then the earlier ones (if any) under their own heading.
/// The latest rate of each pair, and the earlier ones.
fn rates_card(rates: Vec<Stored<ExchangeRate>>) -> impl IntoView {
    view! {
        <section class="card">
            <h2>{t(Msg::RatesLatestTitle)}</h2>
            {list_or_empty(rates, Msg::RatesNone, latest_and_earlier)}
        </section>
    }
}

fn latest_and_earlier(rates: Vec<Stored<ExchangeRate>>) -> impl IntoView {
    let (latest, earlier) = split_latest(rates);
    view! {
        {rate_list(latest, "latest-rates")}
        {(!earlier.is_empty()).then(|| view! {
            <h3>{t(Msg::RatesEarlierTitle)}</h3>
            {rate_list(earlier, "earlier-rates")}
        })}
    }
}

/// The exchange rates page.
#[component]
pub fn RatesPage() -> impl IntoView {
    member_page(|caller| {
        let can_edit = caller.may(Capability::EditProcurement);
        let set_base = ServerAction::<SetBaseCurrency>::new();
        let set_days = ServerAction::<SetStaleRateDays>::new();
        let add = ServerAction::<AddRate>::new();
        let base = Resource::new(|| (), |()| base_currency());
        let stale_days = Resource::new(|| (), |()| stale_rate_days());
        let rates = Resource::new(|| (), |()| list_rates());
        view! {
            <Title text=t(Msg::NavRates) />
            <h1>{t(Msg::NavRates)}</h1>
            <p class="lead">{t(Msg::RatesLead)}</p>
            <Loaded resource=base let:base>
                {base_currency_card(base, can_edit, set_base)}
            </Loaded>
            <Loaded resource=stale_days let:days>
                {stale_days_card(days, can_edit, set_days)}
            </Loaded>
            <Loaded resource=base let:base>
                <Loaded resource=rates let:rates>
                    {can_edit.then(|| add_rate_card(base, add, rate_date_default()))}
                    {rates_card(rates)}
                </Loaded>
            </Loaded>
        }
        .into_any()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    fn codes(r: Result<ExchangeRate, Vec<FieldIssue>>) -> Vec<(String, String)> {
        r.unwrap_err().into_iter().map(|i| (i.field, i.code)).collect()
    }

    #[test]
    fn reads_a_rate_and_writes_it_with_its_date() {
        let r = read_rate("USD", "CNY", " 7.21 ", "2026-11-20").unwrap();
        assert_eq!(rate_line(Locale::En, &r), "1 USD = 7.21 CNY on 2026-11-20");
        assert_eq!(crate::domain::money::rate_text(Decimal::new(74, 5)), "0.00074");
    }

    #[test]
    fn a_rate_beyond_any_currency_pair_is_refused_with_its_bounds() {
        for rate in [
            "79228162514264337593543950335",
            "1000000.01",
            "0.0000000000000000000000000001",
            "0.0000009",
        ] {
            let issues = read_rate("USD", "CNY", rate, "2026-11-20").unwrap_err();
            assert_eq!(issues.len(), 1, "{rate}");
            assert_eq!(
                (issues[0].field.as_str(), issues[0].code.as_str()),
                ("rate", "out_of_range")
            );
            assert_eq!(issues[0].text(Locale::En), "Out of range: allowed [0.000001, 1000000].");
        }
        assert!(read_rate("USD", "JPY", "1000000", "2026-11-20").is_ok());
        assert!(read_rate("JPY", "USD", "0.000001", "2026-11-20").is_ok());
    }

    #[test]
    fn refuses_unreadable_fields_then_broken_rules() {
        let pairs = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            codes(read_rate("usd", "XYZ", "seven", "2026-02-30")),
            pairs(&[
                ("from", "invalid_currency_code"),
                ("to", "unknown_currency"),
                ("rate", "invalid_number"),
                ("date", "invalid_date")
            ])
        );
        assert_eq!(
            codes(read_rate("CNY", "CNY", "1", "2026-11-20")),
            pairs(&[("to", "same_currency")])
        );
        assert_eq!(
            codes(read_rate("USD", "CNY", "0", "2026-11-20")),
            pairs(&[("rate", "not_positive")])
        );
        assert_eq!(
            codes(read_rate("USD", "CNY", "", "2026-11-20")),
            pairs(&[("rate", "required")])
        );
    }

    #[test]
    fn the_newest_rate_of_each_pair_comes_first() {
        let r = |id, from, to, date: &str| Stored {
            id,
            record: ExchangeRate {
                from,
                to,
                rate: Decimal::ONE,
                date: date.into(),
            },
        };
        let (latest, earlier) = split_latest(vec![
            r(3, Currency::EUR, Currency::CNY, "2026-11-21"),
            r(1, Currency::USD, Currency::CNY, "2026-11-20"),
            r(2, Currency::USD, Currency::CNY, "2026-11-01"),
        ]);
        assert_eq!(latest.iter().map(|s| s.id).collect::<Vec<_>>(), [3, 1]);
        assert_eq!(earlier.iter().map(|s| s.id).collect::<Vec<_>>(), [2]);
    }
}
