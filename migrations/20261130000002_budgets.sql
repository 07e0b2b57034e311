-- A budget per workload, in the team's base currency at the time it was set: the cost
-- comparison marks quotes whose total exceeds it.
CREATE TABLE workload_budgets (
    workload_id INTEGER PRIMARY KEY REFERENCES workloads (id) ON DELETE CASCADE,
    team_id     INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    -- Exact decimal, as text.
    amount      TEXT    NOT NULL,
    currency    TEXT    NOT NULL CHECK (length(currency) = 3),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;
