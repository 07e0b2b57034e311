-- A vendor's attachments to its bid (a PDF price sheet): kept with the invitation, listed in
-- each submitted revision by name and SHA-256, and copied to the quote revision at the close.
CREATE TABLE rfq_files (
    id            INTEGER PRIMARY KEY,
    invitation_id INTEGER NOT NULL REFERENCES rfq_invitations (id) ON DELETE CASCADE,
    file_name     TEXT    NOT NULL,
    content_type  TEXT    NOT NULL CHECK (content_type = 'application/pdf'),
    sha256        TEXT    NOT NULL CHECK (length(sha256) = 64),
    bytes         BLOB    NOT NULL,
    created_at    INTEGER NOT NULL,
    UNIQUE (invitation_id, sha256)
) STRICT;
