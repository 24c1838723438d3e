-- The first schema of a sudoku-archive archive. Applied once, in one
-- transaction, when PRAGMA user_version is 0; it then becomes 1.

-- One row per run of `sudoku-archive import`.
CREATE TABLE imports (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- NULL until the run completes: a killed or failed run keeps NULL here.
    finished_at TEXT,
    status      TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'finished', 'failed')),
    -- The command line, as a JSON array of strings.
    arguments   TEXT NOT NULL,
    -- Counts of input lines, kept current with every committed batch.
    lines       INTEGER NOT NULL DEFAULT 0,
    stored      INTEGER NOT NULL DEFAULT 0,
    duplicates  INTEGER NOT NULL DEFAULT 0,
    rejected    INTEGER NOT NULL DEFAULT 0,
    skipped     INTEGER NOT NULL DEFAULT 0,
    -- Why a failed run stopped.
    error       TEXT
);

-- Every input file ever read, by the path given on the command line
-- ('-' for standard input).
CREATE TABLE files (
    id   INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE
);

-- One row per distinct puzzle: (type, givens) is unique.
CREATE TABLE puzzles (
    id        INTEGER PRIMARY KEY,
    type      TEXT NOT NULL CHECK (type IN ('sudoku', 'killer', 'str8ts')),
    -- sudoku: givens; killer: cages plus givens; str8ts: given digits.
    clues     INTEGER NOT NULL,
    -- The puzzle's identity, readable. sudoku: 81 chars, givens and 0;
    -- killer: colour-free cage layout and sums; str8ts: legacy 162 form.
    givens    TEXT NOT NULL,
    -- The packed string of the propagated board (162, 162,162 or 243 chars).
    encoding  TEXT NOT NULL,
    -- 0, 1, or 2 meaning two or more.
    solutions INTEGER NOT NULL CHECK (solutions IN (0, 1, 2)),
    -- 81 characters when solutions = 1, else NULL.
    solution  TEXT,
    -- The import that first stored it.
    import_id INTEGER NOT NULL REFERENCES imports (id),
    -- 128-bit hash of (type, givens): the compact unique key that keeps
    -- inserts fast; the importer checks givens on every match.
    key       BLOB NOT NULL UNIQUE
);
CREATE INDEX puzzles_type_clues ON puzzles (type, clues);

-- Provenance: every accepted input line and the puzzle it became. A line
-- read again (a re-run) is recorded once.
CREATE TABLE sources (
    file_id   INTEGER NOT NULL REFERENCES files (id),
    line      INTEGER NOT NULL,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles (id),
    import_id INTEGER NOT NULL REFERENCES imports (id),
    PRIMARY KEY (file_id, line, puzzle_id)
) WITHOUT ROWID;
CREATE INDEX sources_puzzle ON sources (puzzle_id);

-- Lines that are not acceptable puzzles, and why.
CREATE TABLE rejects (
    id        INTEGER PRIMARY KEY,
    import_id INTEGER NOT NULL REFERENCES imports (id),
    file_id   INTEGER NOT NULL REFERENCES files (id),
    line      INTEGER NOT NULL,
    -- The input line (at most 1000 bytes of it), invalid UTF-8 replaced.
    raw       TEXT NOT NULL,
    -- A short stable code: length, character, duplicate, unsolvable, ...
    reason    TEXT NOT NULL,
    -- What was wrong, for people.
    message   TEXT NOT NULL,
    UNIQUE (file_id, line, reason, raw)
);
CREATE INDEX rejects_reason ON rejects (reason);

-- Provenance with file names, for reading in the sqlite3 shell.
CREATE VIEW provenance AS
SELECT s.puzzle_id, s.import_id, f.path AS file, s.line
FROM sources AS s JOIN files AS f ON f.id = s.file_id;

-- Rejects with file names.
CREATE VIEW rejected_lines AS
SELECT r.import_id, f.path AS file, r.line, r.reason, r.message, r.raw
FROM rejects AS r JOIN files AS f ON f.id = r.file_id;
