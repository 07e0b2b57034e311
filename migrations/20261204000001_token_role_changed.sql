-- A user's API tokens of a team are revoked when they leave it or their role there changes
-- (`role_changed`): a token whose user rejoined with the role it was made with must not work
-- again. Never edit an applied migration: add a new one (see migrations/README.md).

-- SQLite cannot change a column's CHECK: the table is rebuilt with the new reason allowed (no
-- other table refers to it).
CREATE TABLE api_tokens_new (
    id             INTEGER PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    team_id        INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    role           TEXT    NOT NULL CHECK (role IN ('procurement', 'engineer', 'manager')),
    name           TEXT    NOT NULL,
    token_hash     TEXT    NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    -- The first characters of the token, so users can tell their tokens apart.
    prefix         TEXT    NOT NULL,
    created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    last_used_at   TEXT,
    revoked_at     TEXT,
    expires_at     TEXT,
    revoked_reason TEXT
        CHECK (revoked_reason IN ('owner', 'password_changed', 'user_disabled', 'role_changed'))
) STRICT;
INSERT INTO api_tokens_new (id, user_id, team_id, role, name, token_hash, prefix, created_at,
                            last_used_at, revoked_at, expires_at, revoked_reason)
    SELECT id, user_id, team_id, role, name, token_hash, prefix, created_at,
           last_used_at, revoked_at, expires_at, revoked_reason
    FROM api_tokens;
DROP TABLE api_tokens;
ALTER TABLE api_tokens_new RENAME TO api_tokens;
CREATE INDEX api_tokens_by_user ON api_tokens (user_id);

-- Tokens that only sleep because their user left the team or holds another role there now
-- would wake up when the user gets that role back: revoke them now.
UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), revoked_reason = 'role_changed'
WHERE revoked_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM memberships m
                  WHERE m.user_id = api_tokens.user_id AND m.team_id = api_tokens.team_id
                    AND m.role = api_tokens.role);
