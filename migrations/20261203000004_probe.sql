-- Issue 16: what `nodeledger probe` recorded about the node a run was measured on (GPUs as
-- nvidia-smi names them, CPU, memory, disks, OS, kernel, container, the command and its exit
-- code), as the JSON of `app::domain::node_facts::NodeFacts`. At most one row per run, written in
-- the same transaction as the run; runs uploaded otherwise have none.
CREATE TABLE run_node_facts (
    run_id    INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    team_id   INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    facts     TEXT    NOT NULL CHECK (json_valid(facts)),
    -- The workload command's exit code (NULL: stopped by the probe after --duration, or unknown).
    exit_code INTEGER
) STRICT;
