-- After the purchase (issue 15): the rental that follows an approved order.
--
-- One rental per approved order. The node(s) run from `started_at`; `planned_end_at` is the start
-- plus the frozen estimate's time to finish; `stopped_at` is when compute was stopped (the vendor
-- may keep billing disks and addresses: shutting down is not releasing); `released_at` is when
-- every resource was given back and billing ends. Times are UTC, RFC 3339 with a `Z`
-- ("2026-12-01T08:00:00Z"), so text order is time order.
--
-- The actual hours the estimate assumed (setup, data preparation, failed re-runs) are recorded
-- by the team when it releases the rental, as exact decimals in text (NULL until recorded): they
-- are what the next estimate of the same kind of workload learns from.
CREATE TABLE rentals (
    id                INTEGER PRIMARY KEY,
    team_id           INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    order_id          INTEGER NOT NULL UNIQUE REFERENCES orders (id) ON DELETE CASCADE,
    -- The approved revision the rental follows (its frozen estimate is what the bill is
    -- reconciled against).
    order_revision_id INTEGER NOT NULL REFERENCES order_revisions (id),
    started_at        TEXT    NOT NULL,
    planned_end_at    TEXT    NOT NULL,
    stopped_at        TEXT,
    released_at       TEXT,
    setup_hours       TEXT,
    data_prep_hours   TEXT,
    rerun_hours       TEXT,
    note              TEXT    NOT NULL DEFAULT '' CHECK (length(note) <= 2000),
    created_by        INTEGER NOT NULL REFERENCES users (id),
    created_at        TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    CHECK (planned_end_at >= started_at),
    CHECK (stopped_at IS NULL OR stopped_at >= started_at),
    CHECK (released_at IS NULL OR released_at >= started_at)
) STRICT;
CREATE INDEX rentals_by_team ON rentals (team_id, id DESC);

-- The vendor's ids of what the rental holds (instances, disks, addresses), as they appear in a
-- bill's `ResourceId` column: bill lines are matched to the rental by these ids and by period.
CREATE TABLE rental_resources (
    rental_id   INTEGER NOT NULL REFERENCES rentals (id) ON DELETE CASCADE,
    resource_id TEXT    NOT NULL CHECK (length(resource_id) BETWEEN 1 AND 200),
    PRIMARY KEY (rental_id, resource_id)
) STRICT;
CREATE INDEX rental_resources_by_id ON rental_resources (resource_id);

-- The team's actuals feed the cost comparison's defaults: a change to a rental makes the team's
-- cached comparisons stale (see 20261202000007_load.sql).
CREATE TRIGGER rentals_insert_version AFTER INSERT ON rentals BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER rentals_update_version AFTER UPDATE ON rentals BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER rentals_delete_version AFTER DELETE ON rentals BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (OLD.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;
