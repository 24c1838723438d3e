-- The isomorph index keeps only `canonical_hash`. The hash already covers
-- the type (it is a hash of type and form), so `type` in the index told no
-- two entries apart; it made every entry about a third larger and every
-- insert compare a string, a cost paid once per stored puzzle on the
-- random-order index that costs an import the most to keep. Lookups still
-- test `type` and `canonical` on the row they find.

DROP INDEX puzzles_canonical_hash;
CREATE INDEX puzzles_canonical_hash ON puzzles (canonical_hash);
