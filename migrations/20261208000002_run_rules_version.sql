-- The version of the run validity rules the stored verdicts were judged with. When the app's
-- rules are newer (sanity before verdict: broken figures, failed requests, no throughput), the
-- server and `nodeledger migrate` judge every stored run again at start and log which verdicts
-- changed; 0 = judged before the version was kept.
ALTER TABLE site ADD COLUMN run_rules_version INTEGER NOT NULL DEFAULT 0;
