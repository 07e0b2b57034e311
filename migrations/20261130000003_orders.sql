-- Orders: one team's decision to rent, as revisions (draft → submitted → approved/rejected; a
-- change after a decision starts a new revision), and the tamper-evident audit trail.

CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    team_id     INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    title       TEXT    NOT NULL,
    workload_id INTEGER NOT NULL REFERENCES workloads (id),
    created_by  INTEGER NOT NULL REFERENCES users (id),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;
CREATE INDEX orders_by_team ON orders (team_id, id DESC);

-- `content` is the revision's whole record as canonical JSON (chosen quote revision, quotes
-- considered, runs, waiver, checklist answers, the cost comparison frozen at submission); it
-- changes only while the revision is a draft.
CREATE TABLE order_revisions (
    id               INTEGER PRIMARY KEY,
    order_id         INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    team_id          INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    revision         INTEGER NOT NULL CHECK (revision >= 1),
    state            TEXT    NOT NULL CHECK (state IN ('draft', 'submitted', 'approved', 'rejected')),
    content          TEXT    NOT NULL CHECK (json_valid(content)),
    submitted_by     INTEGER REFERENCES users (id),
    submitted_at     TEXT,
    decided_by       INTEGER REFERENCES users (id),
    decided_at       TEXT,
    decision_comment TEXT    NOT NULL DEFAULT '',
    -- SHA-256 of `content` (canonical JSON) when approved; also in the approval's audit event.
    content_hash     TEXT,
    UNIQUE (order_id, revision)
) STRICT;

CREATE TRIGGER approved_order_revisions_are_locked
BEFORE UPDATE ON order_revisions WHEN OLD.state = 'approved'
BEGIN
    SELECT RAISE(ABORT, 'approved order revisions are locked: reopen the order to change it');
END;

CREATE TRIGGER decided_order_revisions_are_kept
BEFORE DELETE ON order_revisions WHEN OLD.state IN ('approved', 'rejected', 'submitted')
BEGIN
    SELECT RAISE(ABORT, 'decided order revisions are kept');
END;

-- One hash chain for the whole database: seq 1, 2, 3…; each event's `prev_hash` is the previous
-- event's `hash` (64 zeros for seq 1); `hash` = SHA-256 of the canonical JSON of
-- {action, actor_id, at, data, order_id, prev_hash, seq} (see app/src/domain/audit/mod.rs).
CREATE TABLE audit_events (
    seq       INTEGER PRIMARY KEY CHECK (seq >= 1),
    order_id  INTEGER NOT NULL,
    actor_id  INTEGER NOT NULL,
    at        TEXT    NOT NULL,
    action    TEXT    NOT NULL,
    data      TEXT    NOT NULL,
    prev_hash TEXT    NOT NULL CHECK (length(prev_hash) = 64),
    hash      TEXT    NOT NULL UNIQUE CHECK (length(hash) = 64)
) STRICT;
CREATE INDEX audit_events_by_order ON audit_events (order_id, seq);

CREATE TRIGGER audit_events_are_append_only_update
BEFORE UPDATE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit events are append-only');
END;

CREATE TRIGGER audit_events_are_append_only_delete
BEFORE DELETE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit events are append-only');
END;
