//! The probe's calls to `/api/v1/runs`: the check before it starts (`dry_run` without files) and
//! the upload (result, telemetry and the node facts as the `node` field), with the token from
//! `NODELEDGER_TOKEN` as `Authorization: Bearer`. Blocking (`ureq`, rustls with the ring provider
//! and the Mozilla roots, no OpenSSL); the token is never printed, and no error text carries it.

use super::pending::Upload;
use serde_json::Value;
use std::time::Duration;

/// What a call came to.
#[derive(Debug)]
pub enum Outcome {
    /// 2xx: the answer.
    Done(Value),
    /// The server refused (4xx): retrying the same will not help. Status and its message.
    Refused(u16, String),
    /// Network, or the server failed (5xx): worth retrying later.
    Unreachable(String),
}

/// One part of a multipart body: a text field, or a file with its name.
pub enum Part<'a> {
    /// `name=value`.
    Text(&'a str, String),
    /// `name`, file name, bytes.
    File(&'a str, String, Vec<u8>),
}

/// The multipart body of `parts` and its boundary (one not found in any part).
#[must_use]
pub fn multipart(parts: &[Part<'_>]) -> (Vec<u8>, String) {
    let mut boundary = format!("nodeledger-probe-{:016x}", rand::random::<u64>());
    while parts.iter().any(|p| match p {
        Part::Text(_, v) => v.contains(&boundary),
        Part::File(_, _, b) => b.windows(boundary.len()).any(|w| w == boundary.as_bytes()),
    }) {
        boundary = format!("nodeledger-probe-{:016x}", rand::random::<u64>());
    }
    let mut body = Vec::new();
    for part in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match part {
            Part::Text(name, value) => {
                body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes());
                body.extend_from_slice(value.as_bytes());
            }
            Part::File(name, file, bytes) => {
                let file = file.replace(['"', '\r', '\n'], "_");
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                        .as_bytes(),
                );
                body.extend_from_slice(bytes);
            }
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (body, boundary)
}

/// The text fields of a run's request (quote, revision, workload, nodes, label, note, format).
#[must_use]
pub fn fields(u: &Upload) -> Vec<Part<'static>> {
    let mut out = Vec::new();
    let mut num = |name: &'static str, v: Option<i64>| {
        if let Some(v) = v {
            out.push(Part::Text(name, v.to_string()));
        }
    };
    num("quote", u.quote);
    num("revision", u.revision);
    num("workload", u.workload);
    num("nodes", u.nodes);
    for (name, v) in [
        ("node_label", &u.node_label),
        ("note", &u.note),
        ("format", &u.format),
        ("gpus", &u.gpus),
        ("started_at", &u.started_at),
    ] {
        if let Some(v) = v {
            out.push(Part::Text(name, v.clone()));
        }
    }
    if u.reserves_memory {
        out.push(Part::Text("reserves_memory", "true".into()));
    }
    out
}

/// POSTs `parts` to `{server}/api/v1/runs` with the token.
#[must_use]
pub fn post_runs(server: &str, token: &str, parts: &[Part<'_>]) -> Outcome {
    let (body, boundary) = multipart(parts);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(15)))
        .timeout_global(Some(Duration::from_secs(600)))
        .build()
        .into();
    let url = format!("{}/api/v1/runs", server.trim_end_matches('/'));
    let sent = agent
        .post(&url)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Accept", "application/json")
        .header("Accept-Language", "en")
        .header("Content-Type", &format!("multipart/form-data; boundary={boundary}"))
        .send(&body[..]);
    let mut res = match sent {
        Ok(res) => res,
        Err(e) => return Outcome::Unreachable(format!("cannot reach {url}: {e}")),
    };
    let status = res.status().as_u16();
    let text = res.body_mut().read_to_string().unwrap_or_default();
    let json: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    match status {
        200..=299 => Outcome::Done(json),
        400..=499 => Outcome::Refused(status, message(&json, &text)),
        _ => Outcome::Unreachable(format!("{url} answered {status}: {}", message(&json, &text))),
    }
}

/// The server's `message`, with each refused field's own message.
fn message(json: &Value, text: &str) -> String {
    let mut out = json["message"]
        .as_str()
        .map_or_else(|| text.chars().take(300).collect::<String>(), str::to_string);
    if let Some(fields) = json["fields"].as_array() {
        for f in fields {
            let name = f["field"].as_str().unwrap_or_default();
            let msg = f["message"].as_str().unwrap_or_default();
            out.push_str(&format!("\n  {name}: {msg}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_has_each_part_once_and_a_boundary_no_part_contains() {
        let parts = [
            Part::Text("quote", "17".into()),
            Part::File("telemetry", "t\"x.csv".into(), b"timestamp\n".to_vec()),
        ];
        let (body, boundary) = multipart(&parts);
        let text = String::from_utf8(body).unwrap();
        assert!(text.starts_with(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"quote\"\r\n\r\n17\r\n"
        )));
        assert!(text.contains("name=\"telemetry\"; filename=\"t_x.csv\""));
        assert!(text.ends_with(&format!("--{boundary}--\r\n")));
        assert_eq!(text.matches(&boundary).count(), 3);
    }

    #[test]
    fn only_the_fields_given_are_sent() {
        let u = Upload {
            quote: Some(17),
            workload: Some(3),
            note: Some("night run".into()),
            ..Upload::default()
        };
        let names: Vec<&str> = fields(&u)
            .iter()
            .map(|p| match p {
                Part::Text(n, _) | Part::File(n, _, _) => *n,
            })
            .collect();
        assert_eq!(names, ["quote", "workload", "note"]);
        let u = Upload {
            gpus: Some("0,1".into()),
            started_at: Some("2026-12-01 10:00:00".into()),
            reserves_memory: true,
            ..Upload::default()
        };
        let sent: Vec<(&str, String)> = fields(&u)
            .iter()
            .filter_map(|p| match p {
                Part::Text(n, v) => Some((*n, v.clone())),
                Part::File(..) => None,
            })
            .collect();
        assert_eq!(
            sent,
            [
                ("gpus", "0,1".to_string()),
                ("started_at", "2026-12-01 10:00:00".to_string()),
                ("reserves_memory", "true".to_string())
            ]
        );
    }
}
