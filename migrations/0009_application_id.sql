-- Marks the file as a sudoku-archive archive in its SQLite header
-- (`PRAGMA application_id`, bytes 68-71: "SDKA"), so that opening a file
-- can tell ours from another program's database before anything is
-- written. Older archives are recognised by their tables and get the mark
-- when they are upgraded.
PRAGMA application_id = 1396984641;
