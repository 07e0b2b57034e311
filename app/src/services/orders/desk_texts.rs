//! What the pre-fill codes about disks, fees, network, access, the vendor, the comparison and
//! the runs say, in the reader's language (the rest: [`super::texts`]).

use crate::{
    domain::{
        checklist::{AnswerCode, ListedFee},
        money::format_money,
        tco::Currency,
    },
    i18n::{Locale, Msg},
};
use rust_decimal::Decimal;

/// A size or figure without a stored scale's zeros ("2000", "0.5").
fn num(d: &Decimal) -> String {
    d.normalize().to_string()
}

/// An amount in the currency with this code, or the amount and the code when the code does not
/// read.
fn money(total: Decimal, currency: &str) -> String {
    Currency::parse(currency).map_or_else(|_| format!("{} {currency}", num(&total)), |c| format_money(total, c))
}

fn not_said(locale: Locale, d: Option<&Decimal>) -> String {
    d.map_or_else(|| locale.t(Msg::ChecklistNotSaid).to_string(), num)
}

fn fees(list: &[ListedFee]) -> String {
    list.iter()
        .map(|f| format!("{} {}", f.label, num(&f.amount)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The words of the codes of `checklist::prefill`'s desk rules; empty for any other code.
pub(super) fn describe_desk(locale: Locale, code: &AnswerCode) -> String {
    use AnswerCode as C;
    let fmt = |msg, args: &[(&str, &str)]| locale.fmt(msg, args);
    let yes_no = |b: bool| locale.t(if b { Msg::OrdersYes } else { Msg::OrdersNo });
    match code {
        C::DisksStated {
            system_gb,
            data_gb,
            data_type,
        } => fmt(
            Msg::ChecklistCDisksStated,
            &[
                ("system", &not_said(locale, system_gb.as_ref())),
                ("data", &not_said(locale, data_gb.as_ref())),
                ("type", data_type),
            ],
        ),
        C::DisksTooSmall { total_gb, need_gb } => fmt(
            Msg::ChecklistCDisksTooSmall,
            &[("total", &num(total_gb)), ("need", &num(need_gb))],
        ),
        C::FeesListed { fees: list } => fmt(Msg::ChecklistCFeesListed, &[("fees", &fees(list))]),
        C::PrivateNetwork { gbps } => fmt(Msg::ChecklistCPrivateNetwork, &[("gbps", &num(gbps))]),
        C::Bandwidth {
            public_mbps,
            internal_gbps,
        } => fmt(
            Msg::ChecklistCBandwidth,
            &[
                ("public", &not_said(locale, public_mbps.as_ref())),
                ("internal", &not_said(locale, internal_gbps.as_ref())),
            ],
        ),
        C::StackStated { driver, cuda } => fmt(Msg::ChecklistCStackStated, &[("driver", driver), ("cuda", cuda)]),
        C::Access { docker, root } => fmt(
            Msg::ChecklistCAccess,
            &[("docker", yes_no(*docker)), ("root", yes_no(*root))],
        ),
        C::StartupTime {
            step_s,
            lead_time_hours,
        } => {
            let step = crate::domain::tco::BillingIncrement::from_seconds(*step_s)
                .map_or_else(|| format!("{step_s} s"), crate::domain::tco::BillingIncrement::describe);
            fmt(
                Msg::ChecklistCStartupTime,
                &[("step", &step), ("lead", &not_said(locale, lead_time_hours.as_ref()))],
            )
        }
        C::SupportContact { contact } => fmt(Msg::ChecklistCSupportContact, &[("contact", contact)]),
        C::FaultHelp { offered } => locale
            .t(if *offered {
                Msg::ChecklistCFaultHelpOffered
            } else {
                Msg::ChecklistCFaultHelpNotOffered
            })
            .to_string(),
        other => describe_use(locale, other),
    }
}

/// The codes about release, the comparison and the runs.
fn describe_use(locale: Locale, code: &AnswerCode) -> String {
    use AnswerCode as C;
    let fmt = |msg, args: &[(&str, &str)]| locale.fmt(msg, args);
    let yes_no = |b: bool| locale.t(if b { Msg::OrdersYes } else { Msg::OrdersNo });
    match code {
        C::TempDiskWiped { wiped } => fmt(Msg::ChecklistCTempDiskWiped, &[("value", yes_no(*wiped))]),
        C::DataDiskDetachable { survives } => fmt(Msg::ChecklistCDataDiskDetachable, &[("value", yes_no(*survives))]),
        C::Compared {
            rank,
            of,
            total,
            currency,
        } => fmt(
            Msg::ChecklistCCompared,
            &[
                ("rank", &rank.to_string()),
                ("of", &of.to_string()),
                ("total", &money(*total, currency)),
            ],
        ),
        C::ComparedOverBudget {
            rank,
            of,
            total,
            currency,
        } => fmt(
            Msg::ChecklistCComparedOverBudget,
            &[
                ("rank", &rank.to_string()),
                ("of", &of.to_string()),
                ("total", &money(*total, currency)),
            ],
        ),
        C::TotalCost { total, currency } => fmt(Msg::ChecklistCTotalCost, &[("total", &money(*total, currency))]),
        C::MetricsRecorded => locale.t(Msg::ChecklistCMetricsRecorded).to_string(),
        C::TimeToFinish { time } => fmt(Msg::ChecklistCTimeToFinish, &[("time", time)]),
        C::SpecsMeasured { quotes } => fmt(Msg::ChecklistCSpecsMeasured, &[("n", &quotes.to_string())]),
        C::OneSpecMeasured { quotes } => fmt(Msg::ChecklistCOneSpecMeasured, &[("n", &quotes.to_string())]),
        C::TempDirectory { data_gb, data_type } => fmt(
            Msg::ChecklistCTempDirectory,
            &[("data", &not_said(locale, data_gb.as_ref())), ("type", data_type)],
        ),
        C::CheckpointStorage {
            checkpoint_gb,
            data_disk_survives,
            snapshots,
        } => fmt(
            Msg::ChecklistCCheckpointStorage,
            &[
                ("gb", &num(checkpoint_gb)),
                ("survives", yes_no(*data_disk_survives)),
                (
                    "snapshots",
                    snapshots.map_or_else(|| locale.t(Msg::ChecklistNotSaid), yes_no),
                ),
            ],
        ),
        C::KnownStateImage { image, snapshots } => fmt(
            Msg::ChecklistCKnownStateImage,
            &[
                (
                    "image",
                    image.as_deref().unwrap_or(locale.t(Msg::ChecklistNoPinnedImage)),
                ),
                (
                    "snapshots",
                    snapshots.map_or_else(|| locale.t(Msg::ChecklistNotSaid), yes_no),
                ),
            ],
        ),
        C::GpuBusy { pct } => fmt(Msg::ChecklistCGpuBusy, &[("pct", &pct.to_string())]),
        C::GpuUnderused { pct } => fmt(Msg::ChecklistCGpuUnderused, &[("pct", &pct.to_string())]),
        C::TransferTime { data_gb, mbps, hours } => fmt(
            Msg::ChecklistCTransferTime,
            &[("gb", &num(data_gb)), ("mbps", &num(mbps)), ("hours", &num(hours))],
        ),
        // [`describe_desk`] and [`super::texts::describe`] send only the codes above here.
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::describe_desk;
    use crate::{
        domain::checklist::{AnswerCode as C, ListedFee},
        i18n::Locale,
    };
    use rust_decimal_macros::dec;

    #[expect(clippy::too_many_lines, reason = "one sample of every code, read top to bottom")]
    fn samples() -> Vec<C> {
        let compared = |over| {
            let (rank, of, total, currency) = (2, 3, dec!(1037.50), "CNY".to_string());
            if over {
                C::ComparedOverBudget {
                    rank,
                    of,
                    total,
                    currency,
                }
            } else {
                C::Compared {
                    rank,
                    of,
                    total,
                    currency,
                }
            }
        };
        vec![
            C::DisksStated {
                system_gb: Some(dec!(100)),
                data_gb: Some(dec!(2000.0)),
                data_type: "nvme".into(),
            },
            C::DisksTooSmall {
                total_gb: dec!(2100),
                need_gb: dec!(2500),
            },
            C::FeesListed {
                fees: vec![ListedFee {
                    label: "image storage".into(),
                    amount: dec!(0),
                }],
            },
            C::PrivateNetwork { gbps: dec!(25) },
            C::Bandwidth {
                public_mbps: Some(dec!(200)),
                internal_gbps: None,
            },
            C::StackStated {
                driver: "550".into(),
                cuda: "12.4".into(),
            },
            C::Access {
                docker: true,
                root: false,
            },
            C::StartupTime {
                step_s: 600,
                lead_time_hours: Some(dec!(24)),
            },
            C::SupportContact {
                contact: "ops@vendor.example".into(),
            },
            C::FaultHelp { offered: true },
            C::FaultHelp { offered: false },
            C::TempDiskWiped { wiped: true },
            C::DataDiskDetachable { survives: true },
            compared(false),
            compared(true),
            C::TotalCost {
                total: dec!(1037.50),
                currency: "CNY".into(),
            },
            C::MetricsRecorded,
            C::TimeToFinish { time: "20.8 h".into() },
            C::SpecsMeasured { quotes: 2 },
            C::OneSpecMeasured { quotes: 1 },
            C::TempDirectory {
                data_gb: Some(dec!(2000)),
                data_type: "nvme".into(),
            },
            C::CheckpointStorage {
                checkpoint_gb: dec!(200),
                data_disk_survives: true,
                snapshots: None,
            },
            C::TransferTime {
                data_gb: dec!(500),
                mbps: dec!(200),
                hours: dec!(5.6),
            },
            C::GpuBusy { pct: 93 },
            C::GpuUnderused { pct: 41 },
            C::KnownStateImage {
                image: Some("nvcr.io/nvidia/pytorch:24.05-py3".into()),
                snapshots: None,
            },
            C::KnownStateImage {
                image: None,
                snapshots: Some(false),
            },
        ]
    }

    #[test]
    fn every_desk_code_reads_as_a_sentence_in_both_languages() {
        for code in samples() {
            for locale in [Locale::En, Locale::ZhCn] {
                let text = describe_desk(locale, &code);
                assert!(
                    !text.is_empty() && !text.contains('{') && !text.contains("checklist."),
                    "{locale:?} {code:?}: {text}"
                );
            }
        }
        let s = samples();
        assert_eq!(
            describe_desk(Locale::En, &s[0]),
            "system disk 100 GB, data disk 2000 GB nvme: they hold the workload's data and checkpoints"
        );
        assert_eq!(
            describe_desk(Locale::En, &s[7]),
            "billed in steps of 10 min; the node is ready 24 h after ordering"
        );
        assert!(
            describe_desk(Locale::En, &s[13]).contains("ranked 2 of 3")
                && describe_desk(Locale::En, &s[13]).contains("¥1,037.50")
        );
        assert_eq!(
            describe_desk(Locale::ZhCn, &s[22]),
            "以 200 Mbit/s 传输 500 GB 约需 5.6 小时：请实测一次传输"
        );
    }
}
