//! The admin audit log as the page receives it: site events with the people and teams they name
//! already looked up (worded by [`crate::texts::audit`]).

use crate::domain::audit::Action;
use serde::{Deserialize, Serialize};

/// One site event of the audit chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteEvent {
    /// Its place in the chain.
    pub seq: i64,
    /// When (RFC 3339 UTC).
    pub at: String,
    /// Who acted (0: the command line).
    pub actor_id: i64,
    /// Their name and e-mail; `None` for the command line or a user no longer there.
    pub actor: Option<String>,
    pub action: Action,
    /// The event's data as hashed.
    pub data: serde_json::Value,
    /// The e-mail of the user in `data.user_id`, if any and still there.
    pub user: Option<String>,
    /// The name of the team in `data.team_id`, if any and still there.
    pub team: Option<String>,
}

/// One page of the audit log, newest first, and the chain's head now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteLog {
    /// Events in the whole chain (orders' too).
    pub events: u64,
    /// The chain's head hash.
    pub head_hash: String,
    /// Site events, newest first.
    pub entries: Vec<SiteEvent>,
    /// The seq to ask for older events with, when there are more.
    pub older: Option<i64>,
}
