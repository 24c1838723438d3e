-- Whether a uniquely solvable classic puzzle is minimal: 1 when removing
-- any single given leaves more than one solution, 0 when some given can
-- go. NULL: not computed yet (`sudoku-archive fill minimal` computes it),
-- or not applicable (another type, not uniquely solvable). Adding a
-- nullable column rewrites no row.
ALTER TABLE puzzles ADD COLUMN minimal INTEGER CHECK (minimal IN (0, 1));
