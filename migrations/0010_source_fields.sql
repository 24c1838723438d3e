-- The other fields of an input record, kept with its provenance row: the
-- ids, dates, ratings and names that came with a puzzle on its line (or a
-- grid's title), as JSON text: an array of strings in the record's order,
-- or an object of header name to value. NULL when the record had none.
-- Bounded by the importer (512 bytes a row).
ALTER TABLE sources ADD COLUMN fields TEXT;

DROP VIEW provenance;
CREATE VIEW provenance AS
SELECT s.puzzle_id, s.import_id, f.path AS file, s.line, s.relation, s.fields
FROM sources AS s JOIN files AS f ON f.id = s.file_id;
