-- What imports took out of the archive, file by file: the provenance rows
-- and rejects of lines that no longer hold what they held, and the puzzles
-- no other line held any more (with their lookup entries).
--
-- Rows are taken out in two cases. A file read again (it changed, or an
-- earlier read of it did not reach its end) supersedes the rows of each
-- line whose content differs, and of the lines past its new end:
-- 'changed'. A read that failed (corrupt compressed data, a file that
-- changed while it was read) takes back everything it wrote: 'failed'.
--
-- A file whose rows were taken out after a complete read of it is no
-- longer known unchanged by that read: the importer reads it again.

CREATE TABLE removals (
    -- The run that took them out.
    import_id INTEGER NOT NULL REFERENCES imports (id),
    file_id   INTEGER NOT NULL REFERENCES files (id),
    reason    TEXT NOT NULL CHECK (reason = 'changed' OR reason = 'failed'),
    -- Provenance rows, reject rows and puzzles taken out.
    sources   INTEGER NOT NULL DEFAULT 0,
    rejects   INTEGER NOT NULL DEFAULT 0,
    puzzles   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (import_id, file_id, reason)
) WITHOUT ROWID;

-- The provenance of a file's lines, by line: what a file read again
-- compares its lines with, a range of it a chunk (the primary key starts
-- with the puzzle, so without this each such read is a scan of all of
-- `sources`). Lines are written in order, so each import appends to it.
CREATE INDEX sources_file_line ON sources (file_id, line);
