-- Quotes: vendors, quotes with immutable revisions (node spec + price sheet), workloads,
-- exchange rates, and the vendor's original quote documents. Every row belongs to a team.

CREATE TABLE vendors (
    id            INTEGER PRIMARY KEY,
    team_id       INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL COLLATE NOCASE,
    website       TEXT    NOT NULL DEFAULT '',
    contact       TEXT    NOT NULL DEFAULT '',
    support_scope TEXT    NOT NULL DEFAULT '',
    notes         TEXT    NOT NULL DEFAULT '',
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (team_id, name)
) STRICT;

-- A quote is identified by its vendor and the vendor's reference; its content lives in revisions.
CREATE TABLE quotes (
    id               INTEGER PRIMARY KEY,
    team_id          INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    vendor_id        INTEGER NOT NULL REFERENCES vendors (id),
    reference        TEXT    NOT NULL COLLATE NOCASE,
    latest_revision  INTEGER NOT NULL DEFAULT 1,
    created_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (team_id, vendor_id, reference)
) STRICT;

-- Revisions are never changed: an edit appends a revision; orders point at a revision.
-- `body` is the full quote as JSON (decimals as strings); the other columns are copies of
-- its fields for filtering and sorting.
CREATE TABLE quote_revisions (
    id                   INTEGER PRIMARY KEY,
    quote_id             INTEGER NOT NULL REFERENCES quotes (id) ON DELETE CASCADE,
    team_id              INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    revision             INTEGER NOT NULL CHECK (revision >= 1),
    received_on          TEXT    NOT NULL,
    valid_until          TEXT    NOT NULL,
    currency             TEXT    NOT NULL,
    gpu_model            TEXT    NOT NULL COLLATE NOCASE,
    gpus_per_node        INTEGER NOT NULL CHECK (gpus_per_node >= 1),
    vram_mib             INTEGER NOT NULL CHECK (vram_mib > 0),
    exclusive            INTEGER NOT NULL CHECK (exclusive IN (0, 1)),
    region               TEXT    NOT NULL DEFAULT '' COLLATE NOCASE,
    -- Hourly on-demand price of a whole node in millionths of the currency unit: a sort key
    -- only; the exact price is in `body`.
    node_hourly_micros   INTEGER NOT NULL CHECK (node_hourly_micros >= 0),
    body                 TEXT    NOT NULL CHECK (json_valid(body)),
    created_by           INTEGER REFERENCES users (id),
    created_at           TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (quote_id, revision)
) STRICT;
CREATE INDEX quote_revisions_by_team_price ON quote_revisions (team_id, node_hourly_micros);
CREATE INDEX quote_revisions_by_team_gpu ON quote_revisions (team_id, gpu_model);
CREATE INDEX quote_revisions_by_team_valid ON quote_revisions (team_id, valid_until);

CREATE TRIGGER quote_revisions_are_immutable
BEFORE UPDATE ON quote_revisions
BEGIN
    SELECT RAISE(ABORT, 'quote revisions are immutable: add a revision');
END;

-- The vendor's original quote document (PDF or image), attached to one revision.
CREATE TABLE quote_documents (
    id           INTEGER PRIMARY KEY,
    revision_id  INTEGER NOT NULL REFERENCES quote_revisions (id) ON DELETE CASCADE,
    team_id      INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    file_name    TEXT    NOT NULL,
    content_type TEXT    NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg', 'image/webp')),
    sha256       TEXT    NOT NULL CHECK (length(sha256) = 64),
    bytes        BLOB    NOT NULL,
    created_by   INTEGER REFERENCES users (id),
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;
CREATE INDEX quote_documents_by_revision ON quote_documents (revision_id);

CREATE TABLE workloads (
    id          INTEGER PRIMARY KEY,
    team_id     INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL COLLATE NOCASE,
    body        TEXT    NOT NULL CHECK (json_valid(body)),
    created_by  INTEGER REFERENCES users (id),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (team_id, name)
) STRICT;

-- A team's exchange rates: 1 unit of `from_currency` = `rate` units of `to_currency` on `rate_date`.
CREATE TABLE exchange_rates (
    id            INTEGER PRIMARY KEY,
    team_id       INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    from_currency TEXT    NOT NULL CHECK (length(from_currency) = 3),
    to_currency   TEXT    NOT NULL CHECK (length(to_currency) = 3 AND to_currency <> from_currency),
    rate          TEXT    NOT NULL,
    rate_date     TEXT    NOT NULL,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (team_id, from_currency, to_currency, rate_date)
) STRICT;

-- A team's base currency for converted totals.
ALTER TABLE teams ADD COLUMN base_currency TEXT NOT NULL DEFAULT 'CNY' CHECK (length(base_currency) = 3);
