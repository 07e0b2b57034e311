-- Optional e-mail of the to-do lists (`NODELEDGER_SMTP_URL`): what was mailed to whom, so a
-- later pass mails only what is new, and the language each user last used the app in.

-- One row per to-do entry mailed to a user. `entry` is `t<team id>:<entry key>` for a team's
-- entries and `site:<entry key>` for an administrator's (see app/src/domain/dashboard).
CREATE TABLE notification_mail (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    entry   TEXT    NOT NULL,
    sent_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (user_id, entry)
) STRICT, WITHOUT ROWID;

-- The language a user's mail is written in: the one their browser last showed the app in.
CREATE TABLE user_locales (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    locale  TEXT    NOT NULL CHECK (locale IN ('en', 'zh-CN'))
) STRICT;
