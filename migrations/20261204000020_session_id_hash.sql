-- Sessions are now stored under the SHA-256 of their id (app/src/store/sessions.rs): a row
-- written under the clear id could no longer be found, and keeping it would leave the bearer
-- secret in the database. They are deleted: everyone signs in again once.
DELETE FROM sessions;
