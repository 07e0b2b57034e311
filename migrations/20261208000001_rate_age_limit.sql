-- How old an exchange rate may be before the cost page and the order record warn that it is
-- stale: a team setting, 30 days unless the team changes it (a team converting weekly wants
-- fewer, one with a yearly budget rate more).
ALTER TABLE teams ADD COLUMN stale_rate_days INTEGER NOT NULL DEFAULT 30
    CHECK (stale_rate_days BETWEEN 1 AND 3650);
