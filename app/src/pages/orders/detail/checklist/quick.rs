//! "Confirm" in one action: an item that asks for no evidence is confirmed with one click, one
//! that takes a note with the note and one click. The full answer form stays below it for any
//! other answer (not applicable, a problem, other evidence).

use crate::{
    i18n::{Msg, t},
    pages::orders::fields::FormError,
    views::orders::ItemLine,
};
use leptos::prelude::*;

/// Whether `item` can be confirmed in one action: the viewer answers it, no suggestion offers
/// an accept already, and it asks for no evidence, takes a note, or the vendor answered it in
/// writing (cited as the evidence).
fn offered(item: &ItemLine) -> bool {
    let needs = &item.evidence_needed;
    item.can_answer
        && item.accept.is_none()
        && (needs.is_empty() || needs.iter().any(|k| k == "note") || by_vendor_answer(item))
}

/// Whether the one action cites the vendor's written answer: the item has one and takes what the
/// quote states as evidence.
fn by_vendor_answer(item: &ItemLine) -> bool {
    item.vendor_answer.is_some() && item.evidence_needed.iter().any(|k| k == "quote_field")
}

/// The one-action confirm of an item, while it is not done. `mine`: the post this page load
/// follows answered this item (its error, if any, is shown here).
pub(super) fn quick_confirm(order_id: i64, item: &ItemLine, mine: bool) -> Option<impl IntoView + use<>> {
    if !offered(item) || item.done {
        return None;
    }
    let by_vendor = by_vendor_answer(item);
    let by_note = !by_vendor && !item.evidence_needed.is_empty();
    let action = ServerAction::<super::AnswerItem>::new();
    let testid = format!("quick-{}", item.id);
    let item_id = item.id.clone();
    let label = t(if by_vendor {
        Msg::RfqEvidenceConfirm
    } else if by_note {
        Msg::ChecklistQuickConfirmNote
    } else {
        Msg::ChecklistQuickConfirm
    });
    Some(view! {
        <div class="quick-confirm">
            <ActionForm action attr:class="form-inline no-print" attr:data-testid=testid attr:data-in-place="" attr:data-keep-focus="">
                <input type="hidden" name="order_id" value=order_id.to_string() />
                <input type="hidden" name="item_id" value=item_id />
                <input type="hidden" name="status" value="confirmed" />
                {by_note.then(|| view! {
                    <label>{t(Msg::ChecklistQuickNote)}<input type="text" name="evidence_note" required /></label>
                })}
                {by_vendor.then(|| view! { <input type="hidden" name="evidence_vendor_answer" value="on" /> })}
                <button type="submit" class="small">{label}</button>
            </ActionForm>
            {mine.then(|| view! { <FormError action /> })}
        </div>
    })
}

#[cfg(test)]
mod tests {
    use super::offered;
    use crate::views::orders::{AcceptLine, ItemLine};

    fn item(evidence: &[&str]) -> ItemLine {
        ItemLine {
            can_answer: true,
            evidence_needed: evidence.iter().map(|k| (*k).to_string()).collect(),
            ..ItemLine::default()
        }
    }

    #[test]
    fn offered_where_no_evidence_or_a_note_will_do_and_nothing_else_offers_one_action() {
        assert!(offered(&item(&[])));
        assert!(offered(&item(&["quote_field", "document", "note"])));
        assert!(!offered(&item(&["run"])), "a run cannot be typed in");
        assert!(!offered(&item(&["cost_comparison"])));
        let accept = ItemLine {
            accept: Some(AcceptLine::default()),
            ..item(&[])
        };
        assert!(!offered(&accept), "the suggestion's accept is the one action");
        let other = ItemLine {
            can_answer: false,
            ..item(&[])
        };
        assert!(!offered(&other), "another role's item");
    }
}
