-- The reject reason for a digit twice in a row, column, box or cage was
-- `duplicate`, the word the import also uses for a line whose puzzle is
-- already stored. It is `repeated-digit` from this schema on; the rows of
-- older imports are renamed so that a file read again finds its rejects
-- by (file, line, reason, raw) and adds none twice.

UPDATE rejects SET reason = 'repeated-digit' WHERE reason = 'duplicate';
