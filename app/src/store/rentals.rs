//! The `rentals` and `rental_resources` tables (migration `20261203000001_rentals.sql`): one
//! rental per approved order, the vendor's resource ids, the actual hours recorded at release.
//! Every query takes the team from the session; writes run inside the caller's `BEGIN IMMEDIATE`
//! transaction, and a released rental is never changed.

use super::Tx;
use sqlx::SqliteExecutor;

/// One rental, with its resource ids in the order they were typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RentalRow {
    /// Rental id.
    pub id: i64,
    /// The order it follows.
    pub order_id: i64,
    /// The approved revision it follows.
    pub order_revision_id: i64,
    /// Start (UTC, `…Z`).
    pub started_at: String,
    /// Planned end.
    pub planned_end_at: String,
    /// Stop, if stopped.
    pub stopped_at: Option<String>,
    /// Release, if released.
    pub released_at: Option<String>,
    /// Actual setup hours (exact decimal text), recorded at release.
    pub setup_hours: Option<String>,
    /// Actual data preparation hours.
    pub data_prep_hours: Option<String>,
    /// Actual re-run hours.
    pub rerun_hours: Option<String>,
    /// The team's note.
    pub note: String,
    /// Who recorded it.
    pub created_by: i64,
    /// The vendor's resource ids.
    pub resources: Vec<String>,
}

/// A rental with what the dashboard and the learning need from its order: the order's title, the
/// content of the approved revision it follows (canonical JSON) and its workload's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RentalWithOrder {
    /// The rental.
    pub rental: RentalRow,
    /// The order's title.
    pub title: String,
    /// The content of the revision the rental follows.
    pub content: String,
    /// The workload's kind as stored (`batch`, `training` …).
    pub kind: String,
}

type Row = (
    i64,
    i64,
    i64,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    i64,
    String,
);

fn row(r: Row) -> Result<RentalRow, sqlx::Error> {
    let (id, order_id, rev, started, planned, stopped, released, setup, prep, rerun, note, by, resources) = r;
    Ok(RentalRow {
        id,
        order_id,
        order_revision_id: rev,
        started_at: started,
        planned_end_at: planned,
        stopped_at: stopped,
        released_at: released,
        setup_hours: setup,
        data_prep_hours: prep,
        rerun_hours: rerun,
        note,
        created_by: by,
        resources: serde_json::from_str(&resources).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
    })
}

/// The columns of a [`Row`] (rentals `r`).
macro_rules! columns {
    () => {
        "SELECT r.id, r.order_id, r.order_revision_id, r.started_at, r.planned_end_at, r.stopped_at, r.released_at,
                r.setup_hours, r.data_prep_hours, r.rerun_hours, r.note, r.created_by,
                (SELECT json_group_array(resource_id) FROM
                    (SELECT resource_id FROM rental_resources x WHERE x.rental_id = r.id ORDER BY x.rowid))"
    };
}

/// A rental to record.
#[derive(Clone, Debug)]
pub struct NewRental<'a> {
    /// The order.
    pub order_id: i64,
    /// Its approved revision.
    pub order_revision_id: i64,
    /// Start.
    pub started_at: &'a str,
    /// Planned end.
    pub planned_end_at: &'a str,
    /// Note.
    pub note: &'a str,
    /// Who records it.
    pub created_by: i64,
    /// Resource ids.
    pub resources: &'a [String],
}

async fn put_resources(tx: &mut Tx, rental_id: i64, resources: &[String]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM rental_resources WHERE rental_id = ?")
        .bind(rental_id)
        .execute(&mut **tx)
        .await?;
    for id in resources {
        sqlx::query("INSERT INTO rental_resources (rental_id, resource_id) VALUES (?, ?)")
            .bind(rental_id)
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Records the rental of one of the team's orders; `Ok(None)` when the order already has one
/// (or is not the team's).
pub async fn insert(tx: &mut Tx, team_id: i64, r: &NewRental<'_>) -> Result<Option<i64>, sqlx::Error> {
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO rentals (team_id, order_id, order_revision_id, started_at, planned_end_at, note, created_by)
         SELECT ?, id, ?, ?, ?, ?, ? FROM orders WHERE id = ? AND team_id = ?
         ON CONFLICT (order_id) DO NOTHING RETURNING id",
    )
    .bind(team_id)
    .bind(r.order_revision_id)
    .bind(r.started_at)
    .bind(r.planned_end_at)
    .bind(r.note)
    .bind(r.created_by)
    .bind(r.order_id)
    .bind(team_id)
    .fetch_optional(&mut **tx)
    .await?;
    if let Some(id) = id {
        put_resources(tx, id, r.resources).await?;
    }
    Ok(id)
}

/// The rental of one of the team's orders, if it has one.
pub async fn of_order(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    order_id: i64,
) -> Result<Option<RentalRow>, sqlx::Error> {
    let sql = concat!(columns!(), " FROM rentals r WHERE r.team_id = ? AND r.order_id = ?");
    let r: Option<Row> = sqlx::query_as(sql)
        .bind(team_id)
        .bind(order_id)
        .fetch_optional(db)
        .await?;
    r.map(row).transpose()
}

/// Marks a rental of the team stopped at `at`; false when it is not the team's, already
/// stopped or released.
pub async fn set_stopped(tx: &mut Tx, team_id: i64, rental_id: i64, at: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE rentals SET stopped_at = ? WHERE id = ? AND team_id = ? AND stopped_at IS NULL AND released_at IS NULL",
    )
    .bind(at)
    .bind(rental_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The actual hours recorded at release (exact decimal texts).
#[derive(Clone, Debug)]
pub struct Release<'a> {
    /// Release time.
    pub released_at: &'a str,
    /// Setup hours.
    pub setup_hours: &'a str,
    /// Data preparation hours.
    pub data_prep_hours: &'a str,
    /// Re-run hours.
    pub rerun_hours: &'a str,
}

/// Releases a rental of the team; false when it is not the team's or already released.
pub async fn set_released(tx: &mut Tx, team_id: i64, rental_id: i64, r: &Release<'_>) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE rentals SET released_at = ?, setup_hours = ?, data_prep_hours = ?, rerun_hours = ?
         WHERE id = ? AND team_id = ? AND released_at IS NULL",
    )
    .bind(r.released_at)
    .bind(r.setup_hours)
    .bind(r.data_prep_hours)
    .bind(r.rerun_hours)
    .bind(rental_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A correction of a rental not yet released: its start, planned end, stop, note and resources.
#[derive(Clone, Debug)]
pub struct Correction<'a> {
    /// Start.
    pub started_at: &'a str,
    /// Planned end.
    pub planned_end_at: &'a str,
    /// Stop (`None`: not stopped).
    pub stopped_at: Option<&'a str>,
    /// Note.
    pub note: &'a str,
    /// Resource ids.
    pub resources: &'a [String],
}

/// Corrects a rental of the team; false when it is not the team's or already released.
pub async fn correct(tx: &mut Tx, team_id: i64, rental_id: i64, c: &Correction<'_>) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE rentals SET started_at = ?, planned_end_at = ?, stopped_at = ?, note = ?
         WHERE id = ? AND team_id = ? AND released_at IS NULL",
    )
    .bind(c.started_at)
    .bind(c.planned_end_at)
    .bind(c.stopped_at)
    .bind(c.note)
    .bind(rental_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    put_resources(tx, rental_id, c.resources).await?;
    Ok(true)
}

/// The columns of a [`RentalWithOrder`] after the rental's, joined from `o`, `v` and `w`.
macro_rules! with_order {
    ($where:literal) => {
        concat!(
            columns!(),
            ", o.title, v.content, COALESCE(json_extract(w.body, '$.kind'), 'other')
             FROM rentals r JOIN orders o ON o.id = r.order_id AND o.team_id = r.team_id
             JOIN order_revisions v ON v.id = r.order_revision_id
             JOIN workloads w ON w.id = o.workload_id
             WHERE r.team_id = ? AND ",
            $where
        )
    };
}

struct WithOrder(Row, String, String, String);

impl sqlx::FromRow<'_, sqlx::sqlite::SqliteRow> for WithOrder {
    fn from_row(r: &sqlx::sqlite::SqliteRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row as _;
        Ok(Self(Row::from_row(r)?, r.try_get(13)?, r.try_get(14)?, r.try_get(15)?))
    }
}

fn with(rows: Vec<WithOrder>) -> Result<Vec<RentalWithOrder>, sqlx::Error> {
    rows.into_iter()
        .map(|WithOrder(r, title, content, kind)| {
            Ok(RentalWithOrder {
                rental: row(r)?,
                title,
                content,
                kind,
            })
        })
        .collect()
}

/// The team's rentals not yet released, oldest start first (the dashboard judges which are
/// overdue).
pub async fn unreleased(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<RentalWithOrder>, sqlx::Error> {
    let sql = with_order!("r.released_at IS NULL ORDER BY r.started_at, r.id");
    with(sqlx::query_as(sql).bind(team_id).fetch_all(db).await?)
}

/// The team's released rentals, latest release first.
pub async fn released(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<RentalWithOrder>, sqlx::Error> {
    let sql = with_order!("r.released_at IS NOT NULL ORDER BY r.released_at DESC, r.id DESC");
    with(sqlx::query_as(sql).bind(team_id).fetch_all(db).await?)
}

#[cfg(test)]
mod tests {
    use super::{
        Correction, NewRental, Release, correct, insert, of_order, released, set_released, set_stopped, unreleased,
    };
    use crate::store::{Db, begin_write};

    /// Two teams, each with a workload and an approved order; returns (order of team 1, its
    /// revision row, order of team 2).
    async fn fixture(db: &Db) -> (i64, i64, i64) {
        for sql in [
            "INSERT INTO teams (id, name) VALUES (1, 'A'), (2, 'B')",
            "INSERT INTO users (id, email, display_name, password_hash) VALUES (1, 'a@example.com', 'a', 'x')",
            "INSERT INTO workloads (id, team_id, name, body) VALUES (1, 1, 'w', '{\"kind\":\"batch\"}'), (2, 2, 'w', '{\"kind\":\"training\"}')",
            "INSERT INTO orders (id, team_id, title, workload_id, created_by) VALUES (1, 1, 'Order A', 1, 1), (2, 2, 'Order B', 2, 1)",
            "INSERT INTO order_revisions (id, order_id, team_id, revision, state, content) VALUES (10, 1, 1, 1, 'draft', '{}'), (20, 2, 2, 1, 'draft', '{}')",
        ] {
            sqlx::query(sql).execute(db).await.expect(sql);
        }
        (1, 10, 2)
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn a_rental_is_recorded_once_stopped_released_and_then_locked(db: Db) {
        let (order, rev, other) = fixture(&db).await;
        let resources = ids(&["i-2", "vol-1"]);
        let new = NewRental {
            order_id: order,
            order_revision_id: rev,
            started_at: "2026-12-01T08:00:00Z",
            planned_end_at: "2026-12-02T08:00:00Z",
            note: "first",
            created_by: 1,
            resources: &resources,
        };
        let mut tx = begin_write(&db).await.expect("tx");
        let id = insert(&mut tx, 1, &new).await.expect("insert").expect("new");
        assert_eq!(
            insert(&mut tx, 1, &new).await.expect("insert"),
            None,
            "one rental per order"
        );
        let foreign = NewRental {
            order_id: other,
            ..new.clone()
        };
        assert_eq!(
            insert(&mut tx, 1, &foreign).await.expect("insert"),
            None,
            "another team's order"
        );
        tx.commit().await.expect("commit");
        let r = of_order(&db, 1, order).await.expect("read").expect("found");
        assert_eq!(
            (r.id, r.resources.clone(), r.stopped_at.clone()),
            (id, resources.clone(), None)
        );
        assert_eq!(of_order(&db, 2, order).await.expect("read"), None, "team filter");
        assert_eq!(unreleased(&db, 1).await.expect("list")[0].kind, "batch");
        assert!(unreleased(&db, 2).await.expect("list").is_empty());

        let mut tx = begin_write(&db).await.expect("tx");
        assert!(
            !set_stopped(&mut tx, 2, id, "2026-12-01T20:00:00Z").await.expect("stop"),
            "other team"
        );
        assert!(set_stopped(&mut tx, 1, id, "2026-12-01T20:00:00Z").await.expect("stop"));
        assert!(
            !set_stopped(&mut tx, 1, id, "2026-12-01T21:00:00Z").await.expect("stop"),
            "once"
        );
        let fixed = ids(&["vol-1", "i-3"]);
        let c = Correction {
            started_at: "2026-12-01T07:00:00Z",
            planned_end_at: "2026-12-02T07:00:00Z",
            stopped_at: Some("2026-12-01T20:00:00Z"),
            note: "typo",
            resources: &fixed,
        };
        assert!(correct(&mut tx, 1, id, &c).await.expect("correct"));
        let rel = Release {
            released_at: "2026-12-03T20:00:00Z",
            setup_hours: "3",
            data_prep_hours: "1.5",
            rerun_hours: "0",
        };
        assert!(set_released(&mut tx, 1, id, &rel).await.expect("release"));
        assert!(!set_released(&mut tx, 1, id, &rel).await.expect("release"), "once");
        assert!(!correct(&mut tx, 1, id, &c).await.expect("correct"), "released: locked");
        tx.commit().await.expect("commit");
        let r = of_order(&db, 1, order).await.expect("read").expect("found");
        assert_eq!(
            (
                r.started_at.as_str(),
                r.resources,
                r.setup_hours.as_deref(),
                r.note.as_str()
            ),
            ("2026-12-01T07:00:00Z", fixed, Some("3"), "typo")
        );
        assert!(unreleased(&db, 1).await.expect("list").is_empty());
        assert_eq!(released(&db, 1).await.expect("list").len(), 1);
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn the_schema_refuses_a_release_before_the_start(db: Db) {
        let (order, rev, _) = fixture(&db).await;
        let resources = ids(&["i-1"]);
        let new = NewRental {
            order_id: order,
            order_revision_id: rev,
            started_at: "2026-12-01T08:00:00Z",
            planned_end_at: "2026-12-02T08:00:00Z",
            note: "",
            created_by: 1,
            resources: &resources,
        };
        let mut tx = begin_write(&db).await.expect("tx");
        let id = insert(&mut tx, 1, &new).await.expect("insert").expect("new");
        let rel = Release {
            released_at: "2026-11-30T08:00:00Z",
            setup_hours: "0",
            data_prep_hours: "0",
            rerun_hours: "0",
        };
        assert!(set_released(&mut tx, 1, id, &rel).await.is_err());
    }
}
