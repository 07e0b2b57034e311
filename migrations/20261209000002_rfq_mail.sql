-- The mail to invited vendors (sent by the server's mail pass when SMTP is configured; rules in
-- app/domain/src/rfq/mail.rs): the invitation with the vendor's link, one reminder before the
-- close, a receipt per submitted revision.
--
-- `body` is what the mail says (JSON, `rfq::mail::MailFacts`) and is kept only until the mail
-- server accepted the mail: an invitation's names the secret link, so the row is blanked when
-- it is sent (the CHECK makes a sent row with text impossible) and stays as the record that,
-- and when, it was sent.
CREATE TABLE rfq_mail (
    id            INTEGER PRIMARY KEY,
    invitation_id INTEGER NOT NULL REFERENCES rfq_invitations (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('invitation', 'reminder', 'receipt')),
    body          TEXT    NOT NULL,
    -- Unix seconds (UTC).
    created_at    INTEGER NOT NULL,
    sent_at       INTEGER,
    CHECK (sent_at IS NULL OR body = '')
) STRICT;
CREATE INDEX rfq_mail_unsent ON rfq_mail (id) WHERE sent_at IS NULL;
-- One reminder per invitation, ever.
CREATE UNIQUE INDEX rfq_mail_one_reminder ON rfq_mail (invitation_id) WHERE kind = 'reminder';
-- The invitation mail of an invitation, for the reminder's "invited within the last day".
CREATE INDEX rfq_mail_by_invitation ON rfq_mail (invitation_id, kind);
