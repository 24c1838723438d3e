-- Each puzzle's difficulty (issue 38), as `sudoku-archive rate` computes
-- it: NULL until rated, and always NULL for a puzzle without exactly one
-- solution (`solutions` says which: 0 or 2+ are not rated) or of a type
-- with no rater yet.
--
-- `rating` is on the type's own scale (sudoku: Sudoku Explainer's ER,
-- killer and str8ts: the archive's own, docs/difficulty.md), a REAL with
-- one decimal, so that the shell compares it as written: `rating >= 7`.
ALTER TABLE puzzles ADD COLUMN rating REAL;
-- The technique that set the rating (SE's name for classic: 'X-Wing').
ALTER TABLE puzzles ADD COLUMN rating_technique TEXT;
-- 1 when the rating is only a lower bound ("ER at least 9.0": the rater
-- has no technique that goes on, or its counted budget ran out), else 0.
ALTER TABLE puzzles ADD COLUMN rating_bound INTEGER
    CHECK (rating_bound IN (0, 1));
-- The version of the rater that made it: a rating whose version is not the
-- binary's current one for its type is old, and `rate` redoes it.
ALTER TABLE puzzles ADD COLUMN rating_version INTEGER;

-- `WHERE type = 'sudoku' AND rating >= 7` reads this index.
CREATE INDEX puzzles_type_rating ON puzzles (type, rating);

-- A `rate` run is a row of `imports` (its arguments start with "rate");
-- this is how many puzzles it rated, kept current with every batch.
ALTER TABLE imports ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
