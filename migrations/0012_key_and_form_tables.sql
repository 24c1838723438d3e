-- The two lookups that deduplicate imports move out of `puzzles` into
-- tables of their own: `puzzles_by_key` (the unique key, which was the
-- UNIQUE index on `puzzles.key`) and `puzzles_by_form` (the isomorph
-- index, which was `puzzles_canonical_hash`). The columns `puzzles.key` and
-- `puzzles.canonical_hash` stay, with the same values; they are no longer
-- indexed, so a query looks a puzzle up through these tables.
--
-- Why: both are hashes, so each new puzzle went into each index at a
-- random place, and into a 20M-puzzle archive that cost about 5.5 s a
-- million puzzles per index (two levels of 16 KiB pages missing the CPU's
-- caches on every insert). An index inside `puzzles` takes its entries
-- when the row goes in, in the order of the rows; a table of its own can
-- take a whole batch's entries at its commit, sorted, as one sweep. A 1M
-- new-puzzle import into a 20M archive fell from 14.0-14.6 s to 10.2 s
-- with the archive read from disk, from 10.7-11.2 s to 8.9 s with it
-- cached (docs/performance.md, issue 24).
--
-- The invariant the importer and `merge` keep, checked by the tests: each
-- puzzle has exactly one `puzzles_by_key` row, holding its `key`, and one
-- `puzzles_by_form` row when its `canonical_hash` is not NULL, holding that.
--
-- `puzzles` is rebuilt without the UNIQUE constraint (SQLite cannot drop
-- the index behind one in place): the standard rebuild
-- (https://sqlite.org/lang_altertable.html#otheralter), with foreign keys
-- off and checked before commit. Columns, their order and the ids are
-- unchanged. The old table's pages go to the free list, which later
-- imports fill first; `VACUUM` gives them back to the file system.

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
    -- 64-bit hash of (type, givens), stepped past other puzzles with the
    -- same hash: the puzzle's unique key, looked up in `puzzles_by_key`.
    key       INTEGER NOT NULL,
    -- The canonical (minlex) form shared by all isomorphs; NULL until computed.
    canonical TEXT,
    -- 64-bit hash of type and canonical (NULL with it), looked up in
    -- `puzzles_by_form`.
    canonical_hash INTEGER
);

INSERT INTO puzzles_rebuilt
    (id, type, clues, givens, encoding, solutions, solution, import_id, key,
     canonical, canonical_hash)
SELECT id, type, clues, givens, encoding, solutions, solution, import_id, key,
       canonical, canonical_hash
FROM puzzles ORDER BY id;

DROP TABLE puzzles;
ALTER TABLE puzzles_rebuilt RENAME TO puzzles;
CREATE INDEX puzzles_type_clues ON puzzles (type, clues);

-- The unique key: where a puzzle is found by its type and givens.
CREATE TABLE puzzles_by_key (
    key       INTEGER PRIMARY KEY,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles (id)
);
INSERT INTO puzzles_by_key (key, puzzle_id) SELECT key, id FROM puzzles ORDER BY key;

-- The isomorph index: the puzzles of each canonical hash, least id first.
CREATE TABLE puzzles_by_form (
    canonical_hash INTEGER NOT NULL,
    puzzle_id      INTEGER NOT NULL REFERENCES puzzles (id),
    PRIMARY KEY (canonical_hash, puzzle_id)
) WITHOUT ROWID;
INSERT INTO puzzles_by_form (canonical_hash, puzzle_id)
SELECT canonical_hash, id FROM puzzles WHERE canonical_hash IS NOT NULL ORDER BY 1, 2;
