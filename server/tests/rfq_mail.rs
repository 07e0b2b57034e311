//! The mail to vendors invited to a request for quotation, through the router and the mail
//! pass: each vendor's link is mailed once and not kept, a replaced link is mailed again, a
//! receipt per submitted revision, one reminder a day before the close to a vendor that has not
//! submitted, and mail that no longer holds is dropped unsent.
#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common::{TestApp, mailer, mailer_down, team_of_pam_and_eve};
use crate::dashboard::fake_smtp::{Inbox, decoded, fake_smtp};
use crate::rfq::{bid, create, link_of, send_bid, vendor};
use http::StatusCode;
use server::mail::{RfqPass, rfq_pass};

/// The close of every request `create` makes: 2099-12-31 18:00 at +08:00.
const CLOSE: i64 = 4_102_394_400;
const HOUR: i64 = 3_600;

/// The decoded mails to `to`, in the order they were sent.
fn mails_to(inbox: &Inbox, to: &str) -> Vec<String> {
    inbox
        .lock()
        .unwrap()
        .iter()
        .filter(|(rcpt, _)| rcpt == &[to])
        .map(|(_, data)| decoded(data))
        .collect()
}

/// Pam's team, a workload and three vendors: 星河算力, Nimbus, Orbit (ids in that order).
async fn three_vendors() -> (TestApp, String, i64, [i64; 3]) {
    let (app, pam, _) = team_of_pam_and_eve().await;
    let workload = app.create_workload(&pam, "Fine-tune").await;
    let xinghe = vendor(&app, &pam, "星河算力", "王芳，wang@xinghe.example").await;
    let nimbus = vendor(&app, &pam, "Nimbus", "Sales <sales@nimbus.example>").await;
    let orbit = vendor(&app, &pam, "Orbit", "ops@orbit.example").await;
    (app, pam, workload, [xinghe, nimbus, orbit])
}

async fn invitation_of(app: &TestApp, vendor: i64) -> i64 {
    sqlx::query_scalar("SELECT id FROM rfq_invitations WHERE vendor_id = ?")
        .bind(vendor)
        .fetch_one(&app.db)
        .await
        .unwrap()
}

/// How many rows of `rfq_mail` still hold text, and how many are not sent.
async fn kept(app: &TestApp) -> (i64, i64) {
    sqlx::query_as("SELECT count(*) FILTER (WHERE body <> ''), count(*) FILTER (WHERE sent_at IS NULL) FROM rfq_mail")
        .fetch_one(&app.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn each_vendor_is_mailed_its_link_once_and_the_link_is_not_kept() {
    let (app, pam, workload, [xinghe, nimbus, _]) = three_vendors().await;
    let created = create(&app, &pam, workload, &[xinghe, nimbus]).await;
    let links = [link_of(&created, 0), link_of(&created, 1)];
    let queued: Vec<String> = sqlx::query_scalar("SELECT body FROM rfq_mail WHERE kind = 'invitation' ORDER BY id")
        .fetch_all(&app.db)
        .await
        .unwrap();
    assert_eq!(queued.len(), 2, "one per vendor, with the request");
    assert!(
        queued[0].contains(&links[0]) && queued[1].contains(&links[1]),
        "{queued:?}"
    );
    let now = app::store::now_unix();

    // The mail server is down: nothing is recorded, the next pass tries again.
    let down = rfq_pass(&mailer_down().await, &app.db, now).await.unwrap();
    assert_eq!((down.sent, down.failed), (0, 2));
    assert_eq!(kept(&app).await, (2, 2));

    let (port, inbox) = fake_smtp().await;
    let first = rfq_pass(&mailer(port), &app.db, now).await.unwrap();
    assert_eq!(
        first,
        RfqPass {
            sent: 2,
            ..RfqPass::default()
        }
    );
    let to_xinghe = mails_to(&inbox, "wang@xinghe.example");
    assert_eq!(to_xinghe.len(), 1);
    let mail = &to_xinghe[0];
    assert!(
        mail.contains(&format!("https://desk.example.com/bid/{}", links[0])),
        "{mail}"
    );
    assert!(!mail.contains(&links[1]), "only its own link: {mail}");
    assert!(
        mail.contains("8 × H100 for fine-tuning") && mail.contains("2099-12-31 10:00 UTC"),
        "{mail}"
    );
    assert!(
        mail.contains("You are invited to quote") && mail.contains("诚邀贵方"),
        "{mail}"
    );
    assert!(
        mail.contains("Subject: Request for quotation: 8 "),
        "English first: {mail}"
    );
    assert_eq!(kept(&app).await, (0, 0), "sent, recorded, and the text blanked");
    let anywhere: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM rfq_mail WHERE body LIKE '%nlb_%')
              + (SELECT count(*) FROM audit_events WHERE data LIKE '%nlb_%')",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(anywhere, 0, "no link is kept");
    let again = rfq_pass(&mailer(port), &app.db, now).await.unwrap();
    assert_eq!(again, RfqPass::default(), "each once");

    // A replaced link is mailed again, saying so; the old one is not in it.
    let (r, i) = (created["id"].to_string(), invitation_of(&app, nimbus).await.to_string());
    let form = [("request_id", r.as_str()), ("invitation_id", &i), ("replace", "true")];
    let res = app.call("/api/requests/revoke", &form, Some(&pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let new_path = serde_json::from_str::<serde_json::Value>(&res.body).unwrap()["path"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(rfq_pass(&mailer(port), &app.db, now).await.unwrap().sent, 1);
    let to_nimbus = mails_to(&inbox, "sales@nimbus.example");
    let mail = to_nimbus.last().unwrap();
    assert!(mail.contains(&format!("https://desk.example.com{new_path}")), "{mail}");
    assert!(!mail.contains(&links[1]), "not the old link: {mail}");
    assert!(mail.contains("replaces the one sent before"), "{mail}");
    assert_eq!(kept(&app).await, (0, 0));
}

#[tokio::test]
async fn a_receipt_per_revision_and_one_reminder_to_the_vendor_that_has_not_submitted() {
    let (app, pam, workload, [xinghe, nimbus, orbit]) = three_vendors().await;
    let created = create(&app, &pam, workload, &[xinghe, nimbus, orbit]).await;
    let links = [link_of(&created, 0), link_of(&created, 1), link_of(&created, 2)];
    let res = send_bid(&app, &bid(&links[0], "4321.09", "驱动 550.54", true)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let receipt: serde_json::Value = serde_json::from_str(&res.body).unwrap();
    let receipt = receipt["receipt"].as_str().unwrap().to_string();
    // Nimbus's link is revoked before its invitation went out: that mail is not sent at all.
    let (r, i) = (created["id"].to_string(), invitation_of(&app, nimbus).await.to_string());
    let res = app
        .call(
            "/api/requests/revoke",
            &[("request_id", &r), ("invitation_id", &i)],
            Some(&pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);

    let (port, inbox) = fake_smtp().await;
    let now = app::store::now_unix();
    let first = rfq_pass(&mailer(port), &app.db, now).await.unwrap();
    assert_eq!(
        first,
        RfqPass {
            sent: 3,
            ..RfqPass::default()
        },
        "2 invitations and a receipt"
    );
    assert!(mails_to(&inbox, "sales@nimbus.example").is_empty());
    let to_xinghe = mails_to(&inbox, "wang@xinghe.example");
    let mail = to_xinghe.iter().find(|m| m.contains(&receipt)).expect("a receipt");
    assert!(mail.contains("revision 1") && mail.contains("第 1 版"), "{mail}");
    assert!(
        mail.contains("8 × H100 for fine-tuning") && !mail.contains("/bid/"),
        "{mail}"
    );

    // The reminder waits for the last day before the close, and goes once, to Orbit only.
    let early = rfq_pass(&mailer(port), &app.db, CLOSE - 24 * HOUR - 60).await.unwrap();
    assert_eq!(early, RfqPass::default());
    let due = rfq_pass(&mailer(port), &app.db, CLOSE - 3 * HOUR).await.unwrap();
    assert_eq!(
        due,
        RfqPass {
            reminders: 1,
            sent: 1,
            ..RfqPass::default()
        }
    );
    let to_orbit = mails_to(&inbox, "ops@orbit.example");
    assert_eq!(to_orbit.len(), 2, "the invitation, then the reminder");
    let reminder = &to_orbit[1];
    assert!(
        reminder.contains("link in the invitation mail") && reminder.contains("邀请邮件中的链接"),
        "{reminder}"
    );
    assert!(reminder.contains("2099-12-31 10:00 UTC"), "{reminder}");
    assert!(
        !reminder.contains(&links[2]) && !reminder.contains("/bid/"),
        "no link: {reminder}"
    );
    assert_eq!(
        mails_to(&inbox, "wang@xinghe.example").len(),
        2,
        "xinghe submitted: no reminder"
    );
    let later = rfq_pass(&mailer(port), &app.db, CLOSE - HOUR).await.unwrap();
    assert_eq!(later, RfqPass::default(), "one reminder");
}

#[tokio::test]
async fn past_the_close_an_unsent_invitation_is_dropped_and_a_receipt_still_goes() {
    let (app, pam, workload, [xinghe, _, _]) = three_vendors().await;
    let created = create(&app, &pam, workload, &[xinghe]).await;
    let res = send_bid(&app, &bid(&link_of(&created, 0), "4321.09", "", true)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let (port, inbox) = fake_smtp().await;
    let late = rfq_pass(&mailer(port), &app.db, CLOSE + 1).await.unwrap();
    assert_eq!(
        late,
        RfqPass {
            sent: 1,
            dropped: 1,
            ..RfqPass::default()
        }
    );
    let mails = mails_to(&inbox, "wang@xinghe.example");
    assert!(
        mails.len() == 1 && mails[0].contains("was received: revision 1"),
        "{mails:?}"
    );
    let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM rfq_mail")
        .fetch_all(&app.db)
        .await
        .unwrap();
    assert_eq!(kinds, ["receipt"], "the dropped invitation leaves no row");
}
