-- The quote list reads one narrow row per current quote instead of joining every revision to
-- its quote to find the latest: `quote_list` holds the latest revision's filter and sort
-- columns, kept by a trigger on every new revision (revisions themselves stay immutable).
-- The list compares prices in the team's base currency, so its page index holds the currency.
CREATE TABLE quote_list (
    quote_id           INTEGER PRIMARY KEY REFERENCES quotes (id) ON DELETE CASCADE,
    revision_id        INTEGER NOT NULL REFERENCES quote_revisions (id) ON DELETE CASCADE,
    revision           INTEGER NOT NULL,
    team_id            INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    vendor_id          INTEGER NOT NULL,
    received_on        TEXT    NOT NULL,
    valid_until        TEXT    NOT NULL,
    currency           TEXT    NOT NULL,
    gpu_model          TEXT    NOT NULL COLLATE NOCASE,
    gpus_per_node      INTEGER NOT NULL,
    vram_mib           INTEGER NOT NULL,
    exclusive          INTEGER NOT NULL,
    region             TEXT    NOT NULL COLLATE NOCASE,
    node_hourly_micros INTEGER NOT NULL
) STRICT;

INSERT INTO quote_list (quote_id, revision_id, revision, team_id, vendor_id, received_on, valid_until, currency,
                        gpu_model, gpus_per_node, vram_mib, exclusive, region, node_hourly_micros)
SELECT r.quote_id, r.id, r.revision, r.team_id, q.vendor_id, r.received_on, r.valid_until, r.currency,
       r.gpu_model, r.gpus_per_node, r.vram_mib, r.exclusive, r.region, r.node_hourly_micros
FROM quote_revisions r JOIN quotes q ON q.id = r.quote_id AND r.revision = q.latest_revision;

CREATE TRIGGER quote_list_follows_revisions
AFTER INSERT ON quote_revisions
BEGIN
    INSERT INTO quote_list (quote_id, revision_id, revision, team_id, vendor_id, received_on, valid_until, currency,
                            gpu_model, gpus_per_node, vram_mib, exclusive, region, node_hourly_micros)
    SELECT NEW.quote_id, NEW.id, NEW.revision, NEW.team_id, q.vendor_id, NEW.received_on, NEW.valid_until, NEW.currency,
           NEW.gpu_model, NEW.gpus_per_node, NEW.vram_mib, NEW.exclusive, NEW.region, NEW.node_hourly_micros
    FROM quotes q WHERE q.id = NEW.quote_id
    ON CONFLICT (quote_id) DO UPDATE SET
        revision_id = excluded.revision_id, revision = excluded.revision, received_on = excluded.received_on,
        valid_until = excluded.valid_until, currency = excluded.currency, gpu_model = excluded.gpu_model,
        gpus_per_node = excluded.gpus_per_node, vram_mib = excluded.vram_mib, exclusive = excluded.exclusive,
        region = excluded.region, node_hourly_micros = excluded.node_hourly_micros
    WHERE excluded.revision > quote_list.revision;
END;

CREATE INDEX quote_list_page ON quote_list (team_id, valid_until, currency, node_hourly_micros, revision_id);
CREATE INDEX quote_list_by_price ON quote_list (team_id, node_hourly_micros);
CREATE INDEX quote_list_by_currency ON quote_list (team_id, currency);
-- The list no longer reads revisions by team and validity.
DROP INDEX quote_revisions_list;
