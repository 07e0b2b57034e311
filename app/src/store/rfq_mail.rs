//! The `rfq_mail` table: the outbox of mail to invited vendors (rules:
//! [`crate::domain::rfq::mail`]). Invitations and receipts are [`queue`]d inside the transaction
//! that makes the link or the bid; reminders are queued by the mail pass
//! ([`reminder_candidates`]). The pass sends what is [`unsent`], then [`mark_sent`] blanks the
//! text (an invitation's holds the secret link) and keeps the row as the record.

use super::Tx;
use crate::domain::rfq::mail::{MailFacts, MailKind, ReminderCandidate};
use sqlx::SqliteExecutor;

/// Queues a mail to the vendor of `invitation_id`; returns its row.
pub async fn queue(tx: &mut Tx, invitation_id: i64, facts: &MailFacts, now: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("INSERT INTO rfq_mail (invitation_id, kind, body, created_at) VALUES (?, ?, ?, ?) RETURNING id")
        .bind(invitation_id)
        .bind(facts.kind().as_str())
        .bind(facts.encode())
        .bind(now)
        .fetch_one(&mut **tx)
        .await
}

/// Drops the invitation mail of `invitation_id` not sent yet: its link was revoked or replaced,
/// so it would carry a link that no longer opens (and the text goes with it). Returns how many.
pub async fn forget_unsent_invitations(tx: &mut Tx, invitation_id: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM rfq_mail WHERE invitation_id = ? AND kind = 'invitation' AND sent_at IS NULL")
        .bind(invitation_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected())
}

/// A queued mail with what its text names and what decides whether it still holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    pub id: i64,
    pub invitation_id: i64,
    pub facts: MailFacts,
    /// The invitation's address.
    pub email: String,
    /// The vendor's name in the team's vendor list.
    pub vendor: String,
    pub title: String,
    pub close_at: i64,
    pub closed_at: Option<i64>,
    pub revoked: bool,
    /// The vendor has submitted at least one revision.
    pub has_bid: bool,
}

#[derive(sqlx::FromRow)]
struct QueuedRow {
    id: i64,
    invitation_id: i64,
    kind: String,
    body: String,
    email: String,
    vendor: String,
    title: String,
    close_at: i64,
    closed_at: Option<i64>,
    revoked: bool,
    has_bid: bool,
}

/// At most `limit` mails not sent yet, oldest first. A row whose kind or text this build does
/// not read is skipped (and stays queued).
pub async fn unsent(db: impl SqliteExecutor<'_>, limit: i64) -> Result<Vec<Queued>, sqlx::Error> {
    let rows: Vec<QueuedRow> = sqlx::query_as(
        "SELECT m.id, m.invitation_id, m.kind, m.body, i.email, v.name AS vendor, r.title, r.close_at, r.closed_at,
            i.revoked_at IS NOT NULL AS revoked,
            EXISTS (SELECT 1 FROM rfq_bids b WHERE b.invitation_id = i.id) AS has_bid
         FROM rfq_mail m JOIN rfq_invitations i ON i.id = m.invitation_id
         JOIN rfq_requests r ON r.id = i.request_id JOIN vendors v ON v.id = i.vendor_id
         WHERE m.sent_at IS NULL ORDER BY m.id LIMIT ?",
    )
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let facts = MailFacts::decode(MailKind::parse(&r.kind)?, &r.body)?;
            Some(Queued {
                id: r.id,
                invitation_id: r.invitation_id,
                facts,
                email: r.email,
                vendor: r.vendor,
                title: r.title,
                close_at: r.close_at,
                closed_at: r.closed_at,
                revoked: r.revoked,
                has_bid: r.has_bid,
            })
        })
        .collect())
}

/// Records a mail as sent at `now` and blanks its text; `false` when it was not queued (sent
/// by another pass a moment before, or dropped).
pub async fn mark_sent(tx: &mut Tx, id: i64, now: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE rfq_mail SET sent_at = ?, body = '' WHERE id = ? AND sent_at IS NULL")
        .bind(now)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Drops a queued mail that no longer holds (see `rfq::mail::still_worth_sending`): it was never
/// sent, so no row is kept; a sent one stays.
pub async fn drop_unsent(tx: &mut Tx, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM rfq_mail WHERE id = ? AND sent_at IS NULL")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct CandidateRow {
    invitation_id: i64,
    close_at: i64,
    closed_at: Option<i64>,
    revoked: bool,
    has_bid: bool,
    reminded: bool,
    last_invited_at: Option<i64>,
}

/// The invitations of requests that are not opened and close after `now` and within `window`
/// seconds of it, with what decides whether they get their reminder
/// (`rfq::mail::reminder_due`).
pub async fn reminder_candidates(
    db: impl SqliteExecutor<'_>,
    now: i64,
    window: i64,
) -> Result<Vec<(i64, ReminderCandidate)>, sqlx::Error> {
    let rows: Vec<CandidateRow> = sqlx::query_as(
        "SELECT i.id AS invitation_id, r.close_at, r.closed_at, i.revoked_at IS NOT NULL AS revoked,
            EXISTS (SELECT 1 FROM rfq_bids b WHERE b.invitation_id = i.id) AS has_bid,
            EXISTS (SELECT 1 FROM rfq_mail m WHERE m.invitation_id = i.id AND m.kind = 'reminder') AS reminded,
            (SELECT max(m.created_at) FROM rfq_mail m WHERE m.invitation_id = i.id AND m.kind = 'invitation')
              AS last_invited_at
         FROM rfq_requests r JOIN rfq_invitations i ON i.request_id = r.id
         WHERE r.closed_at IS NULL AND r.close_at > ? AND r.close_at <= ? ORDER BY i.id",
    )
    .bind(now)
    .bind(now.saturating_add(window))
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let c = ReminderCandidate {
                close_at: r.close_at,
                closed_at: r.closed_at,
                revoked: r.revoked,
                has_bid: r.has_bid,
                reminded: r.reminded,
                last_invited_at: r.last_invited_at,
            };
            (r.invitation_id, c)
        })
        .collect())
}

/// Queues the reminder of `invitation_id` unless it has one; `true` when it was queued.
pub async fn queue_reminder(tx: &mut Tx, invitation_id: i64, now: i64) -> Result<bool, sqlx::Error> {
    // The unique index allows one reminder per invitation; a second pass at the same moment
    // finds it there.
    let done = sqlx::query(
        "INSERT INTO rfq_mail (invitation_id, kind, body, created_at)
         SELECT ?, 'reminder', ?, ? WHERE NOT EXISTS
           (SELECT 1 FROM rfq_mail WHERE invitation_id = ? AND kind = 'reminder')",
    )
    .bind(invitation_id)
    .bind(MailFacts::Reminder.encode())
    .bind(now)
    .bind(invitation_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::{
        drop_unsent, forget_unsent_invitations, mark_sent, queue, queue_reminder, reminder_candidates, unsent,
    };
    use crate::domain::rfq::mail::{MailFacts, REMINDER_BEFORE_CLOSE as DAY};
    use crate::store::{Db, begin_write};

    /// A request closing at `close` with two invited vendors; returns their invitations.
    async fn fixture(db: &Db, close: i64) -> (i64, i64) {
        for sql in [
            "INSERT INTO teams (id, name) VALUES (1, 'A')",
            "INSERT INTO users (id, email, display_name, password_hash) VALUES (1, 'a@example.com', 'a', 'x')",
            "INSERT INTO vendors (id, team_id, name) VALUES (1, 1, 'Nimbus'), (2, 1, '星河算力')",
        ] {
            sqlx::query(sql).execute(db).await.expect(sql);
        }
        sqlx::query(
            "INSERT INTO rfq_requests (id, team_id, title, needs, questions, close_at, created_by, created_at)
             VALUES (1, 1, '8 × H100', '{}', '[]', ?, 1, 0)",
        )
        .bind(close)
        .execute(db)
        .await
        .expect("request");
        sqlx::query(
            "INSERT INTO rfq_invitations (id, request_id, vendor_id, email, link_hash, created_at)
             VALUES (1, 1, 1, 'sales@nimbus.example', ?, 0), (2, 1, 2, 'wang@xinghe.example', ?, 0)",
        )
        .bind("a".repeat(64))
        .bind("b".repeat(64))
        .execute(db)
        .await
        .expect("invitations");
        (1, 2)
    }

    fn invitation(path: &str) -> MailFacts {
        MailFacts::Invitation {
            path: path.into(),
            replaces: false,
        }
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn a_sent_mail_keeps_its_row_but_not_its_text(db: Db) {
        let (nimbus, xinghe) = fixture(&db, 10 * DAY).await;
        let mut tx = begin_write(&db).await.expect("tx");
        let first = queue(&mut tx, nimbus, &invitation("/bid/nlb_secret1"), 100)
            .await
            .expect("queue");
        queue(&mut tx, xinghe, &invitation("/bid/nlb_secret2"), 100)
            .await
            .expect("queue");
        tx.commit().await.expect("commit");
        let queued = unsent(&db, 10).await.expect("unsent");
        assert_eq!(queued.len(), 2);
        assert_eq!(
            (
                queued[0].email.as_str(),
                queued[0].vendor.as_str(),
                queued[0].title.as_str()
            ),
            ("sales@nimbus.example", "Nimbus", "8 × H100")
        );
        assert_eq!(queued[0].facts, invitation("/bid/nlb_secret1"));
        assert!(!queued[0].revoked && !queued[0].has_bid);

        let mut tx = begin_write(&db).await.expect("tx");
        assert!(mark_sent(&mut tx, first, 200).await.expect("mark"));
        assert!(!mark_sent(&mut tx, first, 300).await.expect("mark"), "once");
        tx.commit().await.expect("commit");
        let row: (String, Option<i64>) = sqlx::query_as("SELECT body, sent_at FROM rfq_mail WHERE id = ?")
            .bind(first)
            .fetch_one(&db)
            .await
            .expect("row");
        assert_eq!(row, (String::new(), Some(200)), "the record stays, the link does not");
        let left = unsent(&db, 10).await.expect("unsent");
        assert_eq!(left.iter().map(|q| q.invitation_id).collect::<Vec<_>>(), [xinghe]);
        let refused = sqlx::query("UPDATE rfq_mail SET body = 'x' WHERE id = ?")
            .bind(first)
            .execute(&db)
            .await;
        assert!(refused.is_err(), "the schema keeps no text on a sent mail");
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn a_revoked_links_unsent_invitation_is_forgotten_and_a_sent_one_stays(db: Db) {
        let (nimbus, xinghe) = fixture(&db, 10 * DAY).await;
        let mut tx = begin_write(&db).await.expect("tx");
        let sent = queue(&mut tx, nimbus, &invitation("/bid/nlb_old"), 100)
            .await
            .expect("queue");
        mark_sent(&mut tx, sent, 150).await.expect("mark");
        queue(&mut tx, nimbus, &invitation("/bid/nlb_new"), 200)
            .await
            .expect("queue");
        let receipt = MailFacts::Receipt {
            revision: 1,
            receipt: "c".repeat(64),
            submitted_at: 210,
        };
        queue(&mut tx, nimbus, &receipt, 210).await.expect("queue");
        let other = queue(&mut tx, xinghe, &invitation("/bid/nlb_other"), 200)
            .await
            .expect("queue");
        assert_eq!(forget_unsent_invitations(&mut tx, nimbus).await.expect("forget"), 1);
        drop_unsent(&mut tx, other).await.expect("drop");
        drop_unsent(&mut tx, sent).await.expect("drop");
        tx.commit().await.expect("commit");
        let kinds: Vec<(i64, String, Option<i64>)> =
            sqlx::query_as("SELECT invitation_id, kind, sent_at FROM rfq_mail ORDER BY id")
                .fetch_all(&db)
                .await
                .expect("rows");
        assert_eq!(
            kinds,
            [
                (nimbus, "invitation".to_string(), Some(150)),
                (nimbus, "receipt".to_string(), None)
            ],
            "the sent invitation and the receipt stay"
        );
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn reminders_look_at_the_last_day_only_and_come_once(db: Db) {
        let close = 10 * DAY;
        let (nimbus, xinghe) = fixture(&db, close).await;
        let mut tx = begin_write(&db).await.expect("tx");
        queue(&mut tx, nimbus, &invitation("/bid/nlb_1"), 0)
            .await
            .expect("queue");
        queue(&mut tx, xinghe, &invitation("/bid/nlb_2"), close - 2)
            .await
            .expect("queue");
        tx.commit().await.expect("commit");
        sqlx::query(
            "INSERT INTO rfq_bids (invitation_id, revision, body, receipt, submitted_at) VALUES (2, 1, '{}', ?, 5)",
        )
        .bind("d".repeat(64))
        .execute(&db)
        .await
        .expect("bid");
        assert!(
            reminder_candidates(&db, close - DAY - 1, DAY)
                .await
                .expect("list")
                .is_empty(),
            "a day and a second before the close"
        );
        assert!(
            reminder_candidates(&db, close, DAY).await.expect("list").is_empty(),
            "at the close"
        );
        let found = reminder_candidates(&db, close - DAY, DAY).await.expect("list");
        assert_eq!(found.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [nimbus, xinghe]);
        let (_, n) = found[0];
        assert!(!n.has_bid && !n.reminded && !n.revoked && n.closed_at.is_none());
        assert_eq!((n.close_at, n.last_invited_at), (close, Some(0)));
        assert_eq!(
            (found[1].1.has_bid, found[1].1.last_invited_at),
            (true, Some(close - 2))
        );

        let mut tx = begin_write(&db).await.expect("tx");
        assert!(queue_reminder(&mut tx, nimbus, close - DAY).await.expect("remind"));
        assert!(
            !queue_reminder(&mut tx, nimbus, close - 10).await.expect("remind"),
            "once"
        );
        tx.commit().await.expect("commit");
        let found = reminder_candidates(&db, close - 10, DAY).await.expect("list");
        assert!(found[0].1.reminded && !found[1].1.reminded);
        let queued = unsent(&db, 10).await.expect("unsent");
        assert_eq!(queued.last().map(|q| &q.facts), Some(&MailFacts::Reminder));
        let duplicate =
            sqlx::query("INSERT INTO rfq_mail (invitation_id, kind, body, created_at) VALUES (1, 'reminder', '{}', 0)")
                .execute(&db)
                .await;
        assert!(duplicate.is_err(), "the schema allows one reminder per invitation");
    }
}
