-- One file, one identity; and what each import read of each file, so that a
-- file whose content was imported in full before is skipped.
--
-- Until now `files.path` was the path as typed, and unique: `x.txt`,
-- `./x.txt` and `/home/u/x.txt` were three files (three rows, and each
-- line's provenance stored three times), while `x.txt` typed in two other
-- folders was one. A file is now known by its canonical absolute path
-- (`real_path`: symlinks, `.` and `..` resolved). `path` stays what people
-- read and query: the spelling the file was first imported under, no longer
-- unique (two folders can each hold an `x.txt`).
--
-- Rows written before this schema have no real path (the folder their
-- import ran in is not known). An import of a file with no row of its own
-- yet takes such a row when its spelling (or its real path) is that row's
-- `path`, as the old importer did, and gives it the real path; from then on
-- that spelling from another folder is another file.
--
-- Standard input is known by its name: `-`, or the one given with
-- `import --stdin-name NAME`.
--
-- SQLite cannot drop a column's UNIQUE in place: the standard rebuild, with
-- foreign keys off and checked before commit. The ids are unchanged; the
-- views that name `files` are dropped and made again as they were.

DROP VIEW provenance;
DROP VIEW rejected_lines;

CREATE TABLE files_rebuilt (
    id        INTEGER PRIMARY KEY,
    -- The name the file was first imported under: the path as typed
    -- (relative to the folder the import ran in), or for standard input
    -- `-` or its `--stdin-name`.
    path      TEXT NOT NULL,
    -- The file's identity: its canonical absolute path. NULL for standard
    -- input, and for files recorded before schema 8 until imported again.
    real_path TEXT,
    -- 'file', or 'stdin' (known by its name in `path`).
    kind      TEXT NOT NULL DEFAULT 'file' CHECK (kind = 'file' OR kind = 'stdin')
);

INSERT INTO files_rebuilt (id, path, real_path, kind)
SELECT id, path, NULL, CASE WHEN path = '-' THEN 'stdin' ELSE 'file' END
FROM files;

DROP TABLE files;
ALTER TABLE files_rebuilt RENAME TO files;

CREATE UNIQUE INDEX files_real_path ON files (real_path);
CREATE UNIQUE INDEX files_stdin_name ON files (path) WHERE kind = 'stdin';
CREATE INDEX files_path ON files (path);

CREATE VIEW provenance AS
SELECT s.puzzle_id, s.import_id, f.path AS file, s.line, s.relation
FROM sources AS s JOIN files AS f ON f.id = s.file_id;

CREATE VIEW rejected_lines AS
SELECT r.import_id, f.path AS file, r.line, r.reason, r.message, r.raw
FROM rejects AS r JOIN files AS f ON f.id = r.file_id;

-- Every file each import read or skipped. A file is skipped (action
-- 'unchanged', its lines not read at all) when an earlier finished import
-- read it to the end, the same way (`read_as`), and its size and content
-- hash are still what that read found; `import --reread` reads it anyway.
CREATE TABLE file_reads (
    file_id      INTEGER NOT NULL REFERENCES files (id),
    import_id    INTEGER NOT NULL REFERENCES imports (id),
    -- 'read': its lines went through the import; 'unchanged': skipped.
    action       TEXT NOT NULL CHECK (action = 'read' OR action = 'unchanged'),
    -- How its lines were read: the program's version, the format (text,
    -- or CSV with its delimiter and column) and the puzzle type asked for.
    read_as      TEXT NOT NULL,
    -- Bytes read, as stored on disk (before any decompression); NULL until
    -- the read reached the end of the file.
    bytes        INTEGER,
    -- XXH128 of those bytes, 32 hex digits as `xxhsum -H2` prints it;
    -- NULL until the read reached the end of the file.
    content_hash TEXT,
    -- 1 once the read reached the end of the file (every line of it then
    -- stored, a duplicate, rejected or skipped by this import); 0 while it
    -- runs, or if the import stopped first.
    complete     INTEGER NOT NULL DEFAULT 0 CHECK (complete = 0 OR complete = 1),
    PRIMARY KEY (file_id, import_id)
) WITHOUT ROWID;
