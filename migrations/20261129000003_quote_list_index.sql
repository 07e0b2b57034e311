-- The quote list counts and pages a team's current quotes from an index alone
-- (see store::quotes::list): team, validity, price, and the columns of the latest-revision join.
CREATE INDEX quote_revisions_list ON quote_revisions (team_id, valid_until, node_hourly_micros, quote_id, revision);
