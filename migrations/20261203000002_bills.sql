-- The vendor's bill (issue 15): imported onto an approved order that has a rental, every line
-- kept (matched to the rental or not), and the team's variance threshold.
--
-- Amounts, quantities and prices are exact decimals in text. Times are UTC, RFC 3339 with a `Z`
-- ("2026-12-01T08:00:00Z"), so text order is time order.

-- One imported bill file. `file_sha256` refuses importing the same file twice in a team;
-- `period_start`/`period_end` span the lines matched to the rental (the whole file when none
-- matched), and bills of one order may not overlap. `flagged` is the order's variance against
-- the team's threshold when this bill was saved (the latest bill of an order flags it).
CREATE TABLE bills (
    id              INTEGER PRIMARY KEY,
    team_id         INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    order_id        INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    rental_id       INTEGER NOT NULL REFERENCES rentals (id) ON DELETE CASCADE,
    file_name       TEXT    NOT NULL DEFAULT '' CHECK (length(file_name) <= 255),
    file_sha256     TEXT    NOT NULL CHECK (length(file_sha256) = 64),
    layout          TEXT    NOT NULL CHECK (layout IN ('focus', 'nodeledger')),
    currency        TEXT    NOT NULL CHECK (length(currency) = 3),
    period_start    TEXT    NOT NULL,
    period_end      TEXT    NOT NULL,
    line_count      INTEGER NOT NULL CHECK (line_count >= 1),
    matched_count   INTEGER NOT NULL CHECK (matched_count >= 0),
    billed_total    TEXT    NOT NULL,
    -- The order's reconciliation after this bill, in the estimate's currency: what a change of
    -- the threshold re-flags the order from.
    estimated_total TEXT    NOT NULL,
    reconciled_total TEXT   NOT NULL,
    variance_pct    TEXT,
    flagged         INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
    imported_by     INTEGER NOT NULL REFERENCES users (id),
    imported_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (team_id, file_sha256),
    CHECK (period_end >= period_start)
) STRICT;
CREATE INDEX bills_by_order ON bills (team_id, order_id, id);

-- Every line of a bill, as read and classified. `unmatched` is NULL for a line matched to the
-- rental, else why not ('no_resource', 'other_resource', 'outside_period'). `line_key` is a
-- digest of what the line charges (not its position): the same charge imported twice in a team
-- is refused.
CREATE TABLE bill_lines (
    bill_id      INTEGER NOT NULL REFERENCES bills (id) ON DELETE CASCADE,
    team_id      INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    line         INTEGER NOT NULL CHECK (line >= 2),
    line_key     TEXT    NOT NULL CHECK (length(line_key) = 64),
    resource_id  TEXT    NOT NULL,
    period_start TEXT    NOT NULL,
    period_end   TEXT    NOT NULL,
    component    TEXT    NOT NULL CHECK (component IN ('compute', 'stopped_compute', 'disk', 'ip', 'traffic', 'snapshots', 'fees')),
    kind         TEXT    NOT NULL CHECK (kind IN ('usage', 'credit', 'correction')),
    description  TEXT    NOT NULL,
    sku          TEXT    NOT NULL,
    quantity     TEXT    NOT NULL,
    unit         TEXT    NOT NULL,
    unit_price   TEXT,
    cost         TEXT    NOT NULL,
    unmatched    TEXT    CHECK (unmatched IS NULL OR unmatched IN ('no_resource', 'other_resource', 'outside_period')),
    PRIMARY KEY (bill_id, line)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX bill_lines_once_per_team ON bill_lines (team_id, line_key);

-- The team's variance threshold, percent (exact decimal in text); a team without a row uses 10.
CREATE TABLE bill_settings (
    team_id                INTEGER PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
    variance_threshold_pct TEXT    NOT NULL DEFAULT '10',
    updated_by             INTEGER REFERENCES users (id),
    updated_at             TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;
