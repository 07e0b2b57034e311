//! What a request asks for, in the reader's language.

pub use crate::texts::utc_minute;
use crate::{
    domain::{money::group, rfq::needs::Needs},
    i18n::{Locale, Msg},
};

/// The needs as (label, value) rows; what is not stated is left out.
#[must_use]
pub fn needs_rows(locale: Locale, needs: &Needs) -> Vec<(String, String)> {
    let n = |d: rust_decimal::Decimal| group(d.normalize(), d.normalize().scale());
    let mut rows = vec![
        (
            locale.t(Msg::RfqNeedGpus).to_string(),
            locale.fmt(
                Msg::RfqNeedGpusValue,
                &[
                    ("gpus", &needs.gpus.to_string()),
                    ("vram", &n(needs.vram_gib)),
                    ("headroom", &n(needs.headroom_pct)),
                ],
            ),
        ),
        (
            locale.t(Msg::RfqNeedSharing).to_string(),
            locale
                .t(if needs.exclusive {
                    Msg::RfqNeedExclusive
                } else {
                    Msg::RfqNeedSharedOk
                })
                .to_string(),
        ),
    ];
    if needs.interconnect {
        rows.push((
            locale.t(Msg::RfqNeedInterconnect).to_string(),
            locale.t(Msg::RfqNeedInterconnectValue).to_string(),
        ));
    }
    rows.push((
        locale.t(Msg::RfqNeedDisks).to_string(),
        locale.fmt(
            Msg::RfqNeedDisksValue,
            &[
                ("disk", &n(needs.disk_gb())),
                ("data", &n(needs.data_gb)),
                ("checkpoints", &n(needs.checkpoint_gb)),
            ],
        ),
    ));
    if !needs.region.is_empty() {
        rows.push((locale.t(Msg::RfqNeedRegion).to_string(), needs.region.clone()));
    }
    let start = needs
        .start
        .map_or_else(|| locale.t(Msg::RfqNeedStartAsap).to_string(), utc_minute);
    rows.push((locale.t(Msg::RfqNeedStart).to_string(), start));
    if let Some(hours) = needs.hours {
        rows.push((
            locale.t(Msg::RfqNeedHours).to_string(),
            locale.fmt(Msg::QcHoursValue, &[("n", &n(hours))]),
        ));
    }
    if let Some(at) = needs.done_by {
        rows.push((locale.t(Msg::RfqNeedDoneBy).to_string(), utc_minute(at)));
    }
    if let Some((amount, currency)) = &needs.budget {
        rows.push((locale.t(Msg::RfqNeedBudget).to_string(), format!("{amount} {currency}")));
    }
    rows
}
