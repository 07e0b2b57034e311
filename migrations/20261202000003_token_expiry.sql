-- API tokens expire and say why they were revoked (issue 13, ASVS 5.0 level 2).
-- Never edit an applied migration: add a new one (see migrations/README.md).

-- When the token stops working (RFC 3339 UTC). Every token made from now on has one (7, 30, 90
-- or 365 days after creation, chosen by the user); tokens made before get 90 days from their
-- creation. A token without one is refused (the lookup compares it with now).
ALTER TABLE api_tokens ADD COLUMN expires_at TEXT;
UPDATE api_tokens SET expires_at = strftime('%Y-%m-%dT%H:%M:%SZ', created_at, '+90 days') WHERE expires_at IS NULL;

-- Why it was revoked: by its owner, or with every token of the user when their password changed
-- or an administrator disabled them (a re-enabled user's tokens stay revoked).
ALTER TABLE api_tokens ADD COLUMN revoked_reason TEXT
    CHECK (revoked_reason IN ('owner', 'password_changed', 'user_disabled'));
UPDATE api_tokens SET revoked_reason = 'owner' WHERE revoked_at IS NOT NULL;
