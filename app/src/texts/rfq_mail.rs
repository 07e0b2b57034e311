//! The mail to an invited vendor (see `store::rfq_mail`): the invitation with its link, the
//! reminder before the close (without the link), the receipt of a submitted revision. The app
//! does not know a vendor's language, so every mail is in both, English first, then 简体中文.

use super::utc_minute;
use crate::{
    domain::rfq::mail::MailFacts,
    i18n::{Locale, Msg},
};

/// One mail to one vendor: what it says beyond the request, and the request it is about.
#[derive(Clone, Copy, Debug)]
pub struct VendorMail<'a> {
    pub facts: &'a MailFacts,
    /// The vendor's name in the buyer's vendor list.
    pub vendor: &'a str,
    pub title: &'a str,
    /// When bids close, Unix seconds.
    pub close_at: i64,
}

/// `text` on one line: a title typed with a line break (or another control character) must not
/// start a new header line in the subject.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// The subject, in both languages.
#[must_use]
pub fn subject(mail: &VendorMail<'_>) -> String {
    let title = one_line(mail.title);
    let close = utc_minute(mail.close_at);
    let one = |l: Locale| match mail.facts {
        MailFacts::Invitation { .. } => l.fmt(Msg::RfqMailInvitationSubject, &[("title", &title)]),
        MailFacts::Reminder => l.fmt(Msg::RfqMailReminderSubject, &[("title", &title), ("close", &close)]),
        MailFacts::Receipt { revision, .. } => l.fmt(
            Msg::RfqMailReceiptSubject,
            &[("title", &title), ("revision", &revision.to_string())],
        ),
    };
    format!("{} / {}", one(Locale::En), one(Locale::ZhCn))
}

/// The body, in both languages; links start with `public_url` (no trailing slash). Only the
/// invitation carries the vendor's link.
#[must_use]
pub fn body(mail: &VendorMail<'_>, public_url: &str) -> String {
    format!(
        "{}\n---\n\n{}",
        in_language(Locale::En, mail, public_url),
        in_language(Locale::ZhCn, mail, public_url)
    )
}

/// The body in one language: the greeting, what the mail says, the footer.
fn in_language(l: Locale, mail: &VendorMail<'_>, public_url: &str) -> String {
    let close = utc_minute(mail.close_at);
    let title = mail.title;
    let mut lines = vec![l.fmt(Msg::RfqMailGreeting, &[("vendor", mail.vendor)]), String::new()];
    match mail.facts {
        MailFacts::Invitation { path, replaces } => {
            lines.push(l.fmt(Msg::RfqMailInvitation, &[("title", title), ("close", &close)]));
            if *replaces {
                lines.push(l.t(Msg::RfqMailInvitationReplaces).to_string());
            }
            lines.push(String::new());
            lines.push(l.t(Msg::RfqMailInvitationLink).to_string());
            lines.push(format!("{public_url}{path}"));
        }
        MailFacts::Reminder => {
            lines.push(l.fmt(Msg::RfqMailReminder, &[("title", title), ("close", &close)]));
        }
        MailFacts::Receipt {
            revision,
            receipt,
            submitted_at,
        } => {
            let at = utc_minute(*submitted_at);
            let revision = revision.to_string();
            let args = [("title", title), ("revision", revision.as_str()), ("at", at.as_str())];
            lines.push(l.fmt(Msg::RfqMailReceipt, &args));
            lines.push(l.fmt(Msg::RfqMailReceiptHash, &[("receipt", receipt)]));
            lines.push(l.fmt(Msg::RfqMailReceiptRevise, &[("close", &close)]));
        }
    }
    lines.push(String::new());
    lines.push(l.t(Msg::RfqMailFooter).to_string());
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINK: &str = "/bid/nlb_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    /// 2026-12-31 10:00 UTC.
    const CLOSE: i64 = 1_798_711_200;

    fn mail(facts: &MailFacts) -> VendorMail<'_> {
        VendorMail {
            facts,
            vendor: "星河算力",
            title: "8 × H100 for fine-tuning",
            close_at: CLOSE,
        }
    }

    #[test]
    fn the_invitation_has_the_title_the_close_and_the_full_link_in_both_languages() {
        let facts = MailFacts::Invitation {
            path: LINK.into(),
            replaces: false,
        };
        let text = body(&mail(&facts), "https://desk.example.com");
        let (en, zh) = text.split_once("\n---\n").expect("two parts");
        let url = format!("https://desk.example.com{LINK}");
        for part in [en, zh] {
            assert!(part.contains(&url), "{part}");
            assert!(part.contains("8 × H100 for fine-tuning"), "{part}");
            assert!(part.contains("2026-12-31 10:00 UTC"), "{part}");
        }
        assert!(en.starts_with("To 星河算力:") && en.contains("Bids close"), "{en}");
        assert!(zh.contains("致 星河算力：") && zh.contains("截止"), "{zh}");
        assert!(!en.contains("replaces"), "a first link replaces nothing: {en}");
        assert_eq!(
            subject(&mail(&facts)),
            "Request for quotation: 8 × H100 for fine-tuning / 询价邀请：8 × H100 for fine-tuning"
        );
        let again = MailFacts::Invitation {
            path: LINK.into(),
            replaces: true,
        };
        let text = body(&mail(&again), "https://desk.example.com");
        assert!(
            text.contains("replaces the one sent before") && text.contains("此前发送的链接"),
            "{text}"
        );
    }

    #[test]
    fn the_reminder_and_the_receipt_carry_no_link() {
        let receipt = "0123456789abcdef".repeat(4);
        let facts = [
            MailFacts::Reminder,
            MailFacts::Receipt {
                revision: 3,
                receipt: receipt.clone(),
                // 2026-12-30 08:15 UTC.
                submitted_at: 1_798_618_500,
            },
        ];
        for f in &facts {
            let text = body(&mail(f), "https://desk.example.com");
            assert!(!text.contains("https://") && !text.contains("/bid/"), "{text}");
            assert!(
                text.contains("8 × H100 for fine-tuning") && text.contains("星河算力"),
                "{text}"
            );
        }
        let reminder = body(&mail(&facts[0]), "https://desk.example.com");
        assert!(reminder.contains("link in the invitation mail"), "{reminder}");
        assert!(reminder.contains("邀请邮件中的链接"), "{reminder}");
        assert!(reminder.contains("2026-12-31 10:00 UTC"), "{reminder}");
        let text = body(&mail(&facts[1]), "https://desk.example.com");
        let (en, zh) = text.split_once("\n---\n").expect("two parts");
        for part in [en, zh] {
            assert!(part.contains(&receipt), "{part}");
            assert!(part.contains("2026-12-30 08:15 UTC"), "{part}");
        }
        assert!(en.contains("revision 3"), "{en}");
        assert!(zh.contains("第 3 版"), "{zh}");
        assert_eq!(
            subject(&mail(&facts[1])),
            "Bid received (revision 3): 8 × H100 for fine-tuning / 报价已收到（第 3 版）：8 × H100 for fine-tuning"
        );
    }

    #[test]
    fn a_title_with_a_line_break_stays_on_the_subjects_line() {
        let facts = MailFacts::Reminder;
        let m = VendorMail {
            title: "GPUs\r\nBcc: eve@example.com",
            ..mail(&facts)
        };
        let s = subject(&m);
        assert!(!s.contains('\n') && !s.contains('\r'), "{s}");
        assert!(s.contains("2026-12-31 10:00 UTC"), "{s}");
    }
}
