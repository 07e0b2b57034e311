-- Second factor (issue 13, OWASP ASVS 5.0 level 2): TOTP authenticators (RFC 6238), one-time
-- recovery codes, failed code attempts for throttling, and the site setting that requires a
-- second factor for managers and administrators. See app/src/domain/second_factor.rs.

-- One authenticator per user. `confirmed_at` is NULL while enrolment waits for the first code;
-- only a confirmed row asks for codes. `last_step` is the RFC 6238 time step (Unix time / 30) of
-- the last accepted code: a code of that step or an earlier one is refused (no replay).
CREATE TABLE second_factors (
    user_id      INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret       TEXT    NOT NULL,
    confirmed_at TEXT,
    last_step    INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;

-- Recovery codes, stored only as SHA-256 hex of the normalised code; each works once.
CREATE TABLE second_factor_recovery_codes (
    id        INTEGER PRIMARY KEY,
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT    NOT NULL,
    used_at   TEXT,
    UNIQUE (user_id, code_hash)
) STRICT;

-- Wrong codes (authenticator or recovery), Unix seconds: five within 15 minutes lock the code
-- check for 15 minutes. A correct code clears them.
CREATE TABLE second_factor_failures (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    at      INTEGER NOT NULL
) STRICT;
CREATE INDEX second_factor_failures_by_user ON second_factor_failures (user_id, at);

-- Site setting: managers (of any team) and administrators must have a second factor.
ALTER TABLE site ADD COLUMN second_factor_required INTEGER NOT NULL DEFAULT 0
    CHECK (second_factor_required IN (0, 1));
