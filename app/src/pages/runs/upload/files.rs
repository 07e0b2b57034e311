//! The files of a run as the browser uploads them: picked or dropped, each sent on its own with
//! a progress bar, and its line in the list (name, size, what was recognised, remove).

use super::*;

/// What `POST /runs/upload` answers for one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uploaded {
    /// The stored file.
    pub file: RunFileInfo,
    /// `result`, `telemetry` or `interconnect`.
    pub role: String,
    /// What was recognised, in the reader's language, as the server words it.
    #[serde(default)]
    pub recognised: String,
}

/// Where one file's upload stands.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    not(feature = "hydrate"),
    expect(dead_code, reason = "only the browser receives uploads")
)]
pub(super) enum FileState {
    /// Sending; the share sent so far.
    Sending(f64),
    /// Received and read.
    Done(Uploaded),
    /// Refused, with the reason in the reader's language.
    Failed(String),
}

/// One file in the drop zone.
#[derive(Clone, Copy)]
pub(super) struct Item {
    pub(super) key: u32,
    pub(super) name: StoredValue<String>,
    pub(super) state: RwSignal<FileState>,
}

#[cfg(feature = "hydrate")]
pub(super) fn start_upload(file: web_sys::File, format: String, limit_mb: u64, state: RwSignal<FileState>) {
    use wasm_bindgen::{JsCast, closure::Closure};
    let locale = crate::i18n::locale_from_document();
    #[expect(clippy::cast_precision_loss, reason = "file sizes are far below 2^52")]
    let limit = (limit_mb * 1_000_000) as f64;
    if file.size() > limit {
        state.set(FileState::Failed(
            locale.fmt(Msg::RunErrorTooLarge, &[("mb", &limit_mb.to_string())]),
        ));
        return;
    }
    let failed = move || state.set(FileState::Failed(locale.t(Msg::RunErrorUploadFailed).to_string()));
    let (Ok(xhr), Ok(form)) = (web_sys::XmlHttpRequest::new(), web_sys::FormData::new()) else {
        return failed();
    };
    if form.append_with_str("format", &format).is_err()
        || form.append_with_blob_and_filename("file", &file, &file.name()).is_err()
        || xhr.open_with_async("POST", "/runs/upload", true).is_err()
    {
        return failed();
    }
    let _ = xhr.set_request_header("Accept", "application/json");
    let progress = Closure::<dyn FnMut(web_sys::ProgressEvent)>::new(move |e: web_sys::ProgressEvent| {
        if e.length_computable() && e.total() > 0.0 {
            state.set(FileState::Sending(e.loaded() / e.total()));
        }
    });
    if let Ok(upload) = xhr.upload() {
        upload.set_onprogress(Some(progress.as_ref().unchecked_ref()));
    }
    progress.forget();
    let answer = xhr.clone();
    let done = Closure::<dyn FnMut()>::new(move || {
        let status = answer.status().unwrap_or(0);
        let text = answer.response_text().ok().flatten().unwrap_or_default();
        let next = match (status, serde_json::from_str::<Uploaded>(&text)) {
            (200, Ok(uploaded)) => FileState::Done(uploaded),
            (413, _) => FileState::Failed(locale.fmt(Msg::RunErrorTooLarge, &[("mb", &limit_mb.to_string())])),
            _ => {
                let message = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_string));
                FileState::Failed(message.unwrap_or_else(|| locale.t(Msg::RunErrorUploadFailed).to_string()))
            }
        };
        state.set(next);
    });
    xhr.set_onload(Some(done.as_ref().unchecked_ref()));
    done.forget();
    let broken = Closure::<dyn FnMut()>::new(failed);
    xhr.set_onerror(Some(broken.as_ref().unchecked_ref()));
    broken.forget();
    if xhr.send_with_opt_form_data(Some(&form)).is_err() {
        failed();
    }
}

pub(super) fn file_line(item: Item, items: RwSignal<Vec<Item>>) -> impl IntoView {
    let locale = use_locale();
    let remove = move |_| items.update(|list| list.retain(|i| i.key != item.key));
    view! {
        <li class="upload-item" data-testid="upload-item">
            <strong>{item.name.get_value()}</strong>
            {move || match item.state.get() {
                FileState::Sending(share) => {
                    // Whole percent: no decimals to word (and no float formatting in the bundle).
                    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a share of 0..=1")]
                    let percent = (share * 100.0).round().clamp(0.0, 100.0) as u8;
                    view! {
                        <span class="hint">{locale.fmt(Msg::RunsUploading, &[("name", "")])}</span>
                        <progress max="100" value=percent data-testid="upload-progress">{format!("{percent} %")}</progress>
                    }.into_any()
                }
                FileState::Done(u) => {
                    let role = match u.role.as_str() {
                        "telemetry" => Msg::RunsRoleTelemetry,
                        "interconnect" => Msg::RunsRoleInterconnect,
                        _ => Msg::RunsRoleResult,
                    };
                    let held = u.file.run_id.map(|id| view! {
                        " · " <a href=format!("/runs/{id}")>{locale.fmt(Msg::RunsAlreadySaved, &[("id", &id.to_string())])}</a>
                    });
                    view! {
                        <span class="tag">{t(role)}</span>
                        <span data-testid="upload-recognised">{u.recognised}</span>
                        {held}
                    }.into_any()
                }
                FileState::Failed(message) => view! { <span class="form-error" role="alert" data-testid="upload-error">{message}</span> }.into_any(),
            }}
            <button type="button" class="link-button" on:click=remove>{t(Msg::RunsRemove)}</button>
        </li>
    }
}

/// A file the user picked or dropped (only the browser has them).
#[cfg(feature = "hydrate")]
pub(super) type PickedFile = web_sys::File;
/// A file the user picked or dropped (only the browser has them).
#[cfg(not(feature = "hydrate"))]
pub(super) type PickedFile = ();

#[cfg(feature = "hydrate")]
pub(super) fn file_list(list: Option<web_sys::FileList>) -> Vec<(String, PickedFile)> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|f| (f.name(), f))
        .collect()
}

pub(super) fn picked_files(ev: &leptos::ev::Event) -> Vec<(String, PickedFile)> {
    #[cfg(feature = "hydrate")]
    {
        let input: web_sys::HtmlInputElement = event_target(ev);
        let files = file_list(input.files());
        input.set_value("");
        files
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = ev;
        Vec::new()
    }
}

pub(super) fn dropped_files(ev: &leptos::ev::DragEvent) -> Vec<(String, PickedFile)> {
    #[cfg(feature = "hydrate")]
    {
        file_list(ev.data_transfer().and_then(|d| d.files()))
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = ev;
        Vec::new()
    }
}
