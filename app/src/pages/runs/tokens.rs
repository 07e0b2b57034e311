//! API tokens: a user creates one for a script (shown once), sees when each was last used, and
//! revokes it. A token acts in the team active when it was made, with the user's role there.

use crate::{
    components::{
        forms::ActionError, guard::member_page, loaded::Loaded, local_time::Moment, site_address::site_address,
    },
    domain::tokens::{DEFAULT_EXPIRY_DAYS, EXPIRY_CHOICES_DAYS, RevokeReason, shown_prefix},
    error::AppError,
    i18n::{Msg, t, use_locale},
    pages::second_factor::{PasswordField, ReauthCode},
    texts::moment,
    views::ApiTokenInfo,
};
use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

/// The caller's tokens, newest first.
#[server(endpoint = "tokens")]
pub async fn list_tokens() -> Result<Vec<ApiTokenInfo>, AppError> {
    use crate::{auth, store};
    let caller = auth::require_caller()?;
    Ok(store::api_tokens::of_user(&auth::db()?, caller.user_id).await?)
}

/// Creates a token for the active team and the caller's role there, living `expires_in_days`
/// (7, 30, 90 or 365; 90 when not given); returns it (the only time it is shown). The list
/// shows when it expires. A token acts without the browser's session, so making one needs the
/// current `password` and, when the caller has a second factor, a current `code`.
#[server(endpoint = "tokens/create")]
pub async fn create_token(
    name: String,
    expires_in_days: Option<String>,
    password: Option<String>,
    code: Option<String>,
) -> Result<String, AppError> {
    use crate::{
        auth, auth::throttle::Purpose, domain::roles::Capability, domain::tokens, services, services::account_security,
        store,
    };
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let name = tokens::clean_name(&name)
        .ok_or_else(|| AppError::InvalidFields(vec![crate::error::FieldIssue::new("name", "required")]))?;
    let days = tokens::expiry_days(expires_in_days.as_deref())
        .ok_or_else(|| AppError::InvalidFields(vec![crate::error::FieldIssue::new("expires_in_days", "invalid")]))?;
    let db = auth::db()?;
    let user = store::users::by_id(&db, caller.user_id)
        .await?
        .ok_or(AppError::Unauthenticated)?;
    account_security::confirm(&db, &user, password, code.as_deref(), Purpose::Reauthentication).await?;
    let made = services::tokens::create(&db, caller.user_id, &team, &name, days).await?;
    if crate::components::forms::show_once_after_plain_post(CreateToken::PATH, &made.token).await? {
        return Ok(String::new());
    }
    Ok(made.token)
}

/// Revokes one of the caller's tokens (recorded in the audit chain).
#[server(endpoint = "tokens/revoke")]
pub async fn revoke_token(id: i64) -> Result<(), AppError> {
    use crate::{auth, services};
    let caller = auth::require_caller()?;
    if services::tokens::revoke(&auth::db()?, caller.user_id, id).await? {
        crate::components::forms::saved_after_plain_post();
        Ok(())
    } else {
        Err(AppError::NotFound)
    }
}

/// When the just-created `token` expires, once the list shows it (found by its shown prefix).
fn expiry_of(list: &[ApiTokenInfo], token: &str) -> Option<String> {
    let prefix = shown_prefix(token);
    list.iter()
        .find(|t| t.prefix == prefix)
        .and_then(|t| t.expires_at.clone())
}

/// Why a token no longer works and since when: revoked (and why), or expired; `None` while it is
/// live.
fn ended(tk: &ApiTokenInfo) -> Option<(Msg, String)> {
    if let Some(when) = &tk.revoked_at {
        let msg = match tk.revoked_reason {
            Some(RevokeReason::PasswordChanged) => Msg::SecAuditRevokedPassword,
            Some(RevokeReason::UserDisabled) => Msg::SecAuditRevokedDisabled,
            Some(RevokeReason::RoleChanged) => Msg::SecAuditRevokedRole,
            Some(RevokeReason::Owner) | None => Msg::TokensRevoked,
        };
        return Some((msg, when.clone()));
    }
    tk.expired
        .then(|| (Msg::SecAuditExpired, tk.expires_at.clone().unwrap_or_default()))
}

/// The newest quote and workload of the active team, for the `curl` example: ids the team really
/// has, so the example works as it is shown.
#[server(endpoint = "tokens/example")]
pub async fn example_ids() -> Result<(Option<i64>, Option<i64>), AppError> {
    use crate::{auth, domain::roles::Capability};
    let (_, team) = auth::require_team(Capability::ReadTeamData)?;
    let (quotes, workloads) = super::choices(&auth::db()?, team.team_id).await?;
    let newest = |list: &[(i64, String)]| list.iter().map(|(id, _)| *id).max();
    Ok((newest(&quotes), newest(&workloads)))
}

/// The `curl` line a script uses, with the site's own address and the team's `quote` and
/// `workload` (a node label instead when the team has no quote yet; no workload without one).
/// With a workload it says the run is the workload's own job (`stands_for_workload`), so its
/// throughput costs the workload on the cost page.
fn curl_example(origin: &str, token: &str, (quote, workload): (Option<i64>, Option<i64>)) -> String {
    let node = quote.map_or_else(|| "-F node_label=\"my node\"".to_owned(), |q| format!("-F quote={q}"));
    let what = match workload {
        Some(w) => format!("{node} -F workload={w} -F stands_for_workload=true"),
        None => node,
    };
    format!(
        "curl -sS -X POST {origin}/api/v1/runs \\\n  -H \"Authorization: Bearer {token}\" \\\n  -F result=@vllm-result.json \\\n  -F telemetry=@nvidia-smi.csv \\\n  {what} -F note=\"nightly\""
    )
}

/// The API tokens page.
#[component]
pub fn TokensPage() -> impl IntoView {
    member_page(|_caller| {
        // One resource per load: a server function reads the request's contexts when it starts,
        // and a load that waits for another before it starts may find the page's owner gone
        // (the guard re-renders the page meanwhile).
        let factor = Resource::new(|| (), |()| crate::pages::second_factor::second_factor_state());
        let tokens = Resource::new(|| (), |()| list_tokens());
        let ids = Resource::new(|| (), |()| example_ids());
        view! {
            <Title text=t(Msg::TokensTitle) />
            <h1>{t(Msg::TokensTitle)}</h1>
            <p class="lead">{t(Msg::TokensLead)}</p>
            <Loaded resource=factor let:factor>
                <TokensLoaded factor tokens ids />
            </Loaded>
        }
        .into_any()
    })
}

/// The `curl` example's quote and workload: the team's newest of each, if any.
type CurlExampleIds = (Option<i64>, Option<i64>);

/// The tokens and the example's ids, once loaded: the form that creates a token and the list.
#[component]
fn TokensLoaded(
    factor: crate::views::second_factor::SecondFactorStatus,
    tokens: Resource<Result<Vec<ApiTokenInfo>, AppError>>,
    ids: Resource<Result<CurlExampleIds, AppError>>,
) -> impl IntoView {
    let factor = StoredValue::new(factor);
    view! {
        <Loaded resource=tokens let:tokens>
            <Loaded resource=ids let:ids>
                <TokensWork tokens=tokens.clone() ids factor=factor.get_value() />
            </Loaded>
        </Loaded>
    }
}

/// Creating a token (shown this once, on the page the form comes back to) and the list with its
/// revoke buttons. The forms save in place (`data-in-place`), or post as plain forms.
#[component]
fn TokensWork(
    tokens: Vec<ApiTokenInfo>,
    ids: (Option<i64>, Option<i64>),
    factor: crate::views::second_factor::SecondFactorStatus,
) -> impl IntoView {
    let create = ServerAction::<CreateToken>::new();
    let revoke = ServerAction::<RevokeToken>::new();
    let made = crate::components::forms::shown_once::<String>(CreateToken::PATH);
    view! {
        {new_token(create, made, &tokens, ids, factor)}
        <ActionError action=revoke />
        {token_list(tokens, revoke)}
    }
}

/// The form that creates a token, and the new token `made` (shown this once) with a `curl`
/// example and when it expires (as the list, just read, says).
fn new_token(
    create: ServerAction<CreateToken>,
    made: Option<String>,
    tokens: &[ApiTokenInfo],
    ids: (Option<i64>, Option<i64>),
    factor: crate::views::second_factor::SecondFactorStatus,
) -> impl IntoView + use<> {
    let locale = use_locale();
    let made = made.map(|token| {
        let curl = curl_example(&site_address(), &token, ids);
        let expires = expiry_of(tokens, &token).map(|at| locale.fmt(Msg::SecAuditExpiresOn, &[("when", &moment(&at))]));
        view! {
            <div class="callout callout-ok" role="status">
                <p><strong>{t(Msg::TokensCreated)}</strong></p>
                <p><code class="token" data-testid="new-token">{token}</code></p>
                <p data-testid="new-token-expiry">{expires}</p>
                <h3>{t(Msg::TokensCurlTitle)}</h3>
                <p>{t(Msg::TokensCurlLead)}</p>
                <pre class="json" data-testid="curl-example">{curl}</pre>
                <p class="hint" data-testid="curl-fields">{t(Msg::TokensCurlFields)}</p>
                <p>{t(Msg::TokensSchema)} " " <a href="/api/v1/schema/run.json" rel="external">"/api/v1/schema/run.json"</a></p>
            </div>
        }
    });
    view! {
        <section class="card">
            <ActionForm action=create attr:class="form-inline" attr:data-testid="token-form" attr:data-in-place="">
                <label>{t(Msg::TokensName)}
                    <input type="text" name="name" required maxlength="80" placeholder=t(Msg::TokensNameHint) />
                </label>
                <label>{t(Msg::SecAuditTokensExpiry)}
                    <select name="expires_in_days" data-testid="token-expiry">
                        {EXPIRY_CHOICES_DAYS.into_iter().map(|d| view! {
                            <option value=d.to_string() selected=d == DEFAULT_EXPIRY_DAYS>
                                {locale.fmt(Msg::SecAuditDays, &[("n", &d.to_string())])}
                            </option>
                        }).collect_view()}
                    </select>
                </label>
                <PasswordField />
                <ReauthCode status=factor />
                <button type="submit">{t(Msg::TokensCreate)}</button>
            </ActionForm>
            <p class="hint">{t(Msg::ReauthLead)}</p>
            <ActionError action=create />
            {made}
        </section>
    }
}

/// The caller's tokens, each with its revoke button (or when it was revoked).
fn token_list(list: Vec<ApiTokenInfo>, revoke: ServerAction<RevokeToken>) -> AnyView {
    if list.is_empty() {
        return view! { <p class="empty-state">{t(Msg::TokensNone)}</p> }.into_any();
    }
    let locale = use_locale();
    view! {
        <table class="table" data-testid="token-table">
            <thead><tr>
                <th>{t(Msg::TokensColName)}</th>
                <th>{t(Msg::TokensColToken)}</th>
                <th>{t(Msg::TokensColScope)}</th>
                <th>{t(Msg::TokensColCreated)}</th>
                <th>{t(Msg::SecAuditColExpires)}</th>
                <th>{t(Msg::TokensColUsed)}</th>
                <th></th>
            </tr></thead>
            <tbody>
                {list.into_iter().map(|tk| {
                    let state = match (&tk.revoked_at, ended(&tk)) {
                        (Some(_), _) | (None, Some(_)) => {
                            let text = ended(&tk).map(|(msg, when)| locale.fmt(msg, &[("when", &moment(&when))]));
                            view! { <span class="tag" data-testid="token-state">{text}</span> }.into_any()
                        }
                        (None, None) => view! {
                            <ActionForm action=revoke attr:class="inline-form" attr:data-in-place="">
                                <input type="hidden" name="id" value=tk.id.to_string() />
                                <button type="submit" class="small danger">{t(Msg::TokensRevoke)}</button>
                            </ActionForm>
                        }.into_any(),
                    };
                    view! {
                        <tr>
                            <td>{tk.name.clone()}</td>
                            <td><code>{format!("{}…", tk.prefix)}</code></td>
                            <td>{tk.team_name.clone()} " · " {t(tk.role.label())}</td>
                            <td><Moment at=tk.created_at.clone() /></td>
                            <td data-testid="token-expires">{tk.expires_at.clone().map(|at| view! { <Moment at /> })}</td>
                            <td data-testid="token-used">{match tk.last_used_at.clone() {
                                Some(at) => view! { <Moment at /> }.into_any(),
                                None => t(Msg::TokensNeverUsed).into_any(),
                            }}</td>
                            <td>{state}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::curl_example;

    #[test]
    fn the_example_names_the_team_s_quote_and_workload_and_that_the_run_stands_for_it() {
        let with = curl_example("https://ledger.example", "nlt_abc", (Some(17), Some(3)));
        assert!(with.contains("Bearer nlt_abc"), "{with}");
        assert!(
            with.contains("-F quote=17 -F workload=3 -F stands_for_workload=true"),
            "{with}"
        );
        let bare = curl_example("https://ledger.example", "nlt_abc", (None, None));
        assert!(
            bare.contains("-F node_label=\"my node\"") && !bare.contains("stands_for_workload"),
            "{bare}"
        );
    }
}
