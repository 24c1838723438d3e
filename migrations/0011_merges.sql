-- `sudoku-archive merge` folds other archives into this one. Each import
-- of a merged archive becomes an import here: its `imports` row is copied
-- (times, status, arguments, counts), and the puzzles, provenance lines,
-- rejects and file reads it brought keep that row as their `import_id`.
-- This table says where each such import came from. The merge run itself
-- is an `imports` row too (its arguments start with "merge"), with its own
-- counts: lines = puzzles and reject rows read, stored = puzzles new here,
-- duplicates = puzzles already held (isomorphs = of those, by canonical
-- form), rejected = reject rows read.
--
-- A merged import is known again by its `started_at` and `arguments` (the
-- same import reached through two archives, or merged twice, is one row).

CREATE TABLE merged_imports (
    -- The `imports` row here that stands for the merged import.
    import_id INTEGER PRIMARY KEY REFERENCES imports (id),
    -- The merge run that brought it in first.
    merge_id  INTEGER NOT NULL REFERENCES imports (id),
    -- The archive it came from, as named on the merge's command line.
    archive   TEXT NOT NULL,
    -- Its `imports.id` in that archive.
    source_id INTEGER NOT NULL
);
