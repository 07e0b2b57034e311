//! API tokens: a user creates one for a script (shown once), sees when each was last used, and
//! revokes it. A token acts in the team active when it was made, with the user's role there.

use crate::{
    components::{forms::ActionError, guard::member_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::ApiTokenInfo,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// The caller's tokens, newest first.
#[server(endpoint = "tokens")]
pub async fn list_tokens() -> Result<Vec<ApiTokenInfo>, AppError> {
    use crate::{auth, store};
    let caller = auth::require_caller()?;
    Ok(store::api_tokens::of_user(&auth::db()?, caller.user_id).await?)
}

/// Creates a token for the active team and the caller's role there; returns it (the only time
/// it is shown).
#[server(endpoint = "tokens/create")]
pub async fn create_token(name: String) -> Result<String, AppError> {
    use crate::{
        auth,
        domain::{roles::Capability, tokens},
        store::{self, api_tokens::TokenForCreate},
    };
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let name = tokens::clean_name(&name)
        .ok_or_else(|| AppError::InvalidFields(vec![crate::error::FieldIssue::new("name", "required")]))?;
    let mut random = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut random);
    let token = tokens::token_from_bytes(&random);
    let hash = tokens::token_hash(&token);
    let prefix = tokens::shown_prefix(&token);
    let mut tx = store::begin_write(&auth::db()?).await?;
    let record = TokenForCreate {
        user_id: caller.user_id,
        team_id: team.team_id,
        role: team.role,
        name: &name,
        token_hash: &hash,
        prefix: &prefix,
    };
    let id = store::api_tokens::insert(&mut tx, &record).await?;
    tx.commit().await?;
    tracing::info!(
        token = id,
        user = caller.user_id,
        team = team.team_id,
        "API token created"
    );
    Ok(token)
}

/// Revokes one of the caller's tokens.
#[server(endpoint = "tokens/revoke")]
pub async fn revoke_token(id: i64) -> Result<(), AppError> {
    use crate::{auth, store};
    let caller = auth::require_caller()?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    let done = store::api_tokens::revoke(&mut tx, caller.user_id, id).await?;
    tx.commit().await?;
    if done { Ok(()) } else { Err(AppError::NotFound) }
}

/// The `curl` line a script uses, with the site's own address.
fn curl_example(origin: &str, token: &str) -> String {
    format!(
        "curl -sS -X POST {origin}/api/v1/runs \\\n  -H \"Authorization: Bearer {token}\" \\\n  -F result=@vllm-result.json \\\n  -F telemetry=@nvidia-smi.csv \\\n  -F quote=17 -F workload=3 -F note=\"nightly\""
    )
}

/// The API tokens page.
#[component]
pub fn TokensPage() -> impl IntoView {
    member_page(|_caller| {
        let create = ServerAction::<CreateToken>::new();
        let revoke = ServerAction::<RevokeToken>::new();
        let tokens = Resource::new(
            move || (create.version().get(), revoke.version().get()),
            |_| list_tokens(),
        );
        view! {
            <Title text=t(Msg::TokensTitle) />
            <h1>{t(Msg::TokensTitle)}</h1>
            <p class="lead">{t(Msg::TokensLead)}</p>
            {new_token(create)}
            <Loaded resource=tokens let:list>
                {token_list(list, revoke)}
            </Loaded>
        }
        .into_any()
    })
}

/// The site's own address, for the `curl` example (the browser knows it; the server renders a
/// placeholder that hydration replaces).
fn origin() -> String {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        "http://127.0.0.1:3000".to_string()
    }
}

/// The form that creates a token, and the new token (shown this once) with a `curl` example.
fn new_token(create: ServerAction<CreateToken>) -> impl IntoView {
    view! {
        <section class="card">
            <ActionForm action=create attr:class="form-inline" attr:data-testid="token-form">
                <label>{t(Msg::TokensName)}
                    <input type="text" name="name" required maxlength="80" placeholder=t(Msg::TokensNameHint) />
                </label>
                <button type="submit">{t(Msg::TokensCreate)}</button>
            </ActionForm>
            <ActionError action=create />
            {move || create.value().get().and_then(Result::ok).map(|token| {
                let curl = curl_example(&origin(), &token);
                view! {
                    <div class="callout callout-ok" role="status">
                        <p><strong>{t(Msg::TokensCreated)}</strong></p>
                        <p><code class="token" data-testid="new-token">{token}</code></p>
                        <h3>{t(Msg::TokensCurlTitle)}</h3>
                        <p>{t(Msg::TokensCurlLead)}</p>
                        <pre class="json" data-testid="curl-example">{curl}</pre>
                        <p>{t(Msg::TokensSchema)} " " <a href="/api/v1/schema/run.json" rel="external">"/api/v1/schema/run.json"</a></p>
                    </div>
                }
            })}
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
                <th>{t(Msg::TokensColUsed)}</th>
                <th></th>
            </tr></thead>
            <tbody>
                {list.into_iter().map(|tk| {
                    let state = match &tk.revoked_at {
                        Some(when) => view! { <span class="tag">{locale.fmt(Msg::TokensRevoked, &[("when", when)])}</span> }.into_any(),
                        None => view! {
                            <ActionForm action=revoke attr:class="inline-form">
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
                            <td>{tk.created_at.clone()}</td>
                            <td>{tk.last_used_at.clone().unwrap_or_else(|| t(Msg::TokensNeverUsed).to_string())}</td>
                            <td>{state}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}
