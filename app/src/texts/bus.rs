//! Sentences of an nccl-tests run's findings ([`crate::domain::runs::BusTest`]).

use crate::{
    domain::{
        gpus::links::{Link, LinkFigure, SOUND_SHARE_PCT},
        runs::Reason,
    },
    i18n::{Locale, Msg},
};

use crate::i18n::figure as num;

/// A message size as nccl-tests users write it: `8 GiB`, `128 MiB`, `512 KiB`, `8 B`.
#[must_use]
pub fn size_text(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit {
            return format!("{} {name}", num(bytes as f64 / unit as f64, 1));
        }
    }
    format!("{bytes} B")
}

/// The link as a reader names it: `NVLink`, `PCIe Gen4`, `network`.
fn link_text(locale: Locale, link: Link) -> String {
    match link {
        Link::Nvlink => "NVLink".into(),
        Link::Pcie { generation } => format!("PCIe Gen{generation}"),
        Link::Network => locale.t(Msg::RunBusNetwork).to_owned(),
    }
}

/// The sentence of a finding of an nccl-tests run, `None` for any other reason.
#[must_use]
pub fn reason_text(locale: Locale, reason: &Reason) -> Option<String> {
    let f = |m: Msg, args: &[(&str, &str)]| locale.fmt(m, args);
    Some(match reason {
        Reason::BusBandwidth {
            bus_gbps,
            largest_bytes,
            ranks,
            expected,
        } => {
            let measured = [
                ("bus", num(*bus_gbps, 1)),
                ("size", size_text(*largest_bytes)),
                ("ranks", ranks.to_string()),
            ];
            match expected {
                None => {
                    let args: Vec<(&str, &str)> = measured.iter().map(|(k, v)| (*k, v.as_str())).collect();
                    f(Msg::RunReasonBusBandwidth, &args)
                }
                Some(e) => compared(locale, &measured, *bus_gbps, e),
            }
        }
        Reason::BusTestWrong { wrong } => f(Msg::RunReasonBusTestWrong, &[("wrong", &num(*wrong as f64, 0))]),
        Reason::BusTestSmall {
            largest_bytes,
            least_bytes,
        } => f(
            Msg::RunReasonBusTestSmall,
            &[
                ("size", &size_text(*largest_bytes)),
                ("least", &size_text(*least_bytes)),
            ],
        ),
        Reason::BusTestUnchecked => locale.t(Msg::RunReasonBusTestUnchecked).to_owned(),
        _ => return None,
    })
}

/// The measured figure against what the quoted link should give.
fn compared(locale: Locale, measured: &[(&'static str, String)], bus_gbps: f64, e: &LinkFigure) -> String {
    let mut args = measured.to_vec();
    args.extend([
        ("link", link_text(locale, e.link)),
        ("least", num(e.least_gbps, 1)),
        ("one_way", num(e.one_way_gbps, 1)),
        ("share", SOUND_SHARE_PCT.to_string()),
    ]);
    let msg = if bus_gbps < e.least_gbps {
        Msg::RunReasonBusBelowLink
    } else {
        Msg::RunReasonBusAsLink
    };
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    locale.fmt(msg, &args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::gpus::links::expected;

    #[test]
    fn sizes_read_as_nccl_tests_users_write_them() {
        assert_eq!(size_text(8_589_934_592), "8 GiB");
        assert_eq!(size_text(134_217_728), "128 MiB");
        assert_eq!(size_text(1536), "1.5 KiB");
        assert_eq!(size_text(8), "8 B");
    }

    #[test]
    fn the_bus_bandwidth_says_what_the_quoted_link_should_give_in_both_languages() {
        let reason = |bus_gbps, link| Reason::BusBandwidth {
            bus_gbps,
            largest_bytes: 8_589_934_592,
            ranks: 8,
            expected: link,
        };
        let nvswitch = expected("H100 SXM5 80GB", true, 1, None);
        assert_eq!(
            reason_text(Locale::En, &reason(480.885, nvswitch)).unwrap(),
            "Bus bandwidth 480.9 GB/s at 8 GiB on 8 GPUs: the quoted NVLink should give at least 270 GB/s (60 % of its 450 GB/s one way), and does."
        );
        assert_eq!(
            reason_text(Locale::En, &reason(21.1, nvswitch)).unwrap(),
            "Bus bandwidth 21.1 GB/s at 8 GiB on 8 GPUs is below the 270 GB/s the quoted NVLink should give (60 % of its 450 GB/s one way): ask the vendor how the GPUs are linked, or test on the GPUs quoted."
        );
        assert!(
            reason_text(Locale::ZhCn, &reason(21.1, nvswitch))
                .unwrap()
                .contains("低于报价中 NVLink 应达到的 270 GB/s")
        );
        let none = reason_text(Locale::En, &reason(21.1, None)).unwrap();
        assert!(
            none.starts_with("Bus bandwidth 21.1 GB/s at 8 GiB on 8 GPUs."),
            "{none}"
        );
        assert_eq!(reason_text(Locale::En, &Reason::NoThroughput), None);
    }
}
