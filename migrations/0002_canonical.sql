-- Isomorph-aware deduplication: each puzzle's canonical form (the least
-- string among all its equivalent forms: relabelled, permuted, rotated), and
-- whether a provenance line was an exact copy or an isomorph of its puzzle.
-- The importer fills `canonical` for rows that existed before this migration
-- right after applying it.

ALTER TABLE puzzles ADD COLUMN canonical TEXT;
CREATE INDEX puzzles_canonical ON puzzles (type, canonical);

-- 'exact': the line had the puzzle's own givens; 'isomorph': it was an
-- equivalent form of it (import --dedup isomorphs).
ALTER TABLE sources ADD COLUMN relation TEXT NOT NULL DEFAULT 'exact'
    CHECK (relation IN ('exact', 'isomorph'));

-- Lines of an import that were isomorphs of a stored puzzle (a subset of
-- its duplicates).
ALTER TABLE imports ADD COLUMN isomorphs INTEGER NOT NULL DEFAULT 0;

DROP VIEW provenance;
CREATE VIEW provenance AS
SELECT s.puzzle_id, s.import_id, f.path AS file, s.line, s.relation
FROM sources AS s JOIN files AS f ON f.id = s.file_id;
