//! The order page's sentences in the reader's language: what a pre-fill code says, evidence
//! kinds, facts, quote fields and audit actions. Pure: codes in, text out.

use crate::{
    domain::{
        audit::Action,
        checklist::{self, AnswerCode, EvidenceKind, ItemStatus, Mismatch},
    },
    i18n::{Locale, Msg},
};
use serde::Serialize;

/// A checklist text (item, reason, section title) in the reader's language.
pub(super) fn localized(locale: Locale, t: &checklist::Text) -> String {
    if locale == Locale::ZhCn {
        t.zh.to_string()
    } else {
        t.en.to_string()
    }
}

/// Why `b` blocks submission, in the reader's language ("not answered", "confirmed without the
/// evidence it asks for (…)").
pub(super) fn blocker_reason(locale: Locale, b: &checklist::Blocker) -> String {
    use checklist::BlockerReason as R;
    match b.reason {
        R::Unanswered => locale.t(Msg::OrdersBUnanswered).to_string(),
        R::Open => locale.t(Msg::OrdersBOpen).to_string(),
        R::NotApplicableWithoutReason => locale.t(Msg::OrdersBNa).to_string(),
        R::Problem => locale.t(Msg::OrdersBProblem).to_string(),
        R::EvidenceMissing => {
            let kinds = checklist::item(b.item_id)
                .map(|i| evidence_kinds(locale, i.evidence))
                .unwrap_or_default();
            locale.fmt(Msg::OrdersBEvidence, &[("kinds", &kinds)])
        }
    }
}

/// The code of an evidence kind, as forms and pages name it.
pub(super) fn evidence_kind_code(k: EvidenceKind) -> &'static str {
    match k {
        EvidenceKind::Run => "run",
        EvidenceKind::QuoteField => "quote_field",
        EvidenceKind::Document => "document",
        EvidenceKind::CostComparison => "cost_comparison",
        EvidenceKind::Note => "note",
    }
}

/// "a run or a note", in the reader's language.
pub(super) fn evidence_kinds(locale: Locale, kinds: &[EvidenceKind]) -> String {
    let names: Vec<&str> = kinds
        .iter()
        .map(|k| {
            locale.t(match k {
                EvidenceKind::Run => Msg::OrdersEvKindRun,
                EvidenceKind::QuoteField => Msg::OrdersEvKindQuoteField,
                EvidenceKind::Document => Msg::OrdersEvKindDocument,
                EvidenceKind::CostComparison => Msg::OrdersEvKindCostComparison,
                EvidenceKind::Note => Msg::OrdersEvKindNote,
            })
        })
        .collect();
    names.join(locale.t(Msg::OrdersEvKindOr))
}

/// An enum value as its serialized code (`pcie`, `nv_link`, `mig`, …).
fn code_of(v: impl Serialize) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The interconnect item's code when an nccl-tests run measured the link.
fn measured_link(locale: Locale, code: &AnswerCode) -> String {
    use AnswerCode as C;
    match code {
        C::InterconnectMeasured {
            interconnect,
            run_id,
            bus_gbps,
            least_gbps,
        } => {
            let (value, run, bus) = (
                link_name(locale, *interconnect),
                run_id.to_string(),
                bus_gbps.normalize().to_string(),
            );
            match least_gbps {
                Some(least) => {
                    let least = least.normalize().to_string();
                    let args = [
                        ("value", value.as_str()),
                        ("run", &run),
                        ("bus", &bus),
                        ("least", &least),
                    ];
                    locale.fmt(Msg::OrdersCInterconnectMeasured, &args)
                }
                None => {
                    let args = [("value", value.as_str()), ("run", &run), ("bus", &bus)];
                    locale.fmt(Msg::OrdersCInterconnectMeasuredAlone, &args)
                }
            }
        }
        C::InterconnectBelowQuote {
            interconnect,
            run_id,
            bus_gbps,
            least_gbps,
        } => locale.fmt(
            Msg::OrdersCInterconnectBelowQuote,
            &[
                ("value", &link_name(locale, *interconnect)),
                ("run", &run_id.to_string()),
                ("bus", &bus_gbps.normalize().to_string()),
                ("least", &least_gbps.normalize().to_string()),
            ],
        ),
        _ => String::new(),
    }
}

/// A quoted link as datasheets name it: `NVLink`, `PCIe`; no link in the reader's words.
fn link_name(locale: Locale, link: crate::domain::checklist::Interconnect) -> String {
    use crate::domain::checklist::Interconnect as I;
    match link {
        I::NvLink => "NVLink".into(),
        I::Pcie => "PCIe".into(),
        I::NoLink => locale.t(Msg::OrdersNoLink).into(),
        I::Other => locale.t(Msg::OrdersOtherLink).into(),
    }
}

fn yes_no(locale: Locale, b: bool) -> &'static str {
    locale.t(if b { Msg::OrdersYes } else { Msg::OrdersNo })
}

/// The status code of an answer and its reason or note, as the answer form names them.
pub(super) fn status_code(s: &ItemStatus) -> (&'static str, String) {
    match s {
        ItemStatus::Open => ("open", String::new()),
        ItemStatus::Confirmed => ("confirmed", String::new()),
        ItemStatus::NotApplicable { reason } => ("not_applicable", reason.clone()),
        ItemStatus::Problem { note } => ("problem", note.clone()),
    }
}

/// The label of a quote field (its column name when the locale has none).
pub(super) fn quote_field_label(locale: Locale, column: &str) -> String {
    Msg::from_key(&format!("qf.{column}")).map_or_else(|| column.to_string(), |m| locale.t(m).to_string())
}

/// The name of a pre-fill fact (its code when the locale has none).
pub(super) fn fact_name(locale: Locale, fact: checklist::Fact) -> String {
    let key = code_of(fact);
    Msg::from_key(&format!("orders.fact_{key}")).map_or(key, |m| locale.t(m).to_string())
}

/// The name of an audit action in the order's history (the audit page's words, one table).
pub(super) fn action_name(locale: Locale, action: Action) -> &'static str {
    locale.t(crate::texts::audit::action_msg(action))
}

/// One difference between the quote and what a run observed.
fn mismatch(locale: Locale, m: &Mismatch) -> String {
    let pair = |msg, quoted: &str, observed: &str| locale.fmt(msg, &[("quoted", quoted), ("observed", observed)]);
    match m {
        Mismatch::GpuModel { quoted, observed } => pair(Msg::OrdersMmGpuModel, quoted, observed),
        Mismatch::GpuCount { quoted, observed } => {
            pair(Msg::OrdersMmGpuCount, &quoted.to_string(), &observed.to_string())
        }
        Mismatch::Vram {
            quoted_mib,
            observed_mib,
        } => pair(Msg::OrdersMmVram, &quoted_mib.to_string(), &observed_mib.to_string()),
        Mismatch::Mig { quoted, observed } => {
            pair(Msg::OrdersMmMig, yes_no(locale, *quoted), yes_no(locale, *observed))
        }
        Mismatch::Driver { quoted, observed } => pair(Msg::OrdersMmDriver, quoted, observed),
        Mismatch::Cuda { quoted, observed } => pair(Msg::OrdersMmCuda, quoted, observed),
    }
}

/// What a pre-fill code says, in the reader's language.
pub(super) fn describe(locale: Locale, code: &AnswerCode) -> String {
    use AnswerCode as C;
    let plain = |msg| locale.t(msg).to_string();
    let one = |msg, key, value: &str| locale.fmt(msg, &[(key, value)]);
    let pct = |msg, p: &i64| one(msg, "pct", &p.to_string());
    match code {
        C::GpuQuoted { model, vram_mib } => locale.fmt(
            Msg::OrdersCGpuQuoted,
            &[("model", model), ("vram", &vram_mib.to_string())],
        ),
        C::FormFactor { form_factor } => one(Msg::OrdersCFormFactor, "value", &code_of(form_factor)),
        C::FormFactorNotSeen {
            form_factor,
            observed,
            gpu,
        } => locale.fmt(
            Msg::OrdersCFormFactorNotSeen,
            &[("value", &code_of(form_factor)), ("observed", observed), ("gpu", gpu)],
        ),
        C::Exclusivity { exclusivity } => one(Msg::OrdersCExclusivity, "value", &code_of(exclusivity)),
        C::SlicedForTraining { exclusivity } => one(Msg::OrdersCSlicedForTraining, "value", &code_of(exclusivity)),
        C::HeadroomWithinRange { pct: p } => pct(Msg::OrdersCHeadroomWithinRange, p),
        C::HeadroomBelowRange {
            pct: p,
            wanted_pct,
            required_mib,
        } => locale.fmt(
            Msg::OrdersCHeadroomBelowRange,
            &[
                ("pct", &p.to_string()),
                ("wanted", &wanted_pct.normalize().to_string()),
                ("required", &required_mib.round_dp(0).normalize().to_string()),
            ],
        ),
        C::HeadroomAboveRange { pct: p } => pct(Msg::OrdersCHeadroomAboveRange, p),
        C::PeakNearLimit { pct: p } => pct(Msg::OrdersCPeakNearLimit, p),
        C::PeakNotNearLimit { pct: p } => pct(Msg::OrdersCPeakNotNearLimit, p),
        C::Interconnect { interconnect } => one(Msg::OrdersCInterconnect, "value", &link_name(locale, *interconnect)),
        C::InterconnectMeasured { .. } | C::InterconnectBelowQuote { .. } => measured_link(locale, code),
        C::SingleGpu => plain(Msg::OrdersCSingleGpu),
        C::NoGpuLink => plain(Msg::OrdersCNoGpuLink),
        C::ImagePinned { image } => one(Msg::OrdersCImagePinned, "image", image),
        C::ImageVague { image } => one(Msg::OrdersCImageVague, "image", image),
        C::RunPassed => plain(Msg::OrdersCRunPassed),
        C::RunFailed => plain(Msg::OrdersCRunFailed),
        C::RunInconclusive => plain(Msg::OrdersCRunInconclusive),
        C::BenchmarkPassed { minutes } => one(Msg::OrdersCBenchmarkPassed, "minutes", &minutes.to_string()),
        C::BenchmarkTooShort { minutes } => one(Msg::OrdersCBenchmarkTooShort, "minutes", &minutes.to_string()),
        C::NoThrottling => plain(Msg::OrdersCNoThrottling),
        C::ThrottlingObserved => plain(Msg::OrdersCThrottlingObserved),
        C::ObservedMatchesQuote {
            quoted_mib,
            observed_mib,
        } => locale.fmt(
            Msg::OrdersCObservedMatchesQuote,
            &[
                ("quoted", &quoted_mib.to_string()),
                ("observed", &observed_mib.to_string()),
            ],
        ),
        C::ObservedDiffers { mismatches } => {
            let parts: Vec<String> = mismatches.iter().map(|m| mismatch(locale, m)).collect();
            one(Msg::OrdersCObservedDiffers, "mismatches", &parts.join("; "))
        }
        C::InvalidFact { fact } => one(Msg::OrdersCInvalidFact, "fact", &fact_name(locale, *fact)),
        C::StoppedBilling { .. }
        | C::NoMinimumDuration
        | C::MinimumDurationHours { .. }
        | C::AllFeesStated
        | C::FeesNotStated { .. }
        | C::DiskRelease { .. }
        | C::Egress { .. }
        | C::EgressNotStated => describe_billing(locale, code),
        C::UsableVramStated { .. }
        | C::StorageOffered { .. }
        | C::AutoRenewal { .. }
        | C::EarlyRelease { .. }
        | C::Region { .. } => describe_stated(locale, code),
        // The codes of the desk rules: disks, fees, network, vendor, comparison, runs.
        _ => super::desk_texts::describe_desk(locale, code),
    }
}

/// What a pre-fill code about something the quote states says (for [`describe`]).
fn describe_stated(locale: Locale, code: &AnswerCode) -> String {
    use AnswerCode as C;
    let one = |msg, key, value: &str| locale.fmt(msg, &[(key, value)]);
    match code {
        C::UsableVramStated { mib } => one(Msg::ChecklistCUsableVramStated, "vram", &mib.to_string()),
        C::StorageOffered {
            snapshots,
            object_storage,
        } => {
            let said = |b: &Option<bool>| b.map_or_else(|| locale.t(Msg::ChecklistNotSaid), |b| yes_no(locale, b));
            locale.fmt(
                Msg::ChecklistCStorageOffered,
                &[("snapshots", said(snapshots)), ("object_storage", said(object_storage))],
            )
        }
        C::AutoRenewal { renews } => one(Msg::ChecklistCAutoRenewal, "value", yes_no(locale, *renews)),
        C::EarlyRelease { rule } => one(Msg::ChecklistCEarlyRelease, "rule", rule),
        C::Region { region } => one(Msg::ChecklistCRegion, "region", region),
        // [`describe`] sends only the codes above here.
        _ => String::new(),
    }
}

/// What a pre-fill code about billing, fees, disks and egress says (for [`describe`]).
fn describe_billing(locale: Locale, code: &AnswerCode) -> String {
    use AnswerCode as C;
    let plain = |msg| locale.t(msg).to_string();
    match code {
        C::StoppedBilling { compute, disk } => locale.fmt(
            Msg::OrdersCStoppedBilling,
            &[("compute", yes_no(locale, *compute)), ("disk", yes_no(locale, *disk))],
        ),
        C::NoMinimumDuration => plain(Msg::OrdersCNoMinimumDuration),
        C::MinimumDurationHours { hours } => {
            locale.fmt(Msg::OrdersCMinimumDurationHours, &[("hours", &hours.to_string())])
        }
        C::AllFeesStated => plain(Msg::OrdersCAllFeesStated),
        C::FeesNotStated { missing } => locale.fmt(
            Msg::OrdersCFeesNotStated,
            &[("missing", &missing.iter().map(code_of).collect::<Vec<_>>().join(", "))],
        ),
        C::DiskRelease {
            temp_wiped,
            data_survives,
        } => locale.fmt(
            Msg::OrdersCDiskRelease,
            &[
                ("temp", yes_no(locale, *temp_wiped)),
                ("data", yes_no(locale, *data_survives)),
            ],
        ),
        C::Egress { pricing } => locale.fmt(Msg::OrdersCEgress, &[("value", &code_of(pricing))]),
        C::EgressNotStated => plain(Msg::OrdersCEgressNotStated),
        // [`describe`] sends only the codes above here.
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{action_name, describe, evidence_kinds, fact_name, quote_field_label, status_code};
    use crate::{
        domain::{
            audit::Action,
            checklist::{
                AnswerCode as C, EgressPricing, EvidenceKind, Exclusivity, Fact, FeeKind, FormFactor, Interconnect,
                ItemStatus, Mismatch as M,
            },
        },
        i18n::Locale,
    };
    use rust_decimal_macros::dec;

    #[test]
    #[expect(
        clippy::too_many_lines,
        reason = "one sample of every prefill code, read top to bottom"
    )]
    fn every_prefill_code_reads_as_a_sentence_in_both_languages() {
        let mismatches = vec![
            M::GpuModel {
                quoted: "A10".into(),
                observed: "NVIDIA A100-SXM4-80GB".into(),
            },
            M::GpuCount { quoted: 8, observed: 4 },
            M::Vram {
                quoted_mib: 24_576,
                observed_mib: 20_000,
            },
            M::Mig {
                quoted: false,
                observed: true,
            },
            M::Driver {
                quoted: "535".into(),
                observed: "550.54.15".into(),
            },
            M::Cuda {
                quoted: "12.2".into(),
                observed: "12.4".into(),
            },
        ];
        let codes = [
            C::GpuQuoted {
                model: "L40S".into(),
                vram_mib: 46_068,
            },
            C::FormFactor {
                form_factor: FormFactor::Sxm,
            },
            C::Exclusivity {
                exclusivity: Exclusivity::Mig,
            },
            C::SlicedForTraining {
                exclusivity: Exclusivity::Vgpu,
            },
            C::HeadroomWithinRange { pct: 20 },
            C::HeadroomBelowRange {
                pct: 17,
                wanted_pct: dec!(20),
                required_mib: dec!(24576.0),
            },
            C::HeadroomAboveRange { pct: 40 },
            C::PeakNearLimit { pct: 9 },
            C::PeakNotNearLimit { pct: 20 },
            C::Interconnect {
                interconnect: Interconnect::NvLink,
            },
            C::InterconnectMeasured {
                interconnect: Interconnect::NvLink,
                run_id: 9,
                bus_gbps: dec!(480.9),
                least_gbps: Some(dec!(270)),
            },
            C::InterconnectMeasured {
                interconnect: Interconnect::NvLink,
                run_id: 9,
                bus_gbps: dec!(480.9),
                least_gbps: None,
            },
            C::InterconnectBelowQuote {
                interconnect: Interconnect::NvLink,
                run_id: 10,
                bus_gbps: dec!(21.2),
                least_gbps: dec!(270),
            },
            C::SingleGpu,
            C::NoGpuLink,
            C::ImagePinned {
                image: "nvcr.io/nvidia/pytorch:24.05-py3".into(),
            },
            C::ImageVague {
                image: "supports CUDA".into(),
            },
            C::RunPassed,
            C::RunFailed,
            C::RunInconclusive,
            C::BenchmarkPassed { minutes: 20 },
            C::BenchmarkTooShort { minutes: 5 },
            C::NoThrottling,
            C::ThrottlingObserved,
            C::ObservedMatchesQuote {
                quoted_mib: 24_576,
                observed_mib: 24_564,
            },
            C::ObservedDiffers { mismatches },
            C::StoppedBilling {
                compute: false,
                disk: true,
            },
            C::NoMinimumDuration,
            C::MinimumDurationHours { hours: 2 },
            C::AllFeesStated,
            C::FeesNotStated {
                missing: vec![FeeKind::Ip, FeeKind::Snapshot],
            },
            C::DiskRelease {
                temp_wiped: true,
                data_survives: false,
            },
            C::Egress {
                pricing: EgressPricing::Metered,
            },
            C::EgressNotStated,
            C::InvalidFact {
                fact: Fact::VramPeakMib,
            },
            C::UsableVramStated { mib: 80_896 },
            C::StorageOffered {
                snapshots: Some(true),
                object_storage: None,
            },
            C::AutoRenewal { renews: false },
            C::EarlyRelease {
                rule: "unused days refunded".into(),
            },
            C::Region {
                region: "cn-east-2".into(),
            },
            C::FormFactorNotSeen {
                form_factor: FormFactor::Sxm,
                observed: "PCIe".into(),
                gpu: "NVIDIA A100-PCIE-40GB".into(),
            },
        ];
        for code in &codes {
            for locale in [Locale::En, Locale::ZhCn] {
                let text = describe(locale, code);
                assert!(
                    !text.is_empty() && !text.contains('{') && !text.contains("orders."),
                    "{locale:?} {code:?}: {text}"
                );
            }
        }
        assert_eq!(
            describe(Locale::En, &codes[5]),
            "usable VRAM leaves 17 % over the peak; the workload asks for 20 % (24576 MiB)"
        );
        let differs = describe(Locale::En, &codes[25]);
        assert!(
            differs.contains("GPU model quoted A10, seen NVIDIA A100-SXM4-80GB")
                && differs.contains("4 GPUs seen, 8 quoted"),
            "{differs}"
        );
        assert_eq!(describe(Locale::ZhCn, &codes[26]), "关机后计算资源仍计费：否；磁盘：是");
        let measured = codes.iter().find(|c| matches!(c, C::InterconnectBelowQuote { .. }));
        assert_eq!(
            describe(Locale::En, measured.expect("sample")),
            "quoted interconnect NVLink, but nccl-tests run #10 measured only 21.2 GB/s bus bandwidth, below the 270 GB/s it should give"
        );
        let form = describe(Locale::En, codes.last().expect("codes"));
        assert!(
            form.contains("NVIDIA A100-PCIE-40GB") && form.contains("PCIe"),
            "{form}"
        );
    }

    #[test]
    fn evidence_kinds_facts_fields_and_actions_are_named_in_the_readers_language() {
        let kinds = [EvidenceKind::Run, EvidenceKind::Note];
        assert_eq!(evidence_kinds(Locale::En, &kinds), "a run or a note");
        assert_eq!(evidence_kinds(Locale::ZhCn, &kinds), "测试记录或文字备注");
        assert_eq!(evidence_kinds(Locale::En, &[]), "");
        assert!(!fact_name(Locale::En, Fact::VramPeakMib).contains("orders."));
        assert_eq!(quote_field_label(Locale::En, "no.such.field"), "no.such.field");
        assert_eq!(quote_field_label(Locale::En, "spec.cuda"), "CUDA");
        for action in Action::ALL {
            assert!(!action_name(Locale::En, action).is_empty(), "{action:?}");
        }
        assert_eq!(status_code(&ItemStatus::Open), ("open", String::new()));
        assert_eq!(
            status_code(&ItemStatus::NotApplicable {
                reason: "no GPU link".into()
            }),
            ("not_applicable", "no GPU link".to_string())
        );
        assert_eq!(
            status_code(&ItemStatus::Problem {
                note: "driver too old".into()
            }),
            ("problem", "driver too old".to_string())
        );
    }
}
