-- Rebuilds `puzzles` with the same columns, data and indexes, but CHECK
-- constraints written as plain comparisons. SQLite evaluates a CHECK of
-- the form `x IN (a, b, c)` (three or more values) by building a temporary
-- b-tree of the list on every INSERT: two such checks were half the
-- writer's cost of an import. The constraints themselves are unchanged.
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
    canonical TEXT
);

INSERT INTO puzzles_rebuilt
    (id, type, clues, givens, encoding, solutions, solution, import_id, key, canonical)
SELECT id, type, clues, givens, encoding, solutions, solution, import_id, key, canonical
FROM puzzles;

DROP TABLE puzzles;
ALTER TABLE puzzles_rebuilt RENAME TO puzzles;

CREATE INDEX puzzles_type_clues ON puzzles (type, clues);
CREATE INDEX puzzles_canonical ON puzzles (type, canonical);
