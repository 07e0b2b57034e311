//! The optional to-do mail: when an SMTP server is configured (`NODELEDGER_SMTP_URL`), a
//! background task mails every enabled user, every few minutes, the to-do entries that are new
//! since their last mail: the same entries as their dashboard and the header's badge
//! (`app::services::dashboard::todo`), one mail per team, in the language they last used the
//! app in. What was mailed is recorded (`notification_mail`), so no entry is mailed twice; an
//! entry is recorded only once its mail was accepted by the server, so a failed send is retried
//! on the next pass.
//!
//! The same passes send the security notices queued in `security_mail` (a user's second factor
//! switched on, off, locked or unlocked, a recovery code used, new recovery codes, an API token
//! created, the password changed; [`security_pass`]), each once, in the user's language or in
//! both when it is not known.
//!
//! And the mail to vendors invited to a request for quotation ([`rfq_pass`]): the invitation
//! with the vendor's link, queued in `rfq_mail` with the link; one reminder a day before the
//! close to a vendor that has not submitted, queued by the pass itself; the receipt of each
//! submitted revision. Each is sent once, in English and 简体中文 (a vendor's language is not
//! known); once the server accepted it its text is blanked, so the link is not kept.

use crate::config::MailConfig;
use app::{
    domain::{
        dashboard::Todo,
        quotes::Date,
        rfq::{
            Phase,
            mail::{REMINDER_BEFORE_CLOSE, reminder_due, still_worth_sending},
        },
    },
    error::AppError,
    i18n::{Locale, Msg},
    services::dashboard as todo,
    store::{self, Db, notification_mail, rfq_mail, security_mail},
    texts::{dashboard as words, rfq_mail as vendor_words, security_mail as notice_words},
    views::UserSummary,
};
use lettre::{
    Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Mailbox, header::ContentType},
};
use std::time::Duration;

/// Why the mail could not be set up or sent.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The settings are incomplete or do not read.
    #[error("mail settings: {0}")]
    Config(String),
    /// The SMTP server refused or could not be reached.
    #[error("smtp: {0}")]
    Smtp(#[from] lettre::transport::smtp::Error),
    /// A message could not be built (e.g. an address that does not parse).
    #[error("message: {0}")]
    Message(String),
    /// Loading the to-do or recording what was sent failed.
    #[error("database: {0}")]
    App(#[from] AppError),
}

impl From<sqlx::Error> for MailError {
    fn from(e: sqlx::Error) -> Self {
        MailError::App(AppError::from(e))
    }
}

/// Sends to-do mail through one SMTP server.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// Links in the mail start with this (no trailing slash).
    public_url: String,
}

impl Mailer {
    /// The mailer the settings describe; `Ok(None)` when no SMTP server is configured.
    ///
    /// # Errors
    /// A URL that does not read, or a URL without a sender.
    pub fn from_config(cfg: &MailConfig, public_url: &str) -> Result<Option<Mailer>, MailError> {
        let Some(url) = cfg.smtp_url.as_deref().filter(|u| !u.trim().is_empty()) else {
            return Ok(None);
        };
        let from = cfg
            .smtp_from
            .as_deref()
            .ok_or_else(|| MailError::Config("NODELEDGER_SMTP_FROM is required with NODELEDGER_SMTP_URL".into()))?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.trim())?.build();
        Ok(Some(Mailer::new(transport, from, public_url)?))
    }

    /// A mailer over `transport`, sending as `from`, linking to `public_url`.
    ///
    /// # Errors
    /// A sender that is not a mailbox.
    pub fn new(
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: &str,
        public_url: &str,
    ) -> Result<Mailer, MailError> {
        let from = from
            .parse()
            .map_err(|e| MailError::Config(format!("NODELEDGER_SMTP_FROM {from:?}: {e}")))?;
        Ok(Mailer {
            transport,
            from,
            public_url: public_url.trim_end_matches('/').to_string(),
        })
    }
}

/// What one pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    /// Mails accepted by the server.
    pub mails: usize,
    /// To-do entries in them.
    pub entries: usize,
    /// Mails that could not be built or were refused (tried again next pass).
    pub failed: usize,
}

/// Mails the new to-do entries every `interval`, until the server stops. A failed pass is logged
/// and tried again at the next tick.
pub async fn run(mailer: Mailer, db: Db, interval: Duration) {
    let mut tick = tokio::time::interval(interval);
    loop {
        tick.tick().await;
        match security_pass(&mailer, &db).await {
            Ok(sent) if sent > 0 => tracing::info!(sent, "security notices mailed"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "security notice pass failed"),
        }
        match rfq_pass(&mailer, &db, store::now_unix()).await {
            Ok(p) if p != RfqPass::default() => tracing::info!(
                reminders = p.reminders,
                sent = p.sent,
                dropped = p.dropped,
                failed = p.failed,
                "vendor mail pass"
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "vendor mail pass failed"),
        }
        match pass(&mailer, &db, store::today()).await {
            Ok(p) if p.mails + p.failed > 0 => {
                tracing::info!(
                    mails = p.mails,
                    entries = p.entries,
                    failed = p.failed,
                    "to-do mail pass"
                );
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "to-do mail pass failed"),
        }
    }
}

/// One pass: for every enabled user, each team's to-do (and an administrator's site-wide one),
/// less what was mailed before; one mail per team with something new.
///
/// A mail that cannot be built or sent is logged, counted in [`Pass::failed`] and left for the
/// next pass; the other users' mail goes out.
///
/// # Errors
/// The first failure to load or record; what was sent before it stays recorded.
pub async fn pass(mailer: &Mailer, db: &Db, today: Date) -> Result<Pass, MailError> {
    let mut done = Pass::default();
    let mut failed = 0;
    for user in store::users::list(db).await?.into_iter().filter(|u| !u.disabled) {
        let locale = notification_mail::locale(db, user.id).await?.unwrap_or_default();
        for group in groups(db, &user, today).await? {
            let keys: Vec<String> = group
                .entries
                .iter()
                .map(|e| format!("{}:{}", group.prefix, e.key()))
                .collect();
            let sent = notification_mail::already_sent(db, user.id, &keys).await?;
            let new: Vec<(&Todo, &String)> = group
                .entries
                .iter()
                .zip(&keys)
                .filter(|(_, k)| !sent.contains(k))
                .collect();
            if new.is_empty() {
                continue;
            }
            let entries: Vec<&Todo> = new.iter().map(|(e, _)| *e).collect();
            let sent = match mailer.message(&user, locale, group.team.as_deref(), &entries) {
                Ok(message) => mailer.transport.send(message).await.map_err(MailError::from),
                Err(e) => Err(e),
            };
            if let Err(e) = sent {
                // This user's mail waits for the next pass; the others go out now.
                tracing::warn!(error = %e, user = user.id, "to-do mail not sent");
                failed += 1;
                continue;
            }
            let keys: Vec<String> = new.into_iter().map(|(_, k)| k.clone()).collect();
            let mut tx = store::begin_write(db).await?;
            notification_mail::record_sent(&mut tx, user.id, &keys).await?;
            tx.commit().await?;
            done.mails += 1;
            done.entries += keys.len();
        }
    }
    done.failed = failed;
    Ok(done)
}

/// The entries of one mail: a team's (named) or the site's (`team: None`).
struct Group {
    /// What the recorded keys start with: `t<team id>` or `site`.
    prefix: String,
    team: Option<String>,
    entries: Vec<Todo>,
}

async fn groups(db: &Db, user: &UserSummary, today: Date) -> Result<Vec<Group>, MailError> {
    let mut groups = Vec::new();
    for m in store::memberships::of_user(db, user.id).await? {
        let entries = todo::team_todo(db, user.id, &m, today).await?;
        groups.push(Group {
            prefix: format!("t{}", m.team_id),
            team: Some(m.team_name),
            entries,
        });
    }
    if user.is_admin {
        groups.push(Group {
            prefix: "site".into(),
            team: None,
            entries: todo::admin_todo(db).await?,
        });
    }
    Ok(groups)
}

impl Mailer {
    /// The mail of `entries` to `user`: each entry's line, its detail and its link.
    fn message(
        &self,
        user: &UserSummary,
        locale: Locale,
        team: Option<&str>,
        entries: &[&Todo],
    ) -> Result<Message, MailError> {
        let n = entries.len().to_string();
        let (subject, intro) = match team {
            Some(team) => (
                locale.fmt(Msg::MailSubject, &[("n", &n), ("team", team)]),
                locale.fmt(Msg::MailIntro, &[("team", team)]),
            ),
            None => (
                locale.fmt(Msg::MailSubjectSite, &[("n", &n)]),
                locale.t(Msg::MailIntroSite).to_string(),
            ),
        };
        let mut body = format!("{intro}\n\n");
        for entry in entries {
            body.push_str(&format!("- {}\n", words::todo(locale, entry)));
            if let Some(detail) = words::todo_detail(locale, entry) {
                body.push_str(&format!("  {detail}\n"));
            }
            body.push_str(&format!("  {}{}\n\n", self.public_url, entry.href()));
        }
        body.push_str(locale.t(Msg::MailFooter));
        body.push('\n');
        self.plain_mail(&user.email, &user.display_name, subject, body)
    }

    /// A plain-text mail from the site to `name <email>`.
    fn plain_mail(&self, email: &str, name: &str, subject: String, body: String) -> Result<Message, MailError> {
        let address: Address = email
            .parse()
            .map_err(|e| MailError::Message(format!("recipient {email}: {e}")))?;
        Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(Some(name.to_string()), address))
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .map_err(|e| MailError::Message(e.to_string()))
    }
}

/// Security notices sent per pass at most (the rest wait for the next).
const NOTICES_PER_PASS: i64 = 200;

/// Sends the queued security notices; how many were accepted. A notice that cannot be built or
/// sent is logged and tried again next pass; one whose user is gone is dropped as sent.
///
/// # Errors
/// The first failure to load or record.
pub async fn security_pass(mailer: &Mailer, db: &Db) -> Result<usize, MailError> {
    let mut sent = 0;
    for notice in security_mail::unsent(db, NOTICES_PER_PASS).await? {
        let Some(user) = store::users::by_id(db, notice.user_id).await? else {
            mark_sent(db, notice.id).await?;
            continue;
        };
        let locale = notification_mail::locale(db, user.id).await?;
        let result = match mailer.notice_message(&user.email, &user.display_name, locale, &notice) {
            Ok(message) => mailer.transport.send(message).await.map_err(MailError::from),
            Err(e) => Err(e),
        };
        match result {
            Ok(_) => {
                mark_sent(db, notice.id).await?;
                sent += 1;
            }
            Err(e) => tracing::warn!(error = %e, user = user.id, notice = notice.id, "security notice not sent"),
        }
    }
    Ok(sent)
}

async fn mark_sent(db: &Db, id: i64) -> Result<(), MailError> {
    let mut tx = store::begin_write(db).await?;
    security_mail::mark_sent(&mut tx, id).await?;
    tx.commit().await?;
    Ok(())
}

impl Mailer {
    /// The mail of one security notice to its user.
    fn notice_message(
        &self,
        email: &str,
        name: &str,
        locale: Option<Locale>,
        notice: &security_mail::Notice,
    ) -> Result<Message, MailError> {
        let body = notice_words::body(locale, email, &notice.at, notice.action, &notice.data, &self.public_url);
        self.plain_mail(email, name, notice_words::subject(locale, notice.action), body)
    }
}

/// Vendor mails sent per pass at most (the rest wait for the next).
const VENDOR_MAILS_PER_PASS: i64 = 200;

/// What one vendor mail pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RfqPass {
    /// Reminders queued (sent in the same pass unless they failed).
    pub reminders: usize,
    /// Mails accepted by the server.
    pub sent: usize,
    /// Queued mails that no longer held (a revoked link, a request closed, a reminder to a
    /// vendor that has submitted since): dropped unsent.
    pub dropped: usize,
    /// Mails that could not be built or were refused (tried again next pass).
    pub failed: usize,
}

/// Queues the reminders due at `now` (Unix seconds), then sends the queued vendor mail: each
/// mail once, its text blanked when the server accepted it. A mail that cannot be built or sent
/// is logged and tried again next pass.
///
/// # Errors
/// The first failure to load or record; what was sent before it stays recorded.
pub async fn rfq_pass(mailer: &Mailer, db: &Db, now: i64) -> Result<RfqPass, MailError> {
    let mut done = RfqPass {
        reminders: queue_reminders(db, now).await?,
        ..RfqPass::default()
    };
    for mail in rfq_mail::unsent(db, VENDOR_MAILS_PER_PASS).await? {
        let phase = Phase::at(now, mail.close_at, mail.closed_at);
        if !still_worth_sending(mail.facts.kind(), phase, mail.revoked, mail.has_bid) {
            let mut tx = store::begin_write(db).await?;
            rfq_mail::drop_unsent(&mut tx, mail.id).await?;
            tx.commit().await?;
            done.dropped += 1;
            continue;
        }
        let result = match mailer.vendor_message(&mail) {
            Ok(message) => mailer.transport.send(message).await.map_err(MailError::from),
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, mail = mail.id, invitation = mail.invitation_id, "vendor mail not sent");
            done.failed += 1;
            continue;
        }
        let mut tx = store::begin_write(db).await?;
        rfq_mail::mark_sent(&mut tx, mail.id, now).await?;
        tx.commit().await?;
        done.sent += 1;
    }
    Ok(done)
}

/// Queues the reminder of every invitation that is due one at `now`; how many.
async fn queue_reminders(db: &Db, now: i64) -> Result<usize, MailError> {
    let due: Vec<i64> = rfq_mail::reminder_candidates(db, now, REMINDER_BEFORE_CLOSE)
        .await?
        .into_iter()
        .filter(|(_, c)| reminder_due(now, c))
        .map(|(id, _)| id)
        .collect();
    if due.is_empty() {
        return Ok(0);
    }
    let mut queued = 0;
    let mut tx = store::begin_write(db).await?;
    for id in due {
        if rfq_mail::queue_reminder(&mut tx, id, now).await? {
            queued += 1;
        }
    }
    tx.commit().await?;
    Ok(queued)
}

impl Mailer {
    /// The mail of one queued vendor mail, to the invitation's address.
    fn vendor_message(&self, mail: &rfq_mail::Queued) -> Result<Message, MailError> {
        let words = vendor_words::VendorMail {
            facts: &mail.facts,
            vendor: &mail.vendor,
            title: &mail.title,
            close_at: mail.close_at,
        };
        let body = vendor_words::body(&words, &self.public_url);
        self.plain_mail(&mail.email, &mail.vendor, vendor_words::subject(&words), body)
    }
}
