-- Requests for quotation: one request from a workload to several vendors, a link per vendor,
-- bids sealed until the close (app/domain/src/rfq).

CREATE TABLE rfq_requests (
    id                  INTEGER PRIMARY KEY,
    team_id             INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    title               TEXT    NOT NULL,
    -- What is needed, frozen from the workload (JSON, `rfq::needs::Needs`, versioned).
    needs               TEXT    NOT NULL,
    -- The questions, in order: JSON `[[item id or "", question], ...]`.
    questions           TEXT    NOT NULL,
    -- The moment bids close, Unix seconds (UTC).
    close_at            INTEGER NOT NULL,
    -- When the bids were opened (made quotes); NULL while sealed.
    closed_at           INTEGER,
    -- Why procurement closed before `close_at`; NULL when it closed on time.
    closed_early_reason TEXT,
    created_by          INTEGER NOT NULL REFERENCES users (id),
    created_at          INTEGER NOT NULL
) STRICT;
CREATE INDEX rfq_requests_by_team ON rfq_requests (team_id, id);

-- One invited vendor of a request, with the hash of its link (the link itself is never stored).
CREATE TABLE rfq_invitations (
    id          INTEGER PRIMARY KEY,
    request_id  INTEGER NOT NULL REFERENCES rfq_requests (id) ON DELETE CASCADE,
    vendor_id   INTEGER NOT NULL REFERENCES vendors (id),
    email       TEXT    NOT NULL,
    link_hash   TEXT    NOT NULL UNIQUE CHECK (length(link_hash) = 64),
    revoked_at  INTEGER,
    created_at  INTEGER NOT NULL,
    UNIQUE (request_id, vendor_id)
) STRICT;

-- What the vendor is typing: one draft per invitation, replaced at each save.
CREATE TABLE rfq_drafts (
    invitation_id INTEGER PRIMARY KEY REFERENCES rfq_invitations (id) ON DELETE CASCADE,
    -- JSON: {"fields": {column: text}, "answers": {index: text}}
    body          TEXT    NOT NULL,
    saved_at      INTEGER NOT NULL
) STRICT;

-- Every submitted revision, never changed: the bid as hashed (`rfq::bid::BidRecord`).
CREATE TABLE rfq_bids (
    id                INTEGER PRIMARY KEY,
    invitation_id     INTEGER NOT NULL REFERENCES rfq_invitations (id) ON DELETE CASCADE,
    revision          INTEGER NOT NULL CHECK (revision >= 1),
    body              TEXT    NOT NULL,
    receipt           TEXT    NOT NULL CHECK (length(receipt) = 64),
    submitted_at      INTEGER NOT NULL,
    -- The quote revision the bid became at the close (the last revision of each vendor only).
    quote_revision_id INTEGER REFERENCES quote_revisions (id),
    UNIQUE (invitation_id, revision)
) STRICT;
CREATE INDEX rfq_bids_by_quote ON rfq_bids (quote_revision_id) WHERE quote_revision_id IS NOT NULL;
