-- A counter per team of changes to what a cost comparison reads (issue 13, item 8): the
-- comparison cache keys its entries by this version, so any write to the team's vendors,
-- quotes, revisions, workloads, exchange rates, runs, budgets or base currency — from a page,
-- the API or the CLI — makes every cached comparison of that team stale at once.
-- No foreign key: a team's rows may be deleted (with the team) and still bump its counter.
CREATE TABLE team_data_versions (
    team_id INTEGER PRIMARY KEY,
    version INTEGER NOT NULL
);

CREATE TRIGGER vendors_insert_version AFTER INSERT ON vendors BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER vendors_update_version AFTER UPDATE ON vendors BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER vendors_delete_version AFTER DELETE ON vendors BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (OLD.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER quotes_insert_version AFTER INSERT ON quotes BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER quotes_update_version AFTER UPDATE ON quotes BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER quotes_delete_version AFTER DELETE ON quotes BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (OLD.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER quote_revisions_insert_version AFTER INSERT ON quote_revisions BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER quote_revisions_update_version AFTER UPDATE ON quote_revisions BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER quote_revisions_delete_version AFTER DELETE ON quote_revisions BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (OLD.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER workloads_insert_version AFTER INSERT ON workloads BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER workloads_update_version AFTER UPDATE ON workloads BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER workloads_delete_version AFTER DELETE ON workloads BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (OLD.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER exchange_rates_insert_version AFTER INSERT ON exchange_rates BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER exchange_rates_update_version AFTER UPDATE ON exchange_rates BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER exchange_rates_delete_version AFTER DELETE ON exchange_rates BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (OLD.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER runs_insert_version AFTER INSERT ON runs BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER runs_update_version AFTER UPDATE ON runs BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER runs_delete_version AFTER DELETE ON runs BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (OLD.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER workload_budgets_insert_version AFTER INSERT ON workload_budgets BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER workload_budgets_update_version AFTER UPDATE ON workload_budgets BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER workload_budgets_delete_version AFTER DELETE ON workload_budgets BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (OLD.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER teams_update_version AFTER UPDATE ON teams BEGIN
    INSERT INTO team_data_versions (team_id, version) VALUES (NEW.id, 1)
        ON CONFLICT (team_id) DO UPDATE SET version = version + 1;
END;
