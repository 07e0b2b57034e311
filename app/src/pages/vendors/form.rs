//! The vendor form: its fields as posted, turned into a checked [`Vendor`], and its inputs.

use crate::{
    components::form_fields::{FieldMessage, is_invalid},
    domain::quotes::{ErrorCode, FieldError, SupportScope, Vendor, validate_vendor},
    error::FieldIssue,
    i18n::{Msg, t},
};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// One operations task the vendor's support may cover: its input name, its label, and its answer
/// in the scope.
pub struct ScopeItem {
    /// The input's name (and the scope field's name).
    pub name: &'static str,
    /// What the task is called in the UI.
    pub label: Msg,
    /// Reads the answer from a scope.
    pub get: fn(&SupportScope) -> Option<bool>,
    /// Writes the answer into a scope.
    pub set: fn(&mut SupportScope, Option<bool>),
}

/// A [`ScopeItem`] for the scope field `$field` (also the input's name), labelled `$label`.
macro_rules! scope_item {
    ($field:ident, $label:ident) => {
        ScopeItem {
            name: stringify!($field),
            label: Msg::$label,
            get: |s| s.$field,
            set: |s, v| s.$field = v,
        }
    };
}

/// The support tasks a vendor may help with, in form order.
pub const SCOPE_ITEMS: [ScopeItem; 6] = [
    scope_item!(environment_setup, VendorsScopeEnvironmentSetup),
    scope_item!(provisioning, VendorsScopeProvisioning),
    scope_item!(resource_release, VendorsScopeResourceRelease),
    scope_item!(image_maintenance, VendorsScopeImageMaintenance),
    scope_item!(network_setup, VendorsScopeNetworkSetup),
    scope_item!(troubleshooting, VendorsScopeTroubleshooting),
];

/// The vendor form as posted. Each support task is `""` (not stated), `"yes"` or `"no"`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct VendorForm {
    /// Name, unique in the team.
    pub name: String,
    /// Web site.
    pub website: String,
    /// Contact person, phone or e-mail.
    pub contact: String,
    /// Free notes.
    pub notes: String,
    /// Remote environment deployment.
    pub environment_setup: String,
    /// Instance provisioning.
    pub provisioning: String,
    /// Resource reclamation on release.
    pub resource_release: String,
    /// Image maintenance.
    pub image_maintenance: String,
    /// Network set-up.
    pub network_setup: String,
    /// Fault diagnosis and recovery.
    pub troubleshooting: String,
    /// What else the vendor says about support.
    pub support_notes: String,
}

fn tri_state(value: Option<bool>) -> String {
    match value {
        None => String::new(),
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
    }
}

impl VendorForm {
    fn scope_answer(&self, name: &str) -> &str {
        match name {
            "environment_setup" => &self.environment_setup,
            "provisioning" => &self.provisioning,
            "resource_release" => &self.resource_release,
            "image_maintenance" => &self.image_maintenance,
            "network_setup" => &self.network_setup,
            "troubleshooting" => &self.troubleshooting,
            _ => "",
        }
    }

    /// The form filled with `vendor`.
    pub fn from_vendor(vendor: &Vendor) -> Self {
        let s = &vendor.support_scope;
        VendorForm {
            name: vendor.name.clone(),
            website: vendor.website.clone(),
            contact: vendor.contact.clone(),
            notes: vendor.notes.clone(),
            environment_setup: tri_state(s.environment_setup),
            provisioning: tri_state(s.provisioning),
            resource_release: tri_state(s.resource_release),
            image_maintenance: tri_state(s.image_maintenance),
            network_setup: tri_state(s.network_setup),
            troubleshooting: tri_state(s.troubleshooting),
            support_notes: s.notes.clone(),
        }
    }

    /// The checked vendor (texts trimmed), or every problem found.
    pub fn to_vendor(&self) -> Result<Vendor, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut support_scope = SupportScope {
            notes: self.support_notes.trim().to_string(),
            ..SupportScope::default()
        };
        for item in &SCOPE_ITEMS {
            let answer = match self.scope_answer(item.name) {
                "" => None,
                "yes" => Some(true),
                "no" => Some(false),
                _ => {
                    errors.push(FieldError::new(item.name, ErrorCode::InvalidChoice));
                    None
                }
            };
            (item.set)(&mut support_scope, answer);
        }
        let vendor = Vendor {
            name: self.name.trim().to_string(),
            website: self.website.trim().to_string(),
            contact: self.contact.trim().to_string(),
            notes: self.notes.trim().to_string(),
            support_scope,
        };
        errors.extend(validate_vendor(&vendor).err().unwrap_or_default());
        if errors.is_empty() { Ok(vendor) } else { Err(errors) }
    }
}

/// The inputs of the vendor form, filled with `initial`, each with its error message.
pub fn vendor_fields(initial: VendorForm, issues: Signal<Vec<FieldIssue>>) -> impl IntoView {
    let scope = SCOPE_ITEMS
        .iter()
        .map(|item| {
            let answer = initial.scope_answer(item.name).to_string();
            let option = move |value: &'static str, label: Msg| {
                view! { <option value=value selected=answer == value>{t(label)}</option> }
            };
            view! {
                <label>
                    {t(item.label)}
                    <select name=item.name aria-invalid=is_invalid(issues, item.name)>
                        {option("", Msg::VendorsScopeUnknown)}
                        {option("yes", Msg::VendorsScopeYes)}
                        {option("no", Msg::VendorsScopeNo)}
                    </select>
                    <FieldMessage issues field=item.name />
                </label>
            }
        })
        .collect_view();
    view! {
        <div class="form-row">
            <label>
                {t(Msg::VendorsName)}
                <input type="text" name="name" required maxlength="200" value=initial.name
                    aria-invalid=is_invalid(issues, "name") aria-describedby="name-error" />
                <FieldMessage issues field="name" />
            </label>
            <label>
                {t(Msg::VendorsWebsite)}
                <input type="text" name="website" maxlength="200" value=initial.website placeholder="https://"
                    inputmode="url" aria-invalid=is_invalid(issues, "website") aria-describedby="website-error" />
                <FieldMessage issues field="website" />
            </label>
            <label>
                {t(Msg::VendorsContact)}
                <input type="text" name="contact" maxlength="200" value=initial.contact
                    aria-invalid=is_invalid(issues, "contact") aria-describedby="contact-error" />
                <FieldMessage issues field="contact" />
            </label>
        </div>
        <fieldset class="fieldset">
            <legend>{t(Msg::VendorsScopeTitle)}</legend>
            <p class="hint">{t(Msg::VendorsScopeHint)}</p>
            <div class="form-row">{scope}</div>
            <label>
                {t(Msg::VendorsSupportNotes)}
                <textarea name="support_notes" rows="2" maxlength="4000"
                    aria-invalid=is_invalid(issues, "support_scope.notes") aria-describedby="support_scope.notes-error">
                    {initial.support_notes}
                </textarea>
                <FieldMessage issues field="support_scope.notes" />
            </label>
        </fieldset>
        <label>
            {t(Msg::VendorsNotes)}
            <textarea name="notes" rows="3" maxlength="4000"
                aria-invalid=is_invalid(issues, "notes") aria-describedby="notes-error">{initial.notes}</textarea>
            <FieldMessage issues field="notes" />
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_vendor_and_reads_the_support_answers() {
        let form = VendorForm {
            name: "  GPU Cloud ".into(),
            website: "gpu.example.com".into(),
            provisioning: "yes".into(),
            troubleshooting: "no".into(),
            support_notes: "7×24 on-call".into(),
            ..VendorForm::default()
        };
        let vendor = form.to_vendor().unwrap();
        assert_eq!(vendor.name, "GPU Cloud");
        assert_eq!(vendor.support_scope.provisioning, Some(true));
        assert_eq!(vendor.support_scope.troubleshooting, Some(false));
        assert_eq!(vendor.support_scope.environment_setup, None);
        assert_eq!(VendorForm::from_vendor(&vendor).to_vendor().unwrap(), vendor);
    }

    #[test]
    fn each_support_task_reads_and_writes_its_own_answer() {
        for (i, item) in SCOPE_ITEMS.iter().enumerate() {
            let mut scope = SupportScope::default();
            (item.set)(&mut scope, Some(true));
            let answers: Vec<_> = SCOPE_ITEMS.iter().map(|other| (other.get)(&scope)).collect();
            let expected: Vec<_> = (0..SCOPE_ITEMS.len()).map(|j| (i == j).then_some(true)).collect();
            assert_eq!(answers, expected, "{}", item.name);
        }
    }

    #[test]
    fn reports_every_problem() {
        let form = VendorForm {
            name: " ".into(),
            network_setup: "maybe".into(),
            notes: "x".repeat(4001),
            ..VendorForm::default()
        };
        let fields: Vec<_> = form
            .to_vendor()
            .unwrap_err()
            .into_iter()
            .map(|e| (e.field, e.code.code()))
            .collect();
        assert_eq!(
            fields,
            [
                ("network_setup", "invalid_choice"),
                ("name", "required"),
                ("notes", "too_long")
            ]
        );
    }
}
