//! The pages of a team's reference records (vendors, workloads): the “add” card of the list
//! page and the edit page. The record type brings its texts and its fields; the scaffolding
//! around them (guard, breadcrumb, loading, error messages, “Saved.”, clearing after an add) is
//! written once here.

use crate::{
    components::{
        form_fields::{SaveFooter, field_issues},
        forms::{ActionError, ErrorBox},
        guard::member_page,
        loaded::Loaded,
        route::route_id,
    },
    domain::roles::Capability,
    error::{AppError, FieldIssue},
    i18n::{Msg, t},
    views::Stored,
};
use leptos::{
    prelude::*,
    server_fn::{Http, ServerFn, client::Client, codec::PostUrl, request::ClientReq},
    web_sys::FormData,
};
use leptos_meta::Title;
use serde::{Serialize, de::DeserializeOwned};

/// What the pages of one record type say and check.
pub struct RecordPages<T: 'static> {
    /// The list page's address, the edit page's way back (e.g. `/vendors`).
    pub list_href: &'static str,
    /// The list page's title, also the text of the way back.
    pub list_title: Msg,
    /// The `data-testid` of the record's form, add and edit alike.
    pub form_test_id: &'static str,
    /// Who may add and edit; others get “forbidden” on the edit page.
    pub edit: Capability,
    /// The record's name: the edit page's title and heading.
    pub name: fn(&T) -> String,
    /// The inputs of the form, filled with a stored record, each with its error message.
    pub fields: fn(&T, Signal<Vec<FieldIssue>>) -> AnyView,
}

/// The “add” card of a list page: heading `title`, the inputs from `fields` (given the issues of
/// the last try), the error of the last try and the `submit` button. It saves in place
/// (`data-in-place`, see [`crate::components::page_scripts`]): after an error the page shows it
/// and keeps what was typed; after a success the page shows the list with the new record and
/// the form empty for the next.
pub fn add_record_card<T, S, P, F>(
    pages: &RecordPages<T>,
    create: ServerAction<S>,
    (title, submit): (Msg, Msg),
    fields: F,
) -> impl IntoView + use<T, S, P, F>
where
    F: FnOnce(Signal<Vec<FieldIssue>>) -> AnyView,
    S: DeserializeOwned + ServerFn<Protocol = Http<PostUrl, P>, Error = AppError> + Clone + Send + Sync + 'static,
    S::Client: Client<AppError>,
    <<S::Client as Client<S::Error>>::Request as ClientReq<S::Error>>::FormData: From<FormData>,
    S::Output: Clone + Send + Sync + 'static,
    P: 'static,
{
    let fields = fields(field_issues(create));
    view! {
        <section class="card">
            <h2>{t(title)}</h2>
            <ActionForm action=create attr:class="form" attr:data-testid=pages.form_test_id attr:data-in-place="">
                {fields}
                <ActionError action=create />
                <button type="submit" disabled=move || create.pending().get()>{t(submit)}</button>
            </ActionForm>
        </section>
    }
}

/// The edit page of the record whose id is in the address: loaded with `load`, saved with
/// `update` (which reads the record's `id` from a hidden input, then the fields).
pub fn record_edit_page<T, S, P, L, Fut>(pages: RecordPages<T>, update: ServerAction<S>, load: L) -> impl IntoView
where
    T: Clone + Send + Sync + Serialize + DeserializeOwned + 'static,
    S: DeserializeOwned + ServerFn<Protocol = Http<PostUrl, P>, Error = AppError> + Clone + Send + Sync + 'static,
    S::Client: Client<AppError>,
    <<S::Client as Client<S::Error>>::Request as ClientReq<S::Error>>::FormData: From<FormData>,
    S::Output: Clone + Send + Sync + 'static,
    P: 'static,
    L: Fn(i64) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Result<Stored<T>, AppError>> + Send + 'static,
{
    let RecordPages {
        list_href,
        list_title,
        form_test_id,
        edit,
        name,
        fields,
    } = pages;
    member_page(move |caller| {
        if !caller.may(edit) {
            return view! { <ErrorBox error=AppError::Forbidden /> }.into_any();
        }
        let id = route_id();
        let record = Resource::new(move || id().unwrap_or(0), load.clone());
        let issues = field_issues(update);
        view! {
            <p class="breadcrumb"><a href=list_href>{t(list_title)}</a></p>
            <Loaded resource=record let:stored>
                <Title text=name(&stored.record) />
                <h1>{name(&stored.record)}</h1>
                <ActionForm action=update attr:class="form card" attr:data-testid=form_test_id attr:data-in-place="">
                    <input type="hidden" name="id" value=stored.id.to_string() />
                    {fields(&stored.record, issues)}
                    <SaveFooter action=update />
                </ActionForm>
            </Loaded>
        }
        .into_any()
    })
}

/// The record id an edit form posts. It is text because the form's other fields are read
/// flattened into one struct; an unreadable id is a record that does not exist.
pub fn posted_id(id: &str) -> Result<i64, AppError> {
    id.trim().parse().map_err(|_| AppError::NotFound)
}

/// The answer to an update of a named record: no such record is “not found”, a name another
/// record of the team has is the conflict `name_taken`.
#[cfg(feature = "ssr")]
pub fn updated(outcome: crate::store::Updated, name_taken: Msg) -> Result<(), AppError> {
    use crate::store::Updated;
    match outcome {
        Updated::Done => Ok(()),
        Updated::NotFound => Err(AppError::NotFound),
        Updated::NameTaken => Err(AppError::Conflict(name_taken)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_posted_id_is_not_found() {
        assert_eq!(posted_id(" 12 "), Ok(12));
        assert_eq!(posted_id("12a"), Err(AppError::NotFound));
        assert_eq!(posted_id(""), Err(AppError::NotFound));
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn a_taken_name_is_the_record_types_conflict() {
        use crate::store::Updated;
        assert_eq!(updated(Updated::Done, Msg::VendorsNameTaken), Ok(()));
        assert_eq!(
            updated(Updated::NotFound, Msg::VendorsNameTaken),
            Err(AppError::NotFound)
        );
        assert_eq!(
            updated(Updated::NameTaken, Msg::WorkloadsNameTaken),
            Err(AppError::Conflict(Msg::WorkloadsNameTaken))
        );
    }
}
