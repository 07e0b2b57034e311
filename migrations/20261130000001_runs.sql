-- Benchmark runs: uploaded result and telemetry files (kept byte for byte), the runs built from
-- them, and the API tokens scripts upload with.

-- One uploaded file, as uploaded, identified per team by its SHA-256. A file belongs to at most
-- one run; a file no run claims (an upload previewed but never saved) is deleted after a day.
CREATE TABLE run_files (
    id          INTEGER PRIMARY KEY,
    team_id     INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    sha256      TEXT    NOT NULL CHECK (length(sha256) = 64),
    file_name   TEXT    NOT NULL,
    size        INTEGER NOT NULL CHECK (size > 0),
    -- The format the file was read as (`vllm`, `nvidia_smi`, …).
    format      TEXT    NOT NULL,
    -- The file alone, as a canonical run (`nodeledger.run/v1`), before merging and judging.
    parsed      TEXT    NOT NULL CHECK (json_valid(parsed)),
    uploaded_by INTEGER NOT NULL REFERENCES users (id),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (team_id, sha256)
) STRICT;

-- The bytes, in chunks of at most 1 MiB, so that neither writing nor reading a 64 MB file
-- needs it whole in memory.
CREATE TABLE run_file_chunks (
    file_id INTEGER NOT NULL REFERENCES run_files (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL CHECK (seq >= 0),
    bytes   BLOB    NOT NULL,
    PRIMARY KEY (file_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE runs (
    id                 INTEGER PRIMARY KEY,
    team_id            INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    -- The quote revision the node was rented under, or a label when the quote is not entered.
    quote_revision_id  INTEGER REFERENCES quote_revisions (id),
    node_label         TEXT    NOT NULL DEFAULT '',
    workload_id        INTEGER REFERENCES workloads (id),
    -- Nodes the run used (scaling efficiency is measured from runs at different counts).
    nodes              INTEGER NOT NULL DEFAULT 1 CHECK (nodes >= 1),
    result_file_id     INTEGER UNIQUE REFERENCES run_files (id),
    telemetry_file_id  INTEGER UNIQUE REFERENCES run_files (id),
    -- The merged, judged canonical run (`nodeledger.run/v1`).
    canonical          TEXT    NOT NULL CHECK (json_valid(canonical)),
    status             TEXT    NOT NULL CHECK (status IN ('valid', 'warn', 'invalid')),
    source_format      TEXT    NOT NULL,
    gpu_name           TEXT,
    throughput_value   REAL,
    throughput_unit    TEXT,
    note               TEXT    NOT NULL DEFAULT '',
    created_by         INTEGER NOT NULL REFERENCES users (id),
    created_at         TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    CHECK (quote_revision_id IS NOT NULL OR node_label <> ''),
    CHECK (result_file_id IS NOT NULL OR telemetry_file_id IS NOT NULL)
) STRICT;
CREATE INDEX runs_by_team ON runs (team_id, id DESC);
CREATE INDEX runs_by_revision ON runs (quote_revision_id);
CREATE INDEX runs_by_workload ON runs (workload_id);

-- API tokens: shown once, stored as SHA-256 (they are 256-bit random, so a fast hash is
-- enough), scoped to one team and the role the user held there when creating it.
CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    team_id      INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    role         TEXT    NOT NULL CHECK (role IN ('procurement', 'engineer', 'manager')),
    name         TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    -- The first characters of the token, so users can tell their tokens apart.
    prefix       TEXT    NOT NULL,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    last_used_at TEXT,
    revoked_at   TEXT
) STRICT;
CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
