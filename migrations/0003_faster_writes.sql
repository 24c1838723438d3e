-- Two rebuilds that make an import's writes cheaper.
--
-- `puzzles`: the same columns and data, with
-- - CHECK constraints written as plain comparisons. SQLite evaluates a
--   CHECK of the form `x IN (a, b, c)` (three or more values) by building a
--   temporary b-tree of the list on every INSERT: two such checks were half
--   the writer's cost of an import. The constraints themselves are unchanged.
-- - a new column `canonical_hash`, a 64-bit hash of type and canonical form,
--   indexed (with type) in place of `(type, canonical)`. The isomorph lookup needs only
--   equality, and an index of 81-character random strings was the largest
--   single cost of writing a million puzzles (its pages miss every cache);
--   one of integers is a fifth of the size. Lookups still compare the form
--   itself, so a hash collision costs nothing but a second look. The
--   importer computes the hashes of existing rows after this file runs.
--
-- `sources`: keyed by (puzzle_id, file_id, line) instead of (file_id, line,
-- puzzle_id), the same unique set, so "where did this puzzle come from" is
-- the table's own order and the separate `sources_puzzle` index (one more
-- b-tree written for every input line) goes.
--
-- The standard rebuild (https://sqlite.org/lang_altertable.html#otheralter):
-- the importer runs it with foreign keys off and checks them before commit.

CREATE TABLE puzzles_rebuilt (
    id        INTEGER PRIMARY KEY,
    type      TEXT NOT NULL
              CHECK (type = 'sudoku' OR type = 'killer' OR type = 'str8ts'),
    -- sudoku: givens; killer: cages plus givens; str8ts: given digits.
    clues     INTEGER NOT NULL,
    -- The puzzle's identity, readable. sudoku: 81 chars, givens and 0;
    -- killer: colour-free cage layout and sums; str8ts: legacy 162 form.
    givens    TEXT NOT NULL,
    -- The packed string of the propagated board (162, 162,162 or 243 chars).
    encoding  TEXT NOT NULL,
    -- 0, 1, or 2 meaning two or more.
    solutions INTEGER NOT NULL CHECK (solutions BETWEEN 0 AND 2),
    -- 81 characters when solutions = 1, else NULL.
    solution  TEXT,
    -- The import that first stored it.
    import_id INTEGER NOT NULL REFERENCES imports (id),
    -- 128-bit hash of (type, givens): the compact unique key that keeps
    -- inserts fast; the importer checks givens on every match.
    key       BLOB NOT NULL UNIQUE,
    -- The canonical (minlex) form shared by all isomorphs; NULL until computed.
    canonical TEXT,
    -- 64-bit hash of type and canonical (NULL with it): the isomorph index.
    canonical_hash INTEGER
);

INSERT INTO puzzles_rebuilt
    (id, type, clues, givens, encoding, solutions, solution, import_id, key, canonical)
SELECT id, type, clues, givens, encoding, solutions, solution, import_id, key, canonical
FROM puzzles;

DROP TABLE puzzles;
ALTER TABLE puzzles_rebuilt RENAME TO puzzles;

CREATE INDEX puzzles_type_clues ON puzzles (type, clues);
-- Type second: lookups give both, and counting isomorphs per type reads
-- this index alone.
CREATE INDEX puzzles_canonical_hash ON puzzles (canonical_hash, type);

-- The view reads `sources`: it goes first and comes back on the new table.
DROP VIEW provenance;

CREATE TABLE sources_rebuilt (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles (id),
    file_id   INTEGER NOT NULL REFERENCES files (id),
    line      INTEGER NOT NULL,
    import_id INTEGER NOT NULL REFERENCES imports (id),
    relation  TEXT NOT NULL DEFAULT 'exact'
              CHECK (relation = 'exact' OR relation = 'isomorph'),
    PRIMARY KEY (puzzle_id, file_id, line)
) WITHOUT ROWID;

INSERT INTO sources_rebuilt (puzzle_id, file_id, line, import_id, relation)
SELECT puzzle_id, file_id, line, import_id, relation FROM sources;

DROP TABLE sources;
ALTER TABLE sources_rebuilt RENAME TO sources;

CREATE VIEW provenance AS
SELECT s.puzzle_id, s.import_id, f.path AS file, s.line, s.relation
FROM sources AS s JOIN files AS f ON f.id = s.file_id;
