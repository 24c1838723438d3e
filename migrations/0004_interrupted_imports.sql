-- A fourth import status, 'interrupted': the run stopped without saying so
-- (killed, power lost). Until now such a run stayed 'running' for ever. The
-- importer now holds a lock while it runs (an OS file lock on the file
-- `<archive>-import`, shared by concurrent imports), and the next import
-- that finds no other holding it marks every 'running' row 'interrupted'.
-- Rows of runs already dead when this file is applied change at that
-- import too.
--
-- SQLite cannot change a CHECK in place: the standard rebuild, run with
-- foreign keys off and checked before commit. The columns, their order and
-- the ids are unchanged.

CREATE TABLE imports_rebuilt (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- NULL until the run completes: a killed or failed run keeps NULL here.
    finished_at TEXT,
    -- 'running' while the import runs; then 'finished', 'failed' (it
    -- stopped on an error, in `error`) or 'interrupted' (killed).
    status      TEXT NOT NULL DEFAULT 'running'
                CHECK (status = 'running' OR status = 'finished' OR status = 'failed'
                       OR status = 'interrupted'),
    -- The command line, as a JSON array of strings.
    arguments   TEXT NOT NULL,
    -- Counts of input lines, kept current with every committed batch.
    lines       INTEGER NOT NULL DEFAULT 0,
    stored      INTEGER NOT NULL DEFAULT 0,
    duplicates  INTEGER NOT NULL DEFAULT 0,
    rejected    INTEGER NOT NULL DEFAULT 0,
    skipped     INTEGER NOT NULL DEFAULT 0,
    -- Why a failed run stopped.
    error       TEXT,
    -- Lines of an import that were isomorphs of a stored puzzle (a subset
    -- of its duplicates).
    isomorphs   INTEGER NOT NULL DEFAULT 0
);

INSERT INTO imports_rebuilt
    (id, started_at, finished_at, status, arguments, lines, stored, duplicates, rejected,
     skipped, error, isomorphs)
SELECT id, started_at, finished_at, status, arguments, lines, stored, duplicates, rejected,
     skipped, error, isomorphs
FROM imports;

DROP TABLE imports;
ALTER TABLE imports_rebuilt RENAME TO imports;
