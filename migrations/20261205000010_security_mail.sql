-- Security notices mailed to a user about their own account (ASVS 5.0 V6.3.7, V6.4.5): a
-- second factor enrolled, disabled, locked by wrong codes or unlocked by an administrator, a
-- recovery code used, recovery codes made anew, an API token created, the password changed.
-- An outbox: a row is written in the same transaction as the change and its audit event, and the
-- mail pass (server/src/mail.rs) sends it and stamps `sent_at`; without an SMTP server the rows
-- wait. `action` is the audit action's name (app/src/domain/audit/action.rs), `at` when it
-- happened (UTC, seconds), `data` the details the mail names (JSON object).
CREATE TABLE security_mail (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action  TEXT    NOT NULL,
    at      TEXT    NOT NULL,
    data    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
    sent_at TEXT
) STRICT;
CREATE INDEX security_mail_unsent ON security_mail (id) WHERE sent_at IS NULL;
