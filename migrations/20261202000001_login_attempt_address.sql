-- Password attempts remember the client address they came from (issue 13 item 3), so failures
-- are throttled per address across accounts as well as per account, and the log can name it.
-- NULL for attempts made before this migration, or when the address is unknown.
ALTER TABLE login_attempts ADD COLUMN address TEXT;
CREATE INDEX login_attempts_by_address ON login_attempts (address, at) WHERE address IS NOT NULL;
