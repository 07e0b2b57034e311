-- FOCUS bills as the specification defines them.
--
-- 1. `bill_lines.effective_cost`: FOCUS `EffectiveCost`, what a line's usage costs once
--    commitments and prepaid purchases are spread over it (usage covered by a commitment is
--    billed 0 and effectively costs its share; the purchase itself is effectively 0). The
--    reconciliation compares the estimate with it; `cost` stays what the line invoices
--    (`BilledCost`). Lines stored before read their billed cost as their effective cost, which
--    is what they were reconciled at.
-- 2. `component = 'tax'`: tax lines (`ChargeCategory` `Tax`) are shown as tax, so the variance
--    can be stated with and without it. Lines stored before keep `fees`.
-- SQLite cannot widen a CHECK in place, so the table is copied; nothing references it.
CREATE TABLE bill_lines_v2 (
    bill_id        INTEGER NOT NULL REFERENCES bills (id) ON DELETE CASCADE,
    team_id        INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    line           INTEGER NOT NULL CHECK (line >= 2),
    line_key       TEXT    NOT NULL CHECK (length(line_key) = 64),
    resource_id    TEXT    NOT NULL,
    period_start   TEXT    NOT NULL,
    period_end     TEXT    NOT NULL,
    component      TEXT    NOT NULL CHECK (component IN ('compute', 'stopped_compute', 'disk', 'ip', 'traffic', 'snapshots', 'fees', 'tax')),
    kind           TEXT    NOT NULL CHECK (kind IN ('usage', 'credit', 'correction')),
    description    TEXT    NOT NULL,
    sku            TEXT    NOT NULL,
    quantity       TEXT    NOT NULL,
    unit           TEXT    NOT NULL,
    unit_price     TEXT,
    cost           TEXT    NOT NULL,
    effective_cost TEXT    NOT NULL,
    unmatched      TEXT    CHECK (unmatched IS NULL OR unmatched IN ('no_resource', 'other_resource', 'outside_period')),
    PRIMARY KEY (bill_id, line)
) STRICT, WITHOUT ROWID;
INSERT INTO bill_lines_v2 (bill_id, team_id, line, line_key, resource_id, period_start, period_end, component, kind,
                           description, sku, quantity, unit, unit_price, cost, effective_cost, unmatched)
SELECT bill_id, team_id, line, line_key, resource_id, period_start, period_end, component, kind,
       description, sku, quantity, unit, unit_price, cost, cost, unmatched
FROM bill_lines;
DROP TABLE bill_lines;
ALTER TABLE bill_lines_v2 RENAME TO bill_lines;
CREATE UNIQUE INDEX bill_lines_once_per_team ON bill_lines (team_id, line_key);

-- 3. The exchange rate a bill was converted at, kept with the bill: a rate entered later changes
--    no bill already reconciled. `rate` is units of the estimate's currency per unit of the
--    bill's (exact decimal in text), `rate_date` the rate's publication date (YYYY-MM-DD); both
--    NULL when the bill is in the estimate's currency. Bills imported before read the team's
--    rate as they always did (NULL here).
ALTER TABLE bills ADD COLUMN rate TEXT;
ALTER TABLE bills ADD COLUMN rate_date TEXT;
