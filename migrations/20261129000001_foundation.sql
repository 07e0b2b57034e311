-- Foundation: users, teams, roles per team, sessions, sign-in attempts, site state.
-- Never edit an applied migration: add a new one (see migrations/README.md).

CREATE TABLE site (
    id                 INTEGER PRIMARY KEY CHECK (id = 1),
    setup_completed_at TEXT
) STRICT;
INSERT INTO site (id, setup_completed_at) VALUES (1, NULL);

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    email         TEXT    NOT NULL COLLATE NOCASE UNIQUE,
    display_name  TEXT    NOT NULL,
    password_hash TEXT    NOT NULL,
    is_admin      INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    -- Bumped on password change and disabling: sessions holding an older epoch end.
    auth_epoch    INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;

CREATE TABLE teams (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL COLLATE NOCASE UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;

CREATE TABLE memberships (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    team_id    INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('procurement', 'engineer', 'manager')),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (user_id, team_id)
) STRICT;
CREATE INDEX memberships_by_team ON memberships (team_id);

-- tower-sessions records (see app/src/store/sessions.rs).
CREATE TABLE sessions (
    id         TEXT    PRIMARY KEY,
    user_id    INTEGER,
    data       BLOB    NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
CREATE INDEX sessions_by_user ON sessions (user_id);

CREATE TABLE login_attempts (
    id        INTEGER PRIMARY KEY,
    email     TEXT    NOT NULL COLLATE NOCASE,
    at        INTEGER NOT NULL,
    succeeded INTEGER NOT NULL CHECK (succeeded IN (0, 1))
) STRICT;
CREATE INDEX login_attempts_by_email ON login_attempts (email, at);
