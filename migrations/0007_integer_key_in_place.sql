-- The second half of 0006: the rebuilt `puzzles`, with integer keys, takes
-- the place of the old one, and gets its indexes back.

DROP TABLE puzzles;
ALTER TABLE puzzles_rebuilt RENAME TO puzzles;

CREATE INDEX puzzles_type_clues ON puzzles (type, clues);
CREATE INDEX puzzles_canonical_hash ON puzzles (canonical_hash);
