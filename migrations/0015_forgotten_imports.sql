-- `forget --import N` takes an import back: its provenance rows, rejects
-- and file reads go, and the puzzles no other line holds go with them.
-- What it took out is counted in `removals` like the rest, under the
-- forget's own run, with the reason 'forgotten' (SQLite cannot change a
-- CHECK in place: the table is rebuilt, its rows kept).

CREATE TABLE removals_rebuilt (
    -- The run that took them out.
    import_id INTEGER NOT NULL REFERENCES imports (id),
    file_id   INTEGER NOT NULL REFERENCES files (id),
    -- 'changed': a file read again superseded lines; 'failed': a read that
    -- failed took back what it wrote; 'forgotten': `forget` took an import
    -- back.
    reason    TEXT NOT NULL
              CHECK (reason = 'changed' OR reason = 'failed' OR reason = 'forgotten'),
    -- Provenance rows, reject rows and puzzles taken out.
    sources   INTEGER NOT NULL DEFAULT 0,
    rejects   INTEGER NOT NULL DEFAULT 0,
    puzzles   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (import_id, file_id, reason)
) WITHOUT ROWID;

INSERT INTO removals_rebuilt (import_id, file_id, reason, sources, rejects, puzzles)
SELECT import_id, file_id, reason, sources, rejects, puzzles FROM removals;

DROP TABLE removals;
ALTER TABLE removals_rebuilt RENAME TO removals;
