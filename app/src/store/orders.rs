//! The `orders` and `order_revisions` tables. A revision's `content` is its whole record as
//! canonical JSON; it changes only while the revision is a draft (the service checks the
//! lifecycle; a trigger locks approved revisions).

use super::Tx;
use crate::domain::orders::OrderState;
use sqlx::SqliteExecutor;

fn state_str(s: OrderState) -> &'static str {
    match s {
        OrderState::Draft => "draft",
        OrderState::Submitted => "submitted",
        OrderState::Approved => "approved",
        OrderState::Rejected => "rejected",
    }
}

/// Reads a stored state.
pub fn parse_state(s: &str) -> Result<OrderState, sqlx::Error> {
    match s {
        "draft" => Ok(OrderState::Draft),
        "submitted" => Ok(OrderState::Submitted),
        "approved" => Ok(OrderState::Approved),
        "rejected" => Ok(OrderState::Rejected),
        other => Err(sqlx::Error::Decode(format!("unknown order state {other}").into())),
    }
}

/// An order with its latest revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRow {
    /// Order id.
    pub id: i64,
    /// Title.
    pub title: String,
    /// Workload id.
    pub workload_id: i64,
    /// Creator.
    pub created_by: i64,
    /// Revision row id.
    pub revision_id: i64,
    /// Revision number.
    pub revision: i64,
    /// Its state.
    pub state: OrderState,
    /// Its content (canonical JSON).
    pub content: String,
    /// Submitter.
    pub submitted_by: Option<i64>,
    /// Submission time.
    pub submitted_at: Option<String>,
    /// Manager who decided.
    pub decided_by: Option<i64>,
    /// Decision time.
    pub decided_at: Option<String>,
    /// Decision comment.
    pub decision_comment: String,
    /// Content hash at approval.
    pub content_hash: Option<String>,
}

type Row = (
    i64,
    String,
    i64,
    i64,
    i64,
    i64,
    String,
    String,
    Option<i64>,
    Option<String>,
    Option<i64>,
    Option<String>,
    String,
    Option<String>,
);

fn row(r: Row) -> Result<OrderRow, sqlx::Error> {
    let (
        id,
        title,
        workload_id,
        created_by,
        revision_id,
        revision,
        state,
        content,
        submitted_by,
        submitted_at,
        decided_by,
        decided_at,
        decision_comment,
        content_hash,
    ) = r;
    Ok(OrderRow {
        id,
        title,
        workload_id,
        created_by,
        revision_id,
        revision,
        state: parse_state(&state)?,
        content,
        submitted_by,
        submitted_at,
        decided_by,
        decided_at,
        decision_comment,
        content_hash,
    })
}

/// The columns of a [`Row`], in its order (orders `o`, revisions `r`).
macro_rules! row_columns {
    () => {
        "SELECT o.id, o.title, o.workload_id, o.created_by, r.id, r.revision, r.state, r.content, r.submitted_by, r.submitted_at,
                r.decided_by, r.decided_at, r.decision_comment, r.content_hash"
    };
}

macro_rules! select_rows {
    () => {
        concat!(
            row_columns!(),
            " FROM orders o JOIN order_revisions r ON r.order_id = o.id"
        )
    };
}

/// Creates an order with its first (draft) revision; returns `(order id, revision id)`.
pub async fn insert(
    tx: &mut Tx,
    team_id: i64,
    title: &str,
    workload_id: i64,
    created_by: i64,
    content: &str,
) -> Result<Option<(i64, i64)>, sqlx::Error> {
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO orders (team_id, title, workload_id, created_by) SELECT ?, ?, id, ? FROM workloads WHERE id = ? AND team_id = ? RETURNING id",
    )
    .bind(team_id)
    .bind(title)
    .bind(created_by)
    .bind(workload_id)
    .bind(team_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(id) = id else { return Ok(None) };
    let rev = add_revision(tx, team_id, id, 1, content).await?;
    Ok(Some((id, rev)))
}

/// Adds draft revision `revision` of an order; returns its row id.
pub async fn add_revision(
    tx: &mut Tx,
    team_id: i64,
    order_id: i64,
    revision: i64,
    content: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("INSERT INTO order_revisions (order_id, team_id, revision, state, content) VALUES (?, ?, ?, 'draft', ?) RETURNING id")
        .bind(order_id)
        .bind(team_id)
        .bind(revision)
        .bind(content)
        .fetch_one(&mut **tx)
        .await
}

/// The latest revision of one of the team's orders.
pub async fn latest(db: impl SqliteExecutor<'_>, team_id: i64, order_id: i64) -> Result<Option<OrderRow>, sqlx::Error> {
    let sql = concat!(
        select_rows!(),
        " WHERE o.id = ? AND o.team_id = ? ORDER BY r.revision DESC LIMIT 1"
    );
    sqlx::query_as::<_, Row>(sql)
        .bind(order_id)
        .bind(team_id)
        .fetch_optional(db)
        .await?
        .map(row)
        .transpose()
}

/// Every revision of one of the team's orders, newest first.
pub async fn revisions(db: impl SqliteExecutor<'_>, team_id: i64, order_id: i64) -> Result<Vec<OrderRow>, sqlx::Error> {
    let sql = concat!(
        select_rows!(),
        " WHERE o.id = ? AND o.team_id = ? ORDER BY r.revision DESC"
    );
    sqlx::query_as::<_, Row>(sql)
        .bind(order_id)
        .bind(team_id)
        .fetch_all(db)
        .await?
        .into_iter()
        .map(row)
        .collect()
}

/// The team's orders (latest revision each), newest first.
pub async fn list(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<OrderRow>, sqlx::Error> {
    let sql = concat!(
        select_rows!(),
        " WHERE o.team_id = ? AND r.revision = (SELECT MAX(revision) FROM order_revisions x WHERE x.order_id = o.id) ORDER BY o.id DESC"
    );
    sqlx::query_as::<_, Row>(sql)
        .bind(team_id)
        .fetch_all(db)
        .await?
        .into_iter()
        .map(row)
        .collect()
}

/// Replaces a draft revision's content; `false` when it is not a draft (any more).
pub async fn set_content(tx: &mut Tx, revision_id: i64, content: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE order_revisions SET content = ? WHERE id = ? AND state = 'draft'")
        .bind(content)
        .bind(revision_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Moves a revision from `from` to `to`, recording who and when (submit or decide).
#[expect(
    clippy::too_many_arguments,
    reason = "one UPDATE's columns; a struct would only rename them"
)]
pub async fn set_state(
    tx: &mut Tx,
    revision_id: i64,
    from: OrderState,
    to: OrderState,
    actor: i64,
    at: &str,
    comment: &str,
    content_hash: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let sql = if to == OrderState::Submitted {
        "UPDATE order_revisions SET state = ?, submitted_by = ?, submitted_at = ?, decision_comment = ?, content_hash = ? WHERE id = ? AND state = ?"
    } else {
        "UPDATE order_revisions SET state = ?, decided_by = ?, decided_at = ?, decision_comment = ?, content_hash = ? WHERE id = ? AND state = ?"
    };
    let done = sqlx::query(sql)
        .bind(state_str(to))
        .bind(actor)
        .bind(at)
        .bind(comment)
        .bind(content_hash)
        .bind(revision_id)
        .bind(state_str(from))
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Approved revisions with their stored content and hash, for verification.
pub async fn approved(
    db: impl SqliteExecutor<'_>,
) -> Result<Vec<(i64, i64, i64, String, Option<String>)>, sqlx::Error> {
    sqlx::query_as("SELECT id, order_id, revision, content, content_hash FROM order_revisions WHERE state = 'approved' ORDER BY id").fetch_all(db).await
}

/// Display names of the team's members and of anyone who acted on its orders.
pub async fn user_names(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, display_name FROM users WHERE id IN (SELECT user_id FROM memberships WHERE team_id = ?)
            OR id IN (SELECT actor_id FROM audit_events WHERE order_id IN (SELECT id FROM orders WHERE team_id = ?))",
    )
    .bind(team_id)
    .bind(team_id)
    .fetch_all(db)
    .await
}

/// Every revision of an order as `(revision, state, content, content_hash)`, oldest first, for
/// audit exports and their checks. Not scoped to a team: callers check access to the order first.
pub async fn revisions_for_audit(
    db: impl SqliteExecutor<'_>,
    order_id: i64,
) -> Result<Vec<(i64, String, String, Option<String>)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT revision, state, content, content_hash FROM order_revisions WHERE order_id = ? ORDER BY revision",
    )
    .bind(order_id)
    .fetch_all(db)
    .await
}

/// A [`Row`] followed by one more column: the chosen quote revision's last valid day.
struct RowWithValidity(Row, Option<String>);

impl sqlx::FromRow<'_, sqlx::sqlite::SqliteRow> for RowWithValidity {
    fn from_row(r: &sqlx::sqlite::SqliteRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row as _;
        Ok(Self(Row::from_row(r)?, r.try_get(14)?))
    }
}

/// The team's orders whose latest revision is in one of `states`, each with the last valid day
/// of the quote revision it has chosen (`None`: none chosen), oldest first. For dashboards.
pub async fn latest_in_states(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    states: &[OrderState],
) -> Result<Vec<(OrderRow, Option<String>)>, sqlx::Error> {
    let states: Vec<&str> = states.iter().map(|s| state_str(*s)).collect();
    let states = serde_json::to_string(&states).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let sql = concat!(
        row_columns!(),
        ", q.valid_until FROM orders o JOIN order_revisions r ON r.order_id = o.id
         LEFT JOIN quote_revisions q ON q.id = json_extract(r.content, '$.quote_revision_id') AND q.team_id = o.team_id
         WHERE o.team_id = ? AND r.revision = (SELECT MAX(revision) FROM order_revisions x WHERE x.order_id = o.id)
           AND r.state IN (SELECT value FROM json_each(?)) ORDER BY o.id"
    );
    let rows: Vec<RowWithValidity> = sqlx::query_as(sql).bind(team_id).bind(&states).fetch_all(db).await?;
    rows.into_iter()
        .map(|RowWithValidity(r, until)| Ok((row(r)?, until)))
        .collect()
}

/// How many of the team's orders are in each state (of their latest revision).
pub async fn state_counts(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<(OrderState, i64)>, sqlx::Error> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT r.state, COUNT(*) FROM orders o JOIN order_revisions r ON r.order_id = o.id
         WHERE o.team_id = ? AND r.revision = (SELECT MAX(revision) FROM order_revisions x WHERE x.order_id = o.id)
         GROUP BY r.state",
    )
    .bind(team_id)
    .fetch_all(db)
    .await?;
    rows.into_iter().map(|(s, n)| Ok((parse_state(&s)?, n))).collect()
}

/// A manager's decision on an order revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionRow {
    pub order_id: i64,
    pub title: String,
    pub revision: i64,
    /// Approved or rejected.
    pub state: OrderState,
    /// The manager's display name.
    pub decided_by: String,
    /// When (RFC 3339 UTC).
    pub decided_at: String,
}

/// The team's latest decisions, newest first (at most `limit`).
pub async fn recent_decisions(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    limit: i64,
) -> Result<Vec<DecisionRow>, sqlx::Error> {
    let rows: Vec<(i64, String, i64, String, String, String)> = sqlx::query_as(
        "SELECT o.id, o.title, r.revision, r.state, COALESCE(u.display_name, ''), r.decided_at
         FROM order_revisions r JOIN orders o ON o.id = r.order_id LEFT JOIN users u ON u.id = r.decided_by
         WHERE r.team_id = ? AND r.state IN ('approved', 'rejected') AND r.decided_at IS NOT NULL
         ORDER BY r.decided_at DESC, r.id DESC LIMIT ?",
    )
    .bind(team_id)
    .bind(limit)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(order_id, title, revision, state, decided_by, decided_at)| {
            Ok(DecisionRow {
                order_id,
                title,
                revision,
                state: parse_state(&state)?,
                decided_by,
                decided_at,
            })
        })
        .collect()
}

/// The stored content of one of the team's approved order revisions (what a rental follows and
/// a bill is reconciled with).
pub async fn revision_content(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    revision_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT content FROM order_revisions WHERE id = ? AND team_id = ? AND state = 'approved'")
        .bind(revision_id)
        .bind(team_id)
        .fetch_optional(db)
        .await
}
